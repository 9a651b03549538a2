/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "view/filter.h"

#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "util/num.h"
#include "util/text.h"

void filter_init(struct filter *f)
{
	memset(f, 0, sizeof(*f));
	f->uid = TV_UNKNOWN;
}

void filter_free(struct filter *f)
{
	if (!f)
		return;
	free(f->pids);
	free(f->text);
	free(f->cgroup);
	filter_init(f);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

int filter_add_pids(struct filter *f, const char *list, char **bad)
{
	*bad = NULL;
	/* room for every PID of the list at once: one by one, a long list costs its square */
	size_t more = 1;
	for (const char *c = list; *c; c++)
		more += *c == ',';
	int32_t *room = realloc(f->pids, (f->npids + more) * sizeof(*room));
	if (!room)
		return -1;
	f->pids = room;
	const char *p = list;
	for (;;) {
		size_t n = strcspn(p, ",");
		char *tok = strndup(p, n);
		int64_t v;
		if (!tok)
			return -1;
		if (!num_parse_int(tok, 1, INT32_MAX, &v)) {
			*bad = tok;
			return -1;
		}
		free(tok);
		f->pids[f->npids++] = (int32_t)v;
		if (!p[n])
			break;
		p += n + 1;
	}
	qsort(f->pids, f->npids, sizeof(*f->pids), cmp_i32);
	size_t w = 0;
	for (size_t i = 0; i < f->npids; i++)
		if (w == 0 || f->pids[w - 1] != f->pids[i])
			f->pids[w++] = f->pids[i];
	f->npids = w;
	return 0;
}

int filter_set_user(struct filter *f, const char *name_or_uid)
{
	struct passwd *pw = getpwnam(name_or_uid);
	if (pw) {
		f->uid = pw->pw_uid;
		return 0;
	}
	int64_t v;
	if (num_parse_int(name_or_uid, 0, UINT32_MAX - 1, &v)) {
		f->uid = v;
		return 0;
	}
	return -1;
}

int filter_set_text(struct filter *f, const char *text)
{
	free(f->text);
	f->text = NULL;
	if (text && *text && !(f->text = strdup(text)))
		return -1;
	return 0;
}

int filter_set_cgroup(struct filter *f, const char *text)
{
	free(f->cgroup);
	f->cgroup = NULL;
	if (text && *text && !(f->cgroup = strdup(text)))
		return -1;
	return 0;
}

bool filter_matches_cgroup(const struct filter *f, const char *path, const char *unit)
{
	if (!f || !f->cgroup)
		return true;
	return (path && text_contains_icase(path, f->cgroup)) || (unit && text_contains_icase(unit, f->cgroup));
}

bool filter_wants_pid(const struct filter *f, int32_t id)
{
	if (!f || f->npids == 0)
		return true;
	return bsearch(&id, f->pids, f->npids, sizeof(*f->pids), cmp_i32) != NULL;
}

bool filter_wants_uid(const struct filter *f, int64_t uid)
{
	return !f || f->uid == TV_UNKNOWN || f->uid == uid;
}

bool filter_matches_text(const struct filter *f, const char *comm, const char *cmdline)
{
	if (!f || !f->text)
		return true;
	return (comm && text_contains_icase(comm, f->text)) ||
	       (cmdline && text_contains_icase(cmdline, f->text));
}

bool filter_matches_task(const struct filter *f, const struct tv_task *proc)
{
	if (!f || !f->text)
		return true;
	if (filter_matches_text(f, task_comm(proc), proc->tgid == f->self ? NULL : proc->cmdline))
		return true;
	for (size_t i = 0; i < proc->nthreads_read; i++)
		if (proc->threads_are_rows && text_contains_icase(task_comm(&proc->threads[i]), f->text))
			return true;
	for (const struct tv_tname *n = proc->tnames; n && n->tid; n++)
		if (text_contains_icase(n->name, f->text))
			return true;
	return false;
}
