/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whose code taskview runs. A plugin runs with taskview's privileges, so as
 * root (or with file capabilities or set-id) only files and directories that
 * only root can change are accepted, and nobody loads plugins from a user
 * directory that belongs to someone else.
 */
#include "plugin/plugin_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/i18n.h"

bool plugin_secure(void)
{
	return getauxval(AT_SECURE) != 0;
}

/* Whose rules apply: root's, when the plugin would run with more than the caller's rights. */
static bool privileged(void)
{
	return geteuid() == 0 || plugin_secure();
}

/* Root's rules for anything a plugin is loaded from. */
static const char *root_rules(const struct stat *st, const char *path, char *why, size_t whylen)
{
	if (st->st_uid != 0)
		snprintf(why, whylen, _("%s is owned by uid %u, not by root"), path, (unsigned)st->st_uid);
	else if (st->st_mode & S_IWOTH)
		snprintf(why, whylen, _("%s is world-writable"), path);
	else if (st->st_mode & S_IWGRP)
		snprintf(why, whylen, _("%s is group-writable"), path);
	else
		return NULL;
	return why;
}

const char *plugin_trust_file(int fd, const char *path, char *why, size_t whylen)
{
	struct stat st;
	if (fstat(fd, &st) < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return why;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, _("%s is not a regular file"), path);
		return why;
	}
	if (privileged())
		return root_rules(&st, path, why, whylen);
	return NULL;
}

const char *plugin_trust_dir(const char *path, bool user_dir, char *why, size_t whylen)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return why;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, _("%s is not a directory"), path);
		return why;
	}
	/* someone else's directory (e.g. HOME kept across sudo) is not "your" plugins */
	if (user_dir && st.st_uid != geteuid()) {
		snprintf(why, whylen, _("%s is owned by uid %u, not by uid %u"), path,
		         (unsigned)st.st_uid, (unsigned)geteuid());
		return why;
	}
	if (privileged())
		return root_rules(&st, path, why, whylen);
	return NULL;
}
