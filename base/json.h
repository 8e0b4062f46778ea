// SPDX-License-Identifier: GPL-2.0-or-later
/* base/json.h — the project's one way to write JSON: a streaming writer
 * (NpJson) into one GString, with the few conventions every nocprof JSON
 * file shares (docs/design.md "Adding to the house", JSON).  Reading JSON
 * is json-glib's parser.
 *
 * - Writers are functions `void x_json(NpJson *b, ...)` that write at the
 *   document's current position through the npjson_* calls below (one
 *   value, or members of the object being written); commas and colons are
 *   the writer's.  Nothing is built as a tree: memory is the text.
 * - The bytes are those json-glib's generator writes (compact; integers in
 *   decimal; doubles as g_ascii_dtostr with ".0" when they would read as
 *   an integer; json-glib's string escaping: \" \\ \b \f \n \r \t, other
 *   control bytes and 0x7f as \u00XX), except where json-glib 1.6 wrote
 *   invalid JSON (a raw 0x1f byte; "1e+20.0").
 * - Strings are made valid UTF-8 first (each invalid byte becomes U+FFFD),
 *   so a symbol or a path with non-UTF-8 bytes still gives valid JSON;
 *   a NULL string is written as null.
 * - Measured fractions and statistics (npjson_double) carry 6 significant
 *   digits; a value that is not finite is null.
 * - A part rendered elsewhere (another layer's section, as its text) is
 *   placed with npjson_raw / npjson_member_raw.
 */
#ifndef NOCPROF_BASE_JSON_H
#define NOCPROF_BASE_JSON_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

typedef struct NpJson NpJson;

NpJson *npjson_new(void);
/* The document, with a final newline. Frees b. */
GString *npjson_finish(NpJson *b);
/* A writer whose text goes to f as it is made (held at most about a MiB
 * at a time: summary.json of big firmware, issue 24); finish_file writes
 * the rest and the final newline, frees b, and says whether every write
 * succeeded. */
NpJson *npjson_new_file(FILE *f);
bool npjson_finish_file(NpJson *b);
/* The document's text, without newline (a section for npjson_raw, or
 * profile.data). Frees b. */
char *npjson_take(NpJson *b);
/* Discards an unfinished document (an error path). NULL is ignored. */
void npjson_free(NpJson *b);

/* Values (array elements, or the value of the member just named). */
void npjson_begin_object(NpJson *b);
void npjson_end_object(NpJson *b);
void npjson_begin_array(NpJson *b);
void npjson_end_array(NpJson *b);
void npjson_string(NpJson *b, const char *s);
void npjson_double(NpJson *b, double v);
void npjson_u64(NpJson *b, uint64_t v);
void npjson_i64(NpJson *b, int64_t v);
void npjson_bool(NpJson *b, bool v);
void npjson_null(NpJson *b);
/* json: one complete JSON value, written as it is. */
void npjson_raw(NpJson *b, const char *json);

/* "name": value members of the object being written. */
void npjson_member(NpJson *b, const char *name);  /* then one value */
void npjson_member_string(NpJson *b, const char *name, const char *s);
void npjson_member_u64(NpJson *b, const char *name, uint64_t v);
void npjson_member_i64(NpJson *b, const char *name, int64_t v);
void npjson_member_double(NpJson *b, const char *name, double v);
void npjson_member_bool(NpJson *b, const char *name, bool v);
void npjson_member_null(NpJson *b, const char *name);
void npjson_member_raw(NpJson *b, const char *name, const char *json);
/* Starts an object or array member: end it with npjson_end_*. */
void npjson_member_object(NpJson *b, const char *name);
void npjson_member_array(NpJson *b, const char *name);

/* s (NULL: "") as a JSON string literal, quotes included: appended to out,
 * or newly allocated. For streaming writers with their own layout
 * (trace.json, report.html's data). */
void npjson_append_quoted(GString *out, const char *s);
char *npjson_quote(const char *s);

/* Reading: json-glib's parser recurses once per nesting level, so 100,000
 * nested brackets overflow the stack. Whether text (NUL-terminated JSON)
 * nests at most max_depth arrays/objects deep; strings (with their
 * escapes) are skipped, nothing else is parsed. Check a file read back
 * before json-glib parses it. */
bool npjson_depth_ok(const char *text, int max_depth);

#endif
