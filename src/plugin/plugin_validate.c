/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copies a plugin's descriptor and columns and checks them, naming the failing stage. */
#include "plugin/plugin_priv.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"

#define NAME_MAX_LEN 31
#define ID_MAX_LEN 63
#define HEADER_MAX_LEN 31
#define DESC_MAX_LEN 300
#define WIDTH_MAX 64

/* A column must at least reach its type field. */
#define COLUMN_MIN_SIZE (offsetof(struct taskview_column, type) + sizeof(uint32_t))
/* More would be a mistake, and must not make the host allocate without bound. */
#define NCOLUMNS_MAX 256

#define FIELD_END(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/*
 * What a plugin built for ABI 1.MINOR declares of each structure: the bytes up to
 * the end of the last field that minor has. sizeof is not it: on 64-bit a column
 * of 1.0 ends in 4 bytes of padding where a field appended later would go, and a
 * plugin's padding (or whatever follows its structures, up to struct_size or
 * column_size) may hold anything. One row per minor; a minor that appends fields
 * appends a row.
 */
static const struct {
	size_t plugin, column;
} abi_extent[] = {
	/* 1.0 */ {FIELD_END(struct taskview_plugin, end), FIELD_END(struct taskview_column, rows)},
};
_Static_assert(sizeof(abi_extent) / sizeof(abi_extent[0]) == TASKVIEW_PLUGIN_ABI_MINOR + 1,
               "one abi_extent row per minor");

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

void plugin_descriptor_copy(struct taskview_plugin *d, const void *raw, uint32_t struct_size, uint16_t minor)
{
	memset(d, 0, sizeof(*d));
	if (minor <= TASKVIEW_PLUGIN_ABI_MINOR)
		memcpy(d, raw, min_size(struct_size, abi_extent[minor].plugin));
}

void plugin_column_copy(struct taskview_column *c, const void *raw, uint32_t column_size, uint16_t minor)
{
	memset(c, 0, sizeof(*c));
	if (minor <= TASKVIEW_PLUGIN_ABI_MINOR)
		memcpy(c, raw, min_size(column_size, abi_extent[minor].column));
}

static int fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

/* [a-z][a-z0-9_]* of at most max bytes: safe in ids, file names and JSON keys. */
static bool ident_ok(const char *s, size_t len, size_t max)
{
	if (len == 0 || len > max || s[0] < 'a' || s[0] > 'z')
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return true;
}

/* Headers and descriptions reach the terminal: printable ASCII only. */
static bool text_ok(const char *s, size_t max)
{
	size_t len = strlen(s);
	if (len > max)
		return false;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return false;
	return true;
}

void plugin_colinfo_free(struct plugin_colinfo *cols, uint32_t n)
{
	if (!cols)
		return;
	for (uint32_t i = 0; i < n; i++) {
		free(cols[i].id);
		free(cols[i].header);
		free(cols[i].desc);
	}
	free(cols);
}

static int check_column(const char *name, uint32_t i, const struct taskview_column *c,
                        struct plugin_colinfo *out, char *why, size_t whylen)
{
	if (!c->id)
		return fail(why, whylen, _("missing mandatory field: columns[%u].id"), i);
	size_t nlen = strlen(name);
	if (strncmp(c->id, name, nlen) != 0 || c->id[nlen] != '.' ||
	    !ident_ok(c->id + nlen + 1, strlen(c->id + nlen + 1), ID_MAX_LEN - nlen - 1))
		return fail(why, whylen, P_("invalid field: column id \"%.80s\" is not \"%s.NAME\" with NAME of [a-z0-9_] starting with a letter (at most %d byte in all)",
		               "invalid field: column id \"%.80s\" is not \"%s.NAME\" with NAME of [a-z0-9_] starting with a letter (at most %d bytes in all)",
		               ID_MAX_LEN),
		            c->id, name, ID_MAX_LEN);
	if (!c->header)
		return fail(why, whylen, _("missing mandatory field: header of column %s"), c->id);
	if (!*c->header || !text_ok(c->header, HEADER_MAX_LEN))
		return fail(why, whylen, P_("invalid field: header of column %s must be 1 to %d printable ASCII character",
		               "invalid field: header of column %s must be 1 to %d printable ASCII characters", HEADER_MAX_LEN),
		            c->id, HEADER_MAX_LEN);
	if (c->description && !text_ok(c->description, DESC_MAX_LEN))
		return fail(why, whylen, P_("invalid field: description of column %s must be at most %d printable ASCII character",
		               "invalid field: description of column %s must be at most %d printable ASCII characters", DESC_MAX_LEN),
		            c->id, DESC_MAX_LEN);
	if (c->type == 0)
		return fail(why, whylen, _("missing mandatory field: type of column %s"), c->id);
	if (c->type > TASKVIEW_TYPE_STRING)
		return fail(why, whylen, _("invalid field: type %u of column %s"), c->type, c->id);
	if (c->flags & ~(uint32_t)TASKVIEW_COLUMN_COUNTER)
		return fail(why, whylen, _("invalid field: unknown flags 0x%x of column %s"), c->flags, c->id);
	bool counter = c->flags & TASKVIEW_COLUMN_COUNTER;
	if (counter && c->type != TASKVIEW_TYPE_INTEGER && c->type != TASKVIEW_TYPE_BYTES)
		return fail(why, whylen, _("invalid field: counter column %s must be of type integer or bytes"), c->id);
	if (c->width > WIDTH_MAX)
		return fail(why, whylen, _("invalid field: width %u of column %s is over %d"), c->width, c->id, WIDTH_MAX);
	if (c->align > TASKVIEW_ALIGN_LEFT)
		return fail(why, whylen, _("invalid field: align %u of column %s"), c->align, c->id);
	if (c->rows > TASKVIEW_ROWS_THREAD)
		return fail(why, whylen, _("invalid field: rows %u of column %s"), c->rows, c->id);

	static const enum col_applies applies[] = {
		[TASKVIEW_ROWS_BOTH] = COL_ROWS_BOTH,
		[TASKVIEW_ROWS_PROCESS] = COL_ROWS_PROCESS,
		[TASKVIEW_ROWS_THREAD] = COL_ROWS_THREAD,
	};
	size_t hlen = strlen(c->header);
	*out = (struct plugin_colinfo){
		.id = strdup(c->id),
		.header = strdup(c->header),
		.desc = strdup(c->description ? c->description : ""),
		.type = c->type,
		.width = c->width > hlen ? c->width : (uint32_t)hlen,
		.align = c->align,
		.counter = counter,
		.applies = applies[c->rows],
	};
	if (!out->id || !out->header || !out->desc)
		return fail(why, whylen, "%s", _("out of memory"));
	return 0;
}

/* The plugin's name and description. */
static int check_names(const char *name, const char *desc, char *why, size_t whylen)
{
	if (!name)
		return fail(why, whylen, "%s", _("missing mandatory field: name"));
	if (!ident_ok(name, strlen(name), NAME_MAX_LEN))
		return fail(why, whylen, P_("invalid field: name \"%.80s\" must be [a-z0-9_], starting with a letter, at most %d byte",
		               "invalid field: name \"%.80s\" must be [a-z0-9_], starting with a letter, at most %d bytes", NAME_MAX_LEN),
		            name, NAME_MAX_LEN);
	if (desc && !text_ok(desc, DESC_MAX_LEN))
		return fail(why, whylen, P_("invalid field: description must be at most %d printable ASCII character",
		               "invalid field: description must be at most %d printable ASCII characters", DESC_MAX_LEN), DESC_MAX_LEN);
	return 0;
}

static int check_ncolumns(bool have_columns, uint32_t n, char *why, size_t whylen)
{
	if (!have_columns || n == 0)
		return fail(why, whylen, "%s", _("missing mandatory field: columns"));
	if (n > NCOLUMNS_MAX)
		return fail(why, whylen, _("invalid field: ncolumns %u is over %d"), n, NCOLUMNS_MAX);
	return 0;
}

static int check_columns(const char *name, const struct taskview_column *cols, uint32_t n,
                         struct plugin_colinfo **out, char *why, size_t whylen)
{
	struct plugin_colinfo *info = calloc(n, sizeof(*info));
	if (!info)
		return fail(why, whylen, "%s", _("out of memory"));
	for (uint32_t i = 0; i < n; i++) {
		if (check_column(name, i, &cols[i], &info[i], why, whylen) < 0) {
			plugin_colinfo_free(info, i + 1);
			return -1;
		}
		for (uint32_t k = 0; k < i; k++) {
			if (strcmp(info[k].id, info[i].id) == 0) {
				fail(why, whylen, _("duplicate column id: %s (declared twice by this plugin)"), info[i].id);
				plugin_colinfo_free(info, i + 1);
				return -1;
			}
		}
	}
	*out = info;
	return 0;
}

int plugin_check_declaration(const char *name, const char *desc, const struct taskview_column *cols, uint32_t n,
                             struct plugin_colinfo **out, char *why, size_t whylen)
{
	*out = NULL;
	if (check_names(name, desc, why, whylen) < 0 || check_ncolumns(cols != NULL, n, why, whylen) < 0)
		return -1;
	return check_columns(name, cols, n, out, why, whylen);
}

int plugin_validate(const struct taskview_plugin *raw, struct taskview_plugin *d, struct taskview_column **rawcols,
                    struct plugin_colinfo **colsp, char *why, size_t whylen)
{
	*colsp = NULL;
	*rawcols = NULL;
	/* the version fields first: only they are the same in every ABI */
	struct {
		uint32_t struct_size;
		uint16_t abi_major, abi_minor;
	} head;
	memcpy(&head, raw, sizeof(head));
	if (head.struct_size < sizeof(head))
		return fail(why, whylen, _("not a taskview plugin: descriptor size %u is too small"), head.struct_size);
	if (head.abi_major != TASKVIEW_PLUGIN_ABI_MAJOR || head.abi_minor > TASKVIEW_PLUGIN_ABI_MINOR)
		return fail(why, whylen, _("ABI mismatch: the plugin needs ABI %u.%u, taskview %s provides ABI %d.%d"),
		            head.abi_major, head.abi_minor, TV_VERSION, TASKVIEW_PLUGIN_ABI_MAJOR, TASKVIEW_PLUGIN_ABI_MINOR);

	/* only the fields of the plugin's minor, within its struct_size; what it
	 * lacks reads as zero, i.e. "not provided" */
	plugin_descriptor_copy(d, raw, head.struct_size, head.abi_minor);
	d->struct_size = sizeof(*d);

	if (check_names(d->name, d->description, why, whylen) < 0 ||
	    check_ncolumns(d->columns != NULL, d->ncolumns, why, whylen) < 0)
		return -1;
	if (d->column_size == 0)
		return fail(why, whylen, "%s", _("missing mandatory field: column_size"));
	if (d->column_size < COLUMN_MIN_SIZE)
		return fail(why, whylen, _("invalid field: column_size %u is smaller than %zu"), d->column_size, COLUMN_MIN_SIZE);
	if (!d->collect)
		return fail(why, whylen, "%s", _("missing mandatory field: collect"));

	struct taskview_column *cols = calloc(d->ncolumns, sizeof(*cols));
	if (!cols)
		return fail(why, whylen, "%s", _("out of memory"));
	/* walk by the plugin's stride; fields it does not have stay zero */
	for (uint32_t i = 0; i < d->ncolumns; i++)
		plugin_column_copy(&cols[i], (const char *)d->columns + (size_t)i * d->column_size, d->column_size,
		                   d->abi_minor);
	if (check_columns(d->name, cols, d->ncolumns, colsp, why, whylen) < 0) {
		free(cols);
		return -1;
	}
	*rawcols = cols;
	return 0;
}
