/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line options. Parsing is pure: errors come back as text. */
#ifndef TV_CLI_H
#define TV_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hosts/act.h"
#include "util/buf.h"
#include "view/filter.h"

enum cli_format { CLI_FORMAT_TEXT, CLI_FORMAT_JSON, CLI_FORMAT_OPENMETRICS };
/* --group: how processes are grouped above the process level */
enum cli_group { CLI_GROUP_UNSET, CLI_GROUP_NONE, CLI_GROUP_CGROUP };

struct cli_opts {
	bool batch;
	enum cli_format format;
	bool format_set;         /* --format given (with --textfile: also print samples) */
	const char *textfile;    /* --textfile PATH: metrics written there (implies -b) */
	int64_t top;             /* --top N: per-process metrics for the N busiest */
	int64_t iterations;      /* 0: until quit (TUI), default 1 in batch; INT64_MAX: until stopped */
	double delay;            /* seconds */
	bool delay_set;
	struct filter filter;
	bool threads;            /* -H */
	enum cli_group group;    /* --group; UNSET: the settings file's (TUI), else none */
	const char *sort;        /* column id or NULL */
	bool reverse;
	const char *columns;     /* -o list or NULL */
	bool list_columns;
	bool help, version;
	bool no_color;
	bool no_mouse;           /* --no-mouse */
	const char **plugins;    /* --plugin FILE, repeatable */
	size_t nplugins;
	bool no_plugins;
	const char *check_plugin;
	const char *record;      /* -w PATH: record samples to a file or a directory */
	int keep_days;           /* --keep DAYS (with a directory); 0: keep all */
	const char *replay;      /* -r PATH: replay a recording */
	const char *begin, *end; /* --begin, --end: checked with when_parse */
	bool stream;             /* --stream: samples as a recording on standard output, until stdin closes */
	const char **hosts;      /* --host LIST, repeatable: each LIST as given (comma-separated) */
	size_t nhosts;
	const char *hosts_file;  /* --hosts-file FILE */
	const char *user_arg;    /* -u as given: a remote host resolves the name itself */
	bool acting;             /* --act SPEC: act (act) on a task here, for a viewer of several hosts */
	struct act_req act;
};

/* Returns 0, or 2 with a message in err (a usage error). */
int cli_parse(int argc, char **argv, struct cli_opts *o, struct buf *err);
void cli_free(struct cli_opts *o);
void cli_usage(FILE *f);

#endif
