// SPDX-License-Identifier: GPL-2.0-or-later
/* rsp.h — GDB's remote serial protocol, the framing only: a byte-at-a-time
 * parser of what gdb sends ($packet#cs, acks, the Ctrl-C byte) and the
 * encoders of replies. Plain data, no I/O: the libFuzzer target
 * fuzz/fuzz_rsp.c feeds it arbitrary bytes. */
#ifndef NOCPROF_GDB_RSP_H
#define NOCPROF_GDB_RSP_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* The largest packet accepted (and advertised as PacketSize). */
#define RSP_MAX_PACKET 16384u

typedef enum {
    RSP_NONE,          /* more bytes needed */
    RSP_PACKET,        /* a whole packet with a good checksum: parser->data */
    RSP_BAD_CHECKSUM,  /* a whole packet whose checksum is wrong (nack it) */
    RSP_INTERRUPT,     /* 0x03 outside a packet: gdb's Ctrl-C */
    RSP_ACK,           /* '+' */
    RSP_NACK,          /* '-': resend the last reply */
    RSP_ERROR,         /* malformed or oversized: *error says why */
} RspEvent;

typedef struct RspParser {
    int state;
    GString *data;     /* the payload of the last RSP_PACKET */
    uint8_t sum;
    unsigned ndigits;
    uint8_t given;
} RspParser;

void rsp_init(RspParser *p);
void rsp_clear(RspParser *p);
RspEvent rsp_feed(RspParser *p, uint8_t byte, GError **error);

/* "$data#cs" of a reply; data is escaped ('#', '$', '}', '*'). */
GString *rsp_frame(const char *data, size_t len);
/* Undo the '}' escapes of binary data (X packets) in place; the new
 * length, or -1 when an escape is cut off. */
long rsp_unescape(char *data, size_t len);
/* Lower-case hex of len bytes; and back (false on a non-hex digit or an
 * odd length). */
void rsp_hex(GString *out, const uint8_t *bytes, size_t len);
bool rsp_unhex(const char *hex, size_t nhex, uint8_t *out);

#endif
