// SPDX-License-Identifier: GPL-2.0-or-later
/* config.h — the platform configuration (SPEC section 5).
 *
 * A plain struct with the defaults of configs/default.ini set first; a
 * GKeyFile and then --set overrides change it; config_validate checks the
 * combination. Errors name the file, group and key.
 */
#ifndef NOCPROF_CONFIG_H
#define NOCPROF_CONFIG_H

#include <glib.h>

#include "base/error.h"
#include <stdbool.h>
#include <stdint.h>

#define CONFIG_MAX_PERIODS 64

/* [timing] model: the 24K pipeline (timing_24k.c) or the flat table */
typedef enum { TIMING_FLAT = 0, TIMING_24K = 1 } TimingModel;

typedef struct Timing {
    unsigned model;                                     /* TimingModel */
    unsigned load, store, mul, div, branch_taken, mmio; /* extra cycles */
    unsigned fpu_add, fpu_mul, fpu_div, fpu_sqrt;       /* extra cycles */
} Timing;

/* [cache] d_model (docs/timing.md "The L1 caches"): a Unicorn memory hook
 * on every access, or addresses predicted at block entry (code hooks for
 * the rest); the same results */
typedef enum { CACHE_D_HOOK = 0, CACHE_D_PREDICT = 1 } CacheDModel;

/* [cache] (docs/timing.md "The L1 caches"): per core an I-cache and a
 * D-cache; sizes and line in bytes, powers of two */
typedef struct CacheCfg {
    unsigned enabled;          /* 0: no cache model (every access hits) */
    unsigned line;             /* line size, both caches */
    unsigned icache_size, icache_ways, dcache_size, dcache_ways;
    unsigned miss_penalty;     /* cycles a miss waits for its line */
    unsigned writeback_penalty; /* cycles to write back a dirty victim */
    unsigned d_model;          /* CacheDModel: how the D-cache sees accesses */
} CacheCfg;

typedef struct Config {
    unsigned mesh_width, mesh_height;
    uint64_t ram_size;
    uint64_t clock_hz;
    unsigned count_divisor;    /* CP0 Count increments every this many cycles */
    Timing timing;
    CacheCfg cache;
    unsigned router_latency, link_latency, buffer_depth, max_payload;
    unsigned tx_queue_flits, rx_queue_flits;
    uint64_t quantum;          /* cycles a core runs between scheduling
                                  decisions: speed only, never results */
    unsigned threads;          /* host threads; 0 = the host's CPUs */
    unsigned adapt;            /* 1: use fewer threads when that is faster */
    unsigned reference;        /* 1: the literal schedule, a testing knob:
                                  quantum 1, one thread, no poll-loop
                                  skipping (machine.h) */
    uint64_t max_cycles;
    uint64_t livelock_cycles;  /* 0 = no livelock check */
    unsigned nperiods;
    uint32_t periods[CONFIG_MAX_PERIODS];
    /* [limits] (docs/robustness.md): per ELF / per core */
    unsigned max_functions, max_blocks, max_contexts;
    uint64_t folded_bytes;     /* [limits] folded_bytes: stacks.folded's budget */
} Config;


void config_defaults(Config *c);
/* Apply every key of an INI file; unknown groups or keys, keys given twice
 * and localized keys (`key[de]`) are errors naming the file and key. The
 * file must be a regular file of at most CONFIG_MAX_FILE bytes. Integers
 * are decimal (leading zeros ignored: 010 is ten) or 0x-prefixed hex. */
#define CONFIG_MAX_FILE (1u << 20)
bool config_load_file(Config *c, const char *path, GError **error);
/* The same from text in memory; path names it in errors. */
bool config_load_data(Config *c, const char *text, gsize len, const char *path, GError **error);
/* Apply one "group.key=value" override. */
bool config_set(Config *c, const char *assignment, GError **error);
/* Set group.key from text with the key's own parser and bounds; `where`
 * (e.g. "--max-cycles") starts each message. */
bool config_set_value(Config *c, const char *group, const char *key, const char *value, const char *where,
                      GError **error);
/* Parse "P1,P2,..." into the sampling periods (replacing them). */
bool config_set_periods(Config *c, const char *list, const char *where, GError **error);
/* Add periods without duplicates. */
bool config_add_period(Config *c, uint32_t period, GError **error);
/* Check combinations; `where` (the config file, or "--set") starts each
 * message. */
bool config_validate(const Config *c, const char *where, GError **error);

unsigned config_cores(const Config *c);

/* Iterate the keys for printing: returns false past the end. */
bool config_key(unsigned index, const char **group, const char **key);
/* The value of group.key as text (periods as a comma list). */
char *config_value_string(const Config *c, const char *group, const char *key);

#endif
