/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hosts/act.h"
#include "record/when.h"
#include "util/i18n.h"
#include "util/num.h"

enum {
	OPT_FORMAT = 256, OPT_LIST_COLUMNS, OPT_NO_COLOR, OPT_NO_MOUSE, OPT_PLUGIN, OPT_NO_PLUGINS, OPT_CHECK_PLUGIN,
	OPT_TEXTFILE, OPT_TOP, OPT_KEEP, OPT_BEGIN, OPT_END, OPT_GROUP, OPT_STREAM, OPT_HOST, OPT_HOSTS_FILE, OPT_ACT,
};

static const struct option cli_long[] = {
	{"batch", no_argument, NULL, 'b'},
	{"format", required_argument, NULL, OPT_FORMAT},
	{"textfile", required_argument, NULL, OPT_TEXTFILE},
	{"top", required_argument, NULL, OPT_TOP},
	{"iterations", required_argument, NULL, 'n'},
	{"delay", required_argument, NULL, 'd'},
	{"pid", required_argument, NULL, 'p'},
	{"user", required_argument, NULL, 'u'},
	{"filter", required_argument, NULL, 'F'},
	{"cgroup", required_argument, NULL, 'c'},
	{"threads", no_argument, NULL, 'H'},
	{"group", required_argument, NULL, OPT_GROUP},
	{"sort", required_argument, NULL, 's'},
	{"reverse", no_argument, NULL, 'R'},
	{"columns", required_argument, NULL, 'o'},
	{"list-columns", no_argument, NULL, OPT_LIST_COLUMNS},
	{"no-color", no_argument, NULL, OPT_NO_COLOR},
	{"no-mouse", no_argument, NULL, OPT_NO_MOUSE},
	{"plugin", required_argument, NULL, OPT_PLUGIN},
	{"no-plugins", no_argument, NULL, OPT_NO_PLUGINS},
	{"check-plugin", required_argument, NULL, OPT_CHECK_PLUGIN},
	{"record", required_argument, NULL, 'w'},
	{"keep", required_argument, NULL, OPT_KEEP},
	{"replay", required_argument, NULL, 'r'},
	{"begin", required_argument, NULL, OPT_BEGIN},
	{"end", required_argument, NULL, OPT_END},
	{"host", required_argument, NULL, OPT_HOST},
	{"hosts-file", required_argument, NULL, OPT_HOSTS_FILE},
	{"stream", no_argument, NULL, OPT_STREAM},
	{"act", required_argument, NULL, OPT_ACT},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

void cli_usage(FILE *f)
{
	/* TRANSLATORS: --help, one entry per option. Keep every line under 80 columns,
	   the descriptions starting in column 28, and the option names unchanged. */
	static const char *const lines[] = {
		N_("Usage: taskview [options]\n"
		   "Show processes with their threads, memory, page tables, context switches\n"
		   "and delay accounting. Interactive unless -b is given.\n\n"),
		N_("  -b, --batch              print samples and exit\n"),
		N_("      --format FORMAT      batch output format: text (default), json (JSON\n"
		   "                           Lines) or openmetrics (one exposition per sample)\n"),
		N_("      --textfile PATH      write each sample's metrics to PATH (through\n"
		   "                           PATH.tmp) for node_exporter's textfile collector;\n"
		   "                           implies -b, runs until stopped unless -n is given\n"),
		N_("      --top N              metrics of the N commands (processes of one name\n"
		   "                           in a group) using the most CPU, besides those of\n"
		   "                           their groups (default 0)\n"),
		N_("  -n, --iterations N       number of samples (batch default 1)\n"),
		N_("  -d, --delay SECONDS      interval between samples (default 1, 0.1 to 86400)\n"),
		N_("  -p, --pid LIST           only these PIDs (comma-separated, repeatable; a TID\n"
		   "                           selects its process)\n"),
		N_("  -u, --user NAME|UID      only processes of this user\n"),
		N_("  -F, --filter TEXT        only processes whose command or a thread name\n"
		   "                           contains TEXT (case-insensitive)\n"),
		N_("  -c, --cgroup TEXT        only processes whose control group's path or name\n"
		   "                           contains TEXT (case-insensitive)\n"),
		N_("  -H, --threads            show every thread under its process\n"),
		N_("      --group cgroup|none  cgroup: processes under their control group, with\n"
		   "                           the group's sums, memory and pressure\n"),
		N_("  -s, --sort ID            sort by this column\n"),
		N_("  -R, --reverse            reverse the sort order\n"),
		N_("  -o, --columns LIST       columns to show (comma-separated ids, or all)\n"),
		N_("      --list-columns       list every column id, header and description\n"),
		N_("      --no-color           monochrome display (also: NO_COLOR=1)\n"),
		N_("      --no-mouse           do not take mouse clicks (the terminal keeps them)\n"),
		N_("      --plugin FILE        load a column plugin (repeatable)\n"),
		N_("      --no-plugins         do not load plugins from the plugin directories\n"),
		N_("      --check-plugin FILE  load and validate one plugin, list its columns\n"),
		N_("  -w, --record PATH        record samples to a file, or to daily files in a\n"
		   "                           directory (with -b, print them too)\n"),
		N_("      --keep DAYS          keep the daily files of the last DAYS days\n"),
		N_("  -r, --replay PATH        show a recording (with -b, print its samples)\n"),
		N_("      --begin TIME         from TIME: HH:MM[:SS], YYYY-MM-DD[ HH:MM[:SS]], or\n"
		   "                           @SECONDS since the epoch\n"),
		N_("      --end TIME           replay up to TIME\n"),
		N_("      --host LIST          the tasks of these hosts (comma-separated,\n"
		   "                           repeatable), through ssh, on one screen\n"),
		N_("      --hosts-file FILE    the hosts of FILE, one a line (# comments)\n"),
		N_("      --stream             write samples to standard output as a recording,\n"
		   "                           until standard input closes (what --host runs)\n"),
		N_("      --act SPEC           act on a task here for the hosts' screen of\n"
		   "                           another host (what its kill, renice and detail\n"
		   "                           panel run)\n"),
		N_("  -h, --help               show this help\n"),
		N_("  -V, --version            show the version\n"),
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		fputs(_(lines[i]), f);
}

static int cli_fail(struct buf *err, const char *fmt, const char *arg)
{
	buf_addf(err, fmt, arg);
	return 2;
}

int cli_parse(int argc, char **argv, struct cli_opts *o, struct buf *err)
{
	memset(o, 0, sizeof(*o));
	filter_init(&o->filter);
	o->delay = 1.0;
	o->iterations = -1;
	/* 0, not 1: glibc then also forgets its position inside the previous
	 * argv (which may be freed by now) and parses this one from the start */
	optind = 0;
	opterr = 0;
	int c;
	size_t nopts = 0;
	while ((c = getopt_long(argc, argv, ":bn:d:p:u:F:c:Hs:Ro:hVw:r:", cli_long, NULL)) != -1) {
		int64_t n;
		nopts++;
		char *bad = NULL;
		switch (c) {
		case 'b':
			o->batch = true;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") == 0)
				o->format = CLI_FORMAT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				o->format = CLI_FORMAT_JSON;
			else if (strcmp(optarg, "openmetrics") == 0)
				o->format = CLI_FORMAT_OPENMETRICS;
			else
				return cli_fail(err, _("unknown format '%s' (use text, json or openmetrics)"), optarg);
			o->format_set = true;
			break;
		case OPT_TEXTFILE:
			if (!*optarg)
				return cli_fail(err, "%s", _("--textfile needs a file name"));
			o->textfile = optarg;
			o->batch = true;
			break;
		case OPT_TOP:
			if (!num_parse_int(optarg, 0, 100000, &n))
				return cli_fail(err, _("bad command count '%s' for --top (0 to 100000)"), optarg);
			o->top = n;
			break;
		case 'n':
			if (!num_parse_int(optarg, 1, INT32_MAX, &n))
				return cli_fail(err, _("bad iteration count '%s' (a whole number >= 1)"), optarg);
			o->iterations = n;
			break;
		case 'd':
			if (!num_parse_double(optarg, &o->delay) || o->delay < 0.1 || o->delay > 86400)
				return cli_fail(err, _("bad delay '%s' (seconds, from 0.1 to 86400)"), optarg);
			o->delay_set = true;
			break;
		case 'p':
			if (filter_add_pids(&o->filter, optarg, &bad) < 0) {
				int r = cli_fail(err, _("bad PID '%s' in the PID list"), bad ? bad : optarg);
				free(bad);
				return r;
			}
			break;
		case 'u':
			o->user_arg = optarg;
			break;
		case 'F':
			filter_set_text(&o->filter, optarg);
			break;
		case 'c':
			if (filter_set_cgroup(&o->filter, optarg) < 0)
				return cli_fail(err, "%s", _("out of memory"));
			break;
		case 'H':
			o->threads = true;
			break;
		case OPT_GROUP:
			if (strcmp(optarg, "cgroup") == 0)
				o->group = CLI_GROUP_CGROUP;
			else if (strcmp(optarg, "none") == 0)
				o->group = CLI_GROUP_NONE;
			else
				return cli_fail(err, _("unknown grouping '%s' (use cgroup or none)"), optarg);
			break;
		case 's':
			o->sort = optarg;
			break;
		case 'R':
			o->reverse = true;
			break;
		case 'o':
			o->columns = optarg;
			break;
		case OPT_LIST_COLUMNS:
			o->list_columns = true;
			break;
		case OPT_NO_COLOR:
			o->no_color = true;
			break;
		case OPT_NO_MOUSE:
			o->no_mouse = true;
			break;
		case OPT_PLUGIN: {
			const char **p = realloc(o->plugins, (o->nplugins + 1) * sizeof(*p));
			if (!p)
				return cli_fail(err, "%s", _("out of memory"));
			o->plugins = p;
			o->plugins[o->nplugins++] = optarg;
			break;
		}
		case OPT_NO_PLUGINS:
			o->no_plugins = true;
			break;
		case OPT_CHECK_PLUGIN:
			o->check_plugin = optarg;
			break;
		case 'w':
			o->record = optarg;
			break;
		case OPT_KEEP:
			if (!num_parse_int(optarg, 1, 36500, &n))
				return cli_fail(err, _("bad number of days '%s' (a whole number >= 1)"), optarg);
			o->keep_days = (int)n;
			break;
		case 'r':
			o->replay = optarg;
			break;
		case OPT_BEGIN:
		case OPT_END: {
			struct when w;
			if (!when_parse(optarg, &w))
				return cli_fail(err, _("bad time '%s' (HH:MM[:SS], YYYY-MM-DD[ HH:MM[:SS]] or @SECONDS)"),
						optarg);
			*(c == OPT_BEGIN ? &o->begin : &o->end) = optarg;
			break;
		}
		case OPT_STREAM:
			o->stream = true;
			break;
		case OPT_ACT:
			if (act_parse(optarg, &o->act) < 0)
				return cli_fail(err, _("bad action '%s' (signal:SIG:PID:START, renice:STEP:PID:START or anatomy:PID:START)"), optarg);
			o->acting = true;
			break;
		case OPT_HOST: {
			const char **p = realloc(o->hosts, (o->nhosts + 1) * sizeof(*p));
			if (!p)
				return cli_fail(err, "%s", _("out of memory"));
			o->hosts = p;
			o->hosts[o->nhosts++] = optarg;
			break;
		}
		case OPT_HOSTS_FILE:
			o->hosts_file = optarg;
			break;
		case 'h':
			o->help = true;
			break;
		case 'V':
			o->version = true;
			break;
		case ':':
			return cli_fail(err, _("option '%s' needs a value"), argv[optind - 1]);
		default:
			if (optopt) {
				char s[3] = {'-', (char)optopt, '\0'};
				return cli_fail(err, _("unknown option '%s'"), s);
			}
			return cli_fail(err, _("unknown option '%s'"), argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_fail(err, _("unexpected argument '%s'"), argv[optind]);
	if (o->top > 0 && !o->textfile && o->format != CLI_FORMAT_OPENMETRICS)
		return cli_fail(err, "%s", _("--top applies to metrics: use it with --format openmetrics or --textfile"));
	if (o->record && o->replay)
		return cli_fail(err, "%s", _("--record and --replay cannot be used together"));
	if (o->keep_days && !o->record)
		return cli_fail(err, "%s", _("--keep goes with --record"));
	if ((o->begin || o->end) && !o->replay)
		return cli_fail(err, "%s", _("--begin and --end go with --replay"));
	bool hosts = o->nhosts || o->hosts_file;
	/* the one thing it does: no option of another mode, nor a selection it would ignore */
	if (o->acting && nopts > 1)
		return cli_fail(err, "%s", _("--act goes alone"));
	if (o->stream && (o->batch || o->record || o->replay || o->textfile || hosts))
		return cli_fail(err, "%s", _("--stream goes alone: without -b, -w, -r, --textfile or --host"));
	/* a recording names its hosts */
	if (hosts && o->replay)
		return cli_fail(err, "%s", _("--host cannot be used with -r: a recording of hosts replays them all"));
	if (hosts && o->keep_days)
		return cli_fail(err, "%s", _("--keep goes with daily files: --host records into one file"));
	/* the remotes send what the metrics sum, not the rows' columns */
	if (hosts && o->textfile && o->format_set && o->format != CLI_FORMAT_OPENMETRICS)
		return cli_fail(err, "%s", _("--host with --textfile prints openmetrics only"));
	/* a remote host resolves -u itself: a name unknown here may be known there */
	if (o->user_arg && !hosts && filter_set_user(&o->filter, o->user_arg) < 0)
		return cli_fail(err, _("unknown user '%s'"), o->user_arg);
	/* a text file of counters is for a collector that reads it again and again */
	if (o->iterations < 0)
		o->iterations = o->textfile ? INT64_MAX : o->batch && !o->record && !o->replay ? 1 : 0;
	/* a misspelt reader would silently run the default one */
	const char *reader = getenv("TASKVIEW_READER");
	if (reader && *reader && strcmp(reader, "proc") != 0 && strcmp(reader, "bpf") != 0)
		return cli_fail(err, "%s", _("TASKVIEW_READER takes proc or bpf (or nothing, for the cheaper one)"));
	/* live, this process is among the ones filtered; a replay's are another machine's */
	o->filter.self = o->replay ? 0 : (int32_t)getpid();
	return 0;
}

void cli_free(struct cli_opts *o)
{
	filter_free(&o->filter);
	free(o->plugins);
	o->plugins = NULL;
	free(o->hosts);
	o->hosts = NULL;
}
