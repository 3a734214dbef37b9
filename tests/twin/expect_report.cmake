# cmake -DTWIN=<twin> -DINPUT=<file> -DEXPECT_FILE=<file>
#       [-DCORPUS=<dir> -DPROFILE=<path>] [-DFRAME=<regex>] -P expect_report.cmake
#
# libFuzzer twin (no PROFILE): passes iff the twin exits non-zero on INPUT
# and its stderr has exactly one detail line "ringfuzz: <what>" (see
# fuzz/twin/twin_report.h), where <what> is the first line of EXPECT_FILE.
# Coverage flavour (PROFILE, CORPUS): passes iff, run on CORPUS and INPUT, it
# exits 1 with that same single report, names INPUT as the "BUG:", writes a
# non-empty profile to PROFILE, and run on CORPUS alone exits 0.
if(NOT EXISTS "${INPUT}")
  message(FATAL_ERROR "no bug input ${INPUT}: every bundled target needs one "
                      "(find it with the twin, see docs/dialect.md)")
endif()
file(STRINGS "${EXPECT_FILE}" expect LIMIT_COUNT 1)

set(cmd ${TWIN} "${INPUT}")
if(PROFILE)
  file(REMOVE "${PROFILE}")
  set(cmd ${CMAKE_COMMAND} -E env LLVM_PROFILE_FILE=${PROFILE} ${TWIN} "${CORPUS}" "${INPUT}")
endif()
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "${TWIN} exited 0 on ${INPUT}; expected a bug report:\n${err}")
endif()
string(REGEX MATCHALL "\nringfuzz: [^\n]*" reports "\n${err}")
list(LENGTH reports n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected exactly one ringfuzz report, got ${n}:\n${err}")
endif()
string(REGEX REPLACE "^\nringfuzz: " "" what "${reports}")
if(NOT what STREQUAL expect)
  message(FATAL_ERROR "expected report '${expect}', got '${what}'")
endif()
# FRAME: a line of the crash's stack trace (libFuzzer's "#N 0x... in ...")
# must match it.
if(FRAME)
  string(REGEX MATCH "\n +#[0-9]+ [^\n]*${FRAME}" frame "\n${err}")
  if(NOT frame)
    message(FATAL_ERROR "no stack frame matches '${FRAME}':\n${err}")
  endif()
endif()

if(PROFILE)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "coverage twin exited ${rc}, expected 1 (a bug was reported)")
  endif()
  if(NOT err MATCHES "BUG: ${INPUT}")
    message(FATAL_ERROR "coverage twin did not name ${INPUT} as the bug input:\n${err}")
  endif()
  file(SIZE "${PROFILE}" size)
  if(size EQUAL 0)
    message(FATAL_ERROR "coverage twin wrote an empty profile ${PROFILE}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env LLVM_PROFILE_FILE=${PROFILE}
                          ${TWIN} ${CORPUS}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "coverage twin exited ${rc} on the seeds ${CORPUS}:\n${err}")
  endif()
endif()
