// SPDX-License-Identifier: GPL-2.0-or-later
/* progress.c — the one-line progress of a long run on a terminal: simulated
 * cycles (min..max over the cores, against --max-cycles), the guest
 * instructions executed so far and the guest MIPS (millions of them per
 * host second), and the elapsed time, redrawn four times a second on
 * stderr and erased at the end.
 *
 * A host thread reads what the cores publish (machine_progress: their
 * clocks; core_instructions_published: their instruction counts, relaxed
 * atomics written after each run once 2^18 cycles or more have passed,
 * and when they stop) and never touches the simulation, so a run is the same
 * with or without it. Counts are shown rounded down (123.4M means at least
 * 123,400,000), so the line never claims more than was executed. */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/cli.h"

struct Progress {
    Machine *m;
    uint64_t max_cycles;
    gint64 t0;
    GThread *thread;
    GMutex lock;
    GCond cond;
    gint stop;       /* atomic: read by the drawing thread */
};

/* "123.4M" style, rounded down, to keep the line short. */
static void human(char *buf, size_t n, uint64_t v)
{
    const char *unit[] = { "", "k", "M", "G", "T", "P", "E" };
    unsigned u = 0;
    uint64_t scale = 1;
    while (v / scale >= 1000 && u < 6) {
        scale *= 1000;
        u++;
    }
    if (!u)
        g_snprintf(buf, n, "%" G_GUINT64_FORMAT, v);
    else
        g_snprintf(buf, n, "%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT "%s", v / scale, v % scale / (scale / 10),
                   unit[u]);
}

/* Columns of the terminal on stderr; 0 when unknown. */
static unsigned columns(void)
{
    struct winsize ws;
    return ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
}

static void draw(Progress *p)
{
    uint64_t lo, hi, insns = 0;
    machine_progress(p->m, &lo, &hi);
    for (unsigned i = 0; i < p->m->ncores; i++)
        insns += core_instructions_published(p->m->cores[i]);
    double secs = (double)(g_get_monotonic_time() - p->t0) / 1e6;
    char a[24], b[24], lim[24], ni[24];
    human(a, sizeof a, lo);
    human(b, sizeof b, hi);
    human(lim, sizeof lim, p->max_cycles);
    human(ni, sizeof ni, insns);
    unsigned min = (unsigned)(secs / 60);
    g_autofree char *line = g_strdup_printf(
        "[nocprof] cycles per core %s..%s / %s (%.1f%%) | %s insns, %.1f MIPS | %u:%04.1f", a, b, lim,
        p->max_cycles ? 100.0 * (double)hi / (double)p->max_cycles : 0.0, ni,
        secs > 0 ? (double)insns / secs / 1e6 : 0.0, min, secs - 60.0 * min);
    unsigned cols = columns();
    if (cols > 1 && strlen(line) >= cols)
        line[cols - 1] = '\0'; /* a wrapped line could not be redrawn with \r */
    fprintf(stderr, "\r%s\033[K", line);
    fflush(stderr);
}

static gpointer progress_thread(gpointer data)
{
    Progress *p = data;
    g_mutex_lock(&p->lock);
    while (!g_atomic_int_get(&p->stop)) {
        gint64 until = g_get_monotonic_time() + 250 * G_TIME_SPAN_MILLISECOND;
        while (!g_atomic_int_get(&p->stop) && g_cond_wait_until(&p->cond, &p->lock, until))
            ;
        if (!g_atomic_int_get(&p->stop))
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
    p->thread = g_thread_try_new("progress", progress_thread, p, NULL);
    if (!p->thread) {          /* no thread for it: no progress line, the run goes on */
        g_mutex_clear(&p->lock);
        g_cond_clear(&p->cond);
        g_free(p);
        return NULL;
    }
    return p;
}

void progress_stop(Progress *p)
{
    if (!p)
        return;
    g_mutex_lock(&p->lock);
    g_atomic_int_set(&p->stop, 1);
    g_cond_signal(&p->cond);
    g_mutex_unlock(&p->lock);
    g_thread_join(p->thread);
    fputs("\r\033[K", stderr);   /* erase the line */
    fflush(stderr);
    g_mutex_clear(&p->lock);
    g_cond_clear(&p->cond);
    g_free(p);
}
