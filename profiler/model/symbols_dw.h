// SPDX-License-Identifier: GPL-2.0-or-later
/* symbols_dw.h — libdw helpers shared by the DWARF readers of
 * profiler/model (symbols_inline.c, symbols_locals.c). */
#pragma once

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

/* The unit whose ranges hold addr. libdw 0.188's dwarf_addrdie needs
 * .debug_aranges, which the SDK's link.ld drops (gdb misreads it on
 * MIPS); without it, the units are searched one by one. */
bool symbols_dw_unit_at(Dwarf *dw, uint32_t addr, Dwarf_Die *cu);
