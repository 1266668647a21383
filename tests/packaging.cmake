# SPDX-License-Identifier: Apache-2.0
# Packages and deployment: make install (DESTDIR, PREFIX), make deb (CPack, dpkg
# tools, lintian), the agent's systemd unit (systemd-analyze verify and security).
lst_add_script_test(install ${CMAKE_CURRENT_SOURCE_DIR}/integration/install.sh TIMEOUT 120)
lst_add_script_test(deb ${CMAKE_CURRENT_SOURCE_DIR}/integration/deb.sh TIMEOUT 180)
lst_add_script_test(unit_security ${CMAKE_CURRENT_SOURCE_DIR}/integration/unit_security.sh TIMEOUT 60)
