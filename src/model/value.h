/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A typed cell value, as columns produce it and renderers consume it. */
#ifndef TV_MODEL_VALUE_H
#define TV_MODEL_VALUE_H

#include <stdbool.h>
#include <stdint.h>

enum tv_value_kind { TV_V_UNKNOWN, TV_V_INT, TV_V_FLOAT, TV_V_STR };

struct tv_value {
	enum tv_value_kind kind;
	int64_t i;
	double f;
	const char *s; /* borrowed from the task */
	bool partial;  /* a lower bound: part of the contribution is known to be missing */
};

static inline struct tv_value value_unknown(void) { return (struct tv_value){.kind = TV_V_UNKNOWN}; }
struct tv_value value_int(int64_t i);       /* TV_UNKNOWN → unknown */
struct tv_value value_float(double f);      /* NaN → unknown */
struct tv_value value_str(const char *s);   /* NULL → unknown */

/* Order for sorting: unknown values last whatever the direction is handled by the caller. */
int value_compare(const struct tv_value *a, const struct tv_value *b);

#endif
