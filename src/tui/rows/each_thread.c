/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/rows/each_thread.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

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
