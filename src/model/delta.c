#include "model/delta.h"

#include <math.h>
#include <stddef.h>
#include <unistd.h>

double delta_rate(int64_t prev, int64_t cur, double interval)
{
	if (prev == TV_UNKNOWN || cur == TV_UNKNOWN || !(interval > 0) || cur < prev)
		return NAN;
	return (double)(cur - prev) / interval;
}

double delta_delay_pct(int64_t prev_ns, int64_t cur_ns, double interval)
{
	double r = delta_rate(prev_ns, cur_ns, interval);
	return isnan(r) ? NAN : r / 1e9 * 100.0;
}

double delta_delay_avg_ms(int64_t prev_count, int64_t cur_count, int64_t prev_ns, int64_t cur_ns)
{
	if (prev_count == TV_UNKNOWN || cur_count == TV_UNKNOWN || prev_ns == TV_UNKNOWN ||
	    cur_ns == TV_UNKNOWN || cur_count <= prev_count || cur_ns < prev_ns)
		return NAN;
	return (double)(cur_ns - prev_ns) / (double)(cur_count - prev_count) / 1e6;
}

/* The same task in the previous snapshot: same ID and, where both are known, same start time. */
static const struct tv_task *same_task(const struct tv_task *old, const struct tv_task *t)
{
	if (!old)
		return NULL;
	/* a TID seen in the same process an interval ago is the same thread unless
	 * PIDs wrapped within it; a counter that went down then reads as unknown */
	if (old->start_ticks == TV_START_UNKNOWN || t->start_ticks == TV_START_UNKNOWN)
		return old;
	return old->start_ticks == t->start_ticks ? old : NULL;
}

/* Counters of a task born during the interval: all known and zero. */
static struct tv_task newborn_counters(void)
{
	struct tv_task z;
	task_init(&z);
	z.cpu_ticks = 0;
	z.ctxt_vol = z.ctxt_invol = 0;
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		z.delay[c] = (struct tv_delay){0, 0, 0, 0};
	return z;
}

/* The previous counters of a task: its own, zero when it was born in the
 * interval (it started after the previous sample, or is missing from a
 * complete thread list), NULL when its past is unknown. */
static const struct tv_task *previous_of(const struct tv_task *old, const struct tv_task *t,
					 const struct snapshot *prev, const struct tv_task *zero)
{
	if (old)
		return old;
	if (t->start_ticks != TV_START_UNKNOWN && (double)t->start_ticks > prev->boot_ticks)
		return zero;
	return NULL;
}

/* What every task's rates share in one delta step. */
struct interval {
	double dt;                  /* seconds */
	double hz;                  /* clock ticks per second */
	const struct colset *cs;
	size_t npvals;
	const struct tv_task *zero; /* counters of a task born in the interval */
};

static void task_rates(const struct tv_task *old, struct tv_task *t, const struct interval *iv)
{
	if (!old)
		return;
	double dt = iv->dt;
	double r = delta_rate(old->cpu_ticks, t->cpu_ticks, dt);
	t->cpu_pct = isnan(r) ? NAN : r / iv->hz * 100.0;
	t->ctxt_vol_rate = delta_rate(old->ctxt_vol, t->ctxt_vol, dt);
	t->ctxt_invol_rate = delta_rate(old->ctxt_invol, t->ctxt_invol, dt);
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		t->delay_pct[c] = delta_delay_pct(old->delay[c].total_ns, t->delay[c].total_ns, dt);
		t->delay_avg_ms[c] = delta_delay_avg_ms(old->delay[c].count, t->delay[c].count,
							old->delay[c].total_ns, t->delay[c].total_ns);
	}
	/* plugin counters become rates; a newborn (no pvals) counts from zero */
	for (size_t i = iv->cs->nbuiltin; t->pvals && i < iv->cs->n; i++) {
		const struct column *col = &iv->cs->cols[i];
		size_t slot = (size_t)col->arg;
		if (!col->counter || slot >= iv->npvals)
			continue;
		struct tv_pvalue *v = &t->pvals[slot];
		const struct tv_pvalue *o = old->pvals ? &old->pvals[slot] : NULL;
		double rate = NAN;
		if (v->known && o && o->known)
			rate = delta_rate(o->i, v->i, dt);
		else if (v->known && old == iv->zero)
			rate = delta_rate(0, v->i, dt);
		v->f = rate;
		v->known = !isnan(rate);
	}
}

/* Process switch rates as the sum of its threads' rates, when the totals
 * came from the threads themselves: a thread that exited must not make the
 * sum go backwards. */
static void ctxt_rates_from_threads(const struct tv_task *old, struct tv_task *p, const struct snapshot *prev,
				    double dt, const struct tv_task *zero)
{
	p->ctxt_vol_rate = p->ctxt_invol_rate = NAN;
	if (!p->threads_complete)
		return;
	double vol = 0, invol = 0;
	for (size_t i = 0; i < p->nthreads_read; i++) {
		const struct tv_task *t = &p->threads[i];
		const struct tv_task *o = NULL;
		if (old && old->threads_complete) {
			o = same_task(task_find_thread(old, t->tid), t);
			if (!o)
				o = zero; /* not in a complete list: started since */
		}
		o = previous_of(o, t, prev, zero);
		double rv = o ? delta_rate(o->ctxt_vol, t->ctxt_vol, dt) : NAN;
		double ri = o ? delta_rate(o->ctxt_invol, t->ctxt_invol, dt) : NAN;
		if (isnan(rv) || isnan(ri))
			return;
		vol += rv;
		invol += ri;
	}
	p->ctxt_vol_rate = vol;
	p->ctxt_invol_rate = invol;
}

void delta_apply(const struct snapshot *prev, struct snapshot *cur, const struct colset *cs)
{
	if (!prev)
		return;
	double dt = cur->mono - prev->mono;
	const struct tv_task zero = newborn_counters();
	long hz = sysconf(_SC_CLK_TCK);
	const struct interval iv = {dt, hz > 0 ? (double)hz : 100.0, cs, cur->npvals, &zero};
	for (size_t i = 0; i < cur->nprocs; i++) {
		struct tv_task *p = &cur->procs[i];
		const struct tv_task *old = same_task(snapshot_find(prev, p->tgid), p);
		task_rates(previous_of(old, p, prev, &zero), p, &iv);
		if (!cur->ctxt_from_group)
			ctxt_rates_from_threads(old, p, prev, dt, &zero);
		for (size_t j = 0; j < p->nthreads_read; j++) {
			struct tv_task *t = &p->threads[j];
			const struct tv_task *ot = NULL;
			if (old) {
				ot = same_task(task_find_thread(old, t->tid), t);
				if (!ot && old->threads_complete)
					ot = &zero;
			}
			task_rates(previous_of(ot, t, prev, &zero), t, &iv);
		}
	}
}
