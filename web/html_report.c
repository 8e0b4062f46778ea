// SPDX-License-Identifier: GPL-2.0-or-later
/* html_report.c — OUT/report.html: the embedded web/ bundle plus the run's
 * data as JSON (see html_report.h). */
#define _GNU_SOURCE /* memmem */
#include "web/html_report.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/json.h"
#include "base/num.h"
#include "profiler/model/events.h"
#include "profiler/report/report_util.h"

/* Generated at build time from web/ (web/CMakeLists.txt): <style> and
 * <script> elements holding the bundled CSS and JavaScript. */
extern const unsigned char nocprof_web_bundle[];
extern const unsigned long nocprof_web_bundle_len;

typedef struct Page Page;
static void page_put_len(Page *pg, const char *s, gsize n);
static void append_script_safe(Page *pg, const char *json);

/* s as a JSON string literal (base/json.h: json-glib's escaping, invalid
 * UTF-8 replaced). */
static void append_quoted(GString *o, const char *s)
{
    npjson_append_quoted(o, s ? s : "");
}

#define MAX_SOURCE_BYTES (4u << 20) /* larger source files are not embedded */

typedef struct FileTable {
    GHashTable *index;  /* path (owned by the Symbols) -> index + 1 */
    GPtrArray *paths;
    const char *last;   /* the path asked last (the same string as the */
    int last_index;     /* instruction before's, mostly: not hashed again) */
} FileTable;

static int file_index(FileTable *ft, const char *path)
{
    if (!path)
        return -1;
    if (path == ft->last)
        return ft->last_index;
    gpointer v = g_hash_table_lookup(ft->index, path);
    if (!v) {
        g_ptr_array_add(ft->paths, (gpointer)path);
        v = GINT_TO_POINTER((int)ft->paths->len);
        g_hash_table_insert(ft->index, (gpointer)path, v);
    }
    ft->last = path;
    ft->last_index = GPOINTER_TO_INT(v) - 1;
    return ft->last_index;
}

/* Cycles of each instruction of [lo, lo + 4n): each block's cycles of that
 * instruction (ProfBlock.icycles, as annotated.txt does). */
static void insn_cycles(const Profile *p, uint32_t lo, unsigned n, uint64_t *cycles)
{
    uint64_t hi = (uint64_t)lo + 4ull * n;
    for (unsigned i = profile_first_block(p, lo); i < p->nblocks && p->blocks[i].addr < hi; i++) {
        const ProfBlock *b = &p->blocks[i];
        uint64_t end = (uint64_t)b->addr + 4ull * b->ninsns;
        if (!b->ninsns || b->addr >= hi || end <= lo)
            continue;
        for (uint32_t k = 0; k < b->ninsns; k++) {
            uint64_t a = (uint64_t)b->addr + 4ull * k;
            if (a >= lo && a < hi)
                cycles[(a - lo) / 4] += prof_block_insn_cycles(b, k);
        }
    }
}

static uint64_t insn_samples(const Profile *p, uint32_t a)
{
    if (!p->nperiods)
        return 0;
    const ProfHist *h = &p->hists[0];
    return prof_hist_at(h, a);
}

/* The instruction's events (prof_insn_events, as annotated.txt --events and
 * callgrind.out count them) when any but its executions is not 0:
 * ",[mask,e,v,e,v...]" with bit e of mask set for a per-instruction event
 * whose count is the executions (a load's loads: no number repeated), then
 * event index and count for every other one that is not 0 (stall cycles,
 * misses); e indexes the document's "events". Nothing for the others
 * (instructions = executions): the page stays small (issue 24). */
static void append_events(GString *o, const Profile *p, uint32_t a, uint64_t count)
{
    uint64_t ev[PEV_COUNT];
    prof_insn_events(p, a, count, ev);
    uint64_t mask = 0;
    bool pairs = false;
    bool implied[PEV_COUNT]; /* nothing to write: executions, or in mask */
    for (unsigned e = 0; e < PEV_COUNT; e++) {
        bool by_class = e != PEV_INSTRUCTIONS && prof_events[e].insn && ev[e] && ev[e] == count;
        mask |= (uint64_t)by_class << e;
        implied[e] = by_class || (e == PEV_INSTRUCTIONS ? ev[e] == count : !ev[e]);
        pairs |= !implied[e];
    }
    if (!mask && !pairs)
        return;
    g_string_append(o, ",[");
    num_append_u64(o, mask);
    for (unsigned e = 0; e < PEV_COUNT; e++)
        if (!implied[e]) {
            g_string_append_c(o, ',');
            num_append_u64(o, e);
            g_string_append_c(o, ',');
            num_append_u64(o, ev[e]);
        }
    g_string_append_c(o, ']');
}

static void append_function(GString *o, const Profile *p, const ProfFunc *f, FileTable *ft)
{
    unsigned n = f->size / 4;
    g_autofree uint64_t *count = g_new0(uint64_t, n ? n : 1);
    g_autofree uint64_t *cycles = g_new0(uint64_t, n ? n : 1);
    profile_insn_counts(p, f->addr, n, count);
    insn_cycles(p, f->addr, n, cycles);
    g_string_append(o, "{\"name\":");
    append_quoted(o, f->name);
    g_string_append_printf(o, ",\"address\":%" PRIu32 ",\"insns\":[", f->addr);
    for (unsigned i = 0; i < n; i++) {
        uint32_t a = f->addr + 4 * i;
        SymLine ln = p->syms ? symbols_line(p->syms, a) : (SymLine){ NULL, 0 };
        g_autofree char *dis = p->syms ? symbols_disasm(p->syms, a) : g_strdup("");
        /* "[a,count,cycles,samples,file,line," without a printf, one
         * append (issue 24) */
        char rec[2 + 6 * 21], *w = rec;
        if (i)
            *w++ = ',';
        *w++ = '[';
        int fi = file_index(ft, ln.file);
        const uint64_t num[] = { a, count[i], cycles[i], insn_samples(p, a), fi < 0 ? 0 : (uint64_t)fi, ln.line };
        for (unsigned k = 0; k < G_N_ELEMENTS(num); k++) {
            if (k == 4 && fi < 0)
                *w++ = '-', *w++ = '1';
            else
                w = num_put_u64(w, num[k]);
            *w++ = ',';
        }
        g_string_append_len(o, rec, w - rec);
        append_quoted(o, dis);
        append_events(o, p, a, count[i]);
        g_string_append_c(o, ']');
    }
    g_string_append(o, "]}");
}

static bool shown(const Profile *p, unsigned i)
{
    const ProfFunc *f = &p->funcs[i];
    return !f->pseudo && f->size && report_func_active(p, i);
}

/* pg: o goes into the page (escaped) whenever it holds 64 KiB or more. */
static void append_core(GString *o, const Profile *p, FileTable *ft, Page *pg)
{
    g_string_append_printf(o, "{\"core\":%u,\"functions\":[", p->core);
    bool first = true;
    for (unsigned i = 0; i < p->nfuncs; i++) {
        if (!shown(p, i))
            continue;
        if (!first)
            g_string_append_c(o, ',');
        first = false;
        append_function(o, p, &p->funcs[i], ft);
        if (pg && o->len >= (1u << 16)) {
            append_script_safe(pg, o->str);
            g_string_truncate(o, 0);
        }
    }
    g_string_append(o, "]}");
}

/* The file of every instruction append_core writes, numbered in the order
 * it meets them. */
static void number_files(FileTable *ft, const Profile *const *profs, unsigned ncores)
{
    for (unsigned c = 0; c < ncores; c++) {
        const Profile *p = profs[c];
        for (unsigned i = 0; p && p->syms && i < p->nfuncs; i++)
            for (unsigned k = 0; shown(p, i) && k < p->funcs[i].size / 4; k++)
                file_index(ft, symbols_line(p->syms, p->funcs[i].addr + 4 * k).file);
    }
}

static void append_source(GString *o, const char *path)
{
    g_autofree char *text = NULL;
    gsize len = 0;
    if (!g_file_get_contents(path, &text, &len, NULL) || len > MAX_SOURCE_BYTES) {
        g_string_append(o, "null");
        return;
    }
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    guint n = g_strv_length(lines);
    if (n && len && text[len - 1] == '\n')
        n--; /* the empty string after the last newline */
    g_string_append_c(o, '[');
    for (guint i = 0; i < n; i++) {
        if (i)
            g_string_append_c(o, ',');
        g_strchomp(lines[i]);
        append_quoted(o, lines[i]);
    }
    g_string_append_c(o, ']');
}

/* {"events":[...],"files":[...],"cores":[ of the source document. */
static GString *files_head(const FileTable *ft)
{
    GString *o = g_string_new("{\"events\":[");
    for (unsigned e = 0; e < PEV_COUNT; e++) {
        g_string_append(o, e ? "," : "");
        append_quoted(o, prof_events[e].key);
    }
    g_string_append(o, "],\"files\":[");
    for (guint i = 0; i < ft->paths->len; i++) {
        const char *path = g_ptr_array_index(ft->paths, i);
        g_string_append(o, i ? ",{\"path\":" : "{\"path\":");
        append_quoted(o, path);
        g_string_append(o, ",\"text\":");
        append_source(o, path);
        g_string_append_c(o, '}');
    }
    g_string_append(o, "],\"cores\":[");
    return o;
}

/* The source document (html_lines_json), into pg when it is not NULL (as
 * it is made, never held whole: 30,000 functions on four cores made 14 MB
 * of it), else returned. The files come first in it, so they are
 * numbered by a first pass. */
static GString *lines_json(const Profile *const *profs, unsigned ncores, Page *pg)
{
    FileTable ft = { .index = g_hash_table_new(g_str_hash, g_str_equal), .paths = g_ptr_array_new() };
    number_files(&ft, profs, ncores);
    GString *o = files_head(&ft);
    for (unsigned c = 0; c < ncores; c++) {
        if (c)
            g_string_append_c(o, ',');
        if (profs[c])
            append_core(o, profs[c], &ft, pg);
        else
            g_string_append(o, "null");
    }
    g_string_append(o, "]}");
    g_hash_table_destroy(ft.index);
    g_ptr_array_free(ft.paths, TRUE);
    if (!pg)
        return o;
    append_script_safe(pg, o->str);
    g_string_free(o, TRUE);
    return NULL;
}

GString *html_lines_json(const Profile *const *profs, unsigned ncores)
{
    return lines_json(profs, ncores, NULL);
}

/* JSON text inside a <script> element: '<' only occurs inside JSON
 * strings, where \u003c means the same, so no "</script>" or "<!--" can
 * end or confuse the element. */
static void append_script_safe(Page *pg, const char *json)
{
    for (const char *p = json;;) {
        const char *lt = strchr(p, '<');
        page_put_len(pg, p, lt ? (gsize)(lt - p) : strlen(p));
        if (!lt)
            return;
        page_put_len(pg, "\\u003c", 6);
        p = lt + 1;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}


/* The next line of text at *p (without its newline); false at the end.
 * Lines are walked in place: a long trace.json is never split into one
 * allocation per line (that took ~5x the file's size in memory). */
static bool next_line(const char **p, const char **line, size_t *len)
{
    if (!**p)
        return false;
    const char *nl = strchr(*p, '\n');
    *line = *p;
    *len = nl ? (size_t)(nl - *p) : strlen(*p);
    *p = nl ? nl + 1 : *p + *len;
    return true;
}

/* Start cycle of a complete event ("ph":"X") line of trace.json (not
 * NUL-terminated; the fields are near the start of the line). */
static bool span_start_n(const char *line, size_t len, uint64_t *start)
{
    static const char key[] = "\"start_cycle\":", x[] = "\"ph\":\"X\"";
    size_t n = MIN(len, 511);
    const char *s = memmem(line, n, key, sizeof key - 1);
    if (!s || !memmem(line, n, x, sizeof x - 1))
        return false;
    uint64_t v = 0;
    for (s += sizeof key - 1; s < line + len && g_ascii_isdigit(*s); s++)
        v = v * 10 + (uint64_t)(*s - '0');
    *start = v;
    return true;
}

static const char MESSAGE_CAT[] = "\"cat\":\"message\"";

/* A message event (the trace flows of the communication profile): the
 * page does not draw them (Perfetto does, from trace.json). trace.c writes
 * every event as {"name":"...","cat":"..." on one line: the category
 * follows the name's closing quote (a search of the whole line cost more
 * than the rest of the page). */
static bool is_message(const char *line, size_t len)
{
    static const char head[] = "{\"name\":\"";
    if (len < sizeof head || memcmp(line, head, sizeof head - 1) != 0)
        return false;
    size_t i = sizeof head - 1;
    while (i < len && line[i] != '"')
        i += line[i] == '\\' ? 2 : 1;
    const size_t n = sizeof MESSAGE_CAT - 1;
    return i + 1 + n < len && line[i + 1] == ',' && memcmp(line + i + 2, MESSAGE_CAT, n) == 0;
}

/* The start cycle of the (budget+1)-th earliest complete event that is not
 * a message; UINT64_MAX when there are no more than budget. */
static uint64_t trim_cut(const char *trace, unsigned budget)
{
    g_autoptr(GArray) starts = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    const char *p = trace, *l;
    size_t n;
    while (next_line(&p, &l, &n)) {
        uint64_t st;
        if (span_start_n(l, n, &st) && !is_message(l, n))
            g_array_append_val(starts, st);
    }
    if (starts->len <= budget)
        return UINT64_MAX;
    qsort(starts->data, starts->len, sizeof(uint64_t), cmp_u64);
    return g_array_index(starts, uint64_t, budget);
}

char *html_trim_trace(const char *trace, unsigned budget, uint64_t *cut, uint64_t *dropped)
{
    *cut = 0;
    *dropped = 0;
    size_t lines = 0; /* at most one event per line: few lines, nothing to trim */
    for (const char *nl = trace; lines <= budget && (nl = strchr(nl, '\n')); nl++)
        lines++;
    bool messages = strstr(trace, MESSAGE_CAT) != NULL;
    uint64_t at = lines <= budget ? UINT64_MAX : trim_cut(trace, budget);
    if (at == UINT64_MAX && !messages)
        return NULL;
    *cut = at == UINT64_MAX ? 0 : at;
    const char *p = trace, *l;
    size_t n;
    if (!next_line(&p, &l, &n))
        return NULL;
    GString *o = g_string_new_len(l, (gssize)n); /* {"displayTimeUnit":...,"traceEvents":[ */
    bool first = true;
    while (next_line(&p, &l, &n)) {
        while (n && g_ascii_isspace(*l)) {
            l++;
            n--;
        }
        while (n && g_ascii_isspace(l[n - 1]))
            n--;
        uint64_t st;
        if (!n || l[0] != '{' || is_message(l, n))
            continue; /* the closing "]}", messages */
        if (span_start_n(l, n, &st) && st >= at) {
            (*dropped)++;
            continue;
        }
        if (l[n - 1] == ',')
            n--;
        g_string_append(o, first ? "\n" : ",\n");
        g_string_append_len(o, l, (gssize)n);
        first = false;
    }
    g_string_append(o, "\n]}\n");
    return g_string_free(o, FALSE);
}

static const char DATA_OPEN[] = "<script type=\"application/json\" id=\"nocprof-data\">";
static const char DATA_OPEN_Z[] = "<script type=\"application/octet-stream\" id=\"nocprof-data\" "
                                  "data-encoding=\"deflate-base64\">";

/* A data document of more than HTML_PLAIN_MAX bytes (before '<' is
 * escaped; big firmware: 30,000 functions on four cores made 46 MB of JSON)
 * is embedded compressed: zlib (GIO's GZlibCompressor) in base64, which the
 * page inflates with the browser's DecompressionStream("deflate") before
 * parsing (web/src/model.js). Every byte of the data stays in the page;
 * smaller documents stay plain JSON. The document is compressed as it is
 * written, in pieces of PAGE_CHUNK bytes, never held whole. */
struct Page {
    GString *o;                /* the page (while compressing: up to the data) */
    GString *buf;              /* data not yet compressed, or NULL: plain */
    GOutputStream *z;          /* the compressor, writing into mem */
    GOutputStream *mem;
    bool failed;
};

#define PAGE_CHUNK (1u << 20)

static void page_flush(Page *pg)
{
    if (!pg->failed && !g_output_stream_write_all(pg->z, pg->buf->str, pg->buf->len, NULL, NULL, NULL))
        pg->failed = true;
    g_string_truncate(pg->buf, 0);
}

static void page_put_len(Page *pg, const char *s, gsize n)
{
    if (!pg->buf) {
        g_string_append_len(pg->o, s, (gssize)n);
        return;
    }
    while (n) {
        gsize k = MIN(n, PAGE_CHUNK - MIN(pg->buf->len, PAGE_CHUNK));
        g_string_append_len(pg->buf, s, (gssize)k);
        s += k;
        n -= k;
        if (pg->buf->len >= PAGE_CHUNK)
            page_flush(pg);
    }
}

static void page_put(Page *pg, const char *s)
{
    page_put_len(pg, s, strlen(s));
}

/* The page up to the start of the data document (inside its <script>);
 * size: the document's length before escaping. */
static Page page_start(const char *title, gsize size)
{
    Page pg = { g_string_new("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                             "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                             "<meta name=\"generator\" content=\"nocprof\">\n"), NULL, NULL, NULL, false };
    g_string_append_printf(pg.o, "<title>%s</title>\n</head>\n<body>\n<div id=\"app\"></div>\n", title);
    if (size > HTML_PLAIN_MAX) {
        pg.buf = g_string_sized_new(PAGE_CHUNK + 1);
        pg.mem = g_memory_output_stream_new_resizable();
        g_autoptr(GZlibCompressor) z = g_zlib_compressor_new(G_ZLIB_COMPRESSOR_FORMAT_ZLIB, 1);
        pg.z = g_converter_output_stream_new(pg.mem, G_CONVERTER(z));
    }
    g_string_append(pg.o, pg.buf ? DATA_OPEN_Z : DATA_OPEN);
    return pg;
}

/* Closes the data document's <script> and adds the front end. */
static GString *page_end(Page *pg)
{
    if (pg->buf) {
        page_flush(pg);
        if (!g_output_stream_close(pg->z, NULL, NULL))
            pg->failed = true;
        GMemoryOutputStream *m = G_MEMORY_OUTPUT_STREAM(pg->mem);
        g_autofree char *b64 = pg->failed ? g_strdup("")
            : g_base64_encode(g_memory_output_stream_get_data(m), g_memory_output_stream_get_data_size(m));
        g_string_append(pg->o, b64);   /* empty on failure: the page says it has no data */
        g_string_free(pg->buf, TRUE);
        g_object_unref(pg->z);
        g_object_unref(pg->mem);
    }
    GString *o = pg->o;
    g_string_append(o, "</script>\n");
    g_string_append_len(o, (const char *)nocprof_web_bundle, (gssize)nocprof_web_bundle_len);
    g_string_append(o, "\n</body>\n</html>\n");
    return o;
}

/* The summary document from f into the page, a piece at a time. */
static bool put_file(Page *pg, FILE *f)
{
    g_autofree char *buf = g_malloc(PAGE_CHUNK + 1);
    size_t n;
    while ((n = fread(buf, 1, PAGE_CHUNK, f)) > 0) {
        buf[n] = '\0';   /* JSON text holds no NUL */
        append_script_safe(pg, buf);
    }
    return !ferror(f);
}

/* The page: the summary from its text or from the file sf (summary_len
 * bytes), "flame" from flame (JSON) or made from folded's text, "source"
 * from lines (text) or made from profs. */
static GString *report_page(const char *summary_json, FILE *sf, gsize summary_len, const char *folded,
                            const char *flame, const char *trace_json, const char *lines,
                            const Profile *const *profs, unsigned ncores, bool *read_ok)
{
    GString *tmp = flame ? NULL : html_flame_json(folded);
    if (tmp)
        flame = tmp->str;
    uint64_t cut = 0, dropped = 0;
    g_autofree char *trimmed = trace_json ? html_trim_trace(trace_json, HTML_TRACE_SPANS, &cut, &dropped) : NULL;
    const char *trace = trimmed ? trimmed : trace_json ? trace_json : "null";
    gsize size = (sf ? summary_len : strlen(summary_json)) + strlen(flame) + strlen(trace);
    /* the source document is made into the page only when the page is
     * compressed whatever its size; else it is made first, to decide */
    GString *made = profs && size <= HTML_PLAIN_MAX ? lines_json(profs, ncores, NULL) : NULL;
    if (made)
        lines = made->str;
    Page pg = page_start("nocprof report", size + (lines ? strlen(lines) : profs ? HTML_PLAIN_MAX : 4));
    page_put(&pg, "{\"summary\":");
    if (sf)
        *read_ok = put_file(&pg, sf);
    else
        append_script_safe(&pg, summary_json);
    page_put(&pg, ",\"flame\":");
    append_script_safe(&pg, flame);
    if (tmp)
        g_string_free(tmp, TRUE);
    page_put(&pg, ",\"trace\":");
    append_script_safe(&pg, trace);
    char counts[96];
    g_snprintf(counts, sizeof counts, ",\"trace_cut\":%" PRIu64 ",\"trace_dropped\":%" PRIu64, cut, dropped);
    page_put(&pg, counts);
    page_put(&pg, ",\"source\":");
    if (lines || !profs)
        append_script_safe(&pg, lines ? lines : "null");
    else
        lines_json(profs, ncores, &pg);
    if (made)
        g_string_free(made, TRUE);
    page_put(&pg, "}");
    return page_end(&pg);
}

GString *html_report_build(const char *summary_json, const char *folded, const char *trace_json,
                           const char *lines_json)
{
    return report_page(summary_json, NULL, 0, folded, NULL, trace_json, lines_json, NULL, 0, NULL);
}

GString *html_report_build_run(const char *summary_path, const char *folded, const char *flame,
                               const char *trace_json, const Profile *const *profs, unsigned ncores,
                               GError **error)
{
    FILE *f = fopen(summary_path, "rb");
    GStatBuf st;
    if (!f || fstat(fileno(f), &st) != 0) {
        int e = errno;
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: cannot read: %s", summary_path, g_strerror(e));
        if (f)
            fclose(f);
        return NULL;
    }
    bool ok = true;
    GString *page = report_page(NULL, f, (gsize)st.st_size, folded, flame, trace_json, NULL, profs, ncores, &ok);
    fclose(f);
    if (!ok) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: cannot read", summary_path);
        g_string_free(page, TRUE);
        return NULL;
    }
    return page;
}

GString *html_diff_build(const char *diff_json)
{
    Page pg = page_start("nocprof diff", strlen(diff_json));
    page_put(&pg, "{\"diff\":");
    append_script_safe(&pg, diff_json);
    page_put(&pg, "}");
    return page_end(&pg);
}

GString *html_sweep_build(const char *sweep_json)
{
    Page pg = page_start("nocprof sweep", strlen(sweep_json));
    page_put(&pg, "{\"sweep\":");
    append_script_safe(&pg, sweep_json);
    page_put(&pg, "}");
    return page_end(&pg);
}

static char *read_optional(const char *dir, const char *name, bool required, GError **error)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    char *text = NULL;
    GError *e = NULL;
    if (g_file_get_contents(path, &text, NULL, &e))
        return text;
    if (required || !g_error_matches(e, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_IO, "%s: cannot read: %s", path, e->message);
    g_error_free(e);
    return NULL;
}

GString *html_report_page(const char *out_dir, const Profile *const *profs, unsigned ncores, GError **error)
{
    GError *e = NULL;
    g_autofree char *summary = g_build_filename(out_dir, "summary.json", NULL);
    g_autofree char *folded = read_optional(out_dir, "stacks.folded", false, &e);
    g_autofree char *trace = e ? NULL : read_optional(out_dir, "trace.json", false, &e);
    if (e) {
        g_propagate_error(error, e);
        return NULL;
    }
    bool any = false;
    for (unsigned i = 0; i < ncores; i++)
        any |= profs && profs[i] != NULL;
    return html_report_build_run(summary, folded, NULL, trace, any ? profs : NULL, ncores, error);
}
