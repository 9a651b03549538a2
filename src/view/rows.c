#include "view/rows.h"

#include <stdlib.h>

#include "view/sort.h"

bool view_threads_shown(const struct view_opts *vo, const struct tv_task *proc)
{
	if (!proc->threads_are_rows)
		return false;
	return vo->all_threads || (vo->expanded && vo->expanded(vo->expanded_ctx, proc->tgid));
}

int rows_build(const struct snapshot *s, const struct view_opts *vo, struct rows *out)
{
	out->v = NULL;
	out->n = 0;
	const struct column *col = &vo->cs->cols[vo->sort_col];
	bool desc = col->sort_descending != vo->reverse;
	size_t total = s->nprocs;
	for (size_t i = 0; i < s->nprocs; i++)
		if (view_threads_shown(vo, &s->procs[i]))
			total += s->procs[i].nthreads_read;
	const struct tv_task **procs = malloc((s->nprocs ? s->nprocs : 1) * sizeof(*procs));
	out->v = malloc((total ? total : 1) * sizeof(*out->v));
	const struct tv_task **threads = NULL;
	if (!procs || !out->v)
		goto fail;
	for (size_t i = 0; i < s->nprocs; i++)
		procs[i] = &s->procs[i];
	sort_tasks(procs, s->nprocs, col, desc);
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct tv_task *p = procs[i];
		bool shown = view_threads_shown(vo, p);
		out->v[out->n++] = (struct row){p, false, false, shown, false};
		if (!shown || p->nthreads_read == 0)
			continue;
		const struct tv_task **nt = realloc(threads, p->nthreads_read * sizeof(*threads));
		if (!nt)
			goto fail;
		threads = nt;
		for (size_t j = 0; j < p->nthreads_read; j++)
			threads[j] = &p->threads[j];
		sort_tasks(threads, p->nthreads_read, col, desc);
		for (size_t j = 0; j < p->nthreads_read; j++)
			out->v[out->n++] = (struct row){threads[j], true, j + 1 == p->nthreads_read, false, false};
	}
	free(threads);
	free(procs);
	return 0;
fail:
	free(threads);
	free(procs);
	rows_free(out);
	return -1;
}

void rows_free(struct rows *r)
{
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
