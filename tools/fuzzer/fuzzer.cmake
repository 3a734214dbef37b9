# ringfuzz_add_fuzzer(NAME TARGET_FILE): a <NAME>_fuzzer executable that is
# ringfuzz with TARGET_FILE built in (tools/fuzzer/fuzzer_main.cc), for bots
# that run libFuzzer binaries: `./NAME_fuzzer -runs=100 corpus/`,
# `./NAME_fuzzer crash-file`. Needs the ringfuzz_fuzzer_main library
# (tools/CMakeLists.txt). Where the project builds twins
# (RINGFUZZ_HAVE_LIBFUZZER) it also builds <NAME>_fuzzer.twin beside it, the
# target's libFuzzer twin without sanitizers, which the fuzzer passes itself
# as -twin (timeouts in seconds); the extension keeps ClusterFuzz (which
# takes '', '.exe' and '.par') and OSS-Fuzz ('' and '.exe') from listing it
# as a target.
include(${CMAKE_CURRENT_LIST_DIR}/../../fuzz/twin/ringfuzz_twin.cmake)
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
  if(RINGFUZZ_HAVE_LIBFUZZER)
    ringfuzz_add_nosan_twin(${NAME}_fuzzer_twin "${TARGET_FILE}")
    set_target_properties(twinnosan_${NAME}_fuzzer_twin PROPERTIES
      OUTPUT_NAME "${NAME}_fuzzer.twin"
      RUNTIME_OUTPUT_DIRECTORY "$<TARGET_FILE_DIR:${NAME}_fuzzer>")
    add_dependencies(${NAME}_fuzzer twinnosan_${NAME}_fuzzer_twin)
  endif()
endfunction()
