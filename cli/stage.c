// SPDX-License-Identifier: GPL-2.0-or-later
/* stage.c — a command's new files are written beside the old ones under
 * temporary names and renamed into place together at the end (issue
 * 20.2): an interrupted or aborted command leaves the folder's previous
 * complete set, never a mix or a folder without its summary. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

struct CliStage {
    GPtrArray *tmp, *final;    /* staged files, in the order written */
    GHashTable *seen;          /* final path -> its index + 1 */
    GHashTable *failed;        /* final paths whose last write failed */
    GHashTable *done;          /* final paths renamed (or dropped) by this commit */
};

CliStage *cli_stage_new(void)
{
    CliStage *s = g_new0(CliStage, 1);
    s->tmp = g_ptr_array_new_with_free_func(g_free);
    s->final = g_ptr_array_new_with_free_func(g_free);
    s->seen = g_hash_table_new(g_str_hash, g_str_equal);
    s->failed = g_hash_table_new(g_str_hash, g_str_equal);
    s->done = g_hash_table_new(g_str_hash, g_str_equal);
    return s;
}

FILE *cli_stage_open(CliStage *s, const char *dir, const char *name, GError **error)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    guint at = GPOINTER_TO_UINT(g_hash_table_lookup(s->seen, path));
    if (!at) {
        g_autofree char *tmp = g_strdup_printf("%s.tmp-%d", path, (int)getpid());
        cli_signals_track(tmp);
        g_ptr_array_add(s->tmp, g_steal_pointer(&tmp));
        g_ptr_array_add(s->final, g_strdup(path));
        at = s->final->len;
        g_hash_table_insert(s->seen, g_ptr_array_index(s->final, at - 1), GUINT_TO_POINTER(at));
    }
    const char *final = g_ptr_array_index(s->final, at - 1);
    FILE *f = fopen(g_ptr_array_index(s->tmp, at - 1), "wb");
    g_hash_table_remove(s->done, final);   /* staged again: renamed again */
    if (f) {
        g_hash_table_remove(s->failed, final);
    } else {
        g_hash_table_add(s->failed, (gpointer)final);
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: %s", path, g_strerror(errno));
    }
    return f;
}

const char *cli_stage_path(CliStage *s, const char *dir, const char *name)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    guint at = GPOINTER_TO_UINT(g_hash_table_lookup(s->seen, path));
    return at ? g_ptr_array_index(s->tmp, at - 1) : NULL;
}

/* A file not written whole (a full disk, the file size limit) is not
 * renamed into place: cli_stage_commit removes it and the previous file
 * of its name (which would not belong to the new set). */
bool cli_stage_close(CliStage *s, const char *dir, const char *name, FILE *f, bool ok, GError **error)
{
    int e = ok ? 0 : errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        g_autofree char *path = g_build_filename(dir, name, NULL);
        guint at = GPOINTER_TO_UINT(g_hash_table_lookup(s->seen, path));
        if (at)
            g_hash_table_add(s->failed, g_ptr_array_index(s->final, at - 1));
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: %s", path, g_strerror(e ? e : EIO));
    }
    return ok;
}

bool cli_stage_put(CliStage *s, const char *dir, const char *name, const char *data, gsize len, GError **error)
{
    FILE *f = cli_stage_open(s, dir, name, error);
    return f && cli_stage_close(s, dir, name, f, fwrite(data, 1, len, f) == len, error);
}

void cli_stage_discard(CliStage *s)
{
    for (guint i = 0; i < s->tmp->len; i++)
        unlink(g_ptr_array_index(s->tmp, i));
    g_hash_table_remove_all(s->failed);
    g_hash_table_remove_all(s->done);
    g_ptr_array_set_size(s->tmp, 0);
    g_ptr_array_set_size(s->final, 0);
    g_hash_table_remove_all(s->seen);
    cli_signals_untrack_all();
}

/* Rename the staged files that are (tail) or are not among last into
 * place, each once. One that cannot be renamed (a folder of its name, an
 * immutable file) costs only itself: the others still replace the earlier
 * run's (stopping there mixed the two runs' files). */
static bool rename_pass(CliStage *s, GHashTable *last, bool tail, GError **error)
{
    bool ok = true;
    for (guint i = 0; i < s->tmp->len; i++) {
        const char *tmp = g_ptr_array_index(s->tmp, i), *path = g_ptr_array_index(s->final, i);
        if ((last && g_hash_table_contains(last, path)) != tail || g_hash_table_contains(s->done, path))
            continue;
        g_hash_table_add(s->done, (gpointer)path);
        if (g_hash_table_contains(s->failed, path)) { /* its error is the caller's already */
            unlink(tmp);
            unlink(path);
            continue;
        }
        if (cli_replace(tmp, path) != 0) {
            if (error && !*error)
                g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: %s", path, g_strerror(errno));
            ok = false;
            unlink(tmp);
        }
    }
    return ok;
}

bool cli_stage_commit_last(CliStage *s, bool stop_on_signal, const char *const *last, CliStageHook hook,
                           void *data, GError **error)
{
    /* no signal between the renames: the set changes as a whole (the
     * handler ignores signals once frozen; blocking them here keeps this
     * thread's renames from being cut by one) */
    cli_signals_freeze();
    if (stop_on_signal && cli_signal_status()) {
        cli_stage_discard(s);
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "interrupted by %s: nothing was replaced",
                    cli_signal_name(cli_signal_status()));
        return false;
    }
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    g_autoptr(GHashTable) tail = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (const char *const *l = last; l && *l; l++)
        g_hash_table_add(tail, g_strdup(*l));
    bool ok = rename_pass(s, tail, false, error);
    bool hook_ok = !hook || hook(data, ok);
    bool tail_ok = rename_pass(s, tail, true, error);
    if (!tail_ok && ok && hook_ok && hook) {
        /* a summary that could not be renamed: the others say status 5 */
        hook(data, false);
        rename_pass(s, tail, true, NULL);
    }
    g_hash_table_remove_all(s->failed);
    g_hash_table_remove_all(s->done);
    g_ptr_array_set_size(s->tmp, 0);
    g_ptr_array_set_size(s->final, 0);
    g_hash_table_remove_all(s->seen);
    cli_signals_untrack_all();
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ok && hook_ok && tail_ok;
}

bool cli_stage_commit(CliStage *s, bool stop_on_signal, GError **error)
{
    return cli_stage_commit_last(s, stop_on_signal, NULL, NULL, NULL, error);
}

void cli_stage_free(CliStage *s)
{
    if (!s)
        return;
    cli_stage_discard(s);
    g_ptr_array_unref(s->tmp);
    g_ptr_array_unref(s->final);
    g_hash_table_unref(s->seen);
    g_hash_table_unref(s->failed);
    g_hash_table_unref(s->done);
    g_free(s);
}
