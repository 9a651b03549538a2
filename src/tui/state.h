/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The interactive session's state, shared by the TUI's modules (private).
 * Functions live in the headers of the files that define them. */
#ifndef TV_TUI_STATE_H
#define TV_TUI_STATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "app.h"
#include "cli.h"
#include "model/snapshot.h"
#include "sample/proc/system.h"
#include "tui/keys/digits.h"
#include "tui/rows/expset.h"
#include "tui/screen/layout.h"
#include "tui/screen/msgs.h"
#include "tui/rows/pathset.h"
#include "tui/rows/tags.h"
#include "tui/screen/term.h"
#include "util/buf.h"
#include "view/filter.h"
#include "view/rows.h"

struct sampler;
struct background;
struct tui_replay;
struct shown;

#define TUI_SCREEN_ROWS_MAX 512

struct tui {
	struct app *app;
	const struct cli_opts *opts;
	struct tui_msgs *msgs;
	struct sampler *sampler;
	struct background *bg;       /* takes the samples on a thread of its own */
	struct tui_replay *replay;   /* -r: the recording the samples come from (no sampler then) */
	const struct shown *ended;   /* -r: what cur was built from, to mark the ended tasks */
	atomic_bool stopping;        /* quitting: a plugin call in progress may give up */
	bool sampling;               /* a request is out, its result not applied yet */
	bool scheduled;              /* ... and it is the scheduled refresh, not a key's */
	int64_t refreshes;           /* scheduled samples applied (-n) */
	int32_t peaks_tid;           /* the thread whose detail panel is open: its delay extremes are read */
	/* the rows on screen at the last draw, sorted, for sample_opts.rows_limited:
	 * thread rows' TIDs, process rows' TGIDs; screen_sums: a row summing
	 * others (a collapsed subtree, a group) was among them */
	int32_t screen_tids[TUI_SCREEN_ROWS_MAX], screen_tgids[TUI_SCREEN_ROWS_MAX];
	size_t nscreen_tids, nscreen_tgids;
	bool screen_sums;

	/* what to sample and show; the TUI's own copies, changed by keys */
	struct filter filter;        /* PIDs select what is read; user and text, what is shown */
	struct filter sample_filter; /* the PIDs of filter alone, for the sampler (borrowed) */
	struct expset expanded;
	bool all_threads;
	double delay;
	bool frozen;
	unsigned needs;
	bool *plugin_shown;

	/* how the sample is shown */
	bool tree;                   /* t, F5: processes under their parents */
	struct expset collapsed;     /* tree: subtrees hidden (and summed) */
	bool groups;                 /* g: processes under their control group (not with the tree) */
	struct pathset collapsed_groups; /* the group view's groups whose rows are hidden */
	bool show_kthreads;          /* K */
	bool cols_auto;              /* no columns chosen: picked by the screen width */
	int cols_auto_width;         /* the width they were picked for */
	bool cols_auto_groups;       /* and for the group view or not */
	size_t hscroll;              /* table columns scrolled off to the left */
	bool mouse;

	/* cur is on screen, prev the sample before it; base is the last
	 * scheduled sample before cur, for rates after an immediate resample */
	struct snapshot prev, cur;
	bool have_prev, have_cur;
	double next_due;          /* CLOCK_MONOTONIC seconds */
	struct rows rows;
	struct sys_info sys_prev, sys_cur;

	/* the selection stays on its task (ID and start time) as rows re-sort,
	 * so a key acts on the task the user chose, not on whatever moved into
	 * its row; when the task is gone it keeps its row; follow (F) says so
	 * on the status line and ends with a message when the task goes */
	size_t sel, top;
	int32_t sel_tid, sel_tgid;
	uint64_t sel_start;       /* TV_START_UNKNOWN: match the ID alone */
	bool sel_thread, have_sel;
	char *sel_group;          /* a control group's row is selected: its path */
	bool follow;
	/* a row to select when a sample brings it: a thread that search found
	 * in a folded process */
	int32_t want_tid;
	bool want_thread, have_want;
	/* t or g switched the view, until the next key: the rows are placed
	 * again as they come (the group view's come with a later sample): from
	 * the top when the selection was on the first row, else around it */
	bool view_switched, view_from_top;
	struct tags tags;

	char *search;             /* last search text, for F3/n */
	bool typing;              /* a search or filter prompt is open */
	bool typing_cgroup;       /* the control-group filter's prompt is open */
	bool search_missed;       /* the search text matches no row */
	struct digits pid_typed;  /* digits typed to jump to a PID */
	struct buf status;        /* one line under the table */
	enum term_role status_role;
	double status_until;      /* hints fade; errors stay until the next key */

	struct layout lay;
	char *config_path;        /* NULL: settings are not saved */
	bool quit;
};

#endif
