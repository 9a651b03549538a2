/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/memory/stack_parse.h"

#include <string.h>

#include "util/num.h"

/* A hex number at p (an optional 0x), up to end; -1 when there is none. */
static int hex_at(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (num_parse_hex(&p, end, out) < 0)
		return -1;
	*pp = p;
	return 0;
}

enum stack_sp stack_parse_syscall(const char *buf, size_t n, uint64_t *sp)
{
	const char *end = buf + n;
	while (end > buf && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\0'))
		end--;
	if ((size_t)(end - buf) == 7 && memcmp(buf, "running", 7) == 0)
		return STACK_SP_RUNNING;
	/* the fields from the end: pc, then sp */
	const char *f[2] = {NULL, NULL};
	const char *p = end;
	int nf = 0;
	while (nf < 2) {
		while (p > buf && p[-1] != ' ')
			p--;
		f[nf++] = p;
		if (p == buf)
			break;
		p--;
		if (p > buf && p[-1] == ' ')
			return STACK_SP_BAD; /* two spaces: not the kernel's format */
	}
	if (nf < 2 || f[1] == buf) /* at least "NR sp pc" */
		return STACK_SP_BAD;
	const char *q = f[1];
	uint64_t v;
	if (hex_at(&q, end, &v) < 0 || *q != ' ')
		return STACK_SP_BAD;
	q = f[0];
	uint64_t pc;
	if (hex_at(&q, end, &pc) < 0 || q != end)
		return STACK_SP_BAD;
	*sp = v;
	return STACK_SP_OK;
}

int stack_parse_maps_line(const char *line, size_t n, struct maps_line *out)
{
	const char *p = line, *end = line + n;
	while (end > p && end[-1] == '\n')
		end--;
	if (hex_at(&p, end, &out->lo) < 0 || p == end || *p != '-')
		return -1;
	p++;
	if (hex_at(&p, end, &out->hi) < 0 || (p != end && *p != ' ') || out->hi < out->lo)
		return -1;
	/* the path is what follows the fifth field (perms, offset, device,
	 * inode) and its padding: "[stack]" is the kernel's own name, and a
	 * file's path starts with '/' */
	for (int f = 0; f < 4; f++) {
		while (p < end && *p == ' ')
			p++;
		while (p < end && *p != ' ')
			p++;
	}
	while (p < end && *p == ' ')
		p++;
	out->is_stack = end - p == 7 && memcmp(p, "[stack]", 7) == 0;
	/* "[stack:TID]": a thread's stack on kernels before 4.5 */
	out->not_stack = p < end && !(end - p >= 6 && (memcmp(p, "[anon:", 6) == 0 || memcmp(p, "[stack", 6) == 0));
	return 0;
}
