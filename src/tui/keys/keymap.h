/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Keys of the main screen: one table maps keys to actions and gives the help
 * screen its lines, so the two cannot disagree. */
#ifndef TV_TUI_KEYMAP_H
#define TV_TUI_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

enum tui_action {
	ACT_NONE,
	ACT_UP,
	ACT_DOWN,
	ACT_PAGE_UP,
	ACT_PAGE_DOWN,
	ACT_HOME,
	ACT_END,
	ACT_PID_JUMP,
	ACT_UNFOLD,
	ACT_FOLD,
	ACT_UNFOLD_ALL,
	ACT_TOGGLE_THREADS,
	ACT_TREE,
	ACT_GROUPS,
	ACT_KTHREADS,
	ACT_SORT_MENU,
	ACT_SORT_CPU,
	ACT_SORT_MEM,
	ACT_SORT_TIME,
	ACT_SORT_PID,
	ACT_INVERT,
	ACT_SCROLL_LEFT,
	ACT_SCROLL_RIGHT,
	ACT_SCROLL_START,
	ACT_SCROLL_END,
	ACT_SEARCH,
	ACT_SEARCH_NEXT,
	ACT_FILTER,
	ACT_CGROUP_FILTER,
	ACT_ESCAPE,
	ACT_USER,
	ACT_PIDS,
	ACT_FOLLOW,
	ACT_TAG,
	ACT_TAG_CHILDREN,
	ACT_UNTAG_ALL,
	ACT_KILL,
	ACT_NICE_DOWN,
	ACT_NICE_UP,
	ACT_SETUP,
	ACT_DETAIL,
	ACT_COMMAND,
	ACT_ENVIRON,
	ACT_FILES,
	ACT_AFFINITY,
	ACT_TRACE,
	ACT_FREEZE,
	ACT_DELAY,
	ACT_REDRAW,
	ACT_HELP,
	ACT_REPLAY_BACK,
	ACT_REPLAY_FORWARD,
	ACT_REPLAY_JUMP,
	ACT_QUIT,
	ACT_NACTIONS
};

struct key_binding {
	int key;                   /* curses key code */
	enum tui_action action;
};

/* The action of a key on the main screen, ACT_NONE when unbound. */
enum tui_action keymap_lookup(int key);
/* The same, where a replay gives F7, F8 and F9 to its time. */
enum tui_action keymap_action(int key, bool replay);

/* Help-screen entries, in display order: the keys as text and what they do
 * (both untranslated; translate at display time). */
struct key_help {
	enum tui_action action;
	const char *keys;
	const char *what;
};
const struct key_help *keymap_help(size_t *n);

/* The key bar: "F1" .. "F10" with short labels (untranslated). */
struct key_bar_entry {
	const char *key;
	const char *label;
	const char *replay_label;  /* in a replay, where the key does something else there; else NULL */
	int code;                  /* the curses key it stands for */
};
const struct key_bar_entry *keymap_bar(size_t *n);

#endif
