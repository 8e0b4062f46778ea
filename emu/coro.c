/* coro.c — stackful coroutines on ucontext (see coro.h). */
#include "coro.h"

#include <glib.h>
#include <stdint.h>
#include <ucontext.h>

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
#include <dlfcn.h>
/* The fiber API below tells ASan about every switch; its own swapcontext
 * interceptor would only add a warning on stderr, so call libc's. */
static int (*real_swapcontext)(ucontext_t *, const ucontext_t *);
static int coro_swapcontext(ucontext_t *from, const ucontext_t *to)
{
    if (!real_swapcontext) {
        void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
        real_swapcontext = libc ? (int (*)(ucontext_t *, const ucontext_t *))dlsym(libc, "swapcontext") : NULL;
        if (!real_swapcontext)
            real_swapcontext = swapcontext;
    }
    return real_swapcontext(from, to);
}
#define swapcontext coro_swapcontext
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
    ucontext_t self, back;
    void (*fn)(void *arg);
    void *arg;
    void *stack;
    size_t stack_size;
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

static void trampoline(unsigned hi, unsigned lo)
{
    Coro *co = (Coro *)(((uintptr_t)hi << 31 << 1) | (uintptr_t)lo);
    switch_end(NULL, &co->back_bottom, &co->back_size);
    co->fn(co->arg);
    co->done = true;
    switch_begin(NULL, co->back_bottom, co->back_size);
#ifdef CORO_TSAN
    __tsan_switch_to_fiber(co->back_fiber, 0);
#endif
    setcontext(&co->back);
}

Coro *coro_new(void (*fn)(void *arg), void *arg, size_t stack_size)
{
    Coro *co = g_try_new0(Coro, 1);
    if (!co)
        return NULL;
    co->stack = g_try_malloc(stack_size);
    if (!co->stack) {
        g_free(co);
        return NULL;
    }
    co->fn = fn;
    co->arg = arg;
    co->stack_size = stack_size;
    getcontext(&co->self);
    co->self.uc_stack.ss_sp = co->stack;
    co->self.uc_stack.ss_size = stack_size;
    co->self.uc_link = NULL;
    uintptr_t p = (uintptr_t)co;
    makecontext(&co->self, (void (*)(void))trampoline, 2, (unsigned)(p >> 31 >> 1), (unsigned)p);
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
    g_free(co->stack);
    g_free(co);
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
    swapcontext(&co->back, &co->self);
    switch_end(co->sched_fake, NULL, NULL);
}

void coro_yield(Coro *co)
{
    switch_begin(&co->coro_fake, co->back_bottom, co->back_size);
#ifdef CORO_TSAN
    __tsan_switch_to_fiber(co->back_fiber, 0);
#endif
    swapcontext(&co->self, &co->back);
    switch_end(co->coro_fake, &co->back_bottom, &co->back_size);
}

bool coro_done(const Coro *co)
{
    return co->done;
}
