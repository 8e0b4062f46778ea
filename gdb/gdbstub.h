// SPDX-License-Identifier: GPL-2.0-or-later
/* gdbstub.h — `nocprof run --gdb [HOST:]PORT`: a GDB remote stub over the
 * machine (docs/debugging.md).
 *
 * Every core is a thread (id = core + 1). All-stop: the machine runs on
 * one host thread, so while gdb looks at the machine nothing runs; a
 * continue resumes every core, a step runs the selected core's next
 * instruction (with its delay slot) while the other cores run exactly as
 * far as the schedule of the same run without gdb takes them meanwhile.
 * Stops: breakpoints (Z0/Z1, kept by nocprof, guest memory untouched),
 * watchpoints (Z2/Z3/Z4) after the accessing instruction, a step, the
 * stop cycle (--gdb-stop-at-cycle, `monitor stop-at-cycle N`), Ctrl-C,
 * and a core that faults, hits the cycle limit or deadlocks (with the
 * fitting signal). Reverse execution (bs, bc) replays from checkpoints
 * that are forks of the process (history.c). Debugging never changes a
 * result.
 */
#ifndef NOCPROF_GDB_GDBSTUB_H
#define NOCPROF_GDB_GDBSTUB_H

#include <glib.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "emu/machine.h"

typedef struct GdbStub GdbStub;

/* Reverse execution forks checkpoints (docs/debugging.md): what the
 * program keeps outside its memory must follow. save: before a
 * checkpoint (flush, note file positions); mark: how far output went (in
 * the process replaced); resume: in a copy resumed from a checkpoint,
 * with the replaced process's mark (files back to the checkpoint's
 * positions, output already shown muted). */
typedef struct GdbHistoryHooks {
    void *opaque;
    void (*save)(void *opaque);
    uint64_t (*mark)(void *opaque);
    void (*resume)(void *opaque, uint64_t mark);
} GdbHistoryHooks;

/* Listen on [HOST:]PORT (HOST default 127.0.0.1; PORT 0: any free one).
 * NOCPROF_ERROR_USAGE on a bad spec, NOCPROF_ERROR_IO when it cannot. */
GdbStub *gdb_stub_listen(const char *spec, GError **error);
/* "HOST:PORT" it listens on (the port chosen when 0 was given). */
const char *gdb_stub_address(const GdbStub *g);
/* Messages for the user (a closed connection, a bad packet). */
void gdb_stub_set_log(GdbStub *g, void (*log)(const char *msg));
/* `monitor bt`: bt appends core's backtrace from the profiler's shadow
 * call stack (its frames with pc, line and inline frames) to out. */
void gdb_stub_set_backtrace(GdbStub *g, void (*bt)(void *opaque, unsigned core, GString *out), void *opaque);
/* A fault's console line: describe returns its message with what the
 * faulting access's address is (NULL: unchanged). */
void gdb_stub_set_describe(GdbStub *g, char *(*describe)(void *opaque, unsigned core, const char *message,
                                                          uint32_t addr), void *opaque);
/* Reverse execution: keep at most `keep` checkpoints (0: no reverse
 * execution), one every `every` instructions besides one at each stop. */
void gdb_stub_set_history(GdbStub *g, unsigned keep, uint64_t every, const GdbHistoryHooks *hooks);
/* Wait for gdb, then make every core of m debuggable. `kill` is set when
 * gdb kills the run (k, vKill): the machine then ends its cores as
 * interrupted. stop_cycle: core 0 stops when its clock reaches it
 * (UINT64_MAX: no). */
bool gdb_stub_attach(GdbStub *g, Machine *m, volatile sig_atomic_t *kill, uint64_t stop_cycle, GError **error);
/* Serve gdb with every core halted at reset, until it resumes. */
void gdb_stub_start(GdbStub *g);
/* gdb killed the run (k, vKill): its status is 130, reports written. */
bool gdb_stub_killed(const GdbStub *g);
/* The run ended with this exit status: tell gdb (W) and close. */
void gdb_stub_end(GdbStub *g, int status);
void gdb_stub_free(GdbStub *g);

#endif
