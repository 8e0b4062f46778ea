// SPDX-License-Identifier: GPL-2.0-or-later
/* engine.c — the Unicorn release check (engine.h). */
#include "emu/engine.h"

#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "base/error.h"

/* uc_version(): major << 24 | minor << 16 | patch << 8 | extra. */
static unsigned loaded(void)
{
    return uc_version(NULL, NULL);
}

char *engine_unicorn_version(void)
{
    unsigned v = loaded();
    return g_strdup_printf("%u.%u.%u", v >> 24, (v >> 16) & 0xff, (v >> 8) & 0xff);
}

bool engine_check_unicorn(char **warning, GError **error)
{
    unsigned v = loaded();
    if (v >> 24 == ENGINE_UNICORN_MAJOR && ((v >> 16) & 0xff) == ENGINE_UNICORN_MINOR
        && ((v >> 8) & 0xff) == ENGINE_UNICORN_PATCH)
        return true;
    g_autofree char *have = engine_unicorn_version();
    const char *allow = getenv("NOCPROF_ALLOW_UNICORN");
    if (allow && strcmp(allow, "1") == 0) {
        if (warning)
            *warning = g_strdup_printf("Unicorn %s is not the validated %u.%u.%u (NOCPROF_ALLOW_UNICORN=1): "
                                       "results are not guaranteed exact", have, ENGINE_UNICORN_MAJOR,
                                       ENGINE_UNICORN_MINOR, ENGINE_UNICORN_PATCH);
        return true;
    }
    g_set_error(error, NOCPROF_ERROR, NOCPROF_ERROR_USAGE,
                "libunicorn %s is loaded but nocprof is validated on Unicorn %u.%u.%u only (its exactness "
                "rests on that release's threading and translation behaviour, docs/design.md); install "
                "%u.%u.%u (scripts/setup.sh) or set NOCPROF_ALLOW_UNICORN=1 to run anyway",
                have, ENGINE_UNICORN_MAJOR, ENGINE_UNICORN_MINOR, ENGINE_UNICORN_PATCH, ENGINE_UNICORN_MAJOR,
                ENGINE_UNICORN_MINOR, ENGINE_UNICORN_PATCH);
    return false;
}
