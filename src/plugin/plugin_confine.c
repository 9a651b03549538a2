/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What keeps plugin code away from taskview's own process, and so from its
 * terminal. Any process of the same user may open /proc/PID/fd/N of another
 * and write to the terminal behind it, unless the target is not dumpable and
 * the opener lacks CAP_SYS_PTRACE: taskview makes itself not dumpable before
 * it starts a helper, and the helper gives up every capability (root's and
 * file capabilities alike) before it loads a plugin.
 */
#include "plugin/plugin_priv.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/i18n.h"

void plugin_confine_host(void)
{
	/* owned by root from now on: its /proc files (fd, environ, io, mem)
	 * and ptrace need CAP_SYS_PTRACE, and a crash leaves no core file
	 * unless fs.suid_dumpable says otherwise; kept to the end, since a
	 * helper runs until then */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

static int caps_get(struct __user_cap_data_struct d[2])
{
	struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
	memset(d, 0, 2 * sizeof(*d));
	return (int)syscall(SYS_capget, &h, d);
}

int plugin_confine_helper(char *why, size_t whylen)
{
	/* no setuid or file capability gained by anything a plugin executes */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		snprintf(why, whylen, "no_new_privs: %s", strerror(errno));
		return -1;
	}
	struct __user_cap_data_struct d[2];
	if (caps_get(d) < 0) {
		snprintf(why, whylen, "capget: %s", strerror(errno));
		return -1;
	}
	bool held = false;
	for (int i = 0; i < 2; i++)
		held = held || d[i].effective || d[i].permitted || d[i].inheritable;
	if (!held)
		return 0; /* an ordinary user: nothing to give up */
	/* the bounding set first, while CAP_SETPCAP (if held) allows it: an
	 * execve as uid 0 then takes nothing back. Without CAP_SETPCAP (file
	 * capabilities) it stays; no_new_privs already keeps an execve from
	 * gaining anything. */
	for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
		prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
	memset(d, 0, sizeof(d));
	if (syscall(SYS_capset, &h, d) < 0 || caps_get(d) < 0) {
		snprintf(why, whylen, "capset: %s", strerror(errno));
		return -1;
	}
	for (int i = 0; i < 2; i++)
		if (d[i].effective || d[i].permitted || d[i].inheritable) {
			snprintf(why, whylen, "%s", _("capabilities are still held"));
			return -1;
		}
	return 0;
}
