#include "tui/msgs.h"

#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/text.h"

/* A plugin that misbehaves every refresh must not grow memory without bound. */
#define MSGS_MAX 256

void tui_msgs_init(struct tui_msgs *m)
{
	memset(m, 0, sizeof(*m));
}

void tui_msgs_free(struct tui_msgs *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i]);
	free(m->v);
	tui_msgs_init(m);
}

void tui_msgs_add(void *ctx, const char *line)
{
	struct tui_msgs *m = ctx;
	if (!m || !line || m->n >= MSGS_MAX)
		return;
	char **nv = realloc(m->v, (m->n + 1) * sizeof(*nv));
	if (!nv)
		return;
	m->v = nv;
	if ((m->v[m->n] = strdup(line)))
		m->n++;
}

void tui_msgs_flush(const struct tui_msgs *m, FILE *f)
{
	for (size_t i = 0; i < m->n; i++) {
		/* plugin messages may quote file names: sanitize like any untrusted text */
		struct buf b;
		buf_init(&b);
		text_sanitize(&b, m->v[i], strlen(m->v[i]), SIZE_MAX, true);
		fprintf(f, "taskview: %s\n", buf_str(&b));
		buf_free(&b);
	}
}
