/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "model/group.h"

#include <math.h>
#include <string.h>

void group_sum_init(struct group_sum *g)
{
	memset(g, 0, sizeof(*g));
}

static bool has_part(const struct tv_task *t, enum tv_part p)
{
	return (t->partial & TV_PART_BIT(p)) != 0;
}

static void acc_add(struct group_acc *a, bool known, double v, bool partial)
{
	if (!known) {
		a->short_of = true;
		return;
	}
	a->sum += v;
	a->known++;
	a->short_of |= partial;
}

static void acc_float(struct group_acc *a, double v, bool partial)
{
	acc_add(a, !isnan(v), v, partial);
}

static void acc_int(struct group_acc *a, int64_t v, bool partial)
{
	acc_add(a, v != TV_UNKNOWN, (double)v, partial);
}

/* A member's share of delay class c, and of its events (the average). */
static void acc_delay(struct group_sum *g, int c, double pct, double avg, bool partial)
{
	acc_float(&g->delay_pct[c], pct, partial);
	/* a member without events adds nothing to the average; one whose
	 * events cannot be counted (pct / avg) makes it unknown */
	if (!isnan(pct) && !partial && pct == 0 && isnan(avg))
		return;
	if (isnan(pct) || partial || !(pct > 0 && avg > 0))
		g->avg_unknown[c] = true;
	else
		g->events[c] += pct / avg;
}

void group_sum_add(struct group_sum *g, const struct tv_task *t)
{
	g->n++;
	acc_float(&g->cpu, t->cpu_pct, has_part(t, TV_PART_CPU));
	acc_int(&g->ctxt_vol, t->ctxt_vol, has_part(t, TV_PART_CTXT_VOL));
	acc_int(&g->ctxt_invol, t->ctxt_invol, has_part(t, TV_PART_CTXT_INVOL));
	acc_float(&g->ctxt_vol_rate, t->ctxt_vol_rate, has_part(t, TV_PART_CTXT_VOL_RATE));
	acc_float(&g->ctxt_invol_rate, t->ctxt_invol_rate, has_part(t, TV_PART_CTXT_INVOL_RATE));
	const struct tv_mem *m = task_mem(t);
	acc_float(&g->io_read_rate, m->io_read_rate, has_part(t, TV_PART_IO));
	acc_float(&g->io_write_rate, m->io_write_rate, has_part(t, TV_PART_IO));
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		acc_delay(g, c, t->delay_pct[c], t->delay_avg_ms[c], has_part(t, (enum tv_part)(TV_PART_DELAY + c)));
}

void group_sum_add_ended(struct group_sum *g, const struct tv_ended *e)
{
	/* its rates over the interval: the totals (ctxt_vol...) are the live members' */
	acc_float(&g->cpu, e->cpu_pct, false);
	acc_float(&g->ctxt_vol_rate, e->ctxt_vol_rate, false);
	acc_float(&g->ctxt_invol_rate, e->ctxt_invol_rate, false);
	/* its exit record has no I/O counters */
	g->io_read_rate.short_of = g->io_write_rate.short_of = true;
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		acc_delay(g, c, e->delay_pct[c], e->delay_avg_ms[c], false);
}

static void acc_merge(struct group_acc *a, const struct group_acc *b)
{
	a->sum += b->sum;
	a->known += b->known;
	a->short_of |= b->short_of;
}

void group_sum_merge(struct group_sum *g, const struct group_sum *src)
{
	g->n += src->n;
	acc_merge(&g->cpu, &src->cpu);
	acc_merge(&g->ctxt_vol, &src->ctxt_vol);
	acc_merge(&g->ctxt_invol, &src->ctxt_invol);
	acc_merge(&g->ctxt_vol_rate, &src->ctxt_vol_rate);
	acc_merge(&g->ctxt_invol_rate, &src->ctxt_invol_rate);
	acc_merge(&g->io_read_rate, &src->io_read_rate);
	acc_merge(&g->io_write_rate, &src->io_write_rate);
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		acc_merge(&g->delay_pct[c], &src->delay_pct[c]);
		g->events[c] += src->events[c];
		g->avg_unknown[c] |= src->avg_unknown[c];
	}
}

void group_sum_short_of_ended(struct group_sum *g)
{
	g->cpu.short_of = true;
	g->ctxt_vol_rate.short_of = true;
	g->ctxt_invol_rate.short_of = true;
	g->io_read_rate.short_of = g->io_write_rate.short_of = true;
	for (int c = 0; c < TV_DELAY_NCLASS; c++)
		g->delay_pct[c].short_of = true;
}

static double acc_value(const struct group_acc *a)
{
	return a->known ? a->sum : NAN;
}

static void acc_mark(const struct group_acc *a, struct tv_task *out, enum tv_part p)
{
	if (a->known && a->short_of)
		out->partial |= TV_PART_BIT(p);
	else
		out->partial &= ~TV_PART_BIT(p);
}

static int64_t acc_int_value(const struct group_acc *a)
{
	return a->known ? (int64_t)llround(a->sum) : TV_UNKNOWN;
}

void group_sum_apply(const struct group_sum *g, struct tv_task *out)
{
	out->cpu_pct = acc_value(&g->cpu);
	acc_mark(&g->cpu, out, TV_PART_CPU);
	out->ctxt_vol = acc_int_value(&g->ctxt_vol);
	acc_mark(&g->ctxt_vol, out, TV_PART_CTXT_VOL);
	out->ctxt_invol = acc_int_value(&g->ctxt_invol);
	acc_mark(&g->ctxt_invol, out, TV_PART_CTXT_INVOL);
	out->ctxt_vol_rate = acc_value(&g->ctxt_vol_rate);
	acc_mark(&g->ctxt_vol_rate, out, TV_PART_CTXT_VOL_RATE);
	out->ctxt_invol_rate = acc_value(&g->ctxt_invol_rate);
	acc_mark(&g->ctxt_invol_rate, out, TV_PART_CTXT_INVOL_RATE);
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		const struct group_acc *a = &g->delay_pct[c];
		out->delay_pct[c] = acc_value(a);
		acc_mark(a, out, (enum tv_part)(TV_PART_DELAY + c));
		/* the class's bit also marks the average: it is exact or unknown */
		bool avg_known = g->n && !g->avg_unknown[c] && g->events[c] > 0 && !a->short_of;
		out->delay_avg_ms[c] = avg_known ? a->sum / g->events[c] : NAN;
	}
}

bool group_sum_has_io(const struct group_sum *g)
{
	return g->io_read_rate.known || g->io_write_rate.known;
}

void group_sum_io(const struct group_sum *g, struct tv_mem *m, uint32_t *partial)
{
	m->io_read_rate = (float)acc_value(&g->io_read_rate);
	m->io_write_rate = (float)acc_value(&g->io_write_rate);
	/* one bit for both: either falls short when a member does */
	bool short_of = (g->io_read_rate.known && g->io_read_rate.short_of) ||
			(g->io_write_rate.known && g->io_write_rate.short_of);
	if (short_of)
		*partial |= TV_PART_BIT(TV_PART_IO);
	else
		*partial &= ~TV_PART_BIT(TV_PART_IO);
}
