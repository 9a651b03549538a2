/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Frame headers and the tables of recorded fields. */
#include "record/format.h"

#include <stddef.h>
#include <string.h>

#include "model/task.h"
#include "record/bytes.h"
#include "record/crc32c.h"
#include "record/sample.h"

/*
 * Header: magic[4] type flags hlen:u16 len:u32 crc:u32 seq:u64 wall_ns:i64,
 * then CRC-32C of everything before it. A longer header (a later version)
 * keeps these fields and its checksum in its last four bytes.
 */
void rec_frame_pack(uint8_t *out, const struct rec_frame *f)
{
	memcpy(out, REC_MAGIC, 4);
	out[4] = f->type;
	out[5] = f->flags;
	out[6] = REC_HDR_LEN & 0xff;
	out[7] = REC_HDR_LEN >> 8;
	le32_to(out + 8, f->len);
	le32_to(out + 12, f->crc);
	le64_to(out + 16, f->seq);
	le64_to(out + 24, (uint64_t)f->wall_ns);
	le32_to(out + 32, crc32c(0, out, 32));
}

int rec_frame_unpack(const uint8_t *p, size_t n, struct rec_frame *f)
{
	if (n < REC_HDR_LEN || memcmp(p, REC_MAGIC, 4) != 0)
		return -1;
	unsigned hlen = (unsigned)p[6] | (unsigned)p[7] << 8;
	if (hlen < REC_HDR_LEN || hlen > REC_HDR_MAX || hlen > n)
		return -1;
	if (crc32c(0, p, hlen - 4) != le32_at(p + hlen - 4))
		return -1;
	f->type = p[4];
	f->flags = p[5];
	f->hlen = (uint16_t)hlen;
	f->len = le32_at(p + 8);
	f->crc = le32_at(p + 12);
	f->seq = le64_at(p + 16);
	f->wall_ns = (int64_t)le64_at(p + 24);
	return f->len <= REC_PAYLOAD_MAX ? 0 : -1;
}

#define MEMBER(type, member, base, first) offsetof(type, member), base, first, sizeof(((type *)0)->member)
#define T(name, kind, ctype, member) {name, kind, ctype, MEMBER(struct tv_task, member, NULL, false)}
/* memory: a member of the task's struct tv_mem */
#define M(name, member) {name, REC_K_INT, REC_C_MEM, MEMBER(struct tv_mem, member, NULL, false)}
#define D(cls, member) \
	T("delay." cls ".count", REC_K_INT, REC_C_I64, member.count), \
	T("delay." cls ".total_ns", REC_K_INT, REC_C_I64, member.total_ns)

/* In the order they are written: a time's base comes before it. */
static const struct rec_field task_fields[] = {
	T("tgid", REC_K_INT, REC_C_I32, tgid),
	T("ppid", REC_K_INT, REC_C_I32, ppid),
	T("nice", REC_K_INT, REC_C_I32U, nice),
	T("prio", REC_K_INT, REC_C_I32U, prio),
	T("partial", REC_K_INT, REC_C_U32, partial),
	T("state", REC_K_INT, REC_C_CHAR, state),
	T("is_thread", REC_K_INT, REC_C_BOOL, is_thread),
	T("details_read", REC_K_INT, REC_C_BOOL, details_read),
	T("cpu_fine", REC_K_INT, REC_C_BOOL, cpu_fine),
	T("threads_complete", REC_K_INT, REC_C_BOOL, threads_complete),
	T("threads_are_rows", REC_K_INT, REC_C_BOOL, threads_are_rows),
	T("live_sums", REC_K_INT, REC_C_BOOL, live_sums),
	T("start_ticks", REC_K_INT, REC_C_START, start_ticks),
	T("uid", REC_K_INT, REC_C_I64, uid),
	T("user", REC_K_STR, REC_C_INTERN, user),
	T("cpu_ns", REC_K_INT, REC_C_I64, cpu_ns),
	T("nthreads", REC_K_INT, REC_C_I64, nthreads),
	M("vm_size", size),
	M("vm_rss", rss),
	M("vm_pte", pte),
	M("vm_swap", swap),
	M("vm_stk", stk),
	M("vm_hwm", hwm),
	T("ctxt_vol", REC_K_INT, REC_C_I64, ctxt_vol),
	T("ctxt_invol", REC_K_INT, REC_C_I64, ctxt_invol),
	D("cpu", delay[TV_DELAY_CPU]),
	D("io", delay[TV_DELAY_IO]),
	D("swapin", delay[TV_DELAY_SWAPIN]),
	D("reclaim", delay[TV_DELAY_RECLAIM]),
	D("thrashing", delay[TV_DELAY_THRASHING]),
	D("compact", delay[TV_DELAY_COMPACT]),
	D("wpcopy", delay[TV_DELAY_WPCOPY]),
	D("irq", delay[TV_DELAY_IRQ]),
	/* the stat read of the next task follows this one's closely, and so do
	 * taskstats replies (several share a time); a thread's files are read
	 * at once; a reply carries switches and delays together */
	T("t_cpu", REC_K_TIME, REC_C_TIME, t_cpu),
	{"t_ctxt", REC_K_TIME, REC_C_TIME, MEMBER(struct tv_task, t_ctxt, "t_cpu", false)},
	{"t_delay", REC_K_TIME, REC_C_TIME, MEMBER(struct tv_task, t_delay, "t_ctxt", true)},
	T("comm", REC_K_STR, REC_C_COMM, comm_short),
	T("cmdline", REC_K_STR, REC_C_CSTR, cmdline),
	/* how many thread and exited-thread records follow a process's */
	T("threads", REC_K_INT, REC_C_U32, nthreads_read),
	T("exited", REC_K_INT, REC_C_U32, nexited),
	/* added after 0.1.0: the process's control group, by its path in the
	 * sample's group table */
	T("cgroup", REC_K_STR, REC_C_CGROUP, cgroup),
	/* added after 0.1.0: a kernel thread (K hides them) */
	T("kthread", REC_K_INT, REC_C_BOOL, kthread),
	/* added after 0.1.0: stack reserved and resident, KiB (NEED_STACK): a
	 * thread's own, a process's sum over its threads */
	{"stack_size", REC_K_INT, REC_C_STACK, MEMBER(struct tv_mem, stack_size, NULL, false)},
	{"stack_rss", REC_K_INT, REC_C_STACK, MEMBER(struct tv_mem, stack_rss, NULL, false)},
	/* added after 0.1.0: what the resident memory is made of */
	M("rss_anon", rss_anon),
	M("rss_file", rss_file),
	M("rss_shmem", rss_shmem),
	/* added after 0.1.0: a process's I/O counters (NEED_IO), read right after its stat */
	M("io.read_bytes", io_read),
	M("io.write_bytes", io_write),
	{"t_io", REC_K_TIME, REC_C_MEM_TIME, MEMBER(struct tv_mem, t_io, "t_cpu", false)},
};

#define S(name, kind, ctype, member) {name, kind, ctype, MEMBER(struct rec_sample, member, NULL, false)}

/* A resource's pressure: each half's total (µs; unknown when the half is)
 * and 10 s average (percent). */
#define PSI(X, res, member) \
	X(res ".some.total_us", REC_K_INT, REC_C_PSI_SOME_US, member), \
	X(res ".some.avg10", REC_K_DBL, REC_C_PSI_SOME_AVG, member), \
	X(res ".full.total_us", REC_K_INT, REC_C_PSI_FULL_US, member), \
	X(res ".full.avg10", REC_K_DBL, REC_C_PSI_FULL_AVG, member)

static const struct rec_field sample_fields[] = {
	S("mono", REC_K_TIME, REC_C_TIME, s.mono),
	S("wall", REC_K_TIME, REC_C_TIME, s.wall),
	S("boot_offset", REC_K_DBL, REC_C_DBL, s.boot_offset),
	S("boot_ticks", REC_K_DBL, REC_C_DBL, s.boot_ticks),
	S("hz", REC_K_DBL, REC_C_DBL, s.hz),
	S("sys_procs", REC_K_INT, REC_C_SIZE, s.sys_procs),
	S("sys_threads", REC_K_INT, REC_C_COUNT, s.sys_threads),
	S("sys_running", REC_K_INT, REC_C_COUNT, s.sys_running),
	S("exits_seen", REC_K_INT, REC_C_SIZE, s.nexits_seen),
	S("exits_lost", REC_K_INT, REC_C_U64, s.exits_lost),
	S("exits_watched", REC_K_INT, REC_C_BOOL, s.exits_watched),
	S("exits_why", REC_K_STR, REC_C_INTERN, s.exits_why),
	S("self.cpu_ms", REC_K_DBL, REC_C_DBL, s.self.cpu_ms),
	S("self.rss_kib", REC_K_INT, REC_C_I64, s.self.rss_kib),
	S("self.opens", REC_K_INT, REC_C_U64, s.self.opens),
	S("self.reads", REC_K_INT, REC_C_U64, s.self.reads),
	S("self.queries", REC_K_INT, REC_C_U64, s.self.queries),
	S("self.kept_fds", REC_K_INT, REC_C_SIZE, s.self.kept_fds),
	S("delayacct.state", REC_K_STR, REC_C_INTERN, delay_state),
	S("delayacct.message", REC_K_STR, REC_C_INTERN, delay_message),
	/* how many process records follow, then how many ended processes */
	S("procs", REC_K_INT, REC_C_SIZE, s.nprocs),
	S("gone", REC_K_INT, REC_C_SIZE, s.ngone),
	/* added after 0.1.0 */
	S("self.cgroup_opens", REC_K_INT, REC_C_U64, s.self.cgroup_opens),
	S("self.cgroup_reads", REC_K_INT, REC_C_U64, s.self.cgroup_reads),
	S("needs", REC_K_INT, REC_C_U32, s.needs),
	S("cgroups.why", REC_K_STR, REC_C_INTERN, s.cgroups_why),
	/* the system's pressure: read right after the sample began */
	{"t_pressure", REC_K_TIME, REC_C_TIME, MEMBER(struct rec_sample, s.t_pressure, "mono", true)},
	PSI(S, "pressure.cpu", s.pressure[TV_RES_CPU]),
	PSI(S, "pressure.io", s.pressure[TV_RES_IO]),
	PSI(S, "pressure.memory", s.pressure[TV_RES_MEMORY]),
	S("pressure.why", REC_K_STR, REC_C_INTERN, s.pressure_why),
	/* the group table (rec_cgroup_fields), written against the previous sample's */
	S("cgroups", REC_K_STR, REC_C_BLOB, cgroups_raw),
	S("cpus_online", REC_K_INT, REC_C_SIZE, s.ncpus),
	S("cpu_clock", REC_K_INT, REC_C_BOOL, s.cpu_clock),
	S("self.reader", REC_K_INT, REC_C_U32, s.self.reader),
	S("self.reader_why", REC_K_STR, REC_C_INTERN, s.self.reader_why),
	/* added after 0.1.0: where exit records came from ("bpf", "netlink") */
	S("exits_source", REC_K_STR, REC_C_INTERN, s.exits_source),
	/* added after 0.1.0: the machine (struct tv_machine): its load in every
	 * sample, its CPU time and memory in a stream (sample_opts.machine) */
	S("load.1", REC_K_DBL, REC_C_DBL, s.machine.load[0]),
	S("load.5", REC_K_DBL, REC_C_DBL, s.machine.load[1]),
	S("load.15", REC_K_DBL, REC_C_DBL, s.machine.load[2]),
	{"t_cpu_busy", REC_K_TIME, REC_C_TIME, MEMBER(struct rec_sample, s.machine.t_busy, "mono", true)},
	S("cpu_busy_us", REC_K_INT, REC_C_I64, s.machine.busy_us),
	S("memory.total_kib", REC_K_INT, REC_C_I64, s.machine.mem_total),
	S("memory.available_kib", REC_K_INT, REC_C_I64, s.machine.mem_available),
	S("swap.total_kib", REC_K_INT, REC_C_I64, s.machine.swap_total),
	S("swap.free_kib", REC_K_INT, REC_C_I64, s.machine.swap_free),
};
/* self.reader is kept as a uint32_t */
_Static_assert(sizeof(enum tv_reader) == sizeof(uint32_t), "enum tv_reader is not 32 bits");

#define G(name, kind, ctype, member) {name, kind, ctype, MEMBER(struct rec_cgroup, member, NULL, false)}

static const struct rec_field cgroup_fields[] = {
	G("path", REC_K_STR, REC_C_CSTR, g.path),
	G("unit", REC_K_STR, REC_C_CSTR, g.unit),
	G("parent", REC_K_INT, REC_C_I64, parent),
	G("memory.current", REC_K_INT, REC_C_I64, g.mem_bytes),
	G("memory.swap.current", REC_K_INT, REC_C_I64, g.swap_bytes),
	G("memory.why", REC_K_STR, REC_C_INTERN, g.mem_why),
	/* one group's pressure files are read right after the one before's */
	G("t_read", REC_K_TIME, REC_C_TIME, g.t_read),
	PSI(G, "cpu", g.psi[TV_RES_CPU]),
	PSI(G, "io", g.psi[TV_RES_IO]),
	PSI(G, "memory", g.psi[TV_RES_MEMORY]),
	G("pressure.why", REC_K_STR, REC_C_INTERN, g.psi_why),
	/* added later: a reader before skips them, and a file before has none */
	G("t_cpu", REC_K_TIME, REC_C_TIME, g.t_cpu),
	G("cpu.usage_usec", REC_K_INT, REC_C_I64, g.cpu_usage_us),
	G("cpu.user_usec", REC_K_INT, REC_C_I64, g.cpu_user_us),
	G("cpu.system_usec", REC_K_INT, REC_C_I64, g.cpu_system_us),
};

const struct rec_field *rec_sample_fields(size_t *n)
{
	*n = sizeof(sample_fields) / sizeof(sample_fields[0]);
	return sample_fields;
}

const struct rec_field *rec_cgroup_fields(size_t *n)
{
	*n = sizeof(cgroup_fields) / sizeof(cgroup_fields[0]);
	return cgroup_fields;
}

const struct rec_field *rec_task_fields(size_t *n)
{
	*n = sizeof(task_fields) / sizeof(task_fields[0]);
	return task_fields;
}
