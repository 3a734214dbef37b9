# cmake -DTWIN=<twin> -DINPUTS=<file;...> -DWHAT=<name> -P expect_clean.cmake
# Passes iff INPUTS is not empty and the twin, replaying them, exits 0
# without a ringfuzz bug report.
if(NOT INPUTS)
  message(FATAL_ERROR "${WHAT} has no inputs: every bundled target needs a seed corpus")
endif()
execute_process(COMMAND ${TWIN} ${INPUTS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR "\n${err}" MATCHES "\nringfuzz: ")
  message(FATAL_ERROR "replaying ${WHAT} failed (exit ${rc}); a seed must not "
                      "trigger the bug:\n${err}")
endif()
