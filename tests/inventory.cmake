# SPDX-License-Identifier: Apache-2.0
# The inventory: the agent's enumeration on fake sysfs trees (SAS dual port, NVMe), and
# `lockstep inventory` against two agents in network namespaces with real loop devices.
lst_add_unit_test(dev_inventory unit/test_dev_inventory.c lockstep::agent_dev)
lst_add_script_test(inventory ${CMAKE_CURRENT_SOURCE_DIR}/integration/inventory.sh TIMEOUT 240)
lst_add_unit_test(inventory_group unit/test_inventory_group.c lockstep::run)
