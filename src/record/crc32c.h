/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CRC-32C of a byte range: the checksum of recording frames. */
#ifndef TV_RECORD_CRC32C_H
#define TV_RECORD_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* Continues crc (0 to start) over data. crc32c(0, "123456789", 9) == 0xe3069283. */
uint32_t crc32c(uint32_t crc, const void *data, size_t len);

#endif
