/* SPDX-License-Identifier: GPL-2.0-or-later */ /* np_libc.h - internal interface between the C library glue files. */
#ifndef NP_LIBC_H
#define NP_LIBC_H

#include <stddef.h>

#define NP_ABORT_STATUS 134     /* abort() and a failed assert() */

/* Writes n bytes to this core's console (SYS CONSOLE, one byte a word). */
void np_console_write(const char *s, size_t n);

#endif
