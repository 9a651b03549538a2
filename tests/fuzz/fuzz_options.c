/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the command line and the settings file hand over as text: PID lists,
 * column lists, numbers, the text filter. */
#include <string.h>

#include "fuzz.h"
#include "model/column.h"
#include "util/num.h"
#include "util/text.h"
#include "view/filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *s = fuzz_cstr(data + 1, size - 1);
	switch (data[0] % 4) {
	case 0: {
		struct filter f;
		filter_init(&f);
		char *bad = NULL;
		if (filter_add_pids(&f, s, &bad) == 0) {
			FUZZ_CHECK(bad == NULL);
			for (size_t i = 0; i < f.npids; i++) {
				FUZZ_CHECK(f.pids[i] >= 1);
				FUZZ_CHECK(i == 0 || f.pids[i - 1] < f.pids[i]); /* sorted, no duplicates */
				FUZZ_CHECK(filter_wants_pid(&f, f.pids[i]));
			}
		}
		free(bad);
		filter_free(&f);
		break;
	}
	case 1: {
		struct colset cs;
		FUZZ_CHECK(colset_init(&cs) == 0);
		struct colsel sel = {0};
		char *bad = NULL;
		if (colsel_parse(&cs, s, &sel, &bad) == 0)
			for (size_t i = 0; i < sel.n; i++)
				FUZZ_CHECK(sel.idx[i] >= 0 && (size_t)sel.idx[i] < cs.n);
		free(bad);
		colsel_free(&sel);
		colset_free(&cs);
		break;
	}
	case 2: {
		int64_t v;
		if (num_parse_int(s, -1000, 1000, &v))
			FUZZ_CHECK(v >= -1000 && v <= 1000);
		double d;
		if (num_parse_double(s, &d))
			FUZZ_CHECK(d == d);
		break;
	}
	default: {
		/* the needle is the first half */
		size_t n = strlen(s) / 2;
		char *needle = strndup(s, n);
		FUZZ_CHECK(needle != NULL);
		FUZZ_CHECK(text_contains_icase(s, needle));
		struct filter f;
		filter_init(&f);
		FUZZ_CHECK(filter_set_text(&f, needle) == 0);
		FUZZ_CHECK(filter_matches_text(&f, s, NULL));
		filter_free(&f);
		free(needle);
		break;
	}
	}
	free(s);
	return 0;
}
