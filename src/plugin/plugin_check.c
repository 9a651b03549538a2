/* --check-plugin: load one plugin, show what it declares and one sample of its values. */
#include "plugin/plugin_host.h"
#include "plugin/plugin_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/i18n.h"

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

static void print_value(FILE *out, const struct plugin_colinfo *c, const struct tv_pvalue *pv)
{
	if (!pv->known)
		fputs(_("unknown"), out);
	else if (c->type == TASKVIEW_TYPE_STRING)
		fprintf(out, "\"%s\"", pv->s);
	else if (c->type == TASKVIEW_TYPE_INTEGER || c->type == TASKVIEW_TYPE_BYTES)
		fprintf(out, "%" PRId64 "%s", pv->i, c->counter ? _(" (raw counter)") : "");
	else
		fprintf(out, "%g", pv->f);
}

/* One refresh over taskview's own process, so a plugin author sees real values and timing. */
static int sample_self(struct plugin_host *h, const struct plugin *p, FILE *out, FILE *err)
{
	int dirfd = open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		fprintf(err, _("cannot open /proc/self: %s\n"), strerror(errno));
		return 1;
	}
	struct tv_task t;
	task_init(&t);
	t.tid = t.tgid = (int32_t)getpid();
	struct taskview_task task = {.t = &t, .dirfd = dirfd};
	char comm[TV_COMM_MAX];
	if (plugin_api_host()->read_file(&task, "comm", comm, sizeof(comm)) > 0) {
		comm[strcspn(comm, "\n")] = '\0';
		memcpy(t.comm, comm, sizeof(t.comm));
	}
	close(dirfd);
	struct tv_task *tasks[] = {&t};
	plugin_host_collect_all(h, tasks, 1, NULL);

	int rc = p->disabled ? 1 : 0;
	if (!rc) {
		fprintf(out, _("sample on taskview's own process (pid %d), %.2f ms; the budget is %d ms + %d us per task and refresh:\n"),
		        (int)t.tid, (double)p->spent_ns / 1e6, TASKVIEW_PLUGIN_BUDGET_MS, TASKVIEW_PLUGIN_BUDGET_US_PER_TASK);
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
	if (!h || h->n != 1) {
		plugin_host_free(h);
		colset_free(&cs);
		return 1;
	}
	const struct plugin *p = &h->v[0];
	fprintf(out, _("%s: taskview plugin \"%s\" (ABI %u.%u; taskview %s provides %d.%d)\n"), path, p->d.name,
	        (unsigned)p->d.abi_major, (unsigned)p->d.abi_minor,
	        TV_VERSION, TASKVIEW_PLUGIN_ABI_MAJOR, TASKVIEW_PLUGIN_ABI_MINOR);
	if (p->d.description)
		fprintf(out, "  %s\n", p->d.description);
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
	int rc = sample_self(h, p, out, err);
	plugin_host_free(h);
	colset_free(&cs);
	return rc;
}
