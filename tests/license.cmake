# SPDX-License-Identifier: Apache-2.0
# The project's license: LICENSE, packaging/copyright and the SPDX line of every source file.
lst_add_script_test(license ${CMAKE_CURRENT_SOURCE_DIR}/integration/license.sh TIMEOUT 60)
