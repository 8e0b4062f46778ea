// SPDX-License-Identifier: GPL-2.0-or-later
/* events.c — the event table (events.h). */
#include "profiler/model/events.h"

#include <string.h>

#include "platform/mips.h"

const ProfEvInfo prof_events[PEV_COUNT] = {
    [PEV_INSTRUCTIONS] = { "instructions", "instr", "Ir", "Instructions executed", true, false, -1 },
    [PEV_LOADS] = { "loads", "loads", "Dr", "Data reads (loads)", true, false, -1 },
    [PEV_STORES] = { "stores", "stores", "Dw", "Data writes (stores)", true, false, -1 },
    [PEV_BRANCHES] = { "branches", "branch", NULL, "Control transfers (branches and jumps)", true, false, -1 },
    [PEV_COND] = { "cond_branches", "condbr", "Bc", "Conditional branches executed", true, false, -1 },
    [PEV_INDIRECT] = { "indirect_branches", "indbr", "Bi", "Indirect branches (jr, jalr) executed", true, false, -1 },
    [PEV_STALL_LOAD] = { "stall_load_use", "st.load", "StallLoad", "24k: cycles waited for a load's result", false,
                         false, 0 },
    [PEV_STALL_AGEN] = { "stall_agen", "st.agen", "StallAgen", "24k: cycles waited for an address base", false,
                         false, 1 },
    [PEV_STALL_MDU] = { "stall_mdu", "st.mdu", "StallMDU", "24k: cycles waited for the MDU (mul/div, HI/LO)", false,
                        false, 2 },
    [PEV_STALL_FPU] = { "stall_fpu", "st.fpu", "StallFPU", "24k: cycles waited for the FPU", false, false, 3 },
    [PEV_I1_MISS] = { "i1_misses", "I1mr", "I1mr", "L1 instruction cache read misses", false, true, -1 },
    [PEV_D1R_MISS] = { "d1r_misses", "D1mr", "D1mr", "L1 data cache read misses", false, true, -1 },
    [PEV_D1W_MISS] = { "d1w_misses", "D1mw", "D1mw", "L1 data cache write misses", false, true, -1 },
};

G_STATIC_ASSERT(PEV_COUNT == PROF_NEVENTS + 1);

uint64_t prof_event(const ProfFunc *f, ProfEv e)
{
    return e == PEV_INSTRUCTIONS ? f->instructions : f->events[e - 1];
}

unsigned prof_word_events(uint32_t word)
{
    /* PEV_LOADS .. PEV_INDIRECT follow PEV_INSTRUCTIONS in MIPS_EV_x order */
    G_STATIC_ASSERT(PEV_LOADS == 1 + MIPS_EV_LOAD && PEV_STORES == 1 + MIPS_EV_STORE);
    G_STATIC_ASSERT(PEV_BRANCHES == 1 + MIPS_EV_BRANCH && PEV_COND == 1 + MIPS_EV_COND);
    G_STATIC_ASSERT(PEV_INDIRECT == 1 + MIPS_EV_INDIRECT);
    return 1u << PEV_INSTRUCTIONS | mips_word_events(word) << 1;
}

int prof_event_lookup(const char *key)
{
    for (unsigned e = 0; e < PEV_COUNT; e++)
        if (strcmp(prof_events[e].key, key) == 0)
            return (int)e;
    return -1;
}

bool prof_events_cache(const Profile *p)
{
    for (unsigned i = 0; i < p->nfuncs; i++)
        for (unsigned e = 0; e < PEV_COUNT; e++)
            if (prof_events[e].cache && prof_event(&p->funcs[i], (ProfEv)e))
                return true;
    return false;
}

/* Index of the first stall of p at or after pc (stalls sorted by pc). */
static size_t first_stall(const Profile *p, uint32_t pc)
{
    size_t a = 0, b = p->nstalls;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (p->stalls[m].pc < pc)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

void prof_insn_events(const Profile *p, uint32_t pc, uint64_t execs, uint64_t out[PEV_COUNT])
{
    uint32_t word;
    unsigned cls = p->syms && symbols_read_word(p->syms, pc, &word) ? prof_word_events(word)
                                                                     : 1u << PEV_INSTRUCTIONS;
    for (unsigned e = 0; e < PEV_COUNT; e++)
        out[e] = prof_events[e].insn && (cls >> e & 1) ? execs : 0;
    for (size_t i = first_stall(p, pc); i < p->nstalls && p->stalls[i].pc == pc; i++)
        for (unsigned e = 0; e < PEV_COUNT; e++)
            if (prof_events[e].stall == (int)p->stalls[i].cause)
                out[e] += p->stalls[i].cycles;
    const ProfMiss *m = profile_misses_at(p, pc);
    if (m) {
        out[PEV_I1_MISS] = m->i1;
        out[PEV_D1R_MISS] = m->d1r;
        out[PEV_D1W_MISS] = m->d1w;
    }
}
