/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * checksum.h - CRC-32 and Adler-32 helpers shared by the firmware apps.
 * All results are byte-order independent (see checksum.c).
 */
#ifndef NOCPROF_APPS_CHECKSUM_H
#define NOCPROF_APPS_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* Largest block crc32_words converts at once (it loops over longer ones). */
#define CHECKSUM_MAX_WORDS 64u

/* gzip's updcrc: continue the CRC over n bytes; s == NULL resets. */
uint32_t updcrc(const uint8_t *s, unsigned n);
/* bytes[4i + k] = (w[i] >> 8k) & 0xff */
void words_to_bytes(const uint32_t *w, unsigned nwords, uint8_t *bytes);
/* CRC-32 of the bytes of w (via updcrc). */
uint32_t crc32_words(const uint32_t *w, unsigned nwords);
/* Bit-at-a-time references, independent of the table. */
uint32_t crc32_bitwise(const uint8_t *s, unsigned n);
uint32_t crc32_words_bitwise(const uint32_t *w, unsigned nwords);
/* Adler-32 (RFC 1950): start from 1. */
uint32_t adler32_update(uint32_t adler, const uint8_t *s, unsigned n);
uint32_t adler32_words(const uint32_t *w, unsigned nwords);

#endif
