// SPDX-License-Identifier: GPL-2.0-or-later
/* engine.h — the Unicorn library nocprof runs on.
 *
 * nocprof's exactness rests on properties of one Unicorn release (2.1.1,
 * docs/design.md "Coroutines": engine runs interleaved on one thread through
 * switches inside MMIO callbacks, a suspended run resumed on another thread,
 * QEMU's random state as libunicorn's only thread-local variable). Another
 * release is refused at start-up unless NOCPROF_ALLOW_UNICORN=1 is set. */
#ifndef NOCPROF_ENGINE_H
#define NOCPROF_ENGINE_H

#include <glib.h>
#include <stdbool.h>

/* The release the design was validated on. */
#define ENGINE_UNICORN_MAJOR 2u
#define ENGINE_UNICORN_MINOR 1u
#define ENGINE_UNICORN_PATCH 1u

/* The loaded libunicorn's version, "MAJOR.MINOR.PATCH" (uc_version()). */
char *engine_unicorn_version(void);
/* The loaded libunicorn is the validated release, or NOCPROF_ALLOW_UNICORN
 * is set to 1 (then *warning, if not NULL, gets a note to print).
 * Error: NOCPROF_ERROR_USAGE naming both versions and the override. */
bool engine_check_unicorn(char **warning, GError **error);

#endif
