// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_data_elf.c — finding the ELFs of saved profile data again and
 * checking that they are the ones that ran (content hash). */
#include "profiler/data/profile_data.h"

#include <string.h>

#include "profiler/model/symbols.h"

char *profile_data_file_sha256(const char *path, GError **error)
{
    char *text;
    gsize len;
    GError *err = NULL;
    if (!g_file_get_contents(path, &text, &len, &err)) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_DATA, "%s", err->message);
        g_error_free(err);
        return NULL;
    }
    char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
    g_free(text);
    return sum;
}

/* The first candidate path holding an ELF with the recorded content. */
static char *find_elf(const ProfileData *d, unsigned i, const char *out_dir, GError **error)
{
    g_autofree char *base = g_path_get_basename(d->cores[i].elf);
    char *cand[] = { d->elf_abs[i], (char *)d->cores[i].elf, g_build_filename(out_dir, "firmware", base, NULL) };
    char *found = NULL;
    g_autofree char *other = NULL;
    for (unsigned k = 0; k < G_N_ELEMENTS(cand) && !found; k++) {
        if (!g_file_test(cand[k], G_FILE_TEST_IS_REGULAR))
            continue;
        g_autofree char *sum = profile_data_file_sha256(cand[k], NULL);
        if (sum && strcmp(sum, d->elf_sha256[i]) == 0)
            found = g_strdup(cand[k]);
        else if (sum && !other)
            other = g_strdup_printf("%s has SHA-256 %s", cand[k], sum);
    }
    g_free(cand[2]);
    if (!found)
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_DATA,
                    "core %u: ELF %s with SHA-256 %s (the one that ran) not found%s%s", i, d->cores[i].elf,
                    d->elf_sha256[i], other ? ": " : " (looked at its path and in OUT/firmware/)",
                    other ? other : "");
    return found;
}

/* The profile's functions must be the ELF's, in symbols order. */
static bool same_functions(const Profile *p, const Symbols *s, unsigned core, const char *path, GError **error)
{
    unsigned n = symbols_count(s);
    bool ok = p->nfuncs == n + PROF_NPSEUDO;
    for (unsigned k = 0; ok && k < n; k++) {
        const SymFunc *f = symbols_func(s, k);
        ok = strcmp(f->name, p->funcs[k].name) == 0 && f->addr == p->funcs[k].addr && f->size == p->funcs[k].size;
    }
    if (!ok)
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_DATA,
                    "core %u: the functions of %s are not those of the saved profile", core, path);
    return ok;
}

bool profile_data_attach_elfs(ProfileData *d, const char *out_dir, GError **error)
{
    g_autoptr(GHashTable) by_hash = g_hash_table_new(g_str_hash, g_str_equal);
    for (unsigned i = 0; i < d->ncores; i++) {
        Profile *p = d->profs[i];
        if (!p)
            continue;
        Symbols *s = g_hash_table_lookup(by_hash, d->elf_sha256[i]);
        g_autofree char *path = find_elf(d, i, out_dir, error);
        if (!path)
            return false;
        if (!s) {
            GError *err = NULL;
            if (!(s = symbols_load_max(path, d->cfg.max_functions, &err))) {
                g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_DATA, "core %u: %s", i, err->message);
                g_error_free(err);
                return false;
            }
            g_ptr_array_add(d->symbols, s);
            g_hash_table_insert(by_hash, d->elf_sha256[i], s);
        }
        if (!same_functions(p, s, i, path, error))
            return false;
        p->syms = s;
    }
    return true;
}
