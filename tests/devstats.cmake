# SPDX-License-Identifier: Apache-2.0
# Device-side counters: devstats.csv against a loop device's own /sys/block stat and
# lockstep's own counts, with a real agent.
lst_add_script_test(devstats ${CMAKE_CURRENT_SOURCE_DIR}/integration/devstats.sh TIMEOUT 120)
