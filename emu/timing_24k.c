// SPDX-License-Identifier: GPL-2.0-or-later
/* timing_24k.c — [timing] model = 24k: each instruction's cycles under
 * the MIPS32 24Kf pipeline rules, computed once per block at translation.
 *
 * The 24K issues one instruction per cycle, in order. An instruction
 * waits (interlocks) until its operands are ready and the unit it needs
 * is free; its cost is 1 + the cycles it waited. Latencies (issue to the
 * issue of a dependent instruction) follow the MIPS32 24K Processor Core
 * Family Software User's Manual (MD00343) as GCC's 24K scheduling model
 * (gcc/config/mips/24k.md) encodes it; docs/timing.md has the table:
 * - ALU result: 1 (next instruction); as a load/store base: 2 (addresses
 *   are formed in the AG stage, before EX);
 * - load: 2; as a base: 3;
 * - mul (GPR result): 5, base 6; mult/madd/msub to HI/LO, read by
 *   mfhi/mflo or an accumulating madd: 1; mfhi/mflo's own result: 5
 *   (base 6); mthi/mtlo to mfhi/mflo 1, to madd/msub 2;
 * - div/divu: 36 (the manual's 32-bit dividend; the early-in shortcut
 *   for narrower dividends is not followed: an upper bound), and the
 *   MDU is busy that long (any MDU instruction waits);
 * - the MDU's three multipliers: each MDU instruction takes the first
 *   free one, mul for 5 cycles, the others for 1, div all three;
 * - FPU (at the core clock, 1:1): add/sub/abs/neg/mov/cvt to float 4,
 *   mul.s 4, mul.d/madd.d 5 (repeat 2), to-integer conversions 5, cvt.s.d
 *   6, c.cond to bc1 2 and to movf/movt 1, lwc1/ldc1 3, mtc1/mfc1 2;
 *   div/sqrt.s 17 and div/sqrt.d 32 with the FPU pipe blocked 14 / 29
 *   cycles (rsqrt/recip.d 35, 31): independent add.d issue back to back,
 *   a dependent chain pays the latency; FPU loads, stores and moves
 *   issue into the FPU pipe too (they wait while it is blocked).
 * - mfc0, di, ei: 3 (base 4);
 * Fetch from kseg1 is uncached: each instruction costs [timing] mmio more.
 */
#include "emu/timing_24k.h"
#include "platform/mips.h"

#define OP(i) ((i) >> 26)
#define RS(i) (((i) >> 21) & 31)
#define RT(i) (((i) >> 16) & 31)
#define RD(i) (((i) >> 11) & 31)
#define FD(i) (((i) >> 6) & 31)
#define FUNCT(i) ((i) & 63)

#define NONE 0xFF

/* One instruction's needs and results. */
typedef struct Op {
    uint8_t src[4], nsrc;      /* resources read */
    uint8_t base;              /* GPR read as a load/store base (NONE) */
    uint8_t dst[2], ndst;      /* resources written */
    uint8_t lat[2];            /* each: issue to a dependent issue */
    uint8_t unit;              /* T24_MDU, T24_FPU or NONE */
    uint8_t hold;              /* cycles that unit stays busy */
    bool all;                  /* T24_MDU: all three multipliers (div) */
    bool cp0;                  /* a CP0 read (mfc0, di, ei) */
} Op;

static void rd_(Op *o, unsigned r) { if (o->nsrc < 4) o->src[o->nsrc++] = (uint8_t)r; }
static void wr_(Op *o, unsigned r, unsigned lat)
{
    if (o->ndst < 2 && r != 0) {
        o->lat[o->ndst] = (uint8_t)lat;
        o->dst[o->ndst++] = (uint8_t)r;
    }
}
static void unit_(Op *o, unsigned u, unsigned hold) { o->unit = (uint8_t)u; o->hold = (uint8_t)hold; }
static unsigned fpr(unsigned f) { return T24_FPR + f; }

static void dec_special(uint32_t i, Op *o)
{
    unsigned f = FUNCT(i);
    switch (f) {
    case 0x00: case 0x02: case 0x03: rd_(o, RT(i)); wr_(o, RD(i), 1); return;   /* shifts */
    case 0x01: rd_(o, RS(i)); rd_(o, T24_FCCM); rd_(o, RD(i)); wr_(o, RD(i), 1); return; /* movf/t */
    case 0x08: rd_(o, RS(i)); return;                                          /* jr */
    case 0x09: rd_(o, RS(i)); wr_(o, RD(i), 1); return;                        /* jalr */
    case 0x0a: case 0x0b: rd_(o, RS(i)); rd_(o, RT(i)); rd_(o, RD(i)); wr_(o, RD(i), 1); return;
    case 0x10: case 0x12: rd_(o, T24_HILO); wr_(o, RD(i), 5); unit_(o, T24_MDU, 1); return; /* mfhi mflo */
    case 0x11: case 0x13:                                                      /* mthi mtlo */
        rd_(o, RS(i)); wr_(o, T24_HILO, 1); wr_(o, T24_ACC, 2); unit_(o, T24_MDU, 1); return;
    case 0x18: case 0x19: rd_(o, RS(i)); rd_(o, RT(i)); wr_(o, T24_HILO, 1); unit_(o, T24_MDU, 1); return;
    case 0x1a: case 0x1b:                                                      /* div divu */
        rd_(o, RS(i)); rd_(o, RT(i)); wr_(o, T24_HILO, 36); unit_(o, T24_MDU, 36); o->all = true; return;
    default:
        if (f >= 0x20 && f <= 0x2b) {
            rd_(o, RS(i)); rd_(o, RT(i)); wr_(o, RD(i), 1);
        } else if (f >= 0x30 && f <= 0x36) {
            rd_(o, RS(i)); rd_(o, RT(i));                                      /* traps */
        } else if (f == 0x04 || f == 0x06 || f == 0x07) {
            rd_(o, RS(i)); rd_(o, RT(i)); wr_(o, RD(i), 1);                     /* shifts by rs */
        }
        return;
    }
}

/* COP1 arithmetic of format fmt (S D W L): latency and FPU pipe hold. */
static void dec_fpu_arith(uint32_t i, Op *o)
{
    unsigned fmt = RS(i), f = FUNCT(i), fs = RD(i), ft = RT(i), fd = FD(i);
    bool dbl = fmt == 0x11 || fmt == 0x15;
    unsigned lat = 4, hold = 1;
    rd_(o, fpr(fs));
    if (f <= 0x04 || f >= 0x30)
        rd_(o, fpr(ft));
    if (f == 0x02) {
        lat = dbl ? 5 : 4, hold = dbl ? 2 : 1;                                 /* mul */
    } else if (f == 0x03 || f == 0x04 || f == 0x15) {
        lat = dbl ? 32 : 17, hold = dbl ? 29 : 14;                             /* div sqrt recip */
    } else if (f == 0x16) {
        lat = dbl ? 35 : 17, hold = dbl ? 31 : 14;                             /* rsqrt */
    } else if ((f >= 0x08 && f <= 0x0f) || f == 0x24 || f == 0x25) {
        lat = 5;                                                               /* to integer */
    } else if (f == 0x20 && fmt == 0x11) {
        lat = 6;                                                               /* cvt.s.d */
    } else if (f == 0x11) {
        rd_(o, T24_FCCM); rd_(o, fpr(fd));                                     /* movf/movt.fmt */
    } else if (f == 0x12 || f == 0x13) {
        rd_(o, ft); rd_(o, fpr(fd));                                           /* movz/movn.fmt */
    }
    unit_(o, T24_FPU, hold);
    if (f >= 0x30) {
        wr_(o, T24_FCC, 2); wr_(o, T24_FCCM, 1);                               /* c.cond */
        return;
    }
    bool dres = (f == 0x21) || (dbl && !(f == 0x20 || f == 0x24 || (f >= 0x0c && f <= 0x0f)));
    wr_(o, fpr(fd), lat);
    if (dres)
        wr_(o, fpr(fd | 1), lat);
}

static void dec_cop1(uint32_t i, Op *o)
{
    unsigned fmt = RS(i);
    switch (fmt) {
    case 0x00: rd_(o, fpr(RD(i))); wr_(o, RT(i), 2); unit_(o, T24_FPU, 1); return;       /* mfc1 */
    case 0x03: rd_(o, fpr(RD(i) | 1)); wr_(o, RT(i), 2); unit_(o, T24_FPU, 1); return;   /* mfhc1 */
    case 0x02: rd_(o, T24_FCC); wr_(o, RT(i), 2); return;                      /* cfc1 */
    case 0x04: rd_(o, RT(i)); wr_(o, fpr(RD(i)), 2); unit_(o, T24_FPU, 1); return;       /* mtc1 */
    case 0x07: rd_(o, RT(i)); wr_(o, fpr(RD(i) | 1), 2); unit_(o, T24_FPU, 1); return;   /* mthc1 */
    case 0x06: rd_(o, RT(i)); wr_(o, T24_FCC, 2); wr_(o, T24_FCCM, 2); return; /* ctc1 */
    case 0x08: rd_(o, T24_FCC); return;                                        /* bc1 */
    case 0x10: case 0x11: case 0x14: case 0x15: dec_fpu_arith(i, o); return;
    default: return;
    }
}

static void dec_cop1x(uint32_t i, Op *o)
{
    unsigned f = FUNCT(i);
    if (f <= 0x01 || f == 0x05) {                                              /* l[dw]xc1 */
        o->base = (uint8_t)RS(i); rd_(o, RT(i)); unit_(o, T24_FPU, 1);
        wr_(o, fpr(FD(i)), 3);
        if (f != 0x00)
            wr_(o, fpr(FD(i) | 1), 3);
    } else if (f >= 0x08 && f <= 0x0f) {                                       /* s[dw]xc1, prefx */
        o->base = (uint8_t)RS(i); rd_(o, RT(i));
        if (f != 0x0f) {
            rd_(o, fpr(RD(i)));
            unit_(o, T24_FPU, 1);
        }
    } else if (f >= 0x20) {                                                    /* [n]madd/msub */
        bool dbl = (f & 7) == 1;
        rd_(o, fpr(RS(i))); rd_(o, fpr(RD(i))); rd_(o, fpr(RT(i)));
        unit_(o, T24_FPU, dbl ? 2 : 1);
        wr_(o, fpr(FD(i)), dbl ? 5 : 4);
        if (dbl)
            wr_(o, fpr(FD(i) | 1), 5);
    }
}

static void dec_special23(uint32_t i, Op *o)
{
    unsigned f = FUNCT(i);
    if (OP(i) == 0x1c) {                                                       /* SPECIAL2 */
        if (f == 0x00 || f == 0x01 || f == 0x04 || f == 0x05) {                /* madd msub */
            rd_(o, RS(i)); rd_(o, RT(i)); rd_(o, T24_ACC); wr_(o, T24_HILO, 1); unit_(o, T24_MDU, 1);
        } else if (f == 0x02) {
            rd_(o, RS(i)); rd_(o, RT(i)); wr_(o, RD(i), 5); unit_(o, T24_MDU, 5); /* mul */
        } else if (f == 0x20 || f == 0x21) {
            rd_(o, RS(i)); wr_(o, RD(i), 1);
        }
        return;
    }
    if (f == 0x00) { rd_(o, RS(i)); wr_(o, RT(i), 1); }                        /* ext */
    else if (f == 0x04) { rd_(o, RS(i)); rd_(o, RT(i)); wr_(o, RT(i), 1); }    /* ins */
    else if (f == 0x20) { rd_(o, RT(i)); wr_(o, RD(i), 1); }                   /* seb seh wsbh */
    else if (f == 0x3b) { wr_(o, RT(i), 1); }                                  /* rdhwr */
}

static void dec_mem(uint32_t i, Op *o)
{
    unsigned op = OP(i);
    o->base = (uint8_t)RS(i);
    switch (op) {
    case 0x22: case 0x26: rd_(o, RT(i)); wr_(o, RT(i), 2); return;             /* lwl lwr */
    case 0x31: wr_(o, fpr(RT(i)), 3); unit_(o, T24_FPU, 1); return;            /* lwc1 */
    case 0x35: wr_(o, fpr(RT(i)), 3); wr_(o, fpr(RT(i) | 1), 3); unit_(o, T24_FPU, 1); return; /* ldc1 */
    case 0x39: case 0x3d: rd_(o, fpr(RT(i))); unit_(o, T24_FPU, 1); return;    /* swc1 sdc1 */
    case 0x38: rd_(o, RT(i)); wr_(o, RT(i), 2); return;                        /* sc */
    case 0x2f: case 0x33: return;                                              /* cache pref */
    default:
        if (op >= 0x28)
            rd_(o, RT(i));                                                     /* store data */
        else
            wr_(o, RT(i), 2);                                                  /* loads */
        return;
    }
}

static void decode(uint32_t i, Op *o)
{
    *o = (Op){ .base = NONE, .unit = NONE };
    unsigned op = OP(i);
    switch (op) {
    case 0x00: dec_special(i, o); return;
    case 0x01:                                                               /* REGIMM */
        if (RT(i) == 0x1f) { o->base = (uint8_t)RS(i); return; }             /* synci: a base */
        rd_(o, RS(i)); if (RT(i) & 0x10) wr_(o, 31, 1); return;
    case 0x03: case 0x1d: wr_(o, 31, 1); return;                             /* jal jalx */
    case 0x04: case 0x05: case 0x14: case 0x15: rd_(o, RS(i)); rd_(o, RT(i)); return;
    case 0x06: case 0x07: case 0x16: case 0x17: rd_(o, RS(i)); return;
    case 0x0f: wr_(o, RT(i), 1); return;                                     /* lui */
    case 0x10:                                                               /* COP0 */
        if (RS(i) == 0x04) rd_(o, RT(i));
        else if (RS(i) == 0x00 || RS(i) == 0x0b) { wr_(o, RT(i), 3); o->cp0 = true; } /* mfc0 di ei */
        return;
    case 0x11: dec_cop1(i, o); return;
    case 0x13: dec_cop1x(i, o); return;
    case 0x1c: case 0x1f: dec_special23(i, o); return;
    default:
        if (op >= 0x08 && op <= 0x0e) {
            rd_(o, RS(i)); wr_(o, RT(i), 1);
        } else if ((op >= 0x20 && op <= 0x26) || (op >= 0x28 && op <= 0x2f) || op == 0x30
                   || op == 0x31 || op == 0x33 || op == 0x35 || op == 0x38 || op == 0x39 || op == 0x3d) {
            dec_mem(i, o);
        }
        return;
    }
}

/* A resource's bit in the boundary masks. */
static uint64_t res_bit(unsigned r)
{
    if (r < 32)
        return r ? UINT64_C(1) << r : 0;
    if (r == T24_HILO || r == T24_ACC || r == T24_MDU || r == T24_MDUB || r == T24_MDUC)
        return 1;
    if (r >= T24_FPR && r < T24_FPR + 32)
        return UINT64_C(1) << (32 + (r - T24_FPR));
    return UINT64_C(1) << 32;                                                /* FCC, FPU */
}

/* bits several resources share: never taken as written */
#define SHARED_BITS (UINT64_C(1) | UINT64_C(1) << 32)


/* What kind of result o produces, for the cause of a wait on it. */
static uint8_t op_wait_kind(const Op *o)
{
    if (o->cp0)
        return T24_NWAIT;                                                    /* none of the four */
    if (o->base != NONE && o->ndst)
        return T24_WAIT_LOAD;
    if (o->unit == T24_MDU)
        return T24_WAIT_MDU;
    if (o->unit == T24_FPU)
        return T24_WAIT_FPU;
    for (unsigned k = 0; k < o->ndst; k++)
        if (o->dst[k] >= T24_FPR)
            return T24_WAIT_FPU;                                             /* mtc1 ctc1 */
    for (unsigned k = 0; k < o->nsrc; k++) {
        if (o->src[k] >= T24_FPR)
            return T24_WAIT_FPU;                                             /* mfc1 cfc1 */
        if (o->src[k] == T24_HILO)
            return T24_WAIT_MDU;                                             /* mfhi mflo */
    }
    return T24_WAIT_AGEN;
}

/* When an MDU instruction may issue: one of the three multipliers free
 * (the earliest, *which), or all three for a divide (24k.md: mult,
 * madd, mfhi/mflo, mthi/mtlo take one for 1 cycle, mul for 5, div all
 * three for 36). */
static int32_t mdu_free(const int32_t *ready, bool all, unsigned *which)
{
    static const unsigned u[3] = { T24_MDU, T24_MDUB, T24_MDUC };
    unsigned best = 0, worst = 0;
    for (unsigned k = 1; k < 3; k++) {
        if (ready[u[k]] < ready[u[best]])
            best = k;
        if (ready[u[k]] > ready[u[worst]])
            worst = k;
    }
    if (which)
        *which = u[best];
    return ready[u[all ? worst : best]];
}

/* The cycle instruction o may issue at, at the earliest t (ag: when
 * each GPR is ready as an address base; kind: what produced each
 * resource), and why it waits (*why). */
static int32_t issue_at(const int32_t *ready, const int32_t *ag, const uint8_t *kind, const Op *o, int32_t t,
                        unsigned *why)
{
    int32_t at = t;
    for (unsigned k = 0; k < o->nsrc; k++) {
        unsigned r = o->src[k];
        if (r != 0 && ready[r] > at) {
            at = ready[r];
            *why = kind[r];
        }
    }
    if (o->base != NONE && o->base != 0 && ag[o->base] > at) {
        at = ag[o->base];  /* AG reads the base a stage before EX */
        *why = kind[o->base];
    }
    int32_t unit = o->unit == T24_MDU ? mdu_free(ready, o->all, NULL) : o->unit != NONE ? ready[o->unit] : at;
    if (unit > at) {
        at = unit;
        *why = o->unit == T24_MDU ? T24_WAIT_MDU : T24_WAIT_FPU;
    }
    return at;
}

/* Resources o reads (its unit included) not yet written in the block. */
static uint64_t reads_of(const Op *o)
{
    uint64_t m = 0;
    for (unsigned k = 0; k < o->nsrc; k++)
        m |= res_bit(o->src[k]);
    if (o->base != NONE)
        m |= res_bit(o->base);
    if (o->unit != NONE)
        m |= res_bit(o->unit);
    return m;
}

/* Record o's reads that are the block's first of their resource (seen:
 * resources already read or written, 128 bits; ag reads separately). */
static void add_use(T24Result *res, unsigned r, bool ag, uint32_t off, uint64_t *seen)
{
    unsigned bit = ag ? 96 + r : r;  /* GPR bases: 96..127 */
    if (seen[bit >> 6] & (UINT64_C(1) << (bit & 63)))
        return;
    seen[bit >> 6] |= UINT64_C(1) << (bit & 63);
    if (res->nuses == T24_MAX_USES) {
        res->stalls = true;          /* the exact pass decides */
        return;
    }
    res->uses[res->nuses++] = (T24Use){ .res = (uint8_t)r, .ag = ag, .off = (uint16_t)off };
}

static void note_uses(T24Result *res, const Op *o, int32_t now, uint64_t *seen)
{
    for (unsigned k = 0; k < o->nsrc; k++)
        if (o->src[k] != 0)
            add_use(res, o->src[k], false, (uint32_t)now, seen);
    if (o->base != NONE && o->base != 0)
        add_use(res, o->base, true, (uint32_t)now, seen);
    if (o->unit != NONE)
        add_use(res, o->unit, false, (uint32_t)now, seen);
}

/* o's results: later reads of them are no first reads of the block. */
static void note_writes(const Op *o, uint64_t *seen)
{
    for (unsigned k = 0; k < o->ndst; k++) {
        unsigned r = o->dst[k];
        seen[r >> 6] |= UINT64_C(1) << (r & 63);
        if (r < 32)
            seen[1] |= UINT64_C(1) << (32 + r);
    }
}

uint32_t t24_entry_wait(const T24Use *uses, unsigned nuses, const T24Exit *in, uint32_t bt)
{
    int32_t wait = 0;
    for (unsigned k = 0; k < nuses; k++) {
        const T24Use *u = &uses[k];
        int32_t left = u->ag ? in->ag[u->res] : in->left[u->res];
        int32_t w = left - (int32_t)bt - (int32_t)u->off;
        wait = w > wait ? w : wait;
    }
    return (uint32_t)wait;
}

void t24_block(const Timing *t, const uint32_t *words, uint32_t n, uint32_t addr,
               const T24Exit *entry, uint16_t *icost, T24Exit *exit, T24Result *res)
{
    int32_t ready[T24_NRES] = { 0 }, ag[32] = { 0 };
    if (entry) {
        for (unsigned r = 0; r < T24_NRES; r++)
            ready[r] = entry->left[r];
        for (unsigned r = 0; r < 32; r++)
            ag[r] = entry->ag[r];
    }
    bool uncached = addr >= 0xA0000000u && addr < 0xC0000000u;
    int32_t now = 0;                  /* the earliest issue of the next one */
    uint64_t written = 0, use = 0, seen[2] = { 0, 0 };
    res->stalls = false;
    res->nuses = 0;
    uint8_t kind[T24_NRES] = { 0 };
    for (unsigned w = 0; w < T24_NWAIT; w++)
        res->wait[w] = 0;
    uint32_t base = 0, pend_ag = 0;
    uint32_t first_use = n;
    bool skip = false;
    for (uint32_t i = 0; i < n; i++) {
        if (skip) {
            /* the slot a never-taken likely branch skips: it never issues */
            skip = false;
            if (icost)
                icost[i] = 0;
            if (res->why)
                res->why[i] = T24_NWAIT;
            continue;
        }
        skip = (mips_classify(words[i]) & MIPS_LIKELY) && mips_branch_never(words[i]);
        Op o;
        decode(words[i], &o);
        uint64_t rd = now < 40 ? reads_of(&o) & ~written : 0;
        if (rd && !use)
            first_use = i;
        use |= rd;
        if (o.base != NONE && now < 8 && !(written & res_bit(o.base)))
            base |= (uint32_t)res_bit(o.base);
        if (now < 40)
            note_uses(res, &o, now, seen);
        unsigned why = T24_WAIT_LOAD;  /* what the previous block left: mostly loads */
        int32_t at = issue_at(ready, ag, kind, &o, now, &why);
        if (at > now) {
            res->stalls = true;
            if (why < T24_NWAIT)
                res->wait[why] += (uint32_t)(at - now);
        }
        if (res->why)
            res->why[i] = (uint8_t)(at > now ? why : T24_NWAIT);
        int32_t cost = at - now + 1 + (uncached ? (int32_t)t->mmio : 0);
        if (icost)
            icost[i] = (uint16_t)cost;
        now += cost;
        for (unsigned k = 0; k < o.ndst; k++) {
            ready[o.dst[k]] = at + o.lat[k];
            kind[o.dst[k]] = op_wait_kind(&o);
            if (o.dst[k] < 32)
                ag[o.dst[k]] = at + o.lat[k] + 1;
            written |= res_bit(o.dst[k]) & ~SHARED_BITS;
        }
        if (o.unit == T24_MDU && o.all) {
            ready[T24_MDU] = ready[T24_MDUB] = ready[T24_MDUC] = at + o.hold;
        } else if (o.unit == T24_MDU) {
            unsigned u;
            mdu_free(ready, false, &u);
            ready[u] = at + o.hold;
            res->stalls = true; /* an entry wait there depends on the three: the exact pass */
        } else if (o.unit != NONE) {
            ready[o.unit] = at + o.hold;
        }
        note_writes(&o, seen);
    }
    uint64_t pend = 0;
    for (unsigned r = 1; r < T24_NRES; r++) {
        int32_t left = ready[r] - now, agl = r < 32 ? ag[r] - now : 0;
        if (left > 0)
            pend |= res_bit(r);
        else if (agl > 0)
            pend_ag |= (uint32_t)res_bit(r);
        if (exit) {
            exit->left[r] = (int16_t)(left > 0 ? left : 0);
            if (r < 32)
                exit->ag[r] = (int16_t)(agl > 0 ? agl : 0);
        }
    }
    if (exit)
        exit->left[0] = exit->ag[0] = 0;
    res->cost = (uint32_t)now;
    res->pend_mask = pend;
    res->use_mask = use;
    res->pend_ag = pend_ag;
    res->base_mask = base;
    res->first_use = first_use;
}

/* Taken control transfers (docs/timing.md): the 24K's fetch unit
 * computes j/jal/b targets itself and predicts jr $ra with its return
 * stack, so those redirect the fetch for free; a taken conditional
 * branch costs a 1-cycle fetch bubble; jr/jalr through another register
 * wait for the register in the pipeline: 2 cycles. */
uint32_t t24_taken_cost(uint32_t insn)
{
    unsigned op = OP(insn);
    if (op == 0x02 || op == 0x03 || op == 0x1d)
        return 0;                                                            /* j jal jalx */
    if (op == 0x00)                                                          /* jr jalr */
        return (FUNCT(insn) == 0x08 && RS(insn) == 31) ? 0 : 2;
    if ((op == 0x04 || op == 0x14) && RS(insn) == RT(insn))
        return 0;                                                            /* b */
    if (op == 0x01 && RS(insn) == 0 && (RT(insn) == 0x01 || RT(insn) == 0x11))
        return 0;                                                            /* b, bal */
    return 1;
}
