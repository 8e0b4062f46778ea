// SPDX-License-Identifier: GPL-2.0-or-later
/* base/error.h — the project's one GError domain.
 *
 * Library code reports failures as GError in NOCPROF_ERROR with one of the
 * codes below; only main() prints them and chooses the exit status from
 * the code (SPEC section 4).
 */
#ifndef NOCPROF_BASE_ERROR_H
#define NOCPROF_BASE_ERROR_H

#include <glib.h>

#define NOCPROF_ERROR (nocprof_error_quark())
GQuark nocprof_error_quark(void);

typedef enum {
    NOCPROF_ERROR_USAGE,   /* exit status 2 */
    NOCPROF_ERROR_CONFIG,  /* exit status 2 */
    NOCPROF_ERROR_ELF,     /* exit status 2 */
    NOCPROF_ERROR_IO,      /* reports could not be written: exit status 5 */
    NOCPROF_ERROR_EMU,     /* the emulator engine failed */
    NOCPROF_ERROR_DATA,    /* a saved profile (report/diff/merge) is unreadable */
} NocprofError;

#endif
