/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The header: CPU and memory bars, task counts, load, uptime, host, delay
 * accounting and refresh interval. */
#ifndef TV_TUI_HEADER_H
#define TV_TUI_HEADER_H

#include "tui/state.h"

void tui_draw_header(struct tui *t);

#endif
