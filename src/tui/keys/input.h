/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A one-line text input: editing is pure (testable), drawing and the key
 * loop live in prompt.c. */
#ifndef TV_TUI_INPUT_H
#define TV_TUI_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#define INPUT_MAX 256

struct input {
	char text[INPUT_MAX];   /* raw bytes typed, NUL-terminated */
	size_t len;
};

enum input_result {
	INPUT_NONE,     /* key ignored */
	INPUT_CHANGED,  /* text changed */
	INPUT_DONE,     /* Enter */
	INPUT_CANCEL,   /* Esc */
};

void input_set(struct input *in, const char *text);
/* Applies one curses key: printable bytes append (UTF-8 arrives byte by
 * byte), Backspace removes the last character, Ctrl-U clears. */
enum input_result input_key(struct input *in, int key);

#endif
