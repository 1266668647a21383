# SPDX-License-Identifier: Apache-2.0
# libFuzzer on the plan reader (YAML from people), next to fuzz_msg (tests/proto.cmake);
# lst_add_fuzzer (cmake/LstHelpers.cmake) says how LST_FUZZ trees are built.
lst_add_fuzzer(fuzz_plan fuzz/fuzz_plan.c plan)

lst_add_script_test(fuzz_plan ${CMAKE_CURRENT_SOURCE_DIR}/integration/fuzz_plan.sh TIMEOUT 400)
