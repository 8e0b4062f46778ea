// SPDX-License-Identifier: GPL-2.0-or-later
/* base/json.h — the project's one way to write JSON: json-glib's builder
 * and generator, with the few conventions every nocprof JSON file shares
 * (docs/design.md "Adding an output format").
 *
 * - Writers are functions `void x_json(JsonBuilder *b, ...)` that add to
 *   the builder at its current position, through the npjson_* helpers
 *   below; a writer never returns a JsonNode tree.
 * - Strings are made valid UTF-8 first (each invalid byte becomes U+FFFD),
 *   so a symbol or a path with non-UTF-8 bytes still gives valid JSON;
 *   a NULL string is written as null.
 * - Measured fractions and statistics (npjson_double) carry 6 significant
 *   digits; a value that is not finite is null.
 * - Big or foreign parts are rendered apart to text (npjson_render, one
 *   function or one section at a time, so no tree ever holds them all) and
 *   placed into the document as fragments (npjson_fragment): the document
 *   is the bytes json-glib would write for the whole tree.
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

/* Values without a member name (array elements, or after
 * json_builder_set_member_name). */
void npjson_u64(JsonBuilder *b, uint64_t v);
void npjson_i64(JsonBuilder *b, int64_t v);
void npjson_null(JsonBuilder *b);
/* "name": null */
void npjson_member_null(JsonBuilder *b, const char *name);

/* The builder's document, compact, with a final newline. Frees b. */
GString *npjson_finish(JsonBuilder *b);

/* The builder's document as compact JSON text (no newline); the builder
 * is reset for the next one (json_builder_reset). */
char *npjson_render(JsonBuilder *b);

/* Fragments: JSON text rendered apart (npjson_render), added as a value.
 * The builder holds a marker string in its place; npjson_finish_fragments
 * writes the document with each marker replaced by its text. */
typedef struct NpJsonFragments NpJsonFragments;
NpJsonFragments *npjson_fragments_new(void);
/* Adds text (taken; valid JSON) as the next value. */
void npjson_fragment(JsonBuilder *b, NpJsonFragments *f, char *text);
/* npjson_finish(b) with the fragments in place. Frees b and f. */
GString *npjson_finish_fragments(JsonBuilder *b, NpJsonFragments *f);

/* s as a JSON string literal (quotes included), newly allocated. */
char *npjson_quote(const char *s);

#endif
