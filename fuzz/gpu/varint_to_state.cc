#include "fuzz/gpu/varint_to_state.h"

#include <optional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "fuzz/gpu/spelled_runs.h"

namespace ringfuzz {
namespace {

// The most bytes of a 32-bit varint.
constexpr size_t kMaxVarintBytes = 5;

// A single byte below 0x80 grows only into a varint of 2 or 3 bytes: a
// value below 0x80 is written in place by input-to-state, and one of
// 2^21 or more is a 32-bit magic far more often than a varint field.
// Such a byte is not rewritten with other values.
constexpr uint32_t kShortRunLimit = 1u << 21;

std::optional<std::string> Spell(const SpelledRun& run, uint32_t value) {
  if (run.short_run && (value < 0x80 || value >= kShortRunLimit)) {
    return std::nullopt;
  }
  const std::vector<uint8_t> bytes = EncodeVarint(value);
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace

std::vector<uint8_t> EncodeVarint(uint32_t value) {
  std::vector<uint8_t> bytes;
  while (value >= 0x80) {
    bytes.push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  bytes.push_back(static_cast<uint8_t>(value));
  return bytes;
}

std::vector<std::vector<uint8_t>> DeriveVarintToState(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    size_t max_len, size_t max_inputs) {
  // Every byte starts a run: only those that spell a compared value are
  // kept (a 128 KiB input has 128 Ki runs, a log at most a few hundred
  // operands).
  absl::flat_hash_set<uint32_t> operands;
  for (const CompareRecord& record : log) {
    if (record.a == record.b) continue;
    operands.insert(record.a);
    operands.insert(record.b);
  }
  std::vector<SpelledRun> runs;
  if (operands.empty()) return {};
  for (size_t begin = 0; begin < input.size(); ++begin) {
    SpelledRun run;
    run.begin = begin;
    if (input[begin] < 0x80) {
      run.end = begin + 1;
      run.value = input[begin];
      run.short_run = true;
      if (operands.contains(run.value)) runs.push_back(run);
      continue;
    }
    uint32_t value = 0;
    for (size_t k = 0; k < kMaxVarintBytes && begin + k < input.size(); ++k) {
      const uint32_t shift = 7 * static_cast<uint32_t>(k);
      value |= (input[begin + k] & 0x7Fu) << shift;
      if (input[begin + k] < 0x80) {
        run.end = begin + k + 1;
        run.value = value;
        if (operands.contains(run.value)) runs.push_back(run);
        break;
      }
    }
  }
  return RewriteSpelledRuns(input, log, runs, Spell, max_len, max_inputs);
}

}  // namespace ringfuzz
