# cmake -DROOT=<source dir> -DOUT=<scratch dir> -P ringfuzz_twin_script_test.cmake
# Passes iff tools/ringfuzz-twin builds, from shaders/targets/tlv.fz, a
# libFuzzer twin that crashes on data/tlv.crash with the expected report and
# a coverage twin that runs the seeds cleanly and writes a profile, and
# (--nosan) a twin without ASan with the same report; and iff it refuses a
# missing target file.
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(script "${ROOT}/tools/ringfuzz-twin")
set(data "${ROOT}/tests/twin/data")

execute_process(COMMAND ${script} ${ROOT}/shaders/targets/tlv.fz -o ${OUT}/twin_tlv
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ringfuzz-twin failed (${rc}):\n${out}\n${err}")
endif()
file(STRINGS "${data}/tlv.expect" expect LIMIT_COUNT 1)
execute_process(COMMAND ${OUT}/twin_tlv ${data}/tlv.crash
                RESULT_VARIABLE rc ERROR_VARIABLE err)
# The expectation has parentheses: compare literally, not as a regex.
string(FIND "\n${err}" "\nringfuzz: ${expect}\n" at)
if(rc EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "script-built twin: exit ${rc}, expected report "
                      "'${expect}':\n${err}")
endif()

execute_process(COMMAND ${script} ${ROOT}/shaders/targets/tlv.fz -o ${OUT}/twincov_tlv
                        --coverage
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ringfuzz-twin --coverage failed (${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env LLVM_PROFILE_FILE=${OUT}/tlv.profraw
                        ${OUT}/twincov_tlv ${ROOT}/corpus/tlv
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS ${OUT}/tlv.profraw)
  message(FATAL_ERROR "script-built coverage twin: exit ${rc} on the seeds, or "
                      "no profile:\n${err}")
endif()

# --nosan: a libFuzzer twin without sanitizers that reports the same bug.
execute_process(COMMAND ${script} ${ROOT}/shaders/targets/tlv.fz -o ${OUT}/twinnosan_tlv
                        --nosan
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ringfuzz-twin --nosan failed (${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND nm ${OUT}/twinnosan_tlv OUTPUT_VARIABLE symbols)
if(symbols MATCHES "__asan_init" OR NOT symbols MATCHES "LLVMFuzzerTestOneInput")
  message(FATAL_ERROR "ringfuzz-twin --nosan: not a libFuzzer binary without "
                      "ASan")
endif()
execute_process(COMMAND ${OUT}/twinnosan_tlv ${data}/tlv.crash
                RESULT_VARIABLE rc ERROR_VARIABLE err)
string(FIND "\n${err}" "\nringfuzz: ${expect}\n" at)
if(rc EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "script-built nosan twin: exit ${rc}, expected report "
                      "'${expect}':\n${err}")
endif()

execute_process(COMMAND ${script} ${OUT}/no_such_target.fz -o ${OUT}/x
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "does not exist")
  message(FATAL_ERROR "ringfuzz-twin accepted a missing target (exit ${rc}):\n${err}")
endif()
