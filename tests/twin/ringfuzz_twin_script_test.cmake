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
file(STRINGS "${data}/tlv.expect" expect LIMIT_COUNT 1)

# Builds ${OUT}/<name> from tlv.fz with the script's extra arguments ARGN.
function(build_twin name)
  execute_process(COMMAND ${script} ${ROOT}/shaders/targets/tlv.fz -o ${OUT}/${name}
                          ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ringfuzz-twin ${ARGN} failed (${rc}):\n${out}\n${err}")
  endif()
endfunction()

# ${OUT}/<name> (described as `what`) exits non-zero on data/tlv.crash with
# the report in data/tlv.expect.
function(expect_tlv_report name what)
  execute_process(COMMAND ${OUT}/${name} ${data}/tlv.crash
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  # The expectation has parentheses: compare literally, not as a regex.
  string(FIND "\n${err}" "\nringfuzz: ${expect}\n" at)
  if(rc EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "${what}: exit ${rc}, expected report "
                        "'${expect}':\n${err}")
  endif()
endfunction()

build_twin(twin_tlv)
expect_tlv_report(twin_tlv "script-built twin")

build_twin(twincov_tlv --coverage)
execute_process(COMMAND ${CMAKE_COMMAND} -E env LLVM_PROFILE_FILE=${OUT}/tlv.profraw
                        ${OUT}/twincov_tlv ${ROOT}/corpus/tlv
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS ${OUT}/tlv.profraw)
  message(FATAL_ERROR "script-built coverage twin: exit ${rc} on the seeds, or "
                      "no profile:\n${err}")
endif()

# --nosan: a libFuzzer twin without sanitizers that reports the same bug.
build_twin(twinnosan_tlv --nosan)
execute_process(COMMAND nm ${OUT}/twinnosan_tlv OUTPUT_VARIABLE symbols)
if(symbols MATCHES "__asan_init" OR NOT symbols MATCHES "LLVMFuzzerTestOneInput")
  message(FATAL_ERROR "ringfuzz-twin --nosan: not a libFuzzer binary without "
                      "ASan")
endif()
expect_tlv_report(twinnosan_tlv "script-built nosan twin")

execute_process(COMMAND ${script} ${OUT}/no_such_target.fz -o ${OUT}/x
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "does not exist")
  message(FATAL_ERROR "ringfuzz-twin accepted a missing target (exit ${rc}):\n${err}")
endif()
