/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parsers that find a thread's stack. The samples are real lines from a 6.18
 * x86_64 machine (task/TID/syscall of `sleep` in clock_nanosleep, of `cat`
 * in read, and its [stack] line), mutated where a test needs a trap.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sample/memory/stack_parse.h"

static enum stack_sp sp_of(const char *s, uint64_t *sp)
{
	return stack_parse_syscall(s, strlen(s), sp);
}

START_TEST(syscall_forms)
{
	uint64_t sp = 0;
	ck_assert_int_eq(sp_of("230 0x0 0x0 0x7fff2cc24860 0x7fff2cc248a0 0x0 0x0 0x7fff2cc24848 0x7f2d435f5503\n", &sp),
			 STACK_SP_OK);
	ck_assert_uint_eq(sp, 0x7fff2cc24848ULL);
	ck_assert_int_eq(sp_of("0 0x3 0x7f3ff7d99000 0x20000 0x7f3ff7e2ab60 0xffffffff 0x0 0x7ffc10ba4278 0x7f3ff7f132ad", &sp),
			 STACK_SP_OK);
	ck_assert_uint_eq(sp, 0x7ffc10ba4278ULL);
	/* blocked outside a system call (a page fault, a signal stop) */
	ck_assert_int_eq(sp_of("-1 0x7f00deadbee0 0x401000\n", &sp), STACK_SP_OK);
	ck_assert_uint_eq(sp, 0x7f00deadbee0ULL);
	/* the largest address */
	ck_assert_int_eq(sp_of("-1 0xffffffffffffffff 0x1\n", &sp), STACK_SP_OK);
	ck_assert_uint_eq(sp, UINT64_MAX);
}
END_TEST

START_TEST(syscall_running_and_junk)
{
	uint64_t sp = 42;
	ck_assert_int_eq(sp_of("running\n", &sp), STACK_SP_RUNNING);
	ck_assert_int_eq(sp_of("running", &sp), STACK_SP_RUNNING);
	ck_assert_int_eq(sp_of("", &sp), STACK_SP_BAD);
	ck_assert_int_eq(sp_of("\n", &sp), STACK_SP_BAD);
	ck_assert_int_eq(sp_of("0x10 0x20\n", &sp), STACK_SP_BAD);         /* no number before them */
	ck_assert_int_eq(sp_of("-1 0x10000000000000000 0x1\n", &sp), STACK_SP_BAD); /* 65 bits */
	ck_assert_int_eq(sp_of("-1 zz 0x1\n", &sp), STACK_SP_BAD);
	ck_assert_int_eq(sp_of("-1 0x10 0x1x\n", &sp), STACK_SP_BAD);
	ck_assert_int_eq(sp_of("-1  0x10 0x1\n", &sp), STACK_SP_BAD);
	ck_assert_int_eq(sp_of("runnin\n", &sp), STACK_SP_BAD);
	ck_assert_uint_eq(sp, 42); /* untouched when not OK */
}
END_TEST

static int line_of(const char *s, struct maps_line *m)
{
	return stack_parse_maps_line(s, strlen(s), m);
}

START_TEST(maps_lines)
{
	struct maps_line m;
	ck_assert_int_eq(line_of("7fff2cc06000-7fff2cc27000 rw-p 00000000 00:00 0                          [stack]\n", &m), 0);
	ck_assert_uint_eq(m.lo, 0x7fff2cc06000ULL);
	ck_assert_uint_eq(m.hi, 0x7fff2cc27000ULL);
	ck_assert(m.is_stack);
	/* a thread's stack: anonymous, no name */
	ck_assert_int_eq(line_of("7f2d42dff000-7f2d435ff000 rw-p 00000000 00:00 0 \n", &m), 0);
	ck_assert_uint_eq(m.hi - m.lo, 8u << 20);
	ck_assert(!m.is_stack);
	ck_assert_int_eq(line_of("7f2d42dff000-7f2d435ff000 rw-p 00000000 00:00 0", &m), 0);
	ck_assert(!m.is_stack);
	/* a file that ends in the same letters is not the stack */
	ck_assert_int_eq(line_of("400000-401000 r-xp 00000000 08:01 12 /tmp/x[stack]\n", &m), 0);
	ck_assert(!m.is_stack);
	ck_assert_int_eq(line_of("400000-401000 r-xp 00000000 08:01 12 /tmp/a [stack]\n", &m), 0);
	ck_assert(!m.is_stack);
	/* named anonymous memory is not the main stack */
	ck_assert_int_eq(line_of("7f0000000000-7f0000800000 rw-p 00000000 00:00 0 [anon:stack]\n", &m), 0);
	ck_assert(!m.is_stack);
}
END_TEST

/* Where no thread's stack can be: the heap, a file, a kernel-named area; anonymous memory may hold one. */
START_TEST(maps_not_stacks)
{
	struct maps_line m;
	ck_assert_int_eq(line_of("561daa1ac000-561daa1de000 rw-p 00000000 00:00 0                          [heap]\n", &m), 0);
	ck_assert(m.not_stack && !m.is_stack);
	ck_assert_int_eq(line_of("400000-401000 r-xp 00000000 08:01 12 /usr/bin/x\n", &m), 0);
	ck_assert(m.not_stack);
	ck_assert_int_eq(line_of("7ffd1000-7ffd3000 r-xp 00000000 00:00 0 [vdso]\n", &m), 0);
	ck_assert(m.not_stack);
	ck_assert_int_eq(line_of("7f2d42dff000-7f2d435ff000 rw-p 00000000 00:00 0 \n", &m), 0);
	ck_assert(!m.not_stack);
	ck_assert_int_eq(line_of("7f0000000000-7f0000800000 rw-p 00000000 00:00 0 [anon:coro]\n", &m), 0);
	ck_assert(!m.not_stack);
	ck_assert_int_eq(line_of("7fff2cc06000-7fff2cc27000 rw-p 00000000 00:00 0 [stack]\n", &m), 0);
	ck_assert(!m.not_stack);
	ck_assert_int_eq(line_of("7f2d42dff000-7f2d435ff000 rw-p 00000000 00:00 0 [stack:4242]\n", &m), 0);
	ck_assert(!m.not_stack && !m.is_stack);
}
END_TEST

START_TEST(maps_junk)
{
	struct maps_line m;
	ck_assert_int_eq(line_of("", &m), -1);
	ck_assert_int_eq(line_of("zz-10 rw-p", &m), -1);
	ck_assert_int_eq(line_of("10 rw-p", &m), -1);
	ck_assert_int_eq(line_of("20-10 rw-p 0 0:0 0", &m), -1); /* end before start */
	ck_assert_int_eq(line_of("10-20x rw-p", &m), -1);
	ck_assert_int_eq(line_of("10-", &m), -1);
}
END_TEST

static Suite *stack_suite(void)
{
	Suite *s = suite_create("stack_parse");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, syscall_forms);
	tcase_add_test(tc, syscall_running_and_junk);
	tcase_add_test(tc, maps_lines);
	tcase_add_test(tc, maps_not_stacks);
	tcase_add_test(tc, maps_junk);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(stack_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
