# SPDX-License-Identifier: Apache-2.0
# Command-line flags from tables (common/lst_flag; its unit test is unit.flag). The promise end to
# end: lockstep-extra-flag is lockstep built with one entry more in run's table
# (LST_TEST_EXTRA_FLAG), and flags_one_entry checks that its --help, lockstep(1) and bash
# completion gain the flag from that entry alone, that it parses, and that lockstep has none of it.
file(GLOB LST_TEST_CLI_SRC CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/coordinator/cli/*.c)
add_executable(lockstep-extra-flag ${LST_TEST_CLI_SRC})
target_compile_definitions(lockstep-extra-flag PRIVATE LST_TEST_EXTRA_FLAG)
target_compile_options(lockstep-extra-flag PRIVATE ${LST_WARNINGS})
target_include_directories(lockstep-extra-flag PRIVATE ${CMAKE_SOURCE_DIR}/coordinator/cli)
target_link_libraries(lockstep-extra-flag PRIVATE lockstep::run lockstep::present lockstep::plan)
lst_add_script_test(flags_one_entry ${CMAKE_CURRENT_SOURCE_DIR}/integration/flags_one_entry.sh
  TIMEOUT 60)
