# SPDX-License-Identifier: GPL-2.0-or-later
# Layers.cmake - writes the link closure of every nocprof library and
# executable into ${CMAKE_BINARY_DIR}/layers-links.txt (one line
# "target: dep dep ..."), which tests/layers.py checks against the layer
# table. Included last by the top-level CMakeLists.txt.
function(_nocprof_closure tgt out)
  set(seen)
  set(todo ${tgt})
  while(todo)
    list(POP_FRONT todo t)
    if(NOT TARGET ${t})
      continue()
    endif()
    get_target_property(libs ${t} INTERFACE_LINK_LIBRARIES)
    get_target_property(type ${t} TYPE)
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(l2 ${t} LINK_LIBRARIES)
      if(l2)
        list(APPEND libs ${l2})
      endif()
    endif()
    foreach(l IN LISTS libs)
      if(l AND NOT l IN_LIST seen AND NOT l MATCHES "^\\$<")
        list(APPEND seen ${l})
        list(APPEND todo ${l})
      endif()
    endforeach()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

function(nocprof_write_layers)
  set(text "")
  foreach(t nocprof_platform nocprof_model nocprof_report nocprof_formats nocprof_data
            nocprof_analysis nocprof_comm_report nocprof_html nocprof_collect nocprof_comm
            nocprof_emu nocprof_cli fuzz_profile fuzz_config)
    if(TARGET ${t})
      _nocprof_closure(${t} deps)
      list(JOIN deps " " d)
      string(APPEND text "${t}: ${d}\n")
    endif()
  endforeach()
  file(CONFIGURE OUTPUT "${CMAKE_BINARY_DIR}/layers-links.txt" CONTENT "${text}")
endfunction()
