# SPDX-License-Identifier: Apache-2.0
# Input from outside (agents' clocks and messages, plans, devices, key folders) that must give a
# clear refusal, never a crash: the integration scripts of the input defects.
lst_add_script_test(clock_broken ${CMAKE_CURRENT_SOURCE_DIR}/integration/clock_broken.sh TIMEOUT 120)
