// SPDX-License-Identifier: GPL-2.0-or-later
/* console.c — what the cores print, as they print it: echoed on stdout as
 * `[coreN] line` (unless -q) and streamed into OUT/coreN/console.txt under
 * a temporary name, renamed when the run ends. Nothing holds the whole
 * console: a firmware printing gigabytes costs a 4 KiB line buffer per
 * core (emu/dev.h) and the first 64 KiB kept for profile.data
 * (docs/robustness.md). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cli/cli.h"

/* One console line on stdout as `[coreN] line`, with the bytes a terminal
 * would act on escaped as \xNN: control characters (escape sequences, a
 * carriage return, NUL) but tab, DEL, C1 controls and bytes that are not
 * UTF-8. console.txt keeps the raw bytes. */
static void echo_escaped(GString *o, const char *line, size_t len)
{
    const char *p = line, *end = line + len;
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (c >= 0x80) {
            gunichar u = g_utf8_get_char_validated(p, end - p);
            if (u != (gunichar)-1 && u != (gunichar)-2 && !(u >= 0x80 && u < 0xA0)) {
                const char *next = g_utf8_next_char(p);
                g_string_append_len(o, p, next - p);
                p = next;
                continue;
            }
        } else if ((c >= 0x20 && c != 0x7f) || c == '\t') {
            g_string_append_c(o, (char)c);
            p++;
            continue;
        }
        g_string_append_printf(o, "\\x%02x", c);
        p++;
    }
}

/* The echo stops for good at the first failed write: EPIPE (SIGPIPE is
 * ignored) when the reader went away, which is not an error; any other
 * error makes the status EXIT_REPORTS (cmd_run). */
static void echo_line(Echo *e, unsigned core, const char *line, size_t len)
{
    if (e->quiet || e->stopped || ++e->echoed <= e->mute)
        return;
    g_autoptr(GString) o = g_string_new(NULL);
    g_string_append_printf(o, "[core%u] ", core);
    echo_escaped(o, line, len);
    g_string_append_c(o, '\n');
    errno = 0;
    if (fwrite(o->str, 1, o->len, stdout) != o->len || fflush(stdout) != 0) {
        e->stopped = true;
        e->error = errno ? errno : EIO;
        fprintf(stderr, "nocprof: stdout: %s: console echo stopped (coreN/console.txt has it all)\n",
                g_strerror(e->error));
        clearerr(stdout);
    }
}

static char *console_path(const Echo *e, unsigned core)
{
    g_autofree char *sub = g_strdup_printf("core%u", core);
    return g_build_filename(e->out, sub, "console.txt", NULL);
}

static void file_failed(Echo *e, unsigned core, int err)
{
    g_autofree char *path = console_path(e, core);
    if (!e->file_error)
        e->file_error = g_error_new(NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: %s", path, g_strerror(err));
    if (e->files[core])
        fclose(e->files[core]);
    e->files[core] = NULL;
    if (e->tmp[core])
        g_unlink(e->tmp[core]);
}

/* Core `core`'s stream, opened (with OUT/coreN/) at its first byte. */
static FILE *stream_of(Echo *e, unsigned core)
{
    if (e->files[core] || e->file_error)
        return e->files[core];
    g_autofree char *path = console_path(e, core);
    g_autofree char *dir = g_path_get_dirname(path);
    e->tmp[core] = g_strdup_printf("%s.tmp-%d", path, (int)getpid());
    if (g_mkdir_with_parents(dir, 0755) != 0 || !(e->files[core] = fopen(e->tmp[core], "wb")))
        file_failed(e, core, errno);
    return e->files[core];
}

void cli_console_line(void *opaque, unsigned core, const char *line, size_t len, bool eol)
{
    Echo *e = opaque;
    echo_line(e, core, line, len);
    if (!e->files || core >= e->ncores)
        return;
    FILE *f = stream_of(e, core);
    if (f && (fwrite(line, 1, len, f) != len || (eol && fputc('\n', f) == EOF)))
        file_failed(e, core, errno ? errno : EIO);
}

void cli_console_start(Echo *e, const char *out, unsigned ncores)
{
    e->out = out;
    e->ncores = ncores;
    e->files = g_new0(FILE *, ncores);
    e->tmp = g_new0(char *, ncores);
}

bool cli_console_finish(Echo *e, GError **error)
{
    for (unsigned i = 0; e->files && i < e->ncores; i++) {
        if (!e->files[i]) {
            if (!e->file_error) { /* printed nothing: an empty console.txt */
                g_autofree char *sub = g_strdup_printf("core%u", i);
                g_autofree char *dir = g_build_filename(e->out, sub, NULL);
                if (g_mkdir_with_parents(dir, 0755) != 0)
                    file_failed(e, i, errno);
                else if (!cli_write_file(dir, "console.txt", "", 0, &e->file_error))
                    break;
            }
            continue;
        }
        FILE *f = e->files[i];
        e->files[i] = NULL;
        g_autofree char *path = console_path(e, i);
        int bad = fclose(f) != 0 ? errno : 0;
        if (!bad && cli_replace(e->tmp[i], path) != 0)
            bad = errno;
        if (bad)
            file_failed(e, i, bad);
    }
    if (e->file_error) {
        g_propagate_error(error, e->file_error);
        e->file_error = NULL;
        return false;
    }
    return true;
}

void cli_console_clear(Echo *e)
{
    for (unsigned i = 0; e->files && i < e->ncores; i++)
        if (e->files[i]) {
            fclose(e->files[i]);
            g_unlink(e->tmp[i]);
        }
    for (unsigned i = 0; e->tmp && i < e->ncores; i++)
        g_free(e->tmp[i]);
    g_free(e->files);
    g_free(e->tmp);
    g_clear_pointer(&e->at, g_free);
    g_clear_error(&e->file_error);
    e->files = NULL;
    e->tmp = NULL;
}

void cli_console_checkpoint(void *echo)
{
    Echo *e = echo;
    if (!e->at)
        e->at = g_new0(long, e->ncores);
    for (unsigned i = 0; e->files && i < e->ncores; i++) {
        FILE *f = stream_of(e, i);
        e->at[i] = f && fflush(f) == 0 ? ftell(f) : -1;
    }
}

uint64_t cli_console_mark(void *echo)
{
    Echo *e = echo;
    return MAX(e->echoed, e->mute);
}

void cli_console_resume(void *echo, uint64_t mark)
{
    Echo *e = echo;
    e->mute = mark;
    for (unsigned i = 0; e->files && e->at && i < e->ncores; i++)
        if (e->files[i] && e->at[i] >= 0
            && (ftruncate(fileno(e->files[i]), e->at[i]) != 0 || fseek(e->files[i], e->at[i], SEEK_SET) != 0))
            file_failed(e, i, errno);
}

GBytes *cli_console_data(const char *head, size_t len, uint64_t total)
{
    if (total <= len)
        return g_bytes_new(head, len);
    GString *g = g_string_new_len(head, (gssize)len);
    g_string_append_printf(g, CLI_CONSOLE_CUT "%" G_GUINT64_FORMAT " bytes printed, the first %zu kept in "
                           "profile.data; the run's coreN/console.txt has them all]\n", total, len);
    return g_string_free_to_bytes(g);
}

bool cli_console_is_cut(GBytes *data)
{
    gsize len;
    const char *p = data ? g_bytes_get_data(data, &len) : NULL;
    if (!p)
        return false;
    gsize from = len > 256 ? len - 256 : 0;
    return g_strstr_len(p + from, (gssize)(len - from), CLI_CONSOLE_CUT) != NULL;
}
