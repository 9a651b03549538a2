/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What both BPF programs start with: the types libbpf's headers use (the
 * target's own headers are not needed, nor installed for it), those headers,
 * and how both read a thread's delays.
 */
#ifndef TV_SAMPLE_BPF_BPF_PROG_H
#define TV_SAMPLE_BPF_BPF_PROG_H

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* One class of a thread's delays (struct task_delay_info *d: name##_delay and
 * name##_count, where this kernel keeps the class) into slot i of ns[] and
 * count[], and bit i of known. */
#define TV_THREAD_DELAY(ns, count, known, i, d, name)                         \
	do {                                                                  \
		if (bpf_core_field_exists(d->name##_delay) &&                 \
		    bpf_core_field_exists(d->name##_count)) {                 \
			(ns)[i] = d->name##_delay;                            \
			(count)[i] = d->name##_count;                         \
			(known) |= 1u << (i);                                 \
		}                                                             \
	} while (0)

#endif
