# Tests of the protocol codec (proto/): the unit test, and libFuzzer on the decoder.
lst_add_unit_test(msg unit/test_msg.c lockstep::proto)
target_sources(test_msg PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/msg_examples.c)
target_include_directories(test_msg PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
