# SPDX-License-Identifier: Apache-2.0
# Faults against real agents (the loss model): agent b in its own network namespace,
# partitioned (nftables), frozen (SIGSTOP), killed and restarted, on a lossy link; the
# coordinator killed and resumed; the coordinator's crash when an agent is lost during PREPARE;
# a partial point's combined rate. Each checks its results folder with check_consistency.py and
# its agents' I/Os against the loop devices' block counters. FAULTS_BASELINE=1 in the
# environment runs the same scripts without their faults (to check the harness).
lst_add_script_test(faults_partition ${CMAKE_CURRENT_SOURCE_DIR}/integration/faults_partition.sh TIMEOUT 200)
lst_add_script_test(faults_stop ${CMAKE_CURRENT_SOURCE_DIR}/integration/faults_stop.sh TIMEOUT 150)
lst_add_script_test(faults_restart ${CMAKE_CURRENT_SOURCE_DIR}/integration/faults_restart.sh TIMEOUT 120)
lst_add_script_test(faults_lossy ${CMAKE_CURRENT_SOURCE_DIR}/integration/faults_lossy.sh TIMEOUT 120)
lst_add_script_test(faults_resume ${CMAKE_CURRENT_SOURCE_DIR}/integration/faults_resume.sh TIMEOUT 150)
lst_add_script_test(faults_lost ${CMAKE_CURRENT_SOURCE_DIR}/integration/faults_lost.sh TIMEOUT 180)
