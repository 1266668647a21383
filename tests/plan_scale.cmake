# SPDX-License-Identifier: Apache-2.0
# Plans at scale: `lockstep validate` on generated plans of 200,000 phases and 100,000 agents
# within a CPU and memory bound only linear reading meets, and a million errors printed as a
# capped list with the exact count of the rest.
lst_add_script_test(plan_scale ${CMAKE_CURRENT_SOURCE_DIR}/integration/plan_scale.sh TIMEOUT 240)
