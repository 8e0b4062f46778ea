// SPDX-License-Identifier: GPL-2.0-or-later
/* num.c — unsigned numbers in decimal (see num.h). */
#include "base/num.h"

unsigned num_digits(uint64_t v)
{
    unsigned d = 1;
    for (; v >= 10; v /= 10)
        d++;
    return d;
}

char *num_put_u64(char *w, uint64_t v)
{
    unsigned n = num_digits(v);
    for (unsigned i = n; i-- > 0; v /= 10)
        w[i] = (char)('0' + v % 10);
    return w + n;
}

void num_append_u64(GString *o, uint64_t v)
{
    char buf[20];
    g_string_append_len(o, buf, num_put_u64(buf, v) - buf);
}
