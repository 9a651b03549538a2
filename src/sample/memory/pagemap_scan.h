/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PAGEMAP_SCAN ioctl on /proc/PID/pagemap (Linux 6.7): runs of pages by
 * category, holes skipped a page table at a time, where reading pagemap
 * costs 8 bytes per page of the range. Declared here for older headers; the
 * ABI is fixed.
 */
#ifndef TV_SAMPLE_PAGEMAP_SCAN_H
#define TV_SAMPLE_PAGEMAP_SCAN_H

#include <stdint.h>
#include <sys/ioctl.h>

struct tv_page_region {
	uint64_t start, end, categories;
};
struct tv_pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define TV_PAGEMAP_SCAN _IOWR('f', 16, struct tv_pm_scan_arg)
#define TV_PAGE_IS_PRESENT (1u << 3)
#define TV_PAGE_IS_PFNZERO (1u << 5) /* the shared zero page, mapped by a read: no memory of the process's */
/* bit 63 of a pagemap entry: the page is in memory */
#define TV_PAGEMAP_PRESENT (1ULL << 63)

#endif
