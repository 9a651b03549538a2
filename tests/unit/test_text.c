/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rendering untrusted bytes for a terminal: nothing from a task name may
 * reach the terminal as a control sequence, and display widths must hold
 * with wide characters.
 */
#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/text.h"

/* Sanitized form of s (NUL-terminated input), in a static buffer. */
static const char *san(const char *s, size_t max_cols, bool utf8, size_t *width)
{
	static char out[512];
	struct buf b;
	buf_init(&b);
	size_t w = text_sanitize(&b, s, strlen(s), max_cols, utf8);
	if (width)
		*width = w;
	ck_assert_uint_lt(b.len, sizeof(out));
	memcpy(out, buf_str(&b), b.len + 1);
	buf_free(&b);
	return out;
}

static const char *fit(const char *s, size_t cols, bool left, bool utf8)
{
	static char out[512];
	struct buf b;
	buf_init(&b);
	text_fit(&b, s, cols, left, utf8);
	ck_assert_uint_lt(b.len, sizeof(out));
	memcpy(out, buf_str(&b), b.len + 1);
	buf_free(&b);
	return out;
}

/* Columns the terminal uses for already safe output. */
static size_t display_cols(const char *s)
{
	size_t cols = 0, i = 0, n = strlen(s);
	while (i < n) {
		uint32_t cp;
		size_t k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
		ck_assert_uint_gt(k, 0); /* the output is always valid UTF-8 */
		cols += (size_t)text_cp_width(cp);
		i += k;
	}
	return cols;
}

static bool has_control_byte(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return true;
	return false;
}

/* ---- decoding ---- */

START_TEST(decode_valid)
{
	uint32_t cp = 0;
	ck_assert_uint_eq(utf8_decode((const unsigned char *)"A", 1, &cp), 1);
	ck_assert_uint_eq(cp, 'A');
	ck_assert_uint_eq(utf8_decode((const unsigned char *)"\xc3\xa9", 2, &cp), 2);
	ck_assert_uint_eq(cp, 0xe9);
	ck_assert_uint_eq(utf8_decode((const unsigned char *)"\xe2\x82\xac", 3, &cp), 3);
	ck_assert_uint_eq(cp, 0x20ac);
	ck_assert_uint_eq(utf8_decode((const unsigned char *)"\xf0\x9f\x98\x80", 4, &cp), 4);
	ck_assert_uint_eq(cp, 0x1f600);
	ck_assert_uint_eq(utf8_decode((const unsigned char *)"\xf4\x8f\xbf\xbf", 4, &cp), 4);
	ck_assert_uint_eq(cp, 0x10ffff);
	ck_assert_uint_eq(utf8_decode((const unsigned char *)"\xed\x9f\xbf", 3, &cp), 3); /* U+D7FF */
	ck_assert_uint_eq(cp, 0xd7ff);
	ck_assert_uint_eq(utf8_decode((const unsigned char *)"\xee\x80\x80", 3, &cp), 3); /* U+E000 */
	ck_assert_uint_eq(cp, 0xe000);
}
END_TEST

START_TEST(decode_rejects_invalid)
{
	static const struct {
		const char *s;
		size_t n;
	} bad[] = {
		{"\xc0\x80", 2},         /* overlong NUL */
		{"\xc1\xbf", 2},         /* overlong '?' */
		{"\xe0\x80\xaf", 3},     /* overlong '/' */
		{"\xe0\x9f\xbf", 3},     /* overlong U+07FF */
		{"\xf0\x80\x80\xaf", 4}, /* overlong '/' */
		{"\xf0\x8f\xbf\xbf", 4}, /* overlong U+FFFF */
		{"\xed\xa0\x80", 3},     /* U+D800 surrogate */
		{"\xed\xbf\xbf", 3},     /* U+DFFF surrogate */
		{"\xf4\x90\x80\x80", 4}, /* U+110000 */
		{"\xf5\x80\x80\x80", 4},
		{"\xff", 1},
		{"\x80", 1},             /* lone continuation */
		{"\xc3", 1},             /* truncated */
		{"\xe2\x82", 2},
		{"\xf0\x9f\x98", 3},
		{"\xc3\x28", 2},         /* continuation missing */
		{"\xe2\x28\xac", 3},
		{"\xf0\x9f\x28\x80", 4},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint32_t cp = 0x12345;
		ck_assert_msg(utf8_decode((const unsigned char *)bad[i].s, bad[i].n, &cp) == 0, "accepted #%zu", i);
		ck_assert_uint_eq(cp, 0x12345);
	}
	uint32_t cp;
	ck_assert_uint_eq(utf8_decode((const unsigned char *)"", 0, &cp), 0);
	/* a valid sequence cut by the length given */
	ck_assert_uint_eq(utf8_decode((const unsigned char *)"\xe2\x82\xac", 2, &cp), 0);
}
END_TEST

START_TEST(encode_roundtrip)
{
	static const uint32_t cps[] = {0, 'a', 0x7f, 0x80, 0x7ff, 0x800, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff};
	for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]); i++) {
		char enc[4];
		size_t n = utf8_encode(cps[i], enc);
		uint32_t back = 0xffffffff;
		ck_assert_uint_eq(utf8_decode((const unsigned char *)enc, n, &back), n);
		ck_assert_uint_eq(back, cps[i]);
	}
}
END_TEST

START_TEST(cp_width)
{
	ck_assert_int_eq(text_cp_width('a'), 1);
	ck_assert_int_eq(text_cp_width(0xe9), 1);     /* é */
	ck_assert_int_eq(text_cp_width(0x65e5), 2);   /* 日 */
	ck_assert_int_eq(text_cp_width(0xac00), 2);   /* 가 */
	ck_assert_int_eq(text_cp_width(0xff21), 2);   /* fullwidth A */
	ck_assert_int_eq(text_cp_width(0x1f600), 2);  /* emoji */
	ck_assert_int_eq(text_cp_width(0x0301), 0);   /* combining acute */
	ck_assert_int_eq(text_cp_width(0x200b), 0);   /* zero width space */
}
END_TEST

/* ---- sanitizing ---- */

START_TEST(sanitize_plain_ascii)
{
	size_t w;
	ck_assert_str_eq(san("bash -l", SIZE_MAX, true, &w), "bash -l");
	ck_assert_uint_eq(w, 7);
}
END_TEST

START_TEST(sanitize_escape_sequences)
{
	size_t w;
	/* "clear screen" in a process name must not clear the screen */
	ck_assert_str_eq(san("\x1b[2J", SIZE_MAX, true, &w), "\\e[2J");
	ck_assert_uint_eq(w, 5);
	ck_assert_str_eq(san("x\x1b]0;owned\x07y", SIZE_MAX, true, NULL), "x\\e]0;owned\\x07y");
	ck_assert_str_eq(san("a\nb\tc\rd", SIZE_MAX, true, NULL), "a\\nb\\tc\\rd");
	ck_assert_str_eq(san("\x01\x1f\x7f", SIZE_MAX, true, NULL), "\\x01\\x1f\\x7f");
	/* a backslash is doubled, so "\\n" in a name is told apart from a newline */
	ck_assert_str_eq(san("a\\nb", SIZE_MAX, true, &w), "a\\\\nb");
	ck_assert_uint_eq(w, 5);
	/* same in ASCII mode */
	ck_assert_str_eq(san("\x1b[2J\n", SIZE_MAX, false, NULL), "\\e[2J\\n");
}
END_TEST

START_TEST(sanitize_own_text_keeps_backslash)
{
	/* a key name like "\, F4" shows with one backslash; controls are still escaped */
	struct buf b;
	buf_init(&b);
	const char *key = "\\, F4\x1b[2J";
	size_t w = text_sanitize_own(&b, key, strlen(key), SIZE_MAX, true);
	ck_assert_str_eq(buf_str(&b), "\\, F4\\e[2J");
	ck_assert_uint_eq(w, 10);
	buf_free(&b);
}
END_TEST

START_TEST(sanitize_c1_bidi_zero_width)
{
	/* U+009B is a one-byte CSI on some terminals; U+202E flips text; U+200B hides */
	ck_assert_str_eq(san("a\xc2\x9b" "2Jb", SIZE_MAX, true, NULL), "a\\u009b2Jb");
	ck_assert_str_eq(san("\xc2\x85", SIZE_MAX, true, NULL), "\\u0085");
	ck_assert_str_eq(san("abc\xe2\x80\xaetxt.exe", SIZE_MAX, true, NULL), "abc\\u202etxt.exe");
	ck_assert_str_eq(san("\xe2\x81\xa6x\xe2\x81\xa9", SIZE_MAX, true, NULL), "\\u2066x\\u2069");
	ck_assert_str_eq(san("\xe2\x80\xa8", SIZE_MAX, true, NULL), "\\u2028");
	ck_assert_str_eq(san("ad\xe2\x80\x8bmin", SIZE_MAX, true, NULL), "ad\\u200bmin");
	/* and escaped in ASCII mode too, not turned into '?' */
	ck_assert_str_eq(san("\xe2\x80\xae", SIZE_MAX, false, NULL), "\\u202e");
}
END_TEST

/* The sanitized form of one code point. */
static const char *san_cp(uint32_t cp, bool utf8)
{
	char in[5] = {0};
	utf8_encode(cp, in);
	return san(in, SIZE_MAX, utf8, NULL);
}

START_TEST(sanitize_only_assigned_printable)
{
	/* unassigned, private use and noncharacters: the code point, never the raw bytes */
	ck_assert_str_eq(san_cp(0x0378, true), "\\u0378");
	ck_assert_str_eq(san_cp(0x0870 - 1, true), "\\u086f");
	ck_assert_str_eq(san_cp(0xfdd0, true), "\\ufdd0");
	ck_assert_str_eq(san_cp(0xffff, true), "\\uffff");
	ck_assert_str_eq(san_cp(0xe000, true), "\\ue000");
	ck_assert_str_eq(san_cp(0x50000, true), "\\U00050000");
	ck_assert_str_eq(san_cp(0xf0000, true), "\\U000f0000");
	ck_assert_str_eq(san_cp(0x10ffff, true), "\\U0010ffff");
	/* format characters: soft hyphen, Arabic number signs, BOM, tags,
	 * interlinear annotation; invisible fillers */
	static const uint32_t invisible[] = {0x00ad, 0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06dd,
					     0x070f, 0x180e, 0x200d, 0x2060, 0x2064, 0xfeff, 0xfff9, 0xfffb,
					     0x110bd, 0x13430, 0x1d173, 0xe0001, 0xe0041, 0x3164, 0xffa0,
					     0x115f, 0x1160, 0x11a8, 0xd7b0, 0xfe0f, 0x034f};
	for (size_t i = 0; i < sizeof(invisible) / sizeof(invisible[0]); i++) {
		uint32_t cp = invisible[i];
		char want[16];
		snprintf(want, sizeof(want), cp > 0xffff ? "\\U%08x" : "\\u%04x", (unsigned)cp);
		ck_assert_msg(strcmp(san_cp(cp, true), want) == 0, "U+%04X shown as \"%s\"", (unsigned)cp,
			      san_cp(cp, true));
		ck_assert_int_eq(text_cp_width(cp), 0);
		/* the same on an ASCII terminal */
		ck_assert_str_eq(san_cp(cp, false), want);
	}
	/* assigned printable neighbours are shown, with their width */
	static const struct {
		uint32_t cp;
		int width;
	} shown[] = {{0x00a0, 1}, {0x00ae, 1}, {0x0606, 1}, {0x0627, 1}, {0x0e01, 1}, {0x1100, 2}, {0x2e80, 2},
		     {0x3000, 2}, {0x3165, 2}, {0xffa1, 1}, {0xff01, 2}, {0x1f1e6, 1}, {0x1f600, 2}, {0x20000, 2},
		     {0x2a6df, 2}, {0x30000, 2}, {0x1fa70, 2}};
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		char raw[5] = {0};
		utf8_encode(shown[i].cp, raw);
		size_t w;
		ck_assert_msg(strcmp(san(raw, SIZE_MAX, true, &w), raw) == 0, "U+%04X escaped", (unsigned)shown[i].cp);
		ck_assert_msg(w == (size_t)shown[i].width, "U+%04X: width %zu", (unsigned)shown[i].cp, w);
	}
}
END_TEST

START_TEST(sanitize_every_code_point)
{
	/* over all of Unicode: no control byte, the width counted is the
	 * width the shown characters take, and a code point is either shown
	 * whole or escaped (plain checks in the loop: a million ck_asserts
	 * are slow) */
	size_t nshown = 0;
	struct buf b;
	buf_init(&b);
	for (uint32_t cp = 0x80; cp <= 0x10ffff; cp++) {
		if (cp >= 0xd800 && cp <= 0xdfff)
			continue;
		char raw[5] = {0};
		size_t n = utf8_encode(cp, raw);
		buf_reset(&b);
		size_t w = text_sanitize(&b, raw, n, SIZE_MAX, true);
		const char *out = buf_str(&b);
		bool same = b.len == n && memcmp(out, raw, n) == 0;
		bool escaped = out[0] == '\\' && (out[1] == 'u' || out[1] == 'U') && w == b.len;
		if (same ? !(w == 1 || w == 2) || w != (size_t)text_cp_width(cp) : !escaped || has_control_byte(out))
			ck_abort_msg("U+%04X -> \"%s\" width %zu", (unsigned)cp, out, w);
		nshown += same;
	}
	buf_free(&b);
	/* Unicode 15 assigns 149,186 characters; fewer are printable */
	ck_assert_uint_gt(nshown, 140000);
	ck_assert_uint_lt(nshown, 149186);
}
END_TEST

START_TEST(sanitize_invalid_utf8)
{
	size_t w;
	ck_assert_str_eq(san("a\xff" "b", SIZE_MAX, true, &w), "a\xef\xbf\xbd" "b");
	ck_assert_uint_eq(w, 3);
	ck_assert_str_eq(san("a\xff" "b", SIZE_MAX, false, &w), "a?b");
	ck_assert_uint_eq(w, 3);
	/* a cut sequence: one replacement per byte that cannot start a character */
	ck_assert_str_eq(san("\xe2\x82" "A", SIZE_MAX, true, NULL), "\xef\xbf\xbd\xef\xbf\xbd" "A");
	/* an overlong '/' never becomes a '/' */
	ck_assert_str_eq(san("\xc0\xaf", SIZE_MAX, false, NULL), "??");
	ck_assert_str_eq(san("\xed\xa0\x80", SIZE_MAX, false, NULL), "???");
}
END_TEST

START_TEST(sanitize_valid_utf8)
{
	size_t w;
	ck_assert_str_eq(san("caf\xc3\xa9", SIZE_MAX, true, &w), "caf\xc3\xa9");
	ck_assert_uint_eq(w, 4);
	ck_assert_str_eq(san("caf\xc3\xa9", SIZE_MAX, false, &w), "caf?");
	ck_assert_uint_eq(w, 4);
	ck_assert_str_eq(san("\xe6\x97\xa5\xe6\x9c\xac", SIZE_MAX, true, &w), "\xe6\x97\xa5\xe6\x9c\xac");
	ck_assert_uint_eq(w, 4);
	/* non-UTF-8 terminal: one '?' per character, one column each */
	ck_assert_str_eq(san("\xe6\x97\xa5\xe6\x9c\xac", SIZE_MAX, false, &w), "??");
	ck_assert_uint_eq(w, 2);
}
END_TEST

START_TEST(sanitize_no_control_byte_survives)
{
	/* every byte value, alone and after a lead byte: no control byte comes out */
	for (int utf8 = 0; utf8 < 2; utf8++)
		for (int c = 1; c < 256; c++) {
			char in[3] = {(char)c, '\0', '\0'};
			ck_assert_msg(!has_control_byte(san(in, SIZE_MAX, utf8, NULL)), "byte %02x", c);
			char in2[3] = {(char)0xc2, (char)c, '\0'};
			ck_assert_msg(!has_control_byte(san(in2, SIZE_MAX, utf8, NULL)), "c2 %02x", c);
		}
}
END_TEST

START_TEST(sanitize_width_limit)
{
	size_t w;
	ck_assert_str_eq(san("abcdef", 4, true, &w), "abcd");
	ck_assert_uint_eq(w, 4);
	/* an escape is never cut in half */
	ck_assert_str_eq(san("ab\x1b" "c", 3, true, &w), "ab");
	ck_assert_uint_eq(w, 2);
	ck_assert_str_eq(san("ab\x01", 5, true, &w), "ab");
	ck_assert_uint_eq(w, 2);
	ck_assert_str_eq(san("ab\xe2\x80\xae", 7, true, &w), "ab");
	ck_assert_uint_eq(w, 2);
	ck_assert_str_eq(san("abc", 0, true, &w), "");
	ck_assert_uint_eq(w, 0);
}
END_TEST

START_TEST(sanitize_wide_chars_never_exceed)
{
	size_t w;
	/* 日本語 is 6 columns; 5 leave room for two characters only */
	ck_assert_str_eq(san("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 5, true, &w), "\xe6\x97\xa5\xe6\x9c\xac");
	ck_assert_uint_eq(w, 4);
	ck_assert_str_eq(san("a\xe6\x97\xa5", 2, true, &w), "a");
	ck_assert_uint_eq(w, 1);
	ck_assert_str_eq(san("\xe6\x97\xa5", 1, true, &w), "");
	ck_assert_uint_eq(w, 0);
	/* for every limit the width stays within it */
	static const char mix[] = "x\xe6\x97\xa5y\xf0\x9f\x98\x80\x1b\xe2\x80\xae\xffz\xea\xb0\x80";
	size_t full = text_width(mix, strlen(mix), true);
	for (size_t lim = 0; lim <= full + 1; lim++) {
		san(mix, lim, true, &w);
		ck_assert_uint_le(w, lim);
	}
}
END_TEST

START_TEST(width_of_sanitized_form)
{
	ck_assert_uint_eq(text_width("abc", 3, true), 3);
	ck_assert_uint_eq(text_width("\x1b", 1, true), 2);
	ck_assert_uint_eq(text_width("\x01", 1, true), 4);
	ck_assert_uint_eq(text_width("\xe6\x97\xa5", 3, true), 2);
	ck_assert_uint_eq(text_width("\xe6\x97\xa5", 3, false), 1);
	ck_assert_uint_eq(text_width("\xe2\x80\x8b", 3, true), 6);
	ck_assert_uint_eq(text_width("", 0, true), 0);
}
END_TEST

/* ---- fitting into a cell ---- */

START_TEST(fit_pads_and_cuts)
{
	ck_assert_str_eq(fit("ab", 5, true, true), "ab   ");
	ck_assert_str_eq(fit("ab", 5, false, true), "   ab");
	ck_assert_str_eq(fit("abcdefgh", 5, true, true), "abcde");
	ck_assert_str_eq(fit("abcdefgh", 5, false, true), "abcde");
	ck_assert_str_eq(fit("", 3, true, true), "   ");
	ck_assert_str_eq(fit("", 3, false, true), "   ");
	ck_assert_str_eq(fit("abc", 0, true, true), "");
}
END_TEST

START_TEST(fit_wide_chars)
{
	/* a wide character that doesn't fit is dropped and padding fills the cell */
	ck_assert_str_eq(fit("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 5, true, true), "\xe6\x97\xa5\xe6\x9c\xac ");
	ck_assert_str_eq(fit("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 5, false, true), " \xe6\x97\xa5\xe6\x9c\xac");
	ck_assert_str_eq(fit("\xe6\x97\xa5", 1, true, true), " ");
	ck_assert_str_eq(fit("\xe6\x97\xa5", 4, false, true), "  \xe6\x97\xa5");
	/* the cell holds exactly its width in every case */
	static const char *const samples[] = {"\xe6\x97\xa5x\xe6\x97\xa5", "a\x1b[1m", "\xf0\x9f\x98\x80\xf0\x9f\x98\x80",
					      "\xff\xfe", "tab\there"};
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		for (size_t cols = 0; cols < 12; cols++)
			for (int left = 0; left < 2; left++) {
				const char *out = fit(samples[i], cols, left, true);
				ck_assert_uint_eq(display_cols(out), cols);
			}
}
END_TEST

START_TEST(fit_escapes_name)
{
	ck_assert_str_eq(fit("\x1b[2J", 8, true, true), "\\e[2J   ");
	ck_assert_str_eq(fit("a\nb", 6, false, false), "  a\\nb");
}
END_TEST

START_TEST(contains_icase)
{
	ck_assert(text_contains_icase("Firefox", "fire"));
	ck_assert(text_contains_icase("firefox", "FOX"));
	ck_assert(text_contains_icase("abc", ""));
	ck_assert(!text_contains_icase("abc", "abcd"));
	ck_assert(!text_contains_icase("", "a"));
	ck_assert(text_contains_icase("aab", "ab"));
	ck_assert(!text_contains_icase("[", "{")); /* only letters fold */
}
END_TEST

static Suite *text_suite(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("utf8");
	tcase_add_test(tc, decode_valid);
	tcase_add_test(tc, decode_rejects_invalid);
	tcase_add_test(tc, encode_roundtrip);
	tcase_add_test(tc, cp_width);
	suite_add_tcase(s, tc);

	tc = tcase_create("sanitize");
	tcase_add_test(tc, sanitize_plain_ascii);
	tcase_add_test(tc, sanitize_escape_sequences);
	tcase_add_test(tc, sanitize_own_text_keeps_backslash);
	tcase_add_test(tc, sanitize_c1_bidi_zero_width);
	tcase_add_test(tc, sanitize_only_assigned_printable);
	tcase_add_test(tc, sanitize_every_code_point);
	tcase_add_test(tc, sanitize_invalid_utf8);
	tcase_add_test(tc, sanitize_valid_utf8);
	tcase_add_test(tc, sanitize_no_control_byte_survives);
	tcase_add_test(tc, sanitize_width_limit);
	tcase_add_test(tc, sanitize_wide_chars_never_exceed);
	tcase_add_test(tc, width_of_sanitized_form);
	suite_add_tcase(s, tc);

	tc = tcase_create("fit");
	tcase_add_test(tc, fit_pads_and_cuts);
	tcase_add_test(tc, fit_wide_chars);
	tcase_add_test(tc, fit_escapes_name);
	tcase_add_test(tc, contains_icase);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	/* the sanitizer does not depend on the locale; run in UTF-8 all the same */
	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		fprintf(stderr, "test_text: the C.UTF-8 locale is missing\n");
		return EXIT_FAILURE;
	}
	SRunner *sr = srunner_create(text_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
