// SPDX-License-Identifier: GPL-2.0-or-later
/* base/bytes.h — 32-bit words in the guest's byte order.
 *
 * The one place that turns guest bytes into host words and back (ELF
 * loading, block translation, gmon.out writing).
 */
#ifndef NOCPROF_BASE_BYTES_H
#define NOCPROF_BASE_BYTES_H

#include <stdbool.h>
#include <stdint.h>

static inline uint32_t bytes_get32(const uint8_t *p, bool big_endian)
{
    return big_endian
        ? ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3])
        : ((uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]);
}

static inline void bytes_put32(uint8_t *p, uint32_t w, bool big_endian)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(big_endian ? w >> (24 - 8 * i) : w >> (8 * i));
}

static inline void bytes_put16(uint8_t *p, uint16_t w, bool big_endian)
{
    p[big_endian ? 0 : 1] = (uint8_t)(w >> 8);
    p[big_endian ? 1 : 0] = (uint8_t)w;
}

#endif
