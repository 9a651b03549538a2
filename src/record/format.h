/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The recording format (docs/recording.md): frames with a checksummed header,
 * and the fields a sample and a task are recorded with. Field names are the
 * format's promise: a name keeps its meaning forever; a new field gets a new
 * name, and a reader skips the names it does not know.
 */
#ifndef TV_RECORD_FORMAT_H
#define TV_RECORD_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REC_MAGIC "\x89TVR"
#define REC_HDR_LEN 36          /* the header this version writes */
#define REC_HDR_MAX 256         /* a longer one is not a header */
#define REC_FORMAT 1            /* the format version written */
#define REC_READS 1             /* files that need a reader of at most this version are read */
#define REC_PAYLOAD_MAX (256u << 20)
/* A sample decompressed (one frame's piece of its block's stream): the
 * writer leaves a larger one out, a reader takes one for damage before it
 * spends more memory on it (a few compressed bytes can claim gigabytes).
 * About 200,000 tasks recorded whole. */
#define REC_SAMPLE_MAX (32u << 20)

enum rec_frame_type {
	REC_FRAME_SCHEMA = 1,   /* a run's (or a file's) description: fields, host, options */
	REC_FRAME_SAMPLE = 2,   /* one sample: a flushed piece of a zstd stream */
	REC_FRAME_HOST = 3,     /* a frame another host sent, with its name (record/hosts/hostframe.h) */
};

/* REC_FRAME_SAMPLE flags */
#define REC_FLAG_BLOCK_START 1u /* a new compressed stream and a sample recorded whole */

struct rec_frame {
	uint8_t type, flags;
	uint16_t hlen;          /* header length, its checksum included */
	uint32_t len;           /* payload bytes after the header */
	uint32_t crc;           /* CRC-32C of the payload */
	uint64_t seq;           /* sample number in its run (schema: the run's first) */
	int64_t wall_ns;        /* the sample's time, ns since the epoch (schema: when written) */
};

/* Writes the REC_HDR_LEN bytes of a header, its checksum included. */
void rec_frame_pack(uint8_t *out, const struct rec_frame *f);
/* Reads a header from the n bytes at p: 0, or -1 when they are not one
 * (magic, length or checksum); hlen tells how many bytes it took. */
int rec_frame_unpack(const uint8_t *p, size_t n, struct rec_frame *f);

/* How a field's value is written (a reader skips an unknown field by its kind). */
enum rec_kind {
	REC_K_INT = 1,  /* zigzag varint, the change from the base value */
	REC_K_DBL = 2,  /* 8 bytes, IEEE 754 little-endian */
	REC_K_STR = 3,  /* varint length, bytes */
	REC_K_TIME = 4, /* seconds as zigzag varint ns, the change from the field's time base */
};

/* Where a field lives in memory (this build's side of the binding). */
enum rec_ctype {
	REC_C_SKIP = 0,   /* in the file, unknown here */
	REC_C_I64,        /* TV_UNKNOWN when unknown */
	REC_C_I32,        /* always known */
	REC_C_I32U,       /* TV_UNKNOWN32 when unknown */
	REC_C_U32,
	REC_C_U64,
	REC_C_START,      /* uint64_t, TV_START_UNKNOWN when unknown */
	REC_C_CHAR,
	REC_C_BOOL,
	REC_C_SIZE,
	REC_C_COUNT,      /* size_t, TV_COUNT_UNKNOWN when unknown */
	REC_C_DBL,        /* double; NaN when unknown */
	REC_C_TIME,       /* double seconds; 0 when not read */
	REC_C_MEM_TIME,   /* the same in a task's struct tv_mem (off into it) */
	REC_C_CSTR,       /* char *, owned; NULL when unknown */
	REC_C_COMM,       /* a task's name: task_comm() and task_set_comm() */
	REC_C_MEM,        /* int64_t in a task's struct tv_mem (off into it); TV_UNKNOWN when unknown */
	/* a task's stack (off: stack_size or stack_rss of struct tv_mem): a
	 * process's sum there, a thread's own in its block's stacks[] */
	REC_C_STACK,
	REC_C_INTERN,     /* const char *, owned by the reader; NULL when unknown */
	REC_C_PV_I,       /* plugin slot: tv_pvalue.i */
	REC_C_PV_F,       /* plugin slot: tv_pvalue.f */
	REC_C_PV_S,       /* plugin slot: tv_pvalue.s */
	/* a struct tv_pressure: a half's total (int, unknown when that half
	 * is) or its 10 s average (double) */
	REC_C_PSI_SOME_US,
	REC_C_PSI_FULL_US,
	REC_C_PSI_SOME_AVG,
	REC_C_PSI_FULL_AVG,
	REC_C_CGROUP,     /* a task's group (const struct tv_cgroup *), written as its path */
	REC_C_BLOB,       /* struct rec_blob: bytes, owned (a sample's group table) */
};

/* A field this build knows. off: into struct tv_task or struct rec_sample,
 * or the plugin slot. A time is written against the same field of the
 * previous record, or against `base`, a time of the same record (NULL:
 * none); base_first: that one is tried first. */
struct rec_field {
	const char *name;
	uint8_t kind, ctype;
	uint32_t off;
	const char *base;
	bool base_first;
	/* sizeof the member at off: a unit test checks it against ctype, so
	 * that a member whose type changes cannot be written past */
	uint16_t size;
};

const struct rec_field *rec_sample_fields(size_t *n);
const struct rec_field *rec_task_fields(size_t *n);
/* The fields of a control group in a sample's group table (off: into struct rec_cgroup). */
const struct rec_field *rec_cgroup_fields(size_t *n);
/* The name a plugin column's value is recorded under: "plugin:" and its id. */
#define REC_PLUGIN_PREFIX "plugin:"

#endif
