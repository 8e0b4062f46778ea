// SPDX-License-Identifier: GPL-2.0-or-later
/* nocprof/platform.h — the one register map of the nocprof platform.
 *
 * Included by the emulator (emu/dev_*.c), the firmware runtime and C
 * library, and the assembly test fixtures (.S files go through cpp), so the
 * addresses and offsets below exist exactly once. Only #defines: no C
 * types, so an assembler can include it. SPEC section 1 is the contract.
 */
#ifndef NOCPROF_PLATFORM_H
#define NOCPROF_PLATFORM_H

#ifdef __ASSEMBLER__
#define NP_U(x) x
#else
#define NP_U(x) x##u
#endif

/* ---- memory map --------------------------------------------------------- */
#define NP_KSEG0            NP_U(0x80000000)   /* cached view of physical 0 */
#define NP_KSEG1            NP_U(0xA0000000)   /* uncached view of physical 0 */
#define NP_EBASE            NP_U(0x80000000)
#define NP_VECTOR           NP_U(0x80000180)   /* EBase + 0x180 */
#define NP_MMIO_PHYS        NP_U(0x1F000000)
#define NP_DEV_SIZE         NP_U(0x1000)       /* each device's window */

/* ---- SYS --------------------------------------------------------------- */
#define NP_SYS_BASE         NP_U(0xBF000000)
#define NP_SYS_CORE_ID      NP_U(0x00)
#define NP_SYS_NUM_CORES    NP_U(0x04)
#define NP_SYS_MESH_W       NP_U(0x08)
#define NP_SYS_MESH_H       NP_U(0x0C)
#define NP_SYS_CYCLE_LO     NP_U(0x10)   /* reading latches CYCLE_HI */
#define NP_SYS_CYCLE_HI     NP_U(0x14)
#define NP_SYS_CONSOLE      NP_U(0x18)
#define NP_SYS_EXIT         NP_U(0x1C)
#define NP_SYS_PROF_CTRL    NP_U(0x20)   /* 1 starts, 0 stops collection */

/* ---- TIMER -------------------------------------------------------------- */
#define NP_TIMER_BASE       NP_U(0xBF001000)
#define NP_TIMER_CTRL       NP_U(0x00)
#define NP_TIMER_PERIOD     NP_U(0x04)
#define NP_TIMER_REMAIN     NP_U(0x08)
#define NP_TIMER_ACK        NP_U(0x0C)
#define NP_TIMER_ENABLE     NP_U(0x1)    /* CTRL bits */
#define NP_TIMER_IRQ        NP_U(0x2)
#define NP_TIMER_PERIODIC   NP_U(0x4)

/* ---- IRQC --------------------------------------------------------------- */
#define NP_IRQC_BASE        NP_U(0xBF002000)
#define NP_IRQC_PENDING     NP_U(0x00)
#define NP_IRQC_ENABLE      NP_U(0x04)
#define NP_IRQ_TIMER        NP_U(0x1)    /* PENDING / ENABLE bits */
#define NP_IRQ_NOC_RX       NP_U(0x2)
#define NP_IRQ_NOC_TX       NP_U(0x4)

/* ---- NI ----------------------------------------------------------------- */
#define NP_NI_BASE          NP_U(0xBF003000)
#define NP_NI_TX_DEST       NP_U(0x00)
#define NP_NI_TX_DATA       NP_U(0x04)
#define NP_NI_TX_SEND       NP_U(0x08)
#define NP_NI_TX_STATUS     NP_U(0x0C)
#define NP_NI_RX_COUNT      NP_U(0x10)
#define NP_NI_RX_SRC        NP_U(0x14)
#define NP_NI_RX_LEN        NP_U(0x18)
#define NP_NI_RX_DATA       NP_U(0x1C)
#define NP_NI_RX_DROP       NP_U(0x20)

/* ---- CP0 (register numbers, bits) --------------------------------------- */
#define NP_CP0_COUNT        9
#define NP_CP0_COMPARE      11
#define NP_CP0_STATUS       12
#define NP_CP0_CAUSE        13
#define NP_CP0_EPC          14
#define NP_ST_IE            NP_U(0x00000001)
#define NP_ST_EXL           NP_U(0x00000002)
#define NP_ST_ERL           NP_U(0x00000004)
#define NP_ST_IM2           NP_U(0x00000400)   /* IRQC: hardware line 0 */
#define NP_ST_IM7           NP_U(0x00008000)   /* CP0 timer: hardware line 5 */
#define NP_ST_BEV           NP_U(0x00400000)
#define NP_ST_CU1           NP_U(0x20000000)
#define NP_CAUSE_IP2        NP_U(0x00000400)
#define NP_CAUSE_IP7        NP_U(0x00008000)
#define NP_CAUSE_BD         NP_U(0x80000000)
#define NP_CAUSE_EXCCODE    NP_U(0x0000007C)

#endif
