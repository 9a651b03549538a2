/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Modal dialogs of the main screen. Each runs its own key loop over the
 * main screen (redrawn beneath it on resize) and returns when done. */
#ifndef TV_TUI_DIALOGS_H
#define TV_TUI_DIALOGS_H

#include "tui/state.h"

void dialog_sort(struct tui *t);      /* sort_menu.c */
void dialog_kill(struct tui *t);      /* signal_menu.c: the tagged tasks, or the selected one */
void dialog_user(struct tui *t);      /* user_menu.c */
void dialog_setup(struct tui *t);     /* setup.c */
void dialog_help(struct tui *t);      /* help.c */
void dialog_search(struct tui *t);    /* prompts.c */
void dialog_filter(struct tui *t);    /* prompts.c */
void dialog_cgroup(struct tui *t);    /* prompts.c: the control-group filter */
void dialog_pids(struct tui *t);      /* prompts.c */
void dialog_delay(struct tui *t);     /* prompts.c; in a replay, the step */
void dialog_when(struct tui *t);      /* prompts.c: the time a replay jumps to */
void dialog_detail(struct tui *t);    /* detail_panel.c: the selected task, kept up to date */
void dialog_command(struct tui *t);   /* detail_panel.c: the selected process's command line, wrapped */
void dialog_environ(struct tui *t);   /* detail_panel.c: the selected process's environment */
void dialog_files(struct tui *t);     /* detail_panel.c: the selected task's open files */
void dialog_affinity(struct tui *t);  /* affinity.c: show and set the CPUs the selected task may run on */
void dialog_trace(struct tui *t);     /* trace.c: strace the selected task, the screen suspended */
/* confirm.c: the lines, wrapped, drawn right above the status line (the last
 * in the error colour); returns the key pressed (ERR after a quit signal) */
int tui_confirm(struct tui *t, const char *const *lines, size_t n);
/* renice.c: changes the nice value of the tagged tasks, or the selected one */
void tui_renice(struct tui *t, int delta);

#endif
