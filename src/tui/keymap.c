#include "tui/keymap.h"

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
	{'\r', ACT_UNFOLD}, {'\n', ACT_UNFOLD}, {KEY_ENTER, ACT_UNFOLD}, {KEY_RIGHT, ACT_UNFOLD}, {'+', ACT_UNFOLD},
	{KEY_LEFT, ACT_FOLD}, {'-', ACT_FOLD},
	{'*', ACT_UNFOLD_ALL},
	{'H', ACT_TOGGLE_THREADS},
	{KEY_F(6), ACT_SORT_MENU}, {'>', ACT_SORT_MENU}, {'<', ACT_SORT_MENU}, {'.', ACT_SORT_MENU}, {',', ACT_SORT_MENU},
	{'I', ACT_INVERT},
	{'/', ACT_SEARCH}, {KEY_F(3), ACT_SEARCH_NEXT}, {'n', ACT_SEARCH_NEXT},
	{'\\', ACT_FILTER}, {KEY_F(4), ACT_FILTER},
	{27, ACT_ESCAPE},
	{'u', ACT_USER},
	{'p', ACT_PIDS},
	{KEY_F(2), ACT_SETUP}, {'S', ACT_SETUP},
	{KEY_F(9), ACT_KILL}, {'k', ACT_KILL},
	{'i', ACT_DETAIL},
	{'z', ACT_FREEZE}, {'Z', ACT_FREEZE},
	{'d', ACT_DELAY},
	{CTRL('l'), ACT_REDRAW},
	{KEY_F(1), ACT_HELP}, {'h', ACT_HELP}, {'?', ACT_HELP},
	{'q', ACT_QUIT}, {KEY_F(10), ACT_QUIT},
};

enum tui_action keymap_lookup(int key)
{
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++)
		if (bindings[i].key == key)
			return bindings[i].action;
	return ACT_NONE;
}

static const struct key_help help[] = {
	/* TRANSLATORS: key names in the help screen; at most 22 columns */
	{ACT_UP, N_("Up, Ctrl-P"), N_("select the previous row")},
	{ACT_DOWN, N_("Down, j, Ctrl-N"), N_("select the next row")},
	{ACT_PAGE_UP, N_("PgUp, PgDn"), N_("move one page")},
	{ACT_HOME, N_("Home, End"), N_("first or last row")},
	{ACT_UNFOLD, N_("Enter, Right, +"), N_("unfold: show the threads of the process")},
	{ACT_FOLD, N_("Left, -"), N_("fold (on a thread: fold its process)")},
	{ACT_UNFOLD_ALL, N_("*"), N_("unfold every process, or fold them all")},
	{ACT_TOGGLE_THREADS, N_("H"), N_("show or hide the threads of every process")},
	{ACT_SORT_MENU, N_("F6, <, >"), N_("choose the sort column")},
	{ACT_INVERT, N_("I"), N_("invert the sort order")},
	{ACT_SEARCH, N_("/"), N_("search a name or command (jumps as you type)")},
	{ACT_SEARCH_NEXT, N_("F3, n"), N_("next search match")},
	{ACT_FILTER, N_("\\, F4"), N_("filter: show only matching processes")},
	{ACT_ESCAPE, N_("Esc"), N_("clear the filter")},
	{ACT_USER, N_("u"), N_("show only the processes of one user")},
	{ACT_PIDS, N_("p"), N_("show only these PIDs (comma-separated)")},
	{ACT_SETUP, N_("F2, S"), N_("setup: choose and order the columns")},
	{ACT_KILL, N_("F9, k"), N_("send a signal to the selected task")},
	{ACT_DETAIL, N_("i"), N_("details of the selected task: delays, memory, switches")},
	{ACT_FREEZE, N_("z"), N_("freeze or resume updates")},
	{ACT_DELAY, N_("d"), N_("change the refresh interval")},
	{ACT_REDRAW, N_("Ctrl-L"), N_("redraw the screen")},
	{ACT_HELP, N_("F1, h, ?"), N_("this help")},
	{ACT_QUIT, N_("q, F10"), N_("quit (saves the settings)")},
};

const struct key_help *keymap_help(size_t *n)
{
	*n = sizeof(help) / sizeof(help[0]);
	return help;
}

static const struct key_bar_entry bar[] = {
	/* TRANSLATORS: key bar labels; at most 6 columns each */
	{"F1", N_("Help")},   {"F2", N_("Setup")}, {"F3", N_("Next")},   {"F4", N_("Filter")},
	{"F6", N_("SortBy")}, {"F9", N_("Kill")},  {"F10", N_("Quit")},
};

const struct key_bar_entry *keymap_bar(size_t *n)
{
	*n = sizeof(bar) / sizeof(bar[0]);
	return bar;
}
