/* progress.c — the one-line progress of a long run on a terminal: simulated
 * cycles (min..max over the cores, against --max-cycles), the simulation
 * rate in guest cycles per host second, and the elapsed time, redrawn four
 * times a second on stderr and erased at the end.
 *
 * A host thread only reads the cores' cycle counters (aligned 64-bit
 * loads; a torn or stale value only shows on the line) and never touches
 * the simulation, so a run is the same with or without it. Instructions
 * are not shown: the emulator counts them per block at the end, and the
 * block table may grow while a core runs. */
#include <stdio.h>
#include <unistd.h>

#include "cli.h"

struct Progress {
    Machine *m;
    uint64_t max_cycles;
    gint64 t0;
    GThread *thread;
    GMutex lock;
    GCond cond;
    bool stop;
};

/* "123.4M" style, to keep the line short. */
static void human(char *buf, size_t n, double v)
{
    const char *unit[] = { "", "k", "M", "G", "T" };
    unsigned u = 0;
    while (v >= 1000.0 && u < 4) {
        v /= 1000.0;
        u++;
    }
    g_snprintf(buf, n, u ? "%.1f%s" : "%.0f%s", v, unit[u]);
}

static void draw(Progress *p)
{
    uint64_t lo = G_MAXUINT64, hi = 0;
    for (unsigned i = 0; i < p->m->ncores; i++) {
        uint64_t c = core_cycles(p->m->cores[i]);
        lo = MIN(lo, c);
        hi = MAX(hi, c);
    }
    double secs = (double)(g_get_monotonic_time() - p->t0) / 1e6;
    char a[16], b[16], lim[16], rate[16];
    human(a, sizeof a, (double)lo);
    human(b, sizeof b, (double)hi);
    human(lim, sizeof lim, (double)p->max_cycles);
    human(rate, sizeof rate, secs > 0 ? (double)hi / secs : 0);
    fprintf(stderr, "\r[nocprof] cycles per core %s..%s / %s (%.1f%%) | %s cycles/s | %u:%04.1f\033[K", a, b,
            lim, p->max_cycles ? 100.0 * (double)hi / (double)p->max_cycles : 0.0, rate, (unsigned)(secs / 60),
            secs - 60.0 * (unsigned)(secs / 60));
    fflush(stderr);
}

static gpointer progress_thread(gpointer data)
{
    Progress *p = data;
    g_mutex_lock(&p->lock);
    while (!p->stop) {
        gint64 until = g_get_monotonic_time() + 250 * G_TIME_SPAN_MILLISECOND;
        while (!p->stop && g_cond_wait_until(&p->cond, &p->lock, until))
            ;
        if (!p->stop)
            draw(p);
    }
    g_mutex_unlock(&p->lock);
    return NULL;
}

Progress *progress_start(Machine *m, uint64_t max_cycles, int mode)
{
    if (mode < 0 || (mode == 0 && !isatty(STDERR_FILENO)))
        return NULL;
    Progress *p = g_new0(Progress, 1);
    p->m = m;
    p->max_cycles = max_cycles;
    p->t0 = g_get_monotonic_time();
    g_mutex_init(&p->lock);
    g_cond_init(&p->cond);
    p->thread = g_thread_new("progress", progress_thread, p);
    return p;
}

void progress_stop(Progress *p)
{
    if (!p)
        return;
    g_mutex_lock(&p->lock);
    p->stop = true;
    g_cond_signal(&p->cond);
    g_mutex_unlock(&p->lock);
    g_thread_join(p->thread);
    fputs("\r\033[K", stderr);   /* erase the line */
    fflush(stderr);
    g_mutex_clear(&p->lock);
    g_cond_clear(&p->cond);
    g_free(p);
}
