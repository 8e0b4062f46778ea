/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * comm.c - waits known by construction, for the communication profile
 * (tests/e2e/test_comm.py). Every NI access that matters is preceded by a
 * CYCLE_LO read in the same asm block, so its cycle is the printed stamp
 * plus one MMIO load (1 + [timing] mmio); the test recomputes every
 * figure of comm.txt / summary.json from these stamps and the NoC's own
 * packet log.
 *
 *   phase A, cores 0 -> 1, late sender: core 0 computes PRODUCE cycles
 *     before each of NA one-word packets, core 1 computes CONSUME (<
 *     PRODUCE) cycles and then polls: it waits for each packet.
 *   phase B, cores 2 -> 3, late receiver: core 3 computes SLOW cycles
 *     before reading each packet core 2 sends right away.
 *   phase C, cores 0 -> 1, back-pressure: core 0 sends NC maximal packets
 *     while core 1 computes DRAIN_DELAY cycles first; the receive queue,
 *     the routers and the injection queue fill and core 0 waits on
 *     TX_STATUS (wait_tx).
 *
 * Printed lines: "S k stamp" (the cycle of the CYCLE_LO read before
 * TX_SEND; poll loop on TX_STATUS before it: "T k t0 t1"), "R k t0 t1 t2"
 * (t0: before the first RX_COUNT poll, t1: after the loop, t2: before the
 * last RX_DATA).
 */
#include "nocprof.h"

#define NA          4u
#define NB          4u
#define NC          8u
#define PRODUCE     3000u
#define CONSUME     1000u
#define SLOW        2000u
#define DRAIN_DELAY 6000u

#define SYS ((uint32_t)RT_SYS_BASE)
#define NI  ((uint32_t)RT_NI_BASE)

/* Stamp, then poll TX_STATUS until there is room: t[0] before the first
 * poll, t[1] after the loop. */
static inline __attribute__((always_inline)) void tx_wait(uint32_t *t)
{
    uint32_t a, b, s;
    __asm__ volatile(".set push\n.set noreorder\n"
                     "lw   %0, %5(%3)\n"
                     "1: lw %2, %6(%4)\n"
                     "andi %2, %2, 1\n"
                     "beqz %2, 1b\n"
                     "nop\n"
                     "lw   %1, %5(%3)\n"
                     ".set pop\n"
                     : "=&r"(a), "=&r"(b), "=&r"(s)
                     : "r"(SYS), "r"(NI), "i"(RT_SYS_CYCLE_LO), "i"(RT_NI_TX_STATUS)
                     : "memory");
    t[0] = a;
    t[1] = b;
}

/* Stamp, then TX_SEND: returns the stamp. */
static inline __attribute__((always_inline)) uint32_t tx_send(void)
{
    uint32_t a, one = 1;
    __asm__ volatile("lw   %0, %3(%1)\n"
                     "sw   %4, %5(%2)\n"
                     : "=&r"(a)
                     : "r"(SYS), "r"(NI), "i"(RT_SYS_CYCLE_LO), "r"(one), "i"(RT_NI_TX_SEND)
                     : "memory");
    return a;
}

/* Stamp, poll RX_COUNT until a packet is there, stamp. */
static inline __attribute__((always_inline)) void rx_wait(uint32_t *t)
{
    uint32_t a, b, c;
    __asm__ volatile(".set push\n.set noreorder\n"
                     "lw   %0, %5(%3)\n"
                     "1: lw %2, %6(%4)\n"
                     "beqz %2, 1b\n"
                     "nop\n"
                     "lw   %1, %5(%3)\n"
                     ".set pop\n"
                     : "=&r"(a), "=&r"(b), "=&r"(c)
                     : "r"(SYS), "r"(NI), "i"(RT_SYS_CYCLE_LO), "i"(RT_NI_RX_COUNT)
                     : "memory");
    t[0] = a;
    t[1] = b;
}

/* Stamp, then read the last RX_DATA word: returns the stamp. */
static inline __attribute__((always_inline)) uint32_t rx_last(uint32_t *w)
{
    uint32_t a, d;
    __asm__ volatile("lw   %0, %3(%2)\n"
                     "lw   %1, %4(%5)\n"
                     : "=&r"(a), "=&r"(d)
                     : "r"(SYS), "i"(RT_SYS_CYCLE_LO), "i"(RT_NI_RX_DATA), "r"(NI)
                     : "memory");
    *w = d;
    return a;
}

/* Stamps, printed at the end (printing costs thousands of cycles). */
static uint32_t stamp_t[NA + NC][2], stamp_s[NA + NC], stamp_r[NA + NC][3];

/* Send n words to dst after waiting for room. */
static RT_NOINLINE void produce(unsigned k, unsigned dst, const uint32_t *w, unsigned n)
{
    tx_wait(stamp_t[k]);
    rt_mmio_write(NI, RT_NI_TX_DEST, dst);
    for (unsigned i = 0; i < n; i++)
        rt_mmio_write(NI, RT_NI_TX_DATA, w[i]);
    stamp_s[k] = tx_send();
}

/* Receive one packet (all its words). */
static RT_NOINLINE uint32_t consume(unsigned k)
{
    uint32_t w = 0;
    rx_wait(stamp_r[k]);
    unsigned len = rt_mmio_read(NI, RT_NI_RX_LEN);
    for (unsigned i = 0; i + 1 < len; i++)
        w += rt_mmio_read(NI, RT_NI_RX_DATA);
    uint32_t last;
    stamp_r[k][2] = rx_last(&last);
    return w + last;
}

static void print_sends(unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        rt_printf("T %u %u %u\nS %u %u\n", k, stamp_t[k][0], stamp_t[k][1], k, stamp_s[k]);
}

static void print_recvs(unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        rt_printf("R %u %u %u %u\n", k, stamp_r[k][0], stamp_r[k][1], stamp_r[k][2]);
}

static RT_NOINLINE void compute(uint32_t cycles)
{
    rt_delay(cycles);
}

int main(unsigned core, unsigned ncores)
{
    uint32_t w[16];
    for (unsigned i = 0; i < 16; i++)
        w[i] = i;
    if (ncores < 4)
        return 1;
    if (core == 0) {
        for (unsigned k = 0; k < NA; k++) {
            compute(PRODUCE);
            produce(k, 1, w, 1);
        }
        rt_recv(NULL, w, 1); /* core 1 is ready for phase C */
        for (unsigned k = 0; k < NC; k++)
            produce(NA + k, 1, w, 16);
        print_sends(NA + NC);
    } else if (core == 1) {
        for (unsigned k = 0; k < NA; k++) {
            compute(CONSUME);
            consume(k);
        }
        rt_send(0, w, 1);
        compute(DRAIN_DELAY);
        for (unsigned k = 0; k < NC; k++)
            consume(NA + k);
        print_recvs(NA + NC);
    } else if (core == 2) {
        for (unsigned k = 0; k < NB; k++)
            produce(k, 3, w, 2);
        print_sends(NB);
    } else if (core == 3) {
        for (unsigned k = 0; k < NB; k++) {
            compute(SLOW);
            consume(k);
        }
        print_recvs(NB);
    }
    return 0;
}
