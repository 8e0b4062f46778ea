// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rt_cache.S - the cache-flush routines GCC calls for
 * __builtin___clear_cache(beg, end) when it does not expand it inline
 * (without -msynci): _flush_cache(addr, nbytes, cache) (MIPS's
 * CACHE_FLUSH_FUNC) and libgcc's __clear_cache(beg, end).
 *
 * MIPS32 Release 2 (MIPS32 PRA, "SYNCI"): synci on every cache line of the
 * range (the line step is hardware register 1, SYNCI_Step, read with
 * rdhwr; 0 means no cache needs it), then sync, then return with jr.hb, the
 * instruction hazard barrier, so that the caller fetches the new code.
 * libnocprof.a holds it (linked only when called).
 */
        .set    noreorder
        .set    noat
        .set    mips32r2

        /* flush [$a0, $a0 + $a1) */
        .macro  FLUSH_RANGE
        blez    $a1, 2f
        rdhwr   $v0, $1                 /* SYNCI_Step (delay slot) */
        beqz    $v0, 2f
        subu    $v1, $zero, $v0         /* -step: a mask (delay slot) */
        and     $t0, $a0, $v1           /* the first line */
        addu    $a1, $a0, $a1           /* the end */
1:      synci   0($t0)
        addu    $t0, $t0, $v0
        sltu    $at, $t0, $a1
        bnez    $at, 1b
        nop
2:      sync
        jr.hb   $ra
        nop
        .endm

        .text
        .globl  _flush_cache
        .type   _flush_cache, @function
        .ent    _flush_cache
_flush_cache:                           /* (void *addr, int nbytes, int cache) */
        FLUSH_RANGE
        .end    _flush_cache
        .size   _flush_cache, . - _flush_cache

        .globl  __clear_cache
        .type   __clear_cache, @function
        .ent    __clear_cache
__clear_cache:                          /* (char *beg, char *end) */
        subu    $a1, $a1, $a0
        FLUSH_RANGE
        .end    __clear_cache
        .size   __clear_cache, . - __clear_cache
