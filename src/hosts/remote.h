/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command that reaches a host (pure): ssh with the user's own
 * configuration, and on the other side taskview --stream with what the
 * view selects, so that only that is read and sent. The values are quoted
 * for a POSIX shell (sh, bash, dash, zsh, ksh) on the host.
 *
 *   TASKVIEW_SSH     the ssh command, words split at blanks (default "ssh")
 *   TASKVIEW_REMOTE  the remote command that runs taskview, as shell words
 *                    (default "taskview"; e.g. "sudo -n taskview")
 */
#ifndef TV_HOSTS_REMOTE_H
#define TV_HOSTS_REMOTE_H

#include "cli.h"
#include "hosts/act.h"
#include "util/buf.h"

/* The columns a remote is asked for when the viewer prints metrics (--format
 * openmetrics): one for each thing metrics_needs() reads. */
#define REMOTE_METRICS_COLUMNS "pid,comm,cgroup,cpu,threads,vm_size,vm_rss,vm_pte,vm_swap,ctxt_vol,ctxt_invol,cpu_delay"

struct remote_argv {
	char **v;    /* NULL-terminated; v[i] point into words */
	size_t n;
	char *words; /* owned */
};

/* Returns 0, or -1 when out of memory. ssh and remote: NULL for the defaults. */
int remote_argv_build(struct remote_argv *a, const char *ssh, const char *remote, const char *host,
		      const struct cli_opts *o);
/* ssh to host running taskview --act for r (hosts/act.h); 0, or -1 when out of memory. */
int remote_argv_act(struct remote_argv *a, const char *ssh, const char *remote, const char *host,
		    const struct act_req *r);
void remote_argv_free(struct remote_argv *a);
/* Appends s to b as one word of a POSIX shell, and of fish (a login shell
 * the remote user may have). */
void remote_quote(struct buf *b, const char *s);

#endif
