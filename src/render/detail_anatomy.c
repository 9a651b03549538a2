/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A process's address space by kind, for the detail panel: words first. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "render/detail.h"
#include "sample/memory/anatomy.h"
#include "util/i18n.h"

static void why_unknown(struct detail_lines *out, int err, bool pages)
{
	char v[256];
	if (err == EACCES || err == EPERM)
		snprintf(v, sizeof(v), "%s",
			 pages ? _("Resident pages by kind are unknown: reading them needs permission to trace the "
				   "process (ptrace), as its owner or root has.")
			       : _("The address space by kind is unknown: reading the process's mappings needs "
				   "permission to trace it (ptrace), as its owner or root has."));
	else if (err == ESRCH || err == ENOENT)
		snprintf(v, sizeof(v), "%s", _("The process has ended or holds no memory: it has no mappings to read."));
	else
		/* TRANSLATORS: %s is the system's error message */
		snprintf(v, sizeof(v), pages ? _("Resident pages by kind are unknown: %s.")
					     : _("The address space by kind is unknown: %s."),
			 strerror(err));
	detail_add(out, DETAIL_NOTE, v, NULL);
}

/* "7.9G (8183940 KiB), 12M resident (12396 KiB)" as two rows: the size, then indented what is in memory. */
static void kind_rows(struct detail_lines *out, const char *label, int64_t kib, int64_t rss, bool has_rss)
{
	detail_kib_row(out, label, kib);
	if (has_rss)
		/* TRANSLATORS: indented under a kind of memory: how much of it is in memory */
		detail_kib_row(out, _("    resident"), rss);
}

/* The sentence: what the mapped size is made of, the biggest reservation first. */
static void sentence(struct detail_lines *out, const struct anatomy *a, const struct anatomy_pages *pg)
{
	char v[512], total[32], st[32], su[32], heap[32], files[32], anon[32], guard[32];
	detail_size_words(total, sizeof(total), anatomy_total(a));
	detail_size_words(st, sizeof(st), a->kib[ANAT_STACK]);
	detail_size_words(heap, sizeof(heap), a->kib[ANAT_HEAP]);
	detail_size_words(files, sizeof(files), a->kib[ANAT_FILE]);
	detail_size_words(anon, sizeof(anon), a->kib[ANAT_ANON]);
	detail_size_words(guard, sizeof(guard), a->kib[ANAT_GUARD]);
	size_t n = a->count[ANAT_STACK];
	if (pg->kib[ANAT_STACK] != TV_UNKNOWN) {
		detail_size_words(su, sizeof(su), pg->kib[ANAT_STACK]);
		/* TRANSLATORS: %1$s mapped in all; %2$zu stacks reserve %3$s and use %4$s; then the other kinds */
		snprintf(v, sizeof(v), P_("Of %s mapped, %zu stack reserves %s and uses %s of it; the heap and malloc "
					  "arenas take %s, files %s, other anonymous memory %s, guard pages and "
					  "reservations %s.",
					  "Of %s mapped, %zu stacks reserve %s and use %s of them; the heap and malloc "
					  "arenas take %s, files %s, other anonymous memory %s, guard pages and "
					  "reservations %s.",
					  n),
			 total, n, st, su, heap, files, anon, guard);
	} else {
		/* TRANSLATORS: as above, without what the stacks use */
		snprintf(v, sizeof(v), P_("Of %s mapped, %zu stack reserves %s; the heap and malloc arenas take %s, "
					  "files %s, other anonymous memory %s, guard pages and reservations %s.",
					  "Of %s mapped, %zu stacks reserve %s; the heap and malloc arenas take %s, "
					  "files %s, other anonymous memory %s, guard pages and reservations %s.",
					  n),
			 total, n, st, heap, files, anon, guard);
	}
	detail_add(out, DETAIL_NOTE, v, NULL);
}

void detail_anatomy(const struct anatomy *a, const struct anatomy_pages *pg, int err, const struct tv_task *t,
		    struct detail_lines *out)
{
	/* TRANSLATORS: section title: the process's mappings by kind */
	detail_add(out, DETAIL_HEADING, _("Address space"), NULL);
	if (!a) {
		detail_add(out, DETAIL_NOTE,
			   _("Being read: a process of many mappings, or one that forks often, takes a moment."), NULL);
		return;
	}
	if (err) {
		why_unknown(out, err, false);
		return;
	}
	sentence(out, a, pg);
	char label[96];
	detail_kib_row(out, _("Mapped (maps)"), anatomy_total(a));
	/* TRANSLATORS: %zu: how many stacks; indented under "Mapped" */
	snprintf(label, sizeof(label), _("  stacks (%zu)"), a->count[ANAT_STACK]);
	kind_rows(out, label, a->kib[ANAT_STACK], pg->kib[ANAT_STACK], true);
	/* TRANSLATORS: %zu: the [heap] and each malloc arena */
	snprintf(label, sizeof(label), _("  heap and malloc arenas (%zu)"), a->count[ANAT_HEAP]);
	kind_rows(out, label, a->kib[ANAT_HEAP], pg->kib[ANAT_HEAP], true);
	kind_rows(out, _("  other anonymous memory"), a->kib[ANAT_ANON], pg->kib[ANAT_ANON], true);
	kind_rows(out, _("  files and shared memory"), a->kib[ANAT_FILE], 0, false);
	kind_rows(out, _("  guard pages and reservations"), a->kib[ANAT_GUARD], 0, false);
	if (pg->err) {
		why_unknown(out, pg->err, true);
		return;
	}
	char v[512], pte[32], copy[32];
	detail_size_words(copy, sizeof(copy), pg->tables_kib);
	int64_t vmpte = task_mem(t)->pte;
	if (vmpte != TV_UNKNOWN) {
		detail_size_words(pte, sizeof(pte), vmpte);
		/* TRANSLATORS: %1$s page tables in all (VmPTE), %2$s of them mapping anonymous memory */
		snprintf(v, sizeof(v), _("Page tables take %s (VmPTE). A fork copies those that map anonymous memory, "
					 "about %s here (4 KiB for each 2 MiB in use: every thread's stack needs its "
					 "own); a file mapping's are filled again on demand."),
			 pte, copy);
	} else {
		snprintf(v, sizeof(v), _("A fork copies the page tables that map anonymous memory, about %s here "
					 "(4 KiB for each 2 MiB in use: every thread's stack needs its own); a file "
					 "mapping's are filled again on demand."),
			 copy);
	}
	detail_add(out, DETAIL_NOTE, v, NULL);
}

void detail_anatomy_why(const char *why, struct detail_lines *out)
{
	char v[512];
	detail_add(out, DETAIL_HEADING, _("Address space"), NULL);
	snprintf(v, sizeof(v), _("The address space by kind is unknown: %s."), why);
	detail_add(out, DETAIL_NOTE, v, NULL);
}
