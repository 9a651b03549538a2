/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * maps is read in pieces (a process of 10,000 threads has 20,000 lines),
 * each whole line given to the parser. Resident pages are counted over the
 * private anonymous ranges only, by PAGEMAP_SCAN over each run of ranges
 * close together (a thread's stack is one guard page from the next), or
 * from pagemap's entries on kernels without it.
 */
#include "sample/memory/anatomy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "model/task.h"
#include "sample/memory/pagemap_scan.h"

#define BUF_SIZE 65536
#define TABLE_SPAN (2ULL << 20) /* what one page of page table maps */

static int maps_feed(int fd, struct anatomy *a, char *buf)
{
	size_t have = 0;
	for (;;) {
		ssize_t r = read(fd, buf + have, BUF_SIZE - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno;
		have += (size_t)r;
		size_t used = 0;
		char *nl;
		while ((nl = memchr(buf + used, '\n', have - used)) != NULL) {
			anatomy_add(a, buf + used, (size_t)(nl - (buf + used)));
			used = (size_t)(nl - buf) + 1;
		}
		if (r == 0 || (used == 0 && have == BUF_SIZE)) {
			if (have > used)
				anatomy_add(a, buf + used, have - used); /* no newline at the end, or too long */
			break;
		}
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	anatomy_finish(a);
	return 0;
}

struct tally {
	int64_t pages[ANAT_NKIND];
	uint64_t last_block; /* the last 2 MiB block counted, plus one (0: none) */
	int64_t blocks;
};

/* Present pages [lo, hi) inside range r. */
static void tally_add(struct tally *t, const struct anatomy_range *r, uint64_t lo, uint64_t hi, uint64_t page)
{
	if (lo < r->lo)
		lo = r->lo;
	if (hi > r->hi)
		hi = r->hi;
	if (hi <= lo)
		return;
	t->pages[r->kind] += (int64_t)((hi - lo) / page);
	uint64_t first = lo / TABLE_SPAN, last = (hi - 1) / TABLE_SPAN;
	if (t->last_block > first)
		first = t->last_block; /* ascending: only a block not yet counted is new */
	if (last + 1 > first) {
		t->blocks += (int64_t)(last + 1 - first);
		t->last_block = last + 1;
	}
}

/* PAGEMAP_SCAN over r[0..n) (ascending, close together); 0 or an errno. */
static int scan_run(int fd, const struct anatomy_range *r, size_t n, struct tally *t, char *buf, uint64_t page)
{
	struct tv_page_region *v = (struct tv_page_region *)(void *)buf;
	struct tv_pm_scan_arg arg = {
		.size = sizeof(arg),
		.start = r[0].lo,
		.end = r[n - 1].hi,
		.vec = (uint64_t)(uintptr_t)v,
		.vec_len = BUF_SIZE / sizeof(*v),
		/* present, and not the zero page (as smaps' Rss counts) */
		.category_inverted = TV_PAGE_IS_PFNZERO,
		.category_mask = TV_PAGE_IS_PRESENT | TV_PAGE_IS_PFNZERO,
		.return_mask = TV_PAGE_IS_PRESENT,
	};
	size_t k = 0;
	while (arg.start < arg.end) {
		int got = ioctl(fd, TV_PAGEMAP_SCAN, &arg);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return errno;
		for (int g = 0; g < got; g++) {
			while (k < n && r[k].hi <= v[g].start)
				k++;
			for (size_t m = k; m < n && r[m].lo < v[g].end; m++)
				tally_add(t, &r[m], v[g].start, v[g].end, page);
		}
		if (arg.walk_end <= arg.start)
			break;
		arg.start = arg.walk_end;
	}
	return 0;
}

/* pagemap's entries of r, a buffer at a time; 0 or an errno. */
static int read_range(int fd, const struct anatomy_range *r, struct tally *t, char *buf, uint64_t page)
{
	uint64_t *e = (uint64_t *)(void *)buf;
	uint64_t per = BUF_SIZE / sizeof(*e);
	for (uint64_t at = r->lo; at < r->hi;) {
		uint64_t want = (r->hi - at) / page < per ? (r->hi - at) / page : per;
		ssize_t got = pread(fd, e, want * sizeof(*e), (off_t)(at / page * sizeof(*e)));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < (ssize_t)sizeof(*e))
			return got < 0 ? errno : ESRCH;
		uint64_t k = (uint64_t)got / sizeof(*e);
		for (uint64_t i = 0; i < k; i++)
			if (e[i] & TV_PAGEMAP_PRESENT)
				tally_add(t, r, at + i * page, at + (i + 1) * page, page);
		at += k * page;
	}
	return 0;
}

static int count_pages(int32_t pid, const struct anatomy *a, struct tally *t, char *buf)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	int err = 0;
	bool scan = true;
	for (size_t i = 0; i < a->nranges && !err;) {
		size_t j = i + 1;
		while (j < a->nranges && a->ranges[j].lo - a->ranges[j - 1].hi <= page)
			j++;
		if (scan) {
			err = scan_run(fd, &a->ranges[i], j - i, t, buf, page);
			if (err == ENOTTY || err == EINVAL || err == EOPNOTSUPP) {
				scan = false; /* a kernel before 6.7: read the entries */
				err = 0;
				*t = (struct tally){0};
				i = 0;
				continue;
			}
		} else {
			for (size_t m = i; m < j && !err; m++)
				err = read_range(fd, &a->ranges[m], t, buf, page);
		}
		i = j;
	}
	close(fd);
	return err;
}

int anatomy_read(int32_t pid, struct anatomy *a, struct anatomy_pages *pg)
{
	for (int k = 0; k < ANAT_NKIND; k++)
		pg->kib[k] = TV_UNKNOWN;
	pg->tables_kib = TV_UNKNOWN;
	pg->err = 0;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	char *buf = malloc(BUF_SIZE);
	if (!buf) {
		close(fd);
		return ENOMEM;
	}
	int err = maps_feed(fd, a, buf);
	close(fd);
	if (!err && anatomy_total(a) == 0)
		err = ESRCH; /* a zombie's maps is empty: its memory is gone */
	if (!err) {
		struct tally t = {0};
		pg->err = a->oom ? ENOMEM : count_pages(pid, a, &t, buf);
		if (!pg->err) {
			uint64_t kib = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
			pg->kib[ANAT_STACK] = t.pages[ANAT_STACK] * (int64_t)kib;
			pg->kib[ANAT_HEAP] = t.pages[ANAT_HEAP] * (int64_t)kib;
			pg->kib[ANAT_ANON] = t.pages[ANAT_ANON] * (int64_t)kib;
			pg->tables_kib = t.blocks * 4;
		}
	}
	free(buf);
	return err;
}
