// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bare.c - bench-bare, the reference runner of the benchmark harness.
 *
 * Runs one nocprof firmware ELF on a *bare* Unicorn instance per core, with
 * no block or code hook at all: the ceiling of the engine on this machine,
 * to which nocprof's speed is compared (docs/performance.md).
 *
 * Same setup as nocprof's core (emu/core.c) where it matters for speed:
 *   - uc_open(MIPS32 | byte order from EI_DATA), CPU model 24KF,
 *     TCG buffer 32 MiB, UC_TLB_VIRTUAL with a TLB-fill hook mapping
 *     kseg0/kseg1 to vaddr & 0x1fffffff (called on TLB misses only);
 *   - RAM at physical 0 (--ram, default 1 MiB), the ELF's PT_LOAD segments
 *     loaded there (read with libelf);
 *   - reset state: PC = entry, $a0 = core id, $a1 = number of cores,
 *     $sp = top of RAM - 16 (kseg0);
 *   - a minimal MMIO window at physical 0x1F000000 (uc_mmio_map) for the
 *     SYS device: CORE_ID, NUM_CORES, MESH_W/H, CYCLE_LO/HI (a pseudo clock
 *     that advances 1000 cycles per read: there is no cycle count without
 *     hooks), CONSOLE, EXIT (uc_emu_stop).  TIMER, IRQC and NI read as 0 and
 *     ignore writes: there is no network and there are no interrupts, so
 *     only self-contained workloads (cpu, store) are meaningful here.
 *   - An interrupt hook (UC_HOOK_INTR, not on the fast path) only to stop a
 *     core that raises a CPU exception.
 *
 * The cores run one after the other (all instances exist for the whole run,
 * as in nocprof).  Timed: from the first uc_emu_start to the last core's
 * stop (printed as emu_seconds), plus the process as a whole by the harness.
 *
 * Instruction counts: without hooks Unicorn cannot count.  --count adds a
 * UC_HOOK_BLOCK that adds size / 4 per block executed: a separate, untimed
 * pass the harness uses to check that both runners executed the same work
 * (and to count the blocks executed, the unit of a hook's cost).
 *
 * --empty-hook adds a UC_HOOK_BLOCK whose callback does nothing: the cost of
 * the hook call itself, the floor of any design that charges cycles per
 * block through Unicorn's block hook (as nocprof does).
 *
 * The floor modes (issue 24): a minimal block hook with no nocprof code that
 * does exactly the irreducible work an exact profile implies, to measure
 * how far any block-hook design on Unicorn 2.1.1 can get (docs/performance.md,
 * "The floor of a block hook").
 *   --floor-count  (a) exact instruction and cycle counts: each block's
 *     instructions and static cycles come from a per-block table built the
 *     first time the block is seen (btab[phys >> 2], as nocprof's); per
 *     block executed: the table lookup, the taken/not-taken extra of the
 *     previous block's branch (selected by "did we arrive at its
 *     fall-through"), charged to the previous block, the clock, the block's
 *     execution count, the previous-block pointer.  Instructions are
 *     sum(count x ninsns) at the end: exact, nothing per instruction.
 *   --floor-calls  (b) that plus an exact shadow call stack: a call is a
 *     block ending in jal/jalr/bal (its return address the branch + 8), a
 *     return a block ending in jr $ra that lands on the top frame's return
 *     address (else the stack is searched down for it: a longjmp).  Per
 *     call: the arc (call site block, callee address) from a one-entry
 *     cache in the calling block, else a GHashTable; its count; a frame.
 *     Per return: the arc's inclusive cycles.  No calling contexts, no
 *     per-function recursion bookkeeping: less than nocprof's profile, so a
 *     lower bound of its cost.
 *   --floor-contexts  (c) that plus what nocprof's profile keeps per call
 *     and return: a calling-context tree (a node per (parent context,
 *     function), made the first time, cached with the arc for the parent it
 *     was made under; the cycles since the last stack change charged to
 *     the current node), per-function calls and recursive calls, and
 *     inclusive cycles charged to the function and the arc only by the
 *     outermost frame of a function.  Still less than nocprof (no $sp
 *     matching, no interrupt frames or excluded time, no tail calls,
 *     regions or events).
 *   The floor modes print their blocks, calls, returns, cycles and
 *   instructions in the BARE line (the check that they did the work).
 *
 * Usage: bench-bare [--cores N] [--ram BYTES] [--count] [--empty-hook]
 *                   [--floor-count | --floor-calls] [-q] FIRMWARE.elf
 * Prints the console of core N as "[coreN] ..." (unless -q) and, last, one
 * line "BARE {json}" with cores, exit codes, emu_seconds and (with --count)
 * instructions.  Exit status 0 if every core exited with 0, 1 if one exited
 * non-zero, 2 usage/ELF error, 3 a core stopped otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <unicorn/unicorn.h>

#include "elf/elf_file.h"

#define MAX_CORES 64
#define MMIO_PHYS 0x1F000000u
#define MMIO_SIZE (4u * 4096u)

typedef struct {
    uint32_t paddr, filesz, memsz;
    uint8_t *data;
} Seg;

typedef struct {
    bool big_endian;
    uint32_t entry;
    unsigned nsegs;
    Seg segs[16];
} Image;

/* ---- the floor modes ---------------------------------------------------- */

enum { F_NONE, F_CALL, F_RET };

typedef struct FArc FArc;

typedef struct FBlock {
    uint32_t addr, size, fallthrough; /* fallthrough 1: never (unconditional) */
    uint32_t ninsns, cost, bt, bnt;   /* static cycles, taken / not-taken extra */
    uint32_t kind, ret;               /* F_CALL: its return address */
    uint64_t count;
    int64_t extra;                    /* branch cycles charged to it */
    uint32_t arc_callee;              /* the one-entry arc cache (F_CALL) */
    FArc *arc;
} FBlock;

typedef struct {
    uint64_t calls, rcalls, incl;
    uint32_t active;                  /* frames of it on the stack */
} FFunc;

struct FArc {
    uint32_t site, callee;
    uint64_t count, incl;
    FFunc *fn;                        /* (c): the callee */
    uint32_t ctx_parent, ctx_node;    /* (c): the context it made last */
};

typedef struct {
    uint32_t ret;
    FArc *arc;
    uint64_t entry;
    uint32_t ctx;                     /* (c): the context it entered */
    bool outermost;                   /* (c): no frame of its function below */
} FFrame;

typedef struct {
    uint32_t parent, func;
    uint64_t self;
} FCtx;

typedef struct {
    FBlock **btab;
    uint32_t nslots;
    FBlock none;                      /* prev before the first block */
    FBlock *prev;
    uint64_t cycles, unmatched;
    GPtrArray *blocks;
    GHashTable *arcs;                 /* (site << 32 | callee) -> FArc */
    FFrame *stack;
    unsigned depth, cap;
    /* (c) */
    GHashTable *funcs;                /* callee address -> FFunc */
    GArray *ctx;                      /* FCtx, 0 the root */
    GHashTable *ctx_index;            /* (func << 32 | parent) -> node + 1 */
    uint32_t ctx_cur;
    uint64_t ctx_mark;
} Floor;

typedef struct {
    unsigned id, ncores;
    uc_engine *uc;
    Floor fl;
    bool exited, stopped_other;
    int exit_code;
    uint64_t pseudo_cycles, instructions, blocks;
    uint32_t cycle_hi;
    bool quiet, at_line_start, big_endian;
    const char *why;
} BareCore;

static uint32_t phys(uint32_t vaddr)
{
    return vaddr & 0x1fffffffu;
}

/* The PT_LOAD segments, through the project's one ELF reader. */
static int load_elf(const char *path, uint32_t ram_size, Image *img)
{
    GError *err = NULL;
    ElfFile *f = elf_file_open(path, &err);
    if (!f) {
        fprintf(stderr, "bench-bare: %s\n", err->message);
        g_error_free(err);
        return -1;
    }
    img->big_endian = elf_file_big_endian(f);
    img->entry = elf_file_entry(f);
    int rc = 0;
    for (unsigned i = 0; rc == 0 && i < elf_file_nloads(f); i++) {
        const ElfLoad *l = elf_file_load(f, i);
        uint32_t pa = phys(l->vaddr);
        if ((uint64_t)pa + l->memsz > ram_size || img->nsegs == 16) {
            fprintf(stderr, "bench-bare: %s: PT_LOAD segment %u outside RAM\n", path, l->index);
            rc = -1;
        } else if (l->filesz && !l->bytes) {
            fprintf(stderr, "bench-bare: %s: truncated\n", path);
            rc = -1;
        } else {
            Seg *s = &img->segs[img->nsegs++];
            s->paddr = pa;
            s->filesz = l->filesz;
            s->memsz = l->memsz;
            s->data = malloc(s->filesz ? s->filesz : 1);
            memcpy(s->data, l->bytes ? l->bytes : (const uint8_t *)"", s->filesz);
        }
    }
    elf_file_close(f);
    return rc;
}

/* ---- SYS device: the minimum the runtime needs ------------------------- */

static uint64_t mmio_read(uc_engine *uc, uint64_t offset, unsigned size, void *opaque)
{
    BareCore *c = opaque;
    switch (offset) {
    case 0x00: return c->id;
    case 0x04: return c->ncores;
    case 0x08: return c->ncores >= 2 ? 2 : 1;
    case 0x0C: return (c->ncores + 1) / 2;
    case 0x10:
        c->pseudo_cycles += 1000;
        c->cycle_hi = (uint32_t)(c->pseudo_cycles >> 32);
        return (uint32_t)c->pseudo_cycles;
    case 0x14: return c->cycle_hi;
    case 0x100C: return 1; /* NI TX_STATUS: ready (nothing is ever sent) */
    default: return 0;
    }
}

static void mmio_write(uc_engine *uc, uint64_t offset, unsigned size, uint64_t value, void *opaque)
{
    BareCore *c = opaque;
    if (offset == 0x18) {
        char ch = (char)(value & 0xff);
        if (!c->quiet) {
            if (c->at_line_start)
                printf("[core%u] ", c->id);
            putchar(ch);
        }
        c->at_line_start = ch == '\n';
    } else if (offset == 0x1C) {
        c->exit_code = (int32_t)(uint32_t)value;
        c->exited = true;
        uc_emu_stop(uc);
    }
}

static bool hook_tlb_fill(uc_engine *uc, uint64_t vaddr, uc_mem_type type,
                          uc_tlb_entry *result, void *opaque)
{
    result->paddr = phys((uint32_t)vaddr);
    result->perms = UC_PROT_ALL;
    return true;
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *opaque)
{
    BareCore *c = opaque;
    c->stopped_other = true;
    c->why = "CPU exception";
    uc_emu_stop(uc);
}

static void hook_empty(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
}

static void hook_count(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    BareCore *c = opaque;
    c->instructions += size / 4;
    c->blocks++;
}

static uint32_t guest_word(const uint8_t *p, bool big_endian)
{
    return big_endian ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
                      : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* The control instruction class of w: 0 none, 1 branch, 2 unconditional
 * jump/branch, with F_CALL / F_RET in *kind. */
static unsigned classify(uint32_t w, uint32_t *kind)
{
    uint32_t op = w >> 26, rs = (w >> 21) & 31, rt = (w >> 16) & 31, fn = w & 63;
    *kind = F_NONE;
    switch (op) {
    case 0:
        if (fn == 8) { *kind = rs == 31 ? F_RET : F_NONE; return 2; } /* jr */
        if (fn == 9) { *kind = F_CALL; return 2; }                    /* jalr */
        return 0;
    case 1:
        if (rt >= 0x10 && rt <= 0x13) { *kind = F_CALL; return rs == 0 && rt == 0x11 ? 2 : 1; }
        return rt <= 3 ? 1 : 0;
    case 2: return 2;                                        /* j */
    case 3: *kind = F_CALL; return 2;                        /* jal */
    case 4: return rs == 0 && rt == 0 ? 2 : 1;               /* beq (b) */
    case 5: case 6: case 7: case 20: case 21: case 22: case 23: return 1;
    case 0x11: return rs == 8 ? 1 : 0;                       /* bc1 */
    default: return 0;
    }
}

/* The table entry of a block seen for the first time (out of the fast path). */
G_GNUC_NO_INLINE static FBlock *floor_block_new(BareCore *c, uint32_t addr, uint32_t size)
{
    Floor *f = &c->fl;
    uint32_t idx = phys(addr) >> 2;
    FBlock *b = g_new0(FBlock, 1);
    b->addr = addr;
    b->size = size;
    b->ninsns = size / 4;
    b->fallthrough = addr + size;
    uint8_t *bytes = g_malloc(size ? size : 4);
    bool ok = size && uc_mem_read(c->uc, phys(addr), bytes, size) == UC_ERR_OK;
    for (uint32_t i = 0; ok && i < b->ninsns; i++) {
        uint32_t w = guest_word(bytes + 4 * i, c->big_endian), kind;
        uint32_t op = w >> 26;
        b->cost += 1 + (op >= 0x20 && op < 0x28); /* a load's extra cycle, say */
        unsigned cls = b->bt ? 0 : classify(w, &kind);
        if (cls) {
            b->bt = 1;
            if (cls == 2)
                b->fallthrough = 1;
            b->kind = kind;
            b->ret = addr + 4 * i + 8;
        }
    }
    g_free(bytes);
    g_ptr_array_add(f->blocks, b);
    if (idx < f->nslots)
        f->btab[idx] = b;
    return b;
}

static FArc *floor_arc(Floor *f, FBlock *p, uint32_t callee)
{
    uint64_t key = (uint64_t)p->addr << 32 | callee;
    FArc *a = g_hash_table_lookup(f->arcs, &key);
    if (!a) {
        a = g_new0(FArc, 1);
        a->site = p->addr;
        a->callee = callee;
        uint64_t *k = g_new(uint64_t, 1);
        *k = key;
        g_hash_table_insert(f->arcs, k, a);
    }
    p->arc_callee = callee;
    p->arc = a;
    return a;
}

/* A return that is not to the top frame: pop down to the frame that
 * returns there (a longjmp), or ignore it when none does. */
G_GNUC_NO_INLINE static void floor_return_slow(Floor *f, uint32_t addr, uint64_t now)
{
    unsigned j = f->depth;
    while (j > 0 && f->stack[j - 1].ret != addr)
        j--;
    if (j == 0) {
        f->unmatched++;
        return;
    }
    while (f->depth >= j) {
        FFrame *t = &f->stack[--f->depth];
        t->arc->incl += now - t->entry;
    }
}

/* A call whose arc is not in the calling block's cache, or a full stack. */
G_GNUC_NO_INLINE static void floor_call_slow(Floor *f, FBlock *p, uint32_t callee, uint64_t now)
{
    FArc *a = p->arc_callee == callee && p->arc ? p->arc : floor_arc(f, p, callee);
    if (f->depth == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 256;
        f->stack = g_renew(FFrame, f->stack, f->cap);
    }
    a->count++;
    f->stack[f->depth++] = (FFrame){ .ret = p->ret, .arc = a, .entry = now };
}

/* ---- (c): (b) with calling contexts and recursion-aware inclusive time */

/* The context node (parent, func), made the first time it is entered. */
static uint32_t floor_ctx_child(Floor *f, uint32_t parent, uint32_t func)
{
    /* the parent in the low half: GLib's g_int64_hash may hash only
     * the low 32 bits (2.74), and a function has many parents */
    uint64_t key = (uint64_t)func << 32 | parent;
    gpointer v = g_hash_table_lookup(f->ctx_index, &key);
    if (v)
        return GPOINTER_TO_UINT(v) - 1;
    FCtx n = { .parent = parent, .func = func };
    g_array_append_val(f->ctx, n);
    uint64_t *k = g_new(uint64_t, 1);
    *k = key;
    g_hash_table_insert(f->ctx_index, k, GUINT_TO_POINTER(f->ctx->len));
    return f->ctx->len - 1;
}

/* The cycles since the last stack change go to the current context. */
static inline void floor_ctx_account(Floor *f, uint64_t now)
{
    ((FCtx *)(void *)f->ctx->data)[f->ctx_cur].self += now - f->ctx_mark;
    f->ctx_mark = now;
}

static inline void floor_ctx_push(Floor *f, const FBlock *p, FArc *a, uint64_t now)
{
    FFunc *fn = a->fn;
    bool outermost = fn->active++ == 0;
    fn->calls++;
    fn->rcalls += !outermost;
    a->count++;
    floor_ctx_account(f, now);
    f->stack[f->depth++] = (FFrame){ .ret = p->ret, .arc = a, .entry = now, .ctx = a->ctx_node,
                                     .outermost = outermost };
    f->ctx_cur = a->ctx_node;
}

static inline void floor_ctx_pop(Floor *f, uint64_t now)
{
    FFrame *t = &f->stack[--f->depth];
    FFunc *fn = t->arc->fn;
    if (t->outermost) {
        fn->incl += now - t->entry;
        t->arc->incl += now - t->entry;
    }
    fn->active--;
    floor_ctx_account(f, now);
    f->ctx_cur = f->depth ? f->stack[f->depth - 1].ctx : 0;
}

/* A call whose arc (with its callee and context) is not in the calling
 * block's cache for the current context, or a full stack. */
G_GNUC_NO_INLINE static void floor_ctx_call_slow(Floor *f, FBlock *p, uint32_t callee, uint64_t now)
{
    FArc *a = p->arc_callee == callee && p->arc ? p->arc : floor_arc(f, p, callee);
    if (!a->fn) {
        a->fn = g_hash_table_lookup(f->funcs, GUINT_TO_POINTER(callee));
        if (!a->fn) {
            a->fn = g_new0(FFunc, 1);
            g_hash_table_insert(f->funcs, GUINT_TO_POINTER(callee), a->fn);
        }
    }
    if (a->ctx_node == 0 || a->ctx_parent != f->ctx_cur) {
        a->ctx_parent = f->ctx_cur;
        a->ctx_node = floor_ctx_child(f, f->ctx_cur, callee);
    }
    if (f->depth == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 256;
        f->stack = g_renew(FFrame, f->stack, f->cap);
    }
    floor_ctx_push(f, p, a, now);
}

/* A return that is not to the top frame (a longjmp), or unmatched. */
G_GNUC_NO_INLINE static void floor_ctx_return_slow(Floor *f, uint32_t addr, uint64_t now)
{
    unsigned j = f->depth;
    while (j > 0 && f->stack[j - 1].ret != addr)
        j--;
    if (j == 0) {
        f->unmatched++;
        return;
    }
    while (f->depth >= j)
        floor_ctx_pop(f, now);
}

/* A block not in the table yet: make its entry, then run the hook again. */
G_GNUC_NO_INLINE static void floor_miss(uc_engine *uc, uint64_t address, uint32_t size, void *opaque,
                                        void (*hook)(uc_engine *, uint64_t, uint32_t, void *))
{
    floor_block_new(opaque, (uint32_t)address, size);
    hook(uc, address, size, opaque);
}

/* What every floor mode does first, (a): the block's table entry (NULL:
 * not in the table yet, nothing done), the previous block's branch extra
 * charged to it, the clock (*start: the block's first cycle), its count,
 * prev (*pp: the previous block). */
static inline __attribute__((always_inline)) FBlock *floor_enter(Floor *f, uint32_t addr, uint32_t size,
                                                                 FBlock **pp, uint64_t *start)
{
    uint32_t idx = phys(addr) >> 2;
    FBlock *b = G_LIKELY(idx < f->nslots) ? f->btab[idx] : NULL;
    if (G_UNLIKELY(!b || b->addr != addr || b->size != size))
        return NULL;
    FBlock *p = f->prev;
    uint64_t bt = addr != p->fallthrough ? p->bt : p->bnt;
    p->extra += (int64_t)bt;
    *start = f->cycles + bt;
    f->cycles = *start + b->cost;
    b->count++;
    f->prev = b;
    *pp = p;
    return b;
}

/* (a): the table, the branch extra, the clock, the count, prev. */
static void hook_floor_count(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    BareCore *c = opaque;
    FBlock *p;
    uint64_t start;
    if (G_UNLIKELY(!floor_enter(&c->fl, (uint32_t)address, size, &p, &start)))
        floor_miss(uc, address, size, opaque, hook_floor_count); /* a tail call: the rest is a leaf */
}

/* (b): (a) and the shadow call stack with per-arc counts and inclusive cycles. */
static void hook_floor_calls(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    BareCore *c = opaque;
    Floor *f = &c->fl;
    uint32_t addr = (uint32_t)address;
    FBlock *p;
    uint64_t start;
    if (G_UNLIKELY(!floor_enter(f, addr, size, &p, &start))) {
        floor_miss(uc, address, size, opaque, hook_floor_calls); /* a tail call: the rest is a leaf */
        return;
    }
    /* the transfer last, so that its rare cases are tail calls: the
     * hook stays a leaf (no registers saved) */
    if (p->kind == F_CALL && addr != p->fallthrough) {
        FArc *a = p->arc;
        if (G_UNLIKELY(p->arc_callee != addr || !a || f->depth == f->cap)) {
            floor_call_slow(f, p, addr, start);
            return;
        }
        a->count++;
        f->stack[f->depth++] = (FFrame){ .ret = p->ret, .arc = a, .entry = start };
    } else if (p->kind == F_RET) {
        if (G_UNLIKELY(!f->depth || f->stack[f->depth - 1].ret != addr)) {
            floor_return_slow(f, addr, start);
            return;
        }
        FFrame *t = &f->stack[--f->depth];
        t->arc->incl += start - t->entry;
    }
}

/* (c): (b) with a calling-context tree (a node per (parent, function),
 * its self cycles) and per-function calls, recursive calls and inclusive
 * cycles counted only for the outermost frame of a function: what
 * nocprof's quick call and return paths keep, without its interrupt
 * exclusion, $sp matching, regions or events. */
static void hook_floor_contexts(uc_engine *uc, uint64_t address, uint32_t size, void *opaque)
{
    BareCore *c = opaque;
    Floor *f = &c->fl;
    uint32_t addr = (uint32_t)address;
    FBlock *p;
    uint64_t start;
    if (G_UNLIKELY(!floor_enter(f, addr, size, &p, &start))) {
        floor_miss(uc, address, size, opaque, hook_floor_contexts); /* a tail call: the rest is a leaf */
        return;
    }
    if (p->kind == F_CALL && addr != p->fallthrough) {
        FArc *a = p->arc;
        if (G_UNLIKELY(p->arc_callee != addr || !a || !a->fn || a->ctx_node == 0
                       || a->ctx_parent != f->ctx_cur || f->depth == f->cap)) {
            floor_ctx_call_slow(f, p, addr, start);
            return;
        }
        floor_ctx_push(f, p, a, start);
    } else if (p->kind == F_RET) {
        if (G_UNLIKELY(!f->depth || f->stack[f->depth - 1].ret != addr)) {
            floor_ctx_return_slow(f, addr, start);
            return;
        }
        floor_ctx_pop(f, start);
    }
}

static void floor_init(BareCore *c, uint32_t ram_size)
{
    Floor *f = &c->fl;
    f->nslots = ram_size / 4;
    f->btab = g_new0(FBlock *, f->nslots);
    f->none.fallthrough = 1;
    f->prev = &f->none;
    f->blocks = g_ptr_array_new_with_free_func(g_free);
    f->arcs = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    f->funcs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    f->ctx = g_array_new(FALSE, TRUE, sizeof(FCtx));
    g_array_set_size(f->ctx, 1); /* the root */
    f->ctx_index = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
}

static void floor_free(Floor *f)
{
    if (!f->blocks)
        return;
    g_free(f->btab);
    g_ptr_array_free(f->blocks, TRUE);
    g_hash_table_destroy(f->arcs);
    g_hash_table_destroy(f->funcs);
    g_array_free(f->ctx, TRUE);
    g_hash_table_destroy(f->ctx_index);
    g_free(f->stack);
}

#define UC_CHECK(call, what) do { uc_err e_ = (call); if (e_ != UC_ERR_OK) { \
    fprintf(stderr, "bench-bare: core %u: %s: %s\n", c->id, what, uc_strerror(e_)); \
    return -1; } } while (0)

static int core_setup(BareCore *c, const Image *img, uint32_t ram_size, bool count, bool empty_hook,
                      int floor)
{
    uc_mode mode = UC_MODE_MIPS32 | (img->big_endian ? UC_MODE_BIG_ENDIAN : UC_MODE_LITTLE_ENDIAN);
    uc_hook h;
    UC_CHECK(uc_open(UC_ARCH_MIPS, mode, &c->uc), "uc_open");
    UC_CHECK(uc_ctl_set_cpu_model(c->uc, UC_CPU_MIPS32_24KF), "cpu model");
    UC_CHECK(uc_ctl_set_tcg_buffer_size(c->uc, 32u << 20), "tcg buffer");
    UC_CHECK(uc_ctl_tlb_mode(c->uc, UC_TLB_VIRTUAL), "tlb mode");
    UC_CHECK(uc_hook_add(c->uc, &h, UC_HOOK_TLB_FILL, (void *)hook_tlb_fill, c, 1, 0), "tlb hook");
    UC_CHECK(uc_mem_map(c->uc, 0, ram_size, UC_PROT_ALL), "map RAM");
    UC_CHECK(uc_mmio_map(c->uc, MMIO_PHYS, MMIO_SIZE, mmio_read, c, mmio_write, c), "map MMIO");
    UC_CHECK(uc_hook_add(c->uc, &h, UC_HOOK_INTR, (void *)hook_intr, c, 1, 0), "intr hook");
    if (count)
        UC_CHECK(uc_hook_add(c->uc, &h, UC_HOOK_BLOCK, (void *)hook_count, c, 1, 0), "count hook");
    if (empty_hook)
        UC_CHECK(uc_hook_add(c->uc, &h, UC_HOOK_BLOCK, (void *)hook_empty, c, 1, 0), "empty hook");
    c->big_endian = img->big_endian;
    if (floor) {
        floor_init(c, ram_size);
        UC_CHECK(uc_hook_add(c->uc, &h, UC_HOOK_BLOCK,
                             floor == 1   ? (void *)hook_floor_count
                             : floor == 2 ? (void *)hook_floor_calls
                                          : (void *)hook_floor_contexts,
                             c, 1, 0),
                 "floor hook");
    }
    for (unsigned i = 0; i < img->nsegs; i++)
        UC_CHECK(uc_mem_write(c->uc, img->segs[i].paddr, img->segs[i].data, img->segs[i].filesz),
                 "load segment");
    uint32_t v;
    v = img->entry;                 UC_CHECK(uc_reg_write(c->uc, UC_MIPS_REG_PC, &v), "pc");
    v = c->id;                      UC_CHECK(uc_reg_write(c->uc, UC_MIPS_REG_A0, &v), "a0");
    v = c->ncores;                  UC_CHECK(uc_reg_write(c->uc, UC_MIPS_REG_A1, &v), "a1");
    v = 0x80000000u + ram_size - 16; UC_CHECK(uc_reg_write(c->uc, UC_MIPS_REG_SP, &v), "sp");
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: bench-bare [--cores N] [--ram BYTES] [--count] [--empty-hook]\n"
               "                  [--floor-count | --floor-calls | --floor-contexts] [-q]\n"
               "                  FIRMWARE.elf\n"
               "Runs FIRMWARE.elf on N (default 4) bare Unicorn instances, one after the other,\n"
               "with no block/code hooks, and prints a last line 'BARE {json}'.\n"
               "  --count   add a block hook that counts instructions (an untimed check pass)\n"
               "  --empty-hook  add a block hook that does nothing (the cost of Unicorn's\n"
               "            block-hook call itself, the floor of any hook-based design)\n"
               "  --floor-count  a minimal block hook doing what exact instruction and cycle\n"
               "            counts need (a per-block table, the branch extra, counts)\n"
               "  --floor-calls  that plus an exact shadow call stack (per-arc counts and\n"
               "            inclusive cycles): the floor of an exact call graph\n"
               "  --floor-contexts  that plus a calling-context tree (self cycles per\n"
               "            context) and per-function calls, recursive calls and\n"
               "            recursion-aware inclusive cycles: the floor of nocprof's profile\n"
               "  -q        do not print the firmware's console\n");
}

int main(int argc, char **argv)
{
    unsigned ncores = 4;
    uint32_t ram_size = 1u << 20;
    bool count = false, empty_hook = false, quiet = false;
    int floor = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cores") && i + 1 < argc)
            ncores = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--ram") && i + 1 < argc)
            ram_size = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--count"))
            count = true;
        else if (!strcmp(argv[i], "--empty-hook"))
            empty_hook = true;
        else if (!strcmp(argv[i], "--floor-count"))
            floor = 1;
        else if (!strcmp(argv[i], "--floor-calls"))
            floor = 2;
        else if (!strcmp(argv[i], "--floor-contexts"))
            floor = 3;
        else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet"))
            quiet = true;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return usage(stdout), 0;
        else if (argv[i][0] == '-' || path)
            return usage(stderr), 2;
        else
            path = argv[i];
    }
    if (!path || ncores == 0 || ncores > MAX_CORES || ram_size < 65536)
        return usage(stderr), 2;

    Image img = { 0 };
    if (load_elf(path, ram_size, &img) != 0)
        return 2;

    static BareCore cores[MAX_CORES];
    for (unsigned i = 0; i < ncores; i++) {
        cores[i] = (BareCore){ .id = i, .ncores = ncores, .quiet = quiet, .at_line_start = true };
        if (core_setup(&cores[i], &img, ram_size, count, empty_hook, floor) != 0)
            return 2;
    }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned i = 0; i < ncores; i++) {
        BareCore *c = &cores[i];
        uc_err err = uc_emu_start(c->uc, img.entry, 0xFFFFFFFFu, 0, 0);
        if (err != UC_ERR_OK) {
            c->stopped_other = true;
            c->why = uc_strerror(err);
        } else if (!c->exited && !c->stopped_other) {
            c->stopped_other = true;
            c->why = "stopped without EXIT (wait?)";
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    fflush(stdout);

    int status = 0;
    uint64_t total = 0, blocks = 0;
    printf("BARE {\"elf\": \"%s\", \"cores\": %u, \"emu_seconds\": %.6f, \"count\": %s, \"empty_hook\": %s, \"exit_codes\": [",
           path, ncores, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9,
           count ? "true" : "false", empty_hook ? "true" : "false");
    for (unsigned i = 0; i < ncores; i++) {
        BareCore *c = &cores[i];
        printf("%s%d", i ? ", " : "", c->exited ? c->exit_code : -1);
        if (c->stopped_other) {
            fprintf(stderr, "bench-bare: core %u: %s\n", i, c->why);
            status = 3;
        } else if (c->exit_code != 0 && status == 0) {
            status = 1;
        }
        total += c->instructions;
        blocks += c->blocks;
    }
    printf("], \"instructions\": [");
    for (unsigned i = 0; i < ncores; i++)
        printf("%s%llu", i ? ", " : "", (unsigned long long)cores[i].instructions);
    printf("], \"total_instructions\": %llu, \"blocks\": %llu", (unsigned long long)total,
           (unsigned long long)blocks);
    if (floor) {
        uint64_t fb = 0, fi = 0, fc = 0, fr = 0, fu = 0, cyc = 0, arcs = 0, ctxs = 0, rcalls = 0;
        for (unsigned i = 0; i < ncores; i++) {
            const Floor *f = &cores[i].fl;
            for (unsigned k = 0; k < f->blocks->len; k++) {
                const FBlock *b = g_ptr_array_index(f->blocks, k);
                fb += b->count;
                fi += b->count * b->ninsns;
            }
            GHashTableIter it;
            gpointer k, v;
            g_hash_table_iter_init(&it, f->arcs);
            uint64_t n = 0;
            while (g_hash_table_iter_next(&it, &k, &v))
                n += ((const FArc *)v)->count;
            fc += n;
            fr += n - f->depth; /* every frame popped returned */
            fu += f->unmatched;
            cyc += f->cycles;
            arcs += g_hash_table_size(f->arcs);
            if (floor == 3) {
                ctxs += f->ctx->len;
                g_hash_table_iter_init(&it, f->funcs);
                while (g_hash_table_iter_next(&it, &k, &v))
                    rcalls += ((const FFunc *)v)->rcalls;
            }
        }
        printf(", \"floor\": \"%s\", \"floor_blocks\": %llu, \"floor_instructions\": %llu, "
               "\"floor_cycles\": %llu, \"floor_calls\": %llu, \"floor_returns\": %llu, "
               "\"floor_unmatched\": %llu, \"floor_arcs\": %llu, \"floor_contexts\": %llu, "
               "\"floor_recursive_calls\": %llu",
               floor == 1 ? "count" : floor == 2 ? "calls" : "contexts", (unsigned long long)fb, (unsigned long long)fi,
               (unsigned long long)cyc, (unsigned long long)fc, (unsigned long long)fr,
               (unsigned long long)fu, (unsigned long long)arcs, (unsigned long long)ctxs,
               (unsigned long long)rcalls);
    }
    printf("}\n");
    for (unsigned i = 0; i < ncores; i++) {
        uc_close(cores[i].uc);
        floor_free(&cores[i].fl);
    }
    for (unsigned i = 0; i < img.nsegs; i++)
        free(img.segs[i].data);
    return status;
}
