/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers in cells: for any value, type and width, a cell is exactly as wide
 * as asked and holds the number in some honest form or '#'s; never a number
 * with digits cut off (checked by reading the cell back). */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "model/column.h"
#include "render/format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3 + sizeof(double))
		return 0;
	struct column col = {.id = "fuzz", .header = "F", .width = 1};
	col.type = (enum col_type)(data[0] % (COL_FLOAT + 1));
	size_t width = data[1] % 40;
	bool is_int = data[2] & 1;
	struct tv_value v;
	if (is_int) {
		int64_t i;
		memcpy(&i, data + 3, sizeof(i));
		v = value_int(i);
	} else {
		double f;
		memcpy(&f, data + 3, sizeof(f));
		v = value_float(f);
	}
	bool known = v.kind == TV_V_INT || (v.kind == TV_V_FLOAT && isfinite(v.f));
	v.partial = (data[2] & 2) && v.kind != TV_V_UNKNOWN;
	struct buf b;
	buf_init(&b);
	format_cell(&b, &col, &v, width, NULL, true);
	FUZZ_CHECK(b.len == width);
	const char *p = b.data ? b.data : "";
	size_t sp = strspn(p, " ");
	/* unknown and infinite values are "-", never marked */
	if (!known) {
		FUZZ_CHECK(width == 0 || (sp == width - 1 && p[sp] == '-'));
		buf_free(&b);
		return 0;
	}
	/* left or right: the number, the mark, the padding */
	if (sp == width || p[sp] == '#') {
		buf_free(&b);
		return 0;
	}
	char num[64];
	size_t len = strcspn(p + sp, " ");
	FUZZ_CHECK(len < sizeof(num));
	memcpy(num, p + sp, len);
	num[len] = '\0';
	if (v.partial) {
		FUZZ_CHECK(len && num[len - 1] == '+');
		num[--len] = '\0';
	}
	/* plain numbers (no unit, no time form) must be the value exactly as
	 * rounded to their decimals */
	char *end;
	double shown = strtod(num, &end);
	if (*end == '\0' && len && !strchr(num, 'e')) {
		double truth = v.kind == TV_V_INT ? (double)v.i : v.f;
		const char *dot = strchr(num, '.');
		int dec = dot ? (int)strlen(dot + 1) : 0;
		FUZZ_CHECK(fabs(shown - truth) <= 0.5 * pow(10, -dec) * 1.000001 + fabs(truth) * 1e-12);
	}
	buf_free(&b);
	return 0;
}
