// SPDX-License-Identifier: GPL-2.0-or-later
/* base/name.c — escaping of names for line-based formats (see name.h). */
#include "base/name.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at s (2..4), or 0 if the byte at s
 * (>= 0x80) does not start one or starts a C1 control (U+0080-U+009F,
 * e.g. U+009B, CSI to some terminals). */
static size_t utf8_len(const unsigned char *s)
{
    const char *end = NULL;
    size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
    if (!g_utf8_validate((const char *)s, (gssize)strnlen((const char *)s, n), &end)
        || (size_t)((const unsigned char *)end - s) != n)
        return 0;
    return s[0] == 0xc2 && s[1] < 0xa0 ? 0 : n;
}

static bool plain_byte(unsigned char c, unsigned flags)
{
    if (c < 0x20 || c == 0x7f)
        return false;
    if ((flags & NAME_ESC_FOLDED) && (c == ';' || c == ' '))
        return false;
    return true;
}

bool name_needs_escape(const char *name, unsigned flags)
{
    const unsigned char *s = (const unsigned char *)name;
    while (*s) {
        if (*s < 0x80) {
            if (!plain_byte(*s, flags))
                return true;
            s++;
            continue;
        }
        size_t n = utf8_len(s);
        if (!n)
            return true;
        s += n;
    }
    return false;
}

void name_append(GString *out, const char *name, unsigned flags)
{
    const unsigned char *s = (const unsigned char *)name;
    while (*s) {
        const unsigned char *run = s;   /* bytes kept as they are, appended at once */
        for (size_t n; *s && (n = *s < 0x80 ? (plain_byte(*s, flags) ? 1 : 0) : utf8_len(s)) != 0;)
            s += n;
        if (s > run)
            g_string_append_len(out, (const char *)run, s - run);
        if (!*s)
            break;
        if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] < 0xa0) {
            g_string_append_printf(out, "\\x%02x\\x%02x", s[0], s[1]); /* C1 control */
            s += 2;
        } else {
            g_string_append_printf(out, "\\x%02x", *s);
            s++;
        }
    }
}

char *name_escaped(const char *name, unsigned flags)
{
    GString *o = g_string_sized_new(strlen(name) + 8);
    name_append(o, name, flags);
    return g_string_free(o, FALSE);
}

const char *name_safe(const char *name, unsigned flags, char **tmp)
{
    *tmp = NULL;
    if (!name || !name_needs_escape(name, flags))
        return name;
    *tmp = name_escaped(name, flags);
    return *tmp;
}

unsigned name_edit_distance(const char *a, const char *b, unsigned max)
{
    size_t la = strlen(a), lb = strlen(b);
    if ((la > lb ? la - lb : lb - la) > max || la > 256 || lb > 256)
        return max + 1;
    unsigned row[257];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0], best = row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned v = MIN(MIN(row[j] + 1, row[j - 1] + 1), diag + (g_ascii_tolower(a[i - 1]) != g_ascii_tolower(b[j - 1])));
            diag = up;
            row[j] = v;
            best = MIN(best, v);
        }
        if (best > max)
            return max + 1;
    }
    return row[lb];
}
