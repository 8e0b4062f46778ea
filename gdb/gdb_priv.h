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
} GdbStopInfo;

struct GdbStub {
    int lfd, fd;
    char *where;
    void (*log)(const char *msg);
    Machine *m;
    volatile sig_atomic_t *kill;
    bool big_endian, noack, detached, deadlock_told, killed;
    unsigned sel_g, sel_c;     /* cores selected by Hg (registers) and Hc */
    GdbStopInfo stop;          /* the last stop (for '?') */
    RspParser rsp;
    GByteArray *in;            /* bytes received, from in_pos on not parsed */
    guint in_pos;
    GString *last;             /* the last packet sent (resent on '-') */
};

void gdb_send(GdbStub *g, const char *data, size_t len);
void gdb_send_str(GdbStub *g, const char *s);
void gdb_close(GdbStub *g, const char *why);
void gdb_serve(GdbStub *g);
/* gdb_cmds.c: the stop reply of g->stop (with an O packet saying why
 * first when `tell`); one packet: true when it resumes the machine. */
void gdb_send_stop(GdbStub *g, bool tell);
bool gdb_handle(GdbStub *g, char *pkt, size_t len);

#endif
