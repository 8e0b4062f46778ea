// SPDX-License-Identifier: GPL-2.0-or-later
/* num.c — unsigned numbers in decimal (see num.h). */
#include "base/num.h"

void num_append_u64(GString *o, uint64_t v)
{
    char buf[20];
    g_string_append_len(o, buf, num_put_u64(buf, v) - buf);
}
