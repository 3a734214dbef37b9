// A minimal streaming JSON writer (the project has no JSON library): just
// enough for telemetry exports. Compact output, no whitespace.
#ifndef RINGFUZZ_TELEMETRY_JSON_WRITER_H_
#define RINGFUZZ_TELEMETRY_JSON_WRITER_H_

#include <cstdint>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"

namespace ringfuzz::telemetry {

// Appends "…" with `text` escaped: quote, backslash and control characters
// are escaped (\n, \t, ... or \u00XX); other bytes are copied, so `text`
// should be UTF-8.
void AppendJsonString(absl::string_view text, std::string& out);

// The caller nests Begin/End calls correctly and gives every object member a
// Key before its value; the writer inserts the commas and colons.
class JsonWriter {
 public:
  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(absl::string_view key);
  JsonWriter& String(absl::string_view value);
  JsonWriter& Uint(uint64_t value);
  JsonWriter& Bool(bool value);

  // Key(key) then the value.
  JsonWriter& Field(absl::string_view key, absl::string_view value) {
    return Key(key).String(value);
  }
  JsonWriter& Field(absl::string_view key, const char* value) {
    return Key(key).String(value);
  }
  JsonWriter& Field(absl::string_view key, uint64_t value) {
    return Key(key).Uint(value);
  }
  JsonWriter& Field(absl::string_view key, uint32_t value) {
    return Key(key).Uint(value);
  }
  JsonWriter& Field(absl::string_view key, bool value) {
    return Key(key).Bool(value);
  }

  const std::string& text() const { return out_; }

 private:
  // Writes the comma that separates this value from the previous one.
  void BeforeValue();
  void Open(char bracket);
  void Close(char bracket);

  std::string out_;
  // Per open container: has it a member yet?
  absl::InlinedVector<bool, 8> has_member_;
  bool after_key_ = false;
};

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_JSON_WRITER_H_
