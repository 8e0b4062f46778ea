// SPDX-License-Identifier: GPL-2.0-or-later
/* thread_safety.h — Clang's thread-safety analysis (-Wthread-safety):
 * which lock guards which data, which functions need it held, take it or
 * drop it. The macros expand to the attributes under clang and to nothing
 * elsewhere; scripts/test.sh builds the scheduler with clang
 * -Wthread-safety -Werror, so a guarded field used without its lock fails
 * the build. https://clang.llvm.org/docs/ThreadSafetyAnalysis.html */
#ifndef NOCPROF_THREAD_SAFETY_H
#define NOCPROF_THREAD_SAFETY_H

#if defined(__clang__)
#define NP_TSA(x) __attribute__((x))
#else
#define NP_TSA(x)
#endif

/* A type whose objects are locks (or stand for one: a capability token) */
#define NP_CAPABILITY(name) NP_TSA(capability(name))
/* A field read or written only with lock x held */
#define NP_GUARDED_BY(x) NP_TSA(guarded_by(x))
/* A pointer field whose target is read or written only with x held */
#define NP_PT_GUARDED_BY(x) NP_TSA(pt_guarded_by(x))
/* The function is called with the lock held and returns with it held */
#define NP_REQUIRES(...) NP_TSA(requires_capability(__VA_ARGS__))
/* ... called without it */
#define NP_EXCLUDES(...) NP_TSA(locks_excluded(__VA_ARGS__))
/* The function takes the lock and returns with it held */
#define NP_ACQUIRE(...) NP_TSA(acquire_capability(__VA_ARGS__))
/* The function drops the lock (held on entry) */
#define NP_RELEASE(...) NP_TSA(release_capability(__VA_ARGS__))
/* The function takes the lock when it returns `ret` */
#define NP_TRY_ACQUIRE(...) NP_TSA(try_acquire_capability(__VA_ARGS__))
/* Not analysed: the lock helpers themselves (pthread is not annotated) */
#define NP_NO_TSA NP_TSA(no_thread_safety_analysis)

#endif
