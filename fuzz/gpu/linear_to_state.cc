#include "fuzz/gpu/linear_to_state.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "fuzz/gpu/compare_log.h"

namespace ringfuzz {
namespace {

// How ProbeCopy moves a byte: +1, or -1 where it is 255.
int64_t Step(uint8_t byte) { return byte == 255 ? -1 : 1; }

// One probed byte of a comparison: how much the difference of the
// comparison's operands moves when the byte moves up by one.
struct Term {
  uint32_t position = 0;
  int64_t weight = 0;
};

// `input` with the bytes of `terms` changed so that the weighted sum of the
// changes is `want`: largest |weight| first, each byte changed by what is
// left divided by its weight (toward zero), clamped to 0..255. Empty where
// something is left at the end.
std::optional<std::vector<uint8_t>> Solve(absl::Span<const uint8_t> input,
                                          absl::Span<const Term> terms,
                                          int64_t want) {
  std::vector<uint8_t> out(input.begin(), input.end());
  int64_t left = want;
  for (const Term& t : terms) {
    const int64_t byte = out[t.position];
    const int64_t change =
        std::clamp<int64_t>(left / t.weight, -byte, 255 - byte);
    out[t.position] = static_cast<uint8_t>(byte + change);
    left -= change * t.weight;
  }
  if (left != 0) return std::nullopt;
  return out;
}

// Whether the operand that moves is bytes of `input` as they stand, which
// input-to-state writes already: the terms are 1, 2 or 4 consecutive bytes
// weighted as a little- or big-endian word (all + for operand a, all - for
// b), and that word of the input is the operand's value.
bool ReadAsItStands(absl::Span<const uint8_t> input, std::vector<Term> terms,
                    const CompareRecord& record) {
  const size_t n = terms.size();
  if (n != 1 && n != 2 && n != 4) return false;
  std::sort(terms.begin(), terms.end(), [](const Term& x, const Term& y) {
    return x.position < y.position;
  });
  const int64_t sign = terms[0].weight > 0 ? 1 : -1;
  bool little = true;
  bool big = true;
  uint32_t word_little = 0;
  uint32_t word_big = 0;
  for (size_t k = 0; k < n; ++k) {
    if (terms[k].position != terms[0].position + k) return false;
    little = little && terms[k].weight == sign * (int64_t{1} << (8 * k));
    big = big && terms[k].weight == sign * (int64_t{1} << (8 * (n - 1 - k)));
    const uint32_t byte = input[terms[k].position];
    word_little |= byte << (8 * k);
    word_big = (word_big << 8) | byte;
  }
  const uint32_t operand = sign > 0 ? record.a : record.b;
  return (little && operand == word_little) || (big && operand == word_big);
}

}  // namespace

std::vector<uint32_t> LinearProbePositions(size_t length) {
  std::vector<uint32_t> positions(std::min(length, kLinearProbeBytes));
  for (size_t p = 0; p < positions.size(); ++p) {
    positions[p] = static_cast<uint32_t>(p);
  }
  return positions;
}

bool LinearProbeWanted(size_t length, const ColorEvidence* color) {
  if (color == nullptr) return length != 0;
  for (const uint32_t p : LinearProbePositions(length)) {
    if (p >= color->plain.size() || !color->plain[p]) return true;
  }
  return false;
}

std::vector<uint8_t> ProbeCopy(absl::Span<const uint8_t> input,
                               uint32_t position) {
  std::vector<uint8_t> copy(input.begin(), input.end());
  copy[position] = static_cast<uint8_t>(copy[position] + Step(copy[position]));
  return copy;
}

std::vector<std::vector<uint8_t>> DeriveLinearToState(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    uint32_t made, absl::Span<const ProbeRun> probes, size_t max_inputs) {
  std::vector<std::vector<uint8_t>> out;
  if (max_inputs == 0) return out;
  // The difference a - b of a comparison, wrapped as the target's 32-bit
  // arithmetic wraps it.
  auto difference = [](const CompareRecord& r) { return r.a - r.b; };
  std::vector<std::vector<Term>> terms(log.size());
  for (const ProbeRun& probe : probes) {
    if (probe.position >= input.size() ||
        !SamePath(log, made, probe.log, probe.made)) {
      continue;
    }
    const int64_t step = Step(input[probe.position]);
    for (size_t i = 0; i < log.size(); ++i) {
      const int64_t moved =
          static_cast<int32_t>(difference(probe.log[i]) - difference(log[i]));
      // step is +/-1: the move per unit up is moved * step.
      if (moved != 0) terms[i].push_back({probe.position, moved * step});
    }
  }
  for (std::vector<Term>& t : terms) {
    std::stable_sort(t.begin(), t.end(), [](const Term& x, const Term& y) {
      return std::abs(x.weight) > std::abs(y.weight);
    });
  }
  absl::flat_hash_set<std::string> seen = {
      std::string(input.begin(), input.end())};
  for (size_t i = 0; i < log.size(); ++i) {
    if (terms[i].empty() || ReadAsItStands(input, terms[i], log[i])) continue;
    const int64_t now = static_cast<int32_t>(difference(log[i]));
    for (const int64_t target : {0, 1, -1}) {
      std::optional<std::vector<uint8_t>> solved =
          Solve(input, terms[i], target - now);
      if (!solved.has_value() ||
          !seen.insert(std::string(solved->begin(), solved->end())).second) {
        continue;
      }
      out.push_back(*std::move(solved));
      if (out.size() == max_inputs) return out;
    }
  }
  return out;
}

}  // namespace ringfuzz
