// SPDX-License-Identifier: GPL-2.0-or-later
/* coro.c — stackful coroutines on Boost.Context fcontext (see coro.h). */
#include "emu/coro.h"

#include <glib.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* Boost.Context's fcontext (libboost_context, a C ABI: extern "C" in
 * boost/context/detail/fcontext.hpp). A switch saves and restores the
 * callee-saved registers only: unlike swapcontext(3) it makes no
 * sigprocmask system call, which made a switch cost about 1 us. */
typedef void *fcontext_t;
typedef struct {
    fcontext_t fctx;
    void *data;
} transfer_t;
transfer_t jump_fcontext(fcontext_t const to, void *vp);
fcontext_t make_fcontext(void *sp, size_t size, void (*fn)(transfer_t));

#if defined(__SANITIZE_ADDRESS__)
#define CORO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORO_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define CORO_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CORO_TSAN 1
#endif
#endif

#ifdef CORO_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old);
#endif
#ifdef CORO_TSAN
void *__tsan_get_current_fiber(void);
void *__tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void *fiber);
void __tsan_switch_to_fiber(void *fiber, unsigned flags);
#endif

struct Coro {
    fcontext_t self, back;     /* the suspended coroutine; its resumer */
    void (*fn)(void *arg);
    void *arg;
    void *stack;               /* lowest usable byte; the guard page is below */
    size_t stack_size;
    void *map;                 /* the mapping: guard page + stack */
    size_t map_size;
    bool done;
    /* the resumer's stack, for the sanitizers */
    const void *back_bottom;
    size_t back_size;
    void *sched_fake, *coro_fake; /* ASan fake stacks of both sides */
#ifdef CORO_TSAN
    void *fiber, *back_fiber;
#endif
};

/* ASan: about to leave the current stack for [bottom, bottom + size);
 * *save keeps the leaving side's fake stack (NULL: it ends for good). */
static void switch_begin(void **save, const void *bottom, size_t size)
{
#ifdef CORO_ASAN
    __sanitizer_start_switch_fiber(save, bottom, size);
#else
    (void)save; (void)bottom; (void)size;
#endif
}

/* ASan: arrived on a stack whose fake stack was `saved`. */
static void switch_end(void *saved, const void **bottom_old, size_t *size_old)
{
#ifdef CORO_ASAN
    __sanitizer_finish_switch_fiber(saved, bottom_old, size_old);
#else
    (void)saved; (void)bottom_old; (void)size_old;
#endif
}

static void trampoline(transfer_t t)
{
    Coro *co = t.data;
    co->back = t.fctx;
    switch_end(NULL, &co->back_bottom, &co->back_size);
    co->fn(co->arg);
    co->done = true;
    switch_begin(NULL, co->back_bottom, co->back_size);
#ifdef CORO_TSAN
    __tsan_switch_to_fiber(co->back_fiber, 0);
#endif
    jump_fcontext(co->back, NULL);
    g_assert_not_reached();
}

/* The stack is its own mapping with a PROT_NONE guard page below it (the
 * stacks grow down): an overflow faults at once instead of writing over
 * whatever lies below. MAP_NORESERVE: pages are committed when touched. */
Coro *coro_new(void (*fn)(void *arg), void *arg, size_t stack_size)
{
    Coro *co = g_try_new0(Coro, 1);
    if (!co)
        return NULL;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    stack_size = (stack_size + page - 1) / page * page;
    co->map_size = stack_size + page;
    co->map = mmap(NULL, co->map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                   -1, 0);
    if (co->map == MAP_FAILED) {
        g_free(co);
        return NULL;
    }
    if (mprotect(co->map, page, PROT_NONE) != 0) {
        munmap(co->map, co->map_size);
        g_free(co);
        return NULL;
    }
    co->stack = (char *)co->map + page;
    co->fn = fn;
    co->arg = arg;
    co->stack_size = stack_size;
    co->self = make_fcontext((char *)co->stack + stack_size, stack_size, trampoline);
#ifdef CORO_TSAN
    co->fiber = __tsan_create_fiber(0);
#endif
    return co;
}

void coro_free(Coro *co)
{
    if (!co)
        return;
#ifdef CORO_TSAN
    __tsan_destroy_fiber(co->fiber);
#endif
    munmap(co->map, co->map_size);
    g_free(co);
}

const void *coro_stack_low(const Coro *co)
{
    return co->stack;
}

void coro_resume(Coro *co)
{
    g_assert(!co->done);
#ifdef CORO_TSAN
    co->back_fiber = __tsan_get_current_fiber();
#endif
    switch_begin(&co->sched_fake, co->stack, co->stack_size);
#ifdef CORO_TSAN
    __tsan_switch_to_fiber(co->fiber, 0);
#endif
    co->self = jump_fcontext(co->self, co).fctx;
    switch_end(co->sched_fake, NULL, NULL);
}

void coro_yield(Coro *co)
{
    switch_begin(&co->coro_fake, co->back_bottom, co->back_size);
#ifdef CORO_TSAN
    __tsan_switch_to_fiber(co->back_fiber, 0);
#endif
    co->back = jump_fcontext(co->back, NULL).fctx;
    switch_end(co->coro_fake, &co->back_bottom, &co->back_size);
}

bool coro_done(const Coro *co)
{
    return co->done;
}
