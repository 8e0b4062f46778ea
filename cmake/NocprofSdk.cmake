# SPDX-License-Identifier: GPL-2.0-or-later
# NocprofSdk.cmake - `cmake --install` of the firmware SDK:
#   bin/nocprof-cc                         compiler wrapper (Makefiles)
#   include/nocprof-firmware/              C library headers, nocprof.h,
#                                          nocprof/platform.h
#   lib/nocprof-firmware/link.ld, {el,eb}/crt0.o, {el,eb}/libnocprof.a,
#                                          {el,eb}/lib{m,c,gcc}.a (empty)
#   lib/cmake/NocprofFirmware/             find_package(NocprofFirmware)
#   lib/pkgconfig/nocprof-firmware.pc      little-endian
#   lib/pkgconfig/nocprof-firmware-eb.pc   big-endian
# Every flag comes from NocprofFirmwareFlags.cmake.
include_guard(GLOBAL)
set(_sdk_gen "${CMAKE_BINARY_DIR}/sdk-install")
file(MAKE_DIRECTORY "${_sdk_gen}")
file(WRITE "${_sdk_gen}/empty.a" "!<arch>\n")
list(JOIN NOCPROF_FW_ABI_FLAGS " " NPC_ABI)
list(JOIN NOCPROF_FW_SDK_FLAGS " " _npc_sdk)
string(APPEND NPC_ABI " ${_npc_sdk}")
list(JOIN NOCPROF_FW_LINK_FLAGS " " NPC_LINK)
list(JOIN NOCPROF_FW_LIBS " " NPC_LIBS)
set(NPC_el_CC ${NOCPROF_FW_el_CC_NAME})
set(NPC_eb_CC ${NOCPROF_FW_eb_CC_NAME})
foreach(_e el eb)
  set(NPC_ENDIAN ${_e})
  set(NPC_CC ${NOCPROF_FW_${_e}_CC_NAME})
  set(NPC_CFLAGS "${NOCPROF_FW_${_e}_FLAG} ${NPC_ABI}")
  set(NPC_LDFLAGS "${NOCPROF_FW_${_e}_FLAG} ${NPC_ABI} ${NPC_LINK}")
  if(_e STREQUAL "el")
    set(NPC_PC_NAME nocprof-firmware)
    set(NPC_ENDIAN_NAME little-endian)
  else()
    set(NPC_PC_NAME nocprof-firmware-eb)
    set(NPC_ENDIAN_NAME big-endian)
  endif()
  configure_file("${CMAKE_CURRENT_LIST_DIR}/nocprof-firmware.pc.in"
                 "${_sdk_gen}/${NPC_PC_NAME}.pc" @ONLY)
  install(FILES "${_sdk_gen}/${NPC_PC_NAME}.pc" DESTINATION lib/pkgconfig)
  install(FILES "${NOCPROF_SDK_DIR}/lib/${_e}/crt0.o" "${NOCPROF_SDK_DIR}/lib/${_e}/libnocprof.a"
          DESTINATION lib/nocprof-firmware/${_e})
  # -lm, -lc and -lgcc out of habit link: libnocprof.a holds the C
  # library, libm and the compiler helpers, these are empty
  foreach(_l m c gcc)
    install(FILES "${_sdk_gen}/empty.a" DESTINATION lib/nocprof-firmware/${_e} RENAME lib${_l}.a)
  endforeach()
endforeach()
configure_file("${CMAKE_CURRENT_LIST_DIR}/nocprof-cc.in" "${_sdk_gen}/nocprof-cc" @ONLY)
configure_file("${CMAKE_CURRENT_LIST_DIR}/NocprofFirmwareConfig.cmake.in"
               "${_sdk_gen}/NocprofFirmwareConfig.cmake" @ONLY)
include(CMakePackageConfigHelpers)
write_basic_package_version_file("${_sdk_gen}/NocprofFirmwareConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(PROGRAMS "${_sdk_gen}/nocprof-cc" DESTINATION bin)
install(FILES "${_sdk_gen}/NocprofFirmwareConfig.cmake"
              "${_sdk_gen}/NocprofFirmwareConfigVersion.cmake"
              "${CMAKE_CURRENT_LIST_DIR}/NocprofFirmwareFlags.cmake"
        DESTINATION lib/cmake/NocprofFirmware)
install(FILES "${NOCPROF_SDK_DIR}/lib/link.ld" DESTINATION lib/nocprof-firmware)
install(DIRECTORY "${NOCPROF_SDK_INCLUDE}/" DESTINATION include/nocprof-firmware
        PATTERN ".from" EXCLUDE)
