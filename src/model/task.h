/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The task model: one process or one thread as read in one refresh. */
#ifndef TV_MODEL_TASK_H
#define TV_MODEL_TASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Unknown integer value (no permission, field absent, not read). Shown as "-" / null. */
#define TV_UNKNOWN INT64_MIN
#define TV_COMM_MAX 68 /* kernel threads may carry up to 64 bytes of name */
#define TV_UNKNOWN32 INT32_MIN /* unknown nice or priority */

enum tv_delay_class {
	TV_DELAY_CPU,
	TV_DELAY_IO,
	TV_DELAY_SWAPIN,
	TV_DELAY_RECLAIM,
	TV_DELAY_THRASHING,
	TV_DELAY_COMPACT,
	TV_DELAY_WPCOPY,
	TV_DELAY_IRQ,
	TV_DELAY_NCLASS
};

/*
 * Values known to miss part of their contribution (a lower bound, never passed
 * off as exact): one bit each in tv_task.partial. A delay bit covers both the
 * class's interval percentage and its average.
 */
enum tv_part {
	TV_PART_CPU,              /* cpu%: an exited thread's CPU time in the interval is missing */
	TV_PART_CTXT_VOL,         /* switch totals: exited threads' switches are missing */
	TV_PART_CTXT_INVOL,
	TV_PART_CTXT_VOL_RATE,    /* switch rates: a thread exited inside the interval */
	TV_PART_CTXT_INVOL_RATE,
	TV_PART_DELAY,            /* + enum tv_delay_class */
	/* stack sizes: a sum over the threads whose stack was found, some were not */
	TV_PART_STACK = TV_PART_DELAY + TV_DELAY_NCLASS,
	TV_PART_IO,               /* I/O rates of a group or subtree: a member's unknown, or one ended */
	TV_PART_NBITS
};
#define TV_PART_BIT(p) (1u << (p))

/* Cumulative delay counters of one class; every field may be TV_UNKNOWN. */
struct tv_delay {
	int64_t count;
	int64_t total_ns;
};

/* The longest and shortest single delay of each class since the task
 * started: kept only where asked for (the detail panel), the kernel keeps
 * them per thread only. */
struct tv_peaks {
	int64_t max_ns[TV_DELAY_NCLASS];
	int64_t min_ns[TV_DELAY_NCLASS];
};

/* A plugin column's value for one task: raw as reported, rate derived by delta. */
struct tv_pvalue {
	bool known;
	int64_t i;   /* integer, bytes, counter */
	double f;    /* float, percent, or derived rate */
	char *s;     /* string values, owned */
};

/* One thread's stack, KiB: the size of its mapping and what is resident in it. */
struct tv_stack {
	int32_t tid;
	int64_t size, rss;
};

/* Memory of one address space, KiB, and its process's I/O; each TV_UNKNOWN when unknown. */
struct tv_mem {
	int64_t size, rss, pte, swap, stk, hwm; /* VmSize, VmRSS, VmPTE, VmSwap, VmStk, VmHWM */
	int64_t rss_anon, rss_file, rss_shmem;  /* RssAnon, RssFile, RssShmem: what VmRSS is made of */
	/* The process's bytes fetched from storage and sent towards it
	 * (read_bytes, write_bytes of /proc/PID/io: every thread, dead ones
	 * included, and children it waited for), read at t_io (0: not read);
	 * their rates a second (model/delta.c; NAN when unknown). Here, not on
	 * every task: only process rows have them. */
	int64_t io_read, io_write;
	double t_io;
	float io_read_rate, io_write_rate;
	/* Thread stacks (NEED_STACK): sums over the threads, and each thread's,
	 * sorted by tid. Here rather than on every task, which would cost each
	 * thread row 16 bytes when the columns are not shown. stacks is owned
	 * by the block and not copied with it (task_mem_mut). */
	int64_t stack_size, stack_rss;
	struct tv_stack *stacks;
	size_t nstacks;
};

/* Why a task's stack is unknown (tv_task.stack_why): for the detail panel. */
enum tv_stack_why {
	TV_STACK_OK,
	TV_STACK_DENIED,   /* task/TID/syscall, maps or pagemap need ptrace permission */
	TV_STACK_RUNNING,  /* the thread was running at each read: no stack pointer yet */
	TV_STACK_NOTFOUND, /* no mapping holds its stack pointer (gone meanwhile) */
	TV_STACK_KERNEL,   /* a kernel thread has no user stack */
	TV_STACK_ELSEWHERE, /* its stack pointer is in the heap or a file mapping: a stack the program made */
	TV_STACK_LATE,     /* not read within the refresh's time for stacks (sample_opts.stacks_budget) */
};

/* A start time that was not read. */
#define TV_START_UNKNOWN UINT64_MAX

/* task/TID/comm holds at most 15 bytes and a NUL (TASK_COMM_LEN). */
#define TV_TNAME_MAX 16

/* The name of one thread of a folded process (sample_opts.thread_names). */
struct tv_tname {
	int32_t tid;
	char name[TV_TNAME_MAX]; /* raw kernel bytes, NUL-terminated */
};

/*
 * Ownership: a task owns what its pointers name (threads, exited, tnames,
 * pvals and their strings, cmdline, peaks, comm_long; mem when mem_own),
 * and task_release frees them; a task in a snapshot is the snapshot's, so
 * they live until snapshot_free. A copy of a task (struct assignment: the
 * tree's sums, the replay's shown tasks) borrows them: it is never
 * released, and nothing frees or replaces a pointer through it.
 *
 * Laid out for size: a snapshot holds one per thread, and two snapshots are
 * held (the one shown, the one being read), so every byte here counts twice
 * per thread on the machine.
 */
/*
 * The hosts' screen shows the tasks of several hosts in one table: their IDs
 * (tid, tgid, ppid) carry the host's number above the bits a PID can take
 * (PID_MAX_LIMIT is 2^22), so that each task keeps an ID of its own. Here
 * the number is 0 and an ID is the PID.
 */
#define TV_ID_HOST_SHIFT 22
#define TV_ID_PID_MASK ((1 << TV_ID_HOST_SHIFT) - 1)
#define TV_ID_HOSTS_MAX (1 << (31 - TV_ID_HOST_SHIFT))
static inline int32_t task_id_on(int32_t pid, unsigned host)
{
	return pid <= 0 ? pid : (int32_t)((uint32_t)host << TV_ID_HOST_SHIFT | (uint32_t)pid);
}
/* The number of the host an ID is of (0 here). */
static inline unsigned task_id_host(int32_t id)
{
	return id <= 0 ? 0 : (unsigned)id >> TV_ID_HOST_SHIFT;
}
/* The PID an ID stands for, on its host. */
static inline int32_t task_id_pid(int32_t id)
{
	return id <= 0 ? id : id & TV_ID_PID_MASK;
}

struct tv_task {
	int32_t tid;     /* == tgid on process rows */
	int32_t tgid;
	int32_t ppid;
	int32_t nice;    /* TV_UNKNOWN32 when unknown */
	int32_t prio;
	uint32_t partial;       /* TV_PART_BIT(enum tv_part): lower bounds */
	/* process rows only: sizes of threads[] and exited[] below */
	uint32_t nthreads_read, nexited;
	/* process rows only: threads that ended since the previous refresh without an
	 * entry in exited[] (no row, sum or recording lists them: counted only) */
	uint32_t nexited_unlisted;
	char state;      /* '?' when unknown */
	bool is_thread;
	bool details_read;   /* state, nice, priority read (thread rows: only for the rows shown) */
	bool cpu_fine;       /* cpu_ns counts nanoseconds (schedstat, taskstats), not clock ticks */
	/* process rows only */
	bool threads_complete; /* threads[] lists every thread of the group */
	bool threads_are_rows; /* shown as rows (not only read for the process's sums) */
	bool threads_bpf;      /* threads[] read by the BPF task iterator: no taskstats query needed */
	bool live_sums;        /* ctxt_* and the CPU wait are sums over live threads, not group counters */
	/* PF_KTHREAD in the flags field of stat: a kernel thread (the TUI hides
	 * them unless asked); process rows only */
	bool kthread;
	/* a control group's row in the group view (view/groups.c): cgroup is
	 * the group; CPU, switches, delays and threads sum its processes,
	 * vm_rss and vm_swap are the group's own memory.current and
	 * memory.swap.current; IDs are 0 and every other field is unknown */
	bool is_group;
	bool mem_own;    /* mem is this task's to free (a thread row borrows its process's) */
	uint8_t stack_why; /* enum tv_stack_why: process rows, of the first thread not known */

	uint64_t start_ticks; /* clock ticks after boot; with tid, the identity of a task across refreshes */
	int64_t uid;
	const char *user;    /* interned by the sampler's user cache; NULL when unknown */
	const struct tv_cgroup *cgroup; /* in its snapshot's cgroups; NULL when not read */
	int64_t cpu_ns;      /* CPU time (user + system); process rows: whole thread group, dead threads included */
	int64_t nthreads;

	/* per address space, so a process row's block, which its thread rows
	 * point to; NULL when unknown (kernel threads, not read): read it
	 * with task_mem(), write it with task_mem_mut() */
	struct tv_mem *mem;

	int64_t ctxt_vol, ctxt_invol; /* process rows: sum over the thread group */

	struct tv_delay delay[TV_DELAY_NCLASS];
	struct tv_peaks *peaks;  /* NULL unless asked for */

	/*
	 * When each group of counters was read (CLOCK_MONOTONIC seconds; 0 when
	 * not read): a rate is the counter's change over the time between its
	 * own two reads, not between the starts of two refreshes.
	 */
	double t_cpu, t_ctxt, t_delay;

	char *cmdline;          /* raw bytes, arguments joined by spaces; NULL when not read/empty */

	/* derived over the interval (model/delta.c); NAN when unknown */
	double cpu_pct;
	double ctxt_vol_rate, ctxt_invol_rate;
	float delay_pct[TV_DELAY_NCLASS];   /* float: shown to a tenth, and there are many threads */
	float delay_avg_ms[TV_DELAY_NCLASS];

	/* plugin column values, indexed by plugin slot; NULL when no plugin columns */
	struct tv_pvalue *pvals;

	/* process rows only: threads read this refresh (all of them, or none) */
	struct tv_task *threads;
	/* process rows only: threads gone since the previous refresh, with their
	 * final counters where the kernel's exit record gave them (else unknown);
	 * NULL with nexited > 0 in a recorder's base (rec_decode_base) */
	struct tv_task *exited;
	/* process rows with threads_are_rows false: the name of every thread,
	 * read only when sample_opts.thread_names asks (a text filter or a search
	 * then matches the threads of folded processes), ended by an entry of TID
	 * 0; NULL otherwise */
	struct tv_tname *tnames;

	/* The name, raw kernel bytes: read it with task_comm(), set it with
	 * task_set_comm(). A thread's name fits in line (TASK_COMM_LEN); only
	 * longer ones (kernel workers with their queue, a group's unit) take
	 * comm_long, owned like cmdline. */
	char *comm_long;
	char comm_short[TV_TNAME_MAX];
};

extern const struct tv_mem tv_mem_unknown;

/* The task's memory (never NULL: every value unknown when not read). */
static inline const struct tv_mem *task_mem(const struct tv_task *t)
{
	return t->mem ? t->mem : &tv_mem_unknown;
}

/* KiB of the task's stack mapping and resident in it: a thread row's own,
 * a process row's sum over its threads; TV_UNKNOWN when not read. */
int64_t task_stack_size(const struct tv_task *t);
int64_t task_stack_rss(const struct tv_task *t);

/* The task's own memory block to write, made (as a copy of what it showed)
 * when it had none or borrowed one; NULL when out of memory. */
struct tv_mem *task_mem_mut(struct tv_task *t);

/* The task's name (never NULL). */
static inline const char *task_comm(const struct tv_task *t)
{
	return t->comm_long ? t->comm_long : t->comm_short;
}

/* Sets the name from the first n bytes of s (up to a NUL), cut to
 * TV_COMM_MAX - 1 bytes; a long name that finds no memory is cut to fit in line. */
void task_set_comm(struct tv_task *t, const char *s, size_t n);
/* Gives dst the name of src (a copy of a long one). */
void task_copy_comm(struct tv_task *dst, const struct tv_task *src);

void task_init(struct tv_task *t);
/* Frees what t owns, leaving t itself undefined (for a task that goes with its array). */
void task_release(struct tv_task *t, size_t npvals);
/* Frees t's exited threads; their number stays (as a recorder's base has it, with no list). */
void task_drop_exited(struct tv_task *t, size_t npvals);
/* Frees what t owns and makes it an empty task again. */
void task_clear(struct tv_task *t, size_t npvals);

#endif
