// SPDX-License-Identifier: GPL-2.0-or-later
/* summary_json.h — the run's summary.json (SPEC section 6): one compact
 * object, keys in the order of the SPEC, strings valid UTF-8 (base/json.h). */
#ifndef NOCPROF_SUMMARY_JSON_H
#define NOCPROF_SUMMARY_JSON_H

#include <glib.h>

#include "profiler/model/run.h"

GString *summary_json(const RunInfo *run);

#endif
