# SPDX-License-Identifier: Apache-2.0
# Link rules of the coordinator's run (docs/ARCHITECTURE.md: the link enforces the layers):
# link.run_alone  a program linked against lockstep::run alone builds and runs (a probe of a
#                 closed port, no plan); a missing dependency of lst_run is a build error.
# link.run_layers nm: plans (lst_plan), the results (lst_measure, lst_folder, lst_present)
#                 and the suites (lst_suite) reference nothing of lst_run or the CLI, and
#                 lst_run nothing of the CLI; only cli/ (the lockstep executable) links all.
add_executable(link_run_alone link/run_alone.c)
target_compile_options(link_run_alone PRIVATE ${LST_WARNINGS})
target_link_libraries(link_run_alone PRIVATE lockstep::run)
set_target_properties(link_run_alone PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
add_test(NAME link.run_alone COMMAND link_run_alone)
add_test(NAME link.run_layers COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM}
         -DRUN=$<TARGET_FILE:lst_run> -DSUITE=$<TARGET_FILE:lst_suite> -DPLAN=$<TARGET_FILE:lst_plan>
         -DMEASURE=$<TARGET_FILE:lst_measure> -DFOLDER=$<TARGET_FILE:lst_folder>
         -DPRESENT=$<TARGET_FILE:lst_present>
         -P ${CMAKE_CURRENT_SOURCE_DIR}/link/run_layers.cmake)
set_tests_properties(link.run_alone link.run_layers PROPERTIES TIMEOUT 60 LABELS unit)
