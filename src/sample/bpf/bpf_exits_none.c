/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Built without libbpf: exit records come from the taskstats listener alone. */
#include "sample/bpf/bpf_exits.h"

#include "util/i18n.h"

struct bpf_exits *bpf_exits_open(const char **why)
{
	*why = _("built without BPF");
	return NULL;
}

void bpf_exits_free(struct bpf_exits *b)
{
	(void)b;
}

size_t bpf_exits_take(struct bpf_exits *b, struct ts_exit_rec **out, uint64_t *lost)
{
	(void)b;
	*out = NULL;
	*lost = 0;
	return 0;
}

void bpf_exits_give_back(struct bpf_exits *b, struct ts_exit_rec *recs)
{
	(void)b;
	(void)recs;
}
