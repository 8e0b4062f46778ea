// SPDX-License-Identifier: GPL-2.0-or-later
/* libgcc_tm.h - stand-in for the header libgcc's configure generates from
 * libgcc_tm_file; MIPS lists none: empty (see tconfig.h). */
