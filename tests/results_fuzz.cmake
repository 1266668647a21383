# libFuzzer target for the results CSV readers (see tests/proto.cmake for how LST_FUZZ builds
# are configured): the results library gets coverage instrumentation, so the fuzzer is guided
# by the parsers' branches. tests/integration/fuzz_csv.sh builds and runs it for a bounded time.
if(LST_FUZZ)
  target_compile_options(lst_results PRIVATE -fsanitize=fuzzer-no-link)
  add_executable(fuzz_csv fuzz/fuzz_csv.c)
  target_compile_options(fuzz_csv PRIVATE ${LST_WARNINGS} -fsanitize=fuzzer)
  target_link_options(fuzz_csv PRIVATE -fsanitize=fuzzer)
  target_link_libraries(fuzz_csv PRIVATE lockstep::results)
endif()

lst_add_script_test(fuzz_csv ${CMAKE_CURRENT_SOURCE_DIR}/integration/fuzz_csv.sh TIMEOUT 400)
