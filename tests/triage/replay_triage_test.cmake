# cmake -DCLASSIFY=<clusterfuzz_classify> -DNAME=<target name>
#       -DINPUT=<bug input> -DEXPECT_FILE=<file> [-DTWIN=<twin>]
#       [-DRINGFUZZ=<ringfuzz> -DTARGET=<target .fz>] -P replay_triage_test.cmake
#
# Replays INPUT as ClusterFuzz does (the input file as the only argument)
# on the libFuzzer twin and on ringfuzz (-device=cpu), reads each log the way
# ClusterFuzz does (clusterfuzz_classify) and passes iff each run is a crash
# of the class that EXPECT_FILE's first line names, with a non-empty state:
#   fz_crash(...)       Fatal-signal, not security
#   input overread...   Index-out-of-bounds, security
#   out-of-bounds...    Index-out-of-bounds, security
#   timeout...          Timeout, state NAME_fuzzer
# and iff both runs land in the same class.
file(STRINGS "${EXPECT_FILE}" expect LIMIT_COUNT 1)
if(expect MATCHES "^fz_crash")
  set(want_type "Fatal-signal")
  set(want_security 0)
elseif(expect MATCHES "^(input overread|out-of-bounds)")
  set(want_type "Index-out-of-bounds")
  set(want_security 1)
elseif(expect MATCHES "^timeout")
  set(want_type "Timeout")
  set(want_security 0)
else()
  message(FATAL_ERROR "${EXPECT_FILE}: no bug class for '${expect}'")
endif()

function(check_run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/triage_${NAME}_${what}.log" "${out}${err}")
  execute_process(COMMAND ${CLASSIFY} ${NAME}_fuzzer ${rc}
                  INPUT_FILE "${CMAKE_CURRENT_BINARY_DIR}/triage_${NAME}_${what}.log"
                  OUTPUT_VARIABLE triage)
  if(NOT triage MATCHES "type=${want_type}\nstate=[^\n]+\nsecurity=${want_security}\ncrash=1\n")
    message(FATAL_ERROR "${what} on ${INPUT} (exit ${rc}): ClusterFuzz would "
                        "read\n${triage}expected type=${want_type} "
                        "security=${want_security} crash=1; the log:\n${err}")
  endif()
  if(want_type STREQUAL "Timeout" AND NOT triage MATCHES "state=${NAME}_fuzzer\n")
    message(FATAL_ERROR "${what}: a timeout's state is the fuzz target:\n${triage}")
  endif()
  message(STATUS "${what}: ${triage}")
endfunction()

if(TWIN)
  check_run(twin ${TWIN} ${INPUT})
endif()
if(RINGFUZZ)
  check_run(ringfuzz ${CMAKE_COMMAND} -E env XDG_RUNTIME_DIR=/tmp
            ${RINGFUZZ} -target=${TARGET} -device=cpu ${INPUT})
endif()
