/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interactive settings: $XDG_CONFIG_HOME/taskview/taskviewrc (default
 * ~/.config/taskview/taskviewrc), lines of key=value. Read and written by the
 * TUI only; batch mode does not read them. The parser is a pure function over
 * a buffer: a corrupt or unknown line is reported and skipped, never fatal,
 * and a file from a newer version keeps working (its unknown keys are kept
 * when the file is written again).
 */
#ifndef TV_SETTINGS_H
#define TV_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

#define SETTINGS_VERSION 1

struct settings {
	int version;         /* 0 when the file has no version line */
	char *columns;       /* "id,id,…" as written; NULL: not set */
	char *sort;          /* column id; NULL: not set */
	int reverse;         /* 0/1; -1: not set */
	double delay;        /* seconds; negative: not set */
	int threads;         /* 0/1; -1: not set */
	int tree;            /* 0/1; -1: not set */
	int groups;          /* 0/1: the group view by control group; -1: not set */
	int kernel_threads;  /* 0/1: shown; -1: not set */
	int mouse;           /* 0/1; -1: not set */
	char **extra;        /* lines kept verbatim: comments, keys this version does not know,
	                        and values it cannot read in a file of a newer version */
	size_t nextra;
};

/* Called for each line that is ignored; line is 1-based. */
typedef void (*settings_warn_fn)(void *ctx, unsigned line, const char *msg);

void settings_init(struct settings *s);
void settings_free(struct settings *s);

/* Parses len bytes of buf (need not be NUL-terminated). Returns 0, or -1 when
 * out of memory. */
int settings_parse(const char *buf, size_t len, struct settings *out, settings_warn_fn warn, void *ctx);

/* The file's text for s: the version of the file when newer than this one,
 * set fields, then the kept lines (but for keys set here). */
void settings_format(struct buf *out, const struct settings *s);

/* The settings file's path (malloc'd), or NULL when neither XDG_CONFIG_HOME
 * nor HOME is set. */
char *settings_path(void);

/* Reads path into out; a missing file is not an error (nothing set). Returns
 * 0, or -1 with *err (malloc'd) when the file exists but cannot be read. */
int settings_load(const char *path, struct settings *out, settings_warn_fn warn, void *ctx, char **err);

/* Writes atomically: a temporary file in the same directory, fsync, rename.
 * Creates the directory. Returns 0, or -1 with *err (malloc'd). */
int settings_save(const char *path, const struct settings *s, char **err);

#endif
