// SPDX-License-Identifier: GPL-2.0-or-later
/* uc_check.h — the one place a Unicorn error becomes a GError.
 *
 *     if (!uc_check(uc_mem_map(...), error, "core %u: map RAM", id))
 *         goto fail;
 *
 * sets NOCPROF_ERROR / NOCPROF_ERROR_EMU "<what>: <uc_strerror>" and
 * returns false on any result but UC_ERR_OK. */
#ifndef NOCPROF_UC_CHECK_H
#define NOCPROF_UC_CHECK_H

#include <glib.h>
#include <stdarg.h>
#include <stdbool.h>
#include <unicorn/unicorn.h>

#include "base/error.h"

static inline bool uc_check(uc_err err, GError **error, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static inline bool uc_check(uc_err err, GError **error, const char *fmt, ...)
{
    if (err == UC_ERR_OK)
        return true;
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_EMU, "%s: %s", what, uc_strerror(err));
    return false;
}

#endif
