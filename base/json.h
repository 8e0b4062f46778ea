// SPDX-License-Identifier: GPL-2.0-or-later
/* base/json.h — the project's one way to write JSON: json-glib's builder
 * and generator, with the few conventions every nocprof JSON file shares.
 *
 * - Strings are made valid UTF-8 first (each invalid byte becomes U+FFFD),
 *   so a symbol or a path with non-UTF-8 bytes still gives valid JSON;
 *   a NULL string is written as null.
 * - Measured fractions and statistics (npjson_double) carry 6 significant
 *   digits; a value that is not finite is null.
 * - Escaping is json-glib's; streaming writers that cannot afford a tree
 *   (trace.json) quote their strings with npjson_quote, which uses it too.
 */
#ifndef NOCPROF_BASE_JSON_H
#define NOCPROF_BASE_JSON_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdbool.h>
#include <stdint.h>

void npjson_string(JsonBuilder *b, const char *s);
void npjson_double(JsonBuilder *b, double v);

/* "name": value members of the object being built. */
void npjson_member_string(JsonBuilder *b, const char *name, const char *s);
void npjson_member_u64(JsonBuilder *b, const char *name, uint64_t v);
void npjson_member_i64(JsonBuilder *b, const char *name, int64_t v);
void npjson_member_double(JsonBuilder *b, const char *name, double v);
void npjson_member_bool(JsonBuilder *b, const char *name, bool v);
/* Starts an object or array member: end it with json_builder_end_*. */
void npjson_member_object(JsonBuilder *b, const char *name);
void npjson_member_array(JsonBuilder *b, const char *name);
/* A member whose value is node (taken: json-glib owns it afterwards). */
void npjson_member_node(JsonBuilder *b, const char *name, JsonNode *node);

/* The builder's document, compact, with a final newline. Frees b. */
GString *npjson_finish(JsonBuilder *b);

/* s as a JSON string literal (quotes included), newly allocated. */
char *npjson_quote(const char *s);

#endif
