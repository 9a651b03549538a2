/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The detail panel's content: every delay class with interval and
 * cumulative figures, memory, context switches, task facts; unknown
 * figures as "-", max/min unknown on process rows.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/delta.h"
#include "model/task.h"
#include "render/detail.h"
#include "sample/memory/anatomy.h"

/* The value of the first row labelled label after the heading `after` (NULL: anywhere). */
static const char *value_after(const struct detail_lines *l, const char *after, const char *label)
{
	bool in = after == NULL;
	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].kind == DETAIL_HEADING && after)
			in = strncmp(l->v[i].label, after, strlen(after)) == 0;
		if (in && l->v[i].kind == DETAIL_ROW && strcmp(l->v[i].label, label) == 0)
			return l->v[i].value;
	}
	return NULL;
}

static const char *value_of(const struct detail_lines *l, const char *label)
{
	return value_after(l, NULL, label);
}

static bool has_note(const struct detail_lines *l, const char *text)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].kind == DETAIL_NOTE && strcmp(l->v[i].label, text) == 0)
			return true;
	return false;
}

/* The cumulative line that follows a delay class's row. */
static const char *since_start(const struct detail_lines *l, const char *class_label)
{
	for (size_t i = 0; i + 1 < l->n; i++)
		if (l->v[i].kind == DETAIL_ROW && strcmp(l->v[i].label, class_label) == 0)
			return strcmp(l->v[i + 1].label, "  since start") == 0 ? l->v[i + 1].value : NULL;
	return NULL;
}

static size_t count_kind(const struct detail_lines *l, enum detail_kind k)
{
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += l->v[i].kind == k;
	return n;
}

#define ck_assert_contains(hay, needle)                                                                      \
	do {                                                                                                 \
		const char *h_ = (hay);                                                                      \
		ck_assert_msg(h_ && strstr(h_, needle), "'%s' does not contain '%s'", h_ ? h_ : "(null)",  \
			      needle);                                                                       \
	} while (0)

/* A thread 2 s apart in two samples; delays as a v16 kernel reports them. */
static void make_pair(struct tv_task *prev, struct tv_task *cur, bool thread)
{
	task_init(prev);
	task_init(cur);
	for (int k = 0; k < 2; k++) {
		struct tv_task *t = k ? cur : prev;
		t->tid = thread ? 1235 : 1234;
		t->tgid = 1234;
		t->ppid = 1;
		t->is_thread = thread;
		t->start_ticks = 360000; /* one hour after boot */
		t->state = 'R';
		t->nthreads = 3;
		task_mem_mut(t)->rss = 49152;
		task_mem_mut(t)->hwm = 65536;
		task_mem_mut(t)->size = 1048576 + 512;
		task_mem_mut(t)->pte = 132;
		task_mem_mut(t)->stk = 136;
		task_mem_mut(t)->swap = 0;
		for (int c = 0; c < TV_DELAY_NCLASS; c++)
			t->delay[c] = (struct tv_delay){0, 0};
	}
	prev->cpu_ns = 10000000000LL;
	cur->cpu_ns = 12000000000LL;
	cur->cpu_pct = 100.0;
	prev->ctxt_vol = 5000;
	cur->ctxt_vol = 7000;
	prev->ctxt_invol = 10;
	cur->ctxt_invol = 30;
	cur->ctxt_vol_rate = 1000.0;
	cur->ctxt_invol_rate = 10.0;
	/* cpu: 1 s of waiting in 2 s over 500 waits; 3 s since start */
	prev->delay[TV_DELAY_CPU] = (struct tv_delay){750, 2000000000};
	cur->delay[TV_DELAY_CPU] = (struct tv_delay){1250, 3000000000};
	/* io: 4 waits of 5 ms */
	prev->delay[TV_DELAY_IO] = (struct tv_delay){6, 30000000};
	cur->delay[TV_DELAY_IO] = (struct tv_delay){10, 50000000};
	/* a thread's extremes (the kernel keeps none for a group) */
	if (thread) {
		cur->peaks = calloc(1, sizeof(*cur->peaks));
		ck_assert_ptr_nonnull(cur->peaks);
		cur->peaks->max_ns[TV_DELAY_CPU] = 12000000;
		cur->peaks->min_ns[TV_DELAY_CPU] = 10000;
		cur->peaks->max_ns[TV_DELAY_IO] = 9000000;
		cur->peaks->min_ns[TV_DELAY_IO] = 2000000;
	}
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		cur->delay_pct[c] = delta_delay_pct(prev->delay[c].total_ns, cur->delay[c].total_ns, 2.0);
		cur->delay_avg_ms[c] = delta_delay_avg_ms(prev->delay[c].count, cur->delay[c].count,
							  prev->delay[c].total_ns, cur->delay[c].total_ns);
	}
}

START_TEST(test_thread_row)
{
	struct tv_task prev, cur;
	struct detail_lines l;
	make_pair(&prev, &cur, true);
	detail_lines_init(&l);
	detail_build(&cur, &prev, 2.0, true, NULL, &l);
	ck_assert(!l.oom);

	ck_assert_str_eq(l.v[0].label, "Thread");
	ck_assert_int_eq(l.v[0].kind, DETAIL_HEADING);
	ck_assert_ptr_null(l.v[0].value);
	ck_assert_str_eq(value_of(&l, "Thread ID"), "1235");
	ck_assert_str_eq(value_of(&l, "Process ID"), "1234");
	ck_assert_str_eq(value_of(&l, "Parent process ID"), "1");
	ck_assert_str_eq(value_of(&l, "State"), "R (running)");
	ck_assert_str_eq(value_of(&l, "CPU in the interval"), "100.0%");
	ck_assert_str_eq(value_of(&l, "CPU time"), "0:12.00");
	ck_assert_str_eq(value_of(&l, "Started"), "1:00:00 after boot");

	ck_assert_str_eq(value_of(&l, "CPU delay"), "50.0% of the interval; avg 2.00 ms; events: 500");
	ck_assert_str_eq(since_start(&l, "CPU delay"), "events: 1250; total 3.00 s; max 12.0 ms, min 0.010 ms");
	ck_assert_str_eq(value_of(&l, "Block I/O delay"), "1.0% of the interval; avg 5.00 ms; events: 4");
	ck_assert_str_eq(since_start(&l, "Block I/O delay"), "events: 10; total 50.0 ms; max 9.00 ms, min 2.00 ms");
	/* no event in the interval: no average; min 0 means "none seen yet" */
	ck_assert_str_eq(value_of(&l, "Swap-in delay"), "0.0% of the interval; avg -; events: 0");
	ck_assert_str_eq(since_start(&l, "Swap-in delay"), "events: 0; total 0.000 ms; max 0.000 ms, min -");
	/* each of the eight classes: a row and its cumulative line */
	static const char *const classes[] = {
		"CPU delay", "Block I/O delay", "Swap-in delay", "Memory reclaim delay", "Thrashing delay",
		"Memory compaction delay", "Write-protect copy delay", "IRQ handling delay",
	};
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		ck_assert_ptr_nonnull(value_after(&l, "Delays", classes[i]));
		ck_assert_ptr_nonnull(since_start(&l, classes[i]));
	}

	ck_assert_str_eq(value_after(&l, "Memory", "Resident (VmRSS)"), "48M (49152 KiB)");
	ck_assert_str_eq(value_after(&l, "Memory", "Peak resident (VmHWM)"), "64M (65536 KiB)");
	ck_assert_str_eq(value_after(&l, "Memory", "Virtual (VmSize)"), "1.0G (1049088 KiB)");
	ck_assert_str_eq(value_after(&l, "Memory", "Page tables (VmPTE)"), "132K (132 KiB)");
	ck_assert_str_eq(value_after(&l, "Memory", "Stack (VmStk)"), "136K (136 KiB)");
	ck_assert_str_eq(value_after(&l, "Memory", "Swapped out (VmSwap)"), "0K (0 KiB)");

	ck_assert_str_eq(value_after(&l, "Context switches", "Voluntary"), "7000 in all, 1000/s");
	ck_assert_str_eq(value_after(&l, "Context switches", "Involuntary"), "30 in all, 10/s");

	/* headings: task, delays with the interval, memory, switches */
	ck_assert_uint_eq(count_kind(&l, DETAIL_HEADING), 4);
	bool found = false;
	for (size_t i = 0; i < l.n; i++)
		found |= l.v[i].kind == DETAIL_HEADING && strcmp(l.v[i].label, "Delays (interval 2.0 s)") == 0;
	ck_assert(found);
	for (size_t i = 0; i < l.n; i++) {
		ck_assert_ptr_nonnull(l.v[i].label);
		ck_assert((l.v[i].kind == DETAIL_ROW) == (l.v[i].value != NULL));
	}
	detail_lines_free(&l);
	ck_assert_uint_eq(l.n, 0);
	ck_assert_ptr_null(l.v);
	task_release(&prev, 0);
	task_release(&cur, 0);
}
END_TEST

START_TEST(test_process_row)
{
	struct tv_task prev, cur;
	struct detail_lines l;
	make_pair(&prev, &cur, false);
	detail_lines_init(&l);
	detail_build(&cur, &prev, 2.0, false, NULL, &l);
	ck_assert(!l.oom);
	ck_assert_str_eq(l.v[0].label, "Process");
	ck_assert_str_eq(value_of(&l, "Process ID"), "1234");
	ck_assert_str_eq(value_of(&l, "Threads"), "3");
	ck_assert_ptr_null(value_of(&l, "Thread ID"));
	/* a group reply has no max/min: never shown as 0 */
	ck_assert_str_eq(since_start(&l, "CPU delay"), "events: 1250; total 3.00 s; max -, min -");
	ck_assert_str_eq(value_of(&l, "CPU delay"), "50.0% of the interval; avg 2.00 ms; events: 500");
	/* notes for the sums and for stacks not read, none about shared memory */
	ck_assert_uint_eq(count_kind(&l, DETAIL_NOTE), 3);
	ck_assert(has_note(&l, "Thread stacks are read while the STACK or STKRES column is shown."));
	ck_assert_str_eq(value_of(&l, "Thread stacks reserved"), "-");
	for (size_t i = 0; i < l.n; i++)
		if (l.v[i].kind == DETAIL_NOTE)
			ck_assert_ptr_null(l.v[i].value);
	/* even if a caller passed extremes, a process row does not show them */
	cur.peaks = calloc(1, sizeof(*cur.peaks));
	ck_assert_ptr_nonnull(cur.peaks);
	cur.peaks->max_ns[TV_DELAY_CPU] = 5;
	detail_build(&cur, &prev, 2.0, false, NULL, &l);
	ck_assert_str_eq(since_start(&l, "CPU delay"), "events: 1250; total 3.00 s; max -, min -");
	detail_lines_free(&l);
	task_release(&prev, 0);
	task_release(&cur, 0);
}
END_TEST

START_TEST(test_lower_bounds_marked)
{
	struct tv_task prev, cur;
	struct detail_lines l;
	make_pair(&prev, &cur, false);
	/* a thread exited without its final counters */
	cur.partial = TV_PART_BIT(TV_PART_CTXT_VOL_RATE) | TV_PART_BIT(TV_PART_CTXT_VOL) |
		      TV_PART_BIT(TV_PART_DELAY + TV_DELAY_CPU) | TV_PART_BIT(TV_PART_CPU);
	detail_lines_init(&l);
	detail_build(&cur, &prev, 2.0, false, NULL, &l);
	ck_assert_str_eq(value_after(&l, "Context switches", "Voluntary"), "7000+ in all, 1000+/s");
	ck_assert_str_eq(value_after(&l, "Context switches", "Involuntary"), "30 in all, 10/s");
	ck_assert_str_eq(value_of(&l, "CPU delay"), "50.0%+ of the interval; avg 2.00 ms+; events: 500");
	ck_assert_str_eq(value_of(&l, "Block I/O delay"), "1.0% of the interval; avg 5.00 ms; events: 4");
	ck_assert_str_eq(value_of(&l, "CPU in the interval"), "100.0%+");
	/* and a note says what the mark means (with the one for stacks not read),
	 * blaming nothing it was not told */
	ck_assert_uint_eq(count_kind(&l, DETAIL_NOTE), 4);
	const char *mean = "A value followed by + is a lower bound: threads exited without telling what they did last.";
	ck_assert(has_note(&l, mean));
	/* with the reason of this refresh, that reason */
	detail_build(&cur, &prev, 2.0, false, "In this refresh 7 exit records were lost to a storm of exits.", &l);
	char both[512];
	snprintf(both, sizeof(both), "%s %s", mean, "In this refresh 7 exit records were lost to a storm of exits.");
	ck_assert(has_note(&l, both));
	detail_lines_free(&l);
	task_release(&prev, 0);
	task_release(&cur, 0);
}
END_TEST

/* A process of three threads, two of whose stacks were read. */
START_TEST(test_stack_sentence)
{
	struct tv_task p, th[3];
	struct detail_lines l;
	/* each thread's stack, in the address space's block its rows share */
	struct tv_stack st[3] = {{1234, 132, 12}, {1235, 8192, 1032}, {1236, TV_UNKNOWN, TV_UNKNOWN}};
	struct tv_mem mem = tv_mem_unknown;
	mem.stacks = st;
	mem.nstacks = 3;
	mem.stack_size = 8324;
	mem.stack_rss = 1044;
	task_init(&p);
	p.tid = p.tgid = 1234;
	p.mem = &mem;
	for (int i = 0; i < 3; i++) {
		task_init(&th[i]);
		th[i].is_thread = true;
		th[i].tid = th[i].tgid = 1234;
		th[i].tid = 1234 + i;
		th[i].mem = &mem;
	}
	p.threads = th;
	p.nthreads_read = 3;
	p.threads_complete = true;
	p.partial = TV_PART_BIT(TV_PART_STACK);
	p.stack_why = TV_STACK_DENIED;
	detail_lines_init(&l);
	detail_build(&p, NULL, 0, false, NULL, &l);
	ck_assert_str_eq(value_of(&l, "Thread stacks reserved"), "8.1M+ (8324 KiB)");
	ck_assert_str_eq(value_of(&l, "Thread stacks resident"), "1.0M+ (1044 KiB)");
	ck_assert(has_note(&l, "2 threads reserve 8.1 MiB of stack and use 1.0 MiB of it."));
	ck_assert(has_note(&l, "Some thread stacks are unknown: finding and reading them needs permission to trace "
			       "the process (ptrace), as its owner or root has."));
	/* every thread known, on default stacks */
	p.partial = 0;
	p.stack_why = TV_STACK_OK;
	st[2] = (struct tv_stack){1236, 8192, 8};
	st[0] = (struct tv_stack){1234, 8192 * 1000LL, 12 * 1024 - 1040};
	mem.stack_size = 8192 * 1002LL;
	mem.stack_rss = 12 * 1024;
	detail_build(&p, NULL, 0, false, NULL, &l);
	ck_assert(has_note(&l, "3 threads reserve 7.8 GiB of stack and use 12 MiB of it."));
	ck_assert_str_eq(value_of(&l, "Thread stacks reserved"), "7.8G (8208384 KiB)");
	/* a thread row: its own stack, no sentence */
	detail_build(&th[1], NULL, 0, true, NULL, &l);
	ck_assert_str_eq(value_of(&l, "Stack reserved"), "8.0M (8192 KiB)");
	ck_assert_str_eq(value_of(&l, "Stack resident"), "1.0M (1032 KiB)");
	ck_assert_ptr_null(value_of(&l, "Thread stacks reserved"));
	detail_lines_free(&l);
	p.threads = NULL;
	p.nthreads_read = 0;
	for (int i = 0; i < 3; i++)
		task_release(&th[i], 0);
	task_release(&p, 0);
}
END_TEST

START_TEST(test_unknown_everything)
{
	struct tv_task t;
	struct detail_lines l;
	task_init(&t);
	t.tid = t.tgid = 77;
	detail_lines_init(&l);
	detail_build(&t, NULL, 0.0, false, NULL, &l);
	ck_assert(!l.oom);
	ck_assert_str_eq(value_of(&l, "State"), "-");
	ck_assert_str_eq(value_of(&l, "Threads"), "-");
	ck_assert_str_eq(value_of(&l, "CPU in the interval"), "-");
	ck_assert_str_eq(value_of(&l, "CPU time"), "-");
	ck_assert_str_eq(value_of(&l, "Started"), "-");
	/* an unknown class is one "-" row, without a cumulative line */
	ck_assert_str_eq(value_of(&l, "CPU delay"), "-");
	ck_assert_ptr_null(since_start(&l, "CPU delay"));
	ck_assert_str_eq(value_of(&l, "IRQ handling delay"), "-");
	ck_assert_str_eq(value_of(&l, "Resident (VmRSS)"), "-");
	ck_assert_str_eq(value_of(&l, "Page tables (VmPTE)"), "-");
	ck_assert_str_eq(value_of(&l, "Voluntary"), "- in all, -/s");
	bool plain = false;
	for (size_t i = 0; i < l.n; i++)
		plain |= l.v[i].kind == DETAIL_HEADING && strcmp(l.v[i].label, "Delays") == 0;
	ck_assert_msg(plain, "no interval in the heading without one");
	detail_lines_free(&l);
}
END_TEST

START_TEST(test_switch_off_classes)
{
	/* with the switch off only cpu is known: the other classes read "-" */
	struct tv_task prev, cur;
	struct detail_lines l;
	make_pair(&prev, &cur, true);
	for (int c = TV_DELAY_IO; c < TV_DELAY_NCLASS; c++) {
		cur.delay[c] = (struct tv_delay){TV_UNKNOWN, TV_UNKNOWN};
		cur.delay_pct[c] = cur.delay_avg_ms[c] = NAN;
	}
	detail_lines_init(&l);
	detail_build(&cur, &prev, 2.0, true, NULL, &l);
	ck_assert_contains(value_of(&l, "CPU delay"), "50.0% of the interval");
	ck_assert_str_eq(value_of(&l, "Block I/O delay"), "-");
	ck_assert_ptr_null(since_start(&l, "Block I/O delay"));
	detail_lines_free(&l);
	task_release(&prev, 0);
	task_release(&cur, 0);
}
END_TEST

START_TEST(test_prev_of_another_task)
{
	struct tv_task prev, cur;
	struct detail_lines l;
	make_pair(&prev, &cur, true);
	prev.start_ticks++; /* an old task under the same id */
	detail_lines_init(&l);
	detail_build(&cur, &prev, 2.0, true, NULL, &l);
	ck_assert_str_eq(value_of(&l, "CPU delay"), "50.0% of the interval; avg 2.00 ms; events: -");
	detail_build(&cur, NULL, 2.0, true, NULL, &l);
	ck_assert_str_eq(value_of(&l, "CPU delay"), "50.0% of the interval; avg 2.00 ms; events: -");
	/* a counter that went backwards gives no event count either */
	task_release(&prev, 0);
	task_release(&cur, 0);
	make_pair(&prev, &cur, true);
	prev.delay[TV_DELAY_CPU].count = 5000;
	detail_build(&cur, &prev, 2.0, true, NULL, &l);
	ck_assert_contains(value_of(&l, "CPU delay"), "events: -");
	detail_lines_free(&l);
	task_release(&prev, 0);
	task_release(&cur, 0);
}
END_TEST

START_TEST(test_durations_and_sizes)
{
	struct tv_task t;
	struct detail_lines l;
	task_init(&t);
	t.is_thread = true;
	t.delay[TV_DELAY_CPU] = (struct tv_delay){3, 7200LL * 1000000000LL};
	t.delay[TV_DELAY_IO] = (struct tv_delay){1, 125000000000LL};
	t.peaks = calloc(1, sizeof(*t.peaks));
	ck_assert_ptr_nonnull(t.peaks);
	t.peaks->max_ns[TV_DELAY_CPU] = 45000000;
	t.peaks->min_ns[TV_DELAY_CPU] = 7;
	t.peaks->max_ns[TV_DELAY_IO] = 999999;
	t.peaks->min_ns[TV_DELAY_IO] = 999999;
	t.delay_pct[TV_DELAY_CPU] = 1234.4; /* a large group sum: integer percent */
	task_mem_mut(&t)->rss = 3 * 1024 * 1024 / 2;
	detail_lines_init(&l);
	detail_build(&t, NULL, 1.0, true, NULL, &l);
	ck_assert_str_eq(since_start(&l, "CPU delay"), "events: 3; total 2:00:00; max 45.0 ms, min 0.000 ms");
	ck_assert_str_eq(since_start(&l, "Block I/O delay"), "events: 1; total 2:05.00; max 1.000 ms, min 1.000 ms");
	ck_assert_contains(value_of(&l, "CPU delay"), "1234% of the interval");
	ck_assert_str_eq(value_of(&l, "Resident (VmRSS)"), "1.5G (1572864 KiB)");
	detail_lines_free(&l);
	task_release(&t, 0);
}
END_TEST

START_TEST(test_rebuild_replaces)
{
	struct tv_task prev, cur;
	struct detail_lines l;
	make_pair(&prev, &cur, true);
	detail_lines_init(&l);
	detail_build(&cur, &prev, 2.0, true, NULL, &l);
	size_t n = l.n;
	detail_build(&cur, &prev, 2.0, true, NULL, &l);
	ck_assert_uint_eq(l.n, n);
	detail_lines_free(&l);
	detail_lines_free(&l); /* twice is harmless */
	task_release(&prev, 0);
	task_release(&cur, 0);
}
END_TEST


/* The address space: words first, a row for each kind, and why what is unknown is. */
START_TEST(test_anatomy_lines)
{
	static const char *const maps[] = {
		"5581c0a00000-5581c0a02000 r--p 00000000 fd:01 1311 /usr/bin/prog",
		"5581c1e9c000-5581c1ebd000 rw-p 00000000 00:00 0 [heap]",
		"7f3e7bfff000-7f3e7c000000 ---p 00000000 00:00 0 ",
		"7f3e7c000000-7f3e7c800000 rw-p 00000000 00:00 0 ",
		"7ffc10b85000-7ffc10ba6000 rw-p 00000000 00:00 0 [stack]",
	};
	struct anatomy a;
	anatomy_init(&a);
	for (size_t i = 0; i < 5; i++)
		anatomy_add(&a, maps[i], strlen(maps[i]));
	anatomy_finish(&a);
	struct anatomy_pages pg = {{[ANAT_STACK] = 1032, [ANAT_HEAP] = 64, [ANAT_ANON] = 0}, 8, 0};
	pg.kib[ANAT_FILE] = pg.kib[ANAT_GUARD] = TV_UNKNOWN;
	struct tv_mem mem = tv_mem_unknown;
	mem.pte = 80;
	struct tv_task p;
	task_init(&p);
	p.mem = &mem;
	struct detail_lines l;
	detail_lines_init(&l);
	detail_anatomy(&a, &pg, 0, &p, &l);
	ck_assert(has_note(&l, "Of 8.3 MiB mapped, 2 stacks reserve 8.1 MiB and use 1.0 MiB of them; the heap and malloc "
			       "arenas take 132 KiB, files 8 KiB, other anonymous memory 0 KiB, guard pages and "
			       "reservations 4 KiB."));
	ck_assert_str_eq(value_of(&l, "Mapped (maps)"), "8.3M (8468 KiB)");
	ck_assert_str_eq(value_of(&l, "  stacks (2)"), "8.1M (8324 KiB)");
	ck_assert_str_eq(value_of(&l, "    resident"), "1.0M (1032 KiB)");
	ck_assert(has_note(&l, "Page tables take 80 KiB (VmPTE). A fork copies those that map anonymous memory, about "
			       "8 KiB here (4 KiB for each 2 MiB in use: every thread's stack needs its own); a file "
			       "mapping's are filled again on demand."));
	/* pagemap denied: the sizes, no resident figures, and why */
	pg = (struct anatomy_pages){{TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN, TV_UNKNOWN}, TV_UNKNOWN, 13};
	detail_lines_free(&l);
	detail_anatomy(&a, &pg, 0, &p, &l);
	ck_assert(has_note(&l, "Of 8.3 MiB mapped, 2 stacks reserve 8.1 MiB; the heap and malloc arenas take 132 KiB, "
			       "files 8 KiB, other anonymous memory 0 KiB, guard pages and reservations 4 KiB."));
	ck_assert_str_eq(value_of(&l, "    resident"), "-");
	ck_assert(has_note(&l, "Resident pages by kind are unknown: reading them needs permission to trace the process "
			       "(ptrace), as its owner or root has."));
	/* maps denied: nothing but why */
	detail_lines_free(&l);
	detail_anatomy(&a, &pg, 1, &p, &l);
	ck_assert_ptr_null(value_of(&l, "Mapped (maps)"));
	ck_assert(has_note(&l, "The address space by kind is unknown: reading the process's mappings needs permission "
			       "to trace it (ptrace), as its owner or root has."));
	detail_lines_free(&l);
	anatomy_free(&a);
}
END_TEST

static Suite *detail_suite(void)
{
	Suite *s = suite_create("detail");
	TCase *tc = tcase_create("build");
	tcase_add_test(tc, test_thread_row);
	tcase_add_test(tc, test_process_row);
	tcase_add_test(tc, test_lower_bounds_marked);
	tcase_add_test(tc, test_unknown_everything);
	tcase_add_test(tc, test_stack_sentence);
	tcase_add_test(tc, test_anatomy_lines);
	tcase_add_test(tc, test_switch_off_classes);
	tcase_add_test(tc, test_prev_of_another_task);
	tcase_add_test(tc, test_durations_and_sizes);
	tcase_add_test(tc, test_rebuild_replaces);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(detail_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
