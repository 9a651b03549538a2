/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An action on a task of another host (kill from the hosts' screen): the
 * viewer runs `taskview --act SPEC` there over ssh, as it runs the stream,
 * and the remote checks the task's identity (its PID and start time, so that
 * a PID used again by then is not hit) before it acts, with the permissions
 * of the user it runs as. Its last line on standard error says why it did
 * not act; its exit status is 0 when it did.
 *
 *   SPEC  signal:SIG:PID:START   SIG a signal number, START the process's
 *                                start time in clock ticks since boot
 *         renice:STEP:PID:START  every thread of the process STEP nice
 *                                values up (down when negative), each from
 *                                its own value, as F7 and F8 do here
 *         anatomy:PID:START      the process's address space by kind, for
 *                                the detail panel: one line on standard
 *                                output (act_answer_parse reads it), also
 *                                when it cannot be read (its errno)
 */
#ifndef TV_HOSTS_ACT_H
#define TV_HOSTS_ACT_H

#include <stdint.h>
#include <stdio.h>

#include "util/buf.h"

enum act_kind { ACT_SIGNAL, ACT_RENICE, ACT_ANATOMY };

struct act_req {
	enum act_kind kind;
	int value;              /* the signal, or the nice step (0 for anatomy) */
	int32_t pid;
	uint64_t start_ticks;
};

/* Parses SPEC (pure): 0, or -1 when it is not one. */
int act_parse(const char *spec, struct act_req *out);
/* Appends SPEC for r to b. */
void act_format(struct buf *b, const struct act_req *r);
/* Acts on this machine, saying why not on err (translated); anatomy's answer
 * goes to out. Returns the exit status: 0 done, 1 not. */
int act_run(const struct act_req *r, FILE *out, FILE *err);

struct anatomy;
struct anatomy_pages;
/* Parses anatomy's answer (pure; n bytes, untrusted): 0 with *a (anatomy_init'ed
 * by the caller; no ranges) and *pg filled, or with *err the errno that kept
 * the remote from reading them; -1 when it is not an answer. */
int act_answer_parse(const char *buf, size_t n, struct anatomy *a, struct anatomy_pages *pg, int *err);

#endif
