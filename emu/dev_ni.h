// SPDX-License-Identifier: GPL-2.0-or-later
/* dev_ni.h — the network interface of one core: the only emu code that
 * talks to noc/. The machine creates one per core and maps it into the
 * core's NI window (core_map_device with dev_ni_ops and dev_ni_irq). */
#ifndef NOCPROF_DEV_NI_H
#define NOCPROF_DEV_NI_H

#include "emu/core.h"


struct Noc;
typedef struct NiDev NiDev;

/* What the NI saw the guest do, for observers (livelock detection in
 * machine.c, the communication profile). A *poll* is a read of an NI
 * status register that found nothing to do: RX_COUNT, RX_SRC or RX_LEN
 * with no complete packet waiting, TX_STATUS with no room for a maximal
 * packet. Everything else that changes the NI is progress. A status read
 * that found something (READY_RX, READY_TX) ends a run of polls: the
 * communication profile counts the cycles from the first failed poll to it
 * as blocked. */
typedef enum {
    NI_EV_POLL_RX,       /* RX_COUNT / RX_SRC / RX_LEN found nothing */
    NI_EV_POLL_TX,       /* TX_STATUS found no room */
    NI_EV_SEND,          /* TX_SEND committed a packet */
    NI_EV_RECV,          /* RX_DATA popped the last word: packet consumed */
    NI_EV_DROP,          /* RX_DROP discarded the head packet */
    NI_EV_READY_RX,      /* RX_COUNT / RX_SRC / RX_LEN found a packet */
    NI_EV_READY_TX,      /* TX_STATUS found room */
} NiEventKind;

typedef struct NiEvent {
    NiEventKind kind;
    unsigned core;       /* this NI's core */
    unsigned peer;       /* SEND: destination; RECV/DROP: source */
    unsigned words;      /* payload words (SEND, RECV, DROP) */
    uint64_t cycle;      /* the accessing instruction's cycle */
    uint32_t pc;         /* the accessing instruction */
    uint64_t sent;       /* RECV/DROP: the cycle the packet was sent */
    uint64_t delivered;  /* RECV/DROP: the cycle its last flit arrived */
    uint64_t count;      /* POLL: failed polls it stands for (1, or the
                            iterations of a skipped poll loop) */
    uint64_t until;      /* POLL: cycle of the last of them */
    uint64_t period;     /* POLL with count > 1: cycles between them */
} NiEvent;

typedef void (*NiObserver)(void *opaque, const NiEvent *ev);

extern const DevOps dev_ni_ops;
NiDev *dev_ni_new(struct Noc *noc, unsigned id, unsigned ncores, unsigned max_payload);
/* Observers see every event, in order, from the accessing core's thread
 * with the network locked (at most 4 per NI). */
void dev_ni_observe(NiDev *ni, NiObserver fn, void *opaque);
/* `count` failed polls of the same kind by the instruction at pc, the
 * first at `first`, one every `period` cycles (a skipped poll loop). */
void dev_ni_emit_polls(NiDev *ni, bool tx, uint32_t pc, uint64_t first, uint64_t period, uint64_t count);
/* The poll would succeed now: a complete packet waits (rx), or there is
 * room for a maximal packet (tx). */
bool dev_ni_poll_ready(const NiDev *ni, bool tx);
/* IRQC lines it holds up now: NP_IRQ_NOC_RX, NP_IRQ_NOC_TX. */
uint32_t dev_ni_irq(void *ni);

#endif
