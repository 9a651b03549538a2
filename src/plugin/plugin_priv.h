/* Host-side plugin state shared by the plugin_*.c files; not for the rest of taskview. */
#ifndef TV_SAMPLE_PLUGIN_PRIV_H
#define TV_SAMPLE_PLUGIN_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <taskview/plugin.h>

#include "model/column.h"
#include "model/task.h"

/* The plugin's view of one task: the model's task and its open /proc directory. */
struct taskview_task {
	const struct tv_task *t;
	int dirfd;
};

/* One column as the host keeps it: checked, strings copied. */
struct plugin_colinfo {
	char *id, *header, *desc;
	uint32_t type;   /* enum taskview_type */
	uint32_t width;
	uint32_t align;  /* enum taskview_align */
	bool counter;
	enum col_applies applies;
};

/* Where one collect call stores values: the plugin's slots of one task. */
struct taskview_values {
	struct tv_pvalue *pv;
	const struct plugin_colinfo *cols;
	const bool *wanted;
	uint32_t n;
};

struct plugin {
	char *path;
	char *cost;                 /* column cost line: which plugin reads it */
	void *dl;
	struct taskview_plugin d;   /* the plugin's descriptor, zero-filled past its struct_size */
	struct plugin_colinfo *cols;
	bool *wanted;               /* scratch for one collect call */
	uint32_t ncols;
	size_t first_slot;
	void *state;
	bool inited;                /* free_state is owed */
	bool disabled;              /* over budget: no more callbacks */
	int64_t spent_ns;           /* callback time in the current refresh */
	size_t ncalls;              /* collect calls in the current refresh */
};

struct plugin_host {
	struct plugin *v;
	size_t n;
	size_t nslots;
	void (*msg_cb)(void *ctx, const char *line);
	void *ctx;
	char **seen;                /* file names tried, so a user plugin shadows a system one */
	size_t nseen;
	int procfd;                 /* /proc, opened at the first refresh */
};

/* The function table handed to every plugin. */
const struct taskview_host *plugin_api_host(void);

/* Clears the values of slots [0, n) of one task's plugin values. */
void plugin_values_clear(struct tv_pvalue *pv, size_t n);

/*
 * Copies the descriptor RAW into *d (zero-filled beyond its struct_size) and
 * checks it and its columns. On success stores the copied columns in *cols
 * and returns 0; otherwise returns -1 with "stage: detail" in why.
 */
int plugin_validate(const struct taskview_plugin *raw, struct taskview_plugin *d,
                    struct plugin_colinfo **cols, char *why, size_t whylen);
void plugin_colinfo_free(struct plugin_colinfo *cols, uint32_t n);
/*
 * Copy what a plugin built for ABI 1.minor declares of its descriptor (of one
 * column), at most struct_size (column_size) bytes; every other byte of the copy
 * is zero. Padding and bytes past the last field of that minor are never read.
 */
void plugin_descriptor_copy(struct taskview_plugin *d, const void *raw, uint32_t struct_size, uint16_t minor);
void plugin_column_copy(struct taskview_column *c, const void *raw, uint32_t column_size, uint16_t minor);

/*
 * Ownership and permission rules for code taskview runs. Both return NULL
 * when the file or directory may be used, else a reason ("… is world-writable").
 * why is the buffer the reason is written into.
 */
const char *plugin_trust_file(int fd, const char *path, char *why, size_t whylen);
const char *plugin_trust_dir(const char *path, bool user_dir, char *why, size_t whylen);

#endif
