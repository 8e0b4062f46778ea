/* SPDX-License-Identifier: GPL-2.0-or-later */ /* newlib.h - nocprof's configuration of newlib (the header newlib's own
 * configure script would generate).  The newlib sources themselves come from
 * Debian's newlib-source package at build time (cmake/NocprofLibc.cmake);
 * this file only states which options they are compiled with.
 */
#ifndef __NEWLIB_H__
#define __NEWLIB_H__ 1

#include <_newlib_version.h>

/* printf/scanf: C99 formats (%hhd, %zu, %a ...) and long long (%lld). */
#define _WANT_IO_C99_FORMATS 1
#define _WANT_IO_LONG_LONG 1

/* o32: long double is double. */
#define _HAVE_LONG_DOUBLE 1
#define _LDBL_EQ_DBL 1

/* single-byte "C" locale only, no multibyte conversions */
#define _MB_LEN_MAX 1

#endif /* __NEWLIB_H__ */
