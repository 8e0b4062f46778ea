// SPDX-License-Identifier: GPL-2.0-or-later
/* gdb_priv.h — the stub's state, shared by gdbstub.c (connection, stops)
 * and gdb_cmds.c (the packets). */
#ifndef NOCPROF_GDB_PRIV_H
#define NOCPROF_GDB_PRIV_H

#include "emu/debug.h"
#include "gdb/gdbstub.h"
#include "gdb/rsp.h"

typedef struct GdbStopInfo {
    unsigned core;
    DbgStop why;
    uint32_t pc, data;
    int kind;
    bool initial;              /* halted at reset, before the run */
    bool begin;                /* reverse execution reached the start of history */
} GdbStopInfo;

/* A checkpoint: a frozen copy of the process (history.c) */
typedef struct GdbCkpt {
    unsigned id;
    uint64_t pos;              /* 2 x the clock it was taken at */
    int fd;                    /* its command socket */
} GdbCkpt;

enum { HIST_LIVE, HIST_REPLAY, HIST_SCAN };     /* GdbHistory.mode */
enum { LAND_STEP, LAND_HIT, LAND_BEGIN };       /* what a replay stops as */

/* Reverse execution (history.c): positions are 2 x the clock before an
 * instruction (a stop in the hook), + 1 just after the clock's
 * instruction (a core that ended there). */
typedef struct GdbHistory {
    bool on;
    unsigned keep;             /* checkpoints kept */
    uint64_t every;            /* instructions between periodic checkpoints */
    DbgClock clock;
    GArray *ckpts;             /* GdbCkpt, oldest first */
    unsigned next_id;
    int sup_fd;                /* to the supervisor (the process started) */
    int mode, land;
    uint64_t target;           /* HIST_REPLAY: the clock to stop at; HIST_SCAN: the position to scan to */
    bool landing;              /* the replay stops here (on_stop finishes it) */
    bool anew;                 /* a write dropped the history: a checkpoint at the resume */
    GdbHistoryHooks hooks;
} GdbHistory;

struct GdbStub {
    int lfd, fd;
    char *where;
    void (*log)(const char *msg);
    /* monitor bt: the profiler's backtrace of a core (NULL: none) */
    void (*bt)(void *opaque, unsigned core, GString *out);
    void *bt_opaque;
    /* a fault's message with what its address is (NULL: none) */
    char *(*describe)(void *opaque, unsigned core, const char *message, uint32_t addr);
    void *describe_opaque;
    Machine *m;
    volatile sig_atomic_t *kill;
    bool big_endian, noack, detached, deadlock_told, killed;
    unsigned sel_g, sel_c;     /* cores selected by Hg (registers) and Hc */
    bool c_any;                /* Hc named no thread: bs steps sel_g's */
    /* the one core gdb resumed (vCont naming one thread and no other
     * action, as with scheduler-locking): breakpoints and watchpoints of
     * the others do not stop; -1: every core resumed */
    int solo;
    /* the thread a breakpoint came for since the last resume at its next
     * instruction, branch target, pc or return address: gdb steps it
     * (software single-step on MIPS); -1: none */
    int step_guess;
    GdbStopInfo stop;          /* the last stop (for '?') */
    RspParser rsp;
    GByteArray *in;            /* bytes received, from in_pos on not parsed */
    guint in_pos;
    GString *last;             /* the last packet sent (resent on '-') */
    GdbHistory hist;
};

void gdb_send(GdbStub *g, const char *data, size_t len);
void gdb_send_str(GdbStub *g, const char *s);
void gdb_close(GdbStub *g, const char *why);
void gdb_serve(GdbStub *g);
/* gdb_cmds.c: the stop reply of g->stop (with an O packet saying why
 * first when `tell`); one packet: true when it resumes the machine. */
void gdb_send_stop(GdbStub *g, bool tell);
bool gdb_handle(GdbStub *g, char *pkt, size_t len);

/* history.c: reverse execution */
void hist_init(GdbStub *g);
/* gdb_stub_start: the supervisor and the first checkpoint; true in a copy
 * resumed there that replays on (it serves no stop here) */
bool hist_begin(GdbStub *g);
/* A copy resumed at the start: true when it stops there (the reply is
 * sent), false when it replays on */
bool hist_at_start(GdbStub *g);
/* A checkpoint here (pos): false in the process that goes on, true in a
 * copy resumed here later (with the debugger's state of then). */
bool hist_take(GdbStub *g, uint64_t pos);
/* A resumed copy arrived at clock now (eval: note a breakpoint or
 * watchpoint met here while scanning): true = stop here (why). */
bool hist_arrive(GdbStub *g, Core *c, uint32_t pc, DbgStop *why, uint32_t *data, int *kind, bool eval);
/* The replay stopped where it goes: the process is live again */
void hist_landed(GdbStub *g);
/* The current stop's position */
uint64_t hist_position(const GdbStub *g);
/* bs, bc: no return when it moves (this process ends, a copy goes on) */
void hist_reverse_step(GdbStub *g);
void hist_reverse_continue(GdbStub *g);
/* A scan passed its end (a core ended there). No return. */
void hist_scan_done(GdbStub *g);
/* A memory or register write: history starts again */
void hist_forget(GdbStub *g);
/* The run ended with status (the live process only) */
void hist_end(GdbStub *g, int status);

#endif
