# SPDX-License-Identifier: Apache-2.0
# libFuzzer on the results CSV readers; tests/integration/fuzz_csv.sh builds and runs it for a
# bounded time. lst_add_fuzzer (cmake/LstHelpers.cmake) says how LST_FUZZ trees are built.
lst_add_fuzzer(fuzz_csv fuzz/fuzz_csv.c folder)

lst_add_script_test(fuzz_csv ${CMAKE_CURRENT_SOURCE_DIR}/integration/fuzz_csv.sh TIMEOUT 400)
