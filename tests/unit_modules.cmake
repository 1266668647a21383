# SPDX-License-Identifier: Apache-2.0
# Unit tests of modules that had none of their own, one program per module: the agent daemon's
# files through their private interface (lst_daemon_int.h), those that send and receive on the
# rig (tests/unit/lst_daemon_rig.c: real inproc ZeroMQ sockets, the CURVE gate on loopback TCP),
# no agent process; the agent's I/O library's trace folder and purge worker; `lockstep steady`'s
# input reader.

# lst_add_daemon_rig_test(NAME [SOURCES...]): unit/test_NAME.c of the agent daemon on the rig.
function(lst_add_daemon_rig_test name)
  lst_add_unit_test(${name} unit/test_${name}.c lockstep::agent_daemon)
  target_sources(test_${name} PRIVATE unit/lst_daemon_rig.c ${ARGN})
endfunction()

lst_add_daemon_rig_test(daemon_send)
lst_add_daemon_rig_test(daemon_session)
lst_add_daemon_rig_test(daemon_dispatch fuzz/msg_examples.c)
target_include_directories(test_daemon_dispatch PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
lst_add_daemon_rig_test(daemon_verify)
lst_add_daemon_rig_test(daemon_hook)
lst_add_unit_test(daemon_zap unit/test_daemon_zap.c lockstep::agent_daemon)
lst_add_unit_test(daemon_held unit/test_daemon_held.c lockstep::agent_daemon)
lst_add_unit_test(daemon_trace unit/test_daemon_trace.c lockstep::agent_daemon)
lst_add_unit_test(daemon_release unit/test_daemon_release.c lockstep::agent_daemon)
lst_add_unit_test(daemonize unit/test_daemonize.c lockstep::agent_daemon)
lst_add_unit_test(tracedir unit/test_tracedir.c lockstep::agent_io)
lst_add_unit_test(purge unit/test_purge.c lockstep::agent_io)
lst_add_unit_test(steady_read unit/test_steady_read.c lockstep::folder)
