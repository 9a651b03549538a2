/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host function table plugins call, in the helper: task accessors and value setters. */
#include "plugin/plugin_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

static int32_t api_task_tid(const struct taskview_task *task) { return task->tid; }
static int32_t api_task_tgid(const struct taskview_task *task) { return task->tgid; }
static int32_t api_task_is_thread(const struct taskview_task *task) { return task->is_thread ? 1 : 0; }
static const char *api_task_comm(const struct taskview_task *task) { return task->comm; }

/* NAME of the task's directory, relative to /proc: one openat, no descriptor
 * per task. Joined by hand: this runs for every file of every task. */
static int task_open(const struct taskview_task *task, const char *name, int flags)
{
	char path[PATH_MAX];
	size_t dl = strlen(task->dir), nl = strlen(name);
	if (dl + 1 + nl >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(path, task->dir, dl);
	path[dl] = '/';
	memcpy(path + dl + 1, name, nl + 1);
	return openat(task->procfd, path, flags);
}

/* Plugins stay inside the task's /proc directory: no absolute paths, no "..". */
static bool name_ok(const char *name)
{
	if (!name || !*name || *name == '/')
		return false;
	for (const char *p = name; *p;) {
		size_t len = strcspn(p, "/");
		if (len == 2 && p[0] == '.' && p[1] == '.')
			return false;
		p += len;
		if (*p)
			p++;
	}
	return true;
}

static int64_t api_read_file(const struct taskview_task *task, const char *name, char *buf, uint32_t size)
{
	if (!buf || size == 0 || !name_ok(name))
		return -EINVAL;
	int fd = task_open(task, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	/* /proc files may need several reads; stop at EOF or a full buffer */
	size_t got = 0;
	while (got < (size_t)size - 1) {
		ssize_t r = read(fd, buf + got, (size_t)size - 1 - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			buf[0] = '\0';
			return -e;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	return (int64_t)got;
}

static int64_t api_count_entries(const struct taskview_task *task, const char *name)
{
	if (!name_ok(name))
		return -EINVAL;
	int fd = task_open(task, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		return -e;
	}
	int64_t n = 0;
	struct dirent *de;
	errno = 0;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			n++;
	}
	/* a task that exits while we list it fails with ENOENT/ESRCH here */
	int e = errno;
	closedir(d);
	return e ? -e : n;
}

static int32_t api_wanted(const struct taskview_values *v, uint32_t index)
{
	return v && index < v->n && v->wanted[index] ? 1 : 0;
}

static struct tv_pvalue *slot_for(struct taskview_values *v, uint32_t index)
{
	if (!v || index >= v->n || !v->wanted[index])
		return NULL;
	struct tv_pvalue *pv = &v->pv[index];
	free(pv->s);
	*pv = (struct tv_pvalue){.known = false, .i = TV_UNKNOWN, .f = NAN};
	return pv;
}

static void api_set_int(struct taskview_values *v, uint32_t index, int64_t value)
{
	struct tv_pvalue *pv = slot_for(v, index);
	if (!pv || value == INT64_MIN)
		return;
	switch (v->cols[index].type) {
	case TASKVIEW_TYPE_INTEGER:
	case TASKVIEW_TYPE_BYTES:
		/* counters: f stays NaN until the model derives the rate */
		pv->i = value;
		pv->known = true;
		break;
	case TASKVIEW_TYPE_FLOAT:
	case TASKVIEW_TYPE_PERCENT:
		pv->f = (double)value;
		pv->known = true;
		break;
	default:
		break;
	}
}

static void api_set_float(struct taskview_values *v, uint32_t index, double value)
{
	struct tv_pvalue *pv = slot_for(v, index);
	if (!pv || !isfinite(value))
		return;
	const struct plugin_colinfo *c = &v->cols[index];
	switch (c->type) {
	case TASKVIEW_TYPE_FLOAT:
	case TASKVIEW_TYPE_PERCENT:
		pv->f = value;
		pv->known = true;
		break;
	case TASKVIEW_TYPE_INTEGER:
	case TASKVIEW_TYPE_BYTES:
		/* a counter rounded from a float would make up rates: leave it unknown */
		if (c->counter || value >= 9.2e18 || value <= -9.2e18)
			break;
		pv->i = llround(value);
		pv->known = true;
		break;
	default:
		break;
	}
}

static void api_set_string(struct taskview_values *v, uint32_t index, const char *value)
{
	struct tv_pvalue *pv = slot_for(v, index);
	if (!pv || !value || v->cols[index].type != TASKVIEW_TYPE_STRING)
		return;
	pv->s = strndup(value, PLUGIN_STRING_MAX);
	pv->known = pv->s != NULL;
}

void plugin_values_clear(struct tv_pvalue *pv, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		free(pv[k].s);
		pv[k] = (struct tv_pvalue){.known = false, .i = TV_UNKNOWN, .f = NAN};
	}
}

static const struct taskview_host host_table = {
	.struct_size = sizeof(struct taskview_host),
	.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR,
	.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR,
	.version = TV_VERSION,
	.task_tid = api_task_tid,
	.task_tgid = api_task_tgid,
	.task_is_thread = api_task_is_thread,
	.task_comm = api_task_comm,
	.read_file = api_read_file,
	.count_entries = api_count_entries,
	.wanted = api_wanted,
	.set_int = api_set_int,
	.set_float = api_set_float,
	.set_string = api_set_string,
};

const struct taskview_host *plugin_api_host(void)
{
	return &host_table;
}
