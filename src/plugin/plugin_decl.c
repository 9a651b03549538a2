/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A plugin's declaration on its way from the helper to taskview (WIRE_LOADED). */
#include "plugin/plugin_priv.h"

#include <stdlib.h>
#include <string.h>

/* Longer than any field a check accepts; the check itself comes after. */
#define DECL_STRING_MAX 4096

void plugin_decl_put(struct buf *b, const struct taskview_plugin *d, const struct taskview_column *cols)
{
	wire_u16(b, d->abi_major);
	wire_u16(b, d->abi_minor);
	wire_str(b, d->name);
	wire_str(b, d->description);
	wire_u32(b, d->ncolumns);
	for (uint32_t i = 0; i < d->ncolumns; i++) {
		const struct taskview_column *c = &cols[i];
		wire_str(b, c->id);
		wire_str(b, c->header);
		wire_str(b, c->description);
		wire_u32(b, c->type);
		wire_u32(b, c->flags);
		wire_u32(b, c->width);
		wire_u32(b, c->align);
		wire_u32(b, c->rows);
	}
}

int plugin_decl_get(struct wire_reader *r, struct plugin_decl *out)
{
	bool null;
	memset(out, 0, sizeof(*out));
	out->abi_major = wire_get_u16(r);
	out->abi_minor = wire_get_u16(r);
	out->name = wire_get_str(r, DECL_STRING_MAX, &null);
	out->desc = wire_get_str(r, DECL_STRING_MAX, &null);
	uint32_t n = wire_get_u32(r);
	/* each column takes 32 bytes or more: a count the payload cannot hold is garbage */
	if (!r->bad && n <= r->left / 32)
		out->cols = calloc(n ? n : 1, sizeof(*out->cols));
	if (!out->cols) {
		r->bad = true;
		return -1;
	}
	out->ncols = n;
	for (uint32_t i = 0; i < n && !r->bad; i++) {
		struct taskview_column *c = &out->cols[i];
		c->id = wire_get_str(r, DECL_STRING_MAX, &null);
		c->header = wire_get_str(r, DECL_STRING_MAX, &null);
		c->description = wire_get_str(r, DECL_STRING_MAX, &null);
		c->type = wire_get_u32(r);
		c->flags = wire_get_u32(r);
		c->width = wire_get_u32(r);
		c->align = wire_get_u32(r);
		c->rows = wire_get_u32(r);
	}
	return r->bad ? -1 : 0;
}

void plugin_decl_free(struct plugin_decl *d)
{
	for (uint32_t i = 0; d->cols && i < d->ncols; i++) {
		free((char *)d->cols[i].id);
		free((char *)d->cols[i].header);
		free((char *)d->cols[i].description);
	}
	free(d->cols);
	free(d->name);
	free(d->desc);
	memset(d, 0, sizeof(*d));
}
