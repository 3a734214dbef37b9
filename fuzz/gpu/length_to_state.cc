#include "fuzz/gpu/length_to_state.h"

#include <algorithm>

namespace ringfuzz {

std::vector<size_t> DeriveLengthsToTry(size_t length,
                                       absl::Span<const CompareRecord> log,
                                       size_t max_len, size_t max_lengths) {
  std::vector<size_t> out;
  auto add = [&](uint64_t candidate) {
    if (out.size() >= max_lengths || candidate > max_len ||
        candidate <= length) {
      return;
    }
    const size_t value = static_cast<size_t>(candidate);
    if (std::find(out.begin(), out.end(), value) == out.end()) {
      out.push_back(value);
    }
  };
  for (const CompareRecord& record : log) {
    for (const auto& [mine, other] :
         {std::pair{record.a, record.b}, std::pair{record.b, record.a}}) {
      if (mine != length || other <= length) continue;
      if (other > 0) add(uint64_t{other} - 1);
      add(other);
      add(uint64_t{other} + 1);
    }
    if (out.size() >= max_lengths) break;
  }
  return out;
}

std::vector<uint8_t> ResizeInput(absl::Span<const uint8_t> input,
                                 size_t length) {
  std::vector<uint8_t> out(input.begin(),
                           input.begin() + std::min(length, input.size()));
  for (size_t k = out.size(); k < length; ++k) {
    out.push_back(static_cast<uint8_t>(k & 0xFF));
  }
  return out;
}

}  // namespace ringfuzz
