#include "fuzz/gpu/repeat_trials.h"

#include <algorithm>

namespace ringfuzz {
namespace {

// `head` once, then `tail` `times` times.
std::vector<uint8_t> Repeated(absl::Span<const uint8_t> head,
                              absl::Span<const uint8_t> tail, size_t times) {
  std::vector<uint8_t> out;
  out.reserve(head.size() + tail.size() * times);
  out.insert(out.end(), head.begin(), head.end());
  for (size_t i = 0; i < times; ++i) {
    out.insert(out.end(), tail.begin(), tail.end());
  }
  return out;
}

}  // namespace

std::vector<std::vector<uint8_t>> DeriveRepeats(absl::Span<const uint8_t> input,
                                                size_t max_len) {
  std::vector<std::vector<uint8_t>> out;
  if (input.empty() || input.size() > max_len) return out;
  auto add = [&out](std::vector<uint8_t> repeat) {
    // A periodic input repeats the same way from several headers.
    if (std::find(out.begin(), out.end(), repeat) == out.end()) {
      out.push_back(std::move(repeat));
    }
  };
  const size_t most = max_len / input.size();
  if (most >= 2) add(Repeated({}, input, 2));
  if (most > 2) add(Repeated({}, input, most));
  for (size_t h = 1; h <= kMaxRepeatHeader && h + 2 <= input.size(); ++h) {
    const size_t times = (max_len - h) / (input.size() - h);
    if (times >= 2) add(Repeated(input.first(h), input.subspan(h), times));
  }
  return out;
}

}  // namespace ringfuzz
