#include "fuzz/gpu/mutant_budget.h"

#include <algorithm>
#include <cstdint>

namespace ringfuzz {

void MutantBudget::Observe(uint32_t parent, uint64_t execs, uint64_t steps,
                           uint64_t cuts) {
  if (execs == 0) return;
  if (parents_.size() <= parent) parents_.resize(uint64_t{parent} + 1);
  Parent& p = parents_[parent];
  if (p.execs >= kHistory) {
    p.execs /= 2;
    p.steps /= 2;
  }
  p.execs += execs;
  p.steps += steps;
  p.window_execs += execs;
  p.window_cuts += cuts;
  if (p.window_execs >= kWindow) {
    // Doublings stop once the budget reaches the ceiling (For gives 0).
    if (p.window_cuts * kCutShare > p.window_execs) {
      if (For(parent) != 0) ++p.doublings;
    } else if (p.window_cuts == 0 && p.doublings != 0) {
      --p.doublings;
    }
    p.window_execs = 0;
    p.window_cuts = 0;
  }
  cuts_ += cuts;
  executions_ += execs;
}

uint32_t MutantBudget::For(uint32_t parent) const {
  if (parent >= parents_.size() || parents_[parent].execs == 0) return 0;
  const Parent& p = parents_[parent];
  const uint64_t mean = (p.steps + p.execs - 1) / p.execs;
  uint64_t budget = std::max<uint64_t>(floor_, kSlowFactor * mean);
  for (uint32_t k = 0; k < p.doublings && budget < ceiling_; ++k) budget *= 2;
  return budget >= ceiling_ ? 0 : static_cast<uint32_t>(budget);
}

}  // namespace ringfuzz
