# SPDX-License-Identifier: Apache-2.0
# Link rule: the coordinator's layers point one way, cli -> run -> suite -> results -> plan ->
# common, where the results are three libraries (present -> folder -> measure; their own order
# is tests/link/results_layers.sh's). Run with -DNM=... -DRUN=liblst_run.a -DSUITE=liblst_suite.a
# -DPLAN=liblst_plan.a -DMEASURE=liblst_measure.a -DFOLDER=liblst_folder.a
# -DPRESENT=liblst_present.a. Fails when a lower layer calls up: plans and results must not
# reference the run loop, connections or suites, the suites not the run loop or connections,
# plans not the results, and none of them a command (lst_cmd_*, lst_cli_*).

# The symbols lib needs from elsewhere: undefined in its objects, defined in none of them.
function(external_symbols lib out)
  execute_process(COMMAND ${NM} -u ${lib} OUTPUT_VARIABLE und RESULT_VARIABLE rc1)
  execute_process(COMMAND ${NM} --defined-only ${lib} OUTPUT_VARIABLE def RESULT_VARIABLE rc2)
  if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
    message(FATAL_ERROR "${NM} on ${lib} failed (${rc1}, ${rc2})")
  endif()
  string(REGEX MATCHALL "[ \t]U ([A-Za-z0-9_]+)" und "${und}")
  string(REGEX MATCHALL " [A-Za-z] ([A-Za-z0-9_]+)" def "${def}")
  list(TRANSFORM und REPLACE "^[ \t]U " "")
  list(TRANSFORM def REPLACE "^ [A-Za-z] " "")
  list(REMOVE_DUPLICATES und)
  list(REMOVE_ITEM und ${def})
  set(${out} "${und}" PARENT_SCOPE)
endfunction()

function(forbid lib what regex)
  external_symbols(${lib} syms)
  list(FILTER syms INCLUDE REGEX "${regex}")
  list(REMOVE_ITEM syms lst_suite_names) # the plan's table of suite names, not the suites' code
  if(syms)
    message(FATAL_ERROR "${what}: ${syms}")
  endif()
endfunction()

forbid(${PLAN} "plans (lst_plan) call up into the results, the run or the CLI"
       "^lst_(results|report|plot|coord|conn|suite|probe|cli|cmd)_")
foreach(lib ${MEASURE} ${FOLDER} ${PRESENT})
  get_filename_component(name ${lib} NAME_WE)
  forbid(${lib} "results (${name}) call up into the run or the CLI"
         "^lst_(coord|conn|suite|probe|cli|cmd)_")
endforeach()
forbid(${SUITE} "the suites (lst_suite) call up into the run or the CLI"
       "^lst_(coord|conn|probe|cli|cmd)_")
forbid(${RUN} "lst_run calls the command line" "^lst_(cli|cmd)_")
message(STATUS "ok: lst_plan, the results and lst_suite reference nothing of lst_run or the CLI; lst_run nothing of the CLI")
