# SPDX-License-Identifier: Apache-2.0
# Deployment: the Ansible role installs and starts agents that a coordinator then drives.
lst_add_script_test(deploy_ansible ${CMAKE_CURRENT_SOURCE_DIR}/integration/deploy_ansible.sh TIMEOUT 300)
