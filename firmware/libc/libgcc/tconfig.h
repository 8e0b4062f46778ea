// SPDX-License-Identifier: GPL-2.0-or-later
/* tconfig.h - nocprof's stand-in for the header GCC's build generates for
 * libgcc (cmake/NocprofLibgcc.cmake compiles libgcc/libgcc2.c of Debian's
 * gcc-12-source with -I this directory).  Nothing of the target's host
 * configuration is needed by the functions we build: empty. */
