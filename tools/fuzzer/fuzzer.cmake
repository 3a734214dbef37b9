# ringfuzz_add_fuzzer(NAME TARGET_FILE): a <NAME>_fuzzer executable that is
# ringfuzz with TARGET_FILE built in (tools/fuzzer/fuzzer_main.cc), for bots
# that run libFuzzer binaries: `./NAME_fuzzer -runs=100 corpus/`,
# `./NAME_fuzzer crash-file`. Needs the ringfuzz_fuzzer_main library
# (tools/CMakeLists.txt).
function(ringfuzz_add_fuzzer NAME TARGET_FILE)
  get_filename_component(_target "${TARGET_FILE}" ABSOLUTE)
  set(_cc "${CMAKE_CURRENT_BINARY_DIR}/${NAME}_fuzzer_target.cc")
  add_custom_command(
    OUTPUT "${_cc}"
    COMMAND ${CMAKE_COMMAND} -DNAME=${NAME} -DTARGET=${_target} -DOUT=${_cc}
            -P ${CMAKE_SOURCE_DIR}/tools/fuzzer/embed_target.cmake
    DEPENDS "${_target}" ${CMAKE_SOURCE_DIR}/tools/fuzzer/embed_target.cmake
    COMMENT "Embedding ${TARGET_FILE} in ${NAME}_fuzzer")
  add_executable(${NAME}_fuzzer "${_cc}")
  target_link_libraries(${NAME}_fuzzer PRIVATE ringfuzz_fuzzer_main)
endfunction()
