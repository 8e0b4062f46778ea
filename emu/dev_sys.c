// SPDX-License-Identifier: GPL-2.0-or-later
/* dev_sys.c — SYS: core identity, the cycle counter, console, exit and
 * PROF_CTRL (profile collection on/off, passed to the core's client). */
#include "emu/dev.h"

#include "nocprof/platform.h"

void dev_sys_init(SysDev *s, unsigned id, const Config *cfg, ConsoleFn fn, void *opaque)
{
    s->id = id;
    s->ncores = config_cores(cfg);
    s->mesh_w = cfg->mesh_width;
    s->mesh_h = cfg->mesh_height;
    s->head = g_string_new(NULL);
    s->line = g_string_new(NULL);
    s->console_fn = fn;
    s->console_opaque = opaque;
}

void dev_sys_clear(SysDev *s)
{
    if (s->head)
        g_string_free(s->head, TRUE);
    if (s->line)
        g_string_free(s->line, TRUE);
}

void dev_sys_flush(SysDev *s)
{
    if (s->line->len && s->console_fn)
        s->console_fn(s->console_opaque, s->id, s->line->str, s->line->len, false);
    g_string_truncate(s->line, 0);
}

static void console_byte(SysDev *s, char ch)
{
    s->console_total++;
    if (s->head->len < DEV_CONSOLE_KEEP)
        g_string_append_c(s->head, ch);
    if (ch == '\n') {
        if (s->console_fn)
            s->console_fn(s->console_opaque, s->id, s->line->str, s->line->len, true);
        g_string_truncate(s->line, 0);
        return;
    }
    g_string_append_c(s->line, ch);
    if (s->line->len == DEV_CONSOLE_PIECE)
        dev_sys_flush(s); /* a line without end: passed on in pieces */
}

static bool sys_read(void *opaque, DevAccess *a, uint32_t *v)
{
    SysDev *s = opaque;
    switch (a->reg) {
    case NP_SYS_CORE_ID: *v = s->id; return true;
    case NP_SYS_NUM_CORES: *v = s->ncores; return true;
    case NP_SYS_MESH_W: *v = s->mesh_w; return true;
    case NP_SYS_MESH_H: *v = s->mesh_h; return true;
    case NP_SYS_CYCLE_LO:
        s->cycle_hi_latch = (uint32_t)(a->now >> 32);
        *v = (uint32_t)a->now;
        return true;
    case NP_SYS_CYCLE_HI: *v = s->cycle_hi_latch; return true;
    case NP_SYS_CONSOLE: dev_wrong_direction(a, "SYS", "CONSOLE", false); return true;
    case NP_SYS_EXIT: dev_wrong_direction(a, "SYS", "EXIT", false); return true;
    case NP_SYS_PROF_CTRL: dev_wrong_direction(a, "SYS", "PROF_CTRL", false); return true;
    default: return false;
    }
}

static bool sys_write(void *opaque, DevAccess *a, uint32_t v)
{
    SysDev *s = opaque;
    switch (a->reg) {
    case NP_SYS_CONSOLE:
        console_byte(s, (char)(v & 0xff));
        return true;
    case NP_SYS_EXIT:
        s->exit_fn(s->exit_opaque, (int32_t)v, a->pc);
        return true;
    case NP_SYS_PROF_CTRL:
        if (s->prof_fn)
            s->prof_fn(s->exit_opaque, v != 0, a->pc);
        return true;
    case NP_SYS_CORE_ID: dev_wrong_direction(a, "SYS", "CORE_ID", true); return true;
    case NP_SYS_NUM_CORES: dev_wrong_direction(a, "SYS", "NUM_CORES", true); return true;
    case NP_SYS_MESH_W: dev_wrong_direction(a, "SYS", "MESH_W", true); return true;
    case NP_SYS_MESH_H: dev_wrong_direction(a, "SYS", "MESH_H", true); return true;
    case NP_SYS_CYCLE_LO: dev_wrong_direction(a, "SYS", "CYCLE_LO", true); return true;
    case NP_SYS_CYCLE_HI: dev_wrong_direction(a, "SYS", "CYCLE_HI", true); return true;
    default:
        return false;
    }
}

const DevOps dev_sys_ops = { .read = sys_read, .write = sys_write };
