/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * smc.c - code a core writes and then runs (SPEC 1, "Code that a core
 * writes and then executes"): copied to RAM (a .bss buffer and a page
 * far above the image), to the stack, and received over the NoC. Every
 * copy follows the MIPS rules: stores, synci over the copy, sync, then a
 * jalr.hb into it. Each copy is then rewritten with the other function
 * (smc_sq <-> smc_tri at the same address) and run again.
 *
 * Console of core 0 (one core or more):
 *   ram 19 15 19 15      (sq(4), tri(5) at one address, twice over)
 *   far 19 15 19 15
 *   stack 19 15 19 15
 * and with two cores or more, core 1 prints
 *   noc 21 28            (tri(6) placed by itself, then core 0's code
 *                         received over it: sq(5))
 */
#include "nocprof.h"

extern const uint32_t smc_code_begin[], smc_code_end[];
extern int smc_sq(int), smc_tri(int);

#define NWORDS 16u
#define FAR_ADDR 0x80080000u  /* 512 KiB: past the image, below the stack */

static uint32_t ram_buf[NWORDS] __attribute__((aligned(32)));

static unsigned code_words(void)
{
    return (unsigned)(smc_code_end - smc_code_begin);
}

/* The offset (in words) of fn inside the code block. */
static unsigned offset_of(int (*fn)(int))
{
    return (unsigned)((const uint32_t *)(uintptr_t)fn - smc_code_begin);
}

/* Make [p, p + n words) fetchable: synci each line, then sync. */
static void sync_icache(const volatile uint32_t *p, unsigned n)
{
    for (unsigned i = 0; i < n; i += 8)
        __asm__ volatile("synci 0(%0)" : : "r"(p + i) : "memory");
    __asm__ volatile("sync" : : : "memory");
}

/* Call fn(x) with jalr.hb (clears the instruction hazard). */
static int call_hb(const volatile uint32_t *fn, int x)
{
    register int a0 __asm__("$4") = x;
    register int v0 __asm__("$2");
    __asm__ volatile("jalr.hb %2\n\tnop"
                     : "=r"(v0), "+r"(a0)
                     : "r"(fn)
                     : "$1", "$3", "$5", "$6", "$7", "$8", "$9", "$10", "$11", "$12", "$13",
                       "$14", "$15", "$24", "$25", "$31", "hi", "lo", "memory");
    return v0;
}

/* At p: the code block, then `which` (smc_sq or smc_tri) copied to the
 * start; returns the result of running the start on x. */
static int place_and_run(volatile uint32_t *p, int (*which)(int), int x)
{
    unsigned off = offset_of(which), n = code_words() - off;
    for (unsigned i = 0; i < n; i++)
        p[i] = smc_code_begin[off + i];
    sync_icache(p, n);
    return call_hb(p, x);
}

static void run_at(const char *name, volatile uint32_t *p)
{
    rt_puts(name);
    for (int k = 0; k < 2; k++) {
        rt_printf(" %d", place_and_run(p, smc_sq, 4));
        rt_printf(" %d", place_and_run(p, smc_tri, 5));
    }
    rt_putc('\n');
}

static void on_stack(void)
{
    volatile uint32_t buf[NWORDS] __attribute__((aligned(32)));
    run_at("stack", buf);
}

static void noc_send(void)
{
    uint32_t w[NWORDS];
    unsigned n = code_words();
    for (unsigned i = 0; i < n; i++)
        w[i] = smc_code_begin[i];
    rt_send(1, w, n);
}

static void noc_recv(void)
{
    unsigned src;
    int a = place_and_run(ram_buf, smc_tri, 6);
    unsigned n = rt_recv(&src, ram_buf, NWORDS);
    sync_icache(ram_buf, n);
    int b = call_hb(ram_buf + offset_of(smc_sq), 5);
    rt_printf("noc %d %d\n", a, b);
}

int main(unsigned core, unsigned ncores)
{
    if (core == 0) {
        run_at("ram", ram_buf);
        run_at("far", (volatile uint32_t *)FAR_ADDR);
        on_stack();
        if (ncores > 1)
            noc_send();
    } else if (core == 1) {
        noc_recv();
    }
    return 0;
}
