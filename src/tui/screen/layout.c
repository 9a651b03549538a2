/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/screen/layout.h"

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

/* Smallest number of bars per line that fits ncpu bars in at most max_lines
 * lines, each bar at least LAYOUT_CPU_BAR_MIN wide; 0 when none does. */
static int layout_cpu_grid(size_t ncpu, int max_lines, int cols)
{
	if (ncpu == 0 || max_lines <= 0)
		return 0;
	int most = cols / LAYOUT_CPU_BAR_MIN;
	/* a wide screen puts bars side by side even when lines are free: the
	 * table gets the rows */
	int first = cols / LAYOUT_CPU_BAR_WIDE;
	if (first < 1)
		first = 1;
	if ((size_t)first > ncpu)
		first = (int)ncpu;
	for (int per = first; per <= most; per++)
		if ((ncpu + (size_t)per - 1) / (size_t)per <= (size_t)max_lines)
			return per;
	return 0;
}

void layout_compute(int lines, int cols, size_t ncpu, struct layout *o)
{
	lines = imax(lines, 0);
	cols = imax(cols, 0);
	*o = (struct layout){.lines = lines, .cols = cols, .cpu_row = -1, .mem_row = -1,
			     .tasks_row = -1, .info_row = -1, .psi_row = -1, .table_head_row = -1,
			     .status_row = -1, .keybar_row = -1};
	if (lines == 0 || cols == 0)
		return;
	/* the table comes first: it is what the user came for; then the key bar
	 * (how to get out), the status line, and the header as room allows */
	int rest = lines;
	if (rest >= 4)
		o->keybar_row = --rest;
	if (rest >= 6)
		o->status_row = --rest;
	/* keep a table head and at least 3 rows; the header never takes more than half */
	int budget = imin(rest - 4, lines / 2);
	bool tasks = budget >= 1, info = budget >= 2, mem = budget >= 3, psi = budget >= 4;
	budget -= (int)tasks + (int)info + (int)mem + (int)psi;
	int cpu_lines = 0;
	if (budget >= 1 && ncpu > 0) {
		o->cpu_per_line = layout_cpu_grid(ncpu, budget, cols);
		cpu_lines = o->cpu_per_line ? (int)((ncpu + (size_t)o->cpu_per_line - 1) / (size_t)o->cpu_per_line) : 1;
	}
	/* bars on top, where the eye expects them; the text lines below */
	int row = 0;
	if (cpu_lines) {
		o->cpu_row = row;
		o->cpu_lines = cpu_lines;
		row += cpu_lines;
	}
	if (mem)
		o->mem_row = row++;
	if (tasks)
		o->tasks_row = row++;
	if (info)
		o->info_row = row++;
	if (psi)
		o->psi_row = row++;
	o->header_lines = row;
	o->table_head_row = row;
	o->table_top = row + 1;
	o->table_lines = imax(rest - row - 1, 0);
}
