/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BPF reader's records as /proc would show them: the state letter from
 * the raw state bits (values of include/linux/sched.h), nice and priority,
 * the start tick, and the lookup of a group's threads in the kernel's order.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sample/bpf/task_rec_util.h"

static char state_of(unsigned int state, unsigned int exit_state)
{
	struct task_rec r = {.state = state, .exit_state = exit_state};
	return task_rec_state(&r);
}

START_TEST(state_letters)
{
	ck_assert_int_eq(state_of(0x0, 0), 'R');
	ck_assert_int_eq(state_of(0x1, 0), 'S');     /* TASK_INTERRUPTIBLE */
	ck_assert_int_eq(state_of(0x2, 0), 'D');     /* TASK_UNINTERRUPTIBLE */
	ck_assert_int_eq(state_of(0x4, 0), 'T');     /* __TASK_STOPPED */
	ck_assert_int_eq(state_of(0x8, 0), 't');     /* __TASK_TRACED */
	ck_assert_int_eq(state_of(0x0, 0x10), 'X');  /* EXIT_DEAD */
	ck_assert_int_eq(state_of(0x0, 0x20), 'Z');  /* EXIT_ZOMBIE */
	ck_assert_int_eq(state_of(0x40, 0), 'P');    /* TASK_PARKED */
	ck_assert_int_eq(state_of(0x402, 0), 'I');   /* TASK_IDLE = UNINTERRUPTIBLE | NOLOAD */
	ck_assert_int_eq(state_of(0x2402, 0), 'I');  /* a freezable idle kernel thread */
	ck_assert_int_eq(state_of(0x1000, 0), 'D');  /* TASK_RTLOCK_WAIT */
	ck_assert_int_eq(state_of(0x8000, 0), 'D');  /* TASK_FROZEN */
	/* bits outside what /proc reports (TASK_WAKEKILL with stopped: TASK_STOPPED) */
	ck_assert_int_eq(state_of(0x100 | 0x4, 0), 'T');
	ck_assert_int_eq(state_of(0x100 | 0x8, 0), 't');
	/* a dead task's state (TASK_DEAD) counts under the exit state */
	ck_assert_int_eq(state_of(0x80, 0x20), 'Z');
}
END_TEST

START_TEST(fill_like_proc)
{
	struct task_rec r = {.tid = 12, .tgid = 10, .state = 1, .prio = 125, .static_prio = 125,
			     .start_ns = 1234567890123ull, .runtime_ns = 5000, .run_delay_ns = 700, .pcount = 3,
			     .nvcsw = 9, .nivcsw = 4, .have = TASK_REC_HAVE_DELAYS,
			     .delay_known = 1u << TASK_REC_IO};
	r.delay_count[TASK_REC_IO] = 2;
	r.delay_ns[TASK_REC_IO] = 900;
	memcpy(r.comm, "worker-1", 9);
	struct tv_task t;
	task_init(&t);
	task_rec_fill(&r, &t, 100, 42.0);
	ck_assert_int_eq(t.state, 'S');
	ck_assert_int_eq(t.nice, 5);   /* static_prio - 120 */
	ck_assert_int_eq(t.prio, 25);  /* prio - 100, as stat's field 18 */
	ck_assert_uint_eq(t.start_ticks, 123456); /* ns / (1e9 / HZ), rounded down */
	ck_assert_int_eq(t.cpu_ns, 5000);
	ck_assert_int_eq(t.delay[TV_DELAY_CPU].count, 3);
	ck_assert_int_eq(t.delay[TV_DELAY_CPU].total_ns, 700);
	ck_assert_int_eq(t.ctxt_vol, 9);
	ck_assert_int_eq(t.ctxt_invol, 4);
	ck_assert_int_eq(t.delay[TV_DELAY_IO].count, 2);
	ck_assert_int_eq(t.delay[TV_DELAY_IO].total_ns, 900);
	/* a class the kernel lacks is unknown, never 0 */
	ck_assert_int_eq(t.delay[TV_DELAY_IRQ].count, TV_UNKNOWN);
	ck_assert_str_eq(task_comm(&t), "worker-1");
	ck_assert(t.t_cpu == 42.0 && t.t_ctxt == 42.0 && t.t_delay == 42.0);
	/* a record timed in the kernel: that time, not the pass's */
	r.when_ns = 7500000000ull;
	task_rec_fill(&r, &t, 100, 42.0);
	ck_assert(t.t_cpu == 7.5 && t.t_ctxt == 7.5 && t.t_delay == 7.5);
	/* a full 16-byte name without its NUL stays 15 bytes at most, as TASK_COMM_LEN */
	memcpy(r.comm, "0123456789abcdef", 16);
	task_rec_fill(&r, &t, 100, 42.0);
	ck_assert_uint_le(strlen(task_comm(&t)), 16);
	/* no task_delay_info: every class but CPU unknown */
	r.have = 0;
	task_rec_fill(&r, &t, 100, 42.0);
	ck_assert_int_eq(t.delay[TV_DELAY_IO].total_ns, TV_UNKNOWN);
	ck_assert_int_eq(t.delay[TV_DELAY_CPU].total_ns, 700);
	task_clear(&t, 0);
}
END_TEST

START_TEST(groups_in_kernel_order)
{
	/* the kernel walks by TID: group 10's threads come around group 11's */
	struct task_rec v[] = {{.tid = 1, .tgid = 1}, {.tid = 10, .tgid = 10}, {.tid = 11, .tgid = 11},
			       {.tid = 12, .tgid = 10}, {.tid = 13, .tgid = 11}, {.tid = 14, .tgid = 10}};
	size_t n = sizeof(v) / sizeof(v[0]), cnt;
	struct task_rec_key keys[6];
	task_rec_index(v, n, keys);
	const struct task_rec_key *g = task_rec_group(keys, n, 10, &cnt);
	ck_assert_uint_eq(cnt, 3);
	ck_assert_int_eq(g[0].tid, 10);
	ck_assert_int_eq(g[1].tid, 12);
	ck_assert_int_eq(g[2].tid, 14);
	ck_assert_int_eq(v[g[2].idx].tid, 14);
	ck_assert_ptr_nonnull(task_rec_thread(g, cnt, 12));
	ck_assert_ptr_null(task_rec_thread(g, cnt, 13)); /* another group's */
	g = task_rec_group(keys, n, 11, &cnt);
	ck_assert_uint_eq(cnt, 2);
	ck_assert_ptr_null(task_rec_group(keys, n, 5, &cnt));
	ck_assert_uint_eq(cnt, 0);
	ck_assert_ptr_null(task_rec_group(keys, n, 99, &cnt));
	ck_assert_ptr_null(task_rec_group(keys, 0, 1, &cnt));
}
END_TEST

static Suite *task_rec_suite(void)
{
	Suite *s = suite_create("task_rec");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, state_letters);
	tcase_add_test(tc, fill_like_proc);
	tcase_add_test(tc, groups_in_kernel_order);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(task_rec_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
