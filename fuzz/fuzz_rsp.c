// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_rsp.c — libFuzzer target: the GDB remote protocol's framing
 * (gdb/rsp.c), what `nocprof run --gdb` reads from the network: arbitrary
 * bytes fed one at a time, every complete packet unescaped, unhexed and
 * framed again. */
#include <stdint.h>
#include <string.h>

#include "gdb/rsp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    RspParser p;
    rsp_init(&p);
    for (size_t i = 0; i < size; i++) {
        GError *err = NULL;
        RspEvent ev = rsp_feed(&p, data[i], &err);
        g_clear_error(&err);
        if (ev != RSP_PACKET)
            continue;
        char *copy = g_memdup2(p.data->str, p.data->len);
        long n = rsp_unescape(copy, p.data->len);
        uint8_t *bin = g_malloc(p.data->len / 2 + 1);
        rsp_unhex(p.data->str, p.data->len & ~(size_t)1, bin);
        GString *f = rsp_frame(copy, n < 0 ? 0 : (size_t)n);
        g_string_free(f, TRUE);
        g_free(bin);
        g_free(copy);
    }
    rsp_clear(&p);
    return 0;
}
