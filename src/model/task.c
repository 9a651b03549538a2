/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "model/task.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct tv_mem tv_mem_unknown = {
	.size = TV_UNKNOWN, .rss = TV_UNKNOWN, .pte = TV_UNKNOWN, .swap = TV_UNKNOWN, .stk = TV_UNKNOWN, .hwm = TV_UNKNOWN,
	.rss_anon = TV_UNKNOWN, .rss_file = TV_UNKNOWN, .rss_shmem = TV_UNKNOWN,
	.stack_size = TV_UNKNOWN, .stack_rss = TV_UNKNOWN,
	.io_read = TV_UNKNOWN, .io_write = TV_UNKNOWN, .io_read_rate = NAN, .io_write_rate = NAN,
};

static const struct tv_stack *thread_stack(const struct tv_task *t)
{
	const struct tv_mem *m = task_mem(t);
	/* a thread row with a block of its own (a replay) holds its own stack only */
	if (t->mem_own)
		return m->nstacks == 1 ? &m->stacks[0] : NULL;
	size_t lo = 0, hi = m->nstacks;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->stacks[mid].tid < t->tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nstacks && m->stacks[lo].tid == t->tid ? &m->stacks[lo] : NULL;
}

int64_t task_stack_size(const struct tv_task *t)
{
	if (!t->is_thread)
		return task_mem(t)->stack_size;
	const struct tv_stack *s = thread_stack(t);
	return s ? s->size : TV_UNKNOWN;
}

int64_t task_stack_rss(const struct tv_task *t)
{
	if (!t->is_thread)
		return task_mem(t)->stack_rss;
	const struct tv_stack *s = thread_stack(t);
	return s ? s->rss : TV_UNKNOWN;
}

void task_init(struct tv_task *t)
{
	memset(t, 0, sizeof(*t));
	t->state = '?';
	t->nice = t->prio = TV_UNKNOWN32;
	t->uid = TV_UNKNOWN;
	t->cpu_ns = TV_UNKNOWN;
	t->nthreads = TV_UNKNOWN;
	t->ctxt_vol = t->ctxt_invol = TV_UNKNOWN;
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		t->delay[c] = (struct tv_delay){TV_UNKNOWN, TV_UNKNOWN};
		t->delay_pct[c] = NAN;
		t->delay_avg_ms[c] = NAN;
	}
	t->cpu_pct = NAN;
	t->ctxt_vol_rate = t->ctxt_invol_rate = NAN;
}

void task_drop_exited(struct tv_task *t, size_t npvals)
{
	for (size_t i = 0; t->exited && i < t->nexited; i++) /* no list: rec_decode_base */
		task_release(&t->exited[i], npvals);
	free(t->exited);
	t->exited = NULL;
}

void task_release(struct tv_task *t, size_t npvals)
{
	for (size_t i = 0; i < t->nthreads_read; i++)
		task_release(&t->threads[i], npvals);
	free(t->threads);
	task_drop_exited(t, npvals);
	free(t->tnames);
	if (t->pvals) {
		for (size_t i = 0; i < npvals; i++)
			free(t->pvals[i].s);
		free(t->pvals);
	}
	free(t->cmdline);
	free(t->peaks);
	free(t->comm_long);
	if (t->mem_own) {
		free(t->mem->stacks);
		free(t->mem);
	}
}

struct tv_mem *task_mem_mut(struct tv_task *t)
{
	if (t->mem_own)
		return t->mem;
	struct tv_mem *m = malloc(sizeof(*m));
	if (!m)
		return NULL;
	*m = *task_mem(t);
	m->stacks = NULL; /* the other block's */
	m->nstacks = 0;
	t->mem = m;
	t->mem_own = true;
	return m;
}

void task_set_comm(struct tv_task *t, const char *s, size_t n)
{
	n = strnlen(s, n < TV_COMM_MAX - 1 ? n : TV_COMM_MAX - 1);
	free(t->comm_long);
	t->comm_long = NULL;
	char *l = n >= sizeof(t->comm_short) ? malloc(n + 1) : NULL;
	if (l) {
		memcpy(l, s, n);
		l[n] = '\0';
		t->comm_long = l;
		n = 0;
	} else if (n >= sizeof(t->comm_short)) {
		n = sizeof(t->comm_short) - 1;
	}
	memcpy(t->comm_short, s, n);
	t->comm_short[n] = '\0';
}

void task_copy_comm(struct tv_task *dst, const struct tv_task *src)
{
	const char *c = task_comm(src);
	task_set_comm(dst, c, strlen(c));
}

void task_clear(struct tv_task *t, size_t npvals)
{
	task_release(t, npvals);
	task_init(t);
}
