#include "fuzz/gpu/linear_to_state.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

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

// The difference a - b of a comparison's operands, wrapped as the target's
// 32-bit arithmetic wraps it.
int64_t Difference(const CompareRecord& r) {
  return static_cast<int32_t>(r.a - r.b);
}

// `solved` (input with the bytes that solve comparison `solved_index`
// changed) with further bytes changed so that every comparison before it
// on the path whose operands were equal in `input`, and whose difference
// the changes move, is equal again: the checksum that covers a written
// type byte, the length field that covers a grown count. Each such
// comparison is solved in bytes not changed yet (so later ones keep what
// earlier ones set); between operands that are both bytes, the difference
// only needs to move by a multiple of 256 (an 8-bit sum wraps). Empty
// where one cannot be kept; `solved` itself where none moved.
std::optional<std::vector<uint8_t>> KeepHeldEqualities(
    absl::Span<const uint8_t> input, const std::vector<uint8_t>& solved,
    absl::Span<const CompareRecord> log,
    absl::Span<const std::vector<Term>> terms, size_t solved_index) {
  std::vector<uint8_t> out = solved;
  std::vector<bool> fixed(input.size());
  for (size_t p = 0; p < input.size(); ++p) fixed[p] = out[p] != input[p];
  for (size_t j = 0; j < solved_index; ++j) {
    if (Difference(log[j]) != 0 || terms[j].empty()) continue;
    int64_t moved = 0;
    std::vector<Term> free;
    for (const Term& t : terms[j]) {
      moved += t.weight * (int64_t{out[t.position]} - input[t.position]);
      if (!fixed[t.position]) free.push_back(t);
    }
    const bool bytes = log[j].a <= 0xFF && log[j].b <= 0xFF;
    if (bytes) moved = ((moved % 256) + 256) % 256;  // 0..255
    if (moved == 0) continue;
    // Between bytes, back by `moved` or on by 256 - `moved`, the shorter
    // way first.
    int64_t want = -moved;
    int64_t other = bytes ? 256 - moved : 0;
    if (bytes && other < moved) std::swap(want, other);
    std::optional<std::vector<uint8_t>> kept = Solve(out, free, want);
    if (!kept.has_value() && bytes) kept = Solve(out, free, other);
    if (!kept.has_value()) return std::nullopt;
    for (size_t p = 0; p < input.size(); ++p) {
      fixed[p] = fixed[p] || (*kept)[p] != out[p];
    }
    out = *std::move(kept);
  }
  return out;
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
  // Each comparison's terms from the probes that took the input's whole
  // path (`path_terms`: the comparisons solved), and from those that took
  // it up to that comparison at least (`terms`: the equalities kept). A
  // probe that broke a checksum left the path there, but still tells the
  // checksum's weights; solving with such weights alone would try every
  // loop bound the probes moved, at a cost in executions and no gain.
  std::vector<std::vector<Term>> terms(log.size());
  std::vector<std::vector<Term>> path_terms(log.size());
  for (const ProbeRun& probe : probes) {
    if (probe.position >= input.size()) continue;
    const size_t shared = SharedPathPrefix(log, made, probe.log, probe.made);
    const bool whole = SamePath(log, made, probe.log, probe.made);
    const int64_t step = Step(input[probe.position]);
    for (size_t i = 0; i < shared; ++i) {
      const int64_t moved = static_cast<int32_t>(
          (probe.log[i].a - probe.log[i].b) - (log[i].a - log[i].b));
      if (moved == 0) continue;
      // step is +/-1: the move per unit up is moved * step.
      terms[i].push_back({probe.position, moved * step});
      if (whole) path_terms[i].push_back({probe.position, moved * step});
    }
  }
  // A byte that feeds fewer comparisons is changed first among bytes of
  // equal weight: a stored checksum byte or a payload byte rather than the
  // type or length byte that other comparisons check too.
  std::vector<uint32_t> uses(input.size(), 0);
  for (const std::vector<Term>& t : terms) {
    for (const Term& term : t) ++uses[term.position];
  }
  for (auto* all : {&terms, &path_terms}) {
    for (std::vector<Term>& t : *all) {
      std::stable_sort(t.begin(), t.end(), [&](const Term& x, const Term& y) {
        const int64_t wx = std::abs(x.weight), wy = std::abs(y.weight);
        return wx != wy ? wx > wy : uses[x.position] < uses[y.position];
      });
    }
  }
  absl::flat_hash_set<std::string> seen = {
      std::string(input.begin(), input.end())};
  // Adds `trial` unless tried already; true once `out` is full.
  auto add = [&](std::vector<uint8_t> trial) {
    if (seen.insert(std::string(trial.begin(), trial.end())).second) {
      out.push_back(std::move(trial));
    }
    return out.size() == max_inputs;
  };
  // Bytes that an earlier equality reads: held[p] is the first comparison
  // whose operands were equal and whose difference byte p moves.
  std::vector<size_t> held(input.size(), log.size());
  for (size_t j = log.size(); j-- > 0;) {
    if (Difference(log[j]) != 0) continue;
    for (const Term& t : terms[j]) held[t.position] = j;
  }
  // Tries `solved` (solving comparison i) with the equalities before i
  // kept, and `solved` itself unless `only_kept`; true once `out` is full.
  auto try_solved = [&](const std::vector<uint8_t>& solved, size_t i,
                        bool only_kept) {
    std::optional<std::vector<uint8_t>> kept =
        KeepHeldEqualities(input, solved, log, terms, i);
    if (!only_kept && add(solved)) return true;
    return kept.has_value() && *kept != solved && add(*std::move(kept));
  };
  // Comparisons that came out unequal first, the last one first: the run
  // ended at or after it, so it gates what the input does not reach yet
  // (earlier ones are often loop bounds, passed on the way). Then the
  // equal ones, whose trials move them to either side.
  std::vector<size_t> order;
  for (size_t i = log.size(); i-- > 0;) {
    if (Difference(log[i]) != 0) order.push_back(i);
  }
  for (size_t i = 0; i < log.size(); ++i) {
    if (Difference(log[i]) == 0) order.push_back(i);
  }
  for (const size_t i : order) {
    const int64_t now = Difference(log[i]);
    if (!path_terms[i].empty()) {
      // Operands as they stand are input-to-state's, unless writing them
      // breaks an equality that held (a checksum over the written byte).
      const bool as_it_stands = ReadAsItStands(input, path_terms[i], log[i]);
      for (const int64_t target : {0, 1, -1}) {
        std::optional<std::vector<uint8_t>> solved =
            Solve(input, path_terms[i], target - now);
        if (solved.has_value() && try_solved(*solved, i, as_it_stands)) {
          return out;
        }
      }
    }
    // A byte operand standing in the input where an earlier equality reads
    // it: its probe broke that equality and so never reached comparison i
    // (a record's type, checked after the checksum that covers it). Write
    // the other operand there as input-to-state would, and keep the
    // equality.
    if (now == 0 || log[i].a > 0xFF || log[i].b > 0xFF) continue;
    for (const auto& [x, y] :
         {std::pair{log[i].a, log[i].b}, std::pair{log[i].b, log[i].a}}) {
      for (size_t p = 0; p < input.size(); ++p) {
        if (input[p] != x || held[p] >= i) continue;
        std::vector<uint8_t> written(input.begin(), input.end());
        written[p] = static_cast<uint8_t>(y);
        if (try_solved(written, i, /*only_kept=*/true)) return out;
      }
    }
  }
  return out;
}

}  // namespace ringfuzz
