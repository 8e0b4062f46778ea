// SPDX-License-Identifier: GPL-2.0-or-later
/* gdb_cmds.c — the packets of the GDB remote protocol the stub answers
 * (docs/debugging.md lists them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdb/gdb_priv.h"
#include "platform/mips.h"

/* GDB's own signal numbers (gdb/signals.def), not the host's */
enum { GSIG_INT = 2, GSIG_ILL = 4, GSIG_TRAP = 5, GSIG_FPE = 8, GSIG_BUS = 10, GSIG_SEGV = 11,
       GSIG_STOP = 17, GSIG_XCPU = 24 };

/* The target description: gdb's MIPS32 register layout (cpu, cp0, fpu)
 * plus EPC, numbered as core_debug_read_regs gives them. */
static GString *target_xml(void)
{
    GString *x = g_string_new("<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
                              "<target version=\"1.0\">\n<architecture>mips:isa32r2</architecture>\n"
                              "<feature name=\"org.gnu.gdb.mips.cpu\">\n");
    for (unsigned i = 0; i < 32; i++)
        g_string_append_printf(x, "<reg name=\"r%u\" bitsize=\"32\" regnum=\"%u\"/>\n", i, i);
    g_string_append(x, "<reg name=\"lo\" bitsize=\"32\" regnum=\"33\"/>\n<reg name=\"hi\" bitsize=\"32\" regnum=\"34\"/>\n"
                       "<reg name=\"pc\" bitsize=\"32\" regnum=\"37\"/>\n</feature>\n"
                       "<feature name=\"org.gnu.gdb.mips.cp0\">\n"
                       "<reg name=\"status\" bitsize=\"32\" regnum=\"32\"/>\n"
                       "<reg name=\"badvaddr\" bitsize=\"32\" regnum=\"35\"/>\n"
                       "<reg name=\"cause\" bitsize=\"32\" regnum=\"36\"/>\n"
                       "<reg name=\"epc\" bitsize=\"32\" regnum=\"72\"/>\n</feature>\n"
                       "<feature name=\"org.gnu.gdb.mips.fpu\">\n");
    for (unsigned i = 0; i < 32; i++)
        g_string_append_printf(x, "<reg name=\"f%u\" bitsize=\"32\" type=\"ieee_single\" regnum=\"%u\"/>\n", i, 38 + i);
    g_string_append(x, "<reg name=\"fcsr\" bitsize=\"32\" group=\"float\" regnum=\"70\"/>\n"
                       "<reg name=\"fir\" bitsize=\"32\" group=\"float\" regnum=\"71\"/>\n</feature>\n</target>\n");
    return x;
}

static GString *threads_xml(const GdbStub *g)
{
    GString *x = g_string_new("<?xml version=\"1.0\"?>\n<threads>\n");
    for (unsigned i = 0; i < g->m->ncores; i++) {
        /* the body is what `info threads` shows after the name: the core's state */
        Core *c = g->m->cores[i];
        CoreState st = core_state(c);
        g_string_append_printf(x, "<thread id=\"%x\" core=\"%u\" name=\"core%u\">%s", i + 1, i, i,
                               core_state_name(st));
        if (st == CORE_EXITED)
            g_string_append_printf(x, " %d", core_exit_code(c));
        else if (st == CORE_FAULT && core_fault(c)->kind)
            g_string_append_printf(x, ": %s", core_fault(c)->kind); /* kinds are [a-z-] */
        g_string_append(x, "</thread>\n");
    }
    g_string_append(x, "</threads>\n");
    return x;
}

/* qXfer:OBJECT:read:ANNEX:OFF,LEN */
static void xfer(GdbStub *g, const GString *doc, const char *range)
{
    unsigned long off = 0, len = 0;
    if (sscanf(range, "%lx,%lx", &off, &len) != 2) {
        gdb_send_str(g, "E01");
        return;
    }
    if (off >= doc->len) {
        gdb_send_str(g, "l");
        return;
    }
    size_t n = MIN(len, doc->len - off);
    GString *r = g_string_new(off + n >= doc->len ? "l" : "m");
    g_string_append_len(r, doc->str + off, (gssize)n);
    gdb_send(g, r->str, r->len);
    g_string_free(r, TRUE);
}

static void put_u32(GString *o, const GdbStub *g, uint32_t v)
{
    uint8_t b[4];
    for (unsigned i = 0; i < 4; i++)
        b[i] = (uint8_t)(g->big_endian ? v >> (24 - 8 * i) : v >> (8 * i));
    rsp_hex(o, b, 4);
}

static bool get_u32(const GdbStub *g, const char *hex, uint32_t *v)
{
    uint8_t b[4];
    if (!rsp_unhex(hex, 8, b))
        return false;
    *v = 0;
    for (unsigned i = 0; i < 4; i++)
        *v |= (uint32_t)b[i] << (g->big_endian ? 24 - 8 * i : 8 * i);
    return true;
}

static Core *core_of(const GdbStub *g, unsigned i)
{
    return g->m->cores[i < g->m->ncores ? i : 0];
}

/* ---- stops ------------------------------------------------------------------ */

static int signal_of(const GdbStopInfo *s, Core *c)
{
    if (s->why == DBG_STOP_REQUEST && !s->initial)
        return GSIG_INT;
    if (s->why != DBG_STOP_ENDED)
        return GSIG_TRAP;
    switch (core_state(c)) {
    case CORE_LIMIT: return GSIG_XCPU;
    case CORE_DEADLOCK: return GSIG_STOP;
    case CORE_FAULT: break;
    default: return GSIG_TRAP;
    }
    const char *k = core_fault(c)->kind ? core_fault(c)->kind : "";
    if (g_str_has_prefix(k, "reserved"))
        return GSIG_ILL;
    if (g_str_has_prefix(k, "misaligned-fetch")) /* an address error, as MIPS Linux signals it */
        return GSIG_BUS;
    if (strcmp(k, "break") == 0 || strcmp(k, "sdbbp") == 0)
        return GSIG_TRAP;
    if (strstr(k, "bus") || strstr(k, "unaligned") || strstr(k, "misuse"))
        return GSIG_BUS;
    if (strstr(k, "trap") || strstr(k, "overflow") || strstr(k, "fpu") || strstr(k, "divide"))
        return GSIG_FPE;
    return GSIG_SEGV;
}

static void console_out(GdbStub *g, const char *text)
{
    GString *o = g_string_new("O");
    rsp_hex(o, (const uint8_t *)text, strlen(text));
    gdb_send(g, o->str, o->len);
    g_string_free(o, TRUE);
}

void gdb_send_stop(GdbStub *g, bool tell)
{
    const GdbStopInfo *s = &g->stop;
    Core *c = core_of(g, s->core);
    if (tell && s->why == DBG_STOP_ENDED) {
        const CoreFault *f = core_fault(c);
        g_autofree char *described = f->kind && f->has_data && g->describe
                                     ? g->describe(g->describe_opaque, s->core, f->message, f->data) : NULL;
        g_autofree char *msg = f->kind ? g_strdup_printf("nocprof: core %u: %s at pc 0x%08x: %s\n", s->core, f->kind,
                                                         f->pc, described ? described
                                                         : f->message ? f->message : "")
                                       : g_strdup_printf("nocprof: core %u: %s at cycle %" G_GUINT64_FORMAT "\n",
                                                         s->core, core_state_name(core_state(c)), core_cycles(c));
        console_out(g, msg);
    }
    GString *r = g_string_new(NULL);
    g_string_printf(r, "T%02xthread:%x;", signal_of(s, c), s->core + 1);
    if (s->why == DBG_STOP_WATCH)
        g_string_append_printf(r, "%s:%x;", s->kind == 3 ? "rwatch" : s->kind == 4 ? "awatch" : "watch", s->data);
    if (s->begin)
        g_string_append(r, "replaylog:begin;");
    gdb_send(g, r->str, r->len);
    g_string_free(r, TRUE);
}

/* ---- monitor commands (qRcmd) ---------------------------------------------------- */

static void monitor(GdbStub *g, const char *cmd)
{
    GString *o = g_string_new(NULL);
    bool ok = true;
    if (strcmp(cmd, "cycles") == 0 || strcmp(cmd, "status") == 0) {
        for (unsigned i = 0; i < g->m->ncores; i++) {
            Core *c = g->m->cores[i];
            g_string_append_printf(o, "core%u %" G_GUINT64_FORMAT " cycles, %s", i, core_debug_cycle(c),
                                   core_state_name(core_state(c)));
            if (core_fault(c)->kind)
                g_string_append_printf(o, " (%s at 0x%08x: %s)", core_fault(c)->kind, core_fault(c)->pc,
                                       core_fault(c)->message ? core_fault(c)->message : "");
            g_string_append_c(o, '\n');
        }
    } else if (strcmp(cmd, "bt") == 0 || strcmp(cmd, "backtrace") == 0) {
        if (g->bt)
            g->bt(g->bt_opaque, g->sel_g < g->m->ncores ? g->sel_g : 0, o);
        else
            g_string_assign(o, "no backtrace: the run has no profile (--no-profile)\n");
    } else if (g_str_has_prefix(cmd, "stop-at-cycle ")) {
        char *end = NULL;
        guint64 n = g_ascii_strtoull(cmd + 14, &end, 0);
        ok = end && !*end && end != cmd + 14;
        if (ok) {
            /* gdb's `thread N` selects N with Hg (it reads its
             * registers); Hc comes only with a resume */
            core_debug_stop_at(core_of(g, g->sel_g), n);
            g_string_printf(o, "core%u stops at cycle %" G_GUINT64_FORMAT "\n", g->sel_g, n);
        }
    } else {
        g_string_assign(o, "nocprof monitor commands:\n  cycles                every core's exact cycle and state\n"
                           "  status                the same, with faults\n"
                           "  bt                    the selected thread's core's backtrace from nocprof's shadow\n"
                           "                        call stack (exact where gdb's unwinder is not: after a jump\n"
                           "                        to a bad address, in a prologue)\n"
                           "  stop-at-cycle N       stop the selected thread's core when its clock reaches N\n");
        ok = strcmp(cmd, "help") == 0;
    }
    if (o->len)
        console_out(g, o->str);
    gdb_send_str(g, ok ? "OK" : "E01");
    g_string_free(o, TRUE);
}

/* ---- the packets ------------------------------------------------------------------- */

static void query(GdbStub *g, const char *p)
{
    if (g_str_has_prefix(p, "qSupported")) {
        gdb_send_str(g, g->hist.on ? "PacketSize=4000;qXfer:features:read+;qXfer:threads:read+;QStartNoAckMode+;"
                                     "vContSupported+;ReverseStep+;ReverseContinue+"
                                   : "PacketSize=4000;qXfer:features:read+;qXfer:threads:read+;QStartNoAckMode+;"
                                     "vContSupported+");
    } else if (strcmp(p, "qAttached") == 0) {
        gdb_send_str(g, "1");
    } else if (strcmp(p, "qC") == 0) {
        char r[16];
        g_snprintf(r, sizeof r, "QC%x", g->sel_g + 1);
        gdb_send_str(g, r);
    } else if (strcmp(p, "qfThreadInfo") == 0) {
        GString *r = g_string_new("m");
        for (unsigned i = 0; i < g->m->ncores; i++)
            g_string_append_printf(r, i ? ",%x" : "%x", i + 1);
        gdb_send(g, r->str, r->len);
        g_string_free(r, TRUE);
    } else if (strcmp(p, "qsThreadInfo") == 0) {
        gdb_send_str(g, "l");
    } else if (g_str_has_prefix(p, "qXfer:features:read:target.xml:")) {
        GString *x = target_xml();
        xfer(g, x, p + strlen("qXfer:features:read:target.xml:"));
        g_string_free(x, TRUE);
    } else if (g_str_has_prefix(p, "qXfer:threads:read::")) {
        GString *x = threads_xml(g);
        xfer(g, x, p + strlen("qXfer:threads:read::"));
        g_string_free(x, TRUE);
    } else if (g_str_has_prefix(p, "qRcmd,")) {
        size_t n = strlen(p + 6);
        g_autofree char *cmd = g_malloc0(n / 2 + 1);
        if (rsp_unhex(p + 6, n, (uint8_t *)cmd))
            monitor(g, g_strstrip(cmd));
        else
            gdb_send_str(g, "E01");
    } else if (strcmp(p, "qSymbol::") == 0) {
        gdb_send_str(g, "OK");
    } else {
        gdb_send_str(g, "");
    }
}

static void regs_all(GdbStub *g)
{
    uint32_t r[CORE_DBG_NREGS];
    core_debug_read_regs(core_of(g, g->sel_g), r);
    GString *o = g_string_new(NULL);
    for (unsigned i = 0; i < CORE_DBG_NREGS; i++)
        put_u32(o, g, r[i]);
    gdb_send(g, o->str, o->len);
    g_string_free(o, TRUE);
}

static void reg_one(GdbStub *g, const char *p)
{
    unsigned long n = strtoul(p, NULL, 16);
    if (n >= CORE_DBG_NREGS) {
        gdb_send_str(g, "E01");
        return;
    }
    uint32_t r[CORE_DBG_NREGS];
    core_debug_read_regs(core_of(g, g->sel_g), r);
    GString *o = g_string_new(NULL);
    put_u32(o, g, r[n]);
    gdb_send(g, o->str, o->len);
    g_string_free(o, TRUE);
}

static void reg_write(GdbStub *g, const char *p)
{
    char *eq = strchr(p, '=');
    unsigned long n = strtoul(p, NULL, 16);
    uint32_t v;
    bool ok = eq && strlen(eq + 1) == 8 && get_u32(g, eq + 1, &v) && n < CORE_DBG_NREGS
              && core_debug_write_reg(core_of(g, g->sel_g), (unsigned)n, v);
    if (ok)
        hist_forget(g);        /* the program changed: no replay crosses it */
    else if (n == CORE_DBG_PC && eq && g->log)
        /* gdb says only 'Could not write register ""': say why here */
        g->log("gdb: the pc cannot be written: odd (the platform has no MIPS16e), a stop in a branch's "
               "delay slot, or the thread's core waits inside an instruction (select the one that stopped)");
    gdb_send_str(g, ok ? "OK" : "E01");
}

static void regs_write_all(GdbStub *g, const char *p, size_t len)
{
    bool ok = len >= 8 * 38;
    Core *c = core_of(g, g->sel_g);
    for (unsigned i = 0; ok && (i + 1) * 8 <= len && i < CORE_DBG_NREGS; i++) {
        uint32_t v, cur[CORE_DBG_NREGS];
        ok = get_u32(g, p + 8 * i, &v);
        core_debug_read_regs(c, cur);
        if (ok && v != cur[i]) {
            ok = core_debug_write_reg(c, i, v);
            hist_forget(g);
        }
    }
    gdb_send_str(g, ok ? "OK" : "E01");
}

static void mem_read(GdbStub *g, const char *p)
{
    unsigned long a = 0, l = 0;
    if (sscanf(p, "%lx,%lx", &a, &l) != 2 || l > RSP_MAX_PACKET / 2 - 8) {
        gdb_send_str(g, "E01");
        return;
    }
    g_autofree uint8_t *buf = g_malloc(l + 1);
    if (!core_debug_read_mem(core_of(g, g->sel_g), (uint32_t)a, buf, (uint32_t)l)) {
        gdb_send_str(g, "E14");
        return;
    }
    GString *o = g_string_new(NULL);
    rsp_hex(o, buf, l);
    gdb_send(g, o->str, o->len);
    g_string_free(o, TRUE);
}

/* M addr,len:hex and X addr,len:binary */
static void mem_write(GdbStub *g, char *p, size_t len, bool binary)
{
    unsigned long a = 0, l = 0;
    char *colon = memchr(p, ':', len);
    if (!colon || sscanf(p, "%lx,%lx", &a, &l) != 2 || l > RSP_MAX_PACKET) {
        gdb_send_str(g, "E01");
        return;
    }
    char *data = colon + 1;
    size_t n = len - (size_t)(data - p);
    g_autofree uint8_t *buf = g_malloc(l + 1);
    bool ok;
    if (binary) {
        long m = rsp_unescape(data, n);
        ok = m == (long)l;
        if (ok)
            memcpy(buf, data, l);
    } else {
        ok = n == 2 * l && rsp_unhex(data, n, buf);
    }
    ok = ok && (l == 0 || core_debug_write_mem(core_of(g, g->sel_g), (uint32_t)a, buf, (uint32_t)l));
    if (ok && l)
        hist_forget(g);
    gdb_send_str(g, ok ? "OK" : "E14");
}

/* Where gdb puts its own breakpoints to step core t (MIPS: software
 * single-step, then a step-resume breakpoint): its next instruction
 * (pc + 4, or pc + 8 after a delay slot), the target of the branch or
 * jump at pc, its pc itself (gdb re-stops a thread that advanced while
 * another was handled) and its return address ($ra, just after a call). */
static bool step_target(GdbStub *g, unsigned t, uint32_t a)
{
    Core *c = core_of(g, t);
    uint32_t r[CORE_DBG_NREGS], pc, insn, target;
    uint8_t b[4];
    core_debug_read_regs(c, r);
    pc = r[CORE_DBG_PC];
    if (a == pc || a == pc + 4 || a == pc + 8 || a == r[31])
        return true;
    if (!core_debug_read_mem(c, pc, b, 4))
        return false;
    insn = core_big_endian(c) ? (uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
                              : (uint32_t)b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0];
    if (mips_branch_target(insn, pc, &target))
        return a == target;
    return (mips_classify(insn) & MIPS_JREG) && a == r[(insn >> 21) & 31];
}

/* Z/z TYPE,ADDR,KIND: on every core (breakpoints are the process's) */
static void point(GdbStub *g, const char *p, bool on)
{
    unsigned long type = 0, a = 0, k = 0;
    if (sscanf(p, "%lx,%lx,%lx", &type, &a, &k) != 3 || type > 4) {
        gdb_send_str(g, "");
        return;
    }
    bool ok = true;
    if (on && type <= 1 && g->m->ncores > 1 && g->step_guess < 0 && step_target(g, g->sel_g, (uint32_t)a))
        g->step_guess = (int)g->sel_g;
    for (unsigned i = 0; i < g->m->ncores; i++) {
        Core *c = g->m->cores[i];
        if (type <= 1)
            core_debug_break(c, (uint32_t)a, on);
        else
            ok = core_debug_watch(c, (uint32_t)a, (uint32_t)k, (int)type, on) && ok;
    }
    gdb_send_str(g, ok ? "OK" : "E01");
}

static unsigned thread_arg(const GdbStub *g, const char *p, unsigned dflt)
{
    long t = strtol(p, NULL, 16);
    return t > 0 && (unsigned long)t <= g->m->ncores ? (unsigned)t - 1 : dflt;
}

/* The one thread vCont's actions resume, when every action names the
 * same thread (gdb with scheduler-locking on, or stepping one thread
 * over a breakpoint); else -1. */
static int vcont_solo(const GdbStub *g, const char *p)
{
    int solo = -1;
    for (const char *a = p; a && *a; a = strchr(a + 1, ';')) {
        const char *act = a + (*a == ';');
        const char *colon = strchr(act, ':');
        const char *semi = strchr(act, ';');
        if (!colon || (semi && semi < colon))
            return -1;         /* a default action: every thread */
        long t = strtol(colon + 1, NULL, 16);
        if (t <= 0 || (unsigned long)t > g->m->ncores || (solo >= 0 && solo != (int)t - 1))
            return -1;
        solo = (int)t - 1;
    }
    return solo;
}

/* vCont;ACTION[:TID];...: a step of one thread (the others run as the
 * schedule takes them), else continue everything. A resume of every
 * thread right after a breakpoint where gdb steps the selected one
 * (step_target; gdb, scheduler-locking off, resumes all to step) is taken
 * as a resume of that one: the others' hits of gdb's step breakpoints in
 * the code they share would make gdb lose the stepping thread (SIGTRAP in
 * rt_wait), so, as with scheduler-locking step, they are not reported. */
static void vcont(GdbStub *g, const char *p)
{
    g->solo = vcont_solo(g, p);
    if (g->solo < 0 && g->step_guess >= 0)
        g->solo = g->step_guess;
    g->step_guess = -1;
    for (const char *a = p; a && *a; a = strchr(a + 1, ';')) {
        const char *act = a + (*a == ';');
        if (*act == 's' || *act == 'S') {
            const char *colon = strchr(act, ':');
            const char *semi = strchr(act, ';');
            unsigned t = colon && (!semi || colon < semi) ? thread_arg(g, colon + 1, g->sel_c) : g->sel_c;
            core_debug_step(core_of(g, t));
            return;
        }
    }
}

static void select_thread(GdbStub *g, const char *p)
{
    long t = strtol(p + 1, NULL, 16);
    if (t > 0 && (unsigned long)t > g->m->ncores) {
        gdb_send_str(g, "E22");
        return;
    }
    unsigned *sel = p[0] == 'g' ? &g->sel_g : &g->sel_c;
    if (t > 0)
        *sel = (unsigned)t - 1;
    if (p[0] == 'c')
        g->c_any = t <= 0;     /* Hc0, Hc-1: gdb names no thread */
    gdb_send_str(g, "OK");
}

static bool resume_cmd(GdbStub *g, char *p)
{
    g->solo = -1;
    if (p[0] != 'v')
        g->step_guess = -1;   /* vcont() takes it */
    switch (p[0]) {
    case 'c': case 'C':
        return true;
    case 's': case 'S':
        core_debug_step(core_of(g, g->sel_c));
        return true;
    case 'b':
        if (strcmp(p, "bs") == 0)
            hist_reverse_step(g);          /* returns only when it cannot move */
        else if (strcmp(p, "bc") == 0)
            hist_reverse_continue(g);
        else
            gdb_send_str(g, "");
        return false;
    case 'D':
        gdb_send_str(g, "OK");
        g->detached = true;
        hist_forget(g);
        return true;
    case 'k':
        *g->kill = 1;
        g->killed = g->detached = true;
        return true;
    default:
        if (strcmp(p, "vCont?") == 0) {
            gdb_send_str(g, "vCont;c;C;s;S");
            return false;
        }
        if (g_str_has_prefix(p, "vCont;")) {
            vcont(g, p + 5);
            return true;
        }
        if (g_str_has_prefix(p, "vKill")) {
            gdb_send_str(g, "OK");
            *g->kill = 1;
            g->killed = g->detached = true;
            return true;
        }
        gdb_send_str(g, "");
        return false;
    }
}

bool gdb_handle(GdbStub *g, char *p, size_t len)
{
    switch (p[0]) {
    case '?': gdb_send_stop(g, false); return false;
    case 'q': query(g, p); return false;
    case 'Q':
        gdb_send_str(g, strcmp(p, "QStartNoAckMode") == 0 ? "OK" : "");
        g->noack |= strcmp(p, "QStartNoAckMode") == 0;
        return false;
    case 'H': select_thread(g, p + 1); return false;
    case 'T': gdb_send_str(g, thread_arg(g, p + 1, UINT32_MAX) != UINT32_MAX ? "OK" : "E22"); return false;
    case 'g': regs_all(g); return false;
    case 'G': regs_write_all(g, p + 1, len - 1); return false;
    case 'p': reg_one(g, p + 1); return false;
    case 'P': reg_write(g, p + 1); return false;
    case 'm': mem_read(g, p + 1); return false;
    case 'M': mem_write(g, p + 1, len - 1, false); return false;
    case 'X': mem_write(g, p + 1, len - 1, true); return false;
    case 'Z': point(g, p + 1, true); return false;
    case 'z': point(g, p + 1, false); return false;
    default: return resume_cmd(g, p);
    }
}
