/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record/errmsg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *rec_err_path(const char *fmt, const char *path, int e)
{
	char tmp[1024];
	if (e)
		snprintf(tmp, sizeof(tmp), fmt, path, strerror(e));
	else
		snprintf(tmp, sizeof(tmp), fmt, path);
	return strdup(tmp);
}
