// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alltoall.c - NoC bench workload (platform only): every core sends
 * A2A_PACKETS packets of A2A_WORDS words to every other core and receives
 * the (ncores - 1) * A2A_PACKETS packets sent to it.
 *
 * Round r sends packet r to each other core, starting with the next core
 * id (core + 1, core + 2, ...) so that the destinations are staggered.
 * While the injection queue is full the sender drains its receive queue,
 * so back-pressure never deadlocks.  Each packet is {src, seq, dst, words
 * derived from them}; the receiver checks the payload and that packets
 * from one source arrive in order (SPEC 2).  Prints a summary and returns 0
 * when everything arrived intact.
 */
#include "workload.h"

#ifndef A2A_PACKETS
#define A2A_PACKETS 64u
#endif
#define A2A_WORDS      8u
#define A2A_MAX_CORES  64u

static uint32_t next_seq[A2A_MAX_CORES];
static unsigned received, errors;

static uint32_t payload_word(unsigned src, unsigned seq, unsigned dst, unsigned i)
{
    return (src << 24) ^ (dst << 16) ^ (seq << 4) ^ (i * 0x01010101u);
}

static void check_packet(unsigned src, const uint32_t *w, unsigned n, unsigned self)
{
    received++;
    if (src >= A2A_MAX_CORES || n != A2A_WORDS || w[0] != src || w[1] != next_seq[src]
        || w[2] != self) {
        errors++;
        return;
    }
    for (unsigned i = 3; i < A2A_WORDS; i++) {
        if (w[i] != payload_word(src, w[1], self, i))
            errors++;
    }
    next_seq[src]++;
}

WORKLOAD_NOINLINE static bool drain_one(unsigned self)
{
    uint32_t w[A2A_WORDS];
    unsigned src, n;

    if (!rt_try_recv(&src, w, A2A_WORDS, &n))
        return false;
    check_packet(src, w, n, self);
    return true;
}

WORKLOAD_NOINLINE static void send_draining(unsigned self, unsigned dst, unsigned seq)
{
    uint32_t w[A2A_WORDS] = { self, seq, dst };

    for (unsigned i = 3; i < A2A_WORDS; i++)
        w[i] = payload_word(self, seq, dst, i);
    while (!rt_tx_ready())
        drain_one(self);
    rt_send(dst, w, A2A_WORDS);
}

int workload_main(unsigned core, unsigned ncores)
{
    unsigned expect = (ncores - 1u) * A2A_PACKETS;

    if (ncores > A2A_MAX_CORES) {
        rt_printf("alltoall: at most %u cores\n", A2A_MAX_CORES);
        return 1;
    }
    for (unsigned seq = 0; seq < A2A_PACKETS; seq++) {
        for (unsigned k = 1; k < ncores; k++)
            send_draining(core, (core + k) % ncores, seq);
    }
    while (received < expect) {
        if (!drain_one(core))
            continue;
    }
    bool ok = errors == 0 && received == expect;
    rt_printf("alltoall: core %u received %u packets from %u cores %s\n", core,
              received, ncores - 1u, ok ? "ok" : "CORRUPT");
    return ok ? 0 : 1;
}
