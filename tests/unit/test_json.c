/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON output: strings that stay valid RFC 8259 whatever bytes a task name
 * holds, numbers that parse back, and one whole sample line.
 */
#include <check.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/column.h"
#include "model/snapshot.h"
#include "model/task.h"
#include "render/json.h"
#include "util/buf.h"
#include "util/json.h"
#include "util/text.h"
#include "view/rows.h"

static const char *jstr(const char *s, size_t len)
{
	static char out[512];
	struct buf b;
	buf_init(&b);
	json_add_string(&b, s, len);
	ck_assert_uint_lt(b.len, sizeof(out));
	memcpy(out, buf_str(&b), b.len + 1);
	buf_free(&b);
	return out;
}

#define JSTR(lit) jstr(lit, sizeof(lit) - 1)

static const char *jnum(double v, int decimals)
{
	static char out[512];
	struct buf b;
	buf_init(&b);
	json_add_double(&b, v, decimals);
	ck_assert_uint_lt(b.len, sizeof(out));
	memcpy(out, buf_str(&b), b.len + 1);
	buf_free(&b);
	return out;
}

/* A JSON number: -? int frac? exp? */
static bool is_json_number(const char *s)
{
	const char *p = s;
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return false;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0';
}

/* ---- strings ---- */

START_TEST(string_plain)
{
	ck_assert_str_eq(JSTR("bash"), "\"bash\"");
	ck_assert_str_eq(JSTR(""), "\"\"");
}
END_TEST

START_TEST(string_quote_and_backslash)
{
	ck_assert_str_eq(JSTR("a\"b"), "\"a\\\"b\"");
	ck_assert_str_eq(JSTR("C:\\dir\\"), "\"C:\\\\dir\\\\\"");
	ck_assert_str_eq(JSTR("\"\\\""), "\"\\\"\\\\\\\"\"");
}
END_TEST

START_TEST(string_control_chars)
{
	ck_assert_str_eq(JSTR("a\nb"), "\"a\\nb\"");
	ck_assert_str_eq(JSTR("\t\r\b\f"), "\"\\t\\r\\b\\f\"");
	ck_assert_str_eq(JSTR("\x01"), "\"\\u0001\"");
	ck_assert_str_eq(JSTR("\x1b[2J"), "\"\\u001b[2J\"");
	ck_assert_str_eq(JSTR("\x1f"), "\"\\u001f\"");
	/* a NUL inside the given length is data, not the end */
	ck_assert_str_eq(jstr("a\0b", 3), "\"a\\u0000b\"");
	ck_assert_str_eq(JSTR(" "), "\" \"");
}
END_TEST

START_TEST(string_del_c1_bidi_separators_escaped)
{
	/* JSON allows them raw, but they act on a terminal showing the output,
	 * reorder text, or end a line for JavaScript and Unicode line splitters */
	ck_assert_str_eq(JSTR("a\x7f" "b"), "\"a\\u007fb\"");
	ck_assert_str_eq(JSTR("\xc2\x80"), "\"\\u0080\"");
	ck_assert_str_eq(JSTR("\xc2\x85"), "\"\\u0085\""); /* NEL */
	ck_assert_str_eq(JSTR("\xc2\x9b" "2J"), "\"\\u009b2J\""); /* CSI */
	ck_assert_str_eq(JSTR("\xc2\x9f"), "\"\\u009f\"");
	ck_assert_str_eq(JSTR("\xd8\x9c"), "\"\\u061c\"");
	ck_assert_str_eq(JSTR("\xe2\x80\x8e\xe2\x80\x8f"), "\"\\u200e\\u200f\"");
	ck_assert_str_eq(JSTR("\xe2\x80\xa8\xe2\x80\xa9"), "\"\\u2028\\u2029\"");
	ck_assert_str_eq(JSTR("\xe2\x80\xaa\xe2\x80\xae"), "\"\\u202a\\u202e\"");
	ck_assert_str_eq(JSTR("\xe2\x81\xa6\xe2\x81\xa9"), "\"\\u2066\\u2069\"");
	/* the neighbours stay as they are */
	ck_assert_str_eq(JSTR("\xc2\xa0~"), "\"\xc2\xa0~\"");
	ck_assert_str_eq(JSTR("\xe2\x80\x8d\xe2\x80\xaf\xe2\x81\xa5"), "\"\xe2\x80\x8d\xe2\x80\xaf\xe2\x81\xa5\"");
	/* no byte of the output is a raw DEL, C1, bidi control or separator */
	for (uint32_t cp = 0; cp <= 0x2100; cp++) {
		char in[4];
		size_t n = utf8_encode(cp, in);
		const char *out = jstr(in, n);
		bool escaped = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x61c || cp == 0x200e || cp == 0x200f ||
			       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
		if (escaped)
			ck_assert_msg(out[1] == '\\', "U+%04X not escaped", (unsigned)cp);
	}
}
END_TEST

START_TEST(string_valid_utf8_kept)
{
	ck_assert_str_eq(JSTR("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
	ck_assert_str_eq(JSTR("\xe6\x97\xa5\xe6\x9c\xac"), "\"\xe6\x97\xa5\xe6\x9c\xac\"");
	ck_assert_str_eq(JSTR("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");
}
END_TEST

START_TEST(string_invalid_utf8_replaced)
{
	ck_assert_str_eq(JSTR("a\xff" "b"), "\"a\xef\xbf\xbd" "b\"");
	ck_assert_str_eq(JSTR("\x80"), "\"\xef\xbf\xbd\"");
	ck_assert_str_eq(JSTR("\xc0\xaf"), "\"\xef\xbf\xbd\xef\xbf\xbd\"");           /* overlong */
	ck_assert_str_eq(JSTR("\xed\xa0\x80"), "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""); /* surrogate */
	/* a multi-byte character cut at the end of the name */
	ck_assert_str_eq(JSTR("x\xe2\x82"), "\"x\xef\xbf\xbd\xef\xbf\xbd\"");
	/* a cut character followed by a quote: the quote is still escaped */
	ck_assert_str_eq(JSTR("\xe2\x82\""), "\"\xef\xbf\xbd\xef\xbf\xbd\\\"\"");
}
END_TEST

/* ---- numbers ---- */

START_TEST(number_decimals)
{
	ck_assert_str_eq(jnum(12.5, 2), "12.50");
	ck_assert_str_eq(jnum(1.23456, 3), "1.235");
	ck_assert_str_eq(jnum(0, 2), "0.00");
	ck_assert_str_eq(jnum(-3.25, 2), "-3.25");
	ck_assert_str_eq(jnum(7, 0), "7");
}
END_TEST

START_TEST(number_negative_zero)
{
	ck_assert_str_eq(jnum(-0.0, 2), "0.00");
	ck_assert_str_eq(jnum(-0.001, 2), "0.00");
}
END_TEST

START_TEST(number_not_finite_is_null)
{
	ck_assert_str_eq(jnum(NAN, 2), "null");
	ck_assert_str_eq(jnum(INFINITY, 2), "null");
	ck_assert_str_eq(jnum(-INFINITY, 3), "null");
}
END_TEST

START_TEST(number_huge_parses_back)
{
	/* plugins may report any finite float: it must come out whole, not cut */
	static const double vals[] = {1e300, -1.7976931348623157e308, 123456789012345678901234567890.0, 4e21};
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		const char *s = jnum(vals[i], 3);
		ck_assert_msg(is_json_number(s), "not a JSON number: %s", s);
		double back = strtod(s, NULL);
		ck_assert_msg(fabs(back - vals[i]) <= fabs(vals[i]) * 1e-15, "%s is not %g", s, vals[i]);
	}
}
END_TEST

START_TEST(number_ignores_decimal_comma_locale)
{
	/* taskview runs with the user's locale; a decimal comma would break the JSON */
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
	char probe[16];
	snprintf(probe, sizeof(probe), "%.1f", 1.5);
	ck_assert_str_eq(probe, "1,5"); /* the locale really uses a comma */
	ck_assert_str_eq(jnum(1.5, 2), "1.50");
	ck_assert_str_eq(jnum(-1700000000.25, 3), "-1700000000.250");
	ck_assert_str_eq(jnum(-0.001, 2), "0.00");
	ck_assert(is_json_number(jnum(1e300, 2)));
	setlocale(LC_NUMERIC, "C");
}
END_TEST

/* ---- a whole sample ---- */

static struct colset cs;
static struct snapshot snap;

static void sample_setup(void)
{
	ck_assert_int_eq(colset_init(&cs), 0);
	memset(&snap, 0, sizeof(snap));
	snap.wall = 1700000000.25;
	snap.self.cpu_ms = NAN;
	snap.self.rss_kib = TV_UNKNOWN;
	snap.nprocs = 2;
	snap.procs = calloc(2, sizeof(*snap.procs));
	ck_assert_ptr_nonnull(snap.procs);

	struct tv_task *p = &snap.procs[0];
	task_init(p);
	p->tid = p->tgid = 2;
	p->state = 'S';
	task_set_comm(p, "kthreadd", sizeof("kthreadd"));
	p->cmdline = strdup("[kthreadd]");
	p->cpu_pct = 0.0;
	p->user = "root";

	p = &snap.procs[1];
	task_init(p);
	p->tid = p->tgid = 100;
	p->ppid = 1;
	p->state = 'S';
	task_set_comm(p, "we\"ird\n", sizeof("we\"ird\n"));
	p->cmdline = strdup("/bin/x --flag=\x1b[31m \xff");
	p->cpu_pct = 12.5;
	task_mem_mut(p)->pte = 52;
	task_mem_mut(p)->rss = 1796;
	p->delay_avg_ms[TV_DELAY_IO] = 1.23456;
	p->user = "root";
	/* a thread exited: cpu and the io delay are lower bounds; ctxt_vol is not a column here */
	p->partial = TV_PART_BIT(TV_PART_CPU) | TV_PART_BIT(TV_PART_DELAY + TV_DELAY_IO) |
		     TV_PART_BIT(TV_PART_CTXT_VOL);
	p->threads = calloc(1, sizeof(*p->threads));
	ck_assert_ptr_nonnull(p->threads);
	p->nthreads_read = 1;
	p->threads_complete = p->threads_are_rows = true;
	struct tv_task *t = &p->threads[0];
	task_init(t);
	t->tid = 101;
	t->tgid = 100;
	t->ppid = 1;
	t->is_thread = true;
	t->state = 'R';
	task_set_comm(t, "worker", sizeof("worker"));
	t->user = NULL;
}

static void sample_teardown(void)
{
	snapshot_free(&snap);
	colset_free(&cs);
}

static char *render(const char *ids, const struct json_state *extra)
{
	struct colsel sel;
	char *bad = NULL;
	if (ids)
		ck_assert_int_eq(colsel_parse(&cs, ids, &sel, &bad), 0);
	struct view_opts vo = {.cs = &cs, .sort_col = colset_index(&cs, "pid"), .all_threads = true};
	struct rows rows;
	ck_assert_int_eq(rows_build(&snap, &vo, &rows), 0);
	struct buf b;
	buf_init(&b);
	json_render_sample(&b, &snap, 2.0, &rows, &cs, ids ? &sel : NULL, extra, NULL);
	char *s = strdup(buf_str(&b));
	ck_assert_ptr_nonnull(s);
	buf_free(&b);
	rows_free(&rows);
	if (ids)
		colsel_free(&sel);
	return s;
}

START_TEST(sample_exact_line)
{
	char *s = render("pid,tgid,comm,command,state,cpu,vm_pte,io_delay_avg,user", NULL);
	ck_assert_str_eq(s,
		"{\"timestamp\": 1700000000.250, \"interval\": 2.000, "
		"\"self\": {\"cpu_ms\": null, \"rss_kib\": null, \"proc_opens\": 0, \"proc_reads\": 0, "
		"\"taskstats_queries\": 0, \"kept_fds\": 0, \"cgroup_opens\": 0, \"cgroup_reads\": 0, "
		"\"reader\": null, \"reader_why\": null}, "
		"\"exits\": {\"watched\": false, \"reason\": null, \"records\": 0, \"lost\": 0, \"ended\": null, "
		"\"unplaced\": null, \"source\": null}, "
		"\"pressure\": {\"cpu\": {\"some\": null, \"full\": null}, \"io\": {\"some\": null, \"full\": null}, "
		"\"memory\": {\"some\": null, \"full\": null}, \"reason\": null}, \"tasks\": ["
		"{\"kind\": \"process\", \"pid\": 2, \"tgid\": 2, \"comm\": \"kthreadd\", \"command\": \"[kthreadd]\", "
		"\"state\": \"S\", \"cpu\": 0.00, \"vm_pte\": null, \"io_delay_avg\": null, \"user\": \"root\", "
		"\"partial\": []}, "
		"{\"kind\": \"process\", \"pid\": 100, \"tgid\": 100, \"comm\": \"we\\\"ird\\n\", "
		"\"command\": \"/bin/x --flag=\\u001b[31m \xef\xbf\xbd\", \"state\": \"S\", \"cpu\": 12.50, "
		"\"vm_pte\": 52, \"io_delay_avg\": 1.235, \"user\": \"root\", \"partial\": [\"cpu\", \"io_delay_avg\"]}, "
		"{\"kind\": \"thread\", \"pid\": 101, \"tgid\": 100, \"comm\": \"worker\", \"command\": \"worker\", "
		"\"state\": \"R\", \"cpu\": null, \"vm_pte\": null, \"io_delay_avg\": null, \"user\": null, "
		"\"partial\": []}"
		"], \"rejected\": []}\n");
	free(s);
}
END_TEST

START_TEST(sample_every_column_one_line)
{
	char *s = render(NULL, NULL);
	/* one line, whatever the names hold */
	char *nl = strchr(s, '\n');
	ck_assert_ptr_nonnull(nl);
	ck_assert_ptr_null(strchr(nl + 1, '\n'));
	ck_assert_int_eq(nl[1], '\0');
	ck_assert_ptr_null(strchr(s, '\x1b'));
	/* every column once per row: three rows */
	const char *tasks = strstr(s, "\"tasks\": [");
	ck_assert_ptr_nonnull(tasks);
	for (size_t i = 0; i < cs.n; i++) {
		char key[64];
		snprintf(key, sizeof(key), "\"%s\": ", cs.cols[i].id);
		size_t count = 0;
		for (const char *p = tasks; (p = strstr(p, key)); p += strlen(key))
			count++;
		ck_assert_msg(count == 3, "%s appears %zu times", key, count);
	}
	ck_assert_ptr_nonnull(strstr(s, "\"kind\": \"thread\""));
	ck_assert_ptr_nonnull(strstr(s, "\"vm_size\": null"));
	ck_assert_ptr_nonnull(strstr(s, "\"ppid\": 1,"));
	free(s);
}
END_TEST

START_TEST(sample_state_object)
{
	struct json_state st = {.name = "delayacct", .state = "off", .message = "switch \"it\" on"};
	char *s = render("pid", &st);
	ck_assert_ptr_nonnull(strstr(s, "\"interval\": 2.000, \"delayacct\": {\"state\": \"off\", "
				     "\"message\": \"switch \\\"it\\\" on\"}, \"self\": {"));
	free(s);
	st.message = NULL;
	s = render("pid", &st);
	ck_assert_ptr_nonnull(strstr(s, "\"delayacct\": {\"state\": \"off\", \"message\": null}"));
	free(s);
}
END_TEST

START_TEST(sample_rejected_steps)
{
	struct tv_reject r = {.tid = 101, .tgid = 100, .is_thread = true, .cls = TV_DELAY_IO, .step_s = 24818.5,
			      .bound_s = 301.25};
	snap.rejects = malloc(sizeof(r));
	ck_assert_ptr_nonnull(snap.rejects);
	snap.rejects[0] = r;
	snap.nrejects = 1;
	char *s = render("pid", NULL);
	ck_assert_ptr_nonnull(strstr(s, ", \"rejected\": [{\"kind\": \"thread\", \"pid\": 101, \"tgid\": 100, "
				     "\"column\": \"io_delay\", \"step_s\": 24818.500, \"bound_s\": 301.250}]}\n"));
	free(s);
}
END_TEST

START_TEST(sample_pressure)
{
	snap.pressure[TV_RES_IO] = (struct tv_pressure){.some_known = true, .some_avg10 = 1.5, .some_us = 123456,
						       .some_pct = 2.25, .full_known = true, .full_avg10 = 0.5,
						       .full_us = 789, .full_pct = NAN};
	snap.pressure_why = NULL;
	char *s = render("pid", NULL);
	ck_assert_ptr_nonnull(strstr(s, "\"io\": {\"some\": {\"avg10\": 1.50, \"pct\": 2.25, \"total_us\": 123456}, "
				     "\"full\": {\"avg10\": 0.50, \"pct\": null, \"total_us\": 789}}"));
	free(s);
	snap.pressure_why = "pressure stall information is off: boot with psi=1";
	s = render("pid", NULL);
	ck_assert_ptr_nonnull(strstr(s, "\"reason\": \"pressure stall information is off: boot with psi=1\"}"));
	free(s);
}
END_TEST

START_TEST(sample_no_rows)
{
	snapshot_free(&snap);
	char *s = render("pid", NULL);
	ck_assert_ptr_nonnull(strstr(s, "\"tasks\": [], \"rejected\": []}\n"));
	free(s);
}
END_TEST

static Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("strings");
	tcase_add_test(tc, string_plain);
	tcase_add_test(tc, string_quote_and_backslash);
	tcase_add_test(tc, string_control_chars);
	tcase_add_test(tc, string_del_c1_bidi_separators_escaped);
	tcase_add_test(tc, string_valid_utf8_kept);
	tcase_add_test(tc, string_invalid_utf8_replaced);
	suite_add_tcase(s, tc);

	tc = tcase_create("numbers");
	tcase_add_test(tc, number_decimals);
	tcase_add_test(tc, number_negative_zero);
	tcase_add_test(tc, number_not_finite_is_null);
	tcase_add_test(tc, number_huge_parses_back);
	tcase_add_test(tc, number_ignores_decimal_comma_locale);
	suite_add_tcase(s, tc);

	tc = tcase_create("sample");
	tcase_add_checked_fixture(tc, sample_setup, sample_teardown);
	tcase_add_test(tc, sample_exact_line);
	tcase_add_test(tc, sample_every_column_one_line);
	tcase_add_test(tc, sample_state_object);
	tcase_add_test(tc, sample_no_rows);
	tcase_add_test(tc, sample_rejected_steps);
	tcase_add_test(tc, sample_pressure);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(json_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
