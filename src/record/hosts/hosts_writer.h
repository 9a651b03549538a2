/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Appends the frames several hosts send to one recording file, each in a
 * host frame (hostframe.h), one write each, in the order they are taken.
 * The file is locked as a recorder's is, and synced to disk at most once a
 * minute (a host's block of samples lasts about that long).
 */
#ifndef TV_RECORD_HOSTS_HOSTS_WRITER_H
#define TV_RECORD_HOSTS_HOSTS_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "record/format.h"

struct rec_hosts_writer;

/* NULL with *err (malloc'd) when path cannot be recorded to (a directory: one file holds every host). */
struct rec_hosts_writer *rec_hosts_writer_open(const char *path, char **err);
/* Writes host's frame (len bytes, header f), taken here at taken_ns
 * (CLOCK_REALTIME). Returns 0, or -1 with *err (malloc'd): the
 * recording cannot go on. now: CLOCK_MONOTONIC seconds. */
int rec_hosts_writer_add(struct rec_hosts_writer *w, const char *host, const uint8_t *frame, size_t len,
			 const struct rec_frame *f, int64_t taken_ns, double now, char **err);
void rec_hosts_writer_close(struct rec_hosts_writer *w);

#endif
