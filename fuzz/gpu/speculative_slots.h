// Which work items of a precise flight give their slots to speculative
// runs (GpuExecutor::AddSpeculativeRuns: a trial's first mutants, run in
// the flight that judges the trial).
#ifndef RINGFUZZ_FUZZ_GPU_SPECULATIVE_SLOTS_H_
#define RINGFUZZ_FUZZ_GPU_SPECULATIVE_SLOTS_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/engine/executor.h"

namespace ringfuzz {

// Returns the indices, ascending, of min(n, work / 2) items of `items`
// past its first `service_slots` (the flight's service runs; work = the
// items after them), sorted by priority as the scheduler sorts them: the
// least urgent ones. Where the RF_PRIORITY_LOW items number at least that
// many, they are spread evenly over those (with -slowest_first the
// scheduler orders LOW items by their parent's cost, dearest first, so the
// last ones would always be the cheapest parents'); else the last items.
std::vector<uint32_t> SpeculativeSlots(absl::Span<const WorkItem> items,
                                       uint32_t service_slots, uint32_t n);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_SPECULATIVE_SLOTS_H_
