# SPDX-License-Identifier: GPL-2.0-or-later
# NocprofLibgcc.cmake - the compiler helpers of the firmware (64-bit
# division, shifts, multiplication, 64-bit integer <-> float conversions,
# clz/ctz/popcount/bswap, -ftrapv checks, complex multiply/divide), compiled
# at build time from libgcc/libgcc2.c of Debian's gcc-12-source package with
# the firmware's own flags (-mno-abicalls -fno-pic -G0), once per function
# (-DL_udivdi3 ...) as GCC's libgcc build does.  Nothing of GCC is in this
# repository: firmware/libc/libgcc/ holds only nocprof's stand-ins for the
# few configuration headers libgcc2.c includes.
#
# Why: Debian's cross libgcc.a is built for Linux (abicalls, PIC); linking
# it into -mno-abicalls firmware made ld warn "linking abicalls files with
# non-abicalls files" in every firmware that used one helper.  The objects
# go into libnocprof.a (NocprofLibc.cmake), and firmware links no -lgcc.
#
# Output: NOCPROF_LIBGCC_OBJECTS_el, NOCPROF_LIBGCC_OBJECTS_eb.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/NocprofSource.cmake)

set(NOCPROF_GCC_SOURCE_TARBALL "" CACHE FILEPATH
    "GCC source tarball for the firmware's libgcc helpers (default: Debian's gcc-12-source)")
# The function list below and the stand-in headers are written for one GCC
# release: Debian 12's gcc-12-source, the release of its MIPS cross compilers.
option(NOCPROF_GCC_SOURCE_ANY_VERSION "Build the firmware's libgcc helpers from another GCC release" OFF)
set(_gs_extract "${CMAKE_BINARY_DIR}/libgcc-src")
nocprof_debian_source(NOCPROF_GCC_SOURCE "firmware libgcc helpers" "/usr/src/gcc-12/gcc-12*.tar.*" gcc-12-source
  gcc 12.2.0 "the function list and the stand-in headers (firmware/libc/libgcc)" "${_gs_extract}"
  "*/libgcc/libgcc2.c" "*/libgcc/libgcc2.h" "*/include/longlong.h")
file(GLOB _gs_top LIST_DIRECTORIES true "${_gs_extract}/*/libgcc")
if(NOT _gs_top)
  message(FATAL_ERROR "${NOCPROF_GCC_SOURCE_TARBALL} has no libgcc/libgcc2.c")
endif()
list(GET _gs_top 0 _gs_libgcc)
get_filename_component(_gs_root "${_gs_libgcc}" DIRECTORY)

# The members of libgcc2.c GCC's libgcc/Makefile.in builds for a 32-bit
# target (lib2funcs, the SI/DI conversion functions, LIB2_DIVMOD_FUNCS),
# without those that have no meaning here: _clear_cache (the runtime's
# rt_cache.S), _trampoline, __main and _ctors (no collect2), and the
# XF/TF/HF-mode ones (no such modes on o32: empty objects).
set(_gs_funcs
  _muldi3 _negdi2 _lshrdi3 _ashldi3 _ashrdi3 _cmpdi2 _ucmpdi2
  _absvsi2 _absvdi2 _addvsi3 _addvdi3 _subvsi3 _subvdi3 _mulvsi3 _mulvdi3
  _negvsi2 _negvdi2 _ffssi2 _ffsdi2 _clz _clzsi2 _clzdi2 _ctzsi2 _ctzdi2
  _popcount_tab _popcountsi2 _popcountdi2 _paritysi2 _paritydi2
  _powisf2 _powidf2 _mulsc3 _muldc3 _divsc3 _divdc3
  _bswapsi2 _bswapdi2 _clrsbsi2 _clrsbdi2
  _fixunssfsi _fixunsdfsi
  _fixsfdi _fixdfdi _fixunssfdi _fixunsdfdi
  _floatdisf _floatdidf _floatundisf _floatundidf
  _divdi3 _moddi3 _divmoddi4 _udivdi3 _umoddi3 _udivmoddi4 _udiv_w_sdiv)
set(_gs_shims "${NOCPROF_FIRMWARE_SRC}/libc/libgcc")
file(GLOB _gs_shim_headers "${_gs_shims}/*.h")
# As GCC compiles libgcc: IN_LIBGCC2, -fbuilding-libgcc (the compiler
# predefines the __LIBGCC_* mode macros), inhibit_libc; -O2, no warnings
# (not our code); the firmware ABI flags.
set(_gs_flags ${NOCPROF_FW_ABI_FLAGS} ${NOCPROF_FW_DEFAULT_CFLAGS} -w
    -DIN_LIBGCC2 -fbuilding-libgcc -Dinhibit_libc
    -I "${_gs_shims}" -I "${_gs_libgcc}" -I "${_gs_root}/include")
set(_gs_src "${_gs_libgcc}/libgcc2.c")
set(_gs_deps "${_gs_src}" "${_gs_libgcc}/libgcc2.h" "${_gs_root}/include/longlong.h"
    ${_gs_shim_headers})
foreach(_endian el eb)
  set(_objdir "${CMAKE_BINARY_DIR}/libgcc-${_endian}")
  file(MAKE_DIRECTORY "${_objdir}")
  set(NOCPROF_LIBGCC_OBJECTS_${_endian})
  foreach(_f IN LISTS _gs_funcs)
    set(_obj "${_objdir}/${_f}.o")
    add_custom_command(OUTPUT "${_obj}"
      COMMAND "${NOCPROF_${_endian}_CC}" ${NOCPROF_FW_${_endian}_FLAG} ${_gs_flags}
              -DL${_f} -c "${_gs_src}" -o "${_obj}"
      DEPENDS ${_gs_deps} VERBATIM)
    list(APPEND NOCPROF_LIBGCC_OBJECTS_${_endian} "${_obj}")
  endforeach()
endforeach()
