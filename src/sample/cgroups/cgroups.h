/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Control groups for one refresh: the group of each selected process (from
 * /proc/PID/cgroup), and each group's own files (memory.current,
 * memory.swap.current, *.pressure) read once, however many processes it
 * holds. Files are kept open between refreshes like the processes' own.
 */
#ifndef TV_SAMPLE_CGROUPS_H
#define TV_SAMPLE_CGROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "model/cgroup.h"
#include "model/snapshot.h"
#include "sample/cgroups/cgroup_parse.h"
#include "sample/tracked.h"

struct cgroups;

/* Finds the hierarchy (the cgroup2 mount, else v1's name=systemd) from mountinfo. NULL only when out of memory. */
struct cgroups *cgroups_new(struct fd_budget *fds);
void cgroups_free(struct cgroups *c);

/* CGROUP_V2, CGROUP_V1_SYSTEMD, or CGROUP_NONE when there is no hierarchy to use. */
enum cgroup_version cgroups_version(const struct cgroups *c);

/* A refresh: begin, the group of each process, end (which reads every group's files and hands them to out). */
void cgroups_begin(struct cgroups *c);
/* The group of process pid when the group it was in last time (or another
 * group known from then) lists it now in its cgroup.procs, read at
 * cgroups_begin: its /proc/PID/cgroup need not be read. NULL: read it. */
const struct tv_cgroup *cgroups_listed(struct cgroups *c, int32_t pid);
/* The group named in a /proc/PID/cgroup text; NULL when it names none. Valid in out after cgroups_end. */
const struct tv_cgroup *cgroups_member(struct cgroups *c, const char *buf, size_t len);
void cgroups_end(struct cgroups *c, struct snapshot *out);

/* A pressure file's lines as the model keeps them. */
void pressure_from_psi(struct tv_pressure *p, const struct psi *psi);

#endif
