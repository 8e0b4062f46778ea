// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_data_comm.c — the communication profile's trace flows in
 * profile.data: a fixed-size GVariant array (PD_FLOW) written from and read
 * into a C array, and the function names it indexes. The rest of the
 * communication profile is saved as its JSON text (comm_json(r, true));
 * the flows are the bulk of it (one per packet, up to --trace-limit), and
 * as JSON objects they cost more than the whole remaining profile.data. */
#include "profiler/data/profile_data_comm.h"

#include "profiler/data/profile_data_types.h"

GVariant *pd_enc_flows(const CommReport *c, GVariant **names)
{
    /* by address: the report's names are interned (one string, one index; a
     * name at two addresses would only be stored twice) */
    g_autoptr(GHashTable) index = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_autoptr(GPtrArray) list = g_ptr_array_new();
    size_t n = 0;
    for (unsigned i = 0; c && i < c->ncores; i++)
        n += c->cores[i].nflows;
    g_autofree PdFlow *a = g_new0(PdFlow, n + 1);
    size_t k = 0;
    for (unsigned i = 0; c && i < c->ncores; i++)
        for (size_t j = 0; j < c->cores[i].nflows; j++) {
            const CommFlow *f = &c->cores[i].flows[j];
            const char *fn[2] = { f->send_func ? f->send_func : "??", f->recv_func ? f->recv_func : "??" };
            guint32 ix[2];
            for (unsigned w = 0; w < 2; w++) {
                gpointer v;
                if (!g_hash_table_lookup_extended(index, fn[w], NULL, &v)) {
                    v = GUINT_TO_POINTER(list->len);
                    g_hash_table_insert(index, (gpointer)fn[w], v);
                    g_ptr_array_add(list, (gpointer)fn[w]);
                }
                ix[w] = GPOINTER_TO_UINT(v);
            }
            a[k++] = (PdFlow){ .dst = i, .src = f->src, .send_name = ix[0], .recv_name = ix[1],
                               .ts = f->ts, .td = f->td, .tc = f->tc };
        }
    *names = g_variant_new_strv((const char *const *)list->pdata, list->len);
    return g_variant_new_fixed_array(G_VARIANT_TYPE(PD_FLOW), a, n, sizeof(PdFlow));
}

char *pd_dec_flows(CommReport *c, GVariant *names, GVariant *flows)
{
    gsize nn, n;
    g_autofree const char **nm = g_variant_get_strv(names, &nn);
    const PdFlow *a = g_variant_get_fixed_array(flows, &n, sizeof(PdFlow));
    if (!c)
        return n || nn ? g_strdup("flows without a communication profile") : NULL;
    g_autofree size_t *count = g_new0(size_t, c->ncores + 1);
    for (gsize k = 0; k < n; k++) {
        if (a[k].dst >= c->ncores || a[k].src >= c->ncores || (k && a[k].dst < a[k - 1].dst))
            return g_strdup_printf("[%" G_GSIZE_FORMAT "]: cores %u -> %u (cores 0 .. %u, grouped by receiver)", k,
                                   a[k].src, a[k].dst, c->ncores - 1);
        if (a[k].send_name >= nn || a[k].recv_name >= nn)
            return g_strdup_printf("[%" G_GSIZE_FORMAT "]: function names %u, %u of %" G_GSIZE_FORMAT, k,
                                   a[k].send_name, a[k].recv_name, nn);
        count[a[k].dst]++;
    }
    for (gsize j = 0; j < nn; j++)
        nm[j] = g_string_chunk_insert_const(c->strings, nm[j]);
    for (unsigned i = 0; i < c->ncores; i++) {
        g_free(c->cores[i].flows);
        c->cores[i].flows = g_new0(CommFlow, count[i] + 1);
        c->cores[i].nflows = 0;
    }
    for (gsize k = 0; k < n; k++) {
        CommCoreReport *cr = &c->cores[a[k].dst];
        cr->flows[cr->nflows++] = (CommFlow){ .src = a[k].src, .ts = a[k].ts, .td = a[k].td, .tc = a[k].tc,
                                              .send_func = nm[a[k].send_name], .recv_func = nm[a[k].recv_name] };
    }
    return NULL;
}
