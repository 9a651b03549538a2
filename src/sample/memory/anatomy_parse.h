/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pure parser: what a process's address space is made of, from its maps. */
#ifndef TV_SAMPLE_ANATOMY_PARSE_H
#define TV_SAMPLE_ANATOMY_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a mapping is, as far as maps tells. */
enum anatomy_kind {
	ANAT_STACK,   /* the main [stack], or anonymous memory just above a guard */
	ANAT_GUARD,   /* inaccessible anonymous memory: guard pages, reservations */
	ANAT_HEAP,    /* [heap], or a malloc arena (64 MiB aligned: memory, then its reserve) */
	ANAT_FILE,    /* a file (or shared memory) mapped */
	ANAT_ANON,    /* other anonymous memory, the kernel's [vdso] and [vvar] */
	ANAT_NKIND,
};

/* An anonymous private range, kept for counting its resident pages. */
struct anatomy_range {
	uint64_t lo, hi;
	enum anatomy_kind kind; /* ANAT_STACK, ANAT_HEAP or ANAT_ANON */
};

struct anatomy {
	int64_t kib[ANAT_NKIND];   /* KiB mapped of each kind; their sum is VmSize */
	size_t count[ANAT_NKIND];  /* mappings of each kind (an arena's two count once) */
	/* anonymous private ranges that may hold pages, ascending; owned */
	struct anatomy_range *ranges;
	size_t nranges, cap;
	bool oom;                  /* a range could not be kept: resident figures are unknown */
	/* the mapping seen last, whose kind its neighbour decides */
	struct anatomy_pend {
		uint64_t lo, hi;
		int what;          /* 0 none, 1 inaccessible anonymous, 2 read-write anonymous */
	} pend;
};

/* One line of /proc/PID/maps, in full. */
struct maps_entry {
	uint64_t lo, hi;          /* [lo, hi) */
	char perms[4];            /* "rw-p" */
	uint64_t inode;
	const char *name;         /* the path or "[heap]"; within the line, not NUL-terminated */
	size_t name_len;
};

/* Parses one line (without or with its newline); -1 when malformed. */
int anatomy_parse_line(const char *line, size_t n, struct maps_entry *out);

void anatomy_init(struct anatomy *a);
void anatomy_free(struct anatomy *a);
/* Adds one line of maps (in address order); -1 when it is malformed (it is skipped). */
int anatomy_add(struct anatomy *a, const char *line, size_t n);
/* After the last line: the mapping still waiting for its neighbour is counted. */
void anatomy_finish(struct anatomy *a);

/* KiB mapped in all (VmSize). */
int64_t anatomy_total(const struct anatomy *a);

#endif
