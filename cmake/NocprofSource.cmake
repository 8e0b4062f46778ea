# SPDX-License-Identifier: GPL-2.0-or-later
# NocprofSource.cmake - a Debian source package's tarball used at build time
# (newlib for the C library, GCC for the libgcc helpers): found under
# /usr/src, its version read from its name and held to the one release the
# build's file lists are written for, and the files the build needs
# extracted once per tarball, so that a reconfigure with the same tarball
# extracts (and so rebuilds) nothing.
#
#   nocprof_debian_source(PREFIX WHAT GLOB PACKAGE NAME PINNED FOR DIR PATTERNS...)
#     PREFIX    variable prefix: the cache path ${PREFIX}_TARBALL, the option
#               ${PREFIX}_ANY_VERSION; sets ${PREFIX}_VERSION and ${PREFIX}_ID
#               (the tarball's path and time) in the caller
#     WHAT      what it builds, for messages ("firmware C library")
#     GLOB      where Debian puts the tarball (/usr/src/newlib/newlib-*.tar.*)
#     PACKAGE   the Debian package that ships it (newlib-source)
#     NAME      the tarball's name before its version (newlib)
#     PINNED    the release the build is written for (3.3.0)
#     FOR       what is written for that release, for the mismatch message
#     DIR       where to extract
#     PATTERNS  the members to extract (file(ARCHIVE_EXTRACT) patterns)
include_guard(GLOBAL)

function(nocprof_debian_source prefix what glob package name pinned for dir)
  set(tarball "${${prefix}_TARBALL}")
  if(NOT tarball)
    file(GLOB tars ${glob})
    list(SORT tars)
    list(POP_BACK tars tarball)
    if(NOT tarball)
      message(FATAL_ERROR "nocprof ${what}: ${name} sources not found (${glob}). On Debian: "
        "apt-get install ${package} (scripts/setup.sh does it), or set ${prefix}_TARBALL.")
    endif()
    set(${prefix}_TARBALL "${tarball}" CACHE FILEPATH "" FORCE)
  endif()
  get_filename_component(base "${tarball}" NAME)
  if(NOT base MATCHES "^${name}-([0-9]+\\.[0-9]+\\.[0-9]+)")
    message(FATAL_ERROR "cannot read the ${name} version from ${base}")
  endif()
  set(version "${CMAKE_MATCH_1}")
  if(NOT version VERSION_EQUAL pinned AND NOT ${prefix}_ANY_VERSION)
    message(FATAL_ERROR "nocprof ${what}: ${tarball} is ${name} ${version}, but ${for} are for "
      "${name} ${pinned} (Debian 12's ${package}; scripts/setup.sh installs it). Install that "
      "version, or configure with -D${prefix}_ANY_VERSION=ON at your own risk.")
  endif()
  file(TIMESTAMP "${tarball}" time "%Y-%m-%dT%H:%M:%S" UTC)
  set(id "${tarball} ${time}")
  set(have "")
  if(EXISTS "${dir}/.extracted-from")
    file(READ "${dir}/.extracted-from" have)
  endif()
  if(NOT have STREQUAL id)
    file(REMOVE_RECURSE "${dir}")
    message(STATUS "Extracting ${name} sources from ${tarball}")
    file(ARCHIVE_EXTRACT INPUT "${tarball}" DESTINATION "${dir}" PATTERNS ${ARGN})
    file(WRITE "${dir}/.extracted-from" "${id}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${tarball}")
  set(${prefix}_VERSION "${version}" PARENT_SCOPE)
  set(${prefix}_ID "${id}" PARENT_SCOPE)
endfunction()
