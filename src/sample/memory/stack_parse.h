/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pure parsers for finding a thread's stack: task/TID/syscall and maps lines. */
#ifndef TV_SAMPLE_STACK_PARSE_H
#define TV_SAMPLE_STACK_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum stack_sp {
	STACK_SP_OK,       /* *sp holds the stack pointer */
	STACK_SP_RUNNING,  /* the thread was running: no registers this time */
	STACK_SP_BAD,      /* not a syscall line */
};

/* The stack pointer from task/TID/syscall: the second-to-last field, in
 * every form ("NR args… sp pc", "-1 sp pc"), or "running". */
enum stack_sp stack_parse_syscall(const char *buf, size_t n, uint64_t *sp);

/* One line of /proc/PID/maps. */
struct maps_line {
	uint64_t lo, hi;   /* [lo, hi) */
	bool is_stack;     /* the main thread's "[stack]" */
	/* no thread's stack: "[heap]" (a coroutine's stack from malloc), a
	 * file, or another area the kernel names ("[vdso]"); an anonymous
	 * mapping, named by the program ("[anon:...]") or not, may be one, as
	 * "[stack:TID]" is (kernels before 4.5) */
	bool not_stack;
};

/* Parses one line (without or with its newline); -1 when malformed. */
int stack_parse_maps_line(const char *line, size_t n, struct maps_line *out);

#endif
