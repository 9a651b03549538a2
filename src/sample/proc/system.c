/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/proc/system.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "sample/proc/proc_read.h"

static void system_init(struct sys_info *s)
{
	memset(s, 0, sizeof(*s));
	s->mem = (struct sys_mem){-1, -1, -1, -1, -1, -1, -1};
	s->load[0] = s->load[1] = s->load[2] = -1;
	s->uptime = -1;
}

void system_free(struct sys_info *s)
{
	free(s->cpu);
	system_init(s);
}

/* Reads up to 8 unsigned fields after the label; missing ones stay 0 (old kernels lack steal). */
static void parse_cpu_fields(const char *p, struct sys_cpu *c)
{
	uint64_t *f[] = {&c->user, &c->nice, &c->system, &c->idle, &c->iowait, &c->irq, &c->softirq, &c->steal};
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		char *end;
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		*f[i] = strtoull(p, &end, 10);
		p = end;
	}
}

int system_parse_stat(const char *buf, struct sys_info *out)
{
	bool have_all = false;
	size_t cap = 0;
	free(out->cpu);
	out->cpu = NULL;
	out->ncpu = 0;
	for (const char *line = buf; line && *line;) {
		const char *nl = strchr(line, '\n');
		if (strncmp(line, "cpu ", 4) == 0) {
			parse_cpu_fields(line + 4, &out->all);
			have_all = true;
		} else if (strncmp(line, "cpu", 3) == 0 && line[3] >= '0' && line[3] <= '9') {
			if (out->ncpu == cap) {
				size_t ncap = cap ? cap * 2 : 8;
				struct sys_cpu *p = realloc(out->cpu, ncap * sizeof(*p));
				if (!p)
					return -1;
				out->cpu = p;
				cap = ncap;
			}
			const char *p = line + 3;
			while (*p >= '0' && *p <= '9')
				p++;
			parse_cpu_fields(p, &out->cpu[out->ncpu++]);
		}
		line = nl ? nl + 1 : NULL;
	}
	return have_all ? 0 : -1;
}

int system_parse_cpu_all(const char *buf, struct sys_cpu *out)
{
	if (strncmp(buf, "cpu ", 4) != 0)
		return -1;
	parse_cpu_fields(buf + 4, out);
	return 0;
}

uint64_t system_cpu_busy(const struct sys_cpu *c)
{
	return c->user + c->nice + c->system + c->irq + c->softirq;
}

void system_parse_meminfo(const char *buf, struct sys_mem *out)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{"MemTotal:", offsetof(struct sys_mem, total)},
		{"MemFree:", offsetof(struct sys_mem, free)},
		{"MemAvailable:", offsetof(struct sys_mem, available)},
		{"Buffers:", offsetof(struct sys_mem, buffers)},
		{"Cached:", offsetof(struct sys_mem, cached)},
		{"SwapTotal:", offsetof(struct sys_mem, swap_total)},
		{"SwapFree:", offsetof(struct sys_mem, swap_free)},
	};
	*out = (struct sys_mem){-1, -1, -1, -1, -1, -1, -1};
	for (const char *line = buf; line && *line;) {
		const char *nl = strchr(line, '\n');
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			size_t kl = strlen(keys[i].key);
			if (strncmp(line, keys[i].key, kl) != 0)
				continue;
			const char *p = line + kl;
			while (*p == ' ')
				p++;
			if (*p < '0' || *p > '9')
				break;
			/* a value past int64 stays unknown, not the saturated maximum */
			errno = 0;
			int64_t v = (int64_t)strtoll(p, NULL, 10);
			if (errno == 0)
				memcpy((char *)out + keys[i].off, &v, sizeof(v));
			break;
		}
		line = nl ? nl + 1 : NULL;
	}
}

/* A non-negative decimal as the kernel prints it ("0.25", "12345"), at most
 * max, followed by a space, a newline or the end. Not strtod: it would also
 * take "inf", "nan", hex and exponents ("1e999" is infinity), and its
 * decimal point follows the locale. */
static const char *parse_udecimal(const char *p, double max, double *v)
{
	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	double whole = 0, frac = 0, scale = 1;
	while (*p >= '0' && *p <= '9')
		whole = whole * 10 + (*p++ - '0');
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return NULL;
		/* digits past the 18th cannot change a double */
		for (int n = 0; *p >= '0' && *p <= '9'; n++, p++)
			if (n < 18) {
				frac = frac * 10 + (*p - '0');
				scale *= 10;
			}
	}
	if (*p != ' ' && *p != '\n' && *p != '\0')
		return NULL;
	double r = whole + frac / scale;
	if (!(r <= max)) /* also infinity, after enough digits */
		return NULL;
	*v = r;
	return p;
}

int system_parse_loadavg(const char *buf, double load[3])
{
	const char *p = buf;
	double v[3];
	for (int i = 0; i < 3; i++)
		if (!(p = parse_udecimal(p, SYSTEM_LOAD_MAX, &v[i])))
			return -1;
	memcpy(load, v, sizeof(v));
	return 0;
}

int system_parse_uptime(const char *buf, double *seconds)
{
	double v;
	if (!parse_udecimal(buf, SYSTEM_UPTIME_MAX, &v))
		return -1;
	*seconds = v;
	return 0;
}

static uint64_t cpu_sum(const struct sys_cpu *c)
{
	return c->user + c->nice + c->system + c->idle + c->iowait + c->irq + c->softirq + c->steal;
}

/* A counter that went backwards (CPU hot-plug) counts as no time. */
static double cpu_part(uint64_t prev, uint64_t cur, double total)
{
	return cur > prev ? (double)(cur - prev) / total : 0.0;
}

void system_cpu_use(const struct sys_cpu *prev, const struct sys_cpu *cur, struct sys_cpu_use *out)
{
	memset(out, 0, sizeof(*out));
	uint64_t a = cpu_sum(prev), b = cpu_sum(cur);
	if (b <= a)
		return;
	double total = (double)(b - a);
	out->user = cpu_part(prev->user, cur->user, total);
	out->nice = cpu_part(prev->nice, cur->nice, total);
	out->system = cpu_part(prev->system, cur->system, total);
	out->other = cpu_part(prev->irq + prev->softirq + prev->steal, cur->irq + cur->softirq + cur->steal, total);
	out->total = out->user + out->nice + out->system + out->other;
	if (out->total > 1.0)
		out->total = 1.0;
}

void system_read(struct sys_info *out)
{
	/* /proc/stat grows with the CPU count: about 150 bytes per CPU */
	enum { STAT_CAP = 1 << 20, SMALL_CAP = 8192 };
	free(out->cpu);
	system_init(out);
	char *buf = malloc(STAT_CAP);
	if (!buf)
		return;
	if (proc_read_at(AT_FDCWD, "/proc/stat", buf, STAT_CAP) >= 0 && system_parse_stat(buf, out) < 0) {
		free(out->cpu);
		out->cpu = NULL;
		out->ncpu = 0;
	}
	if (proc_read_at(AT_FDCWD, "/proc/meminfo", buf, SMALL_CAP) >= 0)
		system_parse_meminfo(buf, &out->mem);
	if (proc_read_at(AT_FDCWD, "/proc/loadavg", buf, SMALL_CAP) >= 0)
		system_parse_loadavg(buf, out->load);
	if (proc_read_at(AT_FDCWD, "/proc/uptime", buf, SMALL_CAP) >= 0)
		system_parse_uptime(buf, &out->uptime);
	free(buf);
}
