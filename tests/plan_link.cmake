# SPDX-License-Identifier: Apache-2.0
# Link rule: plan parsing needs no msgpack and no ZeroMQ. The probe links lockstep::plan alone
# (a plan function calling into proto would fail this link); the script then looks for the
# forbidden libraries in its link line, its shared libraries and its undefined symbols, and
# checks that the same look does find them in lockstep.
add_executable(link_plan link/plan_link.c)
target_compile_options(link_plan PRIVATE ${LST_WARNINGS})
target_link_libraries(link_plan PRIVATE lockstep::plan)
set_target_properties(link_plan PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
add_test(NAME link.plan
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/link/pure_link.sh lst_plan $<TARGET_FILE:link_plan>
          $<TARGET_FILE:lockstep> ${CMAKE_BINARY_DIR}/tests/CMakeFiles/link_plan.dir/link.txt)
set_tests_properties(link.plan PROPERTIES TIMEOUT 60 LABELS unit)
