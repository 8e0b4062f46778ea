// SPDX-License-Identifier: GPL-2.0-or-later
/* run_wait.c — the wait-for cycle of a deadlock or livelock (run.h). */
#include "profiler/model/run.h"

#include <string.h>

/* The one core that core i waits for, or -1 (none, or any of several). */
static int waits_on(const RunInfo *run, unsigned i)
{
    const CoreResult *c = &run->cores[i];
    if (!c->wait_for)
        return -1;
    if (strcmp(c->wait_for, "transmit") == 0)
        return c->wait_peer >= 0 && (unsigned)c->wait_peer < run->ncores ? c->wait_peer : -1;
    if (strcmp(c->wait_for, "receive") != 0)
        return -1;
    int only = -1; /* a packet from any core: definite when one other is stuck */
    for (unsigned j = 0; j < run->ncores; j++) {
        if (j == i || !run->cores[j].wait_for)
            continue;
        if (only >= 0)
            return -1;
        only = (int)j;
    }
    return only;
}

unsigned run_wait_cycle(const RunInfo *run, unsigned *cycle)
{
    unsigned n = run->ncores;
    g_autofree int *next = g_new(int, n ? n : 1);
    g_autofree unsigned *seen = g_new0(unsigned, n ? n : 1);
    for (unsigned i = 0; i < n; i++)
        next[i] = waits_on(run, i);
    for (unsigned s = 0; s < n; s++) {
        /* follow the edges from s; a node met twice on this walk closes a cycle */
        int v = (int)s;
        while (v >= 0 && seen[v] == 0) {
            seen[v] = s + 1;
            v = next[v];
        }
        if (v < 0 || seen[v] != s + 1)
            continue;
        unsigned len = 0, lo = (unsigned)v;
        int u = v;
        do {
            lo = MIN(lo, (unsigned)u);
            u = next[u];
            len++;
        } while (u != v);
        for (unsigned k = 0, w = lo; k < len; k++, w = (unsigned)next[w])
            cycle[k] = w; /* from its smallest core id */
        return len;
    }
    return 0;
}
