# SPDX-License-Identifier: Apache-2.0
# Shared build settings: one place for warnings, sanitizers and the shape of a library or test.

set(LST_WARNINGS -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wformat=2
    -Wno-format-nonliteral $<$<C_COMPILER_ID:GNU>:-Wno-format-truncation>)
if(LST_WERROR)
  list(APPEND LST_WARNINGS -Werror)
endif()

# Sanitizers stop the program at their first report (-fno-sanitize-recover: UBSan would
# otherwise print a line and carry on, and a test that passes would leave it unread).
if(LST_SANITIZE)
  add_compile_options(-fsanitize=${LST_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${LST_SANITIZE} -fno-sanitize-recover=all)
endif()

# lst_add_library(NAME SOURCES... [DEPS targets...])
# A static library lst_NAME with its folder as the public include directory and an
# ALIAS lockstep::NAME, so dependants name what they use.
function(lst_add_library name)
  cmake_parse_arguments(A "" "" "SOURCES;DEPS" ${ARGN})
  add_library(lst_${name} STATIC ${A_SOURCES})
  add_library(lockstep::${name} ALIAS lst_${name})
  target_include_directories(lst_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_options(lst_${name} PRIVATE ${LST_WARNINGS})
  target_compile_definitions(lst_${name} PUBLIC _GNU_SOURCE
      LST_VERSION="${PROJECT_VERSION}")
  target_link_libraries(lst_${name} PUBLIC ${A_DEPS})
endfunction()

# lst_add_unit_test(NAME SOURCE DEPS...)
# One test = one program: exit 0 pass, 1 fail, 77 skip. Called from the tests/ folder that
# mirrors the module's (tests/coordinator/plan for coordinator/plan); the helpers lst_test.h and
# lst_plan_test.h are in tests/include.
function(lst_add_unit_test name source)
  add_executable(test_${name} ${source})
  target_compile_options(test_${name} PRIVATE ${LST_WARNINGS})
  target_include_directories(test_${name} PRIVATE ${LST_TESTS_DIR}/include)
  target_link_libraries(test_${name} PRIVATE ${ARGN})
  set_target_properties(test_${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  add_test(NAME unit.${name} COMMAND test_${name})
  set_tests_properties(unit.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS unit)
endfunction()

# lst_add_script_test(NAME SCRIPT [ARGS args...] [TIMEOUT s] [LABELS labels...])
# Integration tests are shell scripts that start real processes; they find the binaries
# through LST_BIN and skip (77) with a reason when they need root or a kernel feature. A script
# of several scenarios takes the scenario as its argument and is registered once per scenario
# as SCRIPT.SCENARIO, so a failure names the scenario. LABELS adds to the label integration:
# fuzz (a fuzzer) and sanitize (run by the sanitizer build too, tests/sanitize/CMakeLists.txt).
function(lst_add_script_test name script)
  cmake_parse_arguments(A "" "TIMEOUT" "ARGS;LABELS" ${ARGN})
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 120)
  endif()
  # Alone unless tests/CMakeLists.txt lists it (or its script) as safe beside another test.
  string(REGEX REPLACE "\\..*" "" script_name "${name}")
  set(serial TRUE)
  if(name IN_LIST LST_CONCURRENT_TESTS OR script_name IN_LIST LST_CONCURRENT_TESTS)
    set(serial FALSE)
  endif()
  add_test(NAME integration.${name} COMMAND bash ${script} ${A_ARGS})
  set_tests_properties(integration.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT ${A_TIMEOUT}
      LABELS "integration;${A_LABELS}" RUN_SERIAL ${serial}
      ENVIRONMENT "LST_BIN=${CMAKE_BINARY_DIR}/bin;LST_SRC=${CMAKE_SOURCE_DIR};LST_BUILD=${CMAKE_BINARY_DIR}")
endfunction()

# lst_add_fuzzer(NAME SOURCE LIBRARY)
# With LST_FUZZ=ON (clang only; tests/fuzz/fuzz_lib.sh configures such a tree): a
# libFuzzer target NAME from tests/SOURCE linked against LIBRARY. LIBRARY and lst_common get
# coverage instrumentation (fuzzer-no-link), so the fuzzer is guided by the parser's branches,
# not only by the target's. Without LST_FUZZ it does nothing.
function(lst_add_fuzzer name source library)
  if(NOT LST_FUZZ)
    return()
  endif()
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "LST_FUZZ=ON needs clang: -DCMAKE_C_COMPILER=clang")
  endif()
  target_compile_options(lst_${library} PRIVATE -fsanitize=fuzzer-no-link)
  target_compile_options(lst_common PRIVATE -fsanitize=fuzzer-no-link)
  add_executable(${name} ${CMAKE_CURRENT_SOURCE_DIR}/${source})
  target_compile_options(${name} PRIVATE ${LST_WARNINGS} -fsanitize=fuzzer)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  target_link_libraries(${name} PRIVATE lockstep::${library})
endfunction()
