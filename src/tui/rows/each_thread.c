/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/rows/each_thread.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>

#include "model/task.h"
#include "sample/proc/proc_parse.h"
#include "sample/proc/proc_read.h"

int tui_each_thread(int32_t pid, tui_thread_fn fn, const void *arg)
{
	char path[32];
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	if (!d)
		return fn(pid, arg);
	int err = 0, done = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		int e = fn((int32_t)atoi(de->d_name), arg);
		if (!e)
			done++;
		else if (e != ESRCH && !err)
			err = e;
	}
	closedir(d);
	return err ? err : done ? 0 : ESRCH;
}

bool tui_task_same(int32_t tgid, int32_t tid, uint64_t start)
{
	if (start == TV_START_UNKNOWN)
		return true;
	char name[48], buf[1024];
	snprintf(name, sizeof(name), "/proc/%d/task/%d/stat", tgid, tid);
	ssize_t n = proc_read_at(AT_FDCWD, name, buf, sizeof(buf));
	struct proc_stat st;
	return n > 0 && proc_parse_stat(buf, (size_t)n, &st) == 0 && st.start_ticks == start;
}
