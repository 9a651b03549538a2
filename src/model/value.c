/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "model/value.h"
#include "model/task.h"

#include <math.h>
#include <string.h>

struct tv_value value_int(int64_t i)
{
	if (i == TV_UNKNOWN)
		return value_unknown();
	return (struct tv_value){.kind = TV_V_INT, .i = i, .f = (double)i};
}

struct tv_value value_float(double f)
{
	if (isnan(f))
		return value_unknown();
	return (struct tv_value){.kind = TV_V_FLOAT, .f = f};
}

struct tv_value value_str(const char *s)
{
	if (!s)
		return value_unknown();
	return (struct tv_value){.kind = TV_V_STR, .s = s};
}

int value_compare(const struct tv_value *a, const struct tv_value *b)
{
	if (a->kind == TV_V_UNKNOWN || b->kind == TV_V_UNKNOWN)
		return (a->kind == TV_V_UNKNOWN) - (b->kind == TV_V_UNKNOWN);
	if (a->kind == TV_V_STR || b->kind == TV_V_STR) {
		const char *x = a->kind == TV_V_STR ? a->s : "";
		const char *y = b->kind == TV_V_STR ? b->s : "";
		return strcmp(x, y);
	}
	if (a->kind == TV_V_INT && b->kind == TV_V_INT)
		return (a->i > b->i) - (a->i < b->i);
	return (a->f > b->f) - (a->f < b->f);
}
