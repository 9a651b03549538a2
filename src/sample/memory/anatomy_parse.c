/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * maps names few mappings: the rest is told apart by shape. glibc maps a
 * thread's stack with an inaccessible guard right below it (---p, then rw-p),
 * and a malloc arena as 64 MiB aligned to 64 MiB, of which the start is
 * memory and the rest an inaccessible reserve (rw-p, then ---p). A mapping
 * of one of those two kinds waits for its neighbour to decide.
 */
#include "sample/memory/anatomy_parse.h"

#include <stdlib.h>
#include <string.h>

#include "util/num.h"

#define ARENA_SIZE (64ULL << 20) /* glibc's HEAP_MAX_SIZE on 64-bit */
/* A guard is a page, or what pthread_attr_setguardsize asked: far less than
 * this. Bigger inaccessible ranges are reservations (a sanitizer's shadow
 * gap, an allocator's reserve), and what lies above them is no stack. */
#define GUARD_MAX (1ULL << 20)

/* The next space-separated field: [*f, *fend); -1 when there is none. */
static int field(const char **pp, const char *end, const char **f, const char **fend)
{
	const char *p = *pp;
	while (p < end && *p == ' ')
		p++;
	if (p == end)
		return -1;
	*f = p;
	while (p < end && *p != ' ')
		p++;
	*fend = p;
	*pp = p;
	return 0;
}

int anatomy_parse_line(const char *line, size_t n, struct maps_entry *out)
{
	const char *p = line, *end = line + n;
	while (end > p && end[-1] == '\n')
		end--;
	if (num_parse_hex(&p, end, &out->lo) < 0 || p == end || *p != '-')
		return -1;
	p++;
	if (num_parse_hex(&p, end, &out->hi) < 0 || p == end || *p != ' ' || out->hi < out->lo)
		return -1;
	const char *f, *fe;
	if (field(&p, end, &f, &fe) < 0 || fe - f != 4)
		return -1;
	memcpy(out->perms, f, 4);
	/* offset, device */
	for (int i = 0; i < 2; i++)
		if (field(&p, end, &f, &fe) < 0)
			return -1;
	if (field(&p, end, &f, &fe) < 0)
		return -1;
	uint64_t inode = 0;
	for (const char *q = f; q < fe; q++) {
		if (*q < '0' || *q > '9' || inode > UINT64_MAX / 10 - 1)
			return -1;
		inode = inode * 10 + (uint64_t)(*q - '0');
	}
	out->inode = inode;
	/* the name is the rest after its padding, spaces in it kept */
	while (p < end && *p == ' ')
		p++;
	out->name = p;
	out->name_len = (size_t)(end - p);
	return 0;
}

void anatomy_init(struct anatomy *a)
{
	memset(a, 0, sizeof(*a));
}

void anatomy_free(struct anatomy *a)
{
	free(a->ranges);
	anatomy_init(a);
}

static void keep_range(struct anatomy *a, uint64_t lo, uint64_t hi, enum anatomy_kind kind)
{
	if (a->oom)
		return;
	if (a->nranges == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		struct anatomy_range *v = realloc(a->ranges, cap * sizeof(*v));
		if (!v) {
			a->oom = true;
			return;
		}
		a->ranges = v;
		a->cap = cap;
	}
	a->ranges[a->nranges++] = (struct anatomy_range){lo, hi, kind};
}

/* Adds KiB, held at INT64_MAX: maps never comes near, a corrupt one might. */
static void add_kib(struct anatomy *a, enum anatomy_kind k, uint64_t bytes)
{
	if (__builtin_add_overflow(a->kib[k], (int64_t)(bytes >> 10), &a->kib[k]))
		a->kib[k] = INT64_MAX;
}

static void count(struct anatomy *a, enum anatomy_kind k, uint64_t lo, uint64_t hi)
{
	add_kib(a, k, hi - lo);
	a->count[k]++;
}

/* The waiting mapping, with no neighbour to change its kind. */
static void flush(struct anatomy *a)
{
	struct anatomy_pend *w = &a->pend;
	if (w->what == 1) {
		count(a, ANAT_GUARD, w->lo, w->hi);
	} else if (w->what == 2) {
		count(a, ANAT_ANON, w->lo, w->hi);
		keep_range(a, w->lo, w->hi, ANAT_ANON);
	}
	w->what = 0;
}

static bool named(const struct maps_entry *e, const char *s)
{
	size_t n = strlen(s);
	return e->name_len == n && memcmp(e->name, s, n) == 0;
}

int anatomy_add(struct anatomy *a, const char *line, size_t n)
{
	struct maps_entry e;
	if (anatomy_parse_line(line, n, &e) < 0)
		return -1;
	if (named(&e, "[vsyscall]"))
		return 0; /* a fixed page of the kernel's, not in VmSize */
	bool priv = e.perms[3] == 'p';
	/* no file behind it: unnamed, or named by the program ("[anon:...]") */
	bool anon = priv && e.inode == 0 &&
		    (e.name_len == 0 || (e.name_len > 6 && memcmp(e.name, "[anon:", 6) == 0));
	bool none = anon && e.perms[0] == '-' && e.perms[1] == '-' && e.perms[2] == '-';
	bool rw = anon && e.perms[0] == 'r' && e.perms[1] == 'w';
	struct anatomy_pend *w = &a->pend;
	if (w->what == 1 && rw && w->hi == e.lo && w->hi - w->lo <= GUARD_MAX) {
		/* memory right above a guard: a thread's stack */
		count(a, ANAT_GUARD, w->lo, w->hi);
		count(a, ANAT_STACK, e.lo, e.hi);
		keep_range(a, e.lo, e.hi, ANAT_STACK);
		w->what = 0;
		return 0;
	}
	if (w->what == 2 && none && w->hi == e.lo && w->lo % ARENA_SIZE == 0 && e.hi - w->lo == ARENA_SIZE) {
		/* a malloc arena: its memory, then the rest of its reserve */
		add_kib(a, ANAT_HEAP, e.hi - w->lo);
		a->count[ANAT_HEAP]++;
		keep_range(a, w->lo, w->hi, ANAT_HEAP);
		w->what = 0;
		return 0;
	}
	flush(a);
	if (none || rw) {
		*w = (struct anatomy_pend){e.lo, e.hi, none ? 1 : 2};
		return 0;
	}
	if (named(&e, "[stack]")) {
		count(a, ANAT_STACK, e.lo, e.hi);
		keep_range(a, e.lo, e.hi, ANAT_STACK);
	} else if (named(&e, "[heap]")) {
		count(a, ANAT_HEAP, e.lo, e.hi);
		keep_range(a, e.lo, e.hi, ANAT_HEAP);
	} else if (e.inode != 0 || !priv || (e.name_len && e.name[0] == '/')) {
		count(a, ANAT_FILE, e.lo, e.hi);
	} else {
		count(a, ANAT_ANON, e.lo, e.hi);
		if (anon)
			keep_range(a, e.lo, e.hi, ANAT_ANON);
	}
	return 0;
}

void anatomy_finish(struct anatomy *a)
{
	flush(a);
}

int64_t anatomy_total(const struct anatomy *a)
{
	int64_t t = 0;
	for (int k = 0; k < ANAT_NKIND; k++)
		if (__builtin_add_overflow(t, a->kib[k], &t))
			return INT64_MAX;
	return t;
}
