/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "render/json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/format.h"
#include "util/json.h"
#include "view/noted.h"

static void json_value(struct buf *out, const struct column *col, const struct tv_value *v)
{
	switch (v->kind) {
	case TV_V_UNKNOWN:
		buf_adds(out, "null");
		break;
	case TV_V_INT:
		buf_addf(out, "%" PRId64, v->i);
		break;
	case TV_V_FLOAT:
		json_add_double(out, v->f, col->type == COL_MS ? 3 : 2);
		break;
	case TV_V_STR:
		json_add_string(out, v->s, strlen(v->s));
		break;
	}
}

static void json_opt_double(struct buf *out, double v, int decimals)
{
	if (isnan(v))
		buf_adds(out, "null");
	else
		json_add_double(out, v, decimals);
}

static void json_opt_string(struct buf *out, const char *s)
{
	if (s)
		json_add_string(out, s, strlen(s));
	else
		buf_adds(out, "null");
}

/* What taskview cost for this sample, and whether exited threads were watched. */
static void json_render_self(struct buf *out, const struct snapshot *s)
{
	const struct tv_self *me = &s->self;
	buf_adds(out, ", \"self\": {\"cpu_ms\": ");
	json_opt_double(out, me->cpu_ms, 3);
	buf_adds(out, ", \"rss_kib\": ");
	if (me->rss_kib == TV_UNKNOWN)
		buf_adds(out, "null");
	else
		buf_addf(out, "%" PRId64, me->rss_kib);
	buf_addf(out, ", \"proc_opens\": %" PRIu64 ", \"proc_reads\": %" PRIu64 ", \"taskstats_queries\": %" PRIu64
		 ", \"kept_fds\": %zu, \"cgroup_opens\": %" PRIu64 ", \"cgroup_reads\": %" PRIu64,
		 me->opens, me->reads, me->queries, me->kept_fds, me->cgroup_opens, me->cgroup_reads);
	buf_adds(out, ", \"reader\": ");
	json_opt_string(out, me->reader == TV_READER_BPF ? "bpf" : me->reader == TV_READER_PROC ? "proc" : NULL);
	buf_adds(out, ", \"reader_why\": ");
	json_opt_string(out, me->reader_why);
	buf_adds(out, "}");
	buf_addf(out, ", \"exits\": {\"watched\": %s, \"reason\": ", s->exits_watched ? "true" : "false");
	json_opt_string(out, s->exits_watched ? NULL : s->exits_why);
	buf_addf(out, ", \"records\": %zu, \"lost\": %" PRIu64 ", \"ended\": ", s->nexits_seen, s->exits_lost);
	if (s->exits_watched)
		buf_addf(out, "%zu", s->ngone);
	else
		buf_adds(out, "null");
	/* of those, the ones in no control group known: every group's sums may miss them */
	buf_adds(out, ", \"unplaced\": ");
	if (s->exits_watched && (s->ended || !s->ngone)) {
		size_t n = 0;
		for (size_t i = 0; i < s->ngone; i++)
			n += !s->gone[i].cgroup;
		buf_addf(out, "%zu", n);
	} else {
		buf_adds(out, "null");
	}
	buf_adds(out, ", \"source\": ");
	json_opt_string(out, s->exits_watched ? s->exits_source : NULL);
	buf_adds(out, "}");
}

static void json_psi_half(struct buf *out, const char *name, bool known, double avg10, double pct, int64_t total)
{
	buf_addf(out, "\"%s\": ", name);
	if (!known) {
		buf_adds(out, "null");
		return;
	}
	buf_adds(out, "{\"avg10\": ");
	json_opt_double(out, avg10, 2);
	buf_adds(out, ", \"pct\": ");
	json_opt_double(out, pct, 2);
	buf_addf(out, ", \"total_us\": %" PRId64 "}", total);
}

void json_add_pressure(struct buf *out, const struct tv_pressure *p)
{
	buf_addc(out, '{');
	json_psi_half(out, "some", p->some_known, p->some_avg10, p->some_pct, p->some_us);
	buf_adds(out, ", ");
	json_psi_half(out, "full", p->full_known, p->full_avg10, p->full_pct, p->full_us);
	buf_addc(out, '}');
}

/* The system's pressure stall information: per resource, some and full stalls. */
static void json_render_pressure(struct buf *out, const struct snapshot *s)
{
	static const char *const names[TV_RES_N] = {"cpu", "io", "memory"};
	buf_adds(out, ", \"pressure\": {");
	for (int r = 0; r < TV_RES_N; r++) {
		buf_addf(out, "%s\"%s\": ", r ? ", " : "", names[r]);
		json_add_pressure(out, &s->pressure[r]);
	}
	buf_adds(out, ", \"reason\": ");
	json_opt_string(out, s->pressure_why);
	buf_addc(out, '}');
}

/* Delay steps rejected as kernel counter jumps: the values are null, and this says why. */
static void json_render_rejects(struct buf *out, const struct snapshot *s, const struct rows *rows)
{
	buf_adds(out, ", \"rejected\": [");
	size_t *noted = s->nrejects ? malloc(s->nrejects * sizeof(*noted)) : NULL;
	size_t nnoted = noted ? noted_pick(s, rows, noted) : 0;
	for (size_t i = 0; i < nnoted; i++) {
		const struct tv_reject *r = &s->rejects[noted[i]];
		const char *column = r->cpu ? "cpu" : format_delay_id(r->cls);
		if (r->cgroup) {
			buf_addf(out, "%s{\"kind\": \"group\", \"cgroup\": ", i ? ", " : "");
			json_add_string(out, r->cgroup, strlen(r->cgroup));
			buf_addf(out, ", \"column\": \"%s\", \"step_s\": ", column);
		} else {
			buf_addf(out, "%s{\"kind\": \"%s\", \"pid\": %d, \"tgid\": %d, \"column\": \"%s\", \"step_s\": ",
				 i ? ", " : "", r->is_thread ? "thread" : "process", r->tid, r->tgid, column);
		}
		json_add_double(out, r->step_s, 3);
		buf_adds(out, ", \"bound_s\": ");
		json_add_double(out, r->bound_s, 3);
		buf_addc(out, '}');
	}
	free(noted);
	buf_addc(out, ']');
}

static void json_opt_bytes(struct buf *out, int64_t v)
{
	if (v == TV_UNKNOWN)
		buf_adds(out, "null");
	else
		buf_addf(out, "%" PRId64, v);
}

/* A control group's row: its identity, the processes it sums, its own
 * memory and pressure (each with why it is unknown). */
static void json_render_group(struct buf *out, const struct row_group *rg, const struct snapshot *s)
{
	static const char *const names[TV_RES_N] = {"cpu", "io", "memory"};
	const struct tv_cgroup *g = rg->task.cgroup;
	buf_adds(out, "\"kind\": \"group\", \"cgroup\": ");
	json_add_string(out, g->path, strlen(g->path));
	buf_adds(out, ", \"name\": ");
	json_add_string(out, g->unit, strlen(g->unit));
	buf_adds(out, ", \"parent\": ");
	json_opt_string(out, g->parent ? g->parent->path : NULL);
	buf_adds(out, ", \"pids\": [");
	for (size_t i = 0; i < rg->nmembers; i++)
		buf_addf(out, "%s%d", i ? ", " : "", rg->members[i]->tgid);
	/* its own CPU time (cpu.stat), which its cpu and time columns show */
	buf_adds(out, "], \"cpu_stat\": {\"usage_usec\": ");
	json_opt_bytes(out, g->cpu_usage_us);
	buf_adds(out, ", \"user_usec\": ");
	json_opt_bytes(out, g->cpu_user_us);
	buf_adds(out, ", \"system_usec\": ");
	json_opt_bytes(out, g->cpu_system_us);
	/* when the file was read (unix time): the cpu column is the usage's growth between two such reads */
	buf_adds(out, ", \"read_at\": ");
	if (g->cpu_usage_us != TV_UNKNOWN && g->t_cpu > 0)
		json_add_double(out, s->wall + (g->t_cpu - s->mono), 6);
	else
		buf_adds(out, "null");
	buf_adds(out, "}, \"memory\": {\"current\": ");
	json_opt_bytes(out, g->mem_bytes);
	buf_adds(out, ", \"swap\": ");
	json_opt_bytes(out, g->swap_bytes);
	buf_adds(out, ", \"reason\": ");
	json_opt_string(out, g->mem_bytes == TV_UNKNOWN ? g->mem_why : NULL);
	buf_adds(out, "}, \"pressure\": {");
	for (int r = 0; r < TV_RES_N; r++) {
		buf_addf(out, "%s\"%s\": ", r ? ", " : "", names[r]);
		json_add_pressure(out, &g->psi[r]);
	}
	buf_adds(out, ", \"reason\": ");
	json_opt_string(out, g->psi_why);
	buf_addc(out, '}');
}

/* A stream's KiB in bytes; unknown where they would not fit (a stream may say anything). */
static void json_opt_kib(struct buf *out, int64_t kib)
{
	json_opt_bytes(out, kib >= 0 && kib <= MACHINE_KIB_MAX ? kib * 1024 : TV_UNKNOWN);
}

/* A host's machine: its CPU over the interval and the counter it is of (µs),
 * memory (bytes) and load. */
static void json_render_machine(struct buf *out, const struct tv_machine *m)
{
	buf_adds(out, ", \"machine\": {\"cpu\": ");
	json_add_double(out, m->cpu_pct, 2);
	buf_adds(out, ", \"cpu_usec\": ");
	json_opt_bytes(out, m->busy_us >= 0 ? m->busy_us : TV_UNKNOWN);
	buf_adds(out, ", \"memory\": {\"total\": ");
	json_opt_kib(out, m->mem_total);
	buf_adds(out, ", \"available\": ");
	json_opt_kib(out, m->mem_available);
	buf_adds(out, ", \"swap_total\": ");
	json_opt_kib(out, m->swap_total);
	buf_adds(out, ", \"swap_free\": ");
	json_opt_kib(out, m->swap_free);
	buf_adds(out, "}, \"load\": ");
	if (machine_load_known(m)) {
		for (int i = 0; i < 3; i++) {
			buf_adds(out, i ? ", " : "[");
			json_add_double(out, m->load[i], 2);
		}
		buf_addc(out, ']');
	} else {
		buf_adds(out, "null");
	}
	buf_addc(out, '}');
}

void json_render_sample(struct buf *out, const struct snapshot *s, double interval, const struct rows *rows,
			const struct colset *cs, const struct colsel *sel, const struct json_state *extra,
			const struct json_host *host)
{
	buf_adds(out, "{");
	if (host) {
		buf_adds(out, "\"host\": ");
		json_add_string(out, host->name, strlen(host->name));
		buf_adds(out, ", \"remote\": {\"hostname\": ");
		json_opt_string(out, host->hostname);
		buf_adds(out, ", \"taskview\": ");
		json_opt_string(out, host->version);
		buf_adds(out, ", \"kernel\": ");
		json_opt_string(out, host->kernel);
		buf_adds(out, ", \"boot_id\": ");
		json_opt_string(out, host->boot_id);
		if (host->cpus >= 0)
			buf_addf(out, ", \"cpus\": %ld", host->cpus);
		else
			buf_adds(out, ", \"cpus\": null");
		buf_adds(out, ", \"clock_offset\": ");
		json_add_double(out, host->clock, 3);
		buf_adds(out, "}, ");
	}
	buf_adds(out, "\"timestamp\": ");
	json_add_double(out, s->wall, 3);
	buf_adds(out, ", \"interval\": ");
	json_add_double(out, interval, 3);
	if (extra && extra->name) {
		buf_addf(out, ", \"%s\": {\"state\": ", extra->name);
		json_add_string(out, extra->state, strlen(extra->state));
		buf_adds(out, ", \"message\": ");
		if (extra->message)
			json_add_string(out, extra->message, strlen(extra->message));
		else
			buf_adds(out, "null");
		buf_addc(out, '}');
	}
	json_render_self(out, s);
	if (host)
		json_render_machine(out, &s->machine);
	json_render_pressure(out, s);
	/* when the sample read control groups: why they have no files, or none at all */
	if (s->needs & NEED_CGROUP) {
		buf_adds(out, ", \"cgroups\": {\"reason\": ");
		json_opt_string(out, s->cgroups_why);
		buf_addc(out, '}');
	}
	buf_adds(out, ", \"tasks\": [");
	size_t ncols = sel ? sel->n : cs->n;
	for (size_t r = 0; r < rows->n; r++) {
		const struct row *row = &rows->v[r];
		buf_adds(out, r ? ", {" : "{");
		if (host) {
			buf_adds(out, "\"host\": ");
			json_add_string(out, host->name, strlen(host->name));
			buf_adds(out, ", ");
		}
		if (row->group)
			json_render_group(out, row->group, s);
		else
			buf_adds(out, row->is_thread ? "\"kind\": \"thread\"" : "\"kind\": \"process\"");
		if (row->exited)
			buf_adds(out, ", \"exited\": true");
		/* with -o, the identity of each task is still carried */
		if (!row->group && sel && colset_index(cs, "pid") >= 0 && !colsel_has(sel, colset_index(cs, "pid")))
			buf_addf(out, ", \"pid\": %d", row->task->tid);
		if (!row->group && sel && colset_index(cs, "tgid") >= 0 && !colsel_has(sel, colset_index(cs, "tgid")))
			buf_addf(out, ", \"tgid\": %d", row->task->tgid);
		size_t npartial = 0;
		for (size_t c = 0; c < ncols; c++) {
			const struct column *col = &cs->cols[sel ? (size_t)sel->idx[c] : c];
			struct tv_value v = column_value(col, row->task);
			buf_adds(out, ", ");
			json_add_string(out, col->id, strlen(col->id));
			buf_adds(out, ": ");
			json_value(out, col, &v);
			npartial += v.partial;
		}
		/* the ids of the values above that are lower bounds */
		buf_adds(out, ", \"partial\": [");
		for (size_t c = 0, k = 0; c < ncols && k < npartial; c++) {
			const struct column *col = &cs->cols[sel ? (size_t)sel->idx[c] : c];
			if (!column_value(col, row->task).partial)
				continue;
			if (k++)
				buf_adds(out, ", ");
			json_add_string(out, col->id, strlen(col->id));
		}
		buf_adds(out, "]}");
	}
	buf_addc(out, ']');
	json_render_rejects(out, s, rows);
	buf_adds(out, "}\n");
}
