# SPDX-License-Identifier: Apache-2.0
# Install rules and Debian packages. `make install` (DESTDIR, PREFIX) and `make deb`
# (CPack DEB) use the same rules: two components, `coordinator` -> package `lockstep` and
# `agent` -> package `lockstep-agent`, so a lab installs the daemon on its servers and the
# coordinator on one workstation. The agent goes to sbin: it is a system daemon started by
# systemd as root (man section 8), not a command users type. Its config and keys live under
# /etc/lockstep whatever the prefix, because the unit, the docs and deploy/agent.yaml name that
# path. The unit's ExecStart is rewritten for the prefix at configure time. Man pages come from
# another target (`man`, generated into ${CMAKE_BINARY_DIR}/man): installed when they exist at
# install time, so this file works without them. Runtime dependencies come from
# dpkg-shlibdeps, never from a hand list.
include(GNUInstallDirs)

set(LST_PKG_DIR ${CMAKE_SOURCE_DIR}/packaging)
# Installing (and CPack) builds only what is installed, through lst_package_inputs below, not
# every test program: `make install` and `make deb` build that target first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(LST_ETC /etc/lockstep)

# The unit with ExecStart pointing at this prefix's sbin (deploy/ holds it for /usr).
file(READ ${CMAKE_SOURCE_DIR}/deploy/lockstep-agent.service lst_unit)
string(REPLACE "/usr/sbin/lockstep-agent" "${CMAKE_INSTALL_FULL_SBINDIR}/lockstep-agent"
       lst_unit "${lst_unit}")
file(WRITE ${CMAKE_BINARY_DIR}/deploy/lockstep-agent.service "${lst_unit}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${CMAKE_SOURCE_DIR}/deploy/lockstep-agent.service)

# lst_install_gz(SRC DEST_DIR NAME COMPONENT [OPTIONAL])
# Install SRC as DEST_DIR/NAME.gz (gzip -9n: reproducible, as Debian wants man pages and
# changelogs). DEST_DIR is relative to the prefix. OPTIONAL: a missing SRC installs nothing.
function(lst_install_gz src dest name component)
  cmake_parse_arguments(A "OPTIONAL" "" "" ${ARGN})
  set(missing "message(FATAL_ERROR \"\${src}: missing\")")
  if(A_OPTIONAL)
    set(missing "")
  endif()
  install(CODE "
    set(src \"${src}\")
    set(dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${dest}\")
    if(EXISTS \"\${src}\")
      file(MAKE_DIRECTORY \"\${dir}\")
      message(STATUS \"Installing: \${dir}/${name}.gz\")
      execute_process(COMMAND gzip -9 -n -c \"\${src}\" OUTPUT_FILE \"\${dir}/${name}.gz\"
                      RESULT_VARIABLE rc)
      if(rc)
        message(FATAL_ERROR \"gzip \${src} failed: \${rc}\")
      endif()
      file(CHMOD \"\${dir}/${name}.gz\" FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
    else()
      ${missing}
    endif()" COMPONENT ${component})
endfunction()

# Coordinator: the command, its docs, the plan format's page.
install(TARGETS lockstep RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT coordinator)
install(FILES README.md docs/plan.md docs/results.md docs/security.md docs/suites.md
        docs/inventory.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT coordinator)
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples COMPONENT coordinator)
# bash completion (completion/lockstep.bash reads each program's --help): bash-completion loads a
# script by the command's name, so the one file goes in under both names.
install(FILES completion/lockstep.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME lockstep COMPONENT coordinator)
install(FILES completion/lockstep.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME lockstep-agent COMPONENT agent)
lst_install_gz(${CMAKE_BINARY_DIR}/man/lockstep.1 ${CMAKE_INSTALL_MANDIR}/man1 lockstep.1
               coordinator OPTIONAL)
lst_install_gz(${CMAKE_BINARY_DIR}/man/lockstep-plan.5 ${CMAKE_INSTALL_MANDIR}/man5
               lockstep-plan.5 coordinator OPTIONAL)

# Agent: the daemon, its unit, its commented config (a conffile), the keys folder (0700:
# the agent refuses one that group or others may write, and the keys are nobody else's).
install(TARGETS lockstep-agent RUNTIME DESTINATION ${CMAKE_INSTALL_SBINDIR} COMPONENT agent)
install(FILES ${CMAKE_BINARY_DIR}/deploy/lockstep-agent.service
        DESTINATION lib/systemd/system COMPONENT agent)
# An admin's edited config survives `make install` (dpkg does the same for the conffile).
# (file(INSTALL) adds DESTDIR to its absolute DESTINATION itself.)
install(CODE "
  set(dst \"\$ENV{DESTDIR}${LST_ETC}/agent.yaml\")
  if(EXISTS \"\${dst}\")
    message(STATUS \"Keeping: \${dst}\")
  else()
    file(INSTALL \"${CMAKE_SOURCE_DIR}/deploy/agent.yaml\" DESTINATION \"${LST_ETC}\"
         FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  endif()" COMPONENT agent)
install(DIRECTORY DESTINATION ${LST_ETC}/authorized_keys COMPONENT agent
        DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
install(FILES docs/agent.md docs/security.md deploy/agent.yaml
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/lockstep-agent COMPONENT agent)
lst_install_gz(${CMAKE_BINARY_DIR}/man/lockstep-agent.8 ${CMAKE_INSTALL_MANDIR}/man8
               lockstep-agent.8 agent OPTIONAL)

# Debian packages want a copyright file and a changelog in each package's doc folder.
set(CPACK_PACKAGE_CONTACT "lockstep maintainers <maintainers@users.noreply.a-seed-a320ca0c.example>")
foreach(pair "coordinator;lockstep" "agent;lockstep-agent")
  list(GET pair 0 comp)
  list(GET pair 1 LST_PKG)
  set(doc ${CMAKE_INSTALL_DATAROOTDIR}/doc/${LST_PKG})
  configure_file(${LST_PKG_DIR}/changelog.Debian.in
                 ${CMAKE_BINARY_DIR}/packaging/${LST_PKG}/changelog.Debian @ONLY)
  lst_install_gz(${CMAKE_BINARY_DIR}/packaging/${LST_PKG}/changelog.Debian ${doc}
                 changelog.Debian ${comp})
  install(FILES ${LST_PKG_DIR}/copyright DESTINATION ${doc} COMPONENT ${comp})
endforeach()

# CPack: `make deb` runs `cpack -G DEB` in the build tree.
set(CPACK_PACKAGE_NAME lockstep)
set(CPACK_PACKAGE_VENDOR "lockstep")
# Apache-2.0: a .deb states it in packaging/copyright (DEP-5, installed above); generators that
# show or embed a license file take this one.
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL coordinator agent)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1) # a Debian revision: not a native package
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_COORDINATOR_PACKAGE_NAME lockstep)
set(CPACK_DEBIAN_COORDINATOR_PACKAGE_SECTION utils)
# Plots are drawn with gnuplot (a run without it writes the data and skips the pictures), so
# apt installs it by default; gnuplot-nox first: a lab's workstation needs no X11 for PNGs.
set(CPACK_DEBIAN_COORDINATOR_PACKAGE_RECOMMENDS "gnuplot-nox | gnuplot")
set(CPACK_DEBIAN_COORDINATOR_DESCRIPTION
    "multi-host storage test coordinator\n\
lockstep runs one storage test plan on many hosts at once. It starts\n\
synchronized phases on lockstep agents, merges what they measured into exact\n\
combined results (IOPS, bandwidth, latency percentiles from merged histograms)\n\
and writes a results folder with reports and plots. Install lockstep-agent on\n\
the hosts under test.")
set(CPACK_DEBIAN_AGENT_PACKAGE_NAME lockstep-agent)
set(CPACK_DEBIAN_AGENT_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_AGENT_DESCRIPTION
    "lockstep agent daemon: drives this host's disks for a coordinator\n\
lockstep-agent runs on each host under test. It drives block devices through\n\
io_uring for a lockstep coordinator and streams timestamped samples back. It\n\
writes only the paths its config allows, never a mounted or in-use device.\n\
The systemd unit is installed but not enabled: edit /etc/lockstep/agent.yaml,\n\
add keys, then run systemctl enable --now lockstep-agent.")
set(CPACK_DEBIAN_AGENT_PACKAGE_CONTROL_EXTRA
    ${LST_PKG_DIR}/conffiles ${LST_PKG_DIR}/postinst ${LST_PKG_DIR}/prerm ${LST_PKG_DIR}/postrm)
include(CPack)

# Everything a package may hold, `man` included once that target exists (another part of the
# tree defines it, possibly after this file is read: checked at the end of the top directory).
add_custom_target(lst_package_inputs)
add_dependencies(lst_package_inputs lockstep lockstep-agent)
function(s_lst_package_man)
  if(TARGET man)
    add_dependencies(lst_package_inputs man)
  endif()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL s_lst_package_man)
