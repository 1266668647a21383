# SPDX-License-Identifier: Apache-2.0
# The swarm (bench/swarm, N simulated agents in one process) is a test tool built with
# the tests; integration.swarm drives the real coordinator with 200 of them and checks that every
# sample is merged exactly once and the rows equal the swarm's own sums.
add_subdirectory(${PROJECT_SOURCE_DIR}/bench/swarm ${CMAKE_BINARY_DIR}/bench/swarm)
lst_add_script_test(swarm ${CMAKE_CURRENT_SOURCE_DIR}/integration/swarm.sh TIMEOUT 90)
