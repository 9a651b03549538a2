/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/keys/keymap.h"

#include <curses.h>

#include "util/i18n.h"

#define CTRL(c) ((c) & 0x1f)

/* htop's keys where htop has one, so its users need no manual. */
static const struct key_binding bindings[] = {
	/* 'k' kills, as in htop (behind a menu and a confirmation, so a vi
	 * user's stray k is harmless); Ctrl-P/Ctrl-N move like Up/Down */
	{KEY_UP, ACT_UP}, {CTRL('p'), ACT_UP},
	{KEY_DOWN, ACT_DOWN}, {'j', ACT_DOWN}, {CTRL('n'), ACT_DOWN},
	{KEY_PPAGE, ACT_PAGE_UP}, {KEY_NPAGE, ACT_PAGE_DOWN},
	{KEY_HOME, ACT_HOME}, {KEY_END, ACT_END},
	{'0', ACT_PID_JUMP}, {'1', ACT_PID_JUMP}, {'2', ACT_PID_JUMP}, {'3', ACT_PID_JUMP}, {'4', ACT_PID_JUMP},
	{'5', ACT_PID_JUMP}, {'6', ACT_PID_JUMP}, {'7', ACT_PID_JUMP}, {'8', ACT_PID_JUMP}, {'9', ACT_PID_JUMP},
	{'\r', ACT_UNFOLD}, {'\n', ACT_UNFOLD}, {KEY_ENTER, ACT_UNFOLD}, {KEY_RIGHT, ACT_UNFOLD}, {'+', ACT_UNFOLD},
	{'=', ACT_UNFOLD},
	{KEY_LEFT, ACT_FOLD}, {'-', ACT_FOLD},
	{'*', ACT_UNFOLD_ALL},
	{'H', ACT_TOGGLE_THREADS},
	{KEY_F(5), ACT_TREE}, {'t', ACT_TREE},
	/* htop binds neither g nor G */
	{'g', ACT_GROUPS},
	{'K', ACT_KTHREADS},
	{KEY_F(6), ACT_SORT_MENU}, {'>', ACT_SORT_MENU}, {'<', ACT_SORT_MENU}, {'.', ACT_SORT_MENU}, {',', ACT_SORT_MENU},
	{'P', ACT_SORT_CPU}, {'M', ACT_SORT_MEM}, {'T', ACT_SORT_TIME}, {'N', ACT_SORT_PID},
	{'I', ACT_INVERT},
	/* sideways: Left and Right fold and unfold, so shifted arrows and braces */
	{KEY_SLEFT, ACT_SCROLL_LEFT}, {'{', ACT_SCROLL_LEFT},
	{KEY_SRIGHT, ACT_SCROLL_RIGHT}, {'}', ACT_SCROLL_RIGHT},
	{CTRL('a'), ACT_SCROLL_START}, {'^', ACT_SCROLL_START},
	{CTRL('e'), ACT_SCROLL_END}, {'$', ACT_SCROLL_END},
	{'/', ACT_SEARCH}, {KEY_F(3), ACT_SEARCH_NEXT}, {'n', ACT_SEARCH_NEXT},
	{'\\', ACT_FILTER}, {KEY_F(4), ACT_FILTER},
	{'G', ACT_CGROUP_FILTER},
	{27, ACT_ESCAPE},
	{'u', ACT_USER},
	{'p', ACT_PIDS},
	{'F', ACT_FOLLOW},
	{' ', ACT_TAG}, {'c', ACT_TAG_CHILDREN}, {'U', ACT_UNTAG_ALL},
	{KEY_F(9), ACT_KILL}, {'k', ACT_KILL},
	/* htop's direction: F7 and ] raise the priority (nice - 1) */
	{KEY_F(7), ACT_NICE_DOWN}, {']', ACT_NICE_DOWN},
	{KEY_F(8), ACT_NICE_UP}, {'[', ACT_NICE_UP},
	{KEY_F(2), ACT_SETUP}, {'S', ACT_SETUP},
	{'i', ACT_DETAIL},
	{'w', ACT_COMMAND},
	{'e', ACT_ENVIRON},
	{'l', ACT_FILES},
	{'a', ACT_AFFINITY},
	{'s', ACT_TRACE},
	{'z', ACT_FREEZE}, {'Z', ACT_FREEZE},
	{'d', ACT_DELAY},
	{CTRL('l'), ACT_REDRAW},
	{KEY_F(1), ACT_HELP}, {'h', ACT_HELP}, {'?', ACT_HELP},
	/* a replay's time: back and forward as in less; neither is htop's */
	{'b', ACT_REPLAY_BACK}, {'f', ACT_REPLAY_FORWARD}, {'J', ACT_REPLAY_JUMP},
	{'q', ACT_QUIT}, {KEY_F(10), ACT_QUIT},
};

enum tui_action keymap_lookup(int key)
{
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++)
		if (bindings[i].key == key)
			return bindings[i].action;
	return ACT_NONE;
}

/* A replay has no running task to renice or signal: those function keys
 * step through its time instead (k, ] and [ still say why they cannot). */
static const struct key_binding replay_bindings[] = {
	{KEY_F(7), ACT_REPLAY_BACK}, {KEY_F(8), ACT_REPLAY_FORWARD}, {KEY_F(9), ACT_REPLAY_JUMP},
};

enum tui_action keymap_action(int key, bool replay)
{
	for (size_t i = 0; replay && i < sizeof(replay_bindings) / sizeof(replay_bindings[0]); i++)
		if (replay_bindings[i].key == key)
			return replay_bindings[i].action;
	return keymap_lookup(key);
}

static const struct key_help help[] = {
	/* TRANSLATORS: key names in the help screen; at most 22 columns */
	{ACT_UP, N_("Up, Ctrl-P"), N_("select the previous row")},
	{ACT_DOWN, N_("Down, j, Ctrl-N"), N_("select the next row")},
	{ACT_PAGE_UP, N_("PgUp, PgDn"), N_("move one page")},
	{ACT_HOME, N_("Home, End"), N_("first or last row")},
	{ACT_PID_JUMP, N_("0-9"), N_("go to the process whose PID starts with the digits typed")},
	{ACT_FOLLOW, N_("F"), N_("follow the selected task as the list changes (F: stop)")},
	{ACT_UNFOLD, N_("Enter, Right, +"), N_("unfold the threads (tree: first the child processes)")},
	{ACT_FOLD, N_("Left, -"), N_("fold the threads (tree: then the child processes)")},
	{ACT_UNFOLD_ALL, N_("*"), N_("unfold every process, or fold them all")},
	{ACT_TOGGLE_THREADS, N_("H"), N_("show or hide the threads of every process")},
	{ACT_TREE, N_("F5, t"), N_("process tree: children under their parent")},
	{ACT_GROUPS, N_("g"), N_("group view: processes under their control group, with its sums and pressure")},
	{ACT_KTHREADS, N_("K"), N_("show or hide kernel threads (hidden at start)")},
	{ACT_SORT_MENU, N_("F6, <, >"), N_("choose the sort column")},
	{ACT_SORT_CPU, N_("P, M, T, N"), N_("sort by CPU, memory (RES), CPU time, PID; again: invert")},
	{ACT_INVERT, N_("I"), N_("invert the sort order")},
	{ACT_SCROLL_LEFT, N_("Shift-Left/Right, { }"), N_("scroll the table sideways")},
	{ACT_SCROLL_START, N_("Ctrl-A, ^, Ctrl-E, $"), N_("scroll to the start or the end of the lines")},
	{ACT_SEARCH, N_("/"), N_("search a name, command, thread name or control group (jumps as you type)")},
	{ACT_SEARCH_NEXT, N_("F3, n"), N_("next search match")},
	{ACT_FILTER, N_("\\, F4"), N_("filter: show only matching processes")},
	{ACT_CGROUP_FILTER, N_("G"), N_("show only the processes of matching control groups (path or name)")},
	{ACT_ESCAPE, N_("Esc"), N_("clear the filters, the user and the search")},
	{ACT_USER, N_("u"), N_("show only the processes of one user")},
	{ACT_PIDS, N_("p"), N_("show only these PIDs (comma-separated)")},
	{ACT_TAG, N_("Space"), N_("tag or untag the selected task")},
	{ACT_TAG_CHILDREN, N_("c"), N_("tag the selected process and its descendants")},
	{ACT_UNTAG_ALL, N_("U"), N_("untag every task")},
	{ACT_KILL, N_("F9, k"), N_("send a signal to the tagged tasks, or to the selected one")},
	{ACT_NICE_DOWN, N_("F7, ]"), N_("raise the priority (nice - 1; needs privileges)")},
	{ACT_NICE_UP, N_("F8, ["), N_("lower the priority (nice + 1)")},
	{ACT_SETUP, N_("F2, S"), N_("setup: choose and order the columns")},
	{ACT_DETAIL, N_("i"), N_("details: delays, memory, switches, command line")},
	{ACT_COMMAND, N_("w"), N_("the whole command line of the selected process, wrapped")},
	{ACT_ENVIRON, N_("e"), N_("the environment of the selected process (another user's: root only)")},
	{ACT_FILES, N_("l"), N_("the open files of the selected task: working directory, executable, descriptors")},
	{ACT_AFFINITY, N_("a"), N_("the CPUs the selected task may run on: Space ticks, Enter sets")},
	{ACT_TRACE, N_("s"), N_("trace the selected task's system calls with strace (Ctrl-C ends it)")},
	{ACT_FREEZE, N_("z"), N_("freeze or resume updates")},
	{ACT_DELAY, N_("d"), N_("change the refresh interval")},
	{ACT_REDRAW, N_("Ctrl-L"), N_("redraw the screen")},
	{ACT_HELP, N_("F1, h, ?"), N_("this help")},
	{ACT_REPLAY_BACK, N_("b, f, F7, F8"), N_("replay (-r): the sample one step back or forward (d sets the step)")},
	{ACT_REPLAY_JUMP, N_("J, F9"), N_("replay: jump to a time (HH:MM, HH:MM:SS or YYYY-MM-DD HH:MM)")},
	{ACT_QUIT, N_("q, F10"), N_("quit (saves the settings)")},
};

const struct key_help *keymap_help(size_t *n)
{
	*n = sizeof(help) / sizeof(help[0]);
	return help;
}

static const struct key_bar_entry bar[] = {
	/* TRANSLATORS: key bar labels, and in a replay the labels of F7-F9; at most 6 columns each */
	{"F1", N_("Help"), NULL, KEY_F(1)},      {"F2", N_("Setup"), NULL, KEY_F(2)},
	{"F3", N_("Search"), NULL, KEY_F(3)},    {"F4", N_("Filter"), NULL, KEY_F(4)},
	{"F5", N_("Tree"), NULL, KEY_F(5)},      {"F6", N_("SortBy"), NULL, KEY_F(6)},
	{"F7", N_("Nice-"), N_("Back"), KEY_F(7)}, {"F8", N_("Nice+"), N_("Fwd"), KEY_F(8)},
	{"F9", N_("Kill"), N_("Jump"), KEY_F(9)}, {"F10", N_("Quit"), NULL, KEY_F(10)},
};

const struct key_bar_entry *keymap_bar(size_t *n)
{
	*n = sizeof(bar) / sizeof(bar[0]);
	return bar;
}
