// SPDX-License-Identifier: GPL-2.0-or-later
/* events.h — the per-function events as one table (docs/reports.md
 * "Events"): what summary.json, flat.txt --events, callgrind.out,
 * report.html and `nocprof diff` show beside cycles, each with its
 * summary.json key, its short column name, callgrind's own name where
 * callgrind has one, and where its value lives in a ProfFunc. Adding an
 * event (a cache's misses) is one row here.
 *
 * Per instruction: an event whose `insn` bit is set counts each execution
 * of an instruction of that class (the class comes from the instruction
 * word, prof_word_events), so a function's count is the sum over its
 * instructions of executions x class: the per-line costs of callgrind.out
 * add up to the per-function totals. The stall cycles are per
 * instruction too (Profile.stalls, `stall` their cause), and so are the
 * cache's misses (Profile.misses).
 */
#ifndef NOCPROF_EVENTS_H
#define NOCPROF_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "profiler/model/profile.h"

typedef enum {
    PEV_INSTRUCTIONS,
    PEV_LOADS,
    PEV_STORES,
    PEV_BRANCHES,
    PEV_COND,
    PEV_INDIRECT,
    PEV_STALL_LOAD,
    PEV_STALL_AGEN,
    PEV_STALL_MDU,
    PEV_STALL_FPU,
    PEV_I1_MISS,
    PEV_D1R_MISS,
    PEV_D1W_MISS,
    PEV_COUNT
} ProfEv;

typedef struct ProfEvInfo {
    const char *key;      /* summary.json's name, --metric's */
    const char *column;   /* flat.txt --events / diff.txt column (<= 7 chars) */
    const char *cg;       /* callgrind's event name, or NULL: not written */
    const char *desc;     /* one line, for callgrind's `event:` and docs */
    bool insn;            /* counted per instruction from its class */
    bool cache;           /* a cache miss: shown only when some count is not 0 */
    int stall;            /* a stall cause (Profile.stalls per instruction), or -1 */
} ProfEvInfo;

extern const ProfEvInfo prof_events[PEV_COUNT];

/* f's count of event e. */
uint64_t prof_event(const ProfFunc *f, ProfEv e);
/* The events (bit e for ProfEv e, insn ones only) one execution of the
 * instruction `word` (host order) counts: PEV_INSTRUCTIONS always, loads,
 * stores, control transfers, of them conditional and register jumps. */
unsigned prof_word_events(uint32_t word);
/* The event named key (summary.json's name) or -1. */
int prof_event_lookup(const char *key);
/* The events of the instruction at pc executed `execs` times, into
 * out[PEV_COUNT]: the `insn` ones its class (the word read from p's ELF;
 * outside the ELF's image, instructions only) times execs, its stall
 * cycles by cause (Profile.stalls) and its misses (Profile.misses). Summed
 * over a source line's instructions, the line's counts (annotated.txt
 * --events; callgrind.out's cost lines of that line add up the same). */
void prof_insn_events(const Profile *p, uint32_t pc, uint64_t execs, uint64_t out[PEV_COUNT]);
/* Whether any function of p has a count of a `cache` event. */
bool prof_events_cache(const Profile *p);

#endif
