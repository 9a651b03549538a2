/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record/schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/bytes.h"
#include "util/i18n.h"

#define SCHEMA_MAGIC "taskview-recording"
#define NAME_MAX_LEN 4096
#define TEXT_MAX_LEN 65536
#define PLUGIN_SLOTS_MAX 1024

static const char *const type_names[] = {
	[COL_INT] = "int", [COL_KIB] = "kib", [COL_BYTES] = "bytes", [COL_PERCENT] = "percent",
	[COL_RATE] = "rate", [COL_SECONDS] = "seconds", [COL_MS] = "ms", [COL_FLOAT] = "float",
	[COL_STATE] = "state", [COL_STRING] = "string",
};
static const char *const applies_names[] = {
	[COL_ROWS_BOTH] = "both", [COL_ROWS_PROCESS] = "process", [COL_ROWS_THREAD] = "thread",
};

static int name_index(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && strcmp(names[i], s) == 0)
			return (int)i;
	return -1;
}

void rec_schema_free(struct rec_schema *s)
{
	for (size_t i = 0; i < s->nprops; i++) {
		free(s->keys[i]);
		free(s->vals[i]);
	}
	free(s->keys);
	free(s->vals);
	for (size_t i = 0; i < s->nsf; i++)
		free(s->sf[i].name);
	free(s->sf);
	for (size_t i = 0; i < s->ntf; i++)
		free(s->tf[i].name);
	free(s->tf);
	for (size_t i = 0; i < s->ncols; i++) {
		free(s->cols[i].id);
		free(s->cols[i].header);
		free(s->cols[i].desc);
	}
	free(s->cols);
	for (size_t i = 0; i < s->ncf; i++)
		free(s->cf[i].name);
	free(s->cf);
	memset(s, 0, sizeof(*s));
}

const char *rec_schema_prop(const struct rec_schema *s, const char *key)
{
	for (size_t i = s->nprops; i-- > 0;)
		if (strcmp(s->keys[i], key) == 0)
			return s->vals[i];
	return NULL;
}

int rec_schema_set(struct rec_schema *s, const char *key, const char *val)
{
	char **k = realloc(s->keys, (s->nprops + 1) * sizeof(*k));
	if (!k)
		return -1;
	s->keys = k;
	char **v = realloc(s->vals, (s->nprops + 1) * sizeof(*v));
	if (!v)
		return -1;
	s->vals = v;
	s->keys[s->nprops] = strdup(key);
	s->vals[s->nprops] = strdup(val ? val : "");
	if (!s->keys[s->nprops] || !s->vals[s->nprops]) {
		free(s->keys[s->nprops]);
		free(s->vals[s->nprops]);
		return -1;
	}
	s->nprops++;
	return 0;
}

static int fdescs_from(const struct rec_field *f, size_t n, struct rec_fdesc **out, size_t *nout)
{
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return -1;
	*nout = n;
	for (size_t i = 0; i < n; i++) {
		(*out)[i].name = strdup(f[i].name);
		(*out)[i].kind = f[i].kind;
		if (!(*out)[i].name)
			return -1;
		for (size_t j = 0; f[i].base && j < i; j++)
			if (strcmp(f[j].name, f[i].base) == 0)
				(*out)[i].base = ((uint32_t)j + 1) << 1 | f[i].base_first;
	}
	return 0;
}

static enum rec_kind kind_of_col(const struct column *c)
{
	if (c->type == COL_STRING)
		return REC_K_STR;
	/* a counter's raw value is an integer; its rate is derived again */
	if (c->counter || c->type == COL_INT || c->type == COL_BYTES || c->type == COL_KIB)
		return REC_K_INT;
	return REC_K_DBL;
}

int rec_schema_build(struct rec_schema *s, const struct colset *cs)
{
	memset(s, 0, sizeof(*s));
	s->format = REC_FORMAT;
	s->min_reader = 1;
	size_t n;
	const struct rec_field *f = rec_sample_fields(&n);
	if (fdescs_from(f, n, &s->sf, &s->nsf) < 0)
		goto fail;
	f = rec_cgroup_fields(&n);
	/* says the section is there: a description cut before it is damage */
	if (fdescs_from(f, n, &s->cf, &s->ncf) < 0 || rec_schema_set(s, "sections", "cgroup-fields") < 0)
		goto fail;
	f = rec_task_fields(&n);
	size_t nplug = cs ? cs->n - cs->nbuiltin : 0;
	if (fdescs_from(f, n, &s->tf, &s->ntf) < 0)
		goto fail;
	if (nplug) {
		struct rec_fdesc *tf = realloc(s->tf, (n + nplug) * sizeof(*tf));
		s->cols = calloc(nplug, sizeof(*s->cols));
		if (!tf || !s->cols) {
			if (tf)
				s->tf = tf;
			goto fail;
		}
		s->tf = tf;
	}
	for (size_t i = 0; i < nplug; i++) {
		const struct column *c = &cs->cols[cs->nbuiltin + i];
		struct rec_col *rc = &s->cols[s->ncols++];
		rc->id = strdup(c->id);
		rc->header = strdup(c->header ? c->header : "");
		rc->desc = strdup(c->desc ? c->desc : "");
		rc->type = c->type;
		rc->align = c->align;
		rc->applies = c->applies;
		rc->counter = c->counter;
		rc->sort_descending = c->sort_descending;
		rc->width = c->width;
		rc->slot = (uint32_t)c->arg;
		struct rec_fdesc *fd = &s->tf[s->ntf];
		size_t l = strlen(REC_PLUGIN_PREFIX) + strlen(c->id) + 1;
		fd->name = malloc(l);
		if (!rc->id || !rc->header || !rc->desc || !fd->name)
			goto fail;
		snprintf(fd->name, l, "%s%s", REC_PLUGIN_PREFIX, c->id);
		fd->kind = kind_of_col(c);
		fd->base = 0;
		s->ntf++;
	}
	return 0;
fail:
	rec_schema_free(s);
	return -1;
}

static void put_cstr(struct buf *b, const char *s)
{
	put_str(b, s, strlen(s));
}

static void put_fdescs(struct buf *b, const struct rec_fdesc *f, size_t n)
{
	put_varint(b, n);
	for (size_t i = 0; i < n; i++) {
		put_cstr(b, f[i].name);
		put_u8(b, f[i].kind);
		put_varint(b, f[i].base);
	}
}

void rec_schema_encode(struct buf *out, const struct rec_schema *s)
{
	buf_add(out, SCHEMA_MAGIC, sizeof(SCHEMA_MAGIC));
	put_varint(out, s->format);
	put_varint(out, s->min_reader);
	put_varint(out, s->nprops);
	for (size_t i = 0; i < s->nprops; i++) {
		put_cstr(out, s->keys[i]);
		put_cstr(out, s->vals[i]);
	}
	put_fdescs(out, s->sf, s->nsf);
	put_fdescs(out, s->tf, s->ntf);
	put_varint(out, s->ncols);
	for (size_t i = 0; i < s->ncols; i++) {
		const struct rec_col *c = &s->cols[i];
		put_cstr(out, c->id);
		put_cstr(out, c->header);
		put_cstr(out, c->desc);
		put_cstr(out, type_names[c->type]);
		put_cstr(out, c->align == COL_ALIGN_LEFT ? "left" : "right");
		put_cstr(out, applies_names[c->applies]);
		put_u8(out, (uint8_t)(c->counter | c->sort_descending << 1));
		put_varint(out, (uint64_t)(c->width > 0 ? c->width : 0));
		put_varint(out, c->slot);
	}
	put_fdescs(out, s->cf, s->ncf);
}

/* A string of at most max bytes, NUL-terminated, without NUL inside; NULL when bad. */
static char *get_cstr(struct rcur *c, size_t max)
{
	uint64_t len = get_varint(c);
	if (c->bad || len > max) {
		c->bad = true;
		return NULL;
	}
	const uint8_t *p = get_bytes(c, (size_t)len);
	if (!p || memchr(p, 0, (size_t)len)) {
		c->bad = true;
		return NULL;
	}
	char *s = malloc((size_t)len + 1);
	if (!s) {
		c->bad = true;
		return NULL;
	}
	memcpy(s, p, (size_t)len);
	s[len] = '\0';
	return s;
}

/* A count of items of at least min_size bytes each that the rest can hold. */
static size_t get_count(struct rcur *c, size_t min_size)
{
	uint64_t n = get_varint(c);
	if (c->bad || n > rcur_left(c) / min_size) {
		c->bad = true;
		return 0;
	}
	return (size_t)n;
}

static int get_fdescs(struct rcur *c, struct rec_fdesc **out, size_t *nout)
{
	size_t n = get_count(c, 3);
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return -1;
	for (size_t i = 0; i < n && !c->bad; i++) {
		struct rec_fdesc *f = &(*out)[i];
		f->name = get_cstr(c, NAME_MAX_LEN);
		*nout = i + 1;
		f->kind = get_u8(c);
		uint64_t base = get_varint(c);
		if (base >> 1 > i)
			c->bad = true; /* a time's base comes before it */
		f->base = (uint32_t)base;
	}
	return c->bad ? -1 : 0;
}

static char *err_dup(const char *fmt, unsigned a, unsigned b)
{
	char tmp[256];
	snprintf(tmp, sizeof(tmp), fmt, a, b);
	return strdup(tmp);
}

int rec_schema_decode(const uint8_t *p, size_t n, struct rec_schema *s, char **err)
{
	memset(s, 0, sizeof(*s));
	*err = NULL;
	struct rcur c = rcur_make(p, n);
	const uint8_t *m = get_bytes(&c, sizeof(SCHEMA_MAGIC));
	if (!m || memcmp(m, SCHEMA_MAGIC, sizeof(SCHEMA_MAGIC)) != 0) {
		*err = strdup(_("not a taskview recording"));
		return -1;
	}
	uint64_t format = get_varint(&c), min_reader = get_varint(&c);
	if (c.bad)
		goto bad;
	if (min_reader > REC_READS) {
		*err = err_dup(_("made by a newer taskview (format %u; this one reads up to %u)"),
			       (unsigned)(format > 9999 ? 9999 : format), REC_READS);
		return -2;
	}
	s->format = (uint32_t)(format > UINT32_MAX ? UINT32_MAX : format);
	s->min_reader = (uint32_t)min_reader;
	size_t np = get_count(&c, 2);
	if (c.bad || !(s->keys = calloc(np ? np : 1, sizeof(char *))) || !(s->vals = calloc(np ? np : 1, sizeof(char *))))
		goto bad;
	for (size_t i = 0; i < np && !c.bad; i++) {
		s->keys[i] = get_cstr(&c, NAME_MAX_LEN);
		s->vals[i] = get_cstr(&c, TEXT_MAX_LEN);
		s->nprops = i + 1;
	}
	if (c.bad || get_fdescs(&c, &s->sf, &s->nsf) < 0 || get_fdescs(&c, &s->tf, &s->ntf) < 0)
		goto bad;
	size_t nc = get_count(&c, 9);
	if (c.bad || nc > PLUGIN_SLOTS_MAX || !(s->cols = calloc(nc ? nc : 1, sizeof(*s->cols))))
		goto bad;
	for (size_t i = 0; i < nc && !c.bad; i++) {
		struct rec_col *col = &s->cols[i];
		s->ncols = i + 1;
		col->id = get_cstr(&c, NAME_MAX_LEN);
		col->header = get_cstr(&c, NAME_MAX_LEN);
		col->desc = get_cstr(&c, TEXT_MAX_LEN);
		char *type = get_cstr(&c, NAME_MAX_LEN), *align = get_cstr(&c, NAME_MAX_LEN);
		char *applies = get_cstr(&c, NAME_MAX_LEN);
		uint8_t flags = get_u8(&c);
		uint64_t width = get_varint(&c), slot = get_varint(&c);
		int t = type ? name_index(type_names, sizeof(type_names) / sizeof(type_names[0]), type) : -1;
		int a = applies ? name_index(applies_names, 3, applies) : -1;
		/* a type this build does not know is shown as a plain number or text */
		col->type = t >= 0 ? (enum col_type)t : COL_FLOAT;
		col->align = align && strcmp(align, "left") == 0 ? COL_ALIGN_LEFT : COL_ALIGN_RIGHT;
		col->applies = a >= 0 ? (enum col_applies)a : COL_ROWS_BOTH;
		col->counter = flags & 1;
		col->sort_descending = flags & 2;
		col->width = width > 64 ? 64 : (int)width;
		if (slot >= PLUGIN_SLOTS_MAX)
			c.bad = true;
		col->slot = (uint32_t)slot;
		free(type);
		free(align);
		free(applies);
	}
	if (c.bad)
		goto bad;
	/* the group table's fields, when the writer had them (0.1.0 had not) */
	const char *sections = rec_schema_prop(s, "sections");
	if (sections && strstr(sections, "cgroup-fields") && get_fdescs(&c, &s->cf, &s->ncf) < 0)
		goto bad;
	/* later versions may add sections after these */
	return 0;
bad:
	rec_schema_free(s);
	if (!*err)
		*err = strdup(_("damaged description of the recording"));
	return -1;
}

static const struct rec_field *known_field(const struct rec_field *f, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(f[i].name, name) == 0)
			return &f[i];
	return NULL;
}

static uint8_t raw_size(uint8_t ctype)
{
	switch (ctype) {
	case REC_C_I64:
	case REC_C_U64:
	case REC_C_START:
	case REC_C_MEM:
		return 8;
	case REC_C_I32:
	case REC_C_I32U:
	case REC_C_U32:
		return 4;
	case REC_C_CHAR:
	case REC_C_BOOL:
		return 1;
	case REC_C_SIZE:
	case REC_C_COUNT:
		return sizeof(size_t);
	default:
		return 0;
	}
}

struct slots {
	const char *const *ids;
	size_t n;
};

static int bind_table(struct rec_bind **out, size_t *nout, size_t *ntimes, const struct rec_fdesc *fd, size_t n,
		      const struct rec_field *known, size_t nknown, const struct slots *slots)
{
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return -1;
	*nout = n;
	*ntimes = 0;
	size_t pl = strlen(REC_PLUGIN_PREFIX);
	for (size_t i = 0; i < n; i++) {
		struct rec_bind *b = &(*out)[i];
		b->kind = fd[i].kind;
		b->base = -1;
		if (b->kind < REC_K_INT || b->kind > REC_K_TIME)
			return -1; /* cannot be skipped: a writer that adds a kind raises min_reader */
		if (b->kind == REC_K_TIME) {
			b->tslot = (*ntimes)++;
			if (fd[i].base >> 1) {
				b->base = (int)(fd[i].base >> 1) - 1;
				b->base_first = fd[i].base & 1;
				if ((*out)[b->base].kind != REC_K_TIME)
					return -1;
			}
		}
		const struct rec_field *k = known_field(known, nknown, fd[i].name);
		if (k && k->kind == b->kind) {
			bool dup = false;
			for (size_t j = 0; j < i; j++)
				dup |= (*out)[j].ctype == k->ctype && (*out)[j].off == k->off;
			/* a time whose base cannot be rebuilt here cannot be either */
			bool lost_base = b->base >= 0 && (*out)[b->base].ctype == REC_C_SKIP;
			if (!dup && !lost_base) {
				b->ctype = k->ctype;
				b->off = k->off;
				b->raw = raw_size(k->ctype);
			}
			continue;
		}
		if (!slots || strncmp(fd[i].name, REC_PLUGIN_PREFIX, pl) != 0 || b->kind == REC_K_TIME)
			continue; /* REC_C_SKIP */
		for (size_t j = 0; j < slots->n; j++) {
			if (strcmp(slots->ids[j], fd[i].name + pl) != 0)
				continue;
			bool dup = false;
			for (size_t m = 0; m < i; m++)
				dup |= (*out)[m].off == j && ((*out)[m].ctype == REC_C_PV_I || (*out)[m].ctype == REC_C_PV_F ||
							     (*out)[m].ctype == REC_C_PV_S);
			if (dup)
				break;
			b->off = (uint32_t)j;
			b->ctype = b->kind == REC_K_INT ? REC_C_PV_I : b->kind == REC_K_DBL ? REC_C_PV_F : REC_C_PV_S;
			break;
		}
	}
	return 0;
}

int rec_layout_bind(struct rec_layout *l, const struct rec_schema *s, const char *const *slot_ids, size_t nslots,
		    char **err)
{
	memset(l, 0, sizeof(*l));
	*err = NULL;
	size_t n;
	struct slots slots = {slot_ids, nslots};
	const struct rec_field *f = rec_sample_fields(&n);
	if (bind_table(&l->sb, &l->nsb, &l->nstimes, s->sf, s->nsf, f, n, NULL) < 0)
		goto bad;
	f = rec_task_fields(&n);
	if (bind_table(&l->tb, &l->ntb, &l->nttimes, s->tf, s->ntf, f, n, &slots) < 0)
		goto bad;
	f = rec_cgroup_fields(&n);
	if (bind_table(&l->cb, &l->ncb, &l->nctimes, s->cf, s->ncf, f, n, NULL) < 0)
		goto bad;
	l->npvals = nslots;
	return 0;
bad:
	rec_layout_free(l);
	*err = strdup(_("the recording's fields cannot be read by this version"));
	return -1;
}

void rec_layout_free(struct rec_layout *l)
{
	free(l->sb);
	free(l->tb);
	free(l->cb);
	memset(l, 0, sizeof(*l));
}
