/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The settings file applied to and taken from a running TUI (src/settings.c
 * does the parsing and the atomic write). */
#ifndef TV_TUI_PREFS_H
#define TV_TUI_PREFS_H

#include <stdbool.h>

#include "settings.h"

struct tui;
struct app;

/* What was loaded and what the session started with, to write back only
 * what the user changed (and keep what this run could not use, such as the
 * columns of a plugin not loaded this time). */
struct prefs {
	struct settings loaded;
	char *start_columns;
	int start_sort;
	bool start_reverse;
	double start_delay;
	bool start_threads;
	bool start_tree, start_groups;
	bool start_kthreads;
	bool start_cols_auto;   /* columns were picked by the screen width */
	bool unread;            /* the file is there but was not read whole: never written over */
};

/* Reads the settings file; command-line options win. Problems become
 * status-line messages. */
void prefs_load(struct tui *t, struct prefs *p);
/* Writes the file if anything changed; an error becomes a message. */
void prefs_save(struct tui *t, struct prefs *p);
void prefs_free(struct prefs *p);

/* "id,id,…" of the shown columns (malloc'd). */
char *prefs_columns_string(const struct app *a);

#endif
