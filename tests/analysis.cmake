# SPDX-License-Identifier: Apache-2.0
# Static analysis as a reviewer runs it: cppcheck on the libraries with no finding left
# unexplained (tests/analysis/cppcheck.sh). The format check is integration.format.
lst_add_script_test(cppcheck ${CMAKE_CURRENT_SOURCE_DIR}/analysis/cppcheck.sh TIMEOUT 300)
