// SPDX-License-Identifier: GPL-2.0-or-later
/* summary_json.h — the run's summary.json (SPEC section 6): one compact
 * object, keys in the order of the SPEC, strings valid UTF-8 (base/json.h). */
#ifndef NOCPROF_SUMMARY_JSON_H
#define NOCPROF_SUMMARY_JSON_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

#include "profiler/model/run.h"

GString *summary_json(const RunInfo *run);
/* The same bytes written to f as they are made, never held whole (a core's
 * functions go out a MiB at a time; issue 24: 44 MB for 30,000 functions
 * on four cores); false when a write failed. */
bool summary_json_write(const RunInfo *run, FILE *f);

#endif
