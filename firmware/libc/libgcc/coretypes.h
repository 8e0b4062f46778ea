// SPDX-License-Identifier: GPL-2.0-or-later
/* coretypes.h - stand-in for GCC's gcc/coretypes.h when compiling
 * libgcc2.c (see tconfig.h).  With IN_LIBGCC2 GCC's own header defines
 * nothing libgcc2.c uses: empty. */
