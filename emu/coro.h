// SPDX-License-Identifier: GPL-2.0-or-later
/* coro.h — stackful coroutines (Boost.Context fcontext) for the scheduler.
 *
 * Each core runs its engine inside its own coroutine, so that a core that
 * must wait for the others (an NI access at cycle t before every other core
 * has reached t) can suspend in the middle of an instruction's device
 * callback and be resumed later, with no nesting of engine runs. A
 * coroutine is resumed by one scheduler thread at a time; nocprof pins each
 * core to one thread, so a coroutine never changes threads.
 *
 * Sanitizers are told about every stack switch (AddressSanitizer's fiber
 * API, ThreadSanitizer's fibers), so ASan/TSan builds stay exact.
 */
#ifndef NOCPROF_CORO_H
#define NOCPROF_CORO_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Coro Coro;

/* A coroutine that will run fn(arg) on a stack of stack_size bytes
 * (rounded up to pages, with a PROT_NONE guard page below it) when first
 * resumed. NULL if the stack cannot be allocated. */
Coro *coro_new(void (*fn)(void *arg), void *arg, size_t stack_size);
/* Free a coroutine that has finished or never started. */
void coro_free(Coro *co);
/* Run co until it yields or its function returns. Called outside co. */
void coro_resume(Coro *co);
/* Back to whoever resumed co. Called inside co. */
void coro_yield(Coro *co);
/* The lowest byte of co's stack: the byte below it is the guard page's
 * (an access there is SIGSEGV). */
const void *coro_stack_low(const Coro *co);
/* Its function has returned. */
bool coro_done(const Coro *co);

#endif
