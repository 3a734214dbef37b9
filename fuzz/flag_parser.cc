#include "fuzz/flag_parser.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace ringfuzz {
namespace {

enum class FlagType { kInt, kUint64, kBool, kString };

struct FlagSpec {
  absl::string_view name;
  FlagType type;
  int64_t min;
  int64_t max;
  absl::string_view default_text;
  absl::string_view help;
  int64_t Config::*int_field;
  uint64_t Config::*uint64_field;
  bool Config::*bool_field;
  std::string Config::*string_field;
};

// clang-format off
constexpr FlagSpec kFlags[] = {
#define RF_FLAG_INT(name, default_value, min, max, help)                   \
  {#name, FlagType::kInt, min, max, #default_value, help,                  \
   &Config::name, nullptr, nullptr, nullptr},
#define RF_FLAG_UINT64(name, default_value, help)                          \
  {#name, FlagType::kUint64, 0, 0, #default_value, help,                   \
   nullptr, &Config::name, nullptr, nullptr},
#define RF_FLAG_BOOL(name, default_value, help)                            \
  {#name, FlagType::kBool, 0, 1, #default_value, help,                     \
   nullptr, nullptr, &Config::name, nullptr},
#define RF_FLAG_STRING(name, default_value, help)                          \
  {#name, FlagType::kString, 0, 0, #default_value, help,                   \
   nullptr, nullptr, nullptr, &Config::name},
#include "fuzz/flags.def"
#undef RF_FLAG_INT
#undef RF_FLAG_UINT64
#undef RF_FLAG_BOOL
#undef RF_FLAG_STRING
};
// clang-format on

const FlagSpec* FindFlag(absl::string_view name) {
  for (const FlagSpec& flag : kFlags) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

// Every numeric flag states its whole range, so that a user whose value was
// refused sees what is accepted without reading the help.
std::string ExpectedForm(const FlagSpec& flag) {
  switch (flag.type) {
    case FlagType::kInt:
      return absl::StrCat("an integer in [", flag.min, ", ", flag.max, "]");
    case FlagType::kUint64:
      return absl::StrCat("an integer in [0, ", UINT64_MAX, "]");
    case FlagType::kBool:
      return "0 or 1";
    case FlagType::kString:
      return "a string";
  }
  return "";
}

absl::Status SetFlag(const FlagSpec& flag, absl::string_view value,
                     Config& config) {
  auto bad = [&] {
    std::string example(flag.default_text);
    if (flag.type == FlagType::kBool) example = example == "true" ? "1" : "0";
    return absl::InvalidArgumentError(absl::StrCat(
        "bad value '", value, "' for -", flag.name, ": expected ",
        ExpectedForm(flag), "; fix: pass such a value, e.g. the default -",
        flag.name, "=", example));
  };
  switch (flag.type) {
    case FlagType::kInt: {
      int64_t v;
      if (!absl::SimpleAtoi(value, &v) || v < flag.min || v > flag.max) {
        return bad();
      }
      config.*flag.int_field = v;
      break;
    }
    case FlagType::kUint64: {
      uint64_t v;
      if (value.find('-') != absl::string_view::npos ||
          !absl::SimpleAtoi(value, &v)) {
        return bad();
      }
      config.*flag.uint64_field = v;
      break;
    }
    case FlagType::kBool:
      if (value != "0" && value != "1") return bad();
      config.*flag.bool_field = value == "1";
      break;
    case FlagType::kString:
      config.*flag.string_field = std::string(value);
      break;
  }
  return absl::OkStatus();
}

absl::Status UnknownFlag(absl::string_view name) {
  const FlagSpec* closest = nullptr;
  size_t best = 3;  // suggest only within distance 2
  for (const FlagSpec& flag : kFlags) {
    size_t d = EditDistance(name, flag.name);
    if (d < best) {
      best = d;
      closest = &flag;
    }
  }
  std::string text = absl::StrCat("unknown flag -", name,
                                  "; run 'ringfuzz -help=1' for the list");
  if (closest != nullptr) {
    absl::StrAppend(&text, " (did you mean -", closest->name, "?)");
  }
  return absl::InvalidArgumentError(text);
}

absl::Status ParseFlag(absl::string_view arg, Config& config) {
  absl::string_view body = arg.substr(1);
  size_t eq = body.find('=');
  absl::string_view name = body.substr(0, eq);
  const FlagSpec* flag = FindFlag(name);
  if (flag == nullptr) return UnknownFlag(name);
  if (eq == absl::string_view::npos) {
    if (flag->type == FlagType::kBool) return SetFlag(*flag, "1", config);
    return absl::InvalidArgumentError(
        absl::StrCat("flag -", name, " needs a value: write -", name, "=<",
                     ExpectedForm(*flag), ">"));
  }
  return SetFlag(*flag, body.substr(eq + 1), config);
}

// Appends `text` wrapped at `width` columns, continuation lines indented.
void AppendWrapped(absl::string_view text, size_t indent, size_t width,
                   std::string& out) {
  size_t column = indent;
  bool first = true;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (!first && column + 1 + word.size() > width) {
      absl::StrAppend(&out, "\n", std::string(indent, ' '));
      column = indent;
      first = true;
    }
    if (!first) {
      out += ' ';
      ++column;
    }
    absl::StrAppend(&out, word);
    column += word.size();
    first = false;
  }
  out += '\n';
}

}  // namespace

size_t EditDistance(absl::string_view a, absl::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1,
                         diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

absl::StatusOr<ParsedCommandLine> ParseCommandLine(
    absl::Span<const std::string> args) {
  ParsedCommandLine parsed;
  for (const std::string& arg : args) {
    if (arg.size() >= 2 && arg[0] == '-' && arg[1] == '-') {
      absl::string_view name = absl::string_view(arg).substr(2);
      name = name.substr(0, name.find('='));
      return absl::InvalidArgumentError(absl::StrCat(
          "'", arg, "': flags take one dash, as in libFuzzer: write -", name,
          "=<value>"));
    }
    if (arg.size() >= 2 && arg[0] == '-') {
      if (absl::Status s = ParseFlag(arg, parsed.config); !s.ok()) return s;
      continue;
    }
    parsed.positional.push_back(arg);
  }
  return parsed;
}

std::string FlagHelp() {
  std::string out =
      "Usage:\n"
      "\n"
      "To fuzz, pass zero or more corpus directories (new inputs are saved "
      "in the\nfirst one, which is created if missing):\n"
      "  ringfuzz -target=FILE [-flag=value ...] [dir ...]\n"
      "\n"
      "To run inputs once without fuzzing, pass one or more files:\n"
      "  ringfuzz -target=FILE [-flag=value ...] file ...\n"
      "\n"
      "Flags (always -name=value; a bool flag may be written -name):\n";
  constexpr size_t kNameWidth = 22, kDefaultWidth = 8, kWidth = 80;
  for (const FlagSpec& flag : kFlags) {
    std::string head = absl::StrCat(" -", flag.name);
    head.resize(std::max(head.size() + 1, kNameWidth), ' ');
    std::string def(flag.default_text);
    if (flag.type == FlagType::kBool) def = def == "true" ? "1" : "0";
    def.resize(std::max(def.size() + 1, kDefaultWidth), ' ');
    absl::StrAppend(&out, head, def);
    AppendWrapped(flag.help, head.size() + def.size(), kWidth, out);
  }
  return out;
}

}  // namespace ringfuzz
