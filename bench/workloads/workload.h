// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * workload.h - what a bench workload may use, on the platform and natively.
 *
 * A workload provides int workload_main(unsigned core, unsigned ncores) and
 * uses only the runtime calls below.  On MIPS they come from the firmware
 * runtime (firmware/runtime/nocprof.h) and fw_main.c calls workload_main
 * from main; on the host, host_shim.c implements them on stdio and its main
 * runs workload_main once per simulated core:
 *     gcc -O2 -DITERATIONS=... cpu.c host_shim.c -o cpu-native
 */
#ifndef NOCPROF_WORKLOAD_H
#define NOCPROF_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __mips__
#include "nocprof.h"
#else
void rt_putc(char c);
void rt_puts(const char *s);
void rt_put_udec(uint32_t v);
void rt_put_hex(uint32_t v);
int rt_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
unsigned rt_core_id(void);
unsigned rt_num_cores(void);
void rt_exit(int code) __attribute__((noreturn));
#endif

/* Kept as one named function (no inlining, no .constprop/.isra clones). */
#define WORKLOAD_NOINLINE __attribute__((noinline, noclone))

int workload_main(unsigned core, unsigned ncores);

#endif
