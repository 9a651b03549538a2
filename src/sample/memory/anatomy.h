/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One process's address space by kind (maps), and the resident pages of its
 * anonymous memory (pagemap): read for the detail panel, while it is open. */
#ifndef TV_SAMPLE_ANATOMY_H
#define TV_SAMPLE_ANATOMY_H

#include <stdint.h>

#include "sample/memory/anatomy_parse.h"

struct anatomy_pages {
	/* KiB resident of ANAT_STACK, ANAT_HEAP and ANAT_ANON (private anonymous
	 * ranges only); TV_UNKNOWN when pagemap could not be read */
	int64_t kib[ANAT_NKIND];
	/* page tables that map anonymous pages: 4 KiB for each 2 MiB with some
	 * (a fork copies those); TV_UNKNOWN as above */
	int64_t tables_kib;
	int err;          /* why pagemap was not read (an errno), or 0 */
};

/*
 * Reads /proc/PID/maps into a (anatomy_init'ed; the caller frees it) and the
 * resident pages of its anonymous ranges into pg. Returns 0, or an errno
 * when maps could not be read (EACCES without ptrace permission, ESRCH once
 * the process is gone).
 */
int anatomy_read(int32_t pid, struct anatomy *a, struct anatomy_pages *pg);

#endif
