/* summary_json.h — the run's summary.json (SPEC section 6). */
#ifndef NOCPROF_SUMMARY_JSON_H
#define NOCPROF_SUMMARY_JSON_H

#include <glib.h>

#include "run.h"

GString *summary_json(const RunInfo *run);

/* JSON string literal of s (quoted, escaped), appended to out. */
void json_append_string(GString *out, const char *s);

#endif
