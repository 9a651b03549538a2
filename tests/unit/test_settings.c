/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The settings file: a pure parser that never fails on bad input, keeps
 * what a newer version wrote, and an atomic write.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "settings.h"
#include "tmpdir.h"

struct warnings {
	unsigned n;
	unsigned lines[32];
};

static void warn(void *ctx, unsigned line, const char *msg)
{
	struct warnings *w = ctx;
	ck_assert(msg && *msg);
	if (w->n < 32)
		w->lines[w->n] = line;
	w->n++;
}

static void parse(const char *text, size_t len, struct settings *s, struct warnings *w)
{
	settings_init(s);
	memset(w, 0, sizeof(*w));
	ck_assert_int_eq(settings_parse(text, len, s, warn, w), 0);
}

START_TEST(good_file)
{
	static const char text[] = "# comment\n"
				   "version=1\n"
				   "\n"
				   "columns = pid, user,cpu ,command\n"
				   "sort=vm_rss\n"
				   "reverse=1\n"
				   "delay=2.5\r\n"
				   "threads=false\n"
				   "tree=1\n"
				   "groups=1\n"
				   "kernel_threads=yes\n"
				   "mouse=0\n";
	struct settings s;
	struct warnings w;
	parse(text, strlen(text), &s, &w);
	ck_assert_uint_eq(w.n, 0);
	ck_assert_int_eq(s.version, 1);
	ck_assert_str_eq(s.columns, "pid, user,cpu ,command");
	ck_assert_str_eq(s.sort, "vm_rss");
	ck_assert_int_eq(s.reverse, 1);
	ck_assert_double_eq(s.delay, 2.5);
	ck_assert_int_eq(s.threads, 0);
	ck_assert_int_eq(s.tree, 1);
	ck_assert_int_eq(s.groups, 1);
	ck_assert_int_eq(s.kernel_threads, 1);
	ck_assert_int_eq(s.mouse, 0);
	settings_free(&s);
}
END_TEST

START_TEST(empty_and_unset)
{
	struct settings s;
	struct warnings w;
	parse("", 0, &s, &w);
	ck_assert_uint_eq(w.n, 0);
	ck_assert_ptr_null(s.columns);
	ck_assert_int_eq(s.reverse, -1);
	ck_assert(s.delay < 0);
	settings_free(&s);
}
END_TEST

START_TEST(corrupt_lines)
{
	static const char text[] = "version=1\n"
				   "this is not a setting\n"   /* 2 */
				   "delay=fast\n"              /* 3 */
				   "delay=0.01\n"              /* 4: below the minimum */
				   "reverse=maybe\n"           /* 5 */
				   "sort=a,b\n"                /* 6 */
				   "columns=\x1b[2J\n"         /* 7 */
				   "delay=3\n"
				   "bin\0ary=1\n"              /* 9 */
				   "=\n";                      /* 10: empty key, unknown */
	struct settings s;
	struct warnings w;
	parse(text, sizeof(text) - 1, &s, &w);
	ck_assert_uint_eq(w.n, 8);
	unsigned want[] = {2, 3, 4, 5, 6, 7, 9, 10};
	for (size_t i = 0; i < 8; i++)
		ck_assert_uint_eq(w.lines[i], want[i]);
	/* the good lines around the bad ones still count */
	ck_assert_double_eq(s.delay, 3);
	ck_assert_ptr_null(s.columns);
	ck_assert_ptr_null(s.sort);
	ck_assert_int_eq(s.reverse, -1);
	settings_free(&s);
}
END_TEST

START_TEST(garbage_is_bounded)
{
	/* random bytes: no crash, a bounded number of messages */
	char buf[4096];
	unsigned seed = 12345;
	for (size_t i = 0; i < sizeof(buf); i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (char)(seed >> 16);
	}
	struct settings s;
	struct warnings w;
	parse(buf, sizeof(buf), &s, &w);
	ck_assert_uint_le(w.n, 9);
	settings_free(&s);
	/* no newline at the end, a lone key */
	parse("sort=cpu", 8, &s, &w);
	ck_assert_str_eq(s.sort, "cpu");
	settings_free(&s);
	parse("sort", 4, &s, &w);
	ck_assert_uint_eq(w.n, 1);
	settings_free(&s);
}
END_TEST

START_TEST(unknown_keys)
{
	struct settings s;
	struct warnings w;
	/* same version: an unknown key is a mistake worth a message */
	parse("version=1\ncolour=blue\nsort=cpu\n", 31, &s, &w);
	ck_assert_uint_eq(w.n, 1);
	ck_assert_uint_eq(s.nextra, 1);
	ck_assert_str_eq(s.extra[0], "colour=blue");
	settings_free(&s);
}
END_TEST

START_TEST(newer_version)
{
	static const char text[] = "version=7\n"
				   "columns=pid,future_col,command\n"
				   "sort=cpu\n"
				   "highlight_new=1\n"
				   "meters=cpu,mem\n";
	struct settings s;
	struct warnings w;
	parse(text, strlen(text), &s, &w);
	/* quietly: a newer taskview wrote these keys */
	ck_assert_uint_eq(w.n, 0);
	ck_assert_int_eq(s.version, 7);
	ck_assert_str_eq(s.columns, "pid,future_col,command");
	ck_assert_str_eq(s.sort, "cpu");
	ck_assert_uint_eq(s.nextra, 2);
	/* written back, they survive */
	struct buf b;
	buf_init(&b);
	settings_format(&b, &s);
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "\nhighlight_new=1\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "\nmeters=cpu,mem\n"));
	/* and so does the version: a newer taskview reads its own file again */
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "\nversion=7\n"));
	ck_assert_ptr_null(strstr(buf_str(&b), "version=1"));
	buf_free(&b);
	settings_free(&s);
}
END_TEST

START_TEST(newer_values_kept)
{
	/* a newer version may give a known key a value this one cannot read */
	static const char text[] = "version=2\n"
				   "delay=fast\n"
				   "threads=auto\n"
				   "sort=cpu\n"
				   "future=a=b\n";
	struct settings s;
	struct warnings w;
	parse(text, strlen(text), &s, &w);
	ck_assert_uint_eq(w.n, 0);
	ck_assert(s.delay < 0);
	ck_assert_int_eq(s.threads, -1);
	struct buf b;
	buf_init(&b);
	settings_format(&b, &s);
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "\nversion=2\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "\ndelay=fast\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "\nthreads=auto\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "\nfuture=a=b\n"));
	/* read again, the same file comes out */
	struct settings again;
	parse(b.data, b.len, &again, &w);
	struct buf b2;
	buf_init(&b2);
	settings_format(&b2, &again);
	ck_assert_str_eq(buf_str(&b2), buf_str(&b));
	/* a value set by this version replaces the kept one, once */
	s.delay = 2;
	buf_reset(&b);
	settings_format(&b, &s);
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "\ndelay=2\n"));
	ck_assert_ptr_null(strstr(buf_str(&b), "delay=fast"));
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "\nthreads=auto\n"));
	buf_free(&b);
	buf_free(&b2);
	settings_free(&again);
	settings_free(&s);
}
END_TEST

START_TEST(newest_version_line_wins)
{
	/* a later, older version line does not undo the newer one: what was
	 * kept for the newer version is written again, and reads back the same */
	static const char text[] = "version=7\ncolumns=pid,\xff\nversion=1\n";
	struct settings s, again;
	struct warnings w;
	parse(text, strlen(text), &s, &w);
	ck_assert_int_eq(s.version, 7);
	struct buf b, b2;
	buf_init(&b);
	buf_init(&b2);
	settings_format(&b, &s);
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "\nversion=7\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "\ncolumns=pid,\xff\n"));
	parse(b.data, b.len, &again, &w);
	settings_format(&b2, &again);
	ck_assert_str_eq(buf_str(&b2), buf_str(&b));
	buf_free(&b);
	buf_free(&b2);
	settings_free(&s);
	settings_free(&again);
}
END_TEST

START_TEST(own_version_bad_values_dropped)
{
	/* in a file of this version a bad value is a mistake: reported, not kept */
	static const char text[] = "version=1\ndelay=fast\n";
	struct settings s;
	struct warnings w;
	parse(text, strlen(text), &s, &w);
	ck_assert_uint_eq(w.n, 1);
	struct buf b;
	buf_init(&b);
	settings_format(&b, &s);
	ck_assert_ptr_null(strstr(buf_str(&b), "fast"));
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "\nversion=1\n"));
	buf_free(&b);
	settings_free(&s);
}
END_TEST

/* A user's comments are kept when the file is written again (after the
 * settings); the line taskview heads its own files with is not repeated. */
START_TEST(comments_kept)
{
	static const char text[] = "# taskview settings: written on quit by the interactive mode\n"
				   "# my columns, for the build box\n"
				   "version=1\n"
				   "  # indented, with = in it\n"
				   "columns=pid,comm\n";
	struct settings s;
	struct warnings w;
	parse(text, strlen(text), &s, &w);
	ck_assert_uint_eq(w.n, 0);
	s.delay = 2;
	struct buf a, b;
	buf_init(&a);
	buf_init(&b);
	settings_format(&a, &s);
	ck_assert_ptr_nonnull(strstr(buf_str(&a), "\n# my columns, for the build box\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&a), "\n# indented, with = in it\n"));
	ck_assert_ptr_nonnull(strstr(buf_str(&a), "\ndelay=2\n"));
	ck_assert_ptr_null(strstr(buf_str(&a) + 1, "# taskview settings"));
	/* written again: the same text */
	struct settings r;
	parse(a.data, a.len, &r, &w);
	settings_format(&b, &r);
	ck_assert_str_eq(buf_str(&a), buf_str(&b));
	buf_free(&a);
	buf_free(&b);
	settings_free(&s);
	settings_free(&r);
}
END_TEST

START_TEST(format_round_trip)
{
	struct settings a;
	settings_init(&a);
	a.columns = strdup("pid,cpu,command");
	a.sort = strdup("pid");
	a.reverse = 0;
	a.delay = 0.5;
	a.threads = 1;
	a.tree = 1;
	a.groups = 0;
	a.kernel_threads = 0;
	struct buf b;
	buf_init(&b);
	settings_format(&b, &a);
	struct settings c;
	struct warnings w;
	parse(b.data, b.len, &c, &w);
	ck_assert_uint_eq(w.n, 0);
	ck_assert_str_eq(c.columns, a.columns);
	ck_assert_str_eq(c.sort, a.sort);
	ck_assert_int_eq(c.reverse, 0);
	ck_assert_double_eq(c.delay, 0.5);
	ck_assert_int_eq(c.threads, 1);
	ck_assert_int_eq(c.tree, 1);
	ck_assert_int_eq(c.groups, 0);
	ck_assert_int_eq(c.kernel_threads, 0);
	ck_assert_int_eq(c.mouse, -1); /* not set, not written */
	buf_free(&b);
	settings_free(&a);
	settings_free(&c);
}
END_TEST

START_TEST(save_and_load)
{
	char dir[200];
	ck_assert_ptr_nonnull(test_mkdtemp(dir, sizeof(dir), "tv-settings"));
	char path[256];
	snprintf(path, sizeof(path), "%s/a/b/taskviewrc", dir);
	struct settings s, r;
	settings_init(&s);
	s.sort = strdup("vm_pte");
	s.delay = 4;
	char *err = NULL;
	ck_assert_int_eq(settings_save(path, &s, &err), 0);
	ck_assert_ptr_null(err);
	settings_init(&r);
	ck_assert_int_eq(settings_load(path, &r, NULL, NULL, &err), 0);
	ck_assert_str_eq(r.sort, "vm_pte");
	ck_assert_double_eq(r.delay, 4);
	settings_free(&r);
	/* a new file is the owner's alone; one saved again keeps the mode it was given */
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	ck_assert_int_eq(chmod(path, 0444), 0);
	ck_assert_int_eq(settings_save(path, &s, &err), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0444);
	ck_assert_int_eq(chmod(path, 0640), 0);
	ck_assert_int_eq(settings_save(path, &s, &err), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0640);
	/* no temporary file is left behind */
	char sub[256];
	snprintf(sub, sizeof(sub), "%s/a/b", dir);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "test $(ls -A %s | wc -l) -eq 1", sub);
	ck_assert_int_eq(system(cmd), 0);
	/* a missing file is no error; a directory in its place is */
	settings_init(&r);
	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(settings_load(path, &r, NULL, NULL, &err), 0);
	ck_assert_int_eq(settings_load(sub, &r, NULL, NULL, &err), -1);
	ck_assert_ptr_nonnull(err);
	free(err);
	settings_free(&r);
	settings_free(&s);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The file is read whole, however many lines a user or a newer version
 * wrote: a part written back as the whole would lose the rest. */
START_TEST(large_file_read_whole)
{
	char dir[200];
	ck_assert_ptr_nonnull(test_mkdtemp(dir, sizeof(dir), "tv-settings"));
	char path[256];
	snprintf(path, sizeof(path), "%s/taskviewrc", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("version=2\n", f);
	/* 1 MiB of a newer version's keys, then settings this version reads */
	for (int i = 0; i < 16384; i++)
		fprintf(f, "note_%05d=%050d\n", i, i);
	fputs("sort=vm_pte\nlast_key=end\n", f);
	ck_assert_int_eq(fclose(f), 0);
	struct settings s;
	settings_init(&s);
	char *err = NULL;
	ck_assert_int_eq(settings_load(path, &s, NULL, NULL, &err), 0);
	ck_assert_ptr_null(err);
	ck_assert_str_eq(s.sort, "vm_pte");
	ck_assert_uint_eq(s.nextra, 16385);
	ck_assert_str_eq(s.extra[16384], "last_key=end");
	/* written back: every line is there */
	s.delay = 3;
	ck_assert_int_eq(settings_save(path, &s, &err), 0);
	settings_free(&s);
	settings_init(&s);
	ck_assert_int_eq(settings_load(path, &s, NULL, NULL, &err), 0);
	ck_assert_uint_eq(s.nextra, 16385);
	ck_assert_str_eq(s.extra[0], "note_00000=00000000000000000000000000000000000000000000000000");
	ck_assert_str_eq(s.extra[16384], "last_key=end");
	ck_assert_double_eq(s.delay, 3);
	settings_free(&s);
	/* past the limit: not read at all, an error, nothing set */
	ck_assert_int_eq(truncate(path, 16 * 1024 * 1024 + 1), 0);
	settings_init(&s);
	ck_assert_int_eq(settings_load(path, &s, NULL, NULL, &err), -1);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err, path) != NULL, "%s", err);
	free(err);
	ck_assert_ptr_null(s.sort);
	ck_assert_uint_eq(s.nextra, 0);
	settings_free(&s);
	/* at the limit exactly: read (text to the last byte: a NUL is binary data) */
	ck_assert_int_eq(truncate(path, 0), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("sort=vm_pte\n#", f);
	for (long i = (long)strlen("sort=vm_pte\n#"); i < 16 * 1024 * 1024 - 1; i++)
		fputc('x', f);
	fputc('\n', f);
	ck_assert_int_eq(fclose(f), 0);
	settings_init(&s);
	err = NULL;
	ck_assert_int_eq(settings_load(path, &s, NULL, NULL, &err), 0);
	ck_assert_str_eq(s.sort, "vm_pte");
	settings_free(&s);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(path_from_env)
{
	setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
	char *p = settings_path();
	ck_assert_str_eq(p, "/x/cfg/taskview/taskviewrc");
	free(p);
	/* a relative XDG_CONFIG_HOME is ignored, as the spec says */
	setenv("XDG_CONFIG_HOME", "rel", 1);
	setenv("HOME", "/home/u", 1);
	p = settings_path();
	ck_assert_str_eq(p, "/home/u/.config/taskview/taskviewrc");
	free(p);
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
	ck_assert_ptr_null(settings_path());
}
END_TEST

int main(void)
{
	Suite *s = suite_create("settings");
	TCase *tc = tcase_create("settings");
	/* large_file_read_whole reads 16 MiB twice: more than check's 4 s on a busy machine under ASan */
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, good_file);
	tcase_add_test(tc, empty_and_unset);
	tcase_add_test(tc, corrupt_lines);
	tcase_add_test(tc, garbage_is_bounded);
	tcase_add_test(tc, unknown_keys);
	tcase_add_test(tc, newer_version);
	tcase_add_test(tc, newer_values_kept);
	tcase_add_test(tc, own_version_bad_values_dropped);
	tcase_add_test(tc, newest_version_line_wins);
	tcase_add_test(tc, format_round_trip);
	tcase_add_test(tc, comments_kept);
	tcase_add_test(tc, save_and_load);
	tcase_add_test(tc, path_from_env);
	tcase_add_test(tc, large_file_read_whole);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
