/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/screen/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "util/clock.h"

void tui_status(struct tui *t, enum term_role role, const char *fmt, ...)
{
	va_list ap;
	char line[512];
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	buf_reset(&t->status);
	buf_adds(&t->status, line);
	t->status_role = role;
	/* hints fade after a few seconds; errors stay until the next key */
	t->status_until = role == ROLE_ERROR ? 0 : clock_now(CLOCK_MONOTONIC) + 5.0;
}
