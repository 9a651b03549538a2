/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Keys of the main screen, the input line's editing, and the unfolded set. */
#include <check.h>
#include <curses.h>
#include <string.h>

#include "tui/rows/expset.h"
#include "tui/keys/input.h"
#include "tui/keys/keymap.h"

START_TEST(htop_keys)
{
	/* htop's keys where htop has one */
	ck_assert_int_eq(keymap_lookup(KEY_F(1)), ACT_HELP);
	ck_assert_int_eq(keymap_lookup('h'), ACT_HELP);
	ck_assert_int_eq(keymap_lookup('?'), ACT_HELP);
	ck_assert_int_eq(keymap_lookup(KEY_F(2)), ACT_SETUP);
	ck_assert_int_eq(keymap_lookup('S'), ACT_SETUP);
	ck_assert_int_eq(keymap_lookup(KEY_F(3)), ACT_SEARCH_NEXT);
	ck_assert_int_eq(keymap_lookup('/'), ACT_SEARCH);
	ck_assert_int_eq(keymap_lookup('\\'), ACT_FILTER);
	ck_assert_int_eq(keymap_lookup(KEY_F(6)), ACT_SORT_MENU);
	ck_assert_int_eq(keymap_lookup('<'), ACT_SORT_MENU);
	ck_assert_int_eq(keymap_lookup('>'), ACT_SORT_MENU);
	ck_assert_int_eq(keymap_lookup('I'), ACT_INVERT);
	ck_assert_int_eq(keymap_lookup(KEY_F(9)), ACT_KILL);
	ck_assert_int_eq(keymap_lookup('k'), ACT_KILL);
	ck_assert_int_eq(keymap_lookup(KEY_F(10)), ACT_QUIT);
	ck_assert_int_eq(keymap_lookup('q'), ACT_QUIT);
	ck_assert_int_eq(keymap_lookup('u'), ACT_USER);
	ck_assert_int_eq(keymap_lookup('p'), ACT_PIDS);
	ck_assert_int_eq(keymap_lookup('H'), ACT_TOGGLE_THREADS);
	ck_assert_int_eq(keymap_lookup('*'), ACT_UNFOLD_ALL);
	ck_assert_int_eq(keymap_lookup('+'), ACT_UNFOLD);
	ck_assert_int_eq(keymap_lookup(KEY_RIGHT), ACT_UNFOLD);
	ck_assert_int_eq(keymap_lookup('\r'), ACT_UNFOLD);
	ck_assert_int_eq(keymap_lookup('-'), ACT_FOLD);
	ck_assert_int_eq(keymap_lookup(KEY_LEFT), ACT_FOLD);
	ck_assert_int_eq(keymap_lookup('j'), ACT_DOWN);
	ck_assert_int_eq(keymap_lookup(KEY_UP), ACT_UP);
	ck_assert_int_eq(keymap_lookup(KEY_NPAGE), ACT_PAGE_DOWN);
	ck_assert_int_eq(keymap_lookup('z'), ACT_FREEZE);
	ck_assert_int_eq(keymap_lookup('d'), ACT_DELAY);
	ck_assert_int_eq(keymap_lookup('L' & 0x1f), ACT_REDRAW);
	ck_assert_int_eq(keymap_lookup(27), ACT_ESCAPE);
	ck_assert_int_eq(keymap_lookup('i'), ACT_DETAIL);
	/* htop's sort keys, tree, kernel threads, follow, tags, renice */
	ck_assert_int_eq(keymap_lookup('P'), ACT_SORT_CPU);
	ck_assert_int_eq(keymap_lookup('M'), ACT_SORT_MEM);
	ck_assert_int_eq(keymap_lookup('T'), ACT_SORT_TIME);
	ck_assert_int_eq(keymap_lookup('N'), ACT_SORT_PID);
	ck_assert_int_eq(keymap_lookup(KEY_F(5)), ACT_TREE);
	ck_assert_int_eq(keymap_lookup('t'), ACT_TREE);
	ck_assert_int_eq(keymap_lookup('K'), ACT_KTHREADS);
	ck_assert_int_eq(keymap_lookup('F'), ACT_FOLLOW);
	ck_assert_int_eq(keymap_lookup(' '), ACT_TAG);
	ck_assert_int_eq(keymap_lookup('c'), ACT_TAG_CHILDREN);
	ck_assert_int_eq(keymap_lookup('U'), ACT_UNTAG_ALL);
	ck_assert_int_eq(keymap_lookup(KEY_F(7)), ACT_NICE_DOWN);
	ck_assert_int_eq(keymap_lookup(']'), ACT_NICE_DOWN);
	ck_assert_int_eq(keymap_lookup(KEY_F(8)), ACT_NICE_UP);
	ck_assert_int_eq(keymap_lookup('['), ACT_NICE_UP);
	ck_assert_int_eq(keymap_lookup('w'), ACT_COMMAND);
	ck_assert_int_eq(keymap_lookup('7'), ACT_PID_JUMP);
	/* sideways scrolling keeps clear of Left/Right (fold and unfold) */
	ck_assert_int_eq(keymap_lookup(KEY_SRIGHT), ACT_SCROLL_RIGHT);
	ck_assert_int_eq(keymap_lookup(KEY_SLEFT), ACT_SCROLL_LEFT);
	ck_assert_int_eq(keymap_lookup('}'), ACT_SCROLL_RIGHT);
	ck_assert_int_eq(keymap_lookup('{'), ACT_SCROLL_LEFT);
	ck_assert_int_eq(keymap_lookup('$'), ACT_SCROLL_END);
	ck_assert_int_eq(keymap_lookup('^'), ACT_SCROLL_START);
}
END_TEST

START_TEST(reserved_keys)
{
	ck_assert_int_eq(keymap_lookup('x'), ACT_NONE);
	/* a replay steps through time on the keys that act on live tasks */
	ck_assert_int_eq(keymap_action(KEY_F(7), true), ACT_REPLAY_BACK);
	ck_assert_int_eq(keymap_action(KEY_F(8), true), ACT_REPLAY_FORWARD);
	ck_assert_int_eq(keymap_action(KEY_F(9), true), ACT_REPLAY_JUMP);
	ck_assert_int_eq(keymap_action(KEY_F(8), false), ACT_NICE_UP);
	ck_assert_int_eq(keymap_action('k', true), ACT_KILL); /* says why it cannot */
	ck_assert_int_eq(keymap_action('q', true), ACT_QUIT);
}
END_TEST

START_TEST(help_covers_every_action)
{
	size_t n;
	const struct key_help *h = keymap_help(&n);
	for (int a = ACT_NONE + 1; a < ACT_NACTIONS; a++) {
		bool found = false;
		for (size_t i = 0; i < n; i++)
			found |= (int)h[i].action == a;
		/* these share a line: PgDn with PgUp, End with Home, the sort keys,
		 * the two sideways directions, the two ends of a line, a replay's
		 * two steps */
		if (a == ACT_PAGE_DOWN || a == ACT_END || a == ACT_SORT_MEM || a == ACT_SORT_TIME || a == ACT_SORT_PID ||
		    a == ACT_SCROLL_RIGHT || a == ACT_SCROLL_END || a == ACT_REPLAY_FORWARD)
			continue;
		ck_assert_msg(found, "action %d has no help line", a);
	}
	for (size_t i = 0; i < n; i++) {
		ck_assert(h[i].keys && *h[i].keys);
		ck_assert(h[i].what && *h[i].what);
	}
	size_t nb;
	const struct key_bar_entry *b = keymap_bar(&nb);
	ck_assert_uint_eq(nb, 10);
	ck_assert_str_eq(b[0].key, "F1");
	ck_assert_str_eq(b[nb - 1].key, "F10");
	for (size_t i = 0; i < nb; i++) {
		ck_assert_uint_le(strlen(b[i].label), 6);
		ck_assert(!b[i].replay_label || strlen(b[i].replay_label) <= 6);
		/* each entry runs the key it names, live and in a replay */
		ck_assert_int_eq(b[i].code, KEY_F((int)i + 1));
		ck_assert_int_ne(keymap_action(b[i].code, false), ACT_NONE);
		ck_assert_int_ne(keymap_action(b[i].code, true), ACT_NONE);
		/* a replay label where, and only where, a replay gives the key another action */
		ck_assert_int_eq(b[i].replay_label != NULL, keymap_action(b[i].code, true) != keymap_action(b[i].code, false));
	}
}
END_TEST

START_TEST(input_editing)
{
	struct input in;
	input_set(&in, "");
	ck_assert_int_eq(input_key(&in, 'a'), INPUT_CHANGED);
	/* UTF-8 arrives byte by byte; backspace takes the whole character */
	ck_assert_int_eq(input_key(&in, 0xc3), INPUT_CHANGED);
	ck_assert_int_eq(input_key(&in, 0xa9), INPUT_CHANGED);
	ck_assert_str_eq(in.text, "a\xc3\xa9");
	ck_assert_int_eq(input_key(&in, KEY_BACKSPACE), INPUT_CHANGED);
	ck_assert_str_eq(in.text, "a");
	/* control bytes never enter the text */
	ck_assert_int_eq(input_key(&in, 0x07), INPUT_NONE);
	ck_assert_int_eq(input_key(&in, KEY_F(5)), INPUT_NONE);
	ck_assert_str_eq(in.text, "a");
	ck_assert_int_eq(input_key(&in, 'U' & 0x1f), INPUT_CHANGED);
	ck_assert_str_eq(in.text, "");
	ck_assert_int_eq(input_key(&in, 127), INPUT_NONE);
	ck_assert_int_eq(input_key(&in, '\r'), INPUT_DONE);
	ck_assert_int_eq(input_key(&in, 27), INPUT_CANCEL);
	for (int i = 0; i < 1000; i++)
		input_key(&in, 'x');
	ck_assert_uint_eq(in.len, INPUT_MAX - 1);
	ck_assert_uint_eq(strlen(in.text), INPUT_MAX - 1);
}
END_TEST

START_TEST(expanded_set)
{
	struct expset s;
	expset_init(&s);
	ck_assert(!expset_has(&s, 1));
	int32_t ids[] = {50, 3, 99, 3, 7, 1000, 1};
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		ck_assert_int_eq(expset_add(&s, ids[i]), 0);
	ck_assert_uint_eq(s.n, 6);
	for (size_t i = 1; i < s.n; i++)
		ck_assert_int_lt(s.v[i - 1], s.v[i]);
	ck_assert(expset_query(&s, 99));
	expset_remove(&s, 99);
	expset_remove(&s, 12345);
	ck_assert(!expset_has(&s, 99));
	ck_assert(expset_has(&s, 1000));
	for (int32_t i = 2000; i < 3000; i++)
		expset_add(&s, i);
	ck_assert(expset_has(&s, 2500));
	expset_clear(&s);
	ck_assert(!expset_has(&s, 2500));
	expset_free(&s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tui_keys");
	TCase *tc = tcase_create("keys");
	tcase_add_test(tc, htop_keys);
	tcase_add_test(tc, reserved_keys);
	tcase_add_test(tc, help_covers_every_action);
	tcase_add_test(tc, input_editing);
	tcase_add_test(tc, expanded_set);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
