// SPDX-License-Identifier: GPL-2.0-or-later
/* base/num.h — unsigned numbers in decimal, appended to text without a
 * printf: the reports write hundreds of thousands of them (issue 24: a
 * printf per number was most of callgrind.out's and report.html's source
 * data cost). The same digits as printf's "%" PRIu64. Inline: the folded
 * stacks and the flame data write one or three per calling context. */
#ifndef NOCPROF_BASE_NUM_H
#define NOCPROF_BASE_NUM_H

#include <glib.h>
#include <stdint.h>

/* The digits of v (1..20). */
static inline unsigned num_digits(uint64_t v)
{
    if (v < 100)   /* most */
        return v < 10 ? 1 : 2;
    unsigned d = 1;
    for (; v >= 10; v /= 10)
        d++;
    return d;
}

/* Writes v's digits at w (room for num_digits(v)), returns their end. */
static inline char *num_put_u64(char *w, uint64_t v)
{
    if (v < 10) {   /* most indices and offsets */
        *w = (char)('0' + v);
        return w + 1;
    }
    if (v < 100) {   /* most counts of deep recursion's contexts */
        w[0] = (char)('0' + v / 10);
        w[1] = (char)('0' + v % 10);
        return w + 2;
    }
    unsigned n = num_digits(v);
    for (unsigned i = n; i-- > 0; v /= 10)
        w[i] = (char)('0' + v % 10);
    return w + n;
}

/* Appends v to o. */
void num_append_u64(GString *o, uint64_t v);
/* Appends v right-aligned in width columns, as "%*" PRIu64 does. */
void num_append_u64_width(GString *o, uint64_t v, unsigned width);
/* Appends the n bytes of s right-aligned in width columns, as "%*s". */
void num_append_right(GString *o, const char *s, size_t n, unsigned width);

#endif
