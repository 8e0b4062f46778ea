// SPDX-License-Identifier: GPL-2.0-or-later
/* tm.h - the one target macro libgcc2.c takes from GCC's target headers
 * for MIPS o32 (gcc/config/mips/mips.h): the smallest word is 4 bytes, so
 * libgcc2.c builds the DImode (64-bit) helpers from 32-bit words.  The
 * machine modes and float formats come from the compiler itself
 * (-fbuilding-libgcc predefines the __LIBGCC_* macros). */
#define MIN_UNITS_PER_WORD 4
