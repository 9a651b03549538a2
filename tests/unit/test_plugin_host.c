/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plugin loader against deliberately broken, old, slow and complete modules. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugin/plugin_helper.h"
#include "plugin/plugin_host.h"
#include "plugin/plugin_priv.h"
#include "tmpdir.h"

/* Collected messages of one load, one line each. */
struct msgs {
	char text[8192];
	size_t n;
};

static void msgs_add(void *ctx, const char *line)
{
	struct msgs *m = ctx;
	size_t len = strlen(m->text);
	snprintf(m->text + len, sizeof(m->text) - len, "%s\n", line);
	m->n++;
}

static char *module_path(const char *env, const char *name)
{
	const char *dir = getenv(env);
	ck_assert_msg(dir != NULL, "%s is not set", env);
	char *p;
	ck_assert_int_ge(asprintf(&p, "%s/%s.so", dir, name), 0);
	return p;
}

/* Loads one explicit module into a fresh column set. */
struct loaded {
	struct colset cs;
	struct plugin_host *h;
	struct msgs m;
	bool fatal;
};

static void load_one(struct loaded *l, const char *name)
{
	memset(l, 0, sizeof(*l));
	ck_assert_int_eq(colset_init(&l->cs), 0);
	char *path = module_path("PLUGIN_TEST_DIR", name);
	const char *files[] = {path};
	struct plugin_host_opts o = {.explicit_files = files, .nexplicit = 1, .no_discovery = true};
	l->h = plugin_host_load(&o, &l->cs, msgs_add, &l->m, &l->fatal);
	free(path);
}

static void loaded_free(struct loaded *l)
{
	plugin_host_free(l->h);
	colset_free(&l->cs);
}

static void expect_rejected(const char *name, const char *stage)
{
	struct loaded l;
	load_one(&l, name);
	ck_assert_ptr_null(l.h);
	ck_assert(l.fatal);
	ck_assert_msg(strstr(l.m.text, stage) != NULL, "%s: expected \"%s\" in: %s", name, stage, l.m.text);
	ck_assert_msg(strstr(l.m.text, name) != NULL, "message does not name the file: %s", l.m.text);
	ck_assert_uint_eq(l.cs.n, l.cs.nbuiltin);
	loaded_free(&l);
}

START_TEST(test_rejections)
{
	expect_rejected("noentry", "not a taskview plugin: no taskview_plugin_v1 symbol");
	expect_rejected("future_major", "ABI mismatch: the plugin needs ABI 2 (taskview_plugin_v2)");
	expect_rejected("wrong_major", "ABI mismatch: the plugin needs ABI 2.0, taskview");
	expect_rejected("newer_minor", "ABI mismatch: the plugin needs ABI 1.1, taskview");
	expect_rejected("null_field", "missing mandatory field: collect");
	expect_rejected("dup_ids", "duplicate column id: dup.x");
	expect_rejected("does_not_exist", "cannot load: No such file or directory");
}
END_TEST

START_TEST(test_not_elf)
{
	char dir[200];
	ck_assert_ptr_nonnull(test_mkdtemp(dir, sizeof(dir), "tv-plugin"));
	char path[256];
	snprintf(path, sizeof(path), "%s/text.so", dir);
	FILE *f = fopen(path, "w");
	fputs("not a shared object\n", f);
	fclose(f);
	struct colset cs;
	colset_init(&cs);
	struct msgs m = {0};
	bool fatal;
	const char *files[] = {path};
	struct plugin_host_opts o = {.explicit_files = files, .nexplicit = 1, .no_discovery = true};
	ck_assert_ptr_null(plugin_host_load(&o, &cs, msgs_add, &m, &fatal));
	ck_assert(fatal);
	/* the dlerror text names the user's path, not the descriptor we loaded through */
	ck_assert_msg(strstr(m.text, "cannot load: ") && strstr(m.text, path) && !strstr(m.text, "/proc/self/fd"),
	              "%s", m.text);
	colset_free(&cs);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* Opens our own /proc directory as a task of the model. */
static int self_task(struct tv_task *t)
{
	task_init(t);
	t->tid = t->tgid = (int32_t)getpid();
	task_set_comm(t, "selftest", sizeof("selftest"));
	int fd = open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	return fd;
}

/* One refresh over one task. */
static void collect_one(struct plugin_host *h, struct tv_task *t, const bool *shown)
{
	struct tv_task *tasks[] = {t};
	plugin_host_collect_all(h, tasks, 1, shown);
}

static const struct column *col(const struct loaded *l, const char *id)
{
	const struct column *c = colset_find(&l->cs, id);
	ck_assert_msg(c != NULL, "no column %s", id);
	return c;
}

START_TEST(test_older_descriptor)
{
	struct loaded l;
	load_one(&l, "older_small");
	ck_assert_ptr_nonnull(l.h);
	ck_assert_uint_eq(l.m.n, 0);
	ck_assert_uint_eq(plugin_host_nslots(l.h), 2);
	const struct column *c = col(&l, "old.tid");
	ck_assert_int_eq(c->applies, COL_ROWS_BOTH); /* rows field absent: zero = both */
	ck_assert_int_eq(c->align, COL_ALIGN_RIGHT);
	ck_assert_int_eq(c->width, 7);
	ck_assert(col(&l, "old.ticks")->counter);

	struct tv_task t;
	int fd = self_task(&t);
	collect_one(l.h, &t, NULL);
	struct tv_value v = column_value(c, &t);
	ck_assert_int_eq(v.kind, TV_V_INT);
	ck_assert_int_eq(v.i, getpid());
	/* a counter has no rate before the model derives one */
	ck_assert_int_eq(column_value(col(&l, "old.ticks"), &t).kind, TV_V_UNKNOWN);
	ck_assert_int_eq(t.pvals[1].i, 1);
	task_clear(&t, plugin_host_nslots(l.h));
	close(fd);
	loaded_free(&l);
}
END_TEST

/* An ABI 1.0 plugin with garbage in its padding and past its fields loads and works. */
START_TEST(test_old_padded)
{
	struct loaded l;
	load_one(&l, "old_padded");
	ck_assert_msg(l.h != NULL, "%s", l.m.text);
	ck_assert_uint_eq(l.m.n, 0);
	const struct column *c = col(&l, "oldpad.tid");
	ck_assert_int_eq(c->applies, COL_ROWS_BOTH);
	ck_assert_int_eq(c->width, 6);
	ck_assert_int_eq(col(&l, "oldpad.tag")->align, COL_ALIGN_LEFT);
	struct tv_task t;
	int fd = self_task(&t);
	collect_one(l.h, &t, NULL);
	ck_assert_int_eq(column_value(c, &t).i, getpid());
	ck_assert_str_eq(column_value(col(&l, "oldpad.tag"), &t).s, "old");
	task_clear(&t, plugin_host_nslots(l.h));
	close(fd);
	loaded_free(&l);
}
END_TEST

/*
 * What the host copies of a 1.0 column: its fields, never the padding after rows,
 * where a field appended by a later minor would sit, nor bytes past column_size.
 */
START_TEST(test_abi_extent)
{
	unsigned char raw[sizeof(struct taskview_column) + 16];
	memset(raw, 0xAA, sizeof(raw));
	struct taskview_column src = {.id = "a.b", .header = "AB", .type = TASKVIEW_TYPE_INTEGER, .rows = 2};
	size_t declared = offsetof(struct taskview_column, rows) + sizeof(src.rows);
	memcpy(raw, &src, declared);

	struct taskview_column c;
	plugin_column_copy(&c, raw, sizeof(raw), 0);
	ck_assert_str_eq(c.id, "a.b");
	ck_assert_uint_eq(c.rows, 2);
	const unsigned char *bytes = (const unsigned char *)&c;
	for (size_t i = declared; i < sizeof(c); i++)
		ck_assert_msg(bytes[i] == 0, "byte %zu of a 1.0 column read as 0x%x", i, bytes[i]);
	/* a smaller column_size: the fields past it read as zero */
	plugin_column_copy(&c, raw, (uint32_t)offsetof(struct taskview_column, width), 0);
	ck_assert_uint_eq(c.type, TASKVIEW_TYPE_INTEGER);
	ck_assert_uint_eq(c.width, 0);
	ck_assert_uint_eq(c.rows, 0);
	/* a minor this host does not know: nothing is read */
	plugin_column_copy(&c, raw, sizeof(raw), TASKVIEW_PLUGIN_ABI_MINOR + 1);
	ck_assert_ptr_null(c.id);

	unsigned char rawd[sizeof(struct taskview_plugin) + 24];
	memset(rawd, 0xAA, sizeof(rawd));
	struct taskview_plugin d;
	plugin_descriptor_copy(&d, rawd, sizeof(rawd), 0);
	ck_assert_uint_eq(d.ncolumns, 0xAAAAAAAAu); /* a field: copied as it is */
	plugin_descriptor_copy(&d, rawd, (uint32_t)offsetof(struct taskview_plugin, init), 0);
	ck_assert_ptr_null(d.init);
	ck_assert_ptr_null(d.end);
}
END_TEST

START_TEST(test_values)
{
	struct loaded l;
	load_one(&l, "hello");
	ck_assert_ptr_nonnull(l.h);
	ck_assert_uint_eq(plugin_host_nslots(l.h), 6);
	ck_assert_int_eq(col(&l, "hello.tid")->arg, 0);
	ck_assert_int_eq(col(&l, "hello.tid")->type, COL_INT);
	ck_assert_int_eq(col(&l, "hello.comm")->type, COL_STRING);
	ck_assert_int_eq(col(&l, "hello.comm")->align, COL_ALIGN_LEFT);
	ck_assert_int_eq(col(&l, "hello.half")->type, COL_FLOAT);
	ck_assert_int_eq(col(&l, "hello.pct")->type, COL_PERCENT);
	ck_assert_int_eq(col(&l, "hello.refreshes")->type, COL_RATE);
	ck_assert_int_eq(col(&l, "hello.pct")->width, 3); /* header width when 0 */
	ck_assert(col(&l, "hello.tid")->needs & NEED_PLUGIN);

	struct tv_task t;
	int fd = self_task(&t);
	collect_one(l.h, &t, NULL);
	ck_assert_int_eq(column_value(col(&l, "hello.tid"), &t).i, getpid());
	ck_assert_str_eq(column_value(col(&l, "hello.comm"), &t).s, "SELFTEST");
	ck_assert_double_eq(column_value(col(&l, "hello.half"), &t).f, getpid() / 2.0);
	ck_assert_double_eq(column_value(col(&l, "hello.pct"), &t).f, 12.5);
	/* thread-only column on a process row: never asked for, unknown */
	ck_assert_int_eq(column_value(col(&l, "hello.thread_only"), &t).kind, TV_V_UNKNOWN);
	ck_assert(!t.pvals[4].known);
	ck_assert_int_eq(t.pvals[5].i, 1); /* init ran, begin counted one refresh */
	task_clear(&t, 6);

	/* only shown slots are filled */
	bool shown[6] = {false, true, false, false, false, false};
	fd = (close(fd), self_task(&t));
	collect_one(l.h, &t, shown);
	ck_assert(!t.pvals[0].known);
	ck_assert(t.pvals[1].known);
	ck_assert_int_eq(t.pvals[5].known, false);
	task_clear(&t, 6);

	/* nothing shown: the plugin is not called, nothing allocated */
	bool none[6] = {false};
	fd = (close(fd), self_task(&t));
	collect_one(l.h, &t, none);
	ck_assert_ptr_null(t.pvals);
	task_clear(&t, 6);
	close(fd);
	loaded_free(&l);
}
END_TEST

START_TEST(test_slow_disabled)
{
	struct loaded l;
	load_one(&l, "slow");
	ck_assert_ptr_nonnull(l.h);
	struct tv_task t;
	int fd = self_task(&t);
	/* over its CPU budget once, twice: still shown, nothing said */
	for (int i = 1; i < TASKVIEW_PLUGIN_BUDGET_REFRESHES; i++) {
		collect_one(l.h, &t, NULL);
		ck_assert_uint_eq(l.m.n, 0);
		ck_assert_int_eq(column_value(col(&l, "slow.value"), &t).i, 1);
		task_clear(&t, 1);
		close(fd);
		fd = self_task(&t);
	}
	/* and once more: disabled, this refresh's value gone too */
	collect_one(l.h, &t, NULL);
	ck_assert_msg(strstr(l.m.text, "plugin slow disabled: ") &&
	              strstr(l.m.text, "more CPU time than their budget in 3 refreshes in a row"), "%s", l.m.text);
	ck_assert_int_eq(column_value(col(&l, "slow.value"), &t).kind, TV_V_UNKNOWN);
	task_clear(&t, 1);
	/* later refreshes do not call it again */
	struct msgs before = l.m;
	collect_one(l.h, &t, NULL);
	ck_assert_uint_eq(l.m.n, before.n);
	ck_assert_int_eq(column_value(col(&l, "slow.value"), &t).kind, TV_V_UNKNOWN);
	task_clear(&t, 1);
	close(fd);
	loaded_free(&l);
}
END_TEST

START_TEST(test_duplicate_between_plugins)
{
	struct colset cs;
	colset_init(&cs);
	struct msgs m = {0};
	bool fatal;
	char *oom = module_path("PLUGIN_DIR", "oom");
	char *clash = module_path("PLUGIN_TEST_DIR", "clash");
	if (access(oom, R_OK) != 0) { /* built with -Dplugins=false */
		free(oom);
		free(clash);
		colset_free(&cs);
		return;
	}
	const char *files[] = {oom, clash};
	struct plugin_host_opts o = {.explicit_files = files, .nexplicit = 2, .no_discovery = true};
	ck_assert_ptr_null(plugin_host_load(&o, &cs, msgs_add, &m, &fatal));
	ck_assert(fatal);
	ck_assert_msg(strstr(m.text, "duplicate column id: oom.score is already declared by") &&
	              strstr(m.text, oom), "%s", m.text);
	/* the column set is back to the built-ins */
	ck_assert_uint_eq(cs.n, cs.nbuiltin);
	colset_free(&cs);
	free(oom);
	free(clash);
}
END_TEST

static void copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	ck_assert(in && out);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	fclose(out);
	chmod(to, 0755);
}

START_TEST(test_discovery)
{
	char root[200];
	ck_assert_ptr_nonnull(test_mkdtemp(root, sizeof(root), "tv-xdg"));
	char dir[512], sys[512], p1[600], p2[600], p3[600], p4[600], p5[600];
	snprintf(dir, sizeof(dir), "%s/taskview", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/taskview/plugins", root);
	mkdir(dir, 0755);
	/* the system directory, as TASKVIEW_PLUGINDIR names it: never the installed one */
	snprintf(sys, sizeof(sys), "%s/system", root);
	mkdir(sys, 0755);
	char *hello = module_path("PLUGIN_TEST_DIR", "hello");
	char *noentry = module_path("PLUGIN_TEST_DIR", "noentry");
	char *old = module_path("PLUGIN_TEST_DIR", "older_small");
	snprintf(p1, sizeof(p1), "%s/hello.so", dir);
	snprintf(p2, sizeof(p2), "%s/broken.so", dir);
	snprintf(p3, sizeof(p3), "%s/notes.txt", dir);
	snprintf(p4, sizeof(p4), "%s/hello.so", sys);
	snprintf(p5, sizeof(p5), "%s/old.so", sys);
	copy_file(hello, p1);
	copy_file(noentry, p2);
	copy_file(noentry, p3);
	copy_file(noentry, p4); /* shadowed by the user's hello.so: never loaded */
	copy_file(old, p5);
	setenv("XDG_DATA_HOME", root, 1);
	setenv("TASKVIEW_PLUGINDIR", sys, 1);

	struct colset cs;
	colset_init(&cs);
	struct msgs m = {0};
	bool fatal;
	struct plugin_host_opts o = {0};
	struct plugin_host *h = plugin_host_load(&o, &cs, msgs_add, &m, &fatal);
	ck_assert_ptr_nonnull(h);
	ck_assert(!fatal);
	ck_assert(colset_find(&cs, "hello.tid") != NULL);
	ck_assert(colset_find(&cs, "old.tid") != NULL); /* from the system directory */
	ck_assert_uint_eq(plugin_host_nslots(h), 6 + 2);
	/* a broken discovered plugin is reported and skipped; other files are ignored */
	ck_assert_msg(strstr(m.text, "broken.so: not a taskview plugin"), "%s", m.text);
	ck_assert_msg(!strstr(m.text, "notes.txt"), "%s", m.text);
	ck_assert_msg(!strstr(m.text, p4), "a shadowed file was loaded: %s", m.text);
	plugin_host_free(h);
	colset_free(&cs);

	/* an empty system directory: nothing found there, nothing said */
	unlink(p4);
	unlink(p5);
	colset_init(&cs);
	memset(&m, 0, sizeof(m));
	h = plugin_host_load(&(struct plugin_host_opts){0}, &cs, msgs_add, &m, &fatal);
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(plugin_host_nslots(h), 6);
	ck_assert_msg(!strstr(m.text, "system"), "%s", m.text);
	plugin_host_free(h);
	colset_free(&cs);
	rmdir(sys);

	/* an explicit file shadows a discovered one of the same name */
	colset_init(&cs);
	memset(&m, 0, sizeof(m));
	const char *files[] = {hello};
	o = (struct plugin_host_opts){.explicit_files = files, .nexplicit = 1};
	h = plugin_host_load(&o, &cs, msgs_add, &m, &fatal);
	ck_assert_ptr_nonnull(h);
	ck_assert_msg(!strstr(m.text, "duplicate"), "%s", m.text);
	ck_assert_uint_eq(plugin_host_nslots(h), 6);
	plugin_host_free(h);
	colset_free(&cs);

	/* --no-plugins: nothing discovered */
	colset_init(&cs);
	o = (struct plugin_host_opts){.no_discovery = true};
	h = plugin_host_load(&o, &cs, msgs_add, &m, &fatal);
	ck_assert_uint_eq(plugin_host_nslots(h), 0);
	plugin_host_free(h);
	colset_free(&cs);

	unlink(p1);
	unlink(p2);
	unlink(p3);
	rmdir(dir);
	snprintf(dir, sizeof(dir), "%s/taskview", root);
	rmdir(dir);
	rmdir(root);
	free(hello);
	free(noentry);
	free(old);
	unsetenv("TASKVIEW_PLUGINDIR");
}
END_TEST

START_TEST(test_root_refuses_writable)
{
	if (geteuid() != 0)
		return; /* the rule applies to root only */
	char dir[200];
	ck_assert_ptr_nonnull(test_mkdtemp(dir, sizeof(dir), "tv-root"));
	char path[256];
	snprintf(path, sizeof(path), "%s/hello.so", dir);
	char *hello = module_path("PLUGIN_TEST_DIR", "hello");
	copy_file(hello, path);
	chmod(path, 0666);
	struct colset cs;
	colset_init(&cs);
	struct msgs m = {0};
	bool fatal;
	const char *files[] = {path};
	struct plugin_host_opts o = {.explicit_files = files, .nexplicit = 1, .no_discovery = true};
	ck_assert_ptr_null(plugin_host_load(&o, &cs, msgs_add, &m, &fatal));
	ck_assert(fatal);
	ck_assert_msg(strstr(m.text, "refused:") && strstr(m.text, "is world-writable"), "%s", m.text);

	chmod(path, 0664);
	memset(&m, 0, sizeof(m));
	ck_assert_ptr_null(plugin_host_load(&o, &cs, msgs_add, &m, &fatal));
	ck_assert_msg(strstr(m.text, "is group-writable"), "%s", m.text);

	chmod(path, 0755);
	ck_assert_int_eq(chown(path, 1, 1), 0);
	memset(&m, 0, sizeof(m));
	ck_assert_ptr_null(plugin_host_load(&o, &cs, msgs_add, &m, &fatal));
	ck_assert_msg(strstr(m.text, "is owned by uid 1, not by root"), "%s", m.text);

	colset_free(&cs);
	unlink(path);
	rmdir(dir);
	free(hello);
}
END_TEST

START_TEST(test_read_file_stays_inside)
{
	const struct taskview_host *host = plugin_api_host();
	int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct taskview_task task = {.tid = getpid(), .tgid = getpid(), .comm = "selftest", .procfd = fd};
	ck_assert_str_eq(host->task_comm(&task), "selftest");
	snprintf(task.dir, sizeof(task.dir), "%d", (int)getpid());
	char buf[64];
	ck_assert_int_eq(host->read_file(&task, "/etc/passwd", buf, sizeof(buf)), -EINVAL);
	ck_assert_int_eq(host->read_file(&task, "../self/comm", buf, sizeof(buf)), -EINVAL);
	ck_assert_int_eq(host->read_file(&task, "task/..", buf, sizeof(buf)), -EINVAL);
	ck_assert_int_eq(host->read_file(&task, "no_such_file", buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(host->read_file(&task, "comm", buf, 0), -EINVAL);
	/* a small buffer gets a truncated, terminated prefix */
	ck_assert_int_eq(host->read_file(&task, "stat", buf, 4), 3);
	ck_assert_uint_eq(strlen(buf), 3);
	ck_assert_int_gt(host->count_entries(&task, "fd"), 2);
	ck_assert_int_eq(host->count_entries(&task, "comm"), -ENOTDIR);
	ck_assert_int_eq(host->task_tgid(&task), getpid());
	ck_assert_int_eq(host->task_is_thread(&task), 0);
	ck_assert_uint_eq(host->struct_size, sizeof(struct taskview_host));
	close(fd);
}
END_TEST

START_TEST(test_column_get)
{
	struct tv_task t;
	task_init(&t);
	struct column c = {.id = "x.y", .type = COL_INT, .arg = 0, .get = plugin_column_get};
	ck_assert_int_eq(plugin_column_get(&c, &t).kind, TV_V_UNKNOWN); /* no pvals */
	struct tv_pvalue pv[2] = {{.known = false, .i = 5}, {.known = true, .i = 0, .f = NAN}};
	t.pvals = pv;
	ck_assert_int_eq(plugin_column_get(&c, &t).kind, TV_V_UNKNOWN);
	c.arg = 1;
	struct tv_value v = plugin_column_get(&c, &t);
	ck_assert_int_eq(v.kind, TV_V_INT); /* a known zero is zero, not unknown */
	ck_assert_int_eq(v.i, 0);
	c.counter = true;
	c.type = COL_RATE;
	ck_assert_int_eq(plugin_column_get(&c, &t).kind, TV_V_UNKNOWN); /* rate not derived yet */
	pv[1].f = 2.5;
	ck_assert_double_eq(plugin_column_get(&c, &t).f, 2.5);
}
END_TEST

START_TEST(test_check_file)
{
	char *hello = module_path("PLUGIN_TEST_DIR", "hello");
	char *dup = module_path("PLUGIN_TEST_DIR", "dup_ids");
	char *slow = module_path("PLUGIN_TEST_DIR", "slow");
	char out[8192] = "", err[8192] = "";
	FILE *fo = fmemopen(out, sizeof(out), "w"), *fe = fmemopen(err, sizeof(err), "w");
	ck_assert_int_eq(plugin_check_file(hello, fo, fe), 0);
	fflush(fo);
	ck_assert_msg(strstr(out, "hello.comm") && strstr(out, "string") && strstr(out, "sample on taskview's own process"),
	              "%s", out);
	ck_assert_int_eq(plugin_check_file(dup, fo, fe), 1);
	ck_assert_int_eq(plugin_check_file(slow, fo, fe), 1);
	fclose(fo);
	fclose(fe);
	ck_assert_msg(strstr(err, "duplicate column id") && strstr(err, "disabled:"), "%s", err);
	free(hello);
	free(dup);
	free(slow);
}
END_TEST

/* The messages between taskview and the helper: whole frames only, every length checked. */
START_TEST(test_wire)
{
	struct buf b;
	buf_init(&b);
	size_t f = wire_begin(&b, WIRE_VALUES);
	wire_u32(&b, 7);
	wire_str(&b, "abc");
	wire_str(&b, NULL);
	wire_put_value(&b, 1, 2, WIRE_STRING, "xy", 2);
	wire_end(&b, f);

	uint32_t type;
	struct wire_reader r;
	size_t total;
	/* a frame cut anywhere is not there yet */
	for (size_t cut = 0; cut < b.len; cut++)
		ck_assert_int_eq(wire_frame(b.data, cut, &type, &r, &total), 0);
	ck_assert_int_eq(wire_frame(b.data, b.len, &type, &r, &total), 1);
	ck_assert_uint_eq(type, WIRE_VALUES);
	ck_assert_uint_eq(total, b.len);
	bool null;
	ck_assert_uint_eq(wire_get_u32(&r), 7);
	char *s = wire_get_str(&r, 16, &null);
	ck_assert_str_eq(s, "abc");
	free(s);
	ck_assert_ptr_null(wire_get_str(&r, 16, &null));
	ck_assert(null && !r.bad);
	ck_assert_uint_eq(wire_get_u32(&r), 1);
	ck_assert_uint_eq(wire_get_u32(&r), 2);
	ck_assert_uint_eq(wire_get_u8(&r), WIRE_STRING);
	s = wire_get_str(&r, 16, &null);
	ck_assert_str_eq(s, "xy");
	free(s);
	ck_assert(wire_done(&r));
	/* reading past the end gives zero and marks the payload bad */
	ck_assert_uint_eq(wire_get_u64(&r), 0);
	ck_assert(r.bad && !wire_done(&r));

	/* a length the payload does not hold, one over the limit, a NUL inside */
	unsigned char bad[] = {5, 0, 0, 0, 'a', 'b'};
	r = (struct wire_reader){.p = bad, .left = sizeof(bad)};
	ck_assert_ptr_null(wire_get_str(&r, 16, &null));
	ck_assert(r.bad);
	unsigned char nul[] = {2, 0, 0, 0, 'a', 0};
	r = (struct wire_reader){.p = nul, .left = sizeof(nul)};
	ck_assert_ptr_null(wire_get_str(&r, 16, &null));
	ck_assert(r.bad);
	r = (struct wire_reader){.p = nul, .left = sizeof(nul)};
	ck_assert_ptr_null(wire_get_str(&r, 1, &null));
	ck_assert(r.bad);
	unsigned char huge[] = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
	ck_assert_int_eq(wire_frame(huge, sizeof(huge), &type, &r, &total), -1);
	buf_free(&b);
}
END_TEST

/* What a plugin wrote, as it appears in a message: one line, escaped, ASCII, cut. */
START_TEST(test_output_line)
{
	const char *out = "\n\033]2;pwned\007first \xc3\xa9\nsecond\n";
	char *line = plugin_output_line(out, strlen(out), false);
	ck_assert_str_eq(line, "\\e]2;pwned\\x07first ? ...");
	free(line);
	line = plugin_output_line("one\n", 4, false);
	ck_assert_str_eq(line, "one");
	free(line);
	line = plugin_output_line("cut", 3, true);
	ck_assert_str_eq(line, "cut ...");
	free(line);
	ck_assert_ptr_null(plugin_output_line("\n\n", 2, false));
	char longer[1000];
	memset(longer, 'x', sizeof(longer));
	line = plugin_output_line(longer, sizeof(longer), false);
	ck_assert_uint_lt(strlen(line), 220);
	free(line);
}
END_TEST

/* The longest wait of one thread between two looks: a thread that ended takes its wait
 * with it, a new one counts whole, waits of several threads are not added up. */
START_TEST(test_waited)
{
	struct child_look last = {.nthreads = 3, .t = {{10, 5000}, {11, 9000}, {12, 100}}};
	struct child_look now = {.nthreads = 2, .t = {{10, 6000}, {12, 2100}}};
	ck_assert_int_eq(plugin_child_waited(&last, &now), 2000); /* 11 ended: not -9000 */
	now.t[now.nthreads++] = (struct child_thread){13, 3000};
	ck_assert_int_eq(plugin_child_waited(&last, &now), 3000); /* 13 is new: all of its */
	struct child_look none = {0};
	ck_assert_int_eq(plugin_child_waited(&last, &none), 0);   /* no schedstat */
	ck_assert_int_eq(plugin_child_waited(&now, &now), 0);
}
END_TEST

static Suite *plugin_host_suite(void)
{
	Suite *s = suite_create("plugin_host");
	TCase *tc = tcase_create("load");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_rejections);
	tcase_add_test(tc, test_not_elf);
	tcase_add_test(tc, test_older_descriptor);
	tcase_add_test(tc, test_old_padded);
	tcase_add_test(tc, test_abi_extent);
	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_waited);
	tcase_add_test(tc, test_slow_disabled);
	tcase_add_test(tc, test_duplicate_between_plugins);
	tcase_add_test(tc, test_discovery);
	tcase_add_test(tc, test_root_refuses_writable);
	tcase_add_test(tc, test_read_file_stays_inside);
	tcase_add_test(tc, test_column_get);
	tcase_add_test(tc, test_check_file);
	tcase_add_test(tc, test_wire);
	tcase_add_test(tc, test_output_line);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	/* the plugin helper is this very binary */
	int rc = plugin_helper_dispatch(argc, argv);
	if (rc >= 0)
		return rc;
	SRunner *sr = srunner_create(plugin_host_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
