/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hosts of --host and --hosts-file (pure, over buffers). A host is what
 * ssh takes as its destination: a name, an alias of the user's ssh
 * configuration, user@host, or an address. One that could be read as an
 * option or a second word (a leading '-', spaces, control bytes) is refused.
 */
#ifndef TV_HOSTS_HOSTLIST_H
#define TV_HOSTS_HOSTLIST_H

#include <stddef.h>

#include "util/buf.h"

#define HOST_NAME_MAX_LEN 255
#define HOSTS_MAX 256 /* three descriptors each, within the usual 1024 */

struct hostlist {
	char **v;   /* owned */
	size_t n;
};

void hostlist_init(struct hostlist *l);
void hostlist_free(struct hostlist *l);
/* Adds one host (a name a recording holds). Returns 0, or -1 with a message in err. */
int hostlist_add(struct hostlist *l, const char *name, struct buf *err);
/* Adds the comma-separated hosts of text (a repeated host is taken once).
 * Returns 0, or -1 with a message in err. */
int hostlist_add_csv(struct hostlist *l, const char *text, struct buf *err);
/* Adds the hosts of a file's n bytes: one a line, blank lines and what
 * follows '#' ignored. what names the file in messages. Returns 0 or -1. */
int hostlist_add_lines(struct hostlist *l, const char *p, size_t n, const char *what, struct buf *err);

#endif
