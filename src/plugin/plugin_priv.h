/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the plugin_*.c files share; not for the rest of taskview.
 *
 * Plugin code never runs in taskview's process: taskview (the host side:
 * plugin_host.c, plugin_collect.c, plugin_child.c) finds and checks the files,
 * and a helper process (plugin_helper.c, plugin_api.c), started from taskview's
 * own binary, loads them and runs their callbacks, answering over a socket
 * (plugin_wire.h). The helper's output is captured by taskview.
 */
#ifndef TV_PLUGIN_PLUGIN_PRIV_H
#define TV_PLUGIN_PLUGIN_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <taskview/plugin.h>

#include "model/column.h"
#include "model/task.h"
#include "plugin/plugin_host.h"
#include "plugin/plugin_wire.h"
#include "util/buf.h"

/* Long enough for any sensible cell; keeps a runaway plugin from ballooning a snapshot. */
#define PLUGIN_STRING_MAX 1024

/* Wall-clock time a plugin may take to answer before it counts as hung: a
 * base, plus a multiple of its CPU budget (so that a big refresh on a busy
 * machine is not mistaken for a hang). Loading gets the budget of no task. */
#define PLUGIN_DEADLINE_S ((double)TASKVIEW_PLUGIN_DEADLINE_MS / 1000.0)
#define PLUGIN_DEADLINE_FACTOR 10
/* A helper past its deadline that is runnable and has run less than that many
 * budgets is kept off the CPUs of a busy machine, not hung: it is given more
 * time, looked at again every PLUGIN_STARVED_STEP_S, up to this much in all. */
#define PLUGIN_STARVED_MAX_S 60.0
#define PLUGIN_STARVED_STEP_S 1.0

/* The hidden argument that makes taskview's binary the plugin helper. */
#define PLUGIN_HELPER_ARG "--plugin-helper"
/* The helper's end of the socket, and its read end of its own output. */
#define PLUGIN_HELPER_FD 3
#define PLUGIN_HELPER_OUT_FD 4
/* Its own binary, which it was started through; it closes it. */
#define PLUGIN_HELPER_EXE_FD 5
/* Output of one plugin kept with its answer. */
#define PLUGIN_OUTPUT_KEEP 4096

/* One column as the host keeps it: checked, strings copied. */
struct plugin_colinfo {
	char *id, *header, *desc;
	uint32_t type;   /* enum taskview_type */
	uint32_t width;
	uint32_t align;  /* enum taskview_align */
	bool counter;
	enum col_applies applies;
};

/* What a plugin declares, as the helper sends it (WIRE_LOADED). */
struct plugin_decl {
	uint16_t abi_major, abi_minor;
	char *name, *desc;
	struct taskview_column *cols; /* the fields as copied; strings owned */
	uint32_t ncols;
};

/* The plugin's view of one task, in the helper: who it is, where its /proc
 * directory is (relative to /proc, opened as procfd). */
struct taskview_task {
	int32_t tid, tgid;
	bool is_thread;
	char comm[TV_COMM_MAX];
	int procfd;
	char dir[48];
};

/* Where one collect call stores values: one slot per column of the plugin. */
struct taskview_values {
	struct tv_pvalue *pv;
	const struct plugin_colinfo *cols;
	const bool *wanted;
	uint32_t n;
};

/* A plugin as taskview keeps it; its code runs in the helper. */
struct plugin {
	char *path;
	char *cost;                 /* column cost line: which plugin reads it */
	int fd;                     /* the file as checked: every helper loads this one; -1 once refused */
	int cfd;                    /* its number in the current helper */
	bool explicit_file;         /* --plugin: failing to load it is fatal */
	bool loaded;                /* declared columns, which are in the column set */
	char *name, *desc;          /* as declared */
	uint16_t abi_major, abi_minor;
	struct plugin_colinfo *cols;
	uint32_t ncols;
	size_t first_slot;
	bool disabled;              /* no more callbacks; its columns show unknown */
	unsigned over_budget;       /* refreshes in a row over the CPU budget */
	int64_t cpu_ns;             /* CPU time of its callbacks in the last refresh asked; -1 before */
	size_t ncalls;              /* tasks it was called for in that refresh */
};

/* The helper process, as taskview sees it. */
struct plugin_child {
	pid_t pid;
	int sock;                   /* our end of the socket */
	int out;                    /* a read end of the helper's stdout and stderr */
	struct buf rx;              /* received, not yet consumed */
	size_t frame;               /* size of the frame at the start of rx, once complete */
	bool eof;                   /* the socket is closed */
	bool reaped;
	int status;                 /* wait status, once reaped */
};

/* Where a helper stood at a moment (plugin_child_look). */
#define CHILD_LOOK_THREADS 16
struct child_thread {
	int32_t tid;
	int64_t wait_ns;            /* its wait for a CPU so far (schedstat's run_delay) */
};
struct child_look {
	double at;                  /* CLOCK_MONOTONIC */
	int64_t cpu_ns;             /* its CPU clock; -1: not known (it is gone) */
	bool runnable;              /* its main thread on a CPU or waiting for one */
	size_t nthreads;            /* its threads whose wait was read: none without schedstat */
	struct child_thread t[CHILD_LOOK_THREADS];
};

/* One WIRE_COLLECT and the answers it is still owed. */
struct plugin_round {
	uint32_t seq;
	size_t *expect;             /* plugin indices, in the order they answer */
	size_t nexpect, next;
	double deadline;            /* for the answer of expect[next], CLOCK_MONOTONIC */
	struct child_look asked;    /* the helper when that answer began to be waited for */
	struct child_look last;     /* and when it was last looked at */
	/* the refresh the answers are for: only during plugin_host_collect_all;
	 * NULL once that returned, and later answers are read and dropped */
	struct tv_task *const *tasks;
	size_t ntasks;
	const bool *shown;
};

struct plugin_host {
	struct plugin *v;
	size_t n;
	size_t nslots;
	void (*msg_cb)(void *ctx, const char *line);
	void *ctx;
	char **seen;                /* file names tried, so a user plugin shadows a system one */
	size_t nseen;
	struct plugin_child *child; /* NULL when not running */
	uint32_t seq;
	struct plugin_round round;
	bool (*interrupted)(void *ctx);
	void *ictx;
	unsigned idle_deaths;       /* helper ends no plugin can be blamed for */
};

/* --- host side --- */

/* One message line to msg_cb (printf format). */
void plugin_say(const struct plugin_host *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Disables p with one message: "plugin NAME (PATH): disabled: REASON; its columns show as unknown". */
void plugin_disable(struct plugin_host *h, struct plugin *p, const char *reason);
/* Budget of p for a refresh that called it for ncalls tasks, and its deadline. */
int64_t plugin_budget_ns(size_t ncalls);
double plugin_deadline_s(size_t ncalls);
/*
 * Past a deadline, whether the helper is kept off the CPUs rather than hung: it
 * ran less than PLUGIN_DEADLINE_FACTOR budgets (of ncalls) since it was asked,
 * the wait is not PLUGIN_STARVED_MAX_S old yet, and one of its threads waited
 * for a CPU a quarter of the time since last (which becomes now), or its main
 * thread is runnable now. A plugin that loops runs; one that blocks does not
 * wait for a CPU. The wait counts, not only the state now: the main thread of a
 * starved helper can be caught in a short sleep (a lock, a page fault, a worker
 * thread waited for).
 */
bool plugin_child_starved(const struct plugin_child *c, const struct child_look *asked, struct child_look *last,
                          size_t ncalls, double now);

/* Finds and opens the files to load, in order, into h->v (plugin_discover.c).
 * -1 when taskview must stop: a --plugin file is refused. */
int plugin_discover(struct plugin_host *h, const struct plugin_host_opts *o);

/* --- loading into the helper (plugin_load.c) --- */

enum load_result {
	LOAD_OK,
	LOAD_REFUSED, /* the helper (or our check of its answer) refused it; the helper lives on */
	LOAD_BROKE,   /* it crashed, hung, wrote output or garbage: the helper is gone */
};

/* What a plugin declared, as loaded, and its columns as checked here. */
struct loaded_decl {
	struct plugin_decl decl;
	struct plugin_colinfo *cols;
};

/*
 * Loads plugin index (its file is cfd in the helper) and checks the answer
 * into *out (free it with plugin_loaded_free); "stage: detail" in why when
 * not LOAD_OK. On LOAD_BROKE the helper has been killed and freed.
 */
enum load_result plugin_child_load(struct plugin_host *h, uint32_t index, int cfd, const char *path,
                                   struct loaded_decl *out, char *why, size_t whylen);
void plugin_loaded_free(struct loaded_decl *l);
/* Tells the helper to free and unload plugin index. */
void plugin_send_drop(struct plugin_host *h, uint32_t index);
/*
 * Starts a helper and loads every plugin not disabled into it, in order; a
 * plugin that fails now is disabled. Returns 0, or -1 when no helper could be
 * started (every plugin is then disabled, with a message).
 */
int plugin_host_restart(struct plugin_host *h);
/* Ends the helper: asks it to quit (waiting up to grace seconds) or kills it. */
void plugin_host_stop_child(struct plugin_host *h, double grace);

/*
 * What a plugin wrote, as one line for a message: the first non-empty line,
 * escaped, ASCII, cut, with " ..." when there was more. NULL when empty.
 */
char *plugin_output_line(const char *s, size_t len, bool cut);
/* Reads the output that ends an answer of the helper, as one line (NULL when
 * empty) into *line. -1 when malformed. */
int plugin_answer_output(struct wire_reader *r, char **line);
/* The output the helper left unread (it died or hangs), as one line; NULL if none. */
char *plugin_child_leftover(struct plugin_child *c);

/* --- the helper process (plugin_child.c) --- */

/* Starts the helper with fds[i] as its fd child_fds[i]. NULL with why on failure. */
/* Makes taskview's process not dumpable, out of the helper's reach (plugin_confine.c). */
void plugin_confine_host(void);
/* In the helper, before any plugin: no_new_privs, every capability given up
 * (effective, permitted, inheritable, ambient, and the bounding set where
 * allowed). Returns 0, or -1 with why when a capability is still held. */
int plugin_confine_helper(char *why, size_t whylen);

struct plugin_child *plugin_child_start(const int *fds, size_t n, int *child_fds, char *why, size_t whylen);
/* Sends b whole before the deadline. -1 when the helper is gone or stuck. */
int plugin_child_send(struct plugin_child *c, const struct buf *b, double deadline);

enum child_wait {
	CHILD_FRAME,       /* a whole frame at the start of rx */
	CHILD_TIMEOUT,     /* the deadline passed */
	CHILD_DIED,        /* the helper closed the socket or ended; reaped */
	CHILD_BAD,         /* an impossible frame header */
	CHILD_INTERRUPTED, /* interrupted() returned true */
};
/*
 * Waits for the next frame until deadline, capturing the helper's output
 * meanwhile. interrupted (may be NULL) is asked when a signal arrives and
 * every 50 ms once the wait has lasted 200 ms. On CHILD_FRAME, *type and *r
 * describe it; plugin_child_consume drops it after use.
 */
enum child_wait plugin_child_wait(struct plugin_child *c, double deadline, bool (*interrupted)(void *ctx),
                                  void *ictx, uint32_t *type, struct wire_reader *r);
void plugin_child_consume(struct plugin_child *c);
/* Kills the helper and reaps it (no-op once reaped). */
void plugin_child_kill(struct plugin_child *c);
/* Waits up to grace seconds for the helper to end by itself, then kills it. */
void plugin_child_reap(struct plugin_child *c, double grace);
/* Whether it still runs (reaps it when not). */
bool plugin_child_alive(struct plugin_child *c);
/* Where the helper stands at now: its CPU time, its threads' waits for a CPU so far (the first
 * CHILD_LOOK_THREADS), and whether its main thread is runnable (on a CPU or waiting for one). */
void plugin_child_look(const struct plugin_child *c, double now, struct child_look *out);
/* The longest wait for a CPU of one thread between two looks (a thread new since last: all of its). */
int64_t plugin_child_waited(const struct child_look *last, const struct child_look *now);
/* "killed by signal 11 (Segmentation fault)", "exit status 3". */
void plugin_child_status(const struct plugin_child *c, char *buf, size_t len);
void plugin_child_free(struct plugin_child *c);

/* --- both sides --- */

/* Clears the values of slots [0, n) of one task's plugin values. */
void plugin_values_clear(struct tv_pvalue *pv, size_t n);

/*
 * Checks a declaration (name, description, columns as copied) and makes the
 * column infos: the helper checks what a plugin returned, taskview checks
 * again what the helper sent. 0, or -1 with "stage: detail" in why.
 */
int plugin_check_declaration(const char *name, const char *desc, const struct taskview_column *cols, uint32_t n,
                             struct plugin_colinfo **out, char *why, size_t whylen);
void plugin_colinfo_free(struct plugin_colinfo *cols, uint32_t n);

/*
 * Ownership and permission rules for code taskview runs. Both return NULL
 * when the file or directory may be used, else a reason ("… is world-writable").
 * why is the buffer the reason is written into.
 */
const char *plugin_trust_file(int fd, const char *path, char *why, size_t whylen);
const char *plugin_trust_dir(const char *path, bool user_dir, char *why, size_t whylen);
/* With elevated privileges (AT_SECURE): only the built-in system directory. */
bool plugin_secure(void);

/* --- the helper side --- */

/* The function table handed to every plugin. */
const struct taskview_host *plugin_api_host(void);

/*
 * Copies the descriptor RAW into *d (zero-filled beyond what its minor
 * declares) and checks it and its columns. On success stores the copied
 * columns in *rawcols and the checked ones in *cols and returns 0; otherwise
 * returns -1 with "stage: detail" in why.
 */
int plugin_validate(const struct taskview_plugin *raw, struct taskview_plugin *d, struct taskview_column **rawcols,
                    struct plugin_colinfo **cols, char *why, size_t whylen);
/*
 * Copy what a plugin built for ABI 1.minor declares of its descriptor (of one
 * column), at most struct_size (column_size) bytes; every other byte of the copy
 * is zero. Padding and bytes past the last field of that minor are never read.
 */
void plugin_descriptor_copy(struct taskview_plugin *d, const void *raw, uint32_t struct_size, uint16_t minor);
void plugin_column_copy(struct taskview_column *c, const void *raw, uint32_t column_size, uint16_t minor);

/* --- WIRE_LOADED: what a plugin declares, as the helper sends it --- */

/* Appends a checked declaration (after the index). */
void plugin_decl_put(struct buf *b, const struct taskview_plugin *d, const struct taskview_column *cols);
/* Reads one; -1 (r->bad) when malformed. Free with plugin_decl_free either way. */
int plugin_decl_get(struct wire_reader *r, struct plugin_decl *out);
void plugin_decl_free(struct plugin_decl *d);

#endif
