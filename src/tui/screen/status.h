/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The message on the status line: hints fade, errors stay until a key. */
#ifndef TV_TUI_STATUS_H
#define TV_TUI_STATUS_H

#include "tui/state.h"

void tui_status(struct tui *t, enum term_role role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
