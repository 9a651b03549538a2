/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Built without libbpf: the BPF reader never opens, and /proc is read. */
#include "sample/bpf/bpf_tasks.h"

#include <errno.h>

#include "util/i18n.h"

struct bpf_tasks *bpf_tasks_open(const char **why)
{
	*why = _("built without BPF");
	return NULL;
}

void bpf_tasks_free(struct bpf_tasks *b)
{
	(void)b;
}

long bpf_tasks_read(struct bpf_tasks *b, double *mono)
{
	(void)b;
	*mono = 0;
	return -ENOSYS;
}

const struct task_rec_key *bpf_tasks_group(const struct bpf_tasks *b, int tgid, size_t *n)
{
	(void)b;
	(void)tgid;
	*n = 0;
	return NULL;
}

const struct task_rec *bpf_tasks_rec(const struct bpf_tasks *b, const struct task_rec_key *k)
{
	(void)b;
	(void)k;
	return NULL;
}
