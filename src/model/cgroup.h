/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Control groups as one refresh read them, and pressure stall information. */
#ifndef TV_MODEL_CGROUP_H
#define TV_MODEL_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Pressure of one resource: some tasks stalled, or all of them. */
struct tv_pressure {
	bool some_known, full_known;
	double some_avg10, full_avg10; /* percent, the kernel's 10 s average */
	int64_t some_us, full_us;      /* total stall time, µs */
	/* derived over the interval (model/delta.c): % of the interval stalled; NAN when unknown */
	double some_pct, full_pct;
};

enum tv_resource { TV_RES_CPU, TV_RES_IO, TV_RES_MEMORY, TV_RES_N };

struct snapshot;

/* A control group. Its files are read once per refresh, whatever number of processes it holds. */
struct tv_cgroup {
	char *path;                 /* relative to the hierarchy's root: "/system.slice/nginx.service" */
	char *unit;                 /* a readable name: unit, container, pod or the path's last part */
	const struct tv_cgroup *parent; /* NULL for the root */
	size_t index;               /* its place in its snapshot's cgroups */
	uint64_t id;                /* the kernel's id of a v2 group (its directory's inode); 0 when not known */
	int64_t mem_bytes;          /* memory.current; TV_UNKNOWN without the memory controller */
	int64_t swap_bytes;         /* memory.swap.current */
	struct tv_pressure psi[TV_RES_N];
	double t_read;              /* CLOCK_MONOTONIC of its pressure reads */
	/* its cpu.stat: the CPU time of every task that ran in it or below,
	 * ended ones included (µs; TV_UNKNOWN without cgroup v2 or not read),
	 * and when it was read */
	int64_t cpu_usage_us, cpu_user_us, cpu_system_us;
	double t_cpu;
	/* derived over the interval (model/delta.c): % of one CPU; NAN when unknown */
	double cpu_pct;
	/* why its memory, or its pressure, is unknown (static, translated), or NULL */
	const char *mem_why, *psi_why;
	/* a host of the hosts' screen (view/shown.h): its sample (its CPUs, load
	 * and memory: snapshot.machine), and the COMMAND cell of its row (its
	 * name, CPUs and load; owned); NULL for a control group */
	const struct snapshot *host;
	char *about;
};

void cgroup_free(struct tv_cgroup *g);
/* Marks the group's CPU time (cpu.stat) and its rate unknown. */
void cgroup_cpu_unknown(struct tv_cgroup *g);
void pressure_unknown(struct tv_pressure *p);

#endif
