/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What e and l show: a process's environment and its open files, read from
 * /proc when asked (never by the sampler). */
#ifndef TV_TUI_INSPECT_H
#define TV_TUI_INSPECT_H

#include <stdint.h>

#include "render/detail.h"

/* Replaces out with the environment of process pid, one NAME=value note per
 * variable, raw bytes (a renderer sanitizes them). Returns 0 or an errno
 * (EACCES/EPERM: another user's process; ESRCH: it has exited). */
int inspect_environ(int32_t pid, struct detail_lines *out);

/* Replaces out with the working directory, root, executable and open file
 * descriptors of task tid of process pid: each with its access mode, file
 * position and target, raw bytes. Returns 0 or an errno as above. */
int inspect_files(int32_t pid, int32_t tid, struct detail_lines *out);

#endif
