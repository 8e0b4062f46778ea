// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_data_elf.c — finding the ELFs of saved profile data again and
 * checking that they are the ones that ran (content hash). */
#include "profiler/data/profile_data.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "profiler/model/symbols.h"

/* In pieces through a regular file's descriptor (base_open_regular: no
 * FIFO, no device, no blocking): an ELF candidate named by untrusted
 * profile.data may be any size (1 GiB was read whole to hash it). */
char *profile_data_file_sha256(const char *path, GError **error)
{
    int fd = base_open_regular(path, NOCPROF_ERROR_DATA, error);
    if (fd < 0)
        return NULL;
    g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
    g_autofree guchar *buf = g_malloc(1 << 20);
    for (;;) {
        ssize_t n = read(fd, buf, 1 << 20);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_DATA, "%s: cannot read: %s", path, g_strerror(e));
            return NULL;
        }
        if (n == 0)
            break;
        g_checksum_update(sum, buf, n);
    }
    close(fd);
    return g_strdup(g_checksum_get_string(sum));
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
