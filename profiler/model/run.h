// SPDX-License-Identifier: GPL-2.0-or-later
/* run.h — what one run produced, as the summary writers (report/summary.h,
 * formats/summary_json.h) consume it: the configuration, every core's
 * outcome and profile, and the NoC statistics. Plain data filled by the CLI. */
#ifndef NOCPROF_RUN_H
#define NOCPROF_RUN_H

#include <glib.h>
#include <json-glib/json-glib.h>

#include "platform/config.h"
#include "noc/noc.h"
#include "profiler/model/profile.h"

/* One frame of a fault's call stack, innermost first (gdb's backtrace):
 * frame 0 is where the core faulted, each further frame the call site in
 * its function of the frame before. Consecutive identical frames (deep
 * recursion) are one entry with repeat > 1; a stack of more than
 * FAULT_FRAMES_MAX entries keeps its innermost and outermost ones around
 * one entry with function "..." standing for the repeat frames between. */
typedef struct FaultFrame {
    const char *function, *file; /* interned; NULL: not known */
    uint32_t pc;                 /* 0: not known (an interrupt's, a tail call's caller) */
    unsigned line;
    unsigned repeat;             /* >= 1 */
    bool inlined;                /* a function the compiler inlined into the next frame (DWARF) */
} FaultFrame;
#define FAULT_FRAMES_MAX 64u
#define FAULT_FRAMES_ELIDED "..."
/* The last entry of frames unwound from the ELF's call frame information
 * (no shadow stack) that stopped short of the reset entry: the function
 * "<unwinding stopped: WHY>", pc 0, no file */
#define FAULT_FRAMES_UNWIND_STOP "<unwinding stopped: "

typedef struct CoreResult {
    unsigned id;
    const char *elf;
    const char *status;        /* exited, fault, limit, deadlock, interrupted */
    int exit_code;
    bool faulted;
    const char *fault_kind, *fault_message, *fault_function, *fault_file;
    uint32_t fault_pc;
    unsigned fault_line;
    char **fault_stack;        /* NULL-terminated, innermost first */
    FaultFrame *fault_frames;  /* the same stack with each frame's pc and line */
    unsigned nfault_frames;
    bool fault_has_regs;       /* the registers as the faulting instruction read them: */
    uint32_t fault_regs[34];   /* $0..$31, hi, lo (summary.json fault.registers) */
    uint64_t instructions, cycles, busy_cycles, idle_cycles, irq_cycles;
    uint64_t interrupts, waits;
    uint32_t stop_pc;          /* where it stopped (deadlock, limit, interrupted) */
    const char *stop_function, *stop_file;
    unsigned stop_line;
    /* deadlock or livelock: what it waited for ("receive", "transmit",
     * "interrupt"; NULL: it was not stuck), toward which core (transmit:
     * the destination its injection queue waits behind; -1), and where:
     * the firmware's call site outside the runtime (SPEC 1, hang rule) */
    const char *wait_for;
    int wait_peer;
    uint32_t wait_pc;
    const char *wait_function, *wait_file;
    unsigned wait_line;
    const char *wait_why;      /* "interrupt": why nothing wakes it (IRQC,
                                  TIMER, Status.IM7: core_irq_explain) */
    bool wait_asleep;          /* it waited asleep in `wait` (for a packet,
                                  transmit room or an interrupt), not in a
                                  poll or a spin */
    FaultFrame *stop_frames;   /* deadlock, limit, interrupted: its call stack
                                  at stop_pc (as a fault's) */
    unsigned nstop_frames;
    /* SPEC 1 Stack: the lowest $sp seen, and the bytes below the initial
     * $sp (0: none seen) */
    uint32_t stack_lowest;
    uint64_t stack_used;
    /* [cache] enabled: the core's L1 counts over the whole run (every
     * access, whatever was collected): I-cache lookups and misses, D-cache
     * accesses, read and write misses, dirty victims written back, and
     * the cycles the misses and write-backs cost */
    uint64_t i1_accesses, i1_misses, d1_accesses, d1_read_misses, d1_write_misses, d1_writebacks;
    uint64_t cache_cycles;
    const Profile *prof;       /* NULL when profiling was off */
} CoreResult;

typedef struct RunInfo {
    const Config *cfg;
    const char *config_path;   /* NULL: built-in defaults */
    unsigned ncores;
    CoreResult *cores;
    const NocStats *noc;
    bool deadlock;
    bool livelock;             /* the deadlock was a livelock */
    uint64_t livelock_cycles;  /* ... found after this many polling cycles */
    uint64_t end_cycle;        /* the cycle the deadlock or livelock was found */
    int exit_status;
    const char *aliasing;      /* summary.json "aliasing": its JSON text
                                  (aliasing_json), or NULL (borrowed) */
    const char *communication; /* summary.json "communication": its JSON
                                  text (comm_json), or NULL (borrowed) */
    const char *const *warnings; /* NULL-terminated (or NULL): resource
                                    limits that truncated something */
    const char *const *merge_runs;   /* a merge: "FOLDER\tSHA256[,...]" per
                                        summed run (NULL: not a merge) */
    const char *const *merge_forced; /* keys that differed (--force), or NULL */
} RunInfo;

/* A wait-for cycle between the stuck cores of a deadlock or livelock:
 * core k waits for cycle[k + 1] (a transmit toward it, or a receive when
 * it is the only other stuck core), the last for cycle[0]. Its length (0:
 * none); cycle has room for run->ncores ids. */
unsigned run_wait_cycle(const RunInfo *run, unsigned *cycle);

#endif
