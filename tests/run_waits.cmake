# SPDX-License-Identifier: Apache-2.0
# No wait of a run outlives the lease, and "complete" means every interval: an agent whose DONE
# never arrives and one whose sequence numbers jump (through a relay that misbehaves for it), an
# agent frozen across the end of a point, a slow device's drain at the end of a point, and a
# healthy agent beside an unreachable one.
lst_add_script_test(waits_wire ${CMAKE_CURRENT_SOURCE_DIR}/integration/waits_wire.sh TIMEOUT 120)
lst_add_script_test(waits_frozen ${CMAKE_CURRENT_SOURCE_DIR}/integration/waits_frozen.sh TIMEOUT 120)
lst_add_script_test(waits_drain ${CMAKE_CURRENT_SOURCE_DIR}/integration/waits_drain.sh TIMEOUT 120)
lst_add_script_test(waits_unreachable ${CMAKE_CURRENT_SOURCE_DIR}/integration/waits_unreachable.sh TIMEOUT 120)
