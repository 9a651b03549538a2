/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tui/screen/msgs.h"

#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/text.h"

/* A plugin that misbehaves every refresh must not grow memory without bound. */
#define MSGS_MAX 256

void tui_msgs_init(struct tui_msgs *m)
{
	memset(m, 0, sizeof(*m));
	pthread_mutex_init(&m->lock, NULL);
}

void tui_msgs_free(struct tui_msgs *m)
{
	tui_msgs_pull(m);
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i]);
	free(m->v);
	pthread_mutex_destroy(&m->lock);
	tui_msgs_init(m);
}

void tui_msgs_add(void *ctx, const char *line)
{
	struct tui_msgs *m = ctx;
	if (!m || !line)
		return;
	pthread_mutex_lock(&m->lock);
	char **nv = m->n + m->nin < MSGS_MAX ? realloc(m->in, (m->nin + 1) * sizeof(*nv)) : NULL;
	if (nv) {
		m->in = nv;
		if ((m->in[m->nin] = strdup(line)))
			m->nin++;
	}
	pthread_mutex_unlock(&m->lock);
}

void tui_msgs_pull(struct tui_msgs *m)
{
	pthread_mutex_lock(&m->lock);
	char **nv = m->nin ? realloc(m->v, (m->n + m->nin) * sizeof(*nv)) : NULL;
	if (nv) {
		m->v = nv;
		memcpy(m->v + m->n, m->in, m->nin * sizeof(*m->in));
		m->n += m->nin;
	} else {
		for (size_t i = 0; i < m->nin; i++)
			free(m->in[i]);
	}
	free(m->in);
	m->in = NULL;
	m->nin = 0;
	pthread_mutex_unlock(&m->lock);
}

void tui_msgs_flush(struct tui_msgs *m, FILE *f)
{
	tui_msgs_pull(m);
	for (size_t i = 0; i < m->n; i++) {
		/* plugin messages may quote file names: sanitize like any untrusted text */
		struct buf b;
		buf_init(&b);
		text_sanitize(&b, m->v[i], strlen(m->v[i]), SIZE_MAX, true);
		fprintf(f, "taskview: %s\n", buf_str(&b));
		buf_free(&b);
	}
}
