# SPDX-License-Identifier: Apache-2.0
# I/O traces: lockstep's trace format and blkparse text (common/lst_trace.c), with a
# hand-written blkparse fixture in tests/fixtures/trace.
lst_add_unit_test(trace unit/test_trace.c lockstep::common)
target_compile_definitions(test_trace PRIVATE
  LST_TRACE_FIXTURES="${CMAKE_CURRENT_SOURCE_DIR}/fixtures/trace")
