// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_config.c — libFuzzer target: the configuration parser (emu/config.c)
 * on arbitrary INI text, then --set style overrides and validation. */
#include <stdint.h>
#include <string.h>

#include "platform/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Config c;
    config_defaults(&c);
    GError *err = NULL;
    if (config_load_data(&c, (const char *)data, size, "fuzz.ini", &err))
        config_validate(&c, "fuzz.ini", NULL);
    g_clear_error(&err);
    /* the same bytes as one --set assignment (up to the first NUL) */
    char *text = g_strndup((const char *)data, size);
    config_defaults(&c);
    config_set(&c, text, &err);
    g_clear_error(&err);
    g_free(text);
    return 0;
}
