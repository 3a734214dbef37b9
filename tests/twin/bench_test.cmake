# cmake -DROOT=<source dir> -DBUILD=<build dir> -DOUT=<scratch dir> -P bench_test.cmake
# Runs tools/bench for 2 s on tlv with data/fake_ringfuzz as ringfuzz and the
# real libFuzzer twin on 2 workers. Passes iff the TSV has the header and one
# row where the ringfuzz columns are the fake's numbers, the libFuzzer
# columns are positive, and ratio = ringfuzz / libFuzzer exec/s; and iff
# the bench refuses to run without a ringfuzz binary unless told to skip it;
# and iff --skip-libfuzzer measures ringfuzz alone (libFuzzer columns "-");
# and iff --gpu-breakdown prints six measured raw rates, the campaign's and
# their ratio.
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND ${ROOT}/tools/bench --seconds 2 --build ${BUILD} --jobs 2
                        --ringfuzz ${ROOT}/tests/twin/data/fake_ringfuzz
                        --tsv ${OUT}/bench.tsv tlv
                RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tools/bench failed (${rc}):\n${table}\n${err}")
endif()
file(STRINGS ${OUT}/bench.tsv lines)
list(LENGTH lines n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "expected a header and one row, got ${n} lines:\n${lines}")
endif()
list(GET lines 0 header)
list(GET lines 1 row)
if(NOT header STREQUAL "target\tringfuzz_execs_per_sec\tringfuzz_cov\tringfuzz_ft\tlibfuzzer_execs_per_sec\tlibfuzzer_cov\tlibfuzzer_ft\tlibfuzzer_workers\tseconds\tratio")
  message(FATAL_ERROR "unexpected TSV header: ${header}")
endif()
string(REPLACE "\t" ";" f "${row}")
list(GET f 0 target)
list(GET f 1 rf_rate)
list(GET f 2 rf_cov)
list(GET f 3 rf_ft)
list(GET f 4 lf_rate)
list(GET f 5 lf_cov)
list(GET f 6 lf_ft)
list(GET f 7 workers)
list(GET f 9 ratio)
if(NOT target STREQUAL "tlv" OR NOT rf_rate STREQUAL "2500" OR NOT rf_cov STREQUAL "12"
   OR NOT rf_ft STREQUAL "17" OR NOT workers STREQUAL "2")
  message(FATAL_ERROR "wrong ringfuzz columns in: ${row}\n${err}")
endif()
if(NOT lf_rate MATCHES "^[1-9][0-9]*$" OR NOT lf_cov MATCHES "^[1-9][0-9]*$"
   OR NOT lf_ft MATCHES "^[1-9][0-9]*$")
  message(FATAL_ERROR "libFuzzer columns not measured in: ${row}\n${err}")
endif()
# ratio has 3 decimals: compare ratio * 1000 with 2500000 / lf_rate, +-1.
string(REPLACE "." "" ratio_milli "${ratio}")
string(REGEX REPLACE "^0+([0-9])" "\\1" ratio_milli "${ratio_milli}")
math(EXPR expect_milli "2500000 / ${lf_rate}")
math(EXPR diff "${ratio_milli} - ${expect_milli}")
if(diff GREATER 1 OR diff LESS -1)
  message(FATAL_ERROR "ratio ${ratio} is not 2500 / ${lf_rate} in: ${row}")
endif()
if(NOT table MATCHES "tlv +2500 +12/17 +${lf_rate} +${lf_cov}/${lf_ft} +${ratio}")
  message(FATAL_ERROR "the printed table does not match the TSV:\n${table}")
endif()

execute_process(COMMAND ${ROOT}/tools/bench --seconds 1 --build ${BUILD}
                        --ringfuzz ${OUT}/no_such_ringfuzz tlv
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "--skip-ringfuzz")
  message(FATAL_ERROR "bench ran without a ringfuzz binary (exit ${rc}):\n${err}")
endif()

# --skip-libfuzzer: the ringfuzz columns only; the libFuzzer columns and the
# ratio are "-". Both skips at once are refused.
execute_process(COMMAND ${ROOT}/tools/bench --seconds 2 --build ${BUILD}
                        --ringfuzz ${ROOT}/tests/twin/data/fake_ringfuzz
                        --skip-libfuzzer --tsv ${OUT}/ringfuzz_only.tsv tlv
                RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tools/bench --skip-libfuzzer failed (${rc}):\n${table}\n${err}")
endif()
file(STRINGS ${OUT}/ringfuzz_only.tsv lines)
list(GET lines 1 row)
if(NOT row MATCHES "^tlv\t2500\t12\t17\t-\t-\t-\t[0-9]+\t2\t-$")
  message(FATAL_ERROR "--skip-libfuzzer: expected the fake's numbers and "
                      "libFuzzer columns of '-', got: ${row}\n${err}")
endif()
if(err MATCHES "libFuzzer twin for")
  message(FATAL_ERROR "--skip-libfuzzer ran the twin:\n${err}")
endif()
execute_process(COMMAND ${ROOT}/tools/bench --seconds 1 --build ${BUILD}
                        --skip-ringfuzz --skip-libfuzzer tlv
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "nothing to measure")
  message(FATAL_ERROR "both skips were accepted (exit ${rc}):\n${err}")
endif()

# --gpu-breakdown: six raw megakernel rates on lavapipe (all measured, so
# positive), then the campaign's rate (the fake's 2500) and campaign / the
# last raw rate, then the raw rate on the campaign's corpus (measured) and
# campaign / that, then the same in rounds of the campaign's shape (the
# fake's 16 slots of 5000 / 10 / 16 executions) and campaign / that.
execute_process(COMMAND ${ROOT}/tools/bench --gpu-breakdown --seconds 2
                        --build ${BUILD} --device cpu
                        --ringfuzz ${ROOT}/tests/twin/data/fake_ringfuzz tlv
                RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tools/bench --gpu-breakdown failed (${rc}):\n${table}\n${err}")
endif()
# The tlv row's fields: the name, six raw rates, the campaign, a ratio,
# the raw rate on its corpus, a ratio, the raw rate in its rounds, a ratio.
if(NOT table MATCHES "\n(tlv [^\n]*)\n")
  message(FATAL_ERROR "--gpu-breakdown: no tlv row:\n${table}\n${err}")
endif()
string(STRIP "${CMAKE_MATCH_1}" tlv_row)
string(REGEX REPLACE " +" ";" fields "${tlv_row}")
list(LENGTH fields field_count)
if(NOT field_count EQUAL 13)
  message(FATAL_ERROR "--gpu-breakdown: ${field_count} fields, not 13:\n${table}")
endif()
foreach(i 1 2 3 4 5 6 9 11)
  list(GET fields ${i} rate)
  if(NOT rate MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "--gpu-breakdown: field ${i} '${rate}' is not a "
                        "positive rate:\n${table}\n${err}")
  endif()
endforeach()
list(GET fields 7 campaign)
if(NOT campaign STREQUAL "2500")
  message(FATAL_ERROR "--gpu-breakdown: campaign '${campaign}', not the "
                      "fake's 2500:\n${table}")
endif()
list(GET fields 6 full_raw)
list(GET fields 8 share)
list(GET fields 9 corpus_raw)
list(GET fields 10 corpus_share)
list(GET fields 11 rounds_raw)
list(GET fields 12 rounds_share)
if(NOT err MATCHES "in its rounds \\(16 slots x 31 executions\\)")
  message(FATAL_ERROR "--gpu-breakdown: the campaign's round shape was not "
                      "read as 16 slots x 31 executions:\n${err}")
endif()
# Fails unless `share` (2 decimals) is 2500 / `raw`, +-0.01.
function(expect_share what share raw)
  string(REPLACE "." "" centi "${share}")
  string(REGEX REPLACE "^0+([0-9])" "\\1" centi "${centi}")
  math(EXPR expect_centi "250000 / ${raw}")
  math(EXPR diff "${centi} - ${expect_centi}")
  if(diff GREATER 1 OR diff LESS -1)
    message(FATAL_ERROR "--gpu-breakdown: ${what} ${share} is not "
                        "2500 / ${raw}:\n${table}")
  endif()
endfunction()
expect_share(campaign/raw "${share}" "${full_raw}")
expect_share(campaign/raw-corpus "${corpus_share}" "${corpus_raw}")
expect_share(campaign/raw-rounds "${rounds_share}" "${rounds_raw}")
