// SPDX-License-Identifier: GPL-2.0-or-later
/* base/name.h — names (symbols, source files) made safe for line-based
 * output formats (FORMATS.md, docs/reports.md "Names and escaping").
 *
 * A name from an ELF is bytes chosen by whoever built it: a newline would
 * split a line of flat.txt and forge a record in callgrind.out, a `;` would
 * add a frame to stacks.folded, an ESC byte would reach the terminal. The
 * escaped form writes every control byte (0x00-0x1f, 0x7f), both bytes of
 * a C1 control character (U+0080-U+009F) and every byte that is not part
 * of valid UTF-8 as `\xNN` (two lower-case hex digits),
 * and with NAME_ESC_FOLDED also `;` and space (frame separator; a trailing
 * ` 12` would read as a second count). Other bytes, backslash included,
 * are kept, so escaping is idempotent: escaping an escaped name changes
 * nothing, and a name with nothing to escape is returned as it is.
 */
#ifndef NOCPROF_BASE_NAME_H
#define NOCPROF_BASE_NAME_H

#include <glib.h>
#include <stdbool.h>

enum {
    NAME_ESC_TEXT = 0,        /* control bytes and invalid UTF-8 */
    NAME_ESC_FOLDED = 1u << 0 /* also ';' and ' ' (folded stacks) */
};

/* Whether name has a byte that `flags` escapes. */
bool name_needs_escape(const char *name, unsigned flags);

/* Appends name, escaped, to out. */
void name_append(GString *out, const char *name, unsigned flags);

/* A newly allocated escaped copy (g_free it). */
char *name_escaped(const char *name, unsigned flags);

/* name itself when nothing needs escaping, else an escaped copy stored in
 * *tmp (which the caller frees; NULL otherwise): for printf-style output
 * without an allocation per clean name. */
const char *name_safe(const char *name, unsigned flags, char **tmp);

/* Levenshtein distance of a and b, ASCII case ignored, stopping early past
 * max (then max + 1): "did you mean" suggestions. */
unsigned name_edit_distance(const char *a, const char *b, unsigned max);

#endif
