// SPDX-License-Identifier: GPL-2.0-or-later
/* profile_data.h — a run's complete profile data, saved into its output
 * folder (OUT/profile.data) so that every report can be rebuilt without
 * running again (`nocprof report`), compared (`nocprof diff`) and summed
 * (`nocprof merge`).
 *
 * The file (docs/reports.md, "Saved profile data"): a 24-byte header
 *   "NOCPROFD"  8 bytes magic
 *   version     u32 little-endian (PROFILE_DATA_VERSION)
 *   reserved    u32 little-endian, 0
 *   length      u64 little-endian, bytes of payload that follow
 * then one GVariant (little-endian serialisation) of the type
 * PD_TOP (profile_data_types.h): the effective configuration as
 * group/key/value text ([sched] left out: speed knobs, not results),
 * every core's outcome (status, exit code, fault, counters, console bytes,
 * ELF path as given and absolute, SHA-256 of the ELF's content) and profile
 * (functions, arcs with call sites, basic blocks, every sampling period's
 * histogram, calling contexts, timeline spans), the NoC statistics and its
 * packet log, and the communication profile (as its full JSON text, the
 * trace flows apart as a fixed-size array). Numbers are stored exactly
 * (64-bit integers, IEEE doubles).
 *
 * Loading validates everything a report will index: the header, the
 * version, the payload's size and normal form, then every count, index,
 * order and size against the others; errors are NOCPROF_ERROR_DATA naming
 * the file and the field ("cores[1].profile.arcs[3].callee: ..."). A loaded
 * ProfileData has no symbols: profile_data_attach_elfs() loads each core's
 * ELF (checking its content hash) for the reports that need them.
 */
#ifndef NOCPROF_PROFILE_DATA_H
#define NOCPROF_PROFILE_DATA_H

#include <glib.h>
#include <stdbool.h>

#include "profiler/comm/comm_report.h"
#include "platform/config.h"
#include "noc/noc.h"
#include "profiler/model/profile.h"
#include "profiler/model/run.h"

#define PROFILE_DATA_FILE "profile.data"
#define PROFILE_DATA_VERSION 15u
/* profile_data_load reads at most this many bytes (a 256-core run with a
 * million calling contexts per core stays below it) */
#define PROFILE_DATA_MAX_SIZE (1024u * 1024u * 1024u)

typedef struct ProfileData {
    Config cfg;
    char *config_path;         /* NULL: built-in defaults */
    unsigned ncores;
    CoreResult *cores;         /* [ncores]; cores[i].prof == profs[i] */
    char **elf_abs;            /* [ncores] absolute ELF path at run time */
    char **elf_sha256;         /* [ncores] hex SHA-256 of the ELF's content */
    GBytes **console;          /* [ncores] what each core printed */
    Profile **profs;           /* [ncores]; NULL entries: not profiled */
    NocStats *noc;
    NocPacketRecord *packets;  /* the NoC's packet log, delivery order */
    size_t npackets;
    uint64_t packets_dropped;
    bool deadlock, livelock;   /* livelock: the deadlock was one */
    uint64_t end_cycle;        /* the cycle the deadlock or livelock was found */
    int exit_status;
    CommReport *comm;          /* communication profile (owned), or NULL */
    /* the run's report settings, saved so that a plain `nocprof report`
     * shows the same (report options override them) */
    unsigned fold_recursion;   /* --fold-recursion N: stacks.folded (0: off) */
    bool no_trace;             /* --no-trace: no trace.json */
    bool events;               /* --events: flat.txt's event columns */
    /* also saved (borrowed, or owned by `owned` in loaded data): --focus
     * and --exclude (profile_filter on every report but stacks.folded and
     * trace.json), --annotate=source|asm|both (NULL: source) */
    char **focus, **exclude;
    const char *annotate;
    char **source_dirs, **source_maps; /* --source-dir, --source-map OLD=NEW */
    const struct ProfileData *whole;  /* a filtered view's unfiltered data */
    /* a merge (nocprof merge; NULL otherwise, owned): each summed run as
     * "FOLDER\tSHA256[,SHA256...]" (the folder as given, each core's ELF
     * hash), and the platform keys that differed, merged with --force */
    char **merge_runs, **merge_forced;
    /* storage */
    GStringChunk *strings;     /* CoreResult and function name strings */
    GPtrArray *symbols;        /* Symbols loaded by profile_data_attach_elfs */
    GPtrArray *owned;          /* string vectors of loaded settings (g_strfreev) */
} ProfileData;

/* An empty ProfileData ready to be filled (strings allocated). */
void profile_data_init(ProfileData *d, unsigned ncores);
/* Frees everything d owns (profiles, NoC statistics, strings, symbols). */
void profile_data_clear(ProfileData *d);
/* A copy of s that lives as long as d. NULL stays NULL. */
const char *profile_data_intern(ProfileData *d, const char *s);

/* The saved form of d: header and payload. */
GBytes *profile_data_encode(const ProfileData *d);
/* Parse and validate a saved form; name is used in error messages. On
 * failure d is left cleared. */
bool profile_data_decode(GBytes *bytes, const char *name, ProfileData *d, GError **error);
/* profile_data_decode of the file at path. */
bool profile_data_load(const char *path, ProfileData *d, GError **error);

/* Hex SHA-256 of a file's content. */
char *profile_data_file_sha256(const char *path, GError **error);
/* Load the Symbols of every profiled core's ELF (each distinct file once)
 * and set Profile.syms. The ELF is looked for at its absolute path, then at
 * the path as given, then in out_dir/firmware/ (the bundled demo); its
 * content must have the recorded SHA-256 and its functions must be those of
 * the profile. Errors: NOCPROF_ERROR_DATA naming the core and the ELF. */
bool profile_data_attach_elfs(ProfileData *d, const char *out_dir, GError **error);

/* Keep only the recorded sampling periods listed (in that order: the first
 * becomes gmon.out's): the configuration, every profile's histograms and
 * every function's samples. NOCPROF_ERROR_USAGE naming a period that was
 * not recorded. */
bool profile_data_select_periods(ProfileData *d, const uint32_t *periods, unsigned n, GError **error);

/* Add p's counts to acc (profiles of the same ELF and periods): calls,
 * cycles, instructions, samples and histogram bins, arcs and blocks (by
 * key), calling contexts (by path); p's timeline spans are appended.
 * NOCPROF_ERROR_DATA when the functions or periods differ. */
bool profile_sum(Profile *acc, const Profile *p, GError **error);
/* Make acc (the first run, loaded from the folder `name`) the start of a
 * merge: its merge_runs list it (or the runs it merged, if it is one). */
void profile_data_merge_begin(ProfileData *acc, const char *name);
/* Add run d to acc (gprof -s for everything): every core's counters,
 * console (appended), profile (profile_sum) and the NoC statistics (counts
 * summed, link utilisation and router occupancy over the summed cycles,
 * latency min/max/mean exact and percentiles from the merged packet log,
 * exact while no log dropped a packet). Refused (NOCPROF_ERROR_DATA, name
 * in the message) unless d ran the same ELFs (SHA-256) on the same number
 * of cores with the same sampling periods. Status, exit code and fault
 * stay the first run's; deadlock/livelock are or-ed. */
bool profile_data_sum(ProfileData *acc, const ProfileData *d, const char *name, bool force, GError **error);

/* The RunInfo view of d for the summary writers (aliasing: NULL). */
RunInfo profile_data_run_info(const ProfileData *d);

#endif
