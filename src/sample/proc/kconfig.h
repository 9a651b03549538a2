/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running kernel's build configuration, for what no other file tells. */
#ifndef TV_SAMPLE_KCONFIG_H
#define TV_SAMPLE_KCONFIG_H

#include <stddef.h>

enum kconfig_answer { KCONFIG_UNKNOWN, KCONFIG_NO, KCONFIG_YES };

/*
 * Looks sym ("CONFIG_IRQ_TIME_ACCOUNTING") up in the text of a kernel .config:
 * YES for "=y" or "=m", NO for "# ... is not set" or any other value, and NO
 * when a complete config (one that names CONFIG_LOCALVERSION or CONFIG_64BIT /
 * CONFIG_X86 lines) does not mention it; UNKNOWN for text that is not a config.
 */
enum kconfig_answer kconfig_lookup(const char *text, size_t len, const char *sym);

/*
 * Reads the running kernel's config from /proc/config.gz (when built with
 * zlib) or /boot/config-RELEASE and looks sym up. UNKNOWN when neither is readable.
 */
enum kconfig_answer kconfig_running(const char *sym);

#endif
