# SPDX-License-Identifier: GPL-2.0-or-later
# NocprofLibc.cmake - the firmware C library: newlib, compiled from Debian's
# newlib-source package at build time (nothing of newlib is in this
# repository), plus nocprof's glue (firmware/libc/np_*.c).
#
# Output, per byte order E in {el, eb}, laid out exactly as installed:
#   ${NOCPROF_SDK_DIR}/include/            newlib headers + newlib.h +
#                                          nocprof.h + nocprof/platform.h
#   ${NOCPROF_SDK_DIR}/lib/E/crt0.o        firmware/runtime/start.S
#   ${NOCPROF_SDK_DIR}/lib/E/libnocprof.a  runtime (nocprof.c, rt_string.c),
#                                          glue, the newlib objects and the
#                                          libgcc helpers (NocprofLibgcc.cmake)
#   ${NOCPROF_SDK_DIR}/lib/link.ld
# Target fw-sdk builds all of it.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/NocprofSource.cmake)

set(NOCPROF_NEWLIB_TARBALL "" CACHE FILEPATH
    "newlib source tarball (default: the one of Debian's newlib-source)")
# The source list below and firmware/libc/config/newlib.h are written for one
# newlib release (Debian 12's newlib-source, pinned by scripts/setup.sh).
option(NOCPROF_NEWLIB_ANY_VERSION "Build the firmware C library from another newlib release" OFF)
set(_nl_extract "${CMAKE_BINARY_DIR}/newlib-src")
nocprof_debian_source(NOCPROF_NEWLIB "firmware C library" "/usr/src/newlib/newlib-*.tar.*" newlib-source
  newlib 3.3.0 "the source list and newlib.h" "${_nl_extract}" "*/newlib/libc/*" "*/newlib/libm/*")
string(REPLACE "." ";" _nl_parts "${NOCPROF_NEWLIB_VERSION}")
list(GET _nl_parts 0 NEWLIB_MAJOR)
list(GET _nl_parts 1 NEWLIB_MINOR)
list(GET _nl_parts 2 NEWLIB_PATCH)
set(NEWLIB_VERSION "${NOCPROF_NEWLIB_VERSION}")
set(_nl_id "${NOCPROF_NEWLIB_ID}")
file(GLOB _nl_top LIST_DIRECTORIES true "${_nl_extract}/*/newlib")
list(GET _nl_top 0 NOCPROF_NEWLIB_DIR)

# ---- staged headers (what `cmake --install` copies to include/nocprof-firmware)
set(NOCPROF_SDK_DIR "${CMAKE_BINARY_DIR}/sdk")
set(NOCPROF_SDK_INCLUDE "${NOCPROF_SDK_DIR}/include")
set(_libc_src "${NOCPROF_FIRMWARE_SRC}/libc")
set(_inc_have "")
if(EXISTS "${NOCPROF_SDK_INCLUDE}/.from")
  file(READ "${NOCPROF_SDK_INCLUDE}/.from" _inc_have)
endif()
if(NOT _inc_have STREQUAL _nl_id)
  file(REMOVE_RECURSE "${NOCPROF_SDK_INCLUDE}")
  file(COPY "${NOCPROF_NEWLIB_DIR}/libc/include/" DESTINATION "${NOCPROF_SDK_INCLUDE}"
       PATTERN "newlib.h" EXCLUDE PATTERN "_newlib_version.h" EXCLUDE)
  file(WRITE "${NOCPROF_SDK_INCLUDE}/.from" "${_nl_id}")
endif()
configure_file("${_libc_src}/config/newlib.h" "${NOCPROF_SDK_INCLUDE}/newlib.h" COPYONLY)
configure_file("${_libc_src}/config/_newlib_version.h.in"
               "${NOCPROF_SDK_INCLUDE}/_newlib_version.h" @ONLY)
configure_file("${NOCPROF_FIRMWARE_RUNTIME}/nocprof.h" "${NOCPROF_SDK_INCLUDE}/nocprof.h" COPYONLY)
configure_file("${NOCPROF_PLATFORM_INCLUDE}/nocprof/platform.h"
               "${NOCPROF_SDK_INCLUDE}/nocprof/platform.h" COPYONLY)
configure_file("${NOCPROF_FIRMWARE_RUNTIME}/link.ld" "${NOCPROF_SDK_DIR}/lib/link.ld" COPYONLY)

# ---- the newlib sources we take (paths below newlib/) -----------------------
# string.h: everything of C99 but strcoll/strxfrm (locale); memcpy, memmove,
# memset, memcmp and strlen are the runtime's (firmware/runtime/rt_string.c).
set(_nl_string memchr strcat strchr strcmp strcpy strcspn strerror u_strerr
    strncat strncmp strncpy strpbrk strrchr strspn strstr strtok strtok_r strnlen
    strdup strdup_r strndup strndup_r strcasecmp strncasecmp memccpy mempcpy
    stpcpy stpncpy)
set(_nl_ctype ctype_ isalnum isalpha isascii isblank iscntrl isdigit islower
    isprint ispunct isspace isupper isxdigit tolower toupper toascii)
set(_nl_stdlib strtol strtoul strtoll strtoull strtod atoi atol atoll atof abs
    labs llabs div ldiv lldiv rand rand_r dtoa mprec gdtoa-gethex gdtoa-hexnan
    malloc calloc realloc mlock mbtowc_r wctomb_r)
set(_nl_sources)
foreach(_f IN LISTS _nl_string)
  list(APPEND _nl_sources "libc/string/${_f}.c")
endforeach()
foreach(_f IN LISTS _nl_ctype)
  list(APPEND _nl_sources "libc/ctype/${_f}.c")
endforeach()
foreach(_f IN LISTS _nl_stdlib)
  list(APPEND _nl_sources "libc/stdlib/${_f}.c")
endforeach()
list(APPEND _nl_sources libc/search/qsort.c libc/search/bsearch.c
     libc/stdio/vsnprintf.c libc/stdio/vsprintf.c libc/stdio/snprintf.c
     libc/stdio/sprintf.c libc/reent/impure.c libc/errno/errno.c
     libc/locale/locale.c libc/locale/localeconv.c)
# libm: all float and double functions (fdlibm and the newer common code);
# the long double variants are left out (long double == double on o32).
file(GLOB _nl_libm RELATIVE "${NOCPROF_NEWLIB_DIR}"
     "${NOCPROF_NEWLIB_DIR}/libm/math/*.c" "${NOCPROF_NEWLIB_DIR}/libm/common/*.c")
list(FILTER _nl_libm EXCLUDE REGEX "/([a-z0-9]+l|sl_finite)\\.c$")
list(APPEND _nl_sources ${_nl_libm})
# Sources compiled more than once with different defines: "src|obj|def,def".
set(_nl_variants
  "libc/stdlib/nano-mallocr.c|nano-malloc|-DINTERNAL_NEWLIB,-DDEFINE_MALLOC"
  "libc/stdlib/nano-mallocr.c|nano-free|-DINTERNAL_NEWLIB,-DDEFINE_FREE"
  "libc/stdlib/nano-mallocr.c|nano-calloc|-DINTERNAL_NEWLIB,-DDEFINE_CALLOC"
  "libc/stdlib/nano-mallocr.c|nano-realloc|-DINTERNAL_NEWLIB,-DDEFINE_REALLOC"
  "libc/stdlib/nano-mallocr.c|nano-usable|-DINTERNAL_NEWLIB,-DDEFINE_MALLOC_USABLE_SIZE"
  "libc/stdio/vfprintf.c|svfprintf|-DSTRING_ONLY"
  "libc/stdio/vfprintf.c|svfiprintf|-DSTRING_ONLY,-DINTEGER_ONLY")

# newlib is compiled as its own build would: _COMPILING_NEWLIB, no builtins,
# no warnings (not our code).  __OBSOLETE_MATH=0 selects newlib's current
# exp/exp2/log/log2/pow and float sin/cos/exp/log/pow (the Arm optimized
# routines, the same code as glibc's) instead of the old fdlibm versions.
set(_nl_flags ${NOCPROF_FW_ABI_FLAGS} ${NOCPROF_FW_DEFAULT_CFLAGS} -fno-builtin -w
    -D_COMPILING_NEWLIB -DMISSING_SYSCALL_NAMES -D__OBSOLETE_MATH=0
    -isystem "${NOCPROF_SDK_INCLUDE}" -I "${NOCPROF_NEWLIB_DIR}/libm/common")
# rt_cache.S: _flush_cache / __clear_cache (__builtin___clear_cache without
# -msynci); in the archive only, so linked only by firmware that calls it
set(_glue_sources "${_libc_src}/np_glue.c" "${_libc_src}/np_stdio.c"
    "${NOCPROF_FIRMWARE_RUNTIME}/rt_cache.S")
set(_glue_flags ${NOCPROF_FW_ABI_FLAGS} ${NOCPROF_FW_DEFAULT_CFLAGS} -Wall -Wextra ${NOCPROF_WERROR_FLAGS}
    -I "${_libc_src}" -I "${NOCPROF_FIRMWARE_RUNTIME}" -I "${NOCPROF_PLATFORM_INCLUDE}"
    -isystem "${NOCPROF_SDK_INCLUDE}")
set(_hdr_stamp "${NOCPROF_SDK_INCLUDE}/newlib.h" "${NOCPROF_SDK_INCLUDE}/_newlib_version.h")

# the compiler helpers (libgcc2.c of Debian's gcc-12-source)
include("${CMAKE_CURRENT_LIST_DIR}/NocprofLibgcc.cmake")

foreach(_endian el eb)
  set(_cc "${NOCPROF_${_endian}_CC}")
  set(_ef ${NOCPROF_FW_${_endian}_FLAG})
  set(_objdir "${CMAKE_BINARY_DIR}/libc-${_endian}")
  set(_libdir "${NOCPROF_SDK_DIR}/lib/${_endian}")
  file(MAKE_DIRECTORY "${_objdir}" "${_libdir}")
  set(_objs)
  foreach(_s IN LISTS _nl_sources)
    string(REGEX REPLACE "[/.]" "_" _o "${_s}")
    set(_obj "${_objdir}/${_o}.o")
    add_custom_command(OUTPUT "${_obj}"
      COMMAND "${_cc}" ${_ef} ${_nl_flags} -c "${NOCPROF_NEWLIB_DIR}/${_s}" -o "${_obj}"
      DEPENDS "${NOCPROF_NEWLIB_DIR}/${_s}" ${_hdr_stamp} VERBATIM)
    list(APPEND _objs "${_obj}")
  endforeach()
  foreach(_v IN LISTS _nl_variants)
    string(REPLACE "|" ";" _v "${_v}")
    string(REPLACE "," ";" _v "${_v}")
    list(GET _v 0 _s)
    list(GET _v 1 _o)
    list(SUBLIST _v 2 -1 _defs)
    set(_obj "${_objdir}/${_o}.o")
    add_custom_command(OUTPUT "${_obj}"
      COMMAND "${_cc}" ${_ef} ${_nl_flags} ${_defs} -c "${NOCPROF_NEWLIB_DIR}/${_s}" -o "${_obj}"
      DEPENDS "${NOCPROF_NEWLIB_DIR}/${_s}" ${_hdr_stamp} VERBATIM)
    list(APPEND _objs "${_obj}")
  endforeach()
  foreach(_s IN LISTS _glue_sources)
    get_filename_component(_o "${_s}" NAME_WE)
    set(_obj "${_objdir}/${_o}.o")
    add_custom_command(OUTPUT "${_obj}"
      COMMAND "${_cc}" ${_ef} ${_glue_flags} -c "${_s}" -o "${_obj}"
      DEPENDS "${_s}" "${_libc_src}/np_libc.h" ${_hdr_stamp} VERBATIM)
    list(APPEND _objs "${_obj}")
  endforeach()
  # runtime objects (built by Firmware.cmake) go into the same archive
  set(_lib "${_libdir}/libnocprof.a")
  set(_crt0 "${_libdir}/crt0.o")
  list(GET NOCPROF_FIRMWARE_RT_OBJECTS_${_endian} 0 _start_obj)
  set(_rt_rest ${NOCPROF_FIRMWARE_RT_OBJECTS_${_endian}})
  list(REMOVE_AT _rt_rest 0)
  add_custom_command(OUTPUT "${_lib}"
    COMMAND "${CMAKE_COMMAND}" -E rm -f "${_lib}"
    COMMAND "${NOCPROF_${_endian}_AR}" rcs "${_lib}" ${_rt_rest} ${_objs}
            ${NOCPROF_LIBGCC_OBJECTS_${_endian}}
    DEPENDS ${_rt_rest} ${_objs} ${NOCPROF_LIBGCC_OBJECTS_${_endian}}
    COMMENT "Firmware C library (${_endian}): libnocprof.a"
    VERBATIM)
  add_custom_command(OUTPUT "${_crt0}"
    COMMAND "${CMAKE_COMMAND}" -E copy "${_start_obj}" "${_crt0}"
    DEPENDS "${_start_obj}" VERBATIM)
  set(NOCPROF_FIRMWARE_LIBC_${_endian} "${_lib}")
  list(APPEND _sdk_outputs "${_lib}" "${_crt0}")
endforeach()
add_custom_target(fw-sdk ALL DEPENDS ${_sdk_outputs})
