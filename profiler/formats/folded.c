/* folded.c — folded stacks of a calling-context tree (see folded.h). */
#include "folded.h"

void folded_append(GString *o, const Collector *col, const char *prefix)
{
    size_t nctx;
    const CollectorCtx *ctx = collector_contexts(col, &nctx);
    GPtrArray *path = g_ptr_array_new();
    for (size_t n = 0; n < nctx; n++) {
        const CollectorCtx *c = &ctx[n];
        if (!c->self)
            continue;
        g_ptr_array_set_size(path, 0);
        for (size_t k = n;; k = ctx[k].parent) {
            g_ptr_array_add(path, (gpointer)collector_func_name(col, ctx[k].func));
            if (k == 0)
                break;
        }
        if (prefix)
            g_string_append_printf(o, "%s;", prefix);
        for (unsigned i = path->len; i-- > 0;)
            g_string_append_printf(o, "%s%s", (const char *)g_ptr_array_index(path, i), i ? ";" : "");
        g_string_append_printf(o, " %" G_GUINT64_FORMAT "\n", c->self);
    }
    g_ptr_array_free(path, TRUE);
}
