# SPDX-License-Identifier: Apache-2.0
# Man pages: lockstep(1), lockstep-plan(5) and lockstep-agent(8) in ${CMAKE_BINARY_DIR}/man,
# written by the programs themselves from the tables that make their --help and docs
# (`lockstep --write-man DIR`, `lockstep-agent --write-man FILE`), so no page is edited by hand.
# Built with everything (target `man`); tests/integration/docs/CMakeLists.txt checks them with man and lexgrog.
set(LST_MAN_DIR ${CMAKE_BINARY_DIR}/man)
set(LST_MAN_PAGES ${LST_MAN_DIR}/lockstep.1 ${LST_MAN_DIR}/lockstep-plan.5
    ${LST_MAN_DIR}/lockstep-agent.8)
add_custom_command(OUTPUT ${LST_MAN_PAGES}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${LST_MAN_DIR}
  COMMAND $<TARGET_FILE:lockstep> --write-man ${LST_MAN_DIR}
  COMMAND $<TARGET_FILE:lockstep-agent> --write-man ${LST_MAN_DIR}/lockstep-agent.8
  DEPENDS lockstep lockstep-agent
  COMMENT "Writing man pages into ${LST_MAN_DIR}" VERBATIM)
add_custom_target(man ALL DEPENDS ${LST_MAN_PAGES})
