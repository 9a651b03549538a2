/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --check-plugin: load one plugin, show what it declares and a sample of its values. */
#include "plugin/plugin_host.h"
#include "plugin/plugin_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/i18n.h"
#include "util/text.h"

static void print_line(void *ctx, const char *line)
{
	fprintf((FILE *)ctx, "%s\n", line);
}

static const char *type_name(const struct plugin_colinfo *c)
{
	static const char *const names[] = {"?", "integer", "float", "bytes", "percent", "string"};
	return c->type < sizeof(names) / sizeof(names[0]) ? names[c->type] : "?";
}

static const char *rows_name(enum col_applies a)
{
	switch (a) {
	case COL_ROWS_PROCESS: return _("process rows");
	case COL_ROWS_THREAD: return _("thread rows");
	default: return _("process and thread rows");
	}
}

/* A plugin's string, or a file name, as the terminal may show it. */
static void print_text(FILE *out, const char *pre, const char *s, const char *post)
{
	struct buf b;
	buf_init(&b);
	text_sanitize(&b, s, strlen(s), SIZE_MAX, text_locale_utf8());
	fprintf(out, "%s%s%s", pre, b.oom ? "?" : buf_str(&b), post);
	buf_free(&b);
}

static void print_value(FILE *out, const struct plugin_colinfo *c, const struct tv_pvalue *pv)
{
	if (!pv->known)
		fputs(_("unknown"), out);
	else if (c->type == TASKVIEW_TYPE_STRING)
		print_text(out, "\"", pv->s, "\"");
	else if (c->type == TASKVIEW_TYPE_INTEGER || c->type == TASKVIEW_TYPE_BYTES)
		fprintf(out, "%" PRId64 "%s", pv->i, c->counter ? _(" (raw counter)") : "");
	else
		fprintf(out, "%g", pv->f);
}

/* Taskview's own process as a task of the model. */
static void self_task(struct tv_task *t)
{
	task_init(t);
	t->tid = t->tgid = (int32_t)getpid();
	int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	char comm[TV_COMM_MAX];
	ssize_t n = fd >= 0 ? read(fd, comm, sizeof(comm) - 1) : -1;
	if (fd >= 0)
		close(fd);
	comm[n > 0 ? (size_t)n : 0] = '\0';
	task_set_comm(t, comm, strcspn(comm, "\n"));
}

/*
 * Refreshes over taskview's own process, as many as it takes the budget rule
 * to disable a plugin, so that a plugin author sees real values, the CPU time
 * they cost, and any failure a run would meet.
 */
static int sample_self(struct plugin_host *h, const struct plugin *p, FILE *out)
{
	struct tv_task t;
	int64_t most = 0;
	self_task(&t);
	for (int i = 0; i < TASKVIEW_PLUGIN_BUDGET_REFRESHES && !p->disabled; i++) {
		task_clear(&t, plugin_host_nslots(h));
		self_task(&t);
		struct tv_task *tasks[] = {&t};
		plugin_host_collect_all(h, tasks, 1, NULL);
		if (p->cpu_ns > most)
			most = p->cpu_ns;
	}
	int rc = p->disabled ? 1 : 0;
	if (!rc) {
		fprintf(out, _("sample on taskview's own process (pid %d), %.2f ms of CPU time per refresh at most; the budget is %d ms + %d us per task and refresh:\n"),
		        (int)t.tid, (double)most / 1e6, TASKVIEW_PLUGIN_BUDGET_MS, TASKVIEW_PLUGIN_BUDGET_US_PER_TASK);
		for (uint32_t k = 0; k < p->ncols; k++) {
			fprintf(out, "  %-24s ", p->cols[k].id);
			if (p->cols[k].applies == COL_ROWS_THREAD)
				fputs(_("(thread rows only)"), out);
			else
				print_value(out, &p->cols[k], &t.pvals[p->first_slot + k]);
			fputc('\n', out);
		}
	}
	task_clear(&t, plugin_host_nslots(h));
	return rc;
}

int plugin_check_file(const char *path, FILE *out, FILE *err)
{
	struct colset cs;
	if (colset_init(&cs) < 0)
		return 1;
	const char *files[] = {path};
	struct plugin_host_opts o = {.explicit_files = files, .nexplicit = 1, .no_discovery = true};
	bool fatal;
	struct plugin_host *h = plugin_host_load(&o, &cs, print_line, err, &fatal);
	if (!h || h->n != 1 || !h->v[0].loaded) {
		plugin_host_free(h);
		colset_free(&cs);
		return 1;
	}
	const struct plugin *p = &h->v[0];
	/* the name, ids, headers and descriptions were checked: printable ASCII */
	struct buf shown;
	buf_init(&shown);
	text_sanitize(&shown, path, strlen(path), SIZE_MAX, text_locale_utf8());
	fprintf(out, _("%s: taskview plugin \"%s\" (ABI %u.%u; taskview %s provides %d.%d)\n"), buf_str(&shown), p->name,
	        (unsigned)p->abi_major, (unsigned)p->abi_minor,
	        TV_VERSION, TASKVIEW_PLUGIN_ABI_MAJOR, TASKVIEW_PLUGIN_ABI_MINOR);
	buf_free(&shown);
	if (p->desc)
		fprintf(out, "  %s\n", p->desc);
	fprintf(out, _("columns:\n"));
	for (uint32_t k = 0; k < p->ncols; k++) {
		const struct plugin_colinfo *c = &p->cols[k];
		fprintf(out, "  %-24s %-10s %s%s, %s, ", c->id, c->header, type_name(c),
		        c->counter ? _(" counter (shown per second)") : "", rows_name(c->applies));
		/* TRANSLATORS: a plugin column's width in terminal cells */
		fprintf(out, _("width %u\n"), c->width);
		if (*c->desc)
			fprintf(out, "  %-24s %s\n", "", c->desc);
	}
	int rc = sample_self(h, p, out);
	plugin_host_free(h);
	colset_free(&cs);
	return rc;
}
