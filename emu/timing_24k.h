// SPDX-License-Identifier: GPL-2.0-or-later
/* timing_24k.h — the MIPS32 24Kf pipeline as a static per-block cost
 * (docs/timing.md): each instruction's cycles under the 24K's interlock
 * rules, computed once when a block is translated.
 */
#ifndef NOCPROF_TIMING_24K_H
#define NOCPROF_TIMING_24K_H

#include <stdbool.h>
#include <stdint.h>

#include "platform/config.h"

/* Resources whose readiness the pass follows: GPRs 0..31, HI/LO, FPRs,
 * the FPU condition codes, and the two non-pipelined units. */
enum {
    T24_HILO = 32,
    T24_FPR = 33,              /* 33 .. 64: $f0 .. $f31 */
    T24_FCC = 65,
    T24_MDU = 66,              /* the multiply/divide unit's first of
                                  three multipliers is free at (24k.md's
                                  r24k_mul3a; T24_MDUB, T24_MDUC the
                                  others) */
    T24_FPU = 67,              /* the FPU arithmetic pipe is free at */
    T24_ACC = 68,              /* HI/LO as madd/msub's accumulator (mthi/mtlo) */
    T24_FCCM = 69,             /* the condition codes as movf/movt read them */
    T24_MDUB = 70,
    T24_MDUC = 71,
    T24_NRES = 72,
};

/* What a block leaves pending at its end: for each resource, the cycles
 * after the block's last issue slot until a consumer may issue (<= 0:
 * ready). Only blocks that leave something pending have one. */
typedef struct T24Exit {
    int16_t left[T24_NRES];
    int16_t ag[32];            /* the same for a GPR read as a base */
} T24Exit;

/* A block's first read of a resource (as a base: ag), at static cycle off */
typedef struct T24Use {
    uint8_t res, ag;
    uint16_t off;
} T24Use;

#define T24_MAX_USES 48

/* Why an instruction waits (for stall cycles by cause): the result of a
 * load, of an ALU instruction needed as an address base a stage early,
 * of the MDU (or the MDU busy), of the FPU (or its pipe blocked). */
enum { T24_WAIT_LOAD, T24_WAIT_AGEN, T24_WAIT_MDU, T24_WAIT_FPU, T24_NWAIT };

typedef struct T24Result {
    uint32_t cost;             /* cycles of the block */
    uint32_t wait[T24_NWAIT];  /* of them, waits by cause */
    uint8_t *why;              /* set by the caller or NULL: [n] each
                                  instruction's wait cause, T24_NWAIT for
                                  none (the cycles are icost - 1 - the
                                  uncached fetch) */
    uint64_t pend_mask;        /* resources still pending at its end */
    uint64_t use_mask;         /* resources read before written, by an
                                  instruction issuing in its first 40
                                  cycles (no result is pending longer) */
    uint32_t pend_ag;          /* GPRs pending as an address base only */
    uint32_t base_mask;        /* GPRs read as a base before written, in
                                  its first 8 cycles */
    uint32_t first_use;        /* index of the first instruction reading
                                  a resource in use_mask */
    bool stalls;               /* some instruction waits (statically), or
                                  more first reads than uses[] holds */
    unsigned nuses;
    T24Use uses[T24_MAX_USES]; /* the first reads of use_mask/base_mask */
} T24Result;

/* Cycles a block whose T24Result is r waits at its start after a block
 * that left `in` pending, when r.stalls is false (exact then). */
uint32_t t24_entry_wait(const T24Use *uses, unsigned nuses, const T24Exit *in, uint32_t bt);

/* Cost n instructions at addr (words in host order). entry: what the
 * previous block left pending (NULL: nothing); icost: each instruction's
 * cycles (NULL: not wanted); exit: filled with this block's pending
 * results (NULL: not wanted). Masks map resources to 64 bits (GPR r: bit
 * r, HI/LO and the MDU: bit 0, FPR f: bit 32 + f, FCC and the FPU pipe:
 * bit 32): a filter for the block boundary, never the answer. */
void t24_block(const Timing *t, const uint32_t *words, uint32_t n, uint32_t addr,
               const T24Exit *entry, uint16_t *icost, T24Exit *exit, T24Result *res);

/* Extra cycles when the control instruction insn transfers (taken). */
uint32_t t24_taken_cost(uint32_t insn);

#endif
