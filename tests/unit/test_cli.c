/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command-line parsing: defaults, repeatable options, and every usage error
 * returning 2 with a message that names the offending value.
 */
#include <check.h>
#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "hosts/act.h"
#include "hosts/hostlist.h"
#include "hosts/remote.h"
#include "metrics.h"
#include "model/column.h"
#include "model/task.h"
#include "record/when.h"
#include "sample/memory/anatomy.h"
#include "tmpdir.h"
#include "util/buf.h"
#include "util/num.h"

struct parsed {
	int rc;
	struct cli_opts o;
	char err[256];
	char *argv[32];
	int argc;
};

/* Parses "taskview" followed by the given arguments (NULL-terminated). */
static struct parsed *parse(const char *first, ...)
{
	struct parsed *p = calloc(1, sizeof(*p));
	ck_assert_ptr_nonnull(p);
	p->argv[p->argc++] = strdup("taskview");
	va_list ap;
	va_start(ap, first);
	for (const char *a = first; a; a = va_arg(ap, const char *)) {
		ck_assert_int_lt(p->argc, 31);
		p->argv[p->argc++] = strdup(a);
	}
	va_end(ap);
	struct buf err;
	buf_init(&err);
	p->rc = cli_parse(p->argc, p->argv, &p->o, &err);
	snprintf(p->err, sizeof(p->err), "%s", buf_str(&err));
	buf_free(&err);
	return p;
}

static void done(struct parsed *p)
{
	cli_free(&p->o);
	for (int i = 0; i < p->argc; i++)
		free(p->argv[i]);
	free(p);
}

/* The parse must fail with 2 and a message containing every given piece. */
static void expect_error(struct parsed *p, const char *piece)
{
	ck_assert_int_eq(p->rc, 2);
	ck_assert_msg(strstr(p->err, piece) != NULL, "message \"%s\" lacks \"%s\"", p->err, piece);
	done(p);
}

/* ---- defaults and accepted values ---- */

START_TEST(defaults_interactive)
{
	struct parsed *p = parse(NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert(!p->o.batch);
	ck_assert_int_eq(p->o.iterations, 0); /* until quit */
	ck_assert_double_eq(p->o.delay, 1.0);
	ck_assert(!p->o.delay_set);
	ck_assert_int_eq(p->o.format, CLI_FORMAT_TEXT);
	ck_assert_uint_eq(p->o.filter.npids, 0);
	ck_assert_int_eq(p->o.filter.uid, TV_UNKNOWN);
	ck_assert_ptr_null(p->o.filter.text);
	ck_assert_ptr_null(p->o.sort);
	ck_assert_ptr_null(p->o.columns);
	ck_assert_uint_eq(p->o.nplugins, 0);
	done(p);
}
END_TEST

START_TEST(defaults_batch)
{
	struct parsed *p = parse("-b", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert(p->o.batch);
	ck_assert_int_eq(p->o.iterations, 1);
	ck_assert_double_eq(p->o.delay, 1.0);
	done(p);
}
END_TEST

START_TEST(batch_values)
{
	struct parsed *p = parse("-b", "-n", "5", "-d", "0.5", "--format", "json", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(p->o.iterations, 5);
	ck_assert_double_eq_tol(p->o.delay, 0.5, 1e-12);
	ck_assert(p->o.delay_set);
	ck_assert_int_eq(p->o.format, CLI_FORMAT_JSON);
	done(p);
	p = parse("--batch", "--iterations=3", "--delay=0.1", "--format=text", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(p->o.iterations, 3);
	ck_assert_double_eq_tol(p->o.delay, 0.1, 1e-12);
	ck_assert_int_eq(p->o.format, CLI_FORMAT_TEXT);
	done(p);
	p = parse("-bn2", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert(p->o.batch);
	ck_assert_int_eq(p->o.iterations, 2);
	done(p);
}
END_TEST

START_TEST(view_options)
{
	struct parsed *p = parse("-H", "-R", "-s", "vm_pte", "-o", "pid,comm", "-F", "Fire", "--no-color",
				 "--list-columns", "--no-plugins", "--check-plugin", "x.so", "-h", "-V", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert(p->o.threads);
	ck_assert(p->o.reverse);
	ck_assert_str_eq(p->o.sort, "vm_pte");
	ck_assert_str_eq(p->o.columns, "pid,comm");
	ck_assert_str_eq(p->o.filter.text, "Fire");
	ck_assert(p->o.no_color);
	ck_assert(p->o.list_columns);
	ck_assert(p->o.no_plugins);
	ck_assert_str_eq(p->o.check_plugin, "x.so");
	ck_assert(p->o.help);
	ck_assert(p->o.version);
	done(p);
}
END_TEST

START_TEST(pid_repeatable)
{
	struct parsed *p = parse("-p", "30,1", "--pid", "2", "-p", "1", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_uint_eq(p->o.filter.npids, 3);
	ck_assert_int_eq(p->o.filter.pids[0], 1);
	ck_assert_int_eq(p->o.filter.pids[1], 2);
	ck_assert_int_eq(p->o.filter.pids[2], 30);
	done(p);
}
END_TEST

START_TEST(plugin_repeatable)
{
	struct parsed *p = parse("--plugin", "a.so", "--plugin=/x/b.so", "--plugin", "a.so", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_uint_eq(p->o.nplugins, 3);
	ck_assert_str_eq(p->o.plugins[0], "a.so");
	ck_assert_str_eq(p->o.plugins[1], "/x/b.so");
	ck_assert_str_eq(p->o.plugins[2], "a.so");
	done(p);
}
END_TEST

START_TEST(user_by_name_or_uid)
{
	struct parsed *p = parse("-u", "root", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(p->o.filter.uid, 0);
	done(p);
	p = parse("--user", "54321", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(p->o.filter.uid, 54321);
	done(p);
}
END_TEST

START_TEST(delay_minimum_accepted)
{
	struct parsed *p = parse("-d", "0.1", NULL);
	ck_assert_int_eq(p->rc, 0);
	done(p);
	p = parse("-d", "2", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_double_eq(p->o.delay, 2.0);
	done(p);
}
END_TEST

START_TEST(record_and_replay)
{
	/* a recording goes on until stopped, printed or not */
	struct parsed *p = parse("-w", "/tmp/x.tvr", "-H", "-d", "10", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_str_eq(p->o.record, "/tmp/x.tvr");
	ck_assert_int_eq(p->o.iterations, 0);
	ck_assert(!p->o.batch);
	done(p);
	p = parse("--record=/var/log/taskview", "--keep", "7", "-b", "--format", "json", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(p->o.keep_days, 7);
	ck_assert_int_eq(p->o.iterations, 0);
	done(p);
	p = parse("-w", "f", "-b", "-n", "3", NULL);
	ck_assert_int_eq(p->o.iterations, 3);
	done(p);
	/* a replay prints the whole range unless -n says */
	p = parse("-r", "f.tvr", "-b", "--begin", "03:10", "--end", "2026-11-23 03:20:30", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_str_eq(p->o.replay, "f.tvr");
	ck_assert_str_eq(p->o.begin, "03:10");
	ck_assert_str_eq(p->o.end, "2026-11-23 03:20:30");
	ck_assert_int_eq(p->o.iterations, 0);
	ck_assert(!p->o.reverse);
	done(p);
	p = parse("--replay", "d", "-b", "--begin=2026-11-23T03:10", "--end=@1795000000.5", NULL);
	ck_assert_int_eq(p->rc, 0);
	done(p);
	/* without -b, the interactive screen over the recording: no sample count */
	p = parse("-r", "f.tvr", "--begin", "03:10", "-d", "2", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_str_eq(p->o.replay, "f.tvr");
	ck_assert(!p->o.batch);
	ck_assert_int_eq(p->o.iterations, 0);
	done(p);
}
END_TEST

START_TEST(replay_times)
{
	struct when w;
	ck_assert(when_parse("03:12", &w) && w.kind == WHEN_CLOCK && w.hour == 3 && w.min == 12 && w.sec == 0);
	ck_assert(when_parse("23:59:60", &w) && w.sec == 60);
	ck_assert(when_parse("2026-11-23", &w) && w.kind == WHEN_DATE && w.mday == 23 && w.hour == 0);
	ck_assert(when_parse("2026-11-23 03:12:07", &w) && w.hour == 3 && w.sec == 7);
	ck_assert(when_parse("2026-11-23T03:12", &w) && w.min == 12);
	ck_assert(when_parse("@0", &w) && w.kind == WHEN_EPOCH && w.epoch == 0);
	static const char *const bad[] = {"3:12", "03:12:7", "24:00", "03:60", "+3:12", " 03:12", "03:12 ",
					  "2026-13-01", "2026-11-32", "26-11-23", "2026-11-23 3:12", "2026-11-23_03:12",
					  "@", "@-5", "@x", "", "now", "03-12"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!when_parse(bad[i], &w), "accepted '%s'", bad[i]);
	/* a clock time is the first one at or after the start */
	setenv("TZ", "UTC", 1);
	tzset();
	ck_assert(when_parse("03:00", &w));
	ck_assert_double_eq(when_resolve(&w, 1795420800.0 /* 2026-11-23 08:00 UTC */), 1795420800.0 + 19 * 3600);
	ck_assert_double_eq(when_resolve(&w, 1795420800.0 - 5 * 3600), 1795420800.0 - 5 * 3600);
	ck_assert(when_parse("2026-11-23 08:00", &w));
	ck_assert_double_eq(when_resolve(&w, 0), 1795420800.0);
	unsetenv("TZ");
	tzset();
}
END_TEST

/* ---- usage errors ---- */

START_TEST(error_unknown_option)
{
	expect_error(parse("-x", NULL), "unknown option '-x'");
	expect_error(parse("--bogus", NULL), "unknown option '--bogus'");
	expect_error(parse("-b", "--frobnicate=3", NULL), "'--frobnicate");
	/* the first error wins, with its own name */
	expect_error(parse("-bq", NULL), "unknown option '-q'");
}
END_TEST

START_TEST(error_missing_value)
{
	expect_error(parse("-n", NULL), "'-n'");
	expect_error(parse("-b", "--delay", NULL), "'--delay'");
	expect_error(parse("-p", NULL), "'-p'");
}
END_TEST

START_TEST(error_bad_iterations)
{
	static const char *const bad[] = {"0", "-1", "x", "1.5", "", "3x", " 3", "99999999999999999999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[64];
		snprintf(want, sizeof(want), "'%s'", bad[i]);
		expect_error(parse("-b", "-n", bad[i], NULL), want);
	}
}
END_TEST

START_TEST(error_bad_delay)
{
	static const char *const bad[] = {"0.05", "0", "-1", "abc", "", "1e3", "nan", "inf", "0x1p3", ".", "1..2",
					  "100000", "1,5"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[64];
		snprintf(want, sizeof(want), "bad delay '%s'", bad[i]);
		expect_error(parse("-d", bad[i], NULL), want);
	}
}
END_TEST

START_TEST(error_bad_pid_list)
{
	expect_error(parse("-p", "1,x,3", NULL), "bad PID 'x'");
	expect_error(parse("-p", "0", NULL), "bad PID '0'");
	expect_error(parse("-p", "1,2,,3", NULL), "bad PID ''");
	expect_error(parse("-p", "5", "-p", "-7", NULL), "bad PID '-7'");
}
END_TEST

START_TEST(error_unknown_user)
{
	expect_error(parse("-u", "no-such-user-here", NULL), "unknown user 'no-such-user-here'");
	expect_error(parse("-u", "", NULL), "unknown user ''");
}
END_TEST

START_TEST(group_option)
{
	struct parsed *p = parse("--group", "cgroup", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(p->o.group, CLI_GROUP_CGROUP);
	done(p);
	p = parse("-b", "--group=none", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(p->o.group, CLI_GROUP_NONE);
	done(p);
	/* not given: the settings file decides (interactive), else none */
	p = parse(NULL);
	ck_assert_int_eq(p->o.group, CLI_GROUP_UNSET);
	done(p);
	expect_error(parse("--group", "user", NULL), "unknown grouping 'user'");
	expect_error(parse("--group", NULL), "needs a value");
}
END_TEST

START_TEST(error_unknown_format)
{
	expect_error(parse("-b", "--format", "xml", NULL), "unknown format 'xml'");
	expect_error(parse("--format=JSON", NULL), "unknown format 'JSON'");
}
END_TEST

START_TEST(error_metrics_options)
{
	expect_error(parse("--textfile", "", NULL), "--textfile needs a file name");
	expect_error(parse("-b", "--format", "openmetrics", "--top", "-1", NULL), "bad command count '-1'");
	expect_error(parse("-b", "--format", "openmetrics", "--top", "x", NULL), "bad command count 'x'");
	/* per-command series exist only in metrics */
	expect_error(parse("-b", "--top", "3", NULL), "--top applies to metrics");
	expect_error(parse("-b", "--format", "json", "--top", "3", NULL), "--top applies to metrics");
}
END_TEST

START_TEST(error_stray_argument)
{
	expect_error(parse("-b", "top", NULL), "unexpected argument 'top'");
}
END_TEST

START_TEST(metrics_options)
{
	struct parsed *p = parse("-b", "--format", "openmetrics", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(p->o.format, CLI_FORMAT_OPENMETRICS);
	ck_assert(p->o.format_set);
	ck_assert_int_eq(p->o.iterations, 1);
	ck_assert_int_eq(p->o.top, 0);
	done(p);
	/* a text file is for a collector that reads it again and again: batch, until stopped */
	p = parse("--textfile", "/run/x.prom", "--top", "5", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert(p->o.batch);
	ck_assert_str_eq(p->o.textfile, "/run/x.prom");
	ck_assert_int_eq(p->o.iterations, INT64_MAX);
	ck_assert_int_eq(p->o.top, 5);
	ck_assert(!p->o.format_set);
	done(p);
	p = parse("--textfile=t.prom", "-n", "3", "--format", "json", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(p->o.iterations, 3);
	ck_assert(p->o.format_set);
	ck_assert_int_eq(p->o.format, CLI_FORMAT_JSON);
	done(p);
}
END_TEST

START_TEST(error_record_replay)
{
	expect_error(parse("-w", "a", "-r", "b", "-b", NULL), "--record and --replay");
	expect_error(parse("--keep", "3", NULL), "--keep goes with --record");
	expect_error(parse("-w", "d", "--keep", "0", NULL), "bad number of days '0'");
	expect_error(parse("-w", "a", "-r", "b", NULL), "--record and --replay");
	expect_error(parse("-b", "--begin", "03:00", NULL), "go with --replay");
	expect_error(parse("-r", "f", "-b", "--end", "25:00", NULL), "bad time '25:00'");
	expect_error(parse("-w", NULL), "'-w'");
}
END_TEST

START_TEST(hosts_options)
{
	struct parsed *p = parse("-b", "--host", "web1,web2", "--host", "db1", "--hosts-file", "f", "-u", "nosuch-user-x",
				 NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_uint_eq(p->o.nhosts, 2);
	ck_assert_str_eq(p->o.hosts[1], "db1");
	ck_assert_str_eq(p->o.hosts_file, "f");
	/* a user unknown here is the remote's to resolve */
	ck_assert_str_eq(p->o.user_arg, "nosuch-user-x");
	done(p);
	/* without -b: the hosts' screen */
	p = parse("--host", "a", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert(!p->o.batch);
	done(p);
	/* -w records every host into one file, with -b or without */
	p = parse("-b", "--host", "a", "-w", "x", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert(p->o.iterations == 0);
	done(p);
	p = parse("--host", "a,b", "-w", "x", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert(!p->o.batch && p->o.iterations == 0);
	done(p);
	expect_error(parse("--host", "a", "-w", "x", "--keep", "3", NULL), "--host records into one file");
	expect_error(parse("--host", "a", "--textfile", "x", "--format", "json", NULL), "openmetrics only");
	p = parse("--host", "a", "--textfile", "x", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert(p->o.batch && p->o.iterations == INT64_MAX);
	done(p);
	expect_error(parse("--host", "a", "-r", "x", NULL), "a recording of hosts replays them all");
	/* each host's control groups under its row */
	p = parse("-b", "--host", "a", "--group", "cgroup", NULL);
	ck_assert_int_eq(p->rc, 0);
	done(p);
	expect_error(parse("--stream", "-b", NULL), "--stream goes alone");
	expect_error(parse("--stream", "--host", "a", NULL), "--stream goes alone");
	p = parse("--stream", "-H", "-p", "1", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert(p->o.stream);
	ck_assert_int_eq(p->o.iterations, 0); /* until its input closes */
	done(p);
}
END_TEST

START_TEST(host_lists)
{
	struct hostlist l;
	struct buf err;
	hostlist_init(&l);
	buf_init(&err);
	ck_assert_int_eq(hostlist_add_csv(&l, "web1,root@db-2.example.org,,web1,[::1],fe80::1%eth0", &err), 0);
	ck_assert_uint_eq(l.n, 4); /* the empty one dropped, the repeated one once */
	ck_assert_str_eq(l.v[1], "root@db-2.example.org");
	static const char file[] = "# fleet\n\n  web3\t# the third\r\nweb1\nweb4";
	ck_assert_int_eq(hostlist_add_lines(&l, file, sizeof(file) - 1, "hosts", &err), 0);
	ck_assert_uint_eq(l.n, 6);
	ck_assert_str_eq(l.v[4], "web3");
	ck_assert_str_eq(l.v[5], "web4");
	/* what ssh would read as an option, or as more than one word */
	static const char *const bad[] = {"-oProxyCommand=x", "a b", "a;b", "x\x1b[2J", "a'b", "$(id)"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		buf_reset(&err);
		ck_assert_int_eq(hostlist_add_csv(&l, bad[i], &err), -1);
		ck_assert_msg(strstr(buf_str(&err), "not a host name") && !strchr(buf_str(&err), 0x1b), "%s",
			      buf_str(&err));
	}
	buf_reset(&err);
	static const char badfile[] = "web1\n-x\n";
	ck_assert_int_eq(hostlist_add_lines(&l, badfile, sizeof(badfile) - 1, "fleet", &err), -1);
	ck_assert_str_eq(buf_str(&err), "fleet:2: not a host name: -x");
	ck_assert_uint_eq(l.n, 6);
	hostlist_free(&l);
	buf_free(&err);
}
END_TEST

START_TEST(remote_command)
{
	struct parsed *p = parse("-b", "--host", "h", "-H", "-d", "0.5", "-p", "1,22", "-u", "www-data", "-F",
				 "it's $(x)", "-o", "pid,comm", "-s", "cpu", NULL);
	ck_assert_int_eq(p->rc, 0);
	struct remote_argv a;
	ck_assert_int_eq(remote_argv_build(&a, "  ssh  -F /tmp/c ", "sudo -n taskview", "web1", &p->o), 0);
	ck_assert_uint_eq(a.n, 9);
	ck_assert_str_eq(a.v[0], "ssh");
	ck_assert_str_eq(a.v[2], "/tmp/c");
	ck_assert_str_eq(a.v[3], "-o");
	ck_assert_str_eq(a.v[4], "BatchMode=yes");
	ck_assert_str_eq(a.v[6], "--");
	ck_assert_str_eq(a.v[7], "web1");
	ck_assert_str_eq(a.v[8], "exec sudo -n taskview --stream --no-plugins -d 0.5 -H -p 1,22 -u 'www-data' "
				 "-F 'it'\\''s $(x)' -o 'pid,comm' -s 'cpu'");
	ck_assert_ptr_null(a.v[9]);
	remote_argv_free(&a);
	/* the defaults */
	ck_assert_int_eq(remote_argv_build(&a, NULL, NULL, "web1", &p->o), 0);
	ck_assert_str_eq(a.v[0], "ssh");
	ck_assert(strncmp(a.v[a.n - 1], "exec taskview --stream", 22) == 0);
	remote_argv_free(&a);
	done(p);
	/* HOST is the screen's own column: a remote is asked for the others, and sorts by none */
	p = parse("--host", "h", "-o", " host ,pid,hostname, comm", "-s", "host", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(remote_argv_build(&a, NULL, NULL, "web1", &p->o), 0);
	ck_assert_str_eq(a.v[a.n - 1], "exec taskview --stream --no-plugins -d 1 -o 'pid,hostname,comm'");
	remote_argv_free(&a);
	done(p);
	p = parse("--host", "h", "-o", "host", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(remote_argv_build(&a, NULL, NULL, "web1", &p->o), 0);
	ck_assert_str_eq(a.v[a.n - 1], "exec taskview --stream --no-plugins -d 1");
	remote_argv_free(&a);
	done(p);
	/* the group view asks each host for its control groups */
	p = parse("--host", "h", "--group", "cgroup", "-c", "/app", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(remote_argv_build(&a, NULL, NULL, "web1", &p->o), 0);
	ck_assert_str_eq(a.v[a.n - 1], "exec taskview --stream --no-plugins -d 1 -c '/app' --group cgroup");
	remote_argv_free(&a);
	done(p);
	/* ... but metrics, which sum no group, read none */
	p = parse("-b", "--host", "h", "--group", "cgroup", "--format", "openmetrics", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(remote_argv_build(&a, NULL, NULL, "web1", &p->o), 0);
	ck_assert_str_eq(a.v[a.n - 1], "exec taskview --stream --no-plugins -d 1 -o " REMOTE_METRICS_COLUMNS);
	remote_argv_free(&a);
	done(p);
	/* metrics: the columns of what they sum, whatever -o and -s say */
	p = parse("-b", "--host", "h", "--format", "openmetrics", "-o", "pid", "-s", "cpu", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(remote_argv_build(&a, NULL, NULL, "web1", &p->o), 0);
	ck_assert_str_eq(a.v[a.n - 1], "exec taskview --stream --no-plugins -d 1 -o " REMOTE_METRICS_COLUMNS);
	remote_argv_free(&a);
	done(p);
	/* ... which read all that the metrics read (a stream reads each group's CPU whatever its columns) */
	struct colset cs;
	ck_assert_int_eq(colset_init(&cs), 0);
	unsigned needs = 0;
	char ids[] = REMOTE_METRICS_COLUMNS;
	for (char *save, *id = strtok_r(ids, ",", &save); id; id = strtok_r(NULL, ",", &save)) {
		const struct column *c = colset_find(&cs, id);
		ck_assert_msg(c, "unknown column %s", id);
		needs |= c->needs;
	}
	unsigned want = metrics_needs() & ~(unsigned)NEED_CGROUP_CPU;
	ck_assert_uint_eq(needs & want, want);
	colset_free(&cs);
}
END_TEST

/* What shell -c line (HOME in home, as a login's own) printed to its stdout; malloc'd, *n its length. */
static char *shell_output(const char *shell, const char *line, const char *home, size_t *n)
{
	int fd[2];
	ck_assert_int_eq(pipe(fd), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		/* fish keeps its history and variables under these: the test's own, not the user's */
		setenv("HOME", home, 1);
		setenv("XDG_CONFIG_HOME", home, 1);
		setenv("XDG_DATA_HOME", home, 1);
		setenv("XDG_CACHE_HOME", home, 1);
		execl(shell, shell, "-c", line, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	char *out = NULL;
	size_t len = 0;
	for (;;) {
		out = realloc(out, len + 4096);
		ck_assert_ptr_nonnull(out);
		ssize_t got = read(fd[0], out + len, 4096);
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(fd[0]);
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s -c: status %d", shell, status);
	*n = len;
	return out;
}

/* Each quoted word reaches the remote as it was, through every shell a
 * remote user may log in with (ssh runs the line with it): those installed here. */
START_TEST(remote_quote_in_real_shells)
{
	static const char *const shells[] = {"/bin/sh", "/bin/bash", "/bin/dash", "/usr/bin/fish", "/bin/zsh", "/usr/bin/zsh"};
	static const char *const words[] = {
		"it's", "a\\b", "\\", "\\'", "'\\", "a\\\\'b\\", "$(x) `y` $HOME ${z}", "* ? [a] ~ ~root",
		"a b\tc\nd", "{a,b} #x ; & | < > ( )", "%s \"q\" !1", "", "''", "\\n",
	};
	char home[4096];
	ck_assert_ptr_nonnull(test_mkdtemp(home, sizeof(home), "tv-shells"));
	struct buf line, want;
	buf_init(&line);
	buf_init(&want);
	/* /usr/bin/printf, not a builtin: every shell's words reach the same program */
	buf_adds(&line, "exec /usr/bin/printf ");
	remote_quote(&line, "%s\\0");
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		buf_addc(&line, ' ');
		remote_quote(&line, words[i]);
		buf_add(&want, words[i], strlen(words[i]) + 1);
	}
	ck_assert(!line.oom && !want.oom);
	int ran = 0;
	for (size_t i = 0; i < sizeof(shells) / sizeof(*shells); i++) {
		if (access(shells[i], X_OK) != 0)
			continue;
		size_t n;
		char *out = shell_output(shells[i], buf_str(&line), home, &n);
		ck_assert_msg(n == want.len && memcmp(out, want.data, n) == 0, "%s split %s otherwise", shells[i],
			      buf_str(&line));
		free(out);
		fprintf(stderr, "remote_quote_in_real_shells: %s read every word as it was\n", shells[i]);
		ran++;
	}
	ck_assert_int_ge(ran, 2);
	buf_free(&line);
	buf_free(&want);
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", home);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* k on the hosts' screen: what the host is asked, and what it accepts. */
START_TEST(act_command)
{
	struct parsed *p = parse("--act", "signal:15:812:4567890123", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert(p->o.acting);
	ck_assert_int_eq(p->o.act.kind, ACT_SIGNAL);
	ck_assert_int_eq(p->o.act.value, 15);
	ck_assert_int_eq(p->o.act.pid, 812);
	ck_assert_uint_eq(p->o.act.start_ticks, 4567890123u);
	struct remote_argv a;
	ck_assert_int_eq(remote_argv_act(&a, "ssh -F c", "sudo -n taskview", "web1", &p->o.act), 0);
	ck_assert_str_eq(a.v[0], "ssh");
	ck_assert_str_eq(a.v[a.n - 2], "web1");
	ck_assert_str_eq(a.v[a.n - 1], "exec sudo -n taskview --act 'signal:15:812:4567890123'");
	remote_argv_free(&a);
	done(p);
	p = parse("--act", "renice:-1:812:4567890123", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(p->o.act.kind, ACT_RENICE);
	ck_assert_int_eq(p->o.act.value, -1);
	ck_assert_int_eq(remote_argv_act(&a, NULL, NULL, "web1", &p->o.act), 0);
	ck_assert_str_eq(a.v[a.n - 1], "exec taskview --act 'renice:-1:812:4567890123'");
	remote_argv_free(&a);
	done(p);
	p = parse("--act", "anatomy:812:4567890123", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(p->o.act.kind, ACT_ANATOMY);
	ck_assert_int_eq(p->o.act.pid, 812);
	ck_assert_uint_eq(p->o.act.start_ticks, 4567890123u);
	ck_assert_int_eq(remote_argv_act(&a, NULL, NULL, "web1", &p->o.act), 0);
	ck_assert_str_eq(a.v[a.n - 1], "exec taskview --act 'anatomy:812:4567890123'");
	remote_argv_free(&a);
	done(p);
	static const char *const bad[] = {"renice:0:812:1", "renice:40:812:1", "renice:-40:812:1", "signal:15:812", "signal:15:812:1:2", "signal:0:812:1", "signal:65:812:1",
					  "signal:15:0:1", "signal:15:4194305:1", "signal:15:-1:1", "signal:15:812:-1",
					  "signal:15:812:", "signal:x:812:1", "kill:15:812:1", "signal:15:812:1 ", "",
					  "anatomy:812", "anatomy:0:812:1", "anatomy:812:1:2", "anatomy:-1:1", "anatomy:812:",
					  "anatomy::1", "anatomy", "anatomy:", "anatomyx:812:1", "signal:", "renice:"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_error(parse("--act", bad[i], NULL), "bad action");
	expect_error(parse("--act", "signal:15:1:1", "-b", NULL), "--act goes alone");
	expect_error(parse("--act", "signal:15:1:1", "--host", "a", NULL), "--act goes alone");
	expect_error(parse("-p", "1", "--act", "signal:15:1:1", NULL), "--act goes alone");
	expect_error(parse("--act", "signal:15:1:1", "--act", "signal:9:1:1", NULL), "--act goes alone");
}
END_TEST

/* The answer of anatomy:PID:START, as the hosts' screen reads it: what a
 * taskview there prints, and what a host that is not one may send. */
START_TEST(act_answer)
{
	struct anatomy a;
	struct anatomy_pages pg;
	int err = -1;
	const char ok[] = "taskview-anatomy 1 0 8192 2 512 3 65536 5 1024 9 256 4 0 24 - 4096 - 12 8 later fields\n";
	anatomy_init(&a);
	ck_assert_int_eq(act_answer_parse(ok, sizeof(ok) - 1, &a, &pg, &err), 0);
	ck_assert_int_eq(err, 0);
	ck_assert_int_eq(a.kib[ANAT_STACK], 8192);
	ck_assert_uint_eq(a.count[ANAT_STACK], 2);
	ck_assert_int_eq(a.kib[ANAT_ANON], 256);
	ck_assert_uint_eq(a.count[ANAT_ANON], 4);
	ck_assert_int_eq(pg.err, 0);
	ck_assert_int_eq(pg.kib[ANAT_STACK], 24);
	ck_assert(pg.kib[ANAT_GUARD] == TV_UNKNOWN);
	ck_assert_int_eq(pg.kib[ANAT_HEAP], 4096);
	ck_assert_int_eq(pg.kib[ANAT_ANON], 12);
	ck_assert_int_eq(pg.tables_kib, 8);
	const char denied[] = "taskview-anatomy 1 13\n";
	ck_assert_int_eq(act_answer_parse(denied, sizeof(denied) - 1, &a, &pg, &err), 0);
	ck_assert_int_eq(err, 13);
	/* the remote's own output, written by this build's act_run, reads back */
	char path[] = "/tmp/tv-act-answer.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *out = fdopen(fd, "w+");
	struct act_req self = {ACT_ANATOMY, 0, (int32_t)getpid(), 0};
	ck_assert_int_eq(act_run(&self, out, stderr), 0);
	rewind(out);
	char line[512];
	size_t n = fread(line, 1, sizeof(line), out);
	fclose(out);
	unlink(path);
	/* start time 0 is not this process's: it answers ESRCH */
	ck_assert_int_eq(act_answer_parse(line, n, &a, &pg, &err), 0);
	ck_assert_int_eq(err, ESRCH);
	static const char *const bad[] = {
		"", "\n", "taskview-anatomy 1 0\n", "taskview-anatomy 2\n", "taskview-anatomy 1\n",
		"taskview-anatomy 1 0 8192 2 512 3 65536 5 1024 9 256 4 0 24 - 4096 - 12", /* no newline */
		"taskview-anatomy 1 0 8192 2 512 3 65536 5 1024 9 256 4 0 24 - 4096 -\n",
		"taskview-anatomy 1 0 -1 2 512 3 65536 5 1024 9 256 4 0 24 - 4096 - 12 8\n",
		"taskview-anatomy 1 0 - 2 512 3 65536 5 1024 9 256 4 0 24 - 4096 - 12 8\n",
		"taskview-anatomy 1 0 99999999999999999999 2 512 3 65536 5 1024 9 256 4 0 24 - 4096 - 12 8\n",
		"taskview-anatomy 1 0 8192 2 512 3 65536 5 1024 9 256 4 0 24 - 4096 - 12 0x8\n",
		"taskview-anatomy 1 99999\n", "taskview-anatomy 1 -3\n", "taskview-anatomyx 1 0\n",
		"Welcome to web1!\n", "\x1b[2Jtaskview-anatomy 1 13\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		ck_assert_msg(act_answer_parse(bad[i], strlen(bad[i]), &a, &pg, &err) < 0, "read: %s", bad[i]);
	anatomy_free(&a);
}
END_TEST

START_TEST(parse_twice)
{
	/* a failed parse leaves no state behind for the next one */
	expect_error(parse("-bq", NULL), "'-q'");
	struct parsed *p = parse("-n", "4", "-b", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_int_eq(p->o.iterations, 4);
	done(p);
}
END_TEST

/* ---- util/num ---- */

START_TEST(num_int_strict)
{
	int64_t v = 0;
	ck_assert(num_parse_int("42", 1, 100, &v));
	ck_assert_int_eq(v, 42);
	ck_assert(num_parse_int("1", 1, 100, &v));
	ck_assert(num_parse_int("100", 1, 100, &v));
	ck_assert(num_parse_int("-5", -10, 10, &v));
	ck_assert_int_eq(v, -5);
	v = 7;
	ck_assert(!num_parse_int("0", 1, 100, &v));
	ck_assert(!num_parse_int("101", 1, 100, &v));
	ck_assert(!num_parse_int("", 1, 100, &v));
	ck_assert(!num_parse_int(NULL, 1, 100, &v));
	ck_assert(!num_parse_int(" 4", 1, 100, &v));
	ck_assert(!num_parse_int("4 ", 1, 100, &v));
	ck_assert(!num_parse_int("0x10", 0, 100, &v));
	ck_assert(!num_parse_int("1e2", 0, 1000, &v));
	ck_assert(!num_parse_int("99999999999999999999", 0, INT64_MAX, &v));
	ck_assert_int_eq(v, 7); /* untouched on failure */
}
END_TEST

START_TEST(num_double_strict)
{
	double v = 0;
	ck_assert(num_parse_double("0.5", &v));
	ck_assert_double_eq(v, 0.5);
	ck_assert(num_parse_double("2", &v));
	ck_assert_double_eq(v, 2.0);
	ck_assert(num_parse_double("+1.25", &v));
	ck_assert_double_eq(v, 1.25);
	v = 9;
	static const char *const bad[] = {"", " 1", "1 ", "1e3", "inf", "nan", "0x10", "1,5", ".", "1..2", "--1", "abc"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!num_parse_double(bad[i], &v), "accepted '%s'", bad[i]);
	ck_assert(!num_parse_double(NULL, &v));
	ck_assert_double_eq(v, 9);
}
END_TEST

START_TEST(num_double_ignores_locale)
{
	/* "-d 0.5" must mean half a second in a decimal-comma locale too */
	static const char *const comma[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "nl_NL.UTF-8",
					    "ru_RU.UTF-8", "de_DE", "fr_FR"};
	const char *got = NULL;
	for (size_t i = 0; i < sizeof(comma) / sizeof(comma[0]) && !got; i++)
		if (setlocale(LC_NUMERIC, comma[i]))
			got = comma[i];
	if (!got) {
		fprintf(stderr, "note: no decimal-comma locale installed; locale check not run\n");
		return;
	}
	ck_assert_double_eq(strtod("0,5", NULL), 0.5); /* the locale really uses a comma */
	double v = 0;
	ck_assert(num_parse_double("0.5", &v));
	ck_assert_double_eq(v, 0.5);
	ck_assert(!num_parse_double("0,5", &v));
	struct parsed *p = parse("-d", "0.25", NULL);
	ck_assert_int_eq(p->rc, 0);
	ck_assert_double_eq(p->o.delay, 0.25);
	done(p);
	setlocale(LC_NUMERIC, "C");
}
END_TEST

static Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("accepted");
	tcase_add_test(tc, defaults_interactive);
	tcase_add_test(tc, defaults_batch);
	tcase_add_test(tc, batch_values);
	tcase_add_test(tc, view_options);
	tcase_add_test(tc, pid_repeatable);
	tcase_add_test(tc, plugin_repeatable);
	tcase_add_test(tc, user_by_name_or_uid);
	tcase_add_test(tc, delay_minimum_accepted);
	tcase_add_test(tc, metrics_options);
	tcase_add_test(tc, record_and_replay);
	tcase_add_test(tc, replay_times);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_test(tc, error_unknown_option);
	tcase_add_test(tc, error_missing_value);
	tcase_add_test(tc, error_bad_iterations);
	tcase_add_test(tc, error_bad_delay);
	tcase_add_test(tc, error_bad_pid_list);
	tcase_add_test(tc, error_unknown_user);
	tcase_add_test(tc, error_unknown_format);
	tcase_add_test(tc, group_option);
	tcase_add_test(tc, error_metrics_options);
	tcase_add_test(tc, error_stray_argument);
	tcase_add_test(tc, error_record_replay);
	tcase_add_test(tc, parse_twice);
	tcase_add_test(tc, hosts_options);
	tcase_add_test(tc, host_lists);
	tcase_add_test(tc, remote_command);
	tcase_add_test(tc, remote_quote_in_real_shells);
	tcase_add_test(tc, act_command);
	tcase_add_test(tc, act_answer);
	suite_add_tcase(s, tc);

	tc = tcase_create("num");
	tcase_add_test(tc, num_int_strict);
	tcase_add_test(tc, num_double_strict);
	tcase_add_test(tc, num_double_ignores_locale);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cli_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
