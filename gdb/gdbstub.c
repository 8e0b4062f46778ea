// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE 1 /* accept4 */
/* gdbstub.c — the GDB remote stub: connection and stops (gdbstub.h); the
 * packets are handled in gdb_cmds.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/error.h"
#include "emu/debug.h"
#include "gdb/gdb_priv.h"

static void say(GdbStub *g, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void say(GdbStub *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (g->log)
        g->log(msg);
}

GdbStub *gdb_stub_listen(const char *spec, GError **error)
{
    const char *colon = strrchr(spec, ':');
    g_autofree char *host = colon ? g_strndup(spec, (gsize)(colon - spec)) : g_strdup("127.0.0.1");
    const char *port = colon ? colon + 1 : spec;
    char *end = NULL;
    unsigned long pn = strtoul(port, &end, 10);
    if (!*port || *end || pn > 65535 || !*host) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--gdb %s: expected [HOST:]PORT (PORT 0 to 65535)", spec);
        return NULL;
    }
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE }, *ai = NULL;
    int rc = getaddrinfo(host, port, &hints, &ai);
    if (rc != 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "--gdb %s: %s", spec, gai_strerror(rc));
        return NULL;
    }
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 1) != 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "--gdb %s: cannot listen: %s", spec, g_strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return NULL;
    }
    freeaddrinfo(ai);
    struct sockaddr_storage sa;
    socklen_t sl = sizeof sa;
    getsockname(fd, (struct sockaddr *)&sa, &sl);
    char hbuf[NI_MAXHOST], pbuf[NI_MAXSERV];
    getnameinfo((struct sockaddr *)&sa, sl, hbuf, sizeof hbuf, pbuf, sizeof pbuf, NI_NUMERICHOST | NI_NUMERICSERV);
    GdbStub *g = g_new0(GdbStub, 1);
    g->lfd = fd;
    g->fd = -1;
    g->solo = -1;
    g->step_guess = -1;
    g->where = g_strdup_printf("%s:%s", hbuf, pbuf);
    g->last = g_string_new(NULL);
    g->in = g_byte_array_new();
    rsp_init(&g->rsp);
    hist_init(g);
    return g;
}

const char *gdb_stub_address(const GdbStub *g)
{
    return g->where;
}

void gdb_stub_set_backtrace(GdbStub *g, void (*bt)(void *opaque, unsigned core, GString *out), void *opaque)
{
    g->bt = bt;
    g->bt_opaque = opaque;
}

void gdb_stub_set_describe(GdbStub *g, char *(*describe)(void *opaque, unsigned core, const char *message,
                                                          uint32_t addr), void *opaque)
{
    g->describe = describe;
    g->describe_opaque = opaque;
}

void gdb_stub_set_log(GdbStub *g, void (*log)(const char *msg))
{
    g->log = log;
}

void gdb_stub_free(GdbStub *g)
{
    if (!g)
        return;
    if (g->fd >= 0)
        close(g->fd);
    if (g->lfd >= 0)
        close(g->lfd);
    rsp_clear(&g->rsp);
    g_string_free(g->last, TRUE);
    g_byte_array_free(g->in, TRUE);
    g_free(g->where);
    g_array_free(g->hist.ckpts, TRUE);
    g_free(g);
}

/* The connection is gone or unusable: the run goes on without gdb. */
void gdb_close(GdbStub *g, const char *why)
{
    if (g->fd >= 0) {
        say(g, "gdb: %s: closing the connection; the run goes on", why);
        close(g->fd);
        g->fd = -1;
    }
    g->detached = true;
    hist_forget(g);            /* no reverse execution any more: free the checkpoints */
}

void gdb_send(GdbStub *g, const char *data, size_t len)
{
    if (g->fd < 0)
        return;
    GString *f = rsp_frame(data, len);
    g_string_assign(g->last, f->str);
    for (size_t off = 0; off < f->len;) {
        ssize_t n = send(g->fd, f->str + off, f->len - off, MSG_NOSIGNAL);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            g_string_free(f, TRUE);
            gdb_close(g, "write failed");
            return;
        }
        off += (size_t)n;
    }
    g_string_free(f, TRUE);
}

void gdb_send_str(GdbStub *g, const char *s)
{
    gdb_send(g, s, strlen(s));
}

static void send_raw(GdbStub *g, const char *s)
{
    if (g->fd >= 0 && send(g->fd, s, strlen(s), MSG_NOSIGNAL) < 0)
        gdb_close(g, "write failed");
}

/* Read what is there (blocking: wait for at least one byte). */
static bool fill(GdbStub *g, bool block)
{
    if (g->fd < 0)
        return false;
    struct pollfd pf = { g->fd, POLLIN, 0 };
    int r;
    /* waiting for gdb, a signal to nocprof (SIGINT, SIGTERM, SIGHUP: the
     * stop flag) ends the session: the run stops as interrupted. Polled
     * every 200 ms: the flag may be set before the poll begins. */
    while ((r = poll(&pf, 1, block ? 200 : 0)) <= 0) {
        if ((r < 0 && errno != EINTR) || !block)
            return false;
        if (g->kill && *g->kill && !g->killed) {
            say(g, "gdb: nocprof got a signal: closing the connection; the run stops as interrupted");
            close(g->fd);
            g->fd = -1;
            g->detached = true;
            hist_forget(g);
            return false;
        }
    }
    uint8_t buf[4096];
    ssize_t n = recv(g->fd, buf, sizeof buf, 0);
    if (n <= 0) {
        gdb_close(g, n == 0 ? "gdb went away" : "read failed");
        return false;
    }
    g_byte_array_append(g->in, buf, (guint)n);
    return true;
}

/* The next event of what gdb sent; RSP_NONE when nothing complete is
 * there (and !block). */
static RspEvent next_event(GdbStub *g, bool block)
{
    for (;;) {
        while (g->in_pos < g->in->len) {
            GError *err = NULL;
            RspEvent ev = rsp_feed(&g->rsp, g->in->data[g->in_pos++], &err);
            if (ev == RSP_ERROR) {
                g_autofree char *why = g_strdup_printf("malformed packet (%s)", err->message);
                g_error_free(err);
                gdb_close(g, why);
                return RSP_ERROR;
            }
            if (ev != RSP_NONE)
                return ev;
        }
        g_byte_array_set_size(g->in, 0);
        g->in_pos = 0;
        if (!fill(g, block))
            return g->fd < 0 ? RSP_ERROR : RSP_NONE;
    }
}

/* Serve gdb until it resumes the machine (or goes away). */
void gdb_serve(GdbStub *g)
{
    while (!g->detached) {
        RspEvent ev = next_event(g, true);
        if (ev == RSP_ERROR)
            return;
        if (ev == RSP_NACK && !g->noack) {
            send_raw(g, g->last->str);
            continue;
        }
        if (ev == RSP_BAD_CHECKSUM) {
            if (g->noack) {
                gdb_close(g, "packet with a wrong checksum");
                return;
            }
            send_raw(g, "-");
            continue;
        }
        if (ev != RSP_PACKET)
            continue;          /* acks; a Ctrl-C while stopped means nothing */
        if (!g->noack)
            send_raw(g, "+");
        if (gdb_handle(g, g->rsp.data->str, g->rsp.data->len))
            return;            /* resumed */
    }
}

/* ---- stops ------------------------------------------------------------------ */

static bool on_poll(void *opaque)
{
    GdbStub *g = opaque;
    if (g->detached)
        return false;
    for (;;) {
        RspEvent ev = next_event(g, false);
        if (ev == RSP_INTERRUPT)
            return true;
        if (ev == RSP_NONE || ev == RSP_ERROR)
            return false;
    }
}

static void on_stop(void *opaque, Core *c, DbgStop why, uint32_t pc, uint32_t data, int watch_kind)
{
    GdbStub *g = opaque;
    GdbHistory *h = &g->hist;
    if (g->detached)
        return;
    bool hook = why != DBG_STOP_ENDED;
    if (h->mode == HIST_SCAN && !hook && 2 * h->clock.now + 1 >= h->target)
        hist_scan_done(g);
    if (h->mode != HIST_LIVE && !h->landing)
        return;                /* replaying: no stop but where it goes */
    /* gdb resumed one thread: the others, which run only as the schedule
     * needs, are stopped as far as gdb knows, so their hits are not
     * reported (they passed over gdb's step breakpoints in shared code
     * and gdb then lost the stepping thread: SIGTRAP) */
    if (!h->landing && g->solo >= 0 && (unsigned)g->solo != core_id(c) &&
        (why == DBG_STOP_BREAK || why == DBG_STOP_WATCH))
        return;
    bool landed = h->landing;
    if (landed)
        hist_landed(g);
    if (why == DBG_STOP_ENDED && core_state(c) == CORE_DEADLOCK) {
        if (g->deadlock_told)
            return;        /* every core of a deadlock: one stop */
        /* told when the last stuck core is halted: before, the others'
         * clocks and states were not final (monitor cycles showed a core
         * of the deadlock 'running' at its last poll) */
        for (unsigned k = 0; k < g->m->ncores; k++)
            if (core_live(g->m->cores[k]))
                return;
        g->deadlock_told = true;
    }
    g->stop = (GdbStopInfo){ .core = core_id(c), .why = why, .pc = pc, .data = data, .kind = watch_kind };
    g->sel_g = g->sel_c = core_id(c);
    /* a checkpoint at every stop: going back to it costs no replay */
    if (hook && hist_take(g, 2 * h->clock.now)) {
        if (!hist_arrive(g, c, pc, &g->stop.why, &g->stop.data, &g->stop.kind, true))
            return;            /* a copy resumed here replays on */
        hist_landed(g);
        landed = true;
    }
    for (;;) {
        g->stop.begin = landed && h->land == LAND_BEGIN;
        gdb_send_stop(g, !landed);
        g->stop.begin = false;
        gdb_serve(g);
        /* a write dropped the history: it starts again here */
        if (!hook || !h->anew || (h->anew = false, !hist_take(g, 2 * h->clock.now)))
            break;
        if (!hist_arrive(g, c, pc, &g->stop.why, &g->stop.data, &g->stop.kind, true))
            return;
        hist_landed(g);
        landed = true;
    }
    if (g->killed)
        core_debug_kill(c);    /* now: the others at their next boundary */
}

static bool on_at(void *opaque, Core *c, uint32_t pc, DbgStop *why)
{
    GdbStub *g = opaque;
    GdbHistory *h = &g->hist;
    if (h->mode == HIST_LIVE) {
        h->clock.next = h->clock.now + h->every;
        if (!hist_take(g, 2 * h->clock.now))
            return false;
    }
    uint32_t data;
    int kind;
    return hist_arrive(g, c, pc, why, &data, &kind, false);
}

void gdb_stub_set_history(GdbStub *g, unsigned keep, uint64_t every, const GdbHistoryHooks *hooks)
{
    g->hist.on = keep > 0;
    g->hist.keep = MAX(keep, 2u);
    g->hist.every = every ? every : UINT64_MAX / 2;
    if (hooks)
        g->hist.hooks = *hooks;
}

bool gdb_stub_attach(GdbStub *g, Machine *m, volatile sig_atomic_t *kill, uint64_t stop_cycle, GError **error)
{
    struct sockaddr_storage sa;
    socklen_t sl = sizeof sa;
    int fd = -1, err = 0;
    /* polled, so that a signal's flag is seen even when the signal came
     * before the wait began (it would not interrupt accept then) */
    while (fd < 0 && !err && !*kill) {
        struct pollfd p = { .fd = g->lfd, .events = POLLIN };
        int n = poll(&p, 1, 200);
        if (n < 0 && errno != EINTR)
            err = errno;
        if (n > 0 && (fd = accept4(g->lfd, (struct sockaddr *)&sa, &sl, SOCK_CLOEXEC)) < 0
            && errno != EINTR && errno != EAGAIN && errno != ECONNABORTED)
            err = errno;
    }
    if (fd < 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "--gdb %s: %s", g->where,
                    err ? g_strerror(err) : "interrupted while waiting for gdb");
        return false;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    close(g->lfd);
    g->lfd = -1;
    g->fd = fd;
    g->m = m;
    g->kill = kill;
    g->big_endian = core_big_endian(m->cores[0]);
    g->hist.clock.next = g->hist.on ? g->hist.every : UINT64_MAX;
    CoreDebugOps ops = { .opaque = g, .clock = &g->hist.clock, .at = on_at, .stop = on_stop, .poll = on_poll };
    for (unsigned i = 0; i < m->ncores; i++)
        if (!core_debug_enable(m->cores[i], &ops, error))
            return false;
    if (stop_cycle != UINT64_MAX)
        core_debug_stop_at(m->cores[0], stop_cycle);
    say(g, "gdb: connected on %s; every core halted at reset", g->where);
    return true;
}

void gdb_stub_start(GdbStub *g)
{
    g->stop = (GdbStopInfo){ .core = 0, .why = DBG_STOP_REQUEST, .initial = true };
    if (hist_begin(g))
        return;                /* a copy resumed at reset replays on */
    for (;;) {
        gdb_serve(g);
        /* a write (gdb's load) dropped the history: it starts again here */
        if (!g->hist.anew || (g->hist.anew = false, !hist_take(g, 0)) || !hist_at_start(g))
            return;
    }
}

bool gdb_stub_killed(const GdbStub *g)
{
    return g->killed;
}

void gdb_stub_end(GdbStub *g, int status)
{
    if (g->hist.mode == HIST_SCAN)
        hist_scan_done(g);     /* the run ended before the scan's end: go back from here */
    if (g->hist.mode == HIST_REPLAY)
        say(g, "gdb: a replay ended before the instruction it went back to (the run is not deterministic?)");
    hist_end(g, status);
    if (g->fd >= 0 && !g->detached) {
        char w[8];
        g_snprintf(w, sizeof w, "W%02x", status & 0xff);
        gdb_send_str(g, w);
    }
    if (g->fd >= 0) {
        close(g->fd);
        g->fd = -1;
    }
}
