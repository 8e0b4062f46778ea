// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * host_shim.c - the runtime calls used by the portable workloads (cpu,
 * store), implemented on the host C library, for the native baseline.
 *
 *   gcc -O2 [-DITERATIONS=N] cpu.c host_shim.c -o cpu-native
 *   ./cpu-native [NCORES]      (default 4)
 *
 * main runs workload_main(k, NCORES) for k = 0 .. NCORES-1 one after the
 * other (the work of every emulated core, on one host thread) and exits
 * with the first non-zero result, or 0.  Console lines are prefixed with
 * "[coreK] " like the emulator's stdout.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "workload.h"

static unsigned shim_core, shim_ncores = 1;
static int at_line_start = 1;

void rt_putc(char c)
{
    if (at_line_start)
        printf("[core%u] ", shim_core);
    putchar(c);
    at_line_start = c == '\n';
}

void rt_puts(const char *s)
{
    while (*s)
        rt_putc(*s++);
}

void rt_put_udec(uint32_t v)
{
    rt_printf("%u", v);
}

void rt_put_hex(uint32_t v)
{
    rt_printf("%08x", v);
}

int rt_printf(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    rt_puts(buf);
    return n;
}

unsigned rt_core_id(void)
{
    return shim_core;
}

unsigned rt_num_cores(void)
{
    return shim_ncores;
}

void rt_exit(int code)
{
    fflush(stdout);
    exit(code);
}

int main(int argc, char **argv)
{
    int status = 0;

    shim_ncores = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 4u;
    if (shim_ncores == 0)
        shim_ncores = 1;
    for (shim_core = 0; shim_core < shim_ncores; shim_core++) {
        int rc = workload_main(shim_core, shim_ncores);
        if (rc != 0 && status == 0)
            status = rc;
    }
    fflush(stdout);
    return status;
}
