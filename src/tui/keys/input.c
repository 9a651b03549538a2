/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/keys/input.h"

#include <curses.h>
#include <string.h>

void input_set(struct input *in, const char *text)
{
	size_t n = text ? strlen(text) : 0;
	if (n >= INPUT_MAX)
		n = INPUT_MAX - 1;
	memcpy(in->text, text ? text : "", n);
	in->text[n] = '\0';
	in->len = n;
}

enum input_result input_key(struct input *in, int key)
{
	switch (key) {
	case 27:
		return INPUT_CANCEL;
	case '\r':
	case '\n':
	case KEY_ENTER:
		return INPUT_DONE;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (in->len == 0)
			return INPUT_NONE;
		/* a whole UTF-8 character: continuation bytes, then its lead */
		while (in->len > 0 && ((unsigned char)in->text[in->len - 1] & 0xc0) == 0x80)
			in->len--;
		if (in->len > 0)
			in->len--;
		in->text[in->len] = '\0';
		return INPUT_CHANGED;
	case 'U' & 0x1f:
		if (in->len == 0)
			return INPUT_NONE;
		input_set(in, "");
		return INPUT_CHANGED;
	default:
		break;
	}
	/* printable ASCII and the bytes of UTF-8 sequences; never control bytes */
	if (key < 0x20 || key > 0xff || key == 0x7f)
		return INPUT_NONE;
	if (in->len + 1 >= INPUT_MAX)
		return INPUT_NONE;
	in->text[in->len++] = (char)key;
	in->text[in->len] = '\0';
	return INPUT_CHANGED;
}
