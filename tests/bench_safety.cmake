# SPDX-License-Identifier: Apache-2.0
# `lockstep-agent bench` under the disk rules (agent/dev): mounted, partition-mounted and swap
# loop devices refused for writes, the --allow-mounted-write override, and --config's
# allow_write and read_only.
lst_add_script_test(bench_safety ${CMAKE_CURRENT_SOURCE_DIR}/integration/bench_safety.sh TIMEOUT 60)
