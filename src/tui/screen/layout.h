/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where things go on a screen of a given size: pure, so tiny and huge
 * terminals can be tested without one. */
#ifndef TV_TUI_LAYOUT_H
#define TV_TUI_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

struct layout {
	int lines, cols;
	/* header, top to bottom; a row of -1 means "not shown" */
	int cpu_row;       /* first row of CPU bars */
	int cpu_lines;     /* rows of CPU bars */
	int cpu_per_line;  /* bars per row; 0: one summary bar for all CPUs */
	int mem_row;       /* memory and swap bars */
	int tasks_row;     /* tasks, load, uptime */
	int info_row;      /* host, delay accounting, refresh */
	int psi_row;       /* the system's pressure stall information */
	int header_lines;
	int table_head_row;
	int table_top;     /* first row of the table body */
	int table_lines;   /* rows of the table body (may be 0) */
	int status_row;
	int keybar_row;
};

/* The narrowest a CPU bar may get before the header falls back to a summary. */
#define LAYOUT_CPU_BAR_MIN 16
/* Bars this wide or more are split into columns. */
#define LAYOUT_CPU_BAR_WIDE 60

void layout_compute(int lines, int cols, size_t ncpu, struct layout *out);

#endif
