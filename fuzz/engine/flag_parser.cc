#include "fuzz/engine/flag_parser.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "absl/container/flat_hash_set.h"
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
#include "fuzz/engine/flags.def"
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

// What ringfuzz does with one of libFuzzer's flags
// (fuzz/engine/libfuzzer_flags.def).
enum class LibFuzzerUse { kClamp, kStrict, kIgnored };

struct LibFuzzerFlag {
  absl::string_view name;
  LibFuzzerUse use;
  absl::string_view why;  // kIgnored only
};

constexpr LibFuzzerFlag kLibFuzzerFlags[] = {
#define RF_LIBFUZZER_FLAG(name) {#name, LibFuzzerUse::kClamp, ""},
#define RF_LIBFUZZER_FLAG_STRICT(name) {#name, LibFuzzerUse::kStrict, ""},
#define RF_LIBFUZZER_IGNORED(name, why) {#name, LibFuzzerUse::kIgnored, why},
#include "fuzz/engine/libfuzzer_flags.def"
#undef RF_LIBFUZZER_FLAG
#undef RF_LIBFUZZER_FLAG_STRICT
#undef RF_LIBFUZZER_IGNORED
};

const LibFuzzerFlag* FindLibFuzzerFlag(absl::string_view name) {
  for (const LibFuzzerFlag& flag : kLibFuzzerFlags) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

// True iff `name` is a flag ringfuzz accepts, implemented or ignored.
bool Accepted(absl::string_view name) {
  return FindFlag(name) != nullptr || FindLibFuzzerFlag(name) != nullptr;
}

// State of one parse: the result and the warnings already given.
struct Parse {
  ParsedCommandLine parsed;
  absl::flat_hash_set<std::string> warned_ignored;
  bool warned_double_dash = false;

  void Warn(std::string line) { parsed.warnings.push_back(std::move(line)); }
};

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

// Sets `flag` from `value`. With `clamp` (a flag libFuzzer shares), a
// well-formed integer outside the range is clamped to it with a warning and
// a bool takes any integer (nonzero = 1), as libFuzzer's int flags do.
absl::Status SetFlag(const FlagSpec& flag, absl::string_view value, bool clamp,
                     Parse& parse) {
  Config& config = parse.parsed.config;
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
      if (!absl::SimpleAtoi(value, &v)) return bad();
      if (v < flag.min || v > flag.max) {
        if (!clamp) return bad();
        const int64_t clamped = std::clamp(v, flag.min, flag.max);
        parse.Warn(absl::StrCat("WARNING: -", flag.name, "=", value,
                                " is outside ringfuzz's range [", flag.min,
                                ", ", flag.max, "]; using ", clamped));
        v = clamped;
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
    case FlagType::kBool: {
      int64_t v;
      if (clamp && absl::SimpleAtoi(value, &v)) {
        config.*flag.bool_field = v != 0;
        break;
      }
      if (value != "0" && value != "1") return bad();
      config.*flag.bool_field = value == "1";
      break;
    }
    case FlagType::kString:
      config.*flag.string_field = std::string(value);
      break;
  }
  return absl::OkStatus();
}

// libFuzzer's warning for a flag it does not know, with a suggestion.
std::string UnknownFlag(absl::string_view arg, absl::string_view name) {
  absl::string_view closest;
  size_t best = 3;  // suggest only within distance 2
  auto consider = [&](absl::string_view candidate) {
    size_t d = EditDistance(name, candidate);
    if (d < best) {
      best = d;
      closest = candidate;
    }
  };
  for (const FlagSpec& flag : kFlags) consider(flag.name);
  for (const LibFuzzerFlag& flag : kLibFuzzerFlags) consider(flag.name);
  std::string text = absl::StrCat("WARNING: unrecognized flag '", arg,
                                  "'; use -help=1 to list all flags");
  if (!closest.empty())
    absl::StrAppend(&text, " (did you mean -", closest, "?)");
  return text;
}

// An argument that starts with "--": ignored, as libFuzzer does.
void DoubleDash(absl::string_view arg, Parse& parse) {
  if (!parse.warned_double_dash) {
    parse.warned_double_dash = true;
    parse.Warn("INFO: ringfuzz ignores flags that start with '--'");
  }
  absl::string_view single = arg.substr(1);
  absl::string_view name = single.substr(1, single.find('=') - 1);
  if (single.size() > 1 && Accepted(name)) {
    parse.Warn(
        absl::StrCat("WARNING: did you mean '", single, "' (single dash)?"));
  }
}

absl::Status ParseFlag(absl::string_view arg, Parse& parse) {
  absl::string_view body = arg.substr(1);
  size_t eq = body.find('=');
  absl::string_view name = body.substr(0, eq);
  const FlagSpec* flag = FindFlag(name);
  const LibFuzzerFlag* libfuzzer = FindLibFuzzerFlag(name);
  if (flag == nullptr) {
    if (libfuzzer == nullptr) {
      parse.Warn(UnknownFlag(arg, name));
    } else if (parse.warned_ignored.insert(std::string(name)).second) {
      parse.Warn(absl::StrCat("WARNING: ringfuzz ignores -", name, ": ",
                              libfuzzer->why));
    }
    return absl::OkStatus();
  }
  if (eq == absl::string_view::npos) {
    if (flag->type == FlagType::kBool) {
      return SetFlag(*flag, "1", /*clamp=*/false, parse);
    }
    parse.Warn(absl::StrCat("WARNING: flag -", name, " needs a value (write -",
                            name, "=<", ExpectedForm(*flag), ">); ignored"));
    return absl::OkStatus();
  }
  const bool clamp =
      libfuzzer != nullptr && libfuzzer->use == LibFuzzerUse::kClamp;
  if (name == "target") {
    parse.parsed.targets.emplace_back(body.substr(eq + 1));
  }
  return SetFlag(*flag, body.substr(eq + 1), clamp, parse);
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
  Parse parse;
  for (const std::string& arg : args) {
    if (arg.size() >= 2 && arg[0] == '-') {
      if (arg[1] == '-') {
        DoubleDash(arg, parse);
      } else if (absl::Status s = ParseFlag(arg, parse); !s.ok()) {
        return s;
      }
      // libFuzzer checks this after every flag: nothing after it counts.
      if (parse.parsed.config.ignore_remaining_args) break;
      continue;
    }
    parse.parsed.positional.push_back(arg);
  }
  return std::move(parse.parsed);
}

namespace {
// A flag's value as the command line writes it.
std::string FlagValueText(bool value) { return value ? "1" : "0"; }
std::string FlagValueText(int64_t value) { return absl::StrCat(value); }
std::string FlagValueText(uint64_t value) { return absl::StrCat(value); }
std::string FlagValueText(const std::string& value) { return value; }
}  // namespace

std::vector<std::string> NonDefaultFlags(const Config& config) {
  static const Config kDefaults;
  std::vector<std::string> flags;
#define RF_FLAG_INT(name, default_value, min, max, help)                      \
  if (config.name != kDefaults.name) {                                        \
    flags.push_back(absl::StrCat("-" #name "=", FlagValueText(config.name))); \
  }
#define RF_FLAG_UINT64(name, default_value, help) \
  RF_FLAG_INT(name, default_value, 0, 0, help)
#define RF_FLAG_BOOL(name, default_value, help) \
  RF_FLAG_INT(name, default_value, 0, 0, help)
#define RF_FLAG_STRING(name, default_value, help) \
  RF_FLAG_INT(name, default_value, 0, 0, help)
#include "fuzz/engine/flags.def"
#undef RF_FLAG_INT
#undef RF_FLAG_UINT64
#undef RF_FLAG_BOOL
#undef RF_FLAG_STRING
  return flags;
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
  std::string ignored;
  for (const LibFuzzerFlag& flag : kLibFuzzerFlags) {
    if (flag.use == LibFuzzerUse::kIgnored) {
      absl::StrAppend(&ignored, " -", flag.name);
    }
  }
  out +=
      "\nlibFuzzer's other flags are accepted and ignored, each with a "
      "WARNING line\nthat says why (docs/cli.md lists them):\n";
  AppendWrapped(ignored, 0, kWidth, out);
  return out;
}

}  // namespace ringfuzz
