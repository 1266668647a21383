# Link rule: the coordinator's layers point one way, cli -> run -> suite -> results -> plan ->
# common. Run with -DNM=... -DRUN=liblst_run.a -DSUITE=liblst_suite.a -DPLAN=liblst_plan.a
# -DRESULTS=liblst_results.a. Fails when a lower layer calls up: plans and results must not
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
forbid(${RESULTS} "results (lst_results) call up into the run or the CLI"
       "^lst_(coord|conn|suite|probe|cli|cmd)_")
forbid(${SUITE} "the suites (lst_suite) call up into the run or the CLI"
       "^lst_(coord|conn|probe|cli|cmd)_")
forbid(${RUN} "lst_run calls the command line" "^lst_(cli|cmd)_")
message(STATUS "ok: lst_plan, lst_results and lst_suite reference nothing of lst_run or the CLI; lst_run nothing of the CLI")
