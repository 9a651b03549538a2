/* SPDX-License-Identifier: GPL-2.0-or-later */
/* taskview: processes and their threads, memory, context switches, delays. */
#include <errno.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "batch.h"
#include "cli.h"
#include "config.h"
#include "tui/timeline.h"
#include "tui/tui.h"
#include "plugin/plugin_helper.h"
#include "plugin/plugin_host.h"
#include "hosts/hosts.h"
#include "replay.h"
#include "util/i18n.h"
#include "util/text.h"

#if TV_HAVE_MALLOPT
#include <malloc.h>
#endif

static void list_columns(const struct app *a)
{
	for (size_t i = 0; i < a->cs.n; i++) {
		const struct column *c = &a->cs.cols[i];
		struct buf b;
		buf_init(&b);
		buf_addf(&b, "%-20s ", c->id);
		text_fit(&b, _(c->header), 9, true, a->utf8);
		buf_addf(&b, " %s\n", _(c->desc));
		fputs(buf_str(&b), stdout);
		buf_free(&b);
	}
}

/* Output that fits the stdio buffer is written only here: a full disk or a
 * closed pipe must still end in a message and exit status 1. rc: the status
 * so far; an error already reported keeps it. */
static int main_close_stdout(int rc)
{
	int e = 0;
	bool failed = ferror(stdout);
	if (fflush(stdout) != 0) {
		failed = true;
		e = errno;
	}
	if (fclose(stdout) != 0 && !failed) {
		failed = true;
		e = errno;
	}
	if (!failed || rc != 0)
		return rc;
	fprintf(stderr, "taskview: ");
	fprintf(stderr, _("write error: %s\n"), e ? strerror(e) : _("unknown error"));
	return 1;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	/* numbers are written and parsed with '.' everywhere: JSON, config, -d */
	setlocale(LC_NUMERIC, "C");
#if TV_ENABLE_NLS
	/* TASKVIEW_LOCALEDIR: the catalogs of a build tree (meson devenv sets
	 * it); never taken from the caller of a set-id or capability binary */
	const char *localedir = secure_getenv("TASKVIEW_LOCALEDIR");
	bindtextdomain(TV_PACKAGE, localedir && *localedir ? localedir : TV_LOCALEDIR);
	textdomain(TV_PACKAGE);
#endif
	/* taskview's own binary is also the process plugins run in */
	int rc = plugin_helper_dispatch(argc, argv);
	if (rc >= 0)
		return rc;
#if TV_HAVE_MALLOPT
	/* a refresh beside an exit storm allocates and frees megabytes at a time (its records,
	 * the threads that ended): blocks that big are mapped, and given back when freed. By
	 * default glibc raises its threshold to the largest block freed, and then keeps them in
	 * the heap, where resident memory only grew, refresh after refresh. */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
	struct cli_opts o;
	struct buf err;
	buf_init(&err);
	rc = cli_parse(argc, argv, &o, &err);
	if (rc) {
		fprintf(stderr, "taskview: %s\n", buf_str(&err));
		fprintf(stderr, "%s", _("Try 'taskview --help' for more information.\n"));
		buf_free(&err);
		cli_free(&o);
		return rc;
	}
	buf_free(&err);
	if (o.help) {
		cli_usage(stdout);
		cli_free(&o);
		return main_close_stdout(0);
	}
	if (o.version) {
		printf("taskview %s\n", TV_VERSION);
		cli_free(&o);
		return main_close_stdout(0);
	}
	if (o.acting) {
		rc = act_run(&o.act, stdout, stderr);
		cli_free(&o);
		return main_close_stdout(rc);
	}
	if (o.check_plugin) {
		rc = plugin_check_file(o.check_plugin, stdout, stderr);
		cli_free(&o);
		return main_close_stdout(rc);
	}
	bool hosts = o.nhosts || o.hosts_file;
	/* -w records the hosts without a screen, as it records this machine */
	if ((o.replay || hosts) && !o.batch && !o.record) {
		/* the screen over a recording, or over other hosts */
		struct tui_msgs msgs;
		tui_msgs_init(&msgs);
		rc = o.replay ? tui_replay_run(&o, &msgs) : tui_fleet_run(&o, &msgs);
		tui_msgs_free(&msgs);
		cli_free(&o);
		return main_close_stdout(rc);
	}
	if (hosts) {
		rc = hosts_run(&o);
		cli_free(&o);
		return main_close_stdout(rc);
	}
	if (o.replay) {
		rc = replay_run(&o);
		cli_free(&o);
		return main_close_stdout(rc);
	}
	struct app a;
	/* interactive mode collects plugin messages for its status line: they
	 * must not reach the terminal while curses owns it */
	bool interactive = !o.batch && !o.list_columns && !o.record && !o.stream;
	struct tui_msgs msgs;
	tui_msgs_init(&msgs);
	rc = app_init(&a, &o, interactive ? tui_msgs_add : NULL, &msgs);
	if (rc)
		tui_msgs_flush(&msgs, stderr);
	if (rc == 0) {
		if (o.list_columns)
			list_columns(&a);
		else if (o.batch || o.record || o.stream)
			rc = batch_run(&a, &o);
		else
			rc = tui_run(&a, &o, &msgs, NULL);
	}
	app_free(&a);
	tui_msgs_free(&msgs);
	cli_free(&o);
	return main_close_stdout(rc);
}
