#include "fuzz/engine/find_line.h"

#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "telemetry/json_writer.h"

namespace ringfuzz {

std::string FindLine(const FindLineFields& f) {
  telemetry::JsonWriter json;
  json.BeginObject()
      .Key("find")
      .BeginObject()
      .Field("epoch", f.epoch)
      .Field("slot", f.slot)
      .Field("parent", f.parent)
      .Field("base_unit", f.base_unit)
      .Field("mutations", f.mutations)
      .Field("bug", f.bug)
      .Field("artifact", f.artifact)
      .Field("sha1", f.sha1)
      .Field("time", f.time)
      .EndObject()
      .EndObject();
  return json.text();
}

namespace {

// A cursor over the members of one flat JSON object whose values are
// strings or unsigned integers: what FindLine writes.
class FlatObjectReader {
 public:
  explicit FlatObjectReader(absl::string_view text) : text_(text) {}

  bool Consume(char c) {
    SkipSpace();
    if (text_.empty() || text_.front() != c) return false;
    text_.remove_prefix(1);
    return true;
  }

  // Reads a JSON string (escapes \" \\ \/ \n \t \r \b \f \u00XX).
  std::optional<std::string> String() {
    if (!Consume('"')) return std::nullopt;
    std::string out;
    while (!text_.empty()) {
      char c = text_.front();
      text_.remove_prefix(1);
      if (c == '"') return out;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (text_.empty()) return std::nullopt;
      char e = text_.front();
      text_.remove_prefix(1);
      switch (e) {
        case 'n':
          out.push_back('\n');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'u': {
          uint32_t code = 0;
          if (text_.size() < 4 ||
              !absl::SimpleHexAtoi(text_.substr(0, 4), &code) || code > 0x7f) {
            return std::nullopt;  // FindLine escapes control characters only
          }
          out.push_back(static_cast<char>(code));
          text_.remove_prefix(4);
          break;
        }
        default:
          out.push_back(e);
          break;
      }
    }
    return std::nullopt;
  }

  std::optional<uint64_t> Number() {
    SkipSpace();
    size_t n = 0;
    while (n < text_.size() && absl::ascii_isdigit(text_[n])) ++n;
    uint64_t value = 0;
    if (n == 0 || !absl::SimpleAtoi(text_.substr(0, n), &value)) {
      return std::nullopt;
    }
    text_.remove_prefix(n);
    return value;
  }

  bool AtString() {
    SkipSpace();
    return !text_.empty() && text_.front() == '"';
  }

  absl::string_view rest() const { return text_; }

 private:
  void SkipSpace() {
    while (!text_.empty() && absl::ascii_isspace(text_.front())) {
      text_.remove_prefix(1);
    }
  }
  absl::string_view text_;
};

template <typename T>
bool Narrow(uint64_t value, T& out) {
  if (value > std::numeric_limits<T>::max()) return false;
  out = static_cast<T>(value);
  return true;
}

}  // namespace

std::optional<FindLineFields> ParseFindLine(absl::string_view line) {
  FlatObjectReader in(line);
  if (!in.Consume('{')) return std::nullopt;
  std::optional<std::string> outer = in.String();
  if (!outer || *outer != "find" || !in.Consume(':') || !in.Consume('{')) {
    return std::nullopt;
  }
  FindLineFields f;
  if (in.Consume('}')) return in.Consume('}') ? std::optional(f) : std::nullopt;
  do {
    std::optional<std::string> key = in.String();
    if (!key || !in.Consume(':')) return std::nullopt;
    if (in.AtString()) {
      std::optional<std::string> value = in.String();
      if (!value) return std::nullopt;
      if (*key == "base_unit") f.base_unit = *value;
      if (*key == "mutations") f.mutations = *value;
      if (*key == "bug") f.bug = *value;
      if (*key == "artifact") f.artifact = *value;
      if (*key == "sha1") f.sha1 = *value;
      continue;
    }
    std::optional<uint64_t> value = in.Number();
    if (!value) return std::nullopt;
    bool fits = true;
    if (*key == "epoch") f.epoch = *value;
    if (*key == "slot") fits = Narrow(*value, f.slot);
    if (*key == "parent") fits = Narrow(*value, f.parent);
    if (*key == "time") f.time = *value;
    if (!fits) return std::nullopt;
  } while (in.Consume(','));
  if (!in.Consume('}') || !in.Consume('}')) return std::nullopt;
  return f;
}

}  // namespace ringfuzz
