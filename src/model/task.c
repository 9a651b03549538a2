/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "model/task.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void task_init(struct tv_task *t)
{
	memset(t, 0, sizeof(*t));
	t->state = '?';
	t->nice = t->prio = TV_UNKNOWN32;
	t->uid = TV_UNKNOWN;
	t->cpu_ns = TV_UNKNOWN;
	t->nthreads = TV_UNKNOWN;
	t->vm_size = t->vm_rss = t->vm_pte = t->vm_swap = t->vm_stk = t->vm_hwm = TV_UNKNOWN;
	t->ctxt_vol = t->ctxt_invol = TV_UNKNOWN;
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		t->delay[c] = (struct tv_delay){TV_UNKNOWN, TV_UNKNOWN};
		t->delay_pct[c] = NAN;
		t->delay_avg_ms[c] = NAN;
	}
	t->cpu_pct = NAN;
	t->ctxt_vol_rate = t->ctxt_invol_rate = NAN;
}

void task_release(struct tv_task *t, size_t npvals)
{
	for (size_t i = 0; i < t->nthreads_read; i++)
		task_release(&t->threads[i], npvals);
	free(t->threads);
	for (size_t i = 0; i < t->nexited; i++)
		task_release(&t->exited[i], npvals);
	free(t->exited);
	free(t->tnames);
	if (t->pvals) {
		for (size_t i = 0; i < npvals; i++)
			free(t->pvals[i].s);
		free(t->pvals);
	}
	free(t->cmdline);
	free(t->peaks);
}

void task_clear(struct tv_task *t, size_t npvals)
{
	task_release(t, npvals);
	task_init(t);
}
