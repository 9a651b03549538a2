/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Several hosts at once (--host, --hosts-file), through ssh: each host's
 * taskview --stream sends its samples as a recording, and rates come from
 * that host's own samples and clock. In batch mode each host's samples are
 * printed as they come, with the host named on the sample and on each task.
 * A host that fails or falls silent is told on stderr: given up before its
 * first sample, tried again after (hosts/fleet.h), and never holds up the
 * others.
 */
#ifndef TV_HOSTS_HOSTS_H
#define TV_HOSTS_HOSTS_H

#include "cli.h"
#include "hosts/hostlist.h"

/* Returns the exit status: 0 when every host gave its samples, 1 when one
 * did not (told on stderr), 2 for bad input. */
int hosts_run(const struct cli_opts *o);

/* -r PATH (-b) of a recording of several hosts (top: its reader, which
 * names them): each host's samples as the live run printed them. Returns
 * the exit status; 1 also when a host's samples could not be read. */
struct rec_reader;
int hosts_replay_run(const struct cli_opts *o, struct rec_reader *top);

/* The hosts of --host and --hosts-file into l; 0, or -1 after printing why. */
int hosts_gather(struct hostlist *l, const struct cli_opts *o);

#endif
