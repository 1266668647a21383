# SPDX-License-Identifier: Apache-2.0
# Link rule: the suites' state machines are pure logic (lockstep::suite: plans, results, common).
# Their unit tests link that library alone, and the check looks in each one's link line, shared
# libraries and undefined symbols for ZeroMQ, czmq, msgpack and the protocol's library (and
# checks that the same look finds them in lockstep, so it can fail).
foreach(t suite suite_memory)
  add_test(NAME link.${t}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/link/pure_link.sh lst_suite $<TARGET_FILE:test_${t}>
            $<TARGET_FILE:lockstep> ${CMAKE_BINARY_DIR}/tests/CMakeFiles/test_${t}.dir/link.txt)
endforeach()
set_tests_properties(link.suite link.suite_memory PROPERTIES TIMEOUT 60 LABELS unit)
