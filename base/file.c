// SPDX-License-Identifier: GPL-2.0-or-later
/* base/file.c — opening input files safely (see file.h). */
#include "base/file.h"
#include "base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int base_open_regular(const char *path, int code, GError **error)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int e = errno;
        g_set_error(error, NOCPROF_ERROR, code, "%s: cannot open: %s", path, g_strerror(e));
        return -1;
    }
    struct stat st = { 0 };
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const char *what = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
                         : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                         : S_ISSOCK(st.st_mode) ? "a socket" : "not a regular file";
        g_set_error(error, NOCPROF_ERROR, code, "%s: is %s, not a regular file", path, what);
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

gboolean base_read_regular(const char *path, gsize max_len, char **contents, gsize *len, int code,
                           GError **error)
{
    int fd = base_open_regular(path, code, error);
    if (fd < 0)
        return FALSE;
    GString *s = g_string_new(NULL);
    char buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            g_set_error(error, NOCPROF_ERROR, code, "%s: cannot read: %s", path, g_strerror(e));
            break;
        }
        if (n == 0) {
            close(fd);
            *len = s->len;
            *contents = g_string_free(s, FALSE);
            return TRUE;
        }
        if (s->len + (gsize)n > max_len) {
            g_set_error(error, NOCPROF_ERROR, code, "%s: larger than %" G_GSIZE_FORMAT " bytes", path,
                        max_len);
            break;
        }
        g_string_append_len(s, buf, n);
    }
    close(fd);
    g_string_free(s, TRUE);
    return FALSE;
}
