/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pure parsers for control groups and pressure stall information: a task's
 * cgroup from /proc/PID/cgroup, the cgroup2 mount from mountinfo, a readable
 * name for a cgroup path, and the lines of a *.pressure file.
 */
#ifndef TV_SAMPLE_CGROUP_PARSE_H
#define TV_SAMPLE_CGROUP_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cgroup_version { CGROUP_NONE, CGROUP_V1_SYSTEMD, CGROUP_V2 };

/* The kernel writes at most PATH_MAX - 1 bytes of a path into
 * /proc/PID/cgroup and cuts a longer one there, silently: a path this long
 * may name a group that does not exist. */
#define CGROUP_PATH_CUT 4095

/*
 * The cgroup of a task from /proc/PID/cgroup: the unified ("0::") path when
 * there is one, else the v1 "name=systemd" hierarchy's. Writes the path
 * (starting with '/') into out (cap bytes, NUL-terminated; a longer path
 * fails, and so does one of CGROUP_PATH_CUT bytes or more: it may be cut).
 * Returns the version found, CGROUP_NONE when neither is there (or the
 * path is unknown).
 */
enum cgroup_version cgroup_parse_membership(const char *buf, size_t len, char *out, size_t cap);

/*
 * Where the hierarchy is mounted, from /proc/self/mountinfo: the cgroup2
 * mount (version CGROUP_V2), or the v1 hierarchy named "systemd"
 * (CGROUP_V1_SYSTEMD). Octal escapes in the mount point (\040) are decoded.
 * Returns false when there is none.
 */
bool cgroup_parse_mount(const char *buf, size_t len, enum cgroup_version version, char *out, size_t cap);

/*
 * A short, readable name for a cgroup path: the systemd unit it belongs to
 * ("nginx.service", "session-3.scope"), a container ("docker:0123456789ab",
 * "podman:…", "containerd:…", "crio:…"), a Kubernetes pod ("pod:UID"), or
 * the path's last part ("/" for the root). Writes into out (cap bytes).
 */
void cgroup_unit_name(const char *path, char *out, size_t cap);

/* One line of a pressure file: the share of time (avg10/60/300, percent) some
 * or all tasks stalled, and the total stall time in µs. */
struct psi_line {
	bool known;
	double avg10, avg60, avg300;
	uint64_t total_us;
};

struct psi {
	struct psi_line some, full;
};

/* Parses /proc/pressure/{cpu,io,memory} or a cgroup's *.pressure. Returns 0,
 * or -1 when no "some" line is there (lines missing stay unknown). */
int psi_parse(const char *buf, size_t len, struct psi *out);

/* A cgroup's cpu.stat: the CPU time of every task that ever ran in it (and
 * in its nested groups), ended ones included; each -1 when absent. */
struct cg_cpu_stat {
	int64_t usage_us, user_us, system_us;
};

/* Parses cpu.stat ("usage_usec N" lines). Returns 0, or -1 when there is no usage_usec. */
int cg_cpu_stat_parse(const char *buf, size_t len, struct cg_cpu_stat *out);

#endif
