// SPDX-License-Identifier: GPL-2.0-or-later
/* base/error.c — the project's GError domain. */
#include "base/error.h"

G_DEFINE_QUARK(nocprof-error-quark, nocprof_error)
