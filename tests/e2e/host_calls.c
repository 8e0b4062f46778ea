/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * host_calls.c - call counting for host builds made with
 * -finstrument-functions (tests/e2e/test_libc.py).  Every instrumented
 * function entry adds one to its counter; at exit the counts are written to
 * the file named by $NP_CALLS_OUT as "address count" lines (hex address of
 * the function, mapped to names with nm on a -no-pie binary).
 */
#include <stdio.h>
#include <stdlib.h>

#define SLOTS 4096

static void *fn_addr[SLOTS];
static unsigned long fn_count[SLOTS];

__attribute__((no_instrument_function))
void __cyg_profile_func_enter(void *fn, void *site)
{
    unsigned long h = ((unsigned long)fn >> 2) % SLOTS;

    (void)site;
    while (fn_addr[h] != NULL && fn_addr[h] != fn)
        h = (h + 1) % SLOTS;
    fn_addr[h] = fn;
    fn_count[h]++;
}

__attribute__((no_instrument_function))
void __cyg_profile_func_exit(void *fn, void *site)
{
    (void)fn;
    (void)site;
}

__attribute__((no_instrument_function, destructor))
static void write_counts(void)
{
    const char *path = getenv("NP_CALLS_OUT");
    FILE *f;

    if (path == NULL || (f = fopen(path, "w")) == NULL)
        return;
    for (int i = 0; i < SLOTS; i++)
        if (fn_addr[i] != NULL)
            fprintf(f, "%lx %lu\n", (unsigned long)fn_addr[i], fn_count[i]);
    fclose(f);
}
