# SPDX-License-Identifier: Apache-2.0
# Ports as first-class: path lists, per-path rows that add up, a sweep over ports with
# its scaling in the report, and per-path roles, against loop devices' own counters.
lst_add_script_test(ports ${CMAKE_CURRENT_SOURCE_DIR}/integration/ports.sh TIMEOUT 240)
