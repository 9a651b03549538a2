/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A process's mappings by kind. The maps lines follow those of a 6.18
 * x86_64 machine (a glibc program with two thread stacks, one malloc arena
 * and its heap), shortened; the traps are written in.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sample/memory/anatomy_parse.h"

static const char *const MAPS[] = {
	"5581c0a00000-5581c0a02000 r--p 00000000 fd:01 1311 /usr/bin/tv-workload",
	"5581c0a02000-5581c0a05000 r-xp 00002000 fd:01 1311 /usr/bin/tv-workload",
	"5581c0a05000-5581c0a06000 rw-p 00005000 fd:01 1311 /usr/bin/tv-workload",
	"5581c1e9c000-5581c1ebd000 rw-p 00000000 00:00 0                          [heap]",
	/* a malloc arena: 132 KiB of memory, then the rest of 64 MiB reserved */
	"7f3e74000000-7f3e74021000 rw-p 00000000 00:00 0 ",
	"7f3e74021000-7f3e78000000 ---p 00000000 00:00 0 ",
	/* two thread stacks of 8 MiB, each above its 4 KiB guard */
	"7f3e7bfff000-7f3e7c000000 ---p 00000000 00:00 0 ",
	"7f3e7c000000-7f3e7c800000 rw-p 00000000 00:00 0 ",
	"7f3e7c800000-7f3e7c801000 ---p 00000000 00:00 0 ",
	"7f3e7c801000-7f3e7d001000 rw-p 00000000 00:00 0 ",
	/* a library: its alignment gap is a file's too */
	"7f3e7d001000-7f3e7d029000 r--p 00000000 fd:01 2048 /usr/lib/x86_64-linux-gnu/libc.so.6",
	"7f3e7d029000-7f3e7d1b1000 r-xp 00028000 fd:01 2048 /usr/lib/x86_64-linux-gnu/libc.so.6",
	"7f3e7d1b1000-7f3e7d200000 ---p 001b0000 fd:01 2048 /usr/lib/x86_64-linux-gnu/libc.so.6",
	/* anonymous memory the program named, one not above a guard, and shared memory */
	"7f3e7d200000-7f3e7d210000 rw-p 00000000 00:00 0    [anon:tv buffer]",
	"7f3e7d300000-7f3e7d304000 rw-p 00000000 00:00 0 ",
	"7f3e7d400000-7f3e7d500000 rw-s 00000000 00:01 77   /dev/zero (deleted)",
	"7f3e7d600000-7f3e7d601000 ---p 00000000 00:00 0 ",
	"7ffc10b85000-7ffc10ba6000 rw-p 00000000 00:00 0                          [stack]",
	"7ffc10bf0000-7ffc10bf4000 r--p 00000000 00:00 0                          [vvar]",
	"7ffc10bf4000-7ffc10bf6000 r-xp 00000000 00:00 0                          [vdso]",
	"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]",
};

static void feed(struct anatomy *a)
{
	anatomy_init(a);
	for (size_t i = 0; i < sizeof(MAPS) / sizeof(MAPS[0]); i++)
		ck_assert_int_eq(anatomy_add(a, MAPS[i], strlen(MAPS[i])), 0);
	anatomy_finish(a);
}

START_TEST(kinds)
{
	struct anatomy a;
	feed(&a);
	/* two thread stacks and the main one */
	ck_assert_uint_eq(a.count[ANAT_STACK], 3);
	ck_assert_int_eq(a.kib[ANAT_STACK], 2 * 8192 + 132);
	/* two guards and the lone inaccessible page */
	ck_assert_int_eq(a.kib[ANAT_GUARD], 3 * 4);
	/* [heap] (132 KiB) and the arena's whole 64 MiB */
	ck_assert_uint_eq(a.count[ANAT_HEAP], 2);
	ck_assert_int_eq(a.kib[ANAT_HEAP], 132 + 65536);
	/* the program's and libc's mappings (the gap included), /dev/zero shared */
	ck_assert_int_eq(a.kib[ANAT_FILE], 8 + 12 + 4 + 160 + 1568 + 316 + 1024);
	/* named, lone, vvar and vdso; not vsyscall */
	ck_assert_int_eq(a.kib[ANAT_ANON], 64 + 16 + 16 + 8);
	ck_assert_int_eq(anatomy_total(&a), a.kib[ANAT_STACK] + a.kib[ANAT_GUARD] + a.kib[ANAT_HEAP] +
						     a.kib[ANAT_FILE] + a.kib[ANAT_ANON]);
	/* the private anonymous ranges kept for their pages, ascending, by kind */
	ck_assert_uint_eq(a.nranges, 7);
	ck_assert_int_eq(a.ranges[0].kind, ANAT_HEAP);           /* [heap] */
	ck_assert_uint_eq(a.ranges[1].hi, 0x7f3e74021000ULL);     /* the arena's memory, not its reserve */
	ck_assert_int_eq(a.ranges[1].kind, ANAT_HEAP);
	ck_assert_int_eq(a.ranges[2].kind, ANAT_STACK);
	ck_assert_uint_eq(a.ranges[2].lo, 0x7f3e7c000000ULL);     /* above the guard */
	ck_assert_int_eq(a.ranges[3].kind, ANAT_STACK);
	ck_assert_int_eq(a.ranges[4].kind, ANAT_ANON);
	ck_assert_int_eq(a.ranges[5].kind, ANAT_ANON);
	ck_assert_int_eq(a.ranges[6].kind, ANAT_STACK);           /* [stack] */
	for (size_t i = 1; i < a.nranges; i++)
		ck_assert(a.ranges[i].lo >= a.ranges[i - 1].hi);
	anatomy_free(&a);
}
END_TEST

/* Above a reservation bigger than a guard, memory is no stack (a sanitizer's shadow, an allocator's chunks). */
START_TEST(no_stack_above_reserve)
{
	static const char *const L[] = {
		"00008fff7000-02008fff7000 ---p 00000000 00:00 0 ",
		"02008fff7000-10007fff8000 rw-p 00000000 00:00 0 ",
		"7f3e7bfff000-7f3e7c000000 ---p 00000000 00:00 0 ",
		"7f3e7c000000-7f3e7c800000 rw-p 00000000 00:00 0 ",
	};
	struct anatomy a;
	anatomy_init(&a);
	for (size_t i = 0; i < 4; i++)
		anatomy_add(&a, L[i], strlen(L[i]));
	anatomy_finish(&a);
	ck_assert_uint_eq(a.count[ANAT_STACK], 1);
	ck_assert_int_eq(a.kib[ANAT_STACK], 8192);
	ck_assert_uint_eq(a.count[ANAT_ANON], 1);
	anatomy_free(&a);
}
END_TEST

/* An arena is told by its shape alone: unaligned, or not 64 MiB, it is not one. */
START_TEST(arena_shape)
{
	static const char *const L[] = {
		"7f3e74001000-7f3e74021000 rw-p 00000000 00:00 0 ",
		"7f3e74021000-7f3e78001000 ---p 00000000 00:00 0 ",
		"7f3e80000000-7f3e80021000 rw-p 00000000 00:00 0 ",
		"7f3e80021000-7f3e82000000 ---p 00000000 00:00 0 ",
	};
	struct anatomy a;
	anatomy_init(&a);
	for (size_t i = 0; i < 4; i++)
		anatomy_add(&a, L[i], strlen(L[i]));
	anatomy_finish(&a);
	ck_assert_uint_eq(a.count[ANAT_HEAP], 0);
	ck_assert_int_eq(a.kib[ANAT_ANON], 128 + 132);
	ck_assert_int_eq(a.kib[ANAT_GUARD], 65536 - 128 + 32768 - 132);
	anatomy_free(&a);
}
END_TEST

START_TEST(line_fields)
{
	struct maps_entry e;
	const char *s = "7f3e7d400000-7f3e7d500000 rw-s 00000000 00:01 77   /dev/zero (deleted)\n";
	ck_assert_int_eq(anatomy_parse_line(s, strlen(s), &e), 0);
	ck_assert_uint_eq(e.lo, 0x7f3e7d400000ULL);
	ck_assert_uint_eq(e.hi, 0x7f3e7d500000ULL);
	ck_assert(memcmp(e.perms, "rw-s", 4) == 0);
	ck_assert_uint_eq(e.inode, 77);
	ck_assert_uint_eq(e.name_len, strlen("/dev/zero (deleted)"));
	ck_assert(memcmp(e.name, "/dev/zero (deleted)", e.name_len) == 0);
	/* no name at all */
	s = "10-20 rw-p 00000000 00:00 0";
	ck_assert_int_eq(anatomy_parse_line(s, strlen(s), &e), 0);
	ck_assert_uint_eq(e.name_len, 0);
}
END_TEST

START_TEST(junk)
{
	static const char *const bad[] = {
		"", "10-", "20-10 rw-p 0 00:00 0", "10-20 rw-p", "10-20 rw 0 00:00 0", "10-20 rw-p 0 00:00 x7",
		"10-20x rw-p 0 00:00 0", "10000000000000000-20 rw-p 0 00:00 0", "10-20 rw-p 0 00:00 99999999999999999999",
	};
	struct anatomy a;
	anatomy_init(&a);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(anatomy_add(&a, bad[i], strlen(bad[i])) == -1, "accepted: %s", bad[i]);
	anatomy_finish(&a);
	ck_assert_int_eq(anatomy_total(&a), 0);
	ck_assert_uint_eq(a.nranges, 0);
	anatomy_free(&a);
}
END_TEST

static Suite *anatomy_suite(void)
{
	Suite *s = suite_create("anatomy_parse");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, kinds);
	tcase_add_test(tc, arena_shape);
	tcase_add_test(tc, no_stack_above_reserve);
	tcase_add_test(tc, line_fields);
	tcase_add_test(tc, junk);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(anatomy_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
