/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What both BPF programs start with: the types libbpf's headers use (the
 * target's own headers are not needed, nor installed for it), and those
 * headers.
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

#endif
