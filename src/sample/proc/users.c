/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sample/proc/users.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct user_entry {
	int64_t uid;
	char *name;
};

struct users {
	struct user_entry *v;
	size_t n, cap;
};

struct users *users_new(void)
{
	return calloc(1, sizeof(struct users));
}

void users_free(struct users *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->n; i++)
		free(u->v[i].name);
	free(u->v);
	free(u);
}

const char *users_name(struct users *u, int64_t uid)
{
	for (size_t i = 0; i < u->n; i++)
		if (u->v[i].uid == uid)
			return u->v[i].name;
	if (u->n == u->cap) {
		size_t cap = u->cap ? u->cap * 2 : 16;
		struct user_entry *v = realloc(u->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		u->v = v;
		u->cap = cap;
	}
	struct passwd *pw = getpwuid((uid_t)uid);
	char num[24];
	snprintf(num, sizeof(num), "%lld", (long long)uid);
	char *name = strdup(pw ? pw->pw_name : num);
	if (!name)
		return NULL;
	u->v[u->n++] = (struct user_entry){uid, name};
	return name;
}
