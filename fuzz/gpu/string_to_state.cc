#include "fuzz/gpu/string_to_state.h"

#include <algorithm>
#include <utility>

namespace ringfuzz {

std::vector<std::vector<uint8_t>> DeriveStringToState(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    absl::Span<const std::vector<uint8_t>> strings, size_t max_len,
    size_t max_inputs) {
  std::vector<std::vector<uint8_t>> out;
  if (input.empty() || strings.empty() || max_inputs == 0) return out;
  // Where each byte value stands in the input.
  std::vector<std::vector<uint32_t>> positions(256);
  for (size_t p = 0; p < input.size(); ++p) {
    positions[input[p]].push_back(static_cast<uint32_t>(p));
  }
  // Writes s[i..i + n) at p; false once `max_inputs` are made.
  auto write = [&](const std::vector<uint8_t>& s, size_t i, size_t n,
                   size_t p) {
    const size_t end = std::max(input.size(), p + n);
    if (end > max_len) return true;
    std::vector<uint8_t> trial(input.begin(), input.end());
    trial.resize(end);
    const auto from = s.begin() + static_cast<ptrdiff_t>(i);
    std::copy(from, from + static_cast<ptrdiff_t>(n),
              trial.begin() + static_cast<ptrdiff_t>(p));
    // Never the input itself: s[i] is y, input[p] is x != y.
    if (std::find(out.begin(), out.end(), trial) != out.end()) return true;
    out.push_back(std::move(trial));
    return out.size() < max_inputs;
  };
  // The rest s[i..]; where it runs past the input's end, the part that
  // fits; then its first kStringPrefixes bytes where shorter.
  auto add = [&](const std::vector<uint8_t>& s, size_t i, size_t p) {
    const size_t rest = s.size() - i;
    if (rest < 2) return true;
    if (!write(s, i, rest, p)) return false;
    const size_t fits = input.size() - p;
    if (fits >= 2 && fits < rest && !write(s, i, fits, p)) return false;
    for (const size_t n : kStringPrefixes) {
      if (n < rest && !write(s, i, n, p)) return false;
    }
    return true;
  };
  for (auto record = log.rbegin(); record != log.rend(); ++record) {
    for (const auto& [mine, other] :
         {std::pair{record->a, record->b}, std::pair{record->b, record->a}}) {
      if (mine == other || mine > 0xFF || other > 0xFF) continue;
      for (const std::vector<uint8_t>& s : strings) {
        for (size_t i = 0; i + 1 < s.size(); ++i) {
          if (s[i] != other) continue;
          for (const uint32_t p : positions[mine]) {
            if (!add(s, i, p)) return out;
          }
        }
      }
    }
  }
  return out;
}

}  // namespace ringfuzz
