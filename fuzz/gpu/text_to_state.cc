#include "fuzz/gpu/text_to_state.h"

#include <optional>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace ringfuzz {
namespace {

// The most digits a decimal run may have: 4294967295 has 10; a hex run: 8.
constexpr size_t kMaxDigits = 10;
constexpr size_t kMaxHexDigits = 8;

// SpelledRun::style: the run is hex; (decimal) it has a '-'; (hex) its
// letters are upper case; (hex) the width to zero-pad to, from bit 8.
constexpr uint32_t kHex = 1;
constexpr uint32_t kNegative = 2;
constexpr uint32_t kUpper = 4;
constexpr uint32_t kWidthShift = 8;

// The value of hex digit `c`, or -1.
int HexValue(uint8_t c) {
  if (absl::ascii_isdigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void FindDecimalRuns(absl::Span<const uint8_t> input,
                     std::vector<SpelledRun>& runs) {
  size_t i = 0;
  while (i < input.size()) {
    if (!absl::ascii_isdigit(input[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    uint64_t magnitude = 0;
    while (end < input.size() && absl::ascii_isdigit(input[end])) {
      if (end - i < kMaxDigits) magnitude = magnitude * 10 + (input[end] - '0');
      ++end;
    }
    const bool negative = i > 0 && input[i - 1] == '-';
    const size_t digits = end - i;
    const uint64_t limit = negative ? uint64_t{1} << 31 : UINT32_MAX;
    if (digits <= kMaxDigits && magnitude <= limit) {
      SpelledRun run;
      run.begin = negative ? i - 1 : i;
      run.end = end;
      run.value = negative ? static_cast<uint32_t>(0 - magnitude)
                           : static_cast<uint32_t>(magnitude);
      run.short_run = digits == 1;
      run.style = negative ? kNegative : 0;
      runs.push_back(run);
    }
    i = end;
  }
}

// Whether the run at `i` follows a mark of hex: "0x" or "\x" (C), '%'
// (URLs), '#' (colours, character references).
bool HasHexPrefix(absl::Span<const uint8_t> input, size_t i) {
  if (i >= 1 && (input[i - 1] == '%' || input[i - 1] == '#')) return true;
  return i >= 2 && (input[i - 1] | 0x20) == 'x' &&
         (input[i - 2] == '0' || input[i - 2] == '\\');
}

void FindHexRuns(absl::Span<const uint8_t> input,
                 std::vector<SpelledRun>& runs) {
  size_t i = 0;
  while (i < input.size()) {
    if (HexValue(input[i]) < 0) {
      ++i;
      continue;
    }
    size_t end = i;
    uint64_t value = 0;
    bool upper = false;
    bool lower = false;
    while (end < input.size() && HexValue(input[end]) >= 0) {
      if (end - i < kMaxHexDigits) {
        value = value << 4 | static_cast<uint64_t>(HexValue(input[end]));
      }
      upper |= input[end] >= 'A' && input[end] <= 'F';
      lower |= input[end] >= 'a' && input[end] <= 'f';
      ++end;
    }
    const bool prefixed = HasHexPrefix(input, i);
    const size_t digits = end - i;
    // A lone hex letter is as often an 'a' or an 'A' of text.
    if (digits <= kMaxHexDigits &&
        (prefixed || ((upper || lower) && digits >= 2))) {
      SpelledRun run;
      run.begin = i;
      run.end = end;
      run.value = static_cast<uint32_t>(value);
      run.short_run = digits == 1;
      const bool padded = digits >= 2 && input[i] == '0';
      run.style = kHex | (upper && !lower ? kUpper : 0) |
                  static_cast<uint32_t>(padded ? digits : 0) << kWidthShift;
      runs.push_back(run);
    }
    i = end;
  }
}

std::optional<std::string> Spell(const SpelledRun& run, uint32_t value) {
  if ((run.style & kHex) != 0) {
    std::string digits = (run.style & kUpper) != 0
                             ? absl::StrFormat("%X", value)
                             : absl::StrFormat("%x", value);
    const size_t width = run.style >> kWidthShift;
    if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
    return digits;
  }
  const int32_t as_signed = static_cast<int32_t>(value);
  if (as_signed < 0 && ((run.style & kNegative) != 0 || as_signed >= -65536)) {
    return absl::StrCat("-", -static_cast<int64_t>(as_signed));
  }
  return absl::StrCat(value);
}

}  // namespace

std::vector<std::vector<uint8_t>> DeriveTextToState(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    size_t max_len, size_t max_inputs) {
  std::vector<SpelledRun> runs;
  FindDecimalRuns(input, runs);
  FindHexRuns(input, runs);
  return RewriteSpelledRuns(input, log, runs, Spell, max_len, max_inputs);
}

}  // namespace ringfuzz
