# SPDX-License-Identifier: Apache-2.0
# What the sanitizer build runs (make check: a clang build with -Werror and LST_SANITIZE=
# address,undefined in build-san/), beside every unit test: the fuzzers (label fuzz, which run
# there only, as they build their own sanitized tree anyway) and the integration tests labelled
# sanitize below, chosen to drive both sides of the tool in a few minutes: a run of two and four
# agents on loop devices over one file, an agent killed and restarted mid-run in its namespace,
# the golden run through every output, the disk-safety refusals, the agent's verify and the
# report on synthetic folders. The labels are set once every registry is read (DEFER), so the
# tests may live in any of them; a test renamed or gone stops the configure here.
cmake_language(DEFER CALL set_property TEST integration.fuzz_msg integration.fuzz_plan
    integration.fuzz_csv APPEND PROPERTY LABELS fuzz)
cmake_language(DEFER CALL set_property TEST integration.run_dual_port integration.faults_restart
    integration.golden integration.dev_safety integration.daemon_verify integration.report
    APPEND PROPERTY LABELS sanitize)

# Planted bugs: each program is a test with one bug the sanitizers exist for, and passes (exit
# 0) without them; tests/sanitize/expect_report.sh requires it to fail with the report, so a
# sanitizer build that stopped catching such a bug fails here.
function(lst_planted_bug name source sanitizer pattern)
  if(NOT LST_SANITIZE MATCHES "${sanitizer}")
    return()
  endif()
  add_executable(planted_${name} ${source})
  set_target_properties(planted_${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  add_test(NAME sanitize.planted_${name} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/sanitize/expect_report.sh
      $<TARGET_FILE:planted_${name}> "${pattern}")
  set_tests_properties(sanitize.planted_${name} PROPERTIES TIMEOUT 60 LABELS "unit;sanitize")
endfunction()
lst_planted_bug(uaf sanitize/planted_uaf.c address "ERROR: AddressSanitizer: heap-use-after-free")
lst_planted_bug(overflow sanitize/planted_overflow.c undefined "runtime error: signed integer overflow")
