// SPDX-License-Identifier: GPL-2.0-or-later
/* folded.c — folded stacks of a calling-context tree (see folded.h). */
#include "profiler/formats/folded.h"

#include <stdio.h>
#include <string.h>

#include "base/name.h"
#include "base/num.h"

/* The folded tree: each calling context maps to a node of a smaller tree in
 * which a function appears at most `fold` times on any path (deeper levels
 * are merged into the deepest kept one), so totals stay exact. */
typedef FoldedNode FoldNode;

/* While the tree is made and its children looked up: a node's first
 * child, the next of its parent's (NONE: no more), how many (apart from
 * the nodes, which keep 24 bytes each: issue 24's page faults). */
typedef struct FoldKids {
    unsigned kid, sib, nkids;
} FoldKids;

#define NONE G_MAXUINT
/* A node's children are found by a walk of their list while they are at
 * most this many (deep recursion: one or two each), then by the index
 * (a main calling thousands of functions). */
#define FEW_KIDS 8u

static guint key_hash(gconstpointer key)
{
    guint64 k = (guint64)GPOINTER_TO_SIZE(key);
    return (guint)((k * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15)) >> 32);
}

#define NODE(fn, i) (&g_array_index((fn), FoldNode, (i)))

/* How many times func is on the folded path ending at node n. */
static unsigned occurrences(const GArray *fn, unsigned n, unsigned func)
{
    unsigned c = 0;
    for (;; n = NODE(fn, n)->parent) {
        c += NODE(fn, n)->func == func;
        if (n == 0)
            return c;
    }
}

static gpointer kid_key(unsigned p, unsigned f)
{
    return GSIZE_TO_POINTER(((guint64)p << 32) | f);
}

/* p's child for function f, or NONE. */
static unsigned kid_find(const GArray *fn, const FoldKids *kids, GHashTable *index, unsigned p, unsigned f)
{
    if (kids[p].nkids > FEW_KIDS) {
        gpointer v;
        return g_hash_table_lookup_extended(index, kid_key(p, f), NULL, &v) ? GPOINTER_TO_UINT(v) : NONE;
    }
    for (unsigned k = kids[p].kid; k != NONE; k = kids[k].sib)
        if (NODE(fn, k)->func == f)
            return k;
    return NONE;
}

/* A new node n (fn has room: its final length is set at the end): child
 * of p for function f, listed among p's children when kids (the
 * children are looked up). */
static unsigned kid_add(GArray *fn, FoldKids *kids, GHashTable *index, unsigned n, unsigned p, unsigned f)
{
    *NODE(fn, n) = (FoldNode){ .parent = p, .func = f, .depth = NODE(fn, p)->depth + 1 };
    if (!kids)
        return n;
    kids[n] = (FoldKids){ .kid = NONE, .sib = kids[p].kid };
    FoldKids *q = &kids[p];
    q->kid = n;
    if (++q->nkids == FEW_KIDS + 1)   /* from now on by the index */
        for (unsigned k = n; k != NONE; k = kids[k].sib)
            g_hash_table_insert(index, kid_key(p, NODE(fn, k)->func), GUINT_TO_POINTER(k));
    else if (q->nkids > FEW_KIDS + 1)
        g_hash_table_insert(index, kid_key(p, f), GUINT_TO_POINTER(n));
    return n;
}

/* Folded node of every context, in a tree of fn (node 0 = root); the
 * deepest node's depth in *max_depth. */
static GArray *fold_tree(const ProfCtx *ctx, size_t nctx, unsigned fold, bool distinct, unsigned *max_depth)
{
    unsigned deepest = 1;
    bool find = fold || !distinct;
    GArray *fn = g_array_sized_new(FALSE, FALSE, sizeof(FoldNode), (guint)nctx);
    g_array_set_size(fn, (guint)nctx);   /* at most one node per context */
    unsigned len = 1;
    g_autofree unsigned *map = g_new(unsigned, nctx ? nctx : 1);
    g_autofree FoldKids *kids = find ? g_new(FoldKids, nctx) : NULL;
    GHashTable *index = find ? g_hash_table_new(key_hash, g_direct_equal) : NULL;
    *NODE(fn, 0) = (FoldNode){ .parent = 0, .func = ctx[0].func, .depth = 1, .self = ctx[0].self };
    if (kids)
        kids[0] = (FoldKids){ .kid = NONE, .sib = NONE };
    map[0] = 0;
    for (size_t n = 1; n < nctx; n++) {
        unsigned p = map[ctx[n].parent], f = ctx[n].func;
        /* Unfolded, a node short of the depth cut stands for one context,
         * whose children are distinct functions (the collector's tree): a
         * new node each, never found (issue 24: the lookups and index of
         * 66,000 contexts). */
        unsigned k = find ? kid_find(fn, kids, index, p, f) : NONE;
        if (k != NONE)
            map[n] = k;
        else if (NODE(fn, p)->depth >= FOLDED_MAX_DEPTH || (fold && occurrences(fn, p, f) >= fold))
            map[n] = p;   /* too deep: charged to the deepest kept frame */
        else {
            map[n] = kid_add(fn, kids, index, len++, p, f);
            deepest = MAX(deepest, NODE(fn, map[n])->depth);
        }
        NODE(fn, map[n])->self += ctx[n].self;
    }
    *max_depth = deepest;
    if (index)
        g_hash_table_destroy(index);
    g_array_set_size(fn, len);
    return fn;
}

struct Folded {
    const Profile *p;
    GArray *nodes;             /* FoldNode */
    uint64_t *subtree;         /* [nodes] self + every descendant's self, made
                                * for the first cut (NULL: none yet) */
    uint64_t *pathlen;         /* [nodes] bytes of the escaped path */
    char **names;              /* [funcs] escaped name, made once (NULL: on no path) */
    size_t *namelen;           /* [funcs] its length */
    unsigned max_depth;
    /* uncut (depth >= max_depth: every count is the node's self), the
     * lines and their bytes without the prefix, counted as the tree is
     * made (folded_bytes walked the nodes again) */
    uint64_t full_lines, full_bytes;
    /* folded_bytes' last answer (folded_write sizes its text with it:
     * cli/write.c asked it already for the same cut) */
    bool sized;
    unsigned sized_depth;
    uint64_t sized_pre, sized_bytes;
};

Folded *folded_new(const Profile *p, unsigned fold)
{
    Folded *f = g_new0(Folded, 1);
    f->p = p;
    f->nodes = p->nctxs ? fold_tree(p->ctxs, p->nctxs, fold, p->ctxs_distinct, &f->max_depth)
                        : g_array_new(FALSE, FALSE, sizeof(FoldNode));
    unsigned n = f->nodes->len;
    f->pathlen = g_new(uint64_t, n ? n : 1);
    f->names = g_new0(char *, p->nfuncs ? p->nfuncs : 1);
    f->namelen = g_new0(size_t, p->nfuncs ? p->nfuncs : 1);
    for (unsigned i = 0; i < n; i++) {   /* parents come first */
        const FoldNode *c = &g_array_index(f->nodes, FoldNode, i);
        if (!f->names[c->func]) {
            f->names[c->func] = name_escaped(p->funcs[c->func].name, NAME_ESC_FOLDED);
            f->namelen[c->func] = strlen(f->names[c->func]);
        }
        f->pathlen[i] = (i ? f->pathlen[c->parent] + 1 : 0) + f->namelen[c->func];
        if (c->self) {
            f->full_lines++;
            f->full_bytes += f->pathlen[i] + 1 + num_digits(c->self) + 1;
        }
    }
    return f;
}

/* The subtrees' cycles, made when a cut needs them (uncut, every count is
 * a node's self: 8 bytes a node and a pass less; issue 24). */
static const uint64_t *subtrees(Folded *f)
{
    if (!f->subtree) {
        unsigned n = f->nodes->len;
        f->subtree = g_new(uint64_t, n ? n : 1);
        for (unsigned i = 0; i < n; i++)
            f->subtree[i] = NODE(f->nodes, i)->self;
        for (unsigned i = n; i-- > 1;)
            f->subtree[NODE(f->nodes, i)->parent] += f->subtree[i];
    }
    return f->subtree;
}

void folded_free(Folded *f)
{
    if (!f)
        return;
    g_array_free(f->nodes, TRUE);
    g_free(f->subtree);
    g_free(f->pathlen);
    for (unsigned i = 0; i < f->p->nfuncs; i++)
        g_free(f->names[i]);
    g_free(f->names);
    g_free(f->namelen);
    g_free(f);
}

unsigned folded_max_depth(const Folded *f)
{
    return f->max_depth;
}

/* The count node i prints with paths cut at depth frames: its own cycles,
 * or at the cut its whole subtree's; 0 = no line. */
static uint64_t node_count(const Folded *f, const uint64_t *sub, unsigned i, unsigned depth)
{
    return folded_node_count((const FoldedNode *)(void *)f->nodes->data, sub, i, depth);
}

unsigned folded_nodes(const Folded *f)
{
    return f->nodes->len;
}

unsigned folded_funcs(const Folded *f)
{
    return f->p->nfuncs;
}

const FoldedNode *folded_node_array(const Folded *f)
{
    return (const FoldedNode *)(void *)f->nodes->data;
}

const uint64_t *folded_subtrees(Folded *f, unsigned depth)
{
    return depth < f->max_depth ? subtrees(f) : NULL;
}

const char *folded_name(const Folded *f, unsigned func, size_t *len)
{
    *len = f->namelen[func];
    return f->names[func];
}

uint64_t folded_bytes(Folded *f, const char *prefix, unsigned depth)
{
    uint64_t total = 0, pre = prefix ? strlen(prefix) + 1 : 0;
    if (f->sized && f->sized_depth == depth && f->sized_pre == pre)
        return f->sized_bytes;
    if (depth >= f->max_depth)   /* nothing cut: no node deeper than depth */
        return pre * f->full_lines + f->full_bytes;
    const uint64_t *sub = subtrees(f);
    for (unsigned i = 0; i < f->nodes->len; i++) {
        uint64_t v = node_count(f, sub, i, depth);
        if (v)
            total += pre + f->pathlen[i] + 1 + num_digits(v) + 1;
    }
    f->sized = true;
    f->sized_depth = depth;
    f->sized_pre = pre;
    f->sized_bytes = total;
    return total;
}

/* Each line is written in place, its path from the leaf back to the root
 * (pathlen[] gives where it starts), names escaped once per function: the
 * output of deep recursion is megabytes, and escaping every frame of every
 * line again cost more than the whole profiled run. The walk back stops at
 * the nearest ancestor whose line is still in o: its line starts with the
 * same prefix and path, copied at once (deep recursion's lines are each
 * the line before and one frame).
 *
 * To a file (out), o is a chunk of FOLDED_CHUNK bytes (more for a longer
 * line) written out whenever the next line might not fit: the megabytes
 * of deep recursion held whole cost their page faults (issue 24); a line
 * whose ancestors' lines went out walks back further. */
#define FOLDED_CHUNK (256u * 1024u)

static bool write_lines(GString *o, FILE *out, Folded *f, const char *prefix, unsigned depth)
{
    size_t pre = prefix ? strlen(prefix) + 1 : 0;
    guint64 *line = g_new(guint64, f->nodes->len ? f->nodes->len : 1);   /* where node's line starts, or NONE */
    gsize base = o->len, end = base;
    guint64 gone = 0, shift = 0;   /* o->str + base: the output's byte gone; o->str + at: its at + shift */
    bool ok = true;
    g_string_set_size(o, out ? MAX(o->len, FOLDED_CHUNK) : base + folded_bytes(f, prefix, depth));
    char *s = o->str;
    gsize room = out ? o->len - 21 : G_MAXSIZE;   /* a line's path ending past it may not fit: 20 digits, '\n' */
    shift -= base;
    const uint64_t *sub = folded_subtrees(f, depth);
    for (unsigned n = 0; n < f->nodes->len; n++) {
        uint64_t v = node_count(f, sub, n, depth);
        line[n] = G_MAXUINT64;
        if (!v)
            continue;
        gsize len = pre + f->pathlen[n] + 1;
        if (end + len > room) {   /* out: the chunk goes */
            ok = fwrite(s + base, 1, end - base, out) == end - base;
            if (!ok)
                break;
            gone += end - base;
            shift = gone - base;
            end = base;
            if (base + len + 21 > o->len) {
                g_string_set_size(o, base + len + 21);
                s = o->str;
                room = o->len - 21;
            }
        }
        gsize at = end;
        line[n] = at + shift;
        char *w = s + at + len - 1;
        *w = ' ';
        for (unsigned k = n;;) {
            unsigned fn = NODE(f->nodes, k)->func;
            w -= f->namelen[fn];
            memcpy(w, f->names[fn], f->namelen[fn]);
            if (k == 0) {
                if (prefix) {
                    memcpy(s + at, prefix, pre - 1);
                    s[at + pre - 1] = ';';
                }
                break;
            }
            *--w = ';';
            k = NODE(f->nodes, k)->parent;
            if (line[k] != G_MAXUINT64 && line[k] >= gone) {   /* the ancestor's line: prefix and path */
                memcpy(s + at, s + (line[k] - shift), pre + f->pathlen[k]);
                break;
            }
        }
        char *e = num_put_u64(s + at + len, v);
        *e = '\n';
        end = (gsize)(e + 1 - s);
    }
    g_free(line);
    if (!out) {
        g_assert(end == o->len);   /* folded_bytes counts what is written */
        return true;
    }
    ok = ok && fwrite(s + base, 1, end - base, out) == end - base;
    g_assert(!ok || gone + end - base == folded_bytes(f, prefix, depth));
    g_string_truncate(o, base);
    return ok;
}

void folded_write(GString *o, Folded *f, const char *prefix, unsigned depth)
{
    write_lines(o, NULL, f, prefix, depth);
}

bool folded_write_file(FILE *out, Folded *f, const char *prefix, unsigned depth)
{
    GString *chunk = g_string_new(NULL);
    bool ok = write_lines(chunk, out, f, prefix, depth);
    g_string_free(chunk, TRUE);
    return ok;
}

void folded_append_fold(GString *o, const Profile *p, const char *prefix, unsigned fold)
{
    Folded *f = folded_new(p, fold);
    folded_write(o, f, prefix, FOLDED_MAX_DEPTH);
    folded_free(f);
}

void folded_append(GString *o, const Profile *p, const char *prefix)
{
    folded_append_fold(o, p, prefix, 0);
}
