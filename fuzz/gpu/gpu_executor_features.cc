// GpuExecutor's calls for the corpus tools (merge, crash minimization and
// cleansing, fuzz/corpus_tools.h): many inputs run once, and the coverage
// maps read and cleared by the host.
#include <algorithm>
#include <cstring>

#include "fuzz/gpu/gpu_executor.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

// Appends the index of every set bit of `words` to `ids`, ascending.
void AppendSetBits(const uint32_t* words, uint32_t count,
                   std::vector<uint32_t>& ids) {
  for (uint32_t w = 0; w < count; ++w) {
    for (uint32_t bits = words[w]; bits != 0; bits &= bits - 1) {
      ids.push_back(w * 32 + static_cast<uint32_t>(__builtin_ctz(bits)));
    }
  }
}

}  // namespace

absl::StatusOr<BatchResult> GpuExecutor::ExecuteEach(
    absl::Span<const Bytes> inputs) {
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  if (absl::Status s = Quiesce(); !s.ok()) return s;
  // Calibration runs are replays: each reports its fault, whether or not
  // the fault was seen before, and an invocation that runs several inputs
  // of a calibration slot queues each one's.
  std::vector<Find> runs(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const size_t n = std::min<size_t>(inputs[i].size(), len_limit_);
    runs[i].data.assign(inputs[i].begin(), inputs[i].begin() + n);
    runs[i].parent = static_cast<uint32_t>(i);
  }
  // A fault must not stop the dispatch (and so the other inputs), as it
  // does while fuzzing without -keep_going.
  const uint32_t flags = push_flags_;
  push_flags_ |= RF_PUSH_KEEP_GOING;
  // A workgroup's worth of inputs per slot the ring holds, per call of
  // Calibrate (within the find queue, which Calibrate splits by).
  const size_t per_call = std::max<size_t>(
      size_t{precise_->kernel.local_size} * std::min(ring_slots_, groups_), 1);
  BatchResult result;
  absl::Status ran;
  for (size_t first = 0; first < runs.size() && ran.ok(); first += per_call) {
    const size_t end = std::min(runs.size(), first + per_call);
    ran = Calibrate(std::vector<Find>(runs.begin() + first, runs.begin() + end),
                    result);
  }
  push_flags_ = flags;
  if (!ran.ok()) return ran;
  result.executions = inputs.size();
  return result;
}

absl::StatusOr<CoverageIds> GpuExecutor::CoverageIdsSoFar() const {
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  const uint32_t* ctrl = control_.words();
  CoverageIds ids;
  AppendSetBits(ctrl + RF_RES_EDGE_MAP, RF_EDGE_MAP_WORDS, ids.features);
  AppendSetBits(ctrl + RF_RES_SITE_MAP, RF_SITE_MAP_WORDS, ids.blocks);
  return ids;
}

absl::Status GpuExecutor::ResetCoverage() {
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  if (absl::Status s = Quiesce(); !s.ok()) return s;
  uint32_t* ctrl = control_.words();
  std::memset(ctrl + RF_RES_EDGE_MAP, 0, RF_EDGE_MAP_WORDS * 4);
  std::memset(ctrl + RF_RES_SITE_MAP, 0, RF_SITE_MAP_WORDS * 4);
  // The signature build's seen table summarises the same coverage: an
  // execution it remembers would not be re-run precisely.
  std::memset(ctrl + RF_RES_SEEN, 0, RF_SEEN_WORDS * 4);
  unseen_again_.clear();  // nothing left to un-mark
  // So does the deferred precise build's record of the static edges it
  // marked.
  std::memset(ctrl + RF_RES_STATIC_EDGES, 0, RF_STATIC_EDGE_WORDS * 4);
  // And the signature build's record of the classes candidates visited.
  std::memset(ctrl + RF_RES_SIG_CLASSES, 0, RF_SIG_CLASS_WORDS * 4);
  coverage_stale_ = true;
  return absl::OkStatus();
}

}  // namespace ringfuzz
