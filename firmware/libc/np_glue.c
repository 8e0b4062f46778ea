/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * np_glue.c - the system layer under newlib for the nocprof platform:
 * the heap break (sbrk), exit/_exit/_Exit, abort and assert's failure hook.
 * Everything else of the C library is newlib (see docs/firmware.md).
 *
 * Heap: from _end (end of .bss, 16-byte aligned by link.ld) upwards to the
 * initial stack pointer minus a stack reserve of np_stack_reserve bytes
 * (64 KiB; a program overrides the weak default by defining its own
 * `const size_t np_stack_reserve = N;`).  _start stores the initial $sp in
 * __np_stack_top.
 */
#include <errno.h>
#include <reent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "nocprof/platform.h"
#include "np_libc.h"

extern char _end[];                 /* link.ld: end of .bss */
extern uintptr_t __np_stack_top;    /* start.S: $sp at reset */

__attribute__((weak)) const size_t np_stack_reserve = 64u * 1024u;
static uintptr_t heap_brk;

void *_sbrk_r(struct _reent *r, ptrdiff_t incr)
{
    uintptr_t limit = __np_stack_top - np_stack_reserve;
    uintptr_t old;

    if (heap_brk == 0)
        heap_brk = ((uintptr_t)_end + 15u) & ~(uintptr_t)15u;
    old = heap_brk;
    if ((incr > 0 && (uintptr_t)incr > limit - old) ||
        (incr < 0 && (uintptr_t)-incr > old - (uintptr_t)_end) || old > limit) {
        r->_errno = ENOMEM;
        return (void *)-1;
    }
    heap_brk = old + (uintptr_t)incr;
    return (void *)old;
}

void *sbrk(ptrdiff_t incr)
{
    return _sbrk_r(_REENT, incr);
}

void np_console_write(const char *s, size_t n)
{
    volatile uint32_t *con = (volatile uint32_t *)(NP_SYS_BASE + NP_SYS_CONSOLE);

    while (n--)
        *con = (unsigned char)*s++;
}

void _exit(int status)
{
    volatile uint32_t *ex = (volatile uint32_t *)(NP_SYS_BASE + NP_SYS_EXIT);

    *ex = (uint32_t)status;
    for (;;)
        ;       /* not reached: EXIT stops the core */
}

void _Exit(int status)
{
    _exit(status);
}

/* No atexit handlers and no buffered streams: nothing to run or flush. */
void exit(int status)
{
    _exit(status);
}

/* 134 = 128 + SIGABRT, what a host shell reports for an aborted program. */
void abort(void)
{
    _exit(NP_ABORT_STATUS);
}

/* newlib's assert() calls this; the message is newlib's own format. */
void __assert_func(const char *file, int line, const char *func, const char *expr)
{
    printf("assertion \"%s\" failed: file \"%s\", line %d%s%s\n",
           expr, file, line, func ? ", function: " : "", func ? func : "");
    abort();
}

void __assert(const char *file, int line, const char *expr)
{
    __assert_func(file, line, NULL, expr);
}
