# libFuzzer on the plan reader (YAML from people), next to fuzz_msg (tests/proto.cmake).
# Configure a separate build for it, e.g.
#   cmake -B build/fuzz -DCMAKE_C_COMPILER=clang -DLST_FUZZ=ON -DLST_SANITIZE=address,undefined
# lst_plan and lst_common (lst_yaml) get coverage instrumentation (fuzzer-no-link).
if(LST_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "LST_FUZZ=ON needs clang: -DCMAKE_C_COMPILER=clang")
  endif()
  target_compile_options(lst_plan PRIVATE -fsanitize=fuzzer-no-link)
  target_compile_options(lst_common PRIVATE -fsanitize=fuzzer-no-link)
  add_executable(fuzz_plan fuzz/fuzz_plan.c)
  target_compile_options(fuzz_plan PRIVATE ${LST_WARNINGS} -fsanitize=fuzzer)
  target_link_options(fuzz_plan PRIVATE -fsanitize=fuzzer)
  target_link_libraries(fuzz_plan PRIVATE lockstep::plan)
endif()

lst_add_script_test(fuzz_plan ${CMAKE_CURRENT_SOURCE_DIR}/integration/fuzz_plan.sh TIMEOUT 400)
