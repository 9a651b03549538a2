/* SPDX-License-Identifier: GPL-2.0-or-later */
/* taskview -r PATH: the recording opened, the screen run over it. */
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "replay.h"
#include "tui/timeline.h"
#include "tui/tui.h"
#include "util/i18n.h"

static int replay_add_columns(void *ctx, struct colset *cs)
{
	return rec_reader_columns(ctx, cs);
}

int tui_replay_run(const struct cli_opts *o, struct tui_msgs *msgs)
{
	char *err = NULL;
	/* damage found while reading is reported on the status line */
	struct rec_reader *r = rec_reader_open(o->replay, tui_msgs_add, msgs, &err);
	if (!r) {
		fprintf(stderr, "taskview: %s\n", err ? err : _("out of memory"));
		free(err);
		return 1;
	}
	const char *const *hosts;
	if (rec_reader_hosts(r, &hosts) > 0) {
		/* made by taskview --host ... -w FILE: the hosts' screen over it */
		int rc = tui_tape_run(o, msgs, r);
		rec_reader_close(r);
		tui_msgs_flush(msgs, stderr);
		return rc;
	}
	struct tui_replay rp = {.path = o->replay, .r = r};
	rec_reader_info(r, &rp.info);
	int rc = replay_step(o, &rp.info, &rp.k);
	if (rc == 0)
		rc = replay_range(o, &rp.info, &rp.from, &rp.to);
	if (rc) {
		rec_reader_close(r);
		tui_msgs_flush(msgs, stderr);
		return rc;
	}
	struct app a;
	rc = app_init_replay(&a, o, replay_add_columns, r);
	if (rc == 0)
		rc = tui_run(&a, o, msgs, &rp);
	app_free(&a);
	rec_reader_close(r);
	return rc;
}
