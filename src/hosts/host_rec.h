/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One host of a recording of hosts (taskview --host ... -w FILE), as the
 * replays read it: its own reader, and for each of its samples when the
 * recorder took it and its clock against the recorder's up to then, as the
 * live viewer had them.
 */
#ifndef TV_HOSTS_HOST_REC_H
#define TV_HOSTS_HOST_REC_H

#include <stddef.h>

#include "record/reader.h"

struct host_rec {
	struct rec_reader *r;    /* NULL: none of its samples can be read */
	char *prefix;            /* "NAME: ", made safe to print, before what its reader says */
	rec_warn_fn warn;        /* where that goes */
	void *warn_ctx;
	size_t n;                /* its samples */
	double *taken;           /* when the recorder took each (CLOCK_REALTIME s), kept from going back (a clock set back) */
	double *clock;           /* its clock minus the recorder's, at least, up to each (-INFINITY: not known) */
};

/* Opens each hosts[i]'s samples of path into *v[i], all in one pass over
 * the file; each reader's messages go to warn with its host's name before
 * them, as does why it cannot be read (r NULL). Returns 0, or -1 out of
 * memory (told); each *v[i] is then the caller's to close all the same. */
int host_rec_open(struct host_rec *const *v, const char *const *hosts, size_t n, const char *path, rec_warn_fn warn,
		  void *ctx);
void host_rec_close(struct host_rec *h);

#endif
