/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * np_stdio.c - stdout/stderr on the core's console.
 *
 * Formatting is newlib's (vsnprintf: every conversion including %f/%e/%g,
 * %lld, C99 length modifiers); this file only moves the formatted bytes to
 * SYS CONSOLE.  Streams are unbuffered and every FILE (stdout, stderr, any
 * other) writes to the console, so nothing needs flushing.  Output longer
 * than 256 bytes from one printf call is formatted into a malloc'ed buffer.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "np_libc.h"

#define NP_PRINTF_BUF 256

int vprintf(const char *restrict fmt, va_list ap)
{
    char buf[NP_PRINTF_BUF];
    va_list aq;
    int n;

    va_copy(aq, ap);
    n = vsnprintf(buf, sizeof buf, fmt, aq);
    va_end(aq);
    if (n < 0)
        return n;
    if ((size_t)n < sizeof buf) {
        np_console_write(buf, (size_t)n);
    } else {
        char *big = malloc((size_t)n + 1);

        if (big == NULL)
            return EOF;
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        np_console_write(big, (size_t)n);
        free(big);
    }
    return n;
}

int printf(const char *restrict fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

int vfprintf(FILE *restrict fp, const char *restrict fmt, va_list ap)
{
    (void)fp;
    return vprintf(fmt, ap);
}

int fprintf(FILE *restrict fp, const char *restrict fmt, ...)
{
    va_list ap;
    int n;

    (void)fp;
    va_start(ap, fmt);
    n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

int putchar(int c)
{
    char ch = (char)c;

    np_console_write(&ch, 1);
    return (unsigned char)c;
}

int fputc(int c, FILE *fp)
{
    (void)fp;
    return putchar(c);
}

int putc(int c, FILE *fp)
{
    (void)fp;
    return putchar(c);
}

int puts(const char *s)
{
    np_console_write(s, strlen(s));
    np_console_write("\n", 1);
    return 1;
}

int fputs(const char *restrict s, FILE *restrict fp)
{
    (void)fp;
    np_console_write(s, strlen(s));
    return 1;
}

size_t fwrite(const void *restrict p, size_t size, size_t n, FILE *restrict fp)
{
    (void)fp;
    np_console_write(p, size * n);
    return n;
}

int fflush(FILE *fp)
{
    (void)fp;
    return 0;
}

void perror(const char *s)
{
    if (s != NULL && *s != '\0')
        printf("%s: %s\n", s, strerror(errno));
    else
        printf("%s\n", strerror(errno));
}
