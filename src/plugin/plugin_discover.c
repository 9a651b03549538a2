/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which files are loaded: every --plugin file, then the user's and the system
 * directory, in a fixed order; each checked for who may change it
 * (plugin_trust.c) and kept open, so that every helper loads the file that
 * was checked.
 */
#include "plugin/plugin_host.h"
#include "plugin/plugin_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "util/i18n.h"

#define MSG_MAX 1024

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Records a plugin file name; true when the name was met before (an earlier
 * directory in the search order shadows it). */
static bool seen_before(struct plugin_host *h, const char *path)
{
	const char *name = base_name(path);
	for (size_t i = 0; i < h->nseen; i++)
		if (strcmp(h->seen[i], name) == 0)
			return true;
	char **p = realloc(h->seen, (h->nseen + 1) * sizeof(*p));
	if (!p)
		return false;
	h->seen = p;
	if ((h->seen[h->nseen] = strdup(name)))
		h->nseen++;
	return false;
}

/* Opens one file, checks who may change it. Returns the descriptor, or -1
 * after saying why it is refused. */
static int open_checked(struct plugin_host *h, const char *path, bool check_dir)
{
	char why[MSG_MAX];
	if (check_dir) {
		/* an explicit file: its directory must be as trustworthy as a plugin directory */
		const char *slash = strrchr(path, '/');
		char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
		const char *bad = dir ? plugin_trust_dir(dir, false, why, sizeof(why)) : NULL;
		free(dir);
		if (bad) {
			plugin_say(h, _("plugin %s: refused: %s"), path, why);
			return -1;
		}
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		plugin_say(h, _("plugin %s: cannot load: %s"), path, strerror(errno));
		return -1;
	}
	if (plugin_trust_file(fd, path, why, sizeof(why))) {
		plugin_say(h, _("plugin %s: refused: %s"), path, why);
		close(fd);
		return -1;
	}
	return fd;
}

/* Adds a file to load, in search order. -1 when it is refused already. */
static int add_file(struct plugin_host *h, const char *path, bool explicit_file)
{
	int fd = open_checked(h, path, explicit_file);
	if (fd < 0)
		return -1;
	struct plugin *v = realloc(h->v, (h->n + 1) * sizeof(*v));
	char *copy = strdup(path);
	if (!v || !copy) {
		if (v)
			h->v = v;
		free(copy);
		close(fd);
		plugin_say(h, _("plugin %s: cannot load: %s"), path, strerror(ENOMEM));
		return -1;
	}
	h->v = v;
	h->v[h->n++] = (struct plugin){.path = copy, .fd = fd, .cfd = -1, .explicit_file = explicit_file, .cpu_ns = -1};
	return 0;
}

static char *user_plugin_dir(void)
{
	/* secure_getenv: a set-id taskview must not take directories from the caller */
	const char *xdg = secure_getenv("XDG_DATA_HOME");
	char *dir = NULL;
	if (xdg && xdg[0] == '/') /* the spec says relative values are ignored */
		return asprintf(&dir, "%s/taskview/plugins", xdg) < 0 ? NULL : dir;
	const char *home = secure_getenv("HOME");
	if (!home || home[0] != '/') {
		struct passwd *pw = getpwuid(geteuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (!home)
		return NULL;
	return asprintf(&dir, "%s/.local/share/taskview/plugins", home) < 0 ? NULL : dir;
}

/* TASKVIEW_PLUGINDIR replaces the built-in system directory: tests and uninstalled
 * builds point it at their own modules. Not for a set-id or capability-bearing
 * taskview, which trusts only the directory it was built with. */
static const char *system_plugin_dir(void)
{
	const char *env = secure_getenv("TASKVIEW_PLUGINDIR");
	return env && *env ? env : TV_PLUGINDIR;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void discover_dir(struct plugin_host *h, const char *dir, bool user_dir)
{
	char why[MSG_MAX];
	struct stat st;
	if (stat(dir, &st) < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			plugin_say(h, _("plugin directory %s: skipped: %s"), dir, strerror(errno));
		return;
	}
	if (plugin_trust_dir(dir, user_dir, why, sizeof(why))) {
		plugin_say(h, _("plugin directory %s: skipped: %s"), dir, why);
		return;
	}
	DIR *d = opendir(dir);
	if (!d) {
		plugin_say(h, _("plugin directory %s: skipped: %s"), dir, strerror(errno));
		return;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (de->d_name[0] == '.' || l < 4 || strcmp(de->d_name + l - 3, ".so") != 0)
			continue;
		char **p = realloc(names, (n + 1) * sizeof(*p));
		if (!p)
			break;
		names = p;
		if ((names[n] = strdup(de->d_name)))
			n++;
	}
	closedir(d);
	/* a fixed order, so column order and shadowing do not depend on the file system */
	if (n) /* qsort's array must not be NULL, even when empty */
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		char *path = NULL;
		if (!seen_before(h, names[i]) && asprintf(&path, "%s/%s", dir, names[i]) >= 0) {
			add_file(h, path, false);
			free(path);
		}
		free(names[i]);
	}
	free(names);
}

int plugin_discover(struct plugin_host *h, const struct plugin_host_opts *o)
{
	/* With file capabilities or setuid (setcap cap_net_admin+ep for delay
	 * accounting), a plugin of the caller's choosing would run with those
	 * privileges: only the system directory is trusted then. */
	if (plugin_secure() && o->nexplicit) {
		plugin_say(h, _("%s: refused: taskview runs with elevated privileges (file capabilities or setuid); only plugins from %s are loaded"),
		           o->explicit_files[0], TV_PLUGINDIR);
		return -1;
	}
	for (size_t i = 0; i < o->nexplicit; i++) {
		seen_before(h, o->explicit_files[i]);
		if (add_file(h, o->explicit_files[i], true) < 0)
			return -1;
	}
	if (!o->no_discovery) {
		char *user = plugin_secure() ? NULL : user_plugin_dir();
		if (user)
			discover_dir(h, user, true);
		free(user);
		discover_dir(h, system_plugin_dir(), false);
	}
	return 0;
}
