// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE 1
/* history.c — reverse execution (bs, bc: reverse-stepi, reverse-continue)
 * by deterministic replay from checkpoints (docs/debugging.md).
 *
 * A checkpoint is a fork() of the whole process, the copy-on-write image
 * of everything at that instruction: the engines, RAM, devices, network,
 * the profiler's data, the stub. Under gdb the machine runs on one host
 * thread and in one deterministic order, so a copy resumed from a
 * checkpoint runs the same instructions again; positions are counted by
 * the debug hooks' shared clock (emu/debug.h: DbgClock).
 *
 * Processes. The process started is the supervisor: it forks the first
 * one that runs and waits, to end with the status of whichever process
 * finishes the run (it forwards SIGINT, SIGTERM and SIGHUP to it). A checkpoint
 * is taken by fork(): the parent freezes, the child goes on. A frozen
 * process waits on its command socket; to go back, the live process
 * sends the checkpoint the debugger's state (breakpoints, watchpoints,
 * stop cycles, selected threads) and where to stop, and ends quietly
 * (_exit: no report); the checkpoint forks a copy that replays to there
 * with no stop, and stays frozen for the next time. Command sockets are
 * held only by the live process and the checkpoints taken after theirs,
 * so when the live process ends they all see the end of file and exit.
 *
 * Reverse-continue scans: a copy of the last checkpoint before the
 * current position replays to it noting where a breakpoint or watchpoint
 * would have stopped; then goes back to the last such place (or scans
 * the interval before, down to the first checkpoint: the start of
 * history).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gdb/gdb_priv.h"

enum { CMD_RESUME = 1, CMD_QUIT, CMD_EXIT, CMD_LIVE };

/* A command; CMD_RESUME is followed by alive ids (u32), breakpoints
 * (guint), watchpoints (DbgWatch) and the cores' stop cycles (u64). */
typedef struct Msg {
    uint32_t cmd, mode, land, noack, c_any;
    int32_t arg;               /* CMD_EXIT: the status; CMD_LIVE: the pid */
    uint32_t sel_g, sel_c, nalive, nbps, nwatch, ncores;
    uint64_t target, mark;
} Msg;

static bool write_all(int fd, const void *buf, size_t len)
{
    for (size_t off = 0; off < len;) {
        ssize_t n = send(fd, (const char *)buf + off, len - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        off += (size_t)n;
    }
    return true;
}

static bool read_all(int fd, void *buf, size_t len)
{
    for (size_t off = 0; off < len;) {
        ssize_t n = recv(fd, (char *)buf + off, len - off, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        off += (size_t)n;
    }
    return true;
}

static void send_cmd(int fd, uint32_t cmd, int32_t arg)
{
    Msg m = { .cmd = cmd, .arg = arg };
    if (fd >= 0)
        write_all(fd, &m, sizeof m);
}

void hist_init(GdbStub *g)
{
    GdbHistory *h = &g->hist;
    h->clock.next = UINT64_MAX;
    h->ckpts = g_array_new(FALSE, TRUE, sizeof(GdbCkpt));
    h->sup_fd = -1;
}

uint64_t hist_position(const GdbStub *g)
{
    const GdbStopInfo *s = &g->stop;
    if (s->initial)
        return 0;
    return 2 * g->hist.clock.now + (s->why == DBG_STOP_ENDED);
}

/* ---- the supervisor ---------------------------------------------------------------- */

static volatile sig_atomic_t sup_signal;

static void sup_on_signal(int sig)
{
    sup_signal = sig;
}

/* The process started: waits for the one that finishes the run, then ends
 * with its status. Never returns. */
/* Reap what ended; the live process's own status when it is among them
 * (it is the supervisor's child once the checkpoint it came from ended). */
static void reap(pid_t live, int flags, int *live_status)
{
    for (;;) {
        int st;
        pid_t p = waitpid(-1, &st, flags);
        if (p < 0 && errno == EINTR)
            continue;
        if (p <= 0)
            return;
        if (p == live)
            *live_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    }
}

/* The stop signals, blocked across the fork that makes the supervisor:
 * one that comes meanwhile waits for the supervisor's handler. */
static void stop_signals(int how, sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(how, how == SIG_SETMASK ? old : &set, how == SIG_SETMASK ? NULL : old);
}

static void supervise(int fd, sigset_t *mask)
{
    struct sigaction sa = { .sa_handler = sup_on_signal };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    stop_signals(SIG_SETMASK, mask);
    pid_t live = 0;
    int status = -1, live_status = -1, last_sig = 0;
    gint64 last_at = 0;
    for (;;) {
        if (sup_signal && live > 0) {
            kill(live, sup_signal);
            last_sig = sup_signal;
            last_at = g_get_monotonic_time();
            sup_signal = 0;    /* (kept until the live process is known) */
        }
        struct pollfd pf = { fd, POLLIN, 0 };
        if (poll(&pf, 1, 1000) < 0 && errno == EINTR)
            continue;
        reap(live, WNOHANG, &live_status);
        if (!(pf.revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        Msg m;
        if (!read_all(fd, &m, sizeof m))
            break;             /* every process is gone */
        if (m.cmd == CMD_LIVE) {
            /* the process signalled may just have forked this one and
             * frozen (it ignores signals): send it again. Within the 2 s
             * grace, it is the same stop if it got there already */
            if (m.arg != live && last_sig && g_get_monotonic_time() - last_at < G_USEC_PER_SEC)
                kill(m.arg, last_sig);
            live = m.arg;
        }
        else if (m.cmd == CMD_EXIT)
            status = m.arg;
    }
    reap(live, 0, &live_status);
    /* its exit status when known: what happened after it said (a
     * sanitizer's leak report, a crash) counts too */
    if (live_status >= 0)
        status = live_status;
    if (status < 0)
        fputs("nocprof: gdb: the run's process ended without a status\n", stderr);
    _exit(status < 0 ? 70 : status);
}

/* ---- checkpoints -------------------------------------------------------------------- */

static void drop(GdbHistory *h, guint i)
{
    GdbCkpt *k = &g_array_index(h->ckpts, GdbCkpt, i);
    send_cmd(k->fd, CMD_QUIT, 0);
    close(k->fd);
    g_array_remove_index(h->ckpts, i);
}

/* More than `keep`: drop the one whose neighbours are closest for its
 * age (the first and the last stay), so that older ones thin out
 * exponentially. */
static void thin(GdbHistory *h, uint64_t now)
{
    while (h->ckpts->len > h->keep && h->ckpts->len > 2) {
        guint best = 1;
        double best_r = 0;
        for (guint i = 1; i + 1 < h->ckpts->len; i++) {
            const GdbCkpt *k = &g_array_index(h->ckpts, GdbCkpt, i);
            double gap = (double)(g_array_index(h->ckpts, GdbCkpt, i + 1).pos - g_array_index(h->ckpts, GdbCkpt, i - 1).pos);
            double r = gap / (double)(now - k->pos + 1);
            if (i == 1 || r < best_r) {
                best = i;
                best_r = r;
            }
        }
        drop(h, best);
    }
}

#define NFROZEN_SIGS 4u
static struct sigaction frozen_old[NFROZEN_SIGS];
static const int frozen_sigs[NFROZEN_SIGS] = { SIGINT, SIGTERM, SIGHUP, SIGCHLD };

/* Frozen: wait for a command; returns in a resumed copy (the socket to
 * this checkpoint in *resume_fd, the command in m, its payload in *extra). */
static void frozen(int fd, Msg *m, uint8_t **extra, int *resume_fd)
{
    struct sigaction ign = { .sa_handler = SIG_IGN };
    for (unsigned i = 0; i < NFROZEN_SIGS; i++)
        sigaction(frozen_sigs[i], &ign, &frozen_old[i]);   /* children reaped by the kernel */
    for (;;) {
        if (!read_all(fd, m, sizeof *m) || m->cmd != CMD_RESUME)
            _exit(0);          /* nobody can resume it any more */
        size_t n = m->nalive * sizeof(uint32_t) + m->nbps * sizeof(guint) + m->nwatch * sizeof(DbgWatch)
                 + m->ncores * sizeof(uint64_t);
        uint8_t *buf = g_malloc(n + 1);
        if (!read_all(fd, buf, n))
            _exit(0);
        int sv[2];
        pid_t pid = -1;
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0 && (pid = fork()) < 0) {
            close(sv[0]);
            close(sv[1]);
        }
        if (pid < 0) {
            fprintf(stderr, "nocprof: gdb: cannot resume a checkpoint: %s\n", g_strerror(errno));
            _exit(0);
        }
        if (pid == 0) {
            close(sv[0]);
            close(fd);
            for (unsigned i = 0; i < NFROZEN_SIGS; i++)
                sigaction(frozen_sigs[i], &frozen_old[i], NULL);
            *extra = buf;
            *resume_fd = sv[1];
            return;
        }
        g_free(buf);
        close(sv[1]);
        close(fd);
        fd = sv[0];
    }
}

static bool alive_in(const uint32_t *ids, uint32_t n, unsigned id)
{
    for (uint32_t i = 0; i < n; i++)
        if (ids[i] == id)
            return true;
    return false;
}

/* The replay is where it goes: live again */
void hist_landed(GdbStub *g)
{
    GdbHistory *h = &g->hist;
    h->landing = false;
    h->mode = HIST_LIVE;
    h->clock.quiet = false;
    h->clock.next = h->clock.now + h->every;
}

/* A resumed copy takes the state of the process it replaces. */
static void apply(GdbStub *g, const Msg *m, uint8_t *extra, GdbCkpt self)
{
    GdbHistory *h = &g->hist;
    const uint32_t *ids = (const uint32_t *)extra;
    for (guint i = h->ckpts->len; i-- > 0;) {
        GdbCkpt *k = &g_array_index(h->ckpts, GdbCkpt, i);
        if (!alive_in(ids, m->nalive, k->id)) {
            close(k->fd);
            g_array_remove_index(h->ckpts, i);
        }
    }
    g_array_append_val(h->ckpts, self);
    uint8_t *p = extra + m->nalive * sizeof(uint32_t);
    g_autoptr(GArray) bps = g_array_new(FALSE, FALSE, sizeof(guint));
    g_autoptr(GArray) watches = g_array_new(FALSE, FALSE, sizeof(DbgWatch));
    g_array_append_vals(bps, p, m->nbps);
    p += m->nbps * sizeof(guint);
    g_array_append_vals(watches, p, m->nwatch);
    p += m->nwatch * sizeof(DbgWatch);
    for (unsigned i = 0; i < g->m->ncores && i < m->ncores; i++) {
        uint64_t sc;
        memcpy(&sc, p + i * sizeof sc, sizeof sc);
        core_debug_reset(g->m->cores[i], bps, watches, sc);
    }
    g_free(extra);
    g_byte_array_set_size(g->in, 0);   /* what gdb sent was read by the replaced process */
    g->in_pos = 0;
    rsp_clear(&g->rsp);
    rsp_init(&g->rsp);
    g->noack = m->noack;
    g->sel_g = m->sel_g;
    g->sel_c = m->sel_c;
    g->c_any = m->c_any;
    g->detached = false;
    h->mode = (int)m->mode;
    h->land = (int)m->land;
    h->target = m->target;
    h->landing = false;
    h->clock.quiet = true;
    h->clock.hit = 0;
    h->clock.next = h->mode == HIST_REPLAY ? h->target : (h->target + 1) / 2;
    if (h->hooks.resume)
        h->hooks.resume(h->hooks.opaque, m->mark);
    send_cmd(h->sup_fd, CMD_LIVE, (int32_t)getpid());
}

bool hist_take(GdbStub *g, uint64_t pos)
{
    GdbHistory *h = &g->hist;
    if (!h->on || g->detached || g->fd < 0)
        return false;
    if (h->ckpts->len && g_array_index(h->ckpts, GdbCkpt, h->ckpts->len - 1).pos == pos)
        return false;
    if (h->hooks.save)
        h->hooks.save(h->hooks.opaque);
    fflush(NULL);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return false;
    GdbCkpt self = { .id = h->next_id++, .pos = pos };
    pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        return false;
    }
    if (pid == 0) {            /* the child goes on */
        close(sv[0]);
        self.fd = sv[1];
        g_array_append_val(h->ckpts, self);
        thin(h, pos);
        send_cmd(h->sup_fd, CMD_LIVE, (int32_t)getpid());
        return false;
    }
    close(sv[1]);
    Msg m;
    uint8_t *extra = NULL;
    frozen(sv[0], &m, &extra, &self.fd);
    apply(g, &m, extra, self);
    return true;
}

static void reply_begin(GdbStub *g)
{
    g->stop.begin = true;
    gdb_send_stop(g, false);
    g->stop.begin = false;
}

bool hist_begin(GdbStub *g)
{
    GdbHistory *h = &g->hist;
    if (!h->on)
        return false;
    fflush(NULL);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        h->on = false;
        return false;
    }
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    sigset_t mask;
    stop_signals(SIG_BLOCK, &mask);
    pid_t pid = fork();
    if (pid <= 0)
        stop_signals(SIG_SETMASK, &mask);
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        h->on = false;
        return false;
    }
    if (pid > 0) {
        close(sv[1]);
        close(g->fd);          /* gdb sees the end when the last one ends */
        supervise(sv[0], &mask);
    }
    close(sv[0]);
    h->sup_fd = sv[1];
    return hist_take(g, 0) && !hist_at_start(g);
}

bool hist_at_start(GdbStub *g)
{
    GdbHistory *h = &g->hist;
    if (h->mode != HIST_REPLAY || h->target != 0)
        return false;
    hist_landed(g);
    reply_begin(g);
    return true;
}

/* ---- going back ------------------------------------------------------------------- */

/* Resume checkpoint i (to replay to target in mode) and end this process;
 * returns only when that checkpoint is gone (then no longer listed). */
static void resume(GdbStub *g, guint i, int mode, uint64_t target, int land)
{
    GdbHistory *h = &g->hist;
    const GdbCkpt *k = &g_array_index(h->ckpts, GdbCkpt, i);
    g_autoptr(GArray) bps = g_array_new(FALSE, FALSE, sizeof(guint));
    g_autoptr(GArray) watches = g_array_new(FALSE, FALSE, sizeof(DbgWatch));
    core_debug_points(g->m->cores[0], bps, watches);
    Msg m = { .cmd = CMD_RESUME, .mode = (uint32_t)mode, .land = (uint32_t)land, .noack = g->noack, .c_any = g->c_any,
              .sel_g = g->sel_g, .sel_c = g->sel_c, .nalive = i, .nbps = bps->len, .nwatch = watches->len,
              .ncores = g->m->ncores, .target = target, .mark = h->hooks.mark ? h->hooks.mark(h->hooks.opaque) : 0 };
    GByteArray *b = g_byte_array_new();
    g_byte_array_append(b, (const guint8 *)&m, sizeof m);
    for (guint j = 0; j < i; j++)
        g_byte_array_append(b, (const guint8 *)&g_array_index(h->ckpts, GdbCkpt, j).id, sizeof(uint32_t));
    g_byte_array_append(b, (const guint8 *)bps->data, bps->len * (guint)sizeof(guint));
    g_byte_array_append(b, (const guint8 *)watches->data, watches->len * (guint)sizeof(DbgWatch));
    for (unsigned c = 0; c < g->m->ncores; c++) {
        uint64_t sc = core_debug_stop_cycle(g->m->cores[c]);
        g_byte_array_append(b, (const guint8 *)&sc, sizeof sc);
    }
    bool sent = write_all(k->fd, b->data, b->len);
    g_byte_array_free(b, TRUE);
    if (sent)
        _exit(0);              /* the checkpoints after it see the end of file */
    fputs("nocprof: gdb: a checkpoint is gone; going back from an earlier one\n", stderr);
    close(k->fd);
    g_array_remove_index(h->ckpts, i);
}

/* The latest checkpoint at or before pos (strictly before: !incl); -1: none */
static int latest(const GdbHistory *h, uint64_t pos, bool incl)
{
    for (guint i = h->ckpts->len; i-- > 0;) {
        uint64_t p = g_array_index(h->ckpts, GdbCkpt, i).pos;
        if (p < pos || (incl && p == pos))
            return (int)i;
    }
    return -1;
}

static void go_to(GdbStub *g, uint64_t clock, int land)
{
    for (int i; (i = latest(&g->hist, 2 * clock, true)) >= 0;)
        resume(g, (guint)i, HIST_REPLAY, clock, land);
    reply_begin(g);
}

/* Scan from the last checkpoint before pos; none: the start */
static void scan_before(GdbStub *g, uint64_t pos)
{
    GdbHistory *h = &g->hist;
    for (int i; (i = latest(h, pos, false)) >= 0;)
        resume(g, (guint)i, HIST_SCAN, pos, LAND_HIT);
    while (h->ckpts->len && h->mode != HIST_LIVE)   /* a scan found nothing: the first checkpoint */
        resume(g, 0, HIST_REPLAY, g_array_index(h->ckpts, GdbCkpt, 0).pos / 2, LAND_BEGIN);
    reply_begin(g);
}

void hist_reverse_step(GdbStub *g)
{
    if (!g->hist.on) {
        gdb_send_str(g, "");
        return;
    }
    /* gdb names the thread with Hc (scheduler-locking on or step);
     * otherwise the one it works on is the general thread (it sends Hg
     * before a step when that changed) */
    unsigned t = g->c_any ? g->sel_g : g->sel_c;
    Core *d = g->m->cores[t < g->m->ncores ? t : 0];
    uint64_t prev, last;
    uint32_t last_pc;
    core_debug_history(d, &prev, &last, &last_pc);
    /* stopped at (or inside) its last instruction: the one before it */
    uint64_t to = g->stop.initial ? 0 : core_debug_pc(d) == last_pc ? prev : last;
    if (!to) {
        reply_begin(g);
        return;
    }
    go_to(g, to, LAND_STEP);
}

void hist_reverse_continue(GdbStub *g)
{
    if (!g->hist.on) {
        gdb_send_str(g, "");
        return;
    }
    scan_before(g, hist_position(g));
}

void hist_scan_done(GdbStub *g)
{
    GdbHistory *h = &g->hist;
    if (h->clock.hit) {
        go_to(g, h->clock.hit, LAND_HIT);
        return;
    }
    /* nothing from the checkpoint resumed (the last one) on: before it */
    uint64_t from = h->ckpts->len ? g_array_index(h->ckpts, GdbCkpt, h->ckpts->len - 1).pos : 0;
    scan_before(g, from);
}

bool hist_arrive(GdbStub *g, Core *c, uint32_t pc, DbgStop *why, uint32_t *data, int *kind, bool eval)
{
    GdbHistory *h = &g->hist;
    uint64_t now = h->clock.now;
    *data = 0;
    *kind = 0;
    if (h->mode == HIST_REPLAY) {
        if (now < h->target) {
            h->clock.next = h->target;
            return false;
        }
        *why = h->land == LAND_HIT ? core_debug_hit(c, pc, data, kind) : DBG_STOP_STEP;
        if (*why == DBG_STOP_REQUEST)
            *why = DBG_STOP_BREAK;
        h->landing = true;
        return true;
    }
    if (h->mode == HIST_SCAN) {
        if (2 * now >= h->target)
            hist_scan_done(g);
        h->clock.next = (h->target + 1) / 2;
        if (eval && core_debug_hit(c, pc, data, kind) != DBG_STOP_REQUEST) {
            h->clock.hit = now;
            h->clock.hit_core = core_id(c);
        }
    }
    return false;
}

void hist_forget(GdbStub *g)
{
    GdbHistory *h = &g->hist;
    while (h->ckpts->len)
        drop(h, h->ckpts->len - 1);
    h->anew = true;            /* history starts again where gdb resumes */
}

void hist_end(GdbStub *g, int status)
{
    GdbHistory *h = &g->hist;
    if (!h->on)
        return;
    for (guint i = 0; i < h->ckpts->len; i++)
        close(g_array_index(h->ckpts, GdbCkpt, i).fd);
    g_array_set_size(h->ckpts, 0);
    send_cmd(h->sup_fd, CMD_EXIT, status);
}
