#include "fuzz/gpu/text_to_state.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"

namespace ringfuzz {
namespace {

// The most digits a run may have: 4294967295 has 10.
constexpr size_t kMaxDigits = 10;

// A run of digits, [begin, end) including its '-', and the value it spells.
struct DigitRun {
  size_t begin = 0;
  size_t end = 0;
  bool negative = false;
  size_t digits = 0;
  uint32_t value = 0;
};

bool IsDigit(uint8_t c) { return c >= '0' && c <= '9'; }

std::vector<DigitRun> FindRuns(absl::Span<const uint8_t> input) {
  std::vector<DigitRun> runs;
  size_t i = 0;
  while (i < input.size()) {
    if (!IsDigit(input[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    uint64_t magnitude = 0;
    while (end < input.size() && IsDigit(input[end])) {
      if (end - i < kMaxDigits) magnitude = magnitude * 10 + (input[end] - '0');
      ++end;
    }
    DigitRun run;
    run.negative = i > 0 && input[i - 1] == '-';
    run.begin = run.negative ? i - 1 : i;
    run.end = end;
    run.digits = end - i;
    const uint64_t limit = run.negative ? uint64_t{1} << 31 : UINT32_MAX;
    if (run.digits <= kMaxDigits && magnitude <= limit) {
      run.value = run.negative ? static_cast<uint32_t>(0 - magnitude)
                               : static_cast<uint32_t>(magnitude);
      runs.push_back(run);
    }
    i = end;
  }
  return runs;
}

std::string Spell(uint32_t value, bool negative_run) {
  const int32_t as_signed = static_cast<int32_t>(value);
  if (as_signed < 0 && (negative_run || as_signed >= -65536)) {
    return absl::StrCat("-", -static_cast<int64_t>(as_signed));
  }
  return absl::StrCat(value);
}

}  // namespace

std::vector<std::vector<uint8_t>> DeriveTextToState(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    size_t max_len, size_t max_inputs) {
  std::vector<std::vector<uint8_t>> out;
  const std::vector<DigitRun> runs = FindRuns(input);
  if (runs.empty()) return out;
  auto add = [&](const DigitRun& run, uint32_t value) {
    const std::string digits = Spell(value, run.negative);
    std::vector<uint8_t> trial(input.begin(), input.begin() + run.begin);
    trial.insert(trial.end(), digits.begin(), digits.end());
    trial.insert(trial.end(), input.begin() + run.end, input.end());
    if (trial.size() > max_len ||
        std::equal(trial.begin(), trial.end(), input.begin(), input.end()) ||
        std::find(out.begin(), out.end(), trial) != out.end()) {
      return;
    }
    out.push_back(std::move(trial));
  };
  // Runs of several digits first: a one-digit run is as often a loop index
  // or a version digit that some comparison happens to equal.
  for (const bool long_runs : {true, false}) {
    for (const CompareRecord& record : log) {
      for (const auto& [mine, other] :
           {std::pair{record.a, record.b}, std::pair{record.b, record.a}}) {
        if (mine == other) continue;
        for (const DigitRun& run : runs) {
          if (run.value != mine || (run.digits > 1) != long_runs) continue;
          for (uint32_t value : {other, other - 1, other + 1}) {
            if (out.size() >= max_inputs) return out;
            add(run, value);
          }
        }
      }
    }
  }
  return out;
}

}  // namespace ringfuzz
