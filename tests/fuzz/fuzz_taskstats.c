/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Taskstats netlink replies: walked message by message as the reader does;
 * every decoded counter is a known value or TV_UNKNOWN. */
#include <string.h>

#include "fuzz.h"
#include "sample/taskstats/taskstats_parse.h"

static void check_result(const struct ts_result *r)
{
	for (int c = 0; c < TV_DELAY_NCLASS; c++) {
		const struct ts_delay *d = &r->delay[c];
		FUZZ_CHECK(d->count == TV_UNKNOWN || d->count >= 0);
		FUZZ_CHECK(d->total_ns == TV_UNKNOWN || d->total_ns >= 0);
	}
	FUZZ_CHECK(r->nvcsw == TV_UNKNOWN || r->nvcsw >= 0);
	FUZZ_CHECK(r->nivcsw == TV_UNKNOWN || r->nivcsw >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	/* the first two bytes are the resolved family id */
	uint16_t family = (uint16_t)(data[0] | data[1] << 8);
	data += 2;
	size -= 2;
	unsigned char *buf = malloc(size ? size : 1);
	FUZZ_CHECK(buf != NULL);
	memcpy(buf, data, size);
	size_t off = 0;
	while (off < size) {
		struct ts_reply rep;
		ssize_t k = ts_parse_msg(buf + off, size - off, family, &rep);
		if (k <= 0)
			break;
		FUZZ_CHECK((size_t)k <= size - off);
		if (rep.kind == TS_MSG_STATS)
			check_result(&rep.r);
		off += (size_t)k;
	}
	/* the payload decoder alone, on the same bytes */
	struct ts_result r;
	if (ts_parse_stats(buf, size, &r) == 0)
		check_result(&r);
	free(buf);
	return 0;
}
