// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_data_comm.h — the trace flows of the communication profile in
 * profile.data (profile_data_comm.c); private to profiler/data. */
#ifndef NOCPROF_PROFILE_DATA_COMM_H
#define NOCPROF_PROFILE_DATA_COMM_H

#include <glib.h>
#include <stdbool.h>

#include "profiler/comm/comm_report.h"

/* c's flows (none when c is NULL) as an "a" PD_FLOW value (floating),
 * and in *names (floating "as") the function names it indexes. */
GVariant *pd_enc_flows(const CommReport *c, GVariant **names);
/* Replace c's per-core flows with the saved ones. NULL when they are
 * good; else what is wrong (newly allocated), c's flows unchanged. c may
 * be NULL (no communication profile): then there must be no flows. */
char *pd_dec_flows(CommReport *c, GVariant *names, GVariant *flows);

/* The communication profile's JSON is read by json-glib, whose parser
 * recurses once per nesting level: 100,000 nested brackets overflow the
 * stack. Its real depth is 5 (report, cores, core, functions, function). */
#define PD_COMM_MAX_DEPTH 32
/* (checked with npjson_depth_ok, base/json.h) */

#endif
