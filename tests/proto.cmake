# SPDX-License-Identifier: Apache-2.0
# Tests of the protocol codec (proto/): the unit test, and libFuzzer on the decoder.
lst_add_unit_test(msg unit/test_msg.c lockstep::proto)
target_sources(test_msg PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/msg_examples.c)
target_include_directories(test_msg PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)

# The fuzz corpus generator: built in every build so it cannot rot.
add_executable(gen_msg_corpus fuzz/gen_corpus.c fuzz/msg_examples.c)
target_compile_options(gen_msg_corpus PRIVATE ${LST_WARNINGS})
target_include_directories(gen_msg_corpus PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
target_link_libraries(gen_msg_corpus PRIVATE lockstep::proto)

# libFuzzer target. Configure a separate build for it, e.g.
#   cmake -B build/fuzz -DCMAKE_C_COMPILER=clang -DLST_FUZZ=ON -DLST_SANITIZE=address,undefined
# The codec and what it calls get coverage instrumentation (fuzzer-no-link), so the fuzzer
# is guided by the decoder's branches, not just by the target's.
lst_add_fuzzer(fuzz_msg fuzz/fuzz_msg.c proto)

lst_add_script_test(fuzz_msg ${CMAKE_CURRENT_SOURCE_DIR}/integration/fuzz_msg.sh TIMEOUT 400)
