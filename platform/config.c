// SPDX-License-Identifier: GPL-2.0-or-later
/* config.c — GKeyFile configuration with table-driven keys. */
#include "platform/config.h"
#include "base/file.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "base/name.h"


typedef enum { K_UINT, K_U64, K_PERIODS, K_MODEL, K_DMODEL } KeyType;

typedef struct KeyDef {
    const char *group, *key;
    KeyType type;
    size_t offset;
    uint64_t min, max;
} KeyDef;

#define U(g, k, f, lo, hi) { g, k, K_UINT, offsetof(Config, f), lo, hi }
#define U64(g, k, f, lo, hi) { g, k, K_U64, offsetof(Config, f), lo, hi }

static const KeyDef keys[] = {
    U("mesh", "width", mesh_width, 1, 16),
    U("mesh", "height", mesh_height, 1, 16),
    U64("memory", "ram_size", ram_size, 65536, 256u << 20),
    U64("clock", "hz", clock_hz, 1, UINT64_C(1000000000000)),
    U("clock", "count_divisor", count_divisor, 1, 1u << 30),
    { "timing", "model", K_MODEL, offsetof(Config, timing.model), 0, 1 },
    U("timing", "load", timing.load, 0, 1000),
    U("timing", "store", timing.store, 0, 1000),
    U("timing", "mul", timing.mul, 0, 1000),
    U("timing", "div", timing.div, 0, 1000),
    U("timing", "branch_taken", timing.branch_taken, 0, 1000),
    U("timing", "mmio", timing.mmio, 0, 1000),
    U("timing", "fpu_add", timing.fpu_add, 0, 1000),
    U("timing", "fpu_mul", timing.fpu_mul, 0, 1000),
    U("timing", "fpu_div", timing.fpu_div, 0, 1000),
    U("timing", "fpu_sqrt", timing.fpu_sqrt, 0, 1000),
    U("cache", "enabled", cache.enabled, 0, 1),
    U("cache", "line", cache.line, 16, 128),
    U("cache", "icache_size", cache.icache_size, 512, 1u << 20),
    U("cache", "icache_ways", cache.icache_ways, 1, 16),
    U("cache", "dcache_size", cache.dcache_size, 512, 1u << 20),
    U("cache", "dcache_ways", cache.dcache_ways, 1, 16),
    U("cache", "miss_penalty", cache.miss_penalty, 0, 1000),
    U("cache", "writeback_penalty", cache.writeback_penalty, 0, 1000),
    { "cache", "d_model", K_DMODEL, offsetof(Config, cache.d_model), 0, 1 },
    U("noc", "router_latency", router_latency, 1, 1000),
    U("noc", "link_latency", link_latency, 1, 1000),
    U("noc", "buffer_depth", buffer_depth, 1, 1024),
    U("noc", "max_payload", max_payload, 1, 1024),
    U("noc", "tx_queue_flits", tx_queue_flits, 2, 65536),
    U("noc", "rx_queue_flits", rx_queue_flits, 2, 65536),
    U64("sched", "quantum", quantum, 1, 100000000),
    U("sched", "threads", threads, 0, 1024),
    U("sched", "adapt", adapt, 0, 1),
    U("sched", "reference", reference, 0, 1),
    U64("run", "max_cycles", max_cycles, 1, UINT64_C(1) << 62),
    U64("run", "livelock_cycles", livelock_cycles, 0, UINT64_C(1) << 62),
    { "profiler", "sample_period", K_PERIODS, 0, 1, UINT32_MAX },
    U("limits", "functions", max_functions, 1, 1u << 30),
    U("limits", "blocks", max_blocks, 1, 1u << 30),
    U("limits", "contexts", max_contexts, 1, 1u << 30),
    U64("limits", "folded_bytes", folded_bytes, 4096, UINT64_C(1) << 40),
};

void config_defaults(Config *c)
{
    *c = (Config){
        .mesh_width = 2, .mesh_height = 2,
        .ram_size = 1u << 20,
        .clock_hz = 100000000,
        .count_divisor = 2,
        .timing = { .model = TIMING_24K, .load = 1, .store = 0, .mul = 2, .div = 17,
                    .branch_taken = 1, .mmio = 4,
                    .fpu_add = 3, .fpu_mul = 4, .fpu_div = 31, .fpu_sqrt = 31 },
        .cache = { .enabled = 0, .line = 32, .icache_size = 32768, .icache_ways = 4,
                   .dcache_size = 32768, .dcache_ways = 4, .miss_penalty = 30, .writeback_penalty = 0,
                   .d_model = CACHE_D_PREDICT },
        .router_latency = 2, .link_latency = 1, .buffer_depth = 4,
        .max_payload = 16, .tx_queue_flits = 34, .rx_queue_flits = 68,
        .quantum = 100000,  /* a yield costs ~1 us: 1000 made CPU-bound runs 2.2x slower */
        .threads = 0, .adapt = 1, /* the host's CPUs, fewer when that is faster */
        .max_cycles = UINT64_C(10000000000),
        .livelock_cycles = 10000000,
        .nperiods = 1, .periods = { 10007 },
        .max_functions = 2000000, .max_blocks = 1u << 20, .max_contexts = 1000000,
        .folded_bytes = UINT64_C(64) << 20,
    };
}

unsigned config_cores(const Config *c)
{
    return c->mesh_width * c->mesh_height;
}

static const KeyDef *find_key(const char *group, const char *key)
{
    for (size_t i = 0; i < G_N_ELEMENTS(keys); i++)
        if (strcmp(keys[i].group, group) == 0 && strcmp(keys[i].key, key) == 0)
            return &keys[i];
    return NULL;
}

static bool group_exists(const char *group)
{
    for (size_t i = 0; i < G_N_ELEMENTS(keys); i++)
        if (strcmp(keys[i].group, group) == 0)
            return true;
    return false;
}

/* "; did you mean G.K?" for the closest known keys to group.key (group
 * only: the closest groups; in_group: only that group's keys, by key
 * name), or "" when none is close. */
static char *suggest(const char *group, const char *key, bool in_group)
{
    g_autofree char *query = key && !in_group ? g_strdup_printf("%s.%s", group, key) : g_strdup(key ? key : group);
    unsigned max = MAX(2u, (unsigned)strlen(query) / 3), best = max + 1; /* a transposition is 2 */
    GString *o = g_string_new(NULL);
    for (int pass = 0; pass < 2; pass++) /* the best distance, then every key at it */
        for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
            if ((in_group && strcmp(keys[i].group, group) != 0) || (!key && i && !strcmp(keys[i - 1].group, keys[i].group)))
                continue;
            g_autofree char *name = !key ? g_strdup(keys[i].group) : in_group ? g_strdup(keys[i].key)
                                                                              : g_strdup_printf("%s.%s", keys[i].group, keys[i].key);
            unsigned d = name_edit_distance(name, query, max);
            if (pass == 0)
                best = MIN(best, d);
            else if (d == best && d <= max)
                g_string_append_printf(o, "%s%s", o->len ? ", " : "; did you mean ", name);
        }
    if (o->len)
        g_string_append_c(o, '?');
    return g_string_free(o, FALSE);
}

/* A non-negative integer: decimal (leading zeros allowed and ignored: `010`
 * is ten, `08` is eight), or hexadecimal with a 0x prefix. */
static bool parse_u64(const char *text, uint64_t *out)
{
    char *end;
    while (g_ascii_isspace(*text))
        text++;
    unsigned base = 10;
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text += 2;
        if (!g_ascii_isxdigit(*text))
            return false;
    } else if (!g_ascii_isdigit(*text)) {
        return false;
    }
    errno = 0;
    guint64 v = g_ascii_strtoull(text, &end, base);
    while (g_ascii_isspace(*end))
        end++;
    if (errno != 0 || *end != '\0')
        return false;
    *out = v;
    return true;
}

bool config_add_period(Config *c, uint32_t period, GError **error)
{
    for (unsigned i = 0; i < c->nperiods; i++)
        if (c->periods[i] == period)
            return true;
    if (c->nperiods == CONFIG_MAX_PERIODS) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG,
                    "at most %d distinct sampling periods", CONFIG_MAX_PERIODS);
        return false;
    }
    c->periods[c->nperiods++] = period;
    return true;
}

bool config_set_periods(Config *c, const char *list, const char *where, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(list, ",", -1);
    unsigned saved = c->nperiods;
    c->nperiods = 0;
    for (char **p = parts; *p; p++) {
        uint64_t v;
        if (!parse_u64(*p, &v) || v < 1 || v > UINT32_MAX) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG,
                        "%s: [profiler] sample_period: '%s' is not a period in cycles (1 .. %u)",
                        where, g_strstrip(*p), UINT32_MAX);
            c->nperiods = saved;
            return false;
        }
        if (!config_add_period(c, (uint32_t)v, error)) {
            g_prefix_error(error, "%s: [profiler] sample_period: ", where);
            c->nperiods = saved;
            return false;
        }
    }
    if (c->nperiods == 0) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG,
                    "%s: [profiler] sample_period: empty list", where);
        c->nperiods = saved;
        return false;
    }
    return true;
}

static const char *const model_names[] = { "flat", "24k" }; /* by TimingModel */
static const char *const dmodel_names[] = { "hook", "predict" }; /* by CacheDModel */

/* [timing] model, [cache] d_model: a name */
static bool set_model(Config *c, const KeyDef *k, const char *value, const char *where, GError **error)
{
    g_autofree char *v = g_strstrip(g_strdup(value));
    const char *const *names = k->type == K_MODEL ? model_names : dmodel_names;
    for (unsigned i = 0; i < 2; i++) {
        if (g_ascii_strcasecmp(v, names[i]) == 0) {
            *(unsigned *)((char *)c + k->offset) = i;
            return true;
        }
    }
    g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG, "%s: [%s] %s: '%s' is not %s or %s",
                where, k->group, k->key, value, names[1], names[0]);
    return false;
}

static bool apply(Config *c, const KeyDef *k, const char *value, const char *where, GError **error)
{
    if (k->type == K_PERIODS)
        return config_set_periods(c, value, where, error);
    if (k->type == K_MODEL || k->type == K_DMODEL)
        return set_model(c, k, value, where, error);
    uint64_t v;
    if (!parse_u64(value, &v) || v < k->min || v > k->max) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG,
                    "%s: [%s] %s: '%s' is not an integer in %" G_GUINT64_FORMAT " .. %" G_GUINT64_FORMAT,
                    where, k->group, k->key, value, k->min, k->max);
        return false;
    }
    char *field = (char *)c + k->offset;
    if (k->type == K_UINT)
        *(unsigned *)field = (unsigned)v;
    else
        *(uint64_t *)field = v;
    return true;
}

/* Keys GKeyFile would otherwise take silently: a key given twice in a group
 * (the last one would win) and a localized key `key[ll]` (kept only with
 * G_KEY_FILE_KEEP_TRANSLATIONS, which config_load_data uses). */
static bool check_keys(const char *path, const char *group, char **names, GError **error)
{
    g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
    for (char **k = names; *k; k++) {
        if (strchr(*k, '[')) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG,
                        "%s: [%s] localized key '%s' is not allowed", path, group, *k);
            return false;
        }
        if (!g_hash_table_add(seen, *k)) {
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG,
                        "%s: [%s] key '%s' given twice", path, group, *k);
            return false;
        }
    }
    return true;
}

bool config_load_file(Config *c, const char *path, GError **error)
{
    g_autofree char *text = NULL;
    gsize len = 0;
    if (!base_read_regular(path, CONFIG_MAX_FILE, &text, &len, NOCPROF_ERROR_CONFIG, error))
        return false;
    return config_load_data(c, text, len, path, error);
}

bool config_load_data(Config *c, const char *text, gsize len, const char *path, GError **error)
{
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) { /* a UTF-8 byte order mark (Windows editors) */
        text += 3;
        len -= 3;
    }
    const char *nul = memchr(text, '\0', len);
    if (nul) { /* GKeyFile would end the value there, silently */
        unsigned line = 1;
        for (const char *q = text; q < nul; q++)
            line += *q == '\n';
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG, "%s: line %u: a NUL byte (not a text file?)",
                    path, line);
        return false;
    }
    g_autoptr(GKeyFile) kf = g_key_file_new();
    GError *err = NULL;
    if (!g_key_file_load_from_data(kf, text, len, G_KEY_FILE_KEEP_TRANSLATIONS, &err)) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG, "%s: %s", path, err->message);
        g_error_free(err);
        return false;
    }
    g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
    for (char **g = groups; *g; g++) {
        if (!group_exists(*g)) {
            g_autofree char *hint = suggest(*g, NULL, false);
            g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG,
                        "%s: unknown group [%s]%s", path, *g, hint);
            return false;
        }
        g_auto(GStrv) names = g_key_file_get_keys(kf, *g, NULL, NULL);
        if (!check_keys(path, *g, names, error))
            return false;
        for (char **k = names; *k; k++) {
            const KeyDef *def = find_key(*g, *k);
            if (!def) {
                g_autofree char *hint = suggest(*g, *k, true);
                g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG,
                            "%s: [%s] unknown key '%s'%s", path, *g, *k, hint);
                return false;
            }
            g_autofree char *value = g_key_file_get_value(kf, *g, *k, NULL);
            if (!apply(c, def, value, path, error))
                return false;
        }
    }
    return true;
}

bool config_set(Config *c, const char *assignment, GError **error)
{
    const char *eq = strchr(assignment, '=');
    const char *dot = strchr(assignment, '.');
    if (!eq || !dot || dot > eq) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE,
                    "--set %s: expected SECTION.KEY=VALUE", assignment);
        return false;
    }
    g_autofree char *group = g_strndup(assignment, (gsize)(dot - assignment));
    g_autofree char *key = g_strndup(dot + 1, (gsize)(eq - dot - 1));
    const KeyDef *def = find_key(group, key);
    if (!def) {
        g_autofree char *hint = suggest(group, key, false);
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG,
                    "--set: unknown key %s.%s (%s%s)", group, key,
                    group_exists(group) ? "no such key in that group" : "no such group", hint);
        return false;
    }
    return apply(c, def, eq + 1, "--set", error);
}

bool config_set_value(Config *c, const char *group, const char *key, const char *value, const char *where,
                      GError **error)
{
    const KeyDef *def = find_key(group, key);
    if (!def) {
        g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG, "%s: unknown key %s.%s", where, group, key);
        return false;
    }
    return apply(c, def, value, where, error);
}

bool config_validate(const Config *c, const char *where, GError **error)
{
#define FAIL(fmt, ...) do { g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_CONFIG, "%s: " fmt, \
                                        where, __VA_ARGS__); return false; } while (0)
    if (c->ram_size % 4096 != 0)
        FAIL("[memory] ram_size: %" G_GUINT64_FORMAT " is not a multiple of 4096", c->ram_size);
    if (c->tx_queue_flits < c->max_payload + 1)
        FAIL("[noc] tx_queue_flits: %u cannot hold a maximal packet (max_payload %u + 1 head flit)",
             c->tx_queue_flits, c->max_payload);
    if (c->rx_queue_flits < c->max_payload + 1)
        FAIL("[noc] rx_queue_flits: %u cannot hold a maximal packet (max_payload %u + 1 head flit)",
             c->rx_queue_flits, c->max_payload);
    if (c->nperiods == 0)
        FAIL("[profiler] sample_period: %s", "no period");
    const CacheCfg *k = &c->cache;
    const struct { const char *key; unsigned v; } pow2[] = {
        { "line", k->line }, { "icache_size", k->icache_size }, { "icache_ways", k->icache_ways },
        { "dcache_size", k->dcache_size }, { "dcache_ways", k->dcache_ways },
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(pow2); i++)
        if (pow2[i].v & (pow2[i].v - 1))
            FAIL("[cache] %s: %u is not a power of two", pow2[i].key, pow2[i].v);
    if (k->icache_size < k->line * k->icache_ways)
        FAIL("[cache] icache_size: %u is less than one line per way (%u x %u)", k->icache_size,
             k->icache_ways, k->line);
    if (k->dcache_size < k->line * k->dcache_ways)
        FAIL("[cache] dcache_size: %u is less than one line per way (%u x %u)", k->dcache_size,
             k->dcache_ways, k->line);
    return true;
#undef FAIL
}

bool config_key(unsigned index, const char **group, const char **key)
{
    if (index >= G_N_ELEMENTS(keys))
        return false;
    *group = keys[index].group;
    *key = keys[index].key;
    return true;
}

char *config_value_string(const Config *c, const char *group, const char *key)
{
    const KeyDef *k = find_key(group, key);
    g_assert(k);
    if (k->type == K_PERIODS) {
        GString *s = g_string_new(NULL);
        for (unsigned i = 0; i < c->nperiods; i++)
            g_string_append_printf(s, "%s%u", i ? "," : "", c->periods[i]);
        return g_string_free(s, FALSE);
    }
    const char *field = (const char *)c + k->offset;
    if (k->type == K_MODEL)
        return g_strdup(model_names[*(const unsigned *)field % G_N_ELEMENTS(model_names)]);
    if (k->type == K_DMODEL)
        return g_strdup(dmodel_names[*(const unsigned *)field % G_N_ELEMENTS(dmodel_names)]);
    uint64_t v = k->type == K_UINT ? *(const unsigned *)field : *(const uint64_t *)field;
    return g_strdup_printf("%" G_GUINT64_FORMAT, v);
}
