// SPDX-License-Identifier: GPL-2.0-or-later
/* base/file.h — opening input files (firmware ELFs, configurations,
 * saved profiles) safely.
 *
 * An input must be a regular file: a FIFO, a device or a directory given as
 * firmware or configuration would block in open() or read() forever, or
 * read garbage. base_open_regular() opens without blocking (O_NONBLOCK),
 * checks with fstat() that it is a regular file, and only then returns the
 * descriptor (blocking mode restored).
 */
#ifndef NOCPROF_BASE_FILE_H
#define NOCPROF_BASE_FILE_H

#include <glib.h>

/* A read-only descriptor of path, or -1 with *error set (code `code` of
 * NOCPROF_ERROR; the message names the file). */
int base_open_regular(const char *path, int code, GError **error);

/* The whole regular file in *contents (NUL-terminated), like
 * g_file_get_contents, but refusing anything that is not a regular file or
 * is larger than max_len bytes. */
gboolean base_read_regular(const char *path, gsize max_len, char **contents, gsize *len, int code,
                           GError **error);

#endif
