#include "fuzz/gpu/repeat_trials.h"

namespace ringfuzz {
namespace {

std::vector<uint8_t> Repeated(absl::Span<const uint8_t> input, size_t times) {
  std::vector<uint8_t> out;
  out.reserve(input.size() * times);
  for (size_t i = 0; i < times; ++i) {
    out.insert(out.end(), input.begin(), input.end());
  }
  return out;
}

}  // namespace

std::vector<std::vector<uint8_t>> DeriveRepeats(absl::Span<const uint8_t> input,
                                                size_t max_len) {
  std::vector<std::vector<uint8_t>> out;
  if (input.empty() || input.size() > max_len / 2) return out;
  out.push_back(Repeated(input, 2));
  const size_t most = max_len / input.size();
  if (most > 2) out.push_back(Repeated(input, most));
  return out;
}

}  // namespace ringfuzz
