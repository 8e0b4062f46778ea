// SPDX-License-Identifier: GPL-2.0-or-later
/* symbols.h — functions, source lines and disassembly of one firmware ELF.
 *
 * libelf/libdw/capstone live in symbols.c only. Functions come from
 * .symtab (STT_FUNC, plus STT_NOTYPE symbols in executable sections that
 * look like code labels such as assembly entry points), sorted by address
 * for binary-search lookup (gprof sym_lookup). Source lines come from DWARF
 * .debug_line. Missing information degrades to addresses and "??:0", never
 * to an error: only an unreadable or non-MIPS ELF is an error.
 *
 * Addresses are 32-bit guest virtual addresses (kseg0, e.g. 0x80000180).
 */
#ifndef NOCPROF_SYMBOLS_H
#define NOCPROF_SYMBOLS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"

typedef struct SymFunc {
    char *name;
    uint32_t addr;
    uint32_t size;      /* bytes; when the symbol says 0, up to the next
                           function or the end of its section */
} SymFunc;

typedef struct SymLine {
    const char *file;   /* owned by the Symbols; NULL when unknown */
    unsigned line;      /* 0 when unknown */
} SymLine;

typedef struct Symbols Symbols;

/* Errors: NOCPROF_ERROR_ELF (elf/elf_file.h) naming the file. */
/* Resource limits (docs/robustness.md): functions past SYMBOLS_MAX_FUNCS
 * (in address order) and line-table rows past SYMBOLS_MAX_LINES are
 * dropped and counted; a function's size never reaches past the loaded
 * bytes of its executable segment or the next function, and is at most
 * SYMBOLS_MAX_UNLOADED bytes outside every loaded segment. */
#define SYMBOLS_MAX_FUNCS 2000000u
#define SYMBOLS_MAX_LINES 20000000u
#define SYMBOLS_MAX_UNLOADED 65536u

Symbols *symbols_load(const char *elf_path, GError **error);
/* symbols_load keeping at most max_funcs functions ([limits] functions). */
Symbols *symbols_load_max(const char *elf_path, unsigned max_funcs, GError **error);
/* The executable PT_LOAD segments' file bytes as address ranges [lo, hi),
 * sorted, overlapping ones merged; at most max are stored, the count of all
 * is returned. */
unsigned symbols_exec_ranges(const Symbols *s, uint32_t *lo, uint32_t *hi, unsigned max);
/* How many functions / line rows the limits above dropped (0 normally). */
unsigned symbols_dropped_funcs(const Symbols *s);
unsigned symbols_dropped_lines(const Symbols *s);
/* Rows of the DWARF line table kept (0: no .debug_line, built without -g). */
unsigned symbols_line_rows(const Symbols *s);
void symbols_free(Symbols *s);

bool symbols_big_endian(const Symbols *s);
unsigned symbols_count(const Symbols *s);
const SymFunc *symbols_func(const Symbols *s, unsigned index); /* sorted */
/* Index of the function containing addr, or -1. */
int symbols_lookup(const Symbols *s, uint32_t addr);
/* Index of the function starting exactly at addr, or -1. */
int symbols_at(const Symbols *s, uint32_t addr);
/* addr, or its kseg0/kseg1 alias (addr ^ 0x2000_0000) when no function
 * holds addr and one holds the alias: code linked in kseg0 and run
 * through kseg1 (uncached), or the other way round, is that code. */
uint32_t symbols_code_addr(const Symbols *s, uint32_t addr);

/* The primary source file of the compilation unit whose code holds addr
 * (DW_AT_name joined to DW_AT_comp_dir, as line files are; not a header
 * inlined into it), or NULL. */
const char *symbols_unit_file(const Symbols *s, uint32_t addr);

/* Where the function starting at addr is declared (DWARF DW_AT_decl_file
 * and DW_AT_decl_line of the subprogram whose low_pc is addr: the line of
 * its name, gcov's line of the function), or { NULL, 0 }. */
SymLine symbols_decl(const Symbols *s, uint32_t addr);

/* Source position of the instruction at addr (DWARF line table). */
SymLine symbols_line(const Symbols *s, uint32_t addr);

/* Read instruction words from the ELF's loaded image (PT_LOAD file bytes),
 * in host order. False if addr is not inside a loaded executable segment. */
bool symbols_read_word(const Symbols *s, uint32_t addr, uint32_t *word);

/* Disassemble the instruction at addr as "mnemonic operands" (capstone,
 * MIPS32, the ELF's byte order). Returns a newly allocated string;
 * "<unreadable>" if addr is outside the image. */
char *symbols_disasm(const Symbols *s, uint32_t addr);

/* "file:line" or "??:0" for addr, newly allocated. */
char *symbols_where(const Symbols *s, uint32_t addr);
/* The ELF's path as loaded. */
const char *symbols_path(const Symbols *s);

/* Functions inlined at an address (symbols_inline.c): innermost first,
 * each with the file and line of its call in the next one out (the last
 * one's call is in the symbol's own function). */
typedef struct SymInline {
    char *name;
    char *call_file;    /* NULL when unknown */
    unsigned call_line; /* 0 when unknown */
} SymInline;
typedef struct SymInlineCtx SymInlineCtx;
/* Opens the ELF's DWARF again; NULL when it has none (then no inlines). */
/* What a data address is, for a fault's message: "NAME+OFF, in the
 * N-byte object NAME" (an STT_OBJECT of .symtab, kseg0 and kseg1 alike),
 * "NULL+OFF (through a NULL pointer)" below 0x1000; NULL when nothing is known. g_free it. */
char *symbols_data_at(const Symbols *s, uint32_t addr);
/* A fault's message with what addr is (symbols_data_at) after its first
 * line, before the registers; NULL when nothing is known. g_free it. */
char *symbols_describe_fault(const Symbols *s, const char *message, uint32_t addr);
SymInlineCtx *symbols_inline_open(const Symbols *s);
unsigned symbols_inline_at(SymInlineCtx *x, uint32_t addr, SymInline *out, unsigned max);
void symbols_inline_clear(SymInline *v, unsigned n);
void symbols_inline_close(SymInlineCtx *x);

/* A stopped core's call stack from the ELF's call frame information
 * (symbols_unwind.c; .debug_frame from -g, .eh_frame): pcs[0] = pc, then
 * each caller's call site (its return address - 8), or CP0 EPC exactly
 * for the frame the runtime's interrupt vector interrupted (its CFI is a
 * signal frame returning through column SYM_UNWIND_EPC_COLUMN). gpr are
 * the registers at regs_pc: pc, or after pc's block when a fault was
 * found at the block's end (a stack overflow); read copies len bytes of guest memory at addr
 * (false: not readable). Returns the frames written (at least 1); *why
 * is NULL when the walk reached the outermost frame (the reset entry,
 * its return address undefined), else why it stopped (g_free it). */
#define SYM_UNWIND_EPC_COLUMN 80
typedef bool (*SymUnwindRead)(void *opaque, uint32_t addr, uint8_t *buf, uint32_t len);
unsigned symbols_unwind(const Symbols *s, const uint32_t gpr[32], uint32_t pc, uint32_t regs_pc, uint32_t epc,
                        SymUnwindRead read, void *opaque, uint32_t *pcs, unsigned max, char **why);
/* symbols_unwind with the registers at pc, and cfas[k]: frame k's
 * canonical frame address (its caller's $sp at the call; what
 * DW_OP_call_frame_cfa gives), 0 where not known. */
unsigned symbols_unwind_cfa(const Symbols *s, const uint32_t gpr[32], uint32_t pc, uint32_t epc, SymUnwindRead read,
                            void *opaque, uint32_t *pcs, uint32_t *cfas, unsigned max, char **why);

/* What a stack or heap address is, for a fault's message (symbols_locals.c,
 * libdw): the stack as unwound at the fault (pcs[k] in frame k, cfas[k] its
 * frame address, sp the innermost's $sp; n frames) and read for the heap's
 * break. "buf+5, in the 16-byte local buf of parse_header (frame 1)",
 * "2 bytes past the 16-byte local buf of parse_header (frame 1)", "in the
 * heap, 11 bytes past _end" (below the runtime's break, heap_brk), "9
 * bytes below the stack pointer, in no frame" (above it); NULL when
 * nothing is known. g_free it. */
typedef struct SymStack {
    const uint32_t *pcs, *cfas;
    unsigned n;
    uint32_t sp;
    SymUnwindRead read;   /* guest memory (the runtime's heap break) */
    void *opaque;
} SymStack;
char *symbols_stack_at(const Symbols *s, uint32_t addr, const SymStack *st);
/* symbols_describe_fault, with a stack or heap address named too (st
 * NULL: only symbols_data_at's). */
char *symbols_describe_fault_at(const Symbols *s, const char *message, uint32_t addr, const SymStack *st);

#endif
