#include "fuzz/gpu/escape_to_state.h"

#include <array>
#include <optional>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/gpu/spelled_runs.h"

namespace ringfuzz {
namespace {

// Escape styles: SpelledRun::style's low byte; kUpper marks upper-case hex.
enum Style : uint32_t {
  kPercent = 0,     // %2e
  kBackslashX = 1,  // \x2e
  kBackslashU = 2,  // \u002e
  kXmlHex = 3,      // &#x2e;
  kXmlDecimal = 4,  // &#46;
  kStyles = 5,
};
constexpr uint32_t kUpper = 0x100;

// An escape found in the input: where it ends (one past its last byte),
// its style and whether its hex letters say upper case.
struct Escape {
  size_t end = 0;
  Style style = kPercent;
  bool upper = false;
};

// Whether `n` hex digits start at `i`; sets the case they show.
bool HexDigitsAt(absl::Span<const uint8_t> in, size_t i, size_t n, bool& upper,
                 bool& lower) {
  if (i + n > in.size()) return false;
  for (size_t k = i; k < i + n; ++k) {
    if (!absl::ascii_isxdigit(in[k])) return false;
    upper |= in[k] >= 'A' && in[k] <= 'F';
    lower |= in[k] >= 'a' && in[k] <= 'f';
  }
  return true;
}

// The escape that starts at `i`, if one does.
std::optional<Escape> EscapeAt(absl::Span<const uint8_t> in, size_t i) {
  bool upper = false;
  bool lower = false;
  auto make = [&](size_t end, Style style) {
    return Escape{end, style, upper && !lower};
  };
  if (in[i] == '%') {
    if (HexDigitsAt(in, i + 1, 2, upper, lower)) return make(i + 3, kPercent);
    return std::nullopt;
  }
  if (in[i] == '\\' && i + 1 < in.size()) {
    if (in[i + 1] == 'x' && HexDigitsAt(in, i + 2, 2, upper, lower)) {
      return make(i + 4, kBackslashX);
    }
    if (in[i + 1] == 'u' && HexDigitsAt(in, i + 2, 4, upper, lower)) {
      return make(i + 6, kBackslashU);
    }
    return std::nullopt;
  }
  if (in[i] != '&' || i + 2 >= in.size() || in[i + 1] != '#') {
    return std::nullopt;
  }
  const bool hex = (in[i + 2] | 0x20) == 'x';
  size_t k = hex ? i + 3 : i + 2;
  const size_t first = k;
  while (k < in.size() && k - first < (hex ? 6 : 7) &&
         (hex ? absl::ascii_isxdigit(in[k]) : absl::ascii_isdigit(in[k]))) {
    upper |= in[k] >= 'A' && in[k] <= 'F';
    lower |= in[k] >= 'a' && in[k] <= 'f';
    ++k;
  }
  if (k == first || k >= in.size() || in[k] != ';') return std::nullopt;
  return make(k + 1, hex ? kXmlHex : kXmlDecimal);
}

std::optional<std::string> Spell(const SpelledRun& run, uint32_t value) {
  const bool upper = (run.style & kUpper) != 0;
  auto hex = [upper](uint32_t v, int width) {
    return upper ? absl::StrFormat("%0*X", width, v)
                 : absl::StrFormat("%0*x", width, v);
  };
  switch (static_cast<Style>(run.style & 0xFF)) {
    case kPercent:
      if (value > 0xFF) return std::nullopt;
      return absl::StrCat("%", hex(value, 2));
    case kBackslashX:
      if (value > 0xFF) return std::nullopt;
      return absl::StrCat("\\x", hex(value, 2));
    case kBackslashU:
      if (value > 0xFFFF) return std::nullopt;
      return absl::StrCat("\\u", hex(value, 4));
    case kXmlHex:
      if (value > 0x10FFFF) return std::nullopt;
      return absl::StrCat("&#x", hex(value, 1), ";");
    case kXmlDecimal:
      if (value > 0x10FFFF) return std::nullopt;
      return absl::StrCat("&#", value, ";");
    default:
      return std::nullopt;
  }
}

}  // namespace

std::vector<std::vector<uint8_t>> DeriveEscapeToState(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    size_t max_len, size_t max_inputs) {
  // The styles the input holds (each with its first escape's case), and
  // the bytes that are part of an escape.
  std::array<std::optional<bool>, kStyles> upper_of{};
  std::vector<bool> escaped(input.size(), false);
  for (size_t i = 0; i < input.size();) {
    const std::optional<Escape> e = EscapeAt(input, i);
    if (!e) {
      ++i;
      continue;
    }
    if (!upper_of[e->style]) upper_of[e->style] = e->upper;
    for (size_t k = i; k < e->end; ++k) escaped[k] = true;
    i = e->end;
  }
  std::vector<SpelledRun> runs;
  for (size_t p = 0; p < input.size(); ++p) {
    if (escaped[p]) continue;
    for (uint32_t s = 0; s < kStyles; ++s) {
      if (!upper_of[s]) continue;
      SpelledRun run;
      run.begin = p;
      run.end = p + 1;
      run.value = input[p];
      run.style = s | (*upper_of[s] ? kUpper : 0);
      runs.push_back(run);
    }
  }
  if (runs.empty()) return {};
  const std::vector<CompareRecord> latest_first(log.rbegin(), log.rend());
  return RewriteSpelledRuns(input, latest_first, runs, Spell, max_len,
                            max_inputs);
}

}  // namespace ringfuzz
