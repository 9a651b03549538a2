/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run's description, written in its schema frame: the format version, what
 * was recorded where (host, options), the fields of a sample and of a task by
 * name, and the plugin columns. Binding it to this build's tables gives the
 * layout the codec works with.
 */
#ifndef TV_RECORD_SCHEMA_H
#define TV_RECORD_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/column.h"
#include "record/format.h"
#include "util/buf.h"

struct rec_fdesc {
	char *name;
	uint8_t kind;       /* enum rec_kind */
	uint32_t base;      /* times: 0, or (1 + index of a time of the same record) << 1 | tried first */
};

/* A plugin column as recorded: enough to show it without the plugin. */
struct rec_col {
	char *id, *header, *desc;
	enum col_type type;
	enum col_align align;
	enum col_applies applies;
	bool counter, sort_descending;
	int width;
	uint32_t slot;
};

struct rec_schema {
	uint32_t format;        /* the version that wrote it */
	uint32_t min_reader;    /* the oldest reader version that can read it */
	char **keys, **vals;    /* properties: host, kernel, taskview, run, interval, ... */
	size_t nprops;
	struct rec_fdesc *sf, *tf; /* sample fields, task fields */
	size_t nsf, ntf;
	struct rec_col *cols;
	size_t ncols;
	/* the fields of a control group in a sample's group table: a section
	 * added after 0.1.0 (none in its files) */
	struct rec_fdesc *cf;
	size_t ncf;
};

void rec_schema_free(struct rec_schema *s);
/* The value of a property, or NULL. */
const char *rec_schema_prop(const struct rec_schema *s, const char *key);
int rec_schema_set(struct rec_schema *s, const char *key, const char *val);

/* This build's fields, and the plugin columns of cs (those past its built-ins). */
int rec_schema_build(struct rec_schema *s, const struct colset *cs);

void rec_schema_encode(struct buf *out, const struct rec_schema *s);
/* Returns 0, or -1 with a message in err (malloc'd) when the bytes are not a
 * schema this build can read; -2 (with its message) when a newer version
 * wrote it and says this one cannot read it. */
int rec_schema_decode(const uint8_t *p, size_t n, struct rec_schema *s, char **err);

/* A field of the file bound to this build: where it goes and how. */
struct rec_bind {
	uint8_t kind, ctype;    /* ctype REC_C_SKIP: read and dropped */
	/* the size of a field whose value, known or not, follows from its
	 * bytes alone (two records agree on it when their bytes do); else 0 */
	uint8_t raw;
	uint32_t off;           /* offset, or plugin slot */
	int base;               /* times: index of a time of the same record, or -1 */
	bool base_first;        /* ... tried before the previous record's */
	size_t tslot;           /* times: index into the time bases */
};

struct rec_layout {
	struct rec_bind *sb, *tb, *cb; /* sample, task and control group fields */
	size_t nsb, ntb, ncb;
	size_t nstimes, nttimes, nctimes;
	size_t npvals;          /* plugin slots */
	size_t max_tasks;       /* the most tasks a sample may decode to; 0: no limit but the bytes' */
};

/* slot_ids: the plugin column ids by slot (the reader's union of every run's);
 * a plugin value is bound to the slot of its id. */
int rec_layout_bind(struct rec_layout *l, const struct rec_schema *s, const char *const *slot_ids, size_t nslots,
		    char **err);
void rec_layout_free(struct rec_layout *l);

#endif
