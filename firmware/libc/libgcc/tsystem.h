// SPDX-License-Identifier: GPL-2.0-or-later
/* tsystem.h - stand-in for GCC's gcc/tsystem.h when compiling libgcc2.c
 * (see tconfig.h): the freestanding headers the helpers use, and abort()
 * (the trapping -ftrapv helpers __addvsi3 ... call it; the firmware C
 * library's abort ends the core with 134). */
#ifndef NP_LIBGCC_TSYSTEM_H
#define NP_LIBGCC_TSYSTEM_H
#include <stddef.h>
#include <float.h>
extern void abort(void) __attribute__((__noreturn__));
#endif
