/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plugin helper: the process in which plugin code runs. taskview starts it
 * from its own binary (/proc/self/exe) with a hidden argument; main() hands
 * control over before doing anything else.
 */
#ifndef TV_PLUGIN_PLUGIN_HELPER_H
#define TV_PLUGIN_PLUGIN_HELPER_H

/* When argv asks for the plugin helper, runs it and returns its exit status;
 * otherwise returns -1 at once. Any program that hosts plugins calls it first
 * thing in main(), after setting the locale. */
int plugin_helper_dispatch(int argc, char **argv);

#endif
