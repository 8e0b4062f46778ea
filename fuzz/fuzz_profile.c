// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_profile.c — libFuzzer target: the saved-profile reader of `nocprof
 * report`, `diff` and `merge` (profiler/data/profile_data.c) on arbitrary
 * bytes; what decodes is encoded again, and its aliasing statistics (whose
 * cost once depended on the counts) are computed. */
#include <stdint.h>

#include "profiler/analysis/aliasing.h"
#include "profiler/data/profile_data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GBytes *b = g_bytes_new_static(data, size);
    ProfileData d;
    GError *err = NULL;
    if (profile_data_decode(b, "fuzz.data", &d, &err)) {
        GBytes *again = profile_data_encode(&d);
        g_bytes_unref(again);
        if (d.cfg.nperiods > 1 && d.ncores && d.profs[0])
            aliasing_free(aliasing_analyse((const Profile *const *)d.profs, d.ncores));
        profile_data_clear(&d);
    }
    g_clear_error(&err);
    g_bytes_unref(b);
    return 0;
}
