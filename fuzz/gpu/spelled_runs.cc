#include "fuzz/gpu/spelled_runs.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"

namespace ringfuzz {

std::vector<std::vector<uint8_t>> RewriteSpelledRuns(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    absl::Span<const SpelledRun> runs, SpellFn spell, size_t max_len,
    size_t max_inputs) {
  std::vector<std::vector<uint8_t>> out;
  if (runs.empty() || max_inputs == 0) return out;
  // The runs of each value, in the order given: a log of thousands of
  // records over an input of thousands of runs stays linear.
  absl::flat_hash_map<uint32_t, std::vector<size_t>> by_value;
  for (size_t i = 0; i < runs.size(); ++i) {
    by_value[runs[i].value].push_back(i);
  }
  auto add = [&](const SpelledRun& run, uint32_t value) {
    const std::optional<std::string> spelled = spell(run, value);
    if (!spelled) return;
    std::vector<uint8_t> trial(input.begin(), input.begin() + run.begin);
    trial.insert(trial.end(), spelled->begin(), spelled->end());
    trial.insert(trial.end(), input.begin() + run.end, input.end());
    if (trial.size() > max_len ||
        std::equal(trial.begin(), trial.end(), input.begin(), input.end()) ||
        std::find(out.begin(), out.end(), trial) != out.end()) {
      return;
    }
    out.push_back(std::move(trial));
  };
  for (const bool short_runs : {false, true}) {
    for (const CompareRecord& record : log) {
      for (const auto& [mine, other] :
           {std::pair{record.a, record.b}, std::pair{record.b, record.a}}) {
        if (mine == other) continue;
        const auto found = by_value.find(mine);
        if (found == by_value.end()) continue;
        for (const size_t i : found->second) {
          if (runs[i].short_run != short_runs) continue;
          for (const uint32_t value : {other, other - 1, other + 1}) {
            if (out.size() >= max_inputs) return out;
            add(runs[i], value);
          }
        }
      }
    }
  }
  return out;
}

}  // namespace ringfuzz
