// Reading one compare-log entry (RF_OP_CMPLOG, shaders/ringfuzz_wire.h): the
// comparisons an input's run made, as the host's derivations want them, in
// execution order.
#ifndef RINGFUZZ_FUZZ_GPU_COMPARE_LOG_H_
#define RINGFUZZ_FUZZ_GPU_COMPARE_LOG_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/gpu/input_to_state.h"

namespace ringfuzz {

// `entry` holds RF_CMPLOG_ENTRY_WORDS words. Fills `records` with the
// stored comparisons in execution order: all of them when the run made at
// most RF_CMPLOG_RECORDS, else its first RF_CMPLOG_HEAD and its last
// RF_CMPLOG_RECORDS - RF_CMPLOG_HEAD (the ones between were not stored).
// Returns the number of comparisons the run made.
uint32_t ReadCompareLog(absl::Span<const uint32_t> entry,
                        std::vector<CompareRecord>& records);

// Whether a run that made `other_made` comparisons and stored `other` took
// the path of the one that made `made` and stored `log`: as many made, and
// the same sites stored in the same order (its operands may differ).
bool SamePath(absl::Span<const CompareRecord> log, uint32_t made,
              absl::Span<const CompareRecord> other, uint32_t other_made);

// How many of `log`'s first records the run of `other` shares: made at the
// same point of the same path, so that their operands may be compared.
// All of them where SamePath holds; else the records up to where the
// stored sites first differ, counting only the first RF_CMPLOG_HEAD where
// either log was cut short (a cut log's later records are its run's last
// ones, which no longer line up). A run that left the path at a comparison
// still shares that comparison: its operands are what made it leave.
size_t SharedPathPrefix(absl::Span<const CompareRecord> log, uint32_t made,
                        absl::Span<const CompareRecord> other,
                        uint32_t other_made);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_COMPARE_LOG_H_
