/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Lines from plugins and start-up collected for the status line: plugin
 * messages must never reach the terminal while curses owns it. */
#ifndef TV_TUI_MSGS_H
#define TV_TUI_MSGS_H

#include <stddef.h>
#include <stdio.h>

#include <pthread.h>

/* Lines may be added from the sampling thread (plugin messages); the screen
 * reads them after tui_msgs_pull(). */
struct tui_msgs {
	char **v;
	size_t n;
	size_t shown;   /* lines already put on the status line */
	pthread_mutex_t lock; /* guards in, nin */
	char **in;      /* added since the last pull */
	size_t nin;
};

void tui_msgs_init(struct tui_msgs *m);
void tui_msgs_free(struct tui_msgs *m);
/* The msg_cb of app_init(): keeps a copy of line (ctx is a struct tui_msgs). */
void tui_msgs_add(void *ctx, const char *line);
/* Moves the lines added since into v (call before reading v; on the screen's thread). */
void tui_msgs_pull(struct tui_msgs *m);
/* Writes every line to f as "taskview: LINE" (when the screen is not open). */
void tui_msgs_flush(struct tui_msgs *m, FILE *f);

#endif
