// SPDX-License-Identifier: GPL-2.0-or-later
/* num.c — unsigned numbers in decimal (see num.h). */
#include "base/num.h"

void num_append_u64(GString *o, uint64_t v)
{
    char buf[20];
    g_string_append_len(o, buf, num_put_u64(buf, v) - buf);
}

void num_append_right(GString *o, const char *s, size_t n, unsigned width)
{
    for (size_t k = n; k < width; k++)
        g_string_append_c(o, ' ');
    g_string_append_len(o, s, (gssize)n);
}

void num_append_u64_width(GString *o, uint64_t v, unsigned width)
{
    char buf[20];
    num_append_right(o, buf, (size_t)(num_put_u64(buf, v) - buf), width);
}
