/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The messages between taskview and its plugin helper: framing and fields, as
 * pure functions over buffers. Both ends are the same binary, so numbers travel
 * in the machine's byte order; every length is checked on reading, because the
 * helper runs plugin code that may scribble over what it sends.
 *
 * A frame is a 4-byte type, a 4-byte payload length, then the payload. The
 * helper's answers end with what the plugin wrote to stdout or stderr while it
 * ran (bytes, and a byte that says whether more was cut).
 */
#ifndef TV_PLUGIN_PLUGIN_WIRE_H
#define TV_PLUGIN_PLUGIN_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

enum wire_type {
	WIRE_LOAD = 1, /* taskview: index, fd, path */
	WIRE_LOADED,   /* helper: index, declaration (plugin_decl_put), output */
	WIRE_REFUSED,  /* helper: index, "stage: detail", output */
	WIRE_DROP,     /* taskview: index; the helper frees and unloads it */
	WIRE_COLLECT,  /* taskview: seq, plugins with their shown columns, tasks */
	WIRE_VALUES,   /* helper: seq, index, CPU ns, values, output; one per plugin asked */
	WIRE_QUIT,     /* taskview: free every plugin and exit */
};

#define WIRE_HEADER_SIZE 8
/* Far more than 100k tasks with every value a long string need. */
#define WIRE_PAYLOAD_MAX (256u << 20)

/* Value tags of WIRE_VALUES entries. */
enum wire_tag { WIRE_INT = 1, WIRE_FLOAT = 2, WIRE_STRING = 3 };

/* Writing: wire_begin appends a header and returns where the frame starts;
 * wire_end fills in its length. */
size_t wire_begin(struct buf *b, uint32_t type);
void wire_end(struct buf *b, size_t start);
void wire_u8(struct buf *b, uint8_t v);
void wire_u16(struct buf *b, uint16_t v);
void wire_u32(struct buf *b, uint32_t v);
void wire_u64(struct buf *b, uint64_t v);
void wire_f64(struct buf *b, double v);
/* A length (u32) and the bytes; NULL is sent as the length UINT32_MAX. */
void wire_str(struct buf *b, const char *s);
void wire_bytes(struct buf *b, const char *s, size_t len);

/* The two records of a refresh, written whole (there is one per task, one
 * per value): a task of WIRE_COLLECT (tid, tgid, is_thread, comm of len
 * bytes), and a value of WIRE_VALUES (task, column, tag, then an int64, a
 * double, or a length and len bytes of string, from v). */
void wire_put_task(struct buf *b, int32_t tid, int32_t tgid, bool is_thread, const char *comm, size_t len);
void wire_put_value(struct buf *b, uint32_t task, uint32_t col, uint8_t tag, const void *v, size_t len);

/* Reading one payload: every get past the end, or over a limit, sets bad. */
struct wire_reader {
	const unsigned char *p;
	size_t left;
	bool bad;
};

/*
 * The frame at the start of buf (len bytes): 1 when it is complete (type, its
 * payload in *r, its total size in *total), 0 when more bytes are needed, -1
 * when the header announces more than WIRE_PAYLOAD_MAX.
 */
int wire_frame(const void *buf, size_t len, uint32_t *type, struct wire_reader *r, size_t *total);
uint8_t wire_get_u8(struct wire_reader *r);
uint16_t wire_get_u16(struct wire_reader *r);
uint32_t wire_get_u32(struct wire_reader *r);
uint64_t wire_get_u64(struct wire_reader *r);
double wire_get_f64(struct wire_reader *r);
/* A string of at most max bytes, without NUL bytes: a malloc'd, NUL-terminated
 * copy; NULL when it was sent as NULL (*was_null set) or on error (r->bad). */
char *wire_get_str(struct wire_reader *r, size_t max, bool *was_null);
/* Bytes of any value (NUL included), at most max: a malloc'd copy with a NUL
 * after them and their number in *len; NULL (r->bad) on error. */
char *wire_get_bytes(struct wire_reader *r, size_t max, size_t *len);
/* A task of WIRE_COLLECT; its comm cut to cap - 1 bytes and NUL-terminated. */
void wire_get_task(struct wire_reader *r, int32_t *tid, int32_t *tgid, bool *is_thread, char *comm, size_t cap);
/* The payload was read exactly: nothing bad, nothing left. */
bool wire_done(const struct wire_reader *r);

#endif
