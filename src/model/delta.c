/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rates between two snapshots. Every counter carries the time it was read
 * (tv_task.t_cpu, t_ctxt, t_delay; tv_mem.t_io): a rate is its change over the time
 * between its own two reads. A process whose threads were read is the sum of
 * its threads' rates plus what its exited threads did in the interval; where
 * that is unknown, the sum is marked as a lower bound. Its CPU is its own CPU
 * clock's, which counts every thread (the sum where the two agree).
 */
#include "model/delta.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

double delta_rate(int64_t prev, int64_t cur, double interval)
{
	/* a counter never goes below zero nor back: either is no measurement (a
	 * plugin's or a recording's garbage), and cur - prev cannot overflow then */
	if (prev == TV_UNKNOWN || cur == TV_UNKNOWN || prev < 0 || !(interval > 0) || cur < prev)
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
	    cur_ns == TV_UNKNOWN || prev_count < 0 || prev_ns < 0 || cur_count <= prev_count || cur_ns < prev_ns)
		return NAN;
	return (double)(cur_ns - prev_ns) / (double)(cur_count - prev_count) / 1e6;
}

double delta_delay_bound(double age, double ntasks, double hz)
{
	if (!(age >= 0) || !(ntasks >= 1))
		return INFINITY;
	/* start times are whole clock ticks: allow two of them, and a millisecond */
	return (age + 2.0 / hz + 0.001) * ntasks;
}

/* The same task in the previous snapshot: same ID and, where both are known, same start time. */
static const struct tv_task *same_task(const struct tv_task *old, const struct tv_task *t)
{
	if (!old)
		return NULL;
	if (old->start_ticks == TV_START_UNKNOWN || t->start_ticks == TV_START_UNKNOWN)
		return old; /* a counter that went down then reads as unknown */
	return old->start_ticks == t->start_ticks ? old : NULL;
}

/* Counters of task t, born during the interval: zero, as of `since`. */
static void newborn_counters(struct tv_task *z, const struct tv_task *t, double since)
{
	task_init(z);
	z->cpu_ns = 0;
	z->cpu_fine = t->cpu_fine; /* zero is zero in ticks and in nanoseconds */
	z->ctxt_vol = z->ctxt_invol = 0;
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		z->delay[c] = (struct tv_delay){0, 0};
	z->t_cpu = z->t_ctxt = z->t_delay = since;
}

/* What every task's rates share in one delta step. */
struct interval {
	const struct snapshot *prev;
	struct snapshot *cur;
	double dt;                  /* between the two refreshes' starts: plugin counters */
	double hz;
	const struct colset *cs;
};

/* A task's changes over its own interval; NAN where unknown. */
struct change {
	double cpu;                 /* ns per second */
	double vol, invol;          /* per second */
	double dly[TV_DELAY_NCLASS];           /* ns per second */
	double dtot[TV_DELAY_NCLASS], dcnt[TV_DELAY_NCLASS]; /* ns and events in the interval */
};

static double span(double from, double to)
{
	return from > 0 && to > 0 ? to - from : NAN;
}

static double age_at(const struct tv_task *t, double when, const struct interval *iv)
{
	if (t->start_ticks == TV_START_UNKNOWN || !(when > 0))
		return NAN;
	return when + iv->cur->boot_offset - (double)t->start_ticks / iv->hz;
}

static void reject(struct interval *iv, const struct tv_task *t, int c, double step, double bound)
{
	struct snapshot *s = iv->cur;
	struct tv_reject *v = realloc(s->rejects, (s->nrejects + 1) * sizeof(*v));
	if (!v)
		return;
	s->rejects = v;
	s->rejects[s->nrejects++] = (struct tv_reject){.tid = t->tid, .tgid = t->tgid, .is_thread = t->is_thread,
						       .cls = (enum tv_delay_class)c, .step_s = step, .bound_s = bound};
}

/*
 * A CPU rate above what the CPUs it can run on give (one for a thread, every
 * online CPU for a process or group) is no measurement: a reading timed
 * wrong, or a counter of another task. Shown as unknown, and reported. An
 * excess within the precision of the counters is the bound: the kernel adds
 * a running thread's time at its CPU's tick or when it is switched out, so
 * a reading can lag by up to a tick (10 ms at HZ=100) for each CPU, which
 * at -d 0.1 is several percent; and within the timing of the reads
 * (CPU_BOUND_SLACK).
 */
#define CPU_BOUND_SLACK 0.005
#define CPU_BOUND_TICK_S 0.010

/* The highest rate, % of one CPU, that ncpu CPUs can show over dt seconds. */
static double cpu_limit(double ncpu, double dt)
{
	double tick = dt > 0 ? CPU_BOUND_TICK_S / dt : 0;
	return ncpu * 100.0 * (1 + CPU_BOUND_SLACK + tick);
}

static double cpu_bounded(struct snapshot *s, struct tv_reject r, double pct, double ncpu, double dt)
{
	if (!(ncpu > 0) || isnan(pct) || pct <= ncpu * 100.0)
		return pct;
	if (pct <= cpu_limit(ncpu, dt))
		return ncpu * 100.0;
	struct tv_reject *v = realloc(s->rejects, (s->nrejects + 1) * sizeof(*v));
	if (v) {
		s->rejects = v;
		r.cpu = true;
		r.step_s = pct / 100.0 * dt;
		r.bound_s = ncpu * dt;
		s->rejects[s->nrejects++] = r;
	}
	return NAN;
}

static void cpu_bound_task(struct interval *iv, struct tv_task *t, double ncpu)
{
	struct tv_reject r = {.tid = t->tid, .tgid = t->tgid, .is_thread = t->is_thread};
	t->cpu_pct = cpu_bounded(iv->cur, r, t->cpu_pct, ncpu, iv->dt);
}

/*
 * The changes of t since old (a real earlier reading or newborn zeros).
 * ntasks: how many tasks the delay counters sum (1 for a thread); a step
 * larger than their lifetimes allow is a kernel counter jump, rejected.
 */
static void changes(struct interval *iv, const struct tv_task *old, const struct tv_task *t, double ntasks,
		    struct change *ch)
{
	double dt = span(old->t_cpu, t->t_cpu);
	ch->cpu = old->cpu_fine == t->cpu_fine ? delta_rate(old->cpu_ns, t->cpu_ns, dt) : NAN;
	dt = span(old->t_ctxt, t->t_ctxt);
	ch->vol = delta_rate(old->ctxt_vol, t->ctxt_vol, dt);
	ch->invol = delta_rate(old->ctxt_invol, t->ctxt_invol, dt);
	dt = span(old->t_delay, t->t_delay);
	double bound = delta_delay_bound(age_at(t, t->t_delay, iv), ntasks, iv->hz);
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		const struct tv_delay *a = &old->delay[c], *b = &t->delay[c];
		ch->dly[c] = ch->dtot[c] = ch->dcnt[c] = NAN;
		double r = delta_rate(a->total_ns, b->total_ns, dt);
		if (isnan(r))
			continue;
		double step = (double)(b->total_ns - a->total_ns) / 1e9;
		if (step > bound) {
			reject(iv, t, c, step, bound);
			continue;
		}
		ch->dly[c] = r;
		ch->dtot[c] = (double)(b->total_ns - a->total_ns);
		if (a->count != TV_UNKNOWN && b->count != TV_UNKNOWN && b->count >= a->count)
			ch->dcnt[c] = (double)(b->count - a->count);
	}
}

static void changes_unknown(struct change *ch)
{
	ch->cpu = ch->vol = ch->invol = NAN;
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		ch->dly[c] = ch->dtot[c] = ch->dcnt[c] = NAN;
}

/* The derived columns of t from its changes. */
static void set_rates(struct tv_task *t, const struct change *ch)
{
	t->cpu_pct = ch->cpu / 1e9 * 100.0;
	t->ctxt_vol_rate = ch->vol;
	t->ctxt_invol_rate = ch->invol;
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		t->delay_pct[c] = ch->dly[c] / 1e9 * 100.0;
		t->delay_avg_ms[c] = ch->dcnt[c] > 0 ? ch->dtot[c] / ch->dcnt[c] / 1e6 : NAN;
	}
}

/* Plugin counters become rates over the refresh interval; a newborn counts from zero. */
static void plugin_rates(const struct interval *iv, const struct tv_task *old, bool newborn, struct tv_task *t)
{
	for (size_t i = iv->cs->nbuiltin; t->pvals && i < iv->cs->n; i++) {
		const struct column *col = &iv->cs->cols[i];
		size_t slot = (size_t)col->arg;
		if (!col->counter || slot >= iv->cur->npvals)
			continue;
		struct tv_pvalue *v = &t->pvals[slot];
		const struct tv_pvalue *o = old && old->pvals ? &old->pvals[slot] : NULL;
		double rate = NAN;
		if (v->known && o && o->known)
			rate = delta_rate(o->i, v->i, iv->dt);
		else if (v->known && newborn)
			rate = delta_rate(0, v->i, iv->dt);
		/* the raw value stays known: the next interval has its start */
		v->f = rate;
	}
}

/* The previous reading of t: its own, newborn zeros (in z) when it started after the previous refresh, else NULL. */
static const struct tv_task *previous_of(const struct tv_task *old, const struct tv_task *t, const struct interval *iv,
					 double since, struct tv_task *z)
{
	if (old)
		return old;
	if (t->start_ticks != TV_START_UNKNOWN && (double)t->start_ticks > iv->prev->boot_ticks) {
		newborn_counters(z, t, since);
		return z;
	}
	return NULL;
}

/* Sums of a process's threads and exited threads. */
struct sums {
	double cpu, vol, invol, dly[TV_DELAY_NCLASS], dtot[TV_DELAY_NCLASS], dcnt[TV_DELAY_NCLASS];
	bool cpu_ok, ctxt_ok, dly_ok[TV_DELAY_NCLASS];
	uint32_t partial;
};

static void sums_init(struct sums *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu_ok = s->ctxt_ok = true;
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		s->dly_ok[c] = true;
}

/* Adds a live thread's changes: all must be known for the sum to stand. */
static void sums_add(struct sums *s, const struct change *ch)
{
	s->cpu_ok &= !isnan(ch->cpu);
	s->cpu += isnan(ch->cpu) ? 0 : ch->cpu;
	s->ctxt_ok &= !isnan(ch->vol) && !isnan(ch->invol);
	s->vol += isnan(ch->vol) ? 0 : ch->vol;
	s->invol += isnan(ch->invol) ? 0 : ch->invol;
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		s->dly_ok[c] &= !isnan(ch->dly[c]);
		if (isnan(ch->dly[c]))
			continue;
		s->dly[c] += ch->dly[c];
		s->dtot[c] += ch->dtot[c];
		s->dcnt[c] += isnan(ch->dcnt[c]) ? 0 : ch->dcnt[c];
	}
}

/* Adds what an exited thread did; what is unknown makes the sum a lower bound. */
static void sums_add_exited(struct sums *s, const struct change *ch)
{
	if (isnan(ch->cpu))
		s->partial |= TV_PART_BIT(TV_PART_CPU);
	else
		s->cpu += ch->cpu;
	if (isnan(ch->vol) || isnan(ch->invol)) {
		s->partial |= TV_PART_BIT(TV_PART_CTXT_VOL_RATE) | TV_PART_BIT(TV_PART_CTXT_INVOL_RATE);
	} else {
		s->vol += ch->vol;
		s->invol += ch->invol;
	}
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		if (isnan(ch->dly[c])) {
			s->partial |= TV_PART_BIT(TV_PART_DELAY + c);
			continue;
		}
		s->dly[c] += ch->dly[c];
		s->dtot[c] += ch->dtot[c];
		s->dcnt[c] += isnan(ch->dcnt[c]) ? 0 : ch->dcnt[c];
	}
}

/*
 * The process's own CPU time counts every thread, also those that started
 * and ended unseen (and the last slices of ended ones, which their exit
 * records miss): its rate is the measure. Where its threads are rows and
 * their sum agrees with it, within what reading them at other moments
 * explains, the sum is shown, so that the rows add up; a sum short of it
 * misses threads that ended.
 */
#define CPU_SUM_SLACK_PCT 2.0   /* of one CPU */
#define CPU_SUM_SLACK_REL 0.03  /* of the process's own rate */

static bool cpu_sum_stands(const struct tv_task *p, const struct sums *s, bool clock, double bound, bool records_lost)
{
	if (isnan(p->cpu_pct))
		return true;
	/* a recording made before the CPU clock was read: its process counter
	 * (a group reply, or stat's ticks) stands in only for a partial sum */
	if (!clock)
		return !(s->partial & TV_PART_BIT(TV_PART_CPU));
	if (!p->threads_are_rows || (s->partial & TV_PART_BIT(TV_PART_CPU)))
		return false;
	double sum = s->cpu / 1e9 * 100.0;
	/* each thread's rate is over its own reads, a moment apart from the
	 * others': together they can pass what the CPUs give, where the
	 * process's own clock, read once, does not */
	if (sum > bound && p->cpu_pct <= bound)
		return false;
	/* no thread ended in the interval, seen or not: the clock and the sum
	 * count the same threads, and only the moments of their reads differ,
	 * by as long as taskview was held off between them on a busy machine:
	 * the sum is the rows'. Unseen ends leave a churn mark without exit
	 * records; with them, a record lost in the interval may have been one */
	bool churned = p->partial & (TV_PART_BIT(TV_PART_CTXT_VOL_RATE) | TV_PART_BIT(TV_PART_DELAY + TV_DELAY_CPU));
	if (p->nexited == 0 && p->nexited_unlisted == 0 && !churned && !records_lost)
		return true;
	return fabs(sum - p->cpu_pct) <= CPU_SUM_SLACK_PCT + CPU_SUM_SLACK_REL * p->cpu_pct;
}

/* The process's rates are its sums where every live thread's part is known. */
static void sums_apply(struct tv_task *p, const struct sums *s, bool clock, double bound, bool records_lost)
{
	if (s->cpu_ok && cpu_sum_stands(p, s, clock, bound, records_lost)) {
		p->cpu_pct = s->cpu / 1e9 * 100.0;
		p->partial |= s->partial & TV_PART_BIT(TV_PART_CPU);
	}
	if (s->ctxt_ok) {
		p->ctxt_vol_rate = s->vol;
		p->ctxt_invol_rate = s->invol;
		p->partial |= s->partial & (TV_PART_BIT(TV_PART_CTXT_VOL_RATE) | TV_PART_BIT(TV_PART_CTXT_INVOL_RATE));
	}
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		if (!s->dly_ok[c])
			continue;
		p->delay_pct[c] = s->dly[c] / 1e9 * 100.0;
		p->delay_avg_ms[c] = s->dcnt[c] > 0 ? s->dtot[c] / s->dcnt[c] / 1e6 : NAN;
		p->partial |= s->partial & TV_PART_BIT(TV_PART_DELAY + c);
	}
}

/* The changes of a task that ended, from before to its final counters e,
 * spread over the interval up to end (they were taken at its exit). */
static void changes_to_end(struct interval *iv, const struct tv_task *before, const struct tv_task *e, double end,
			   double bound, struct change *ch)
{
	struct tv_task at = *e;
	at.t_cpu = at.t_ctxt = at.t_delay = end;
	changes(iv, before, &at, bound, ch);
}

/*
 * What an exited thread did in the interval: from its reading at the
 * previous refresh (or from zero when it started after it) to its final
 * counters, over the process's interval.
 */
static void exited_changes(struct interval *iv, const struct tv_task *old, const struct tv_task *p,
			   const struct tv_task *e, struct change *ch)
{
	changes_unknown(ch);
	if (!old || !old->threads_complete)
		return; /* its starting point is unknown */
	const struct tv_task *before = same_task(task_find_thread(old, e->tid), e);
	struct tv_task z;
	if (!before) {
		newborn_counters(&z, e, old->t_cpu);
		before = &z;
	}
	/* final counters at exit, spread over the process's interval */
	changes_to_end(iv, before, e, p->t_cpu, 1, ch);
}

/* The process's I/O rates, from its own counters (every thread, dead ones
 * included); before NULL: it started in the interval, from zero as of since. */
static void io_rates(const struct tv_task *before, double since, struct tv_task *p)
{
	const struct tv_mem *m = task_mem(p);
	/* not read: unknown already; a block borrowed (the stand-in of a
	 * process for its exited threads, model/exited.c) is another task's,
	 * whose rates are its own */
	if (!(m->t_io > 0) || !p->mem_own)
		return;
	const struct tv_mem *b = before ? task_mem(before) : NULL;
	double dt = span(b ? b->t_io : since, m->t_io);
	double r = delta_rate(b ? b->io_read : 0, m->io_read, dt);
	double w = delta_rate(b ? b->io_write : 0, m->io_write, dt);
	struct tv_mem *mm = task_mem_mut(p);
	if (mm) {
		mm->io_read_rate = (float)r;
		mm->io_write_rate = (float)w;
	}
}

static void process_rates(struct interval *iv, struct tv_task *p)
{
	const struct tv_task *old = same_task(snapshot_find(iv->prev, p->tgid), p);
	struct tv_task z;
	const struct tv_task *before = previous_of(old, p, iv, iv->prev->mono, &z);
	struct change ch;
	if (before) {
		/* a group's delay counters sum every thread that lived in the interval */
		double n = (double)(old && old->nthreads > p->nthreads ? old->nthreads : p->nthreads);
		changes(iv, before, p, (n > 0 ? n : 1) + (double)p->nexited + (double)p->nexited_unlisted, &ch);
		if (p->live_sums) {
			/* a sum over live threads drops when one exits: only the
			 * threads' own changes below make a rate */
			ch.vol = ch.invol = ch.dly[TV_DELAY_CPU] = ch.dtot[TV_DELAY_CPU] = NAN;
		}
		set_rates(p, &ch);
		io_rates(before == &z ? NULL : before, iv->prev->mono, p);
	}
	plugin_rates(iv, old, before == &z, p);

	struct sums s;
	sums_init(&s);
	/* threads born since the previous refresh count from zero as of its listing */
	double since = old ? old->t_cpu : iv->prev->mono;
	for (size_t j = 0; j < p->nthreads_read; j++) {
		struct tv_task *t = &p->threads[j];
		const struct tv_task *ot = NULL;
		struct tv_task tz;
		if (old) {
			ot = same_task(task_find_thread(old, t->tid), t);
			if (!ot && old->threads_complete) {
				newborn_counters(&tz, t, since);
				ot = &tz; /* not in a complete list: started since */
			}
		}
		if (!ot && before == &z) {
			newborn_counters(&tz, t, since);
			ot = &tz; /* a thread of a process that started since */
		}
		if (!ot)
			ot = previous_of(NULL, t, iv, since, &tz);
		if (ot) {
			changes(iv, ot, t, 1, &ch);
			set_rates(t, &ch);
		} else {
			changes_unknown(&ch);
		}
		plugin_rates(iv, ot, ot == &tz, t);
		sums_add(&s, &ch);
	}
	if (!p->threads_complete || p->nthreads_read == 0)
		return;
	for (size_t j = 0; j < p->nexited; j++) {
		exited_changes(iv, old, p, &p->exited[j], &ch);
		sums_add_exited(&s, &ch);
	}
	/* what every online CPU gives; the clock's own rate is bounded later */
	double bound = iv->cur->ncpus > 0 ? (double)iv->cur->ncpus * 100.0 : INFINITY;
	sums_apply(p, &s, iv->cur->cpu_clock, bound, iv->cur->exits_watched && iv->cur->exits_lost > 0);
}

/* Share of the interval stalled, from the change of a pressure total (µs). */
static void pressure_rates(const struct tv_pressure *old, double t_old, struct tv_pressure *p, double t_now)
{
	double dt = span(t_old, t_now);
	double r = delta_rate(old->some_us, p->some_us, dt);
	p->some_pct = isnan(r) ? NAN : r / 1e6 * 100.0;
	r = delta_rate(old->full_us, p->full_us, dt);
	p->full_pct = isnan(r) ? NAN : r / 1e6 * 100.0;
}

static int cmp_cgroup_path(const void *key, const void *elem)
{
	return strcmp(key, (*(struct tv_cgroup *const *)elem)->path);
}

static void cgroup_rates(const struct snapshot *prev, struct snapshot *cur)
{
	for (int r = 0; r < TV_RES_N; r++)
		pressure_rates(&prev->pressure[r], prev->t_pressure, &cur->pressure[r], cur->t_pressure);
	for (size_t i = 0; i < cur->ncgroups; i++) {
		struct tv_cgroup *g = cur->cgroups[i];
		struct tv_cgroup *const *o = prev->ncgroups ? bsearch(g->path, prev->cgroups, prev->ncgroups,
								      sizeof(*prev->cgroups), cmp_cgroup_path)
							    : NULL;
		for (int r = 0; o && r < TV_RES_N; r++)
			pressure_rates(&(*o)->psi[r], (*o)->t_read, &g->psi[r], g->t_read);
		/* cpu.stat counts µs */
		double r = o ? delta_rate((*o)->cpu_usage_us, g->cpu_usage_us, span((*o)->t_cpu, g->t_cpu)) : NAN;
		g->cpu_pct = r / 1e6 * 100.0;
	}
}

/* The machine's CPU over the interval. Its time is counted in whole ticks
 * per CPU: over a short interval it may pass the CPUs' time by a tick, which
 * is what they can give. */
static void machine_rate(const struct snapshot *prev, struct snapshot *cur)
{
	struct tv_machine *m = &cur->machine;
	const struct tv_machine *o = &prev->machine;
	m->cpu_pct = delta_rate(o->busy_us, m->busy_us, span(o->t_busy, m->t_busy)) / 1e6 * 100.0;
	if (cur->ncpus > 0 && m->cpu_pct > (double)cur->ncpus * 100.0)
		m->cpu_pct = (double)cur->ncpus * 100.0;
}

/* The group of an ended process in cur: the one its exit record named, else
 * the one it was read in at the previous refresh, when cur has that group. */
static const struct tv_cgroup *ended_group(const struct snapshot *cur, const struct tv_task *g, const struct tv_task *old)
{
	if (g->cgroup)
		return g->cgroup;
	if (!old || !old->cgroup || !cur->ncgroups)
		return NULL;
	struct tv_cgroup *const *c =
		bsearch(old->cgroup->path, cur->cgroups, cur->ncgroups, sizeof(*cur->cgroups), cmp_cgroup_path);
	return c ? *c : NULL;
}

/*
 * What each process that ended in the interval did over it (cur->ended), for
 * its group's row: from its reading at the previous refresh, or from zero
 * when it started after it, to its final counters, spread over the interval
 * up to this refresh, as a process's exited threads are over its own. Its
 * group, where it was read in one, becomes its own (gone[i].cgroup).
 */
static void ended_parts(struct interval *iv)
{
	struct snapshot *cur = iv->cur;
	free(cur->ended);
	cur->ended = cur->ngone ? calloc(cur->ngone, sizeof(*cur->ended)) : NULL;
	bool exits_exact_start = cur->exits_source && strcmp(cur->exits_source, "bpf") == 0;
	for (size_t i = 0; cur->ended && i < cur->ngone; i++) {
		struct tv_task *g = &cur->gone[i];
		/* the same task only where both starts are known: else another's counters may be these */
		const struct tv_task *same_pid = snapshot_find(iv->prev, g->tgid);
		const struct tv_task *old = same_pid;
		if (old && (old->start_ticks == TV_START_UNKNOWN || old->start_ticks != g->start_ticks))
			old = NULL;
		g->cgroup = ended_group(cur, g, old);
		struct tv_task z;
		/* Only the exit program gives the kernel's start. Another's is an
		 * estimate from the process's age, so the other start read under its
		 * PID may be its own: counted from zero, it would count its life twice. */
		const struct tv_task *before = NULL;
		if (old || !same_pid || exits_exact_start)
			before = previous_of(old, g, iv, iv->prev->mono, &z);
		struct change ch;
		changes_unknown(&ch);
		/* how many threads it had is not known: no bound on its delays */
		if (before && g->start_ticks != TV_START_UNKNOWN)
			changes_to_end(iv, before, g, g->t_cpu > cur->mono ? g->t_cpu : cur->mono, INFINITY, &ch);
		struct tv_ended *e = &cur->ended[i];
		e->cpu_pct = ch.cpu / 1e9 * 100.0;
		e->ctxt_vol_rate = ch.vol;
		e->ctxt_invol_rate = ch.invol;
		for (int c = 0; c < TV_DELAY_NCLASS; c++) {
			e->delay_pct[c] = ch.dly[c] / 1e9 * 100.0;
			e->delay_avg_ms[c] = ch.dcnt[c] > 0 ? ch.dtot[c] / ch.dcnt[c] / 1e6 : NAN;
		}
	}
}

void delta_apply(const struct snapshot *prev, struct snapshot *cur, const struct colset *cs)
{
	if (!prev)
		return;
	cgroup_rates(prev, cur);
	machine_rate(prev, cur);
	struct interval iv = {
		.prev = prev,
		.cur = cur,
		.dt = cur->mono - prev->mono,
		.hz = cur->hz > 0 ? cur->hz : 100.0,
		.cs = cs,
	};
	double ncpu = (double)cur->ncpus;
	for (size_t i = 0; i < cur->nprocs; i++) {
		struct tv_task *p = &cur->procs[i];
		process_rates(&iv, p);
		cpu_bound_task(&iv, p, ncpu);
		for (size_t j = 0; j < p->nthreads_read; j++)
			cpu_bound_task(&iv, &p->threads[j], ncpu > 0 ? 1 : 0);
	}
	ended_parts(&iv);
	for (size_t i = 0; i < cur->ncgroups; i++) {
		struct tv_cgroup *g = cur->cgroups[i];
		struct tv_reject r = {.cgroup = g->path};
		/* the root group's cpu.stat is the system's tick-sampled time,
		 * whole ticks per CPU: over a short interval it may pass the
		 * machine's by a tick, the machine's is what it measures */
		if (!g->parent && ncpu > 0 && g->cpu_pct > ncpu * 100.0)
			g->cpu_pct = ncpu * 100.0;
		g->cpu_pct = cpu_bounded(cur, r, g->cpu_pct, ncpu, iv.dt);
	}
}
