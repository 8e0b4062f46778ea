// SPDX-License-Identifier: GPL-2.0-or-later
/* rsp.c — the remote serial protocol's framing (rsp.h). */
#include "gdb/rsp.h"

#include "base/error.h"

enum { S_IDLE, S_DATA, S_CHECKSUM };

void rsp_init(RspParser *p)
{
    *p = (RspParser){ .state = S_IDLE, .data = g_string_new(NULL) };
}

void rsp_clear(RspParser *p)
{
    if (p->data)
        g_string_free(p->data, TRUE);
    p->data = NULL;
}

static int hexval(uint8_t c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

RspEvent rsp_feed(RspParser *p, uint8_t byte, GError **error)
{
    switch (p->state) {
    case S_IDLE:
        if (byte == '$') {
            g_string_truncate(p->data, 0);
            p->sum = 0;
            p->state = S_DATA;
            return RSP_NONE;
        }
        return byte == 0x03 ? RSP_INTERRUPT : byte == '+' ? RSP_ACK : byte == '-' ? RSP_NACK : RSP_NONE;
    case S_DATA:
        if (byte == '#') {
            p->state = S_CHECKSUM;
            p->ndigits = 0;
            p->given = 0;
            return RSP_NONE;
        }
        if (byte == '$') {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "'$' inside a packet");
            p->state = S_IDLE;
            return RSP_ERROR;
        }
        if (p->data->len >= RSP_MAX_PACKET) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "packet longer than %u bytes", RSP_MAX_PACKET);
            p->state = S_IDLE;
            return RSP_ERROR;
        }
        p->sum = (uint8_t)(p->sum + byte);
        g_string_append_c(p->data, (char)byte);
        return RSP_NONE;
    default: {
        int v = hexval(byte);
        if (v < 0) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE, "checksum digit 0x%02x is not hex", byte);
            p->state = S_IDLE;
            return RSP_ERROR;
        }
        p->given = (uint8_t)(p->given << 4 | v);
        if (++p->ndigits < 2)
            return RSP_NONE;
        p->state = S_IDLE;
        return p->given == p->sum ? RSP_PACKET : RSP_BAD_CHECKSUM;
    }
    }
}

GString *rsp_frame(const char *data, size_t len)
{
    GString *o = g_string_sized_new(len + 4);
    uint8_t sum = 0;
    g_string_append_c(o, '$');
    for (size_t i = 0; i < len; i++) {
        uint8_t c = (uint8_t)data[i];
        if (c == '#' || c == '$' || c == '}' || c == '*') {
            g_string_append_c(o, '}');
            sum = (uint8_t)(sum + '}');
            c ^= 0x20;
        }
        g_string_append_c(o, (char)c);
        sum = (uint8_t)(sum + c);
    }
    g_string_append_printf(o, "#%02x", sum);
    return o;
}

long rsp_unescape(char *data, size_t len)
{
    size_t out = 0;
    for (size_t i = 0; i < len; i++) {
        if (data[i] == '}') {
            if (++i == len)
                return -1;
            data[out++] = (char)(data[i] ^ 0x20);
        } else {
            data[out++] = data[i];
        }
    }
    return (long)out;
}

void rsp_hex(GString *out, const uint8_t *bytes, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        g_string_append_c(out, digits[bytes[i] >> 4]);
        g_string_append_c(out, digits[bytes[i] & 15]);
    }
}

bool rsp_unhex(const char *hex, size_t nhex, uint8_t *out)
{
    if (nhex % 2)
        return false;
    for (size_t i = 0; i < nhex; i += 2) {
        int a = hexval((uint8_t)hex[i]), b = hexval((uint8_t)hex[i + 1]);
        if (a < 0 || b < 0)
            return false;
        out[i / 2] = (uint8_t)(a << 4 | b);
    }
    return true;
}
