/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The columns of a screen of a given width when the user chose none. */
#include "tui/screen/autocols.h"

#include <stdlib.h>
#include <string.h>

#include "render/format.h"

/* From which screen width a column is shown. The narrowest set keeps what
 * taskview is for (CPU, resident memory, page tables, switches, delays);
 * wider screens add what htop shows by default, then more of taskview's own.
 * Shown in the column table's order. */
struct tier {
	const char *id;
	int from;
};

static const struct tier tiers[] = {
	{"pid", 0},          {"user", 0},           {"state", 0},         {"cpu", 0},
	{"vm_rss", 0},       {"vm_pte", 0},         {"ctxt_vol_rate", 0}, {"cpu_delay", 0},
	{"io_delay", 0},     {"command", 0},
	{"threads", 100},    {"vm_size", 100},      {"ctxt_invol_rate", 100},
	{"nice", 140},       {"prio", 140},         {"time", 140},
	{"vm_swap", 200},    {"cpu_delay_avg", 200}, {"io_delay_avg", 200},
};

/* The group view: the groups' pressure from the narrowest screen on, in
 * place of what group rows leave unknown (user, state, page tables). */
static const struct tier group_tiers[] = {
	{"pid", 0},          {"cpu", 0},            {"vm_rss", 0},        {"ctxt_vol_rate", 0},
	{"cpu_delay", 0},    {"io_delay", 0},       {"cpu_pressure", 0},  {"io_pressure", 0},
	{"memory_pressure", 0}, {"command", 0},
	{"user", 100},       {"state", 100},        {"threads", 100},
	{"vm_pte", 140},     {"ctxt_invol_rate", 140}, {"vm_swap", 140},  {"cpu_pressure_full", 140},
	{"vm_size", 200},    {"time", 200},         {"cpu_delay_avg", 200}, {"io_delay_avg", 200},
	{"io_pressure_full", 200}, {"memory_pressure_full", 200},
};

static int tier_of(const char *id, bool groups)
{
	const struct tier *v = groups ? group_tiers : tiers;
	size_t n = groups ? sizeof(group_tiers) / sizeof(group_tiers[0]) : sizeof(tiers) / sizeof(tiers[0]);
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].id, id) == 0)
			return v[i].from;
	return -1;
}

/* The built-in columns of tier <= limit, in table order. */
static int pick(const struct colset *cs, int limit, bool groups, struct colsel *out)
{
	out->idx = malloc((cs->nbuiltin + 1) * sizeof(*out->idx));
	out->n = 0;
	if (!out->idx)
		return -1;
	/* the hosts' screen: which host comes first */
	int host = colset_index(cs, "host");
	if (host >= 0)
		out->idx[out->n++] = host;
	for (size_t i = 0; i < cs->nbuiltin; i++) {
		int from = tier_of(cs->cols[i].id, groups);
		if (from >= 0 && from <= limit)
			out->idx[out->n++] = (int)i;
	}
	return 0;
}

/* Width left to the last column (COMMAND) on a screen cols wide. */
static size_t command_width(const struct colset *cs, const struct colsel *sel, int cols, bool utf8)
{
	size_t used = 0;
	for (size_t i = 0; i + 1 < sel->n; i++)
		used += format_col_width(&cs->cols[sel->idx[i]], utf8) + 1;
	return (size_t)cols > used ? (size_t)cols - used : 0;
}

int autocols_pick(const struct colset *cs, int cols, bool utf8, bool groups, struct colsel *out)
{
	/* the widest tier the screen reaches whose columns leave COMMAND its room
	 * (translated headers may be wider than the English ones) */
	static const int limits[] = {200, 140, 100, 0};
	for (size_t k = 0; k < sizeof(limits) / sizeof(limits[0]); k++) {
		if (cols < limits[k])
			continue;
		if (pick(cs, limits[k], groups, out) < 0)
			return -1;
		if (limits[k] == 0 || command_width(cs, out, cols, utf8) >= AUTOCOLS_COMMAND_MIN)
			return 0;
		colsel_free(out);
	}
	return pick(cs, 0, groups, out);
}
