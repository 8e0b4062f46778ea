# aliasing.cmake — the aliasing analysis (profiler/aliasing.c) and its unit
# test; include()d by the top-level CMakeLists.txt after profiler/.
target_sources(nocprof_profiler PRIVATE ${CMAKE_CURRENT_LIST_DIR}/aliasing.c)

add_executable(test-aliasing ${PROJECT_SOURCE_DIR}/tests/unit/test-aliasing.c)
target_link_libraries(test-aliasing PRIVATE nocprof_profiler)
add_test(NAME unit/aliasing COMMAND test-aliasing)
set_tests_properties(unit/aliasing PROPERTIES LABELS unit)
