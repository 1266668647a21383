# SPDX-License-Identifier: Apache-2.0
# Authentication and encryption (proto/lst_auth, CURVE between coordinator and agents): key
# files and the authorized_keys folder (unit), real CURVE sockets between real processes, and
# the refusals of disk safety through `lockstep run` (integration).
lst_add_unit_test(auth unit/test_auth.c lockstep::proto)
lst_add_script_test(auth ${CMAKE_CURRENT_SOURCE_DIR}/integration/auth.sh TIMEOUT 180)
lst_add_script_test(safety_e2e ${CMAKE_CURRENT_SOURCE_DIR}/integration/safety_e2e.sh TIMEOUT 180)
