// SPDX-License-Identifier: GPL-2.0-or-later
/* base/num.h — unsigned numbers in decimal, appended to text without a
 * printf: the reports write hundreds of thousands of them (issue 24: a
 * printf per number was most of callgrind.out's and report.html's source
 * data cost). The same digits as printf's "%" PRIu64. */
#ifndef NOCPROF_BASE_NUM_H
#define NOCPROF_BASE_NUM_H

#include <glib.h>
#include <stdint.h>

/* The digits of v (1..20). */
unsigned num_digits(uint64_t v);

/* Writes v's digits at w (room for num_digits(v)), returns their end. */
char *num_put_u64(char *w, uint64_t v);

/* Appends v to o. */
void num_append_u64(GString *o, uint64_t v);

#endif
