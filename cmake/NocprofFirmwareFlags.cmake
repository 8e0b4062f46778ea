# SPDX-License-Identifier: GPL-2.0-or-later
# NocprofFirmwareFlags.cmake - the one definition of how nocprof firmware is
# compiled and linked.  Used by the in-tree build (cmake/Firmware.cmake), and
# installed with the SDK, where the CMake package (NocprofFirmwareConfig.cmake),
# nocprof-firmware.pc and the nocprof-cc wrapper are generated from the same
# lists, so the ways of building firmware cannot diverge.
include_guard(GLOBAL)

# Code generation / ABI: MIPS32r2, o32 hard-float (the compilers' default
# -mfpxx, run with Status.FR = 0), no PIC/abicalls, no small-data section,
# freestanding (no host libc assumed; the C library is ours).
set(NOCPROF_FW_ABI_FLAGS
  -march=mips32r2 -mno-abicalls -fno-pic -G0 -ffreestanding
  -fno-stack-protector -fno-asynchronous-unwind-tables)
# Default optimisation and debug info when the user gives none.
# The SDK's programs (nocprof-cc, the .pc files, the CMake package) have a
# C library: GCC's builtins stay on, as with a hosted toolchain, so
# memcpy(&f, p, 4) is a load and sqrtf(x) the FPU's sqrt.s. Without it
# (-ffreestanding implies -fno-builtin) they were calls: a 4-byte memcpy a
# byte loop, sqrtf newlib's bit-by-bit software root (314 cycles), which
# then topped a float program's profile (docs/firmware.md). The in-tree
# firmware keeps -fno-builtin: its exact counts are the tests'.
# -mfp32: the o32 FP32 ABI, the FR=0 mode the runtime sets. Debian's GCC
# defaults to FPXX, whose ELF attribute gdb 13 reads as "no FPU": `info
# float` said none and float registers and values read 0 until `set
# mipsfpu double`; an FP32 ELF (FPXX library objects link into it) makes
# gdb find the FPU itself (docs/debugging.md). The in-tree firmware
# programs are FP32 too (cmake/Firmware.cmake); the runtime and C library
# objects stay FPXX, which links into FP32 and FP64 alike.
set(NOCPROF_FW_FP_FLAGS -mfp32)
set(NOCPROF_FW_SDK_FLAGS -fbuiltin ${NOCPROF_FW_FP_FLAGS})
set(NOCPROF_FW_DEFAULT_CFLAGS -g -O2)
# Link: no host start files or libraries; our link.ld, crt0.o and
# libnocprof.a (runtime + C library + the compiler helpers such as 64-bit
# division, built -mno-abicalls from GCC's libgcc2.c: NocprofLibgcc.cmake).
# Not Debian's libgcc.a: it is abicalls/PIC code for Linux.
set(NOCPROF_FW_LINK_FLAGS -nostdlib -nostartfiles -static -Wl,--build-id=none)
set(NOCPROF_FW_LIBS -lnocprof)
# The byte-order flag and compiler name per byte order.
set(NOCPROF_FW_el_FLAG -EL)
set(NOCPROF_FW_eb_FLAG -EB)
set(NOCPROF_FW_el_CC_NAME mipsel-linux-gnu-gcc)
set(NOCPROF_FW_eb_CC_NAME mips-linux-gnu-gcc)
