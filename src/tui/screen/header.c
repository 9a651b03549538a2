/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The header: CPU and memory bars, task counts, load, uptime, host, delay
 * accounting and refresh interval, the system's pressure. */
#include <curses.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hosts/fleet.h"
#include "hosts/tape.h"
#include "render/format.h"
#include "sample/taskstats/taskstats.h"
#include "tui/screen/draw.h"
#include "tui/screen/header.h"
#include "tui/sampling.h"
#include "tui/timeline.h"
#include "util/clock.h"
#include "util/fmt.h"
#include "util/i18n.h"
#include "util/text.h"

struct bar_part {
	double frac;          /* 0..1 of the bar */
	enum term_role role;
};

/* Draws "LABEL[|||||      text]" in w columns at (y, x): each part fills its
 * share of cells in its colour, the text sits at the right end. */
static void header_bar(int y, int x, int w, const char *label, const struct bar_part *parts, size_t nparts,
		       const char *text)
{
	int lw = (int)text_width(label, strlen(label), term_utf8());
	tui_put(y, x, w, label, term_attr(ROLE_HEADER_LABEL));
	int inner = w - lw - 2;
	if (inner < 1)
		return;
	tui_put(y, x + lw, 1, "[", term_attr(ROLE_NORMAL));
	int tl = (int)strlen(text); /* our own ASCII digits and units */
	if (tl > inner)
		tl = 0;
	char *ch = malloc((size_t)inner);
	int *attr = malloc((size_t)inner * sizeof(*attr));
	if (!ch || !attr) {
		free(ch);
		free(attr);
		return;
	}
	double acc = 0;
	int from = 0;
	for (size_t k = 0; k < nparts; k++) {
		acc += parts[k].frac > 0 ? parts[k].frac : 0;
		int to = (int)(acc * inner + 0.5);
		for (; from < to && from < inner; from++) {
			ch[from] = '|';
			attr[from] = term_attr(parts[k].role);
		}
	}
	for (; from < inner; from++) {
		ch[from] = ' ';
		attr[from] = A_NORMAL;
	}
	for (int i = 0; i < tl; i++) {
		ch[inner - tl + i] = text[i];
		attr[inner - tl + i] = term_attr(ROLE_HEADER_VALUE);
	}
	/* one addnstr per run of cells that share an attribute */
	struct buf run;
	buf_init(&run);
	for (int c = 0; c < inner;) {
		int e = c;
		buf_reset(&run);
		while (e < inner && attr[e] == attr[c])
			buf_addc(&run, ch[e++]);
		tui_put_raw(y, x + lw + 1 + c, &run, attr[c]);
		c = e;
	}
	buf_free(&run);
	free(ch);
	free(attr);
	tui_put(y, x + lw + 1 + inner, 1, "]", term_attr(ROLE_NORMAL));
}

static void header_cpu_bar(int y, int x, int w, const char *label, const struct sys_cpu *prev,
			   const struct sys_cpu *cur)
{
	struct sys_cpu_use u;
	system_cpu_use(prev, cur, &u);
	struct bar_part parts[] = {
		{u.nice, ROLE_BAR_NICE},
		{u.user, ROLE_BAR_USER},
		{u.system, ROLE_BAR_SYSTEM},
		{u.other, ROLE_BAR_OTHER},
	};
	char text[16];
	snprintf(text, sizeof(text), "%.1f%%", u.total * 100.0);
	header_bar(y, x, w, label, parts, sizeof(parts) / sizeof(parts[0]), text);
}

static void header_cpus(struct tui *t)
{
	const struct layout *l = &t->lay;
	const struct sys_info *p = &t->sys_prev, *c = &t->sys_cur;
	if (l->cpu_row < 0)
		return;
	bool have_prev = p->ncpu == c->ncpu;
	if (l->cpu_per_line == 0) {
		/* too many CPUs for the room: one bar for all of them */
		char label[32];
		/* TRANSLATORS: label of the all-CPU bar; keep it short */
		snprintf(label, sizeof(label), _("CPU(%zu)"), c->ncpu);
		header_cpu_bar(l->cpu_row, 0, COLS, label, have_prev ? &p->all : &c->all, &c->all);
		return;
	}
	int per = l->cpu_per_line;
	int w = COLS / per;
	int digits = snprintf(NULL, 0, "%zu", c->ncpu ? c->ncpu - 1 : 0);
	for (size_t i = 0; i < c->ncpu; i++) {
		int line = (int)(i / (size_t)per), col = (int)(i % (size_t)per);
		char label[32];
		snprintf(label, sizeof(label), "%*zu", digits, i);
		int ww = col + 1 == per ? COLS - col * w : w - 1;
		header_cpu_bar(l->cpu_row + line, col * w, ww, label, have_prev ? &p->cpu[i] : &c->cpu[i], &c->cpu[i]);
	}
}

static void header_mem(struct tui *t)
{
	const struct layout *l = &t->lay;
	const struct sys_mem *m = &t->sys_cur.mem;
	if (l->mem_row < 0)
		return;
	int half = COLS / 2;
	char a[16], b[16], text[40];
	double total = m->total > 0 ? (double)m->total : 1.0;
	int64_t used = m->total >= 0 && m->available >= 0 ? m->total - m->available : 0;
	/* page cache that would be given back: what MemAvailable counts beyond MemFree */
	int64_t cache = m->available >= 0 && m->free >= 0 ? m->available - m->free : 0;
	fmt_kib(a, sizeof(a), used);
	fmt_kib(b, sizeof(b), m->total > 0 ? m->total : 0);
	snprintf(text, sizeof(text), "%s/%s", a, b);
	struct bar_part mp[] = {{(double)used / total, ROLE_BAR_USER}, {(double)(cache > 0 ? cache : 0) / total, ROLE_BAR_CACHE}};
	/* TRANSLATORS: memory bar label; at most 3 columns */
	header_bar(l->mem_row, 0, half - 1, _("Mem"), mp, 2, text);

	int64_t sused = m->swap_total >= 0 && m->swap_free >= 0 ? m->swap_total - m->swap_free : 0;
	fmt_kib(a, sizeof(a), sused);
	fmt_kib(b, sizeof(b), m->swap_total > 0 ? m->swap_total : 0);
	snprintf(text, sizeof(text), "%s/%s", a, b);
	struct bar_part sp[] = {{m->swap_total > 0 ? (double)sused / (double)m->swap_total : 0, ROLE_BAR_SWAP}};
	/* TRANSLATORS: swap bar label; at most 3 columns */
	header_bar(l->mem_row, half, COLS - half, _("Swp"), sp, 1, text);
}

/* Appends one "Label: value" pair at *x, label and value in their colours. */
/* "Label: value" at *x, the value in attr; *x moves past it and a gap. */
static void header_pair_in(int y, int *x, const char *label, const char *value, int lattr, int vattr)
{
	if (*x >= COLS)
		return;
	int lw = (int)text_width(label, strlen(label), term_utf8());
	tui_put(y, *x, COLS - *x, label, lattr);
	*x += lw + 1;
	if (*x >= COLS)
		return;
	int vw = (int)text_width(value, strlen(value), term_utf8());
	tui_put(y, *x, COLS - *x, value, vattr);
	*x += vw + 3;
}

static void header_pair(int y, int *x, const char *label, const char *value)
{
	header_pair_in(y, x, label, value, term_attr(ROLE_HEADER_LABEL), term_attr(ROLE_HEADER_VALUE));
}

/* Columns "Label: value" takes, with the gap before the next pair. */
static int pair_width(const char *label, const char *value, int gap)
{
	bool u = term_utf8();
	return (int)text_width(label, strlen(label), u) + 1 + (int)text_width(value, strlen(value), u) + gap;
}

/* Pairs on one line, each whole or not at all: the gaps narrow, then a
 * pair that does not fit is left out rather than cut. */
static void header_pairs_fit(int y, const char *const *labels, const char *const *values, size_t n)
{
	int total = 0;
	for (size_t i = 0; i < n; i++)
		total += pair_width(labels[i], values[i], i + 1 < n ? 3 : 0);
	int gap = total <= COLS ? 3 : 2;
	int x = 0;
	for (size_t i = 0; i < n; i++) {
		int w = pair_width(labels[i], values[i], 0);
		if (x + w > COLS)
			continue;
		int lw = (int)text_width(labels[i], strlen(labels[i]), term_utf8());
		tui_put(y, x, COLS - x, labels[i], term_attr(ROLE_HEADER_LABEL));
		tui_put(y, x + lw + 1, COLS - x - lw - 1, values[i], term_attr(ROLE_HEADER_VALUE));
		x += w + gap;
	}
}

static void header_tasks(struct tui *t)
{
	int y = t->lay.tasks_row;
	if (y < 0)
		return;
	char v[128];
	char nthr[24], nrun[24];
	/* TRANSLATORS: the task counts of the header: processes, threads, running
	   (the last two are numbers, or "-" when not known) */
	snprintf(v, sizeof(v), _("%zu, %s thr; %s running"), t->cur.sys_procs,
		 format_count(nthr, sizeof(nthr), t->cur.sys_threads), format_count(nrun, sizeof(nrun), t->cur.sys_running));
	char load[64], upv[64];
	const double *ld = t->sys_cur.load;
	if (ld[0] >= 0)
		snprintf(load, sizeof(load), "%.2f %.2f %.2f", ld[0], ld[1], ld[2]);
	else
		snprintf(load, sizeof(load), "-");
	double up = t->sys_cur.uptime;
	/* the parser bounds it; the cast needs it inside a long here too (32-bit) */
	if (up >= 0 && up < (double)LONG_MAX) {
		long s = (long)up;
		long d = s / 86400;
		if (d)
			/* TRANSLATORS: uptime with days: "3d 04:05:06" */
			snprintf(upv, sizeof(upv), _("%ldd %02ld:%02ld:%02ld"), d, s / 3600 % 24, s / 60 % 60, s % 60);
		else
			snprintf(upv, sizeof(upv), "%02ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	} else {
		snprintf(upv, sizeof(upv), "-");
	}
	/* TRANSLATORS: header labels */
	const char *labels[] = {_("Tasks:"), _("Load average:"), _("Uptime:")};
	const char *values[] = {t->have_cur ? v : "-", load, upv};
	int total = 0;
	for (size_t i = 0; i < 3; i++)
		total += pair_width(labels[i], values[i], i < 2 ? 2 : 0);
	if (total > COLS)
		/* TRANSLATORS: header label where "Load average:" does not fit (80 columns); short */
		labels[1] = _("Load:");
	header_pairs_fit(y, labels, values, 3);
}

/* The delay-accounting state in the header, translated (JSON keeps the stable names). */
static const char *header_delay_state(const struct ts_client *ts)
{
	if (!ts)
		/* TRANSLATORS: delay accounting not in use (no shown column needs it); short */
		return _("n/a");
	switch (ts_state(ts)) {
	case TS_ON:
		/* TRANSLATORS: delay accounting state; short */
		return _("on");
	case TS_OFF:
		/* TRANSLATORS: delay accounting state (the sysctl is 0); short */
		return _("off");
	case TS_NO_PERMISSION:
		/* TRANSLATORS: delay accounting state (CAP_NET_ADMIN missing); short */
		return _("no permission");
	case TS_UNSUPPORTED:
		break;
	}
	/* TRANSLATORS: delay accounting state (kernel or build lacks it); short */
	return _("unsupported");
}

static void header_info(struct tui *t)
{
	int y = t->lay.info_row;
	if (y < 0)
		return;
	int x = 0;
	char host[256] = "";
	if (gethostname(host, sizeof(host) - 1) < 0)
		snprintf(host, sizeof(host), "-");
	/* TRANSLATORS: header label */
	header_pair(y, &x, _("Host:"), host);
	/* TRANSLATORS: header label */
	header_pair(y, &x, _("Delay acct:"), header_delay_state(t->app->ts));
	char v[64];
	if (t->frozen)
		/* TRANSLATORS: refresh interval while updates are frozen */
		snprintf(v, sizeof(v), _("%.1f s (frozen)"), t->delay);
	else
		snprintf(v, sizeof(v), _("%.1f s"), t->delay);
	/* TRANSLATORS: header label */
	header_pair(y, &x, _("Refresh:"), v);
	double stale = tui_stale_age(t);
	if (stale > 0) {
		/* the figures shown are not now's: said, with their age, until a refresh comes */
		/* TRANSLATORS: header: the sample shown was read this many seconds ago (a refresh is late) */
		snprintf(v, sizeof(v), _("figures %.0f s old"), stale);
		/* TRANSLATORS: header label before the age of stale figures */
		header_pair_in(y, &x, _("Stale:"), v, term_attr(ROLE_STATUS) | A_BOLD, term_attr(ROLE_STATUS) | A_BOLD);
	}
	/* what the monitor itself costs, its plugin helper included */
	if (t->have_cur && !isnan(t->cur.self.cpu_ms)) {
		char rss[16] = "-";
		if (t->cur.self.rss_kib != TV_UNKNOWN)
			fmt_kib(rss, sizeof(rss), t->cur.self.rss_kib);
		/* TRANSLATORS: header: taskview's own CPU time since the previous refresh, and its memory */
		int k = snprintf(v, sizeof(v), _("%.1f ms CPU, %s"), t->cur.self.cpu_ms, rss);
		/* which reader read the threads: the BPF task iterator or /proc (names, not translated) */
		if (k > 0 && (size_t)k < sizeof(v) && t->cur.self.reader != TV_READER_UNKNOWN)
			snprintf(v + k, sizeof(v) - (size_t)k, ", %s",
				 t->cur.self.reader == TV_READER_BPF ? "bpf" : "proc");
		/* TRANSLATORS: header label: what taskview itself costs */
		header_pair(y, &x, _("Own cost:"), v);
	}
}

/* A number of the pressure meters, or "-" when unknown. */
static void psi_num(char *out, size_t n, bool known, double v, int decimals)
{
	if (!known || !isfinite(v))
		snprintf(out, n, "-");
	else
		snprintf(out, n, "%.*f", decimals, v);
}

/* A meter's text: the interval's some/full share, with the kernel's avg10
 * when long. */
static void psi_text(char *text, size_t n, const struct tv_pressure *p, bool lng)
{
	char s[16], f[16], as[16], af[16];
	psi_num(s, sizeof(s), p->some_known, p->some_pct, 1);
	psi_num(f, sizeof(f), p->full_known, p->full_pct, 1);
	psi_num(as, sizeof(as), p->some_known, p->some_avg10, 2);
	psi_num(af, sizeof(af), p->full_known, p->full_avg10, 2);
	if (lng)
		/* TRANSLATORS: a pressure meter: some/full share of the interval in %,
		   then the kernel's 10-second averages; keep "avg10" */
		snprintf(text, n, _("%s/%s%% avg10 %s/%s"), s, f, as, af);
	else
		snprintf(text, n, "%s/%s%%", s, f);
}

/* Columns inside a meter's brackets. */
static int psi_inner(int w, const char *label)
{
	return w - (int)text_width(label, strlen(label), term_utf8()) - 2;
}

/* One resource's meter: the bar is the share of the interval in which some
 * tasks stalled (the part where all of them did in the full colour); the
 * text as psi_text() says. */
static void header_psi_meter(int y, int x, int w, const char *label, const struct tv_pressure *p, bool lng)
{
	char text[128];
	psi_text(text, sizeof(text), p, lng);
	double some = p->some_known && isfinite(p->some_pct) ? p->some_pct / 100.0 : 0;
	double full = p->full_known && isfinite(p->full_pct) ? p->full_pct / 100.0 : 0;
	if (full > some)
		full = some;
	struct bar_part parts[] = {{full, ROLE_BAR_SYSTEM}, {some - full, ROLE_BAR_CACHE}};
	header_bar(y, x, w, label, parts, 2, text);
}

/* The system's pressure stall information: cpu, io and memory side by side,
 * or why it is unknown (never zeros). */
static void header_psi(struct tui *t)
{
	int y = t->lay.psi_row;
	if (y < 0 || !t->have_cur)
		return;
	/* TRANSLATORS: header label of the pressure meters (pressure stall information) */
	const char *lead = _("PSI");
	int x = (int)text_width(lead, strlen(lead), term_utf8()) + 1;
	tui_put(y, 0, COLS, lead, term_attr(ROLE_HEADER_LABEL));
	if (t->cur.pressure_why) {
		tui_put(y, x, COLS - x, t->cur.pressure_why, term_attr(ROLE_STATUS));
		return;
	}
	/* TRANSLATORS: the three pressure meters' labels; short */
	const char *labels[TV_RES_N] = {_("cpu"), _("io"), _("mem")};
	int w = (COLS - x) / TV_RES_N;
	/* the three meters say the same things, the long way where all of
	 * them have room for it: a figure without its label is no use */
	bool lng = true;
	for (int r = 0, xx = x; r < TV_RES_N && w > 4; r++, xx += w) {
		char text[128];
		int ww = r + 1 == TV_RES_N ? COLS - xx : w - 1;
		psi_text(text, sizeof(text), &t->cur.pressure[r], true);
		if ((int)text_width(text, strlen(text), term_utf8()) > psi_inner(ww, labels[r]))
			lng = false;
	}
	for (int r = 0; r < TV_RES_N && w > 4; r++) {
		int ww = r + 1 == TV_RES_N ? COLS - x : w - 1;
		header_psi_meter(y, x, ww, labels[r], &t->cur.pressure[r], lng);
		x += w;
	}
}

/* The recorded delay-accounting state (JSON's names), as the live header says it. */
static const char *header_recorded_delay(const char *state)
{
	if (!state)
		return "-";
	if (strcmp(state, "on") == 0)
		return _("on");
	if (strcmp(state, "off") == 0)
		return _("off");
	if (strcmp(state, "no-permission") == 0)
		return _("no permission");
	if (strcmp(state, "unsupported") == 0)
		return _("unsupported");
	return state;
}

/* A replay's header: what was recorded, where and when, instead of this
 * system's meters, load and uptime (not in a recording). */
static void header_replay(struct tui *t)
{
	const struct tui_replay *rp = t->replay;
	const struct layout *l = &t->lay;
	char v[160], a[64], b[64];
	int x = 0;
	if (l->mem_row >= 0) {
		/* TRANSLATORS: replay header label: the recording's file or directory */
		header_pair(l->mem_row, &x, _("Replay:"), rp->path);
		tui_replay_time(a, sizeof(a), rp->info.first);
		tui_replay_time(b, sizeof(b), rp->info.last);
		snprintf(v, sizeof(v), "%s .. %s", a, b);
		/* TRANSLATORS: replay header label: the time of its first and last sample */
		header_pair(l->mem_row, &x, _("Recorded:"), v);
	}
	if (l->tasks_row >= 0) {
		x = 0;
		char nthr[24], nrun[24];
		/* TRANSLATORS: the task counts of the header: processes, threads, running
		   (the last two are numbers, or "-" when not known) */
		snprintf(v, sizeof(v), _("%zu, %s thr; %s running"), t->cur.sys_procs,
			 format_count(nthr, sizeof(nthr), t->cur.sys_threads), format_count(nrun, sizeof(nrun), t->cur.sys_running));
		header_pair(l->tasks_row, &x, _("Tasks:"), t->have_cur ? v : "-");
		tui_replay_time(a, sizeof(a), t->have_cur ? t->cur.wall : NAN);
		/* TRANSLATORS: replay header label: the recorded date and time of the sample shown */
		header_pair(l->tasks_row, &x, _("Time:"), a);
		/* TRANSLATORS: replay header: the sample shown and how many the recording has */
		snprintf(v, sizeof(v), _("%zu of %zu"), rp->i + 1, rec_reader_count(rp->r));
		/* TRANSLATORS: replay header label */
		header_pair(l->tasks_row, &x, _("Sample:"), v);
	}
	if (l->info_row >= 0) {
		x = 0;
		header_pair(l->info_row, &x, _("Host:"), rp->info.host ? rp->info.host : "-");
		header_pair(l->info_row, &x, _("Delay acct:"), header_recorded_delay(rp->have ? rp->cur.delay_state : NULL));
		if (rp->have)
			snprintf(v, sizeof(v), _("%.1f s"), rp->cur.s.mono - rp->prev.s.mono);
		else
			snprintf(v, sizeof(v), "-");
		/* TRANSLATORS: replay header label: the time between the sample shown and the one its rates are from */
		header_pair(l->info_row, &x, _("Interval:"), v);
	}
}

/* The end of an ssh or remote message, after its last ": " (what ssh puts
 * first names the host and port the header already shows): "Connection refused". */
static const char *why_core(const char *why)
{
	const char *core = why;
	for (const char *p = why; (p = strstr(p, ": ")) != NULL; p += 2)
		core = p + 2;
	return *core ? core : why;
}

/* One host not live on the hosts' screen: "NAME state", and why; false when the rows are full. */
static bool fleet_put_host(const struct tui *t, const struct fleet_host *h, double now, int *y, int *x)
{
	char state[96];
	switch (h->state) {
	case FLEET_CONNECTING:
		if (h->fleet->recorded)
			/* TRANSLATORS: the screen over a recording of hosts: a host with no pair by the moment shown */
			snprintf(state, sizeof(state), "%s", _("no sample yet"));
		else if (h->why)
			/* TRANSLATORS: the hosts' screen: a host tried again before its first sample; %.0f its
			   seconds so far; why its last connection ended follows */
			snprintf(state, sizeof(state), _("connecting %.0f s, last:"), fleet_age(h, now));
		else
			/* TRANSLATORS: the hosts' screen: a host before its first sample; %.0f its seconds so far */
			snprintf(state, sizeof(state), _("connecting %.0f s"), fleet_age(h, now));
		break;
	case FLEET_STALE:
		/* TRANSLATORS: the hosts' screen: no sample for %.0f seconds; its rows are that old */
		snprintf(state, sizeof(state), _("stale %.0f s"), fleet_age(h, now));
		break;
	case FLEET_OFFLINE:
		/* TRANSLATORS: the hosts' screen: connected again in %.0f seconds */
		snprintf(state, sizeof(state), _("offline, again in %.0f s:"), fmax(h->next_try - now, 0));
		break;
	default:
		/* TRANSLATORS: the hosts' screen: a live host whose clock differs from this one's */
		snprintf(state, sizeof(state), _("clock %+.1f s"), h->clock);
		break;
	}
	/* offline: ssh's or the remote's own words; connecting again: the core of why the last
	 * connection ended, which takes its place beside the others (raw bytes, shown escaped) */
	const char *why = !h->why ? NULL : h->state == FLEET_OFFLINE ? h->why
				 : h->state == FLEET_CONNECTING ? why_core(h->why) : NULL;
	bool u = term_utf8();
	int need = (int)text_width(h->name, strlen(h->name), u) + 1 + (int)text_width(state, strlen(state), u);
	if (why && h->state == FLEET_CONNECTING)
		need += 1 + (int)text_width(why, strlen(why), u);
	const struct layout *l = &t->lay;
	if (*x > 0 && *x + need > COLS) {
		/* the next header row, when there is one */
		if (*y != l->info_row || l->psi_row < 0)
			return false;
		*y = l->psi_row;
		*x = 0;
	}
	tui_put(*y, *x, COLS - *x, h->name, term_attr(ROLE_HEADER_LABEL));
	*x += (int)text_width(h->name, strlen(h->name), u) + 1;
	int attr = term_attr(h->state == FLEET_OFFLINE ? ROLE_ERROR : ROLE_HEADER_VALUE);
	tui_put_own(*y, *x, COLS - *x, state, attr);
	*x += (int)text_width(state, strlen(state), u) + 1;
	if (why && *x < COLS) {
		tui_put(*y, *x, COLS - *x, why, attr);
		*x += (int)text_width(why, strlen(why), u);
	}
	*x += 3;
	return true;
}

/* The hosts' screen's header: how many hosts are in which state, then each
 * one not live (and each live one whose clock is off by more than a
 * second), with its age or why it is offline. */
static void header_fleet(struct tui *t)
{
	const struct fleet *f = t->replay->fleet;
	const struct layout *l = &t->lay;
	double now = fleet_now(f);
	size_t n[4] = {0};
	long cpus = 0;
	for (size_t i = 0; i < f->n; i++) {
		n[f->h[i].state]++;
		if (f->h[i].cpus > 0 && f->h[i].state != FLEET_OFFLINE)
			cpus += f->h[i].cpus;
	}
	char v[160];
	int x = 0;
	if (l->mem_row >= 0) {
		/* TRANSLATORS: the hosts' screen's header: the hosts, and how many are in each state */
		if (f->recorded)
			/* TRANSLATORS: the header over a recording of hosts: the hosts, and how many are in each state */
			snprintf(v, sizeof(v), _("%zu: %zu live, %zu stale, %zu without a sample yet"), f->n, n[FLEET_LIVE],
				 n[FLEET_STALE], n[FLEET_CONNECTING]);
		else
			snprintf(v, sizeof(v), _("%zu: %zu live, %zu stale, %zu offline, %zu connecting"), f->n,
				 n[FLEET_LIVE], n[FLEET_STALE], n[FLEET_OFFLINE], n[FLEET_CONNECTING]);
		/* TRANSLATORS: the hosts' screen's header label */
		header_pair(l->mem_row, &x, _("Hosts:"), v);
		snprintf(v, sizeof(v), "%ld", cpus);
		/* TRANSLATORS: the hosts' screen's header label: the CPUs of the hosts not offline */
		header_pair(l->mem_row, &x, _("CPUs:"), cpus ? v : "-");
	}
	if (l->tasks_row >= 0) {
		x = 0;
		/* the live ones: the ended ones of the interval follow them in the merged table */
		size_t procs = t->have_cur && f->have_merged ? f->merged.nlive : 0, threads = 0;
		for (size_t i = 0; i < procs; i++)
			threads += f->merged.procs[i].nthreads > 0 ? (size_t)f->merged.procs[i].nthreads : 1;
		char nthr[24];
		/* TRANSLATORS: the hosts' screen's header: processes and threads the hosts sent */
		snprintf(v, sizeof(v), _("%zu, %s thr"), procs, format_count(nthr, sizeof(nthr), threads));
		header_pair(l->tasks_row, &x, _("Tasks:"), v);
		if (t->replay->tape) {
			/* the moment shown, by the recording viewer's clock, and the step */
			tui_replay_time(v, sizeof(v), f->at);
			header_pair(l->tasks_row, &x, _("Time:"), v);
			snprintf(v, sizeof(v), _("%g s"), t->replay->tape->step);
			/* TRANSLATORS: the header over a recording of hosts: how far b and f move */
			header_pair(l->tasks_row, &x, _("Step:"), v);
		} else {
			snprintf(v, sizeof(v), _("%.1f s"), t->delay);
			/* TRANSLATORS: the hosts' screen's header label: the interval of the hosts' samples */
			header_pair(l->tasks_row, &x, _("Interval:"), v);
		}
	}
	if (l->info_row < 0)
		return;
	int y = l->info_row;
	x = 0;
	for (size_t i = 0; i < f->n; i++) {
		const struct fleet_host *h = &f->h[i];
		if (h->state == FLEET_LIVE && !(isfinite(h->clock) && fabs(h->clock) > 1.0))
			continue;
		if (!fleet_put_host(t, h, now, &y, &x))
			break;
	}
}

void tui_draw_header(struct tui *t)
{
	if (t->replay && t->replay->fleet) {
		header_fleet(t);
		return;
	}
	if (t->replay) {
		header_replay(t);
		header_psi(t);
		return;
	}
	header_cpus(t);
	header_mem(t);
	header_tasks(t);
	header_info(t);
	header_psi(t);
}
