/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/screen/wrap.h"

#include "util/text.h"

size_t tui_wrap(const char *s, size_t width, bool utf8, const char **start, size_t *len, size_t max)
{
	size_t n = 0;
	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		size_t take = 0;
		for (size_t i = 0;;) {
			size_t j = i;
			while (s[j] && s[j] != ' ')
				j++;
			if (take && text_width(s, j, utf8) > width)
				break;
			take = j;
			if (!s[j])
				break;
			i = j + 1;
		}
		if (n < max) {
			start[n] = s;
			len[n] = take;
		}
		n++;
		s += take;
	}
	return n;
}
