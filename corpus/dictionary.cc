#include "corpus/dictionary.h"

#include <optional>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "corpus/file_read.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

bool IsNameChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         c == '-' || c == '.';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Parses the quoted value starting at line[pos] == '"'; on success `pos`
// is just past the closing quote. Returns the problem on failure.
std::optional<std::string> ParseQuoted(absl::string_view line, size_t& pos,
                                       Bytes& token) {
  ++pos;  // opening quote
  while (pos < line.size()) {
    char c = line[pos];
    if (c == '"') {
      ++pos;
      return std::nullopt;
    }
    if (c != '\\') {
      token.push_back(static_cast<uint8_t>(c));
      ++pos;
      continue;
    }
    if (pos + 1 >= line.size()) break;  // a lone backslash ends the line
    char e = line[pos + 1];
    if (e == '\\' || e == '"') {
      token.push_back(static_cast<uint8_t>(e));
      pos += 2;
    } else if (e == 'x' && pos + 3 < line.size() &&
               HexValue(line[pos + 2]) >= 0 && HexValue(line[pos + 3]) >= 0) {
      token.push_back(static_cast<uint8_t>(HexValue(line[pos + 2]) * 16 +
                                           HexValue(line[pos + 3])));
      pos += 4;
    } else {
      return absl::StrCat("bad escape '\\", std::string(1, e),
                          "'; use \\\\, \\\" or \\xNN (two hex digits)");
    }
  }
  return std::string("missing closing quote");
}

// Parses one non-blank, non-comment line (leading blanks removed).
std::optional<std::string> ParseLine(absl::string_view line, Bytes& token) {
  size_t pos = 0;
  if (line[0] != '"') {
    while (pos < line.size() && IsNameChar(line[pos])) ++pos;
    if (pos == 0) {
      return std::string(
          "expected a quoted token like \"abc\" or name=\"abc\"");
    }
    if (pos < line.size() && line[pos] == '@') {  // AFL level, ignored
      size_t digits = ++pos;
      while (pos < line.size() && absl::ascii_isdigit(line[pos])) ++pos;
      if (pos == digits) return std::string("expected digits after '@'");
    }
    while (pos < line.size() && absl::ascii_isblank(line[pos])) ++pos;
    if (pos >= line.size() || line[pos] != '=') {
      return std::string(
          "expected '=' after the token name, as in name=\"abc\"");
    }
    ++pos;
    while (pos < line.size() && absl::ascii_isblank(line[pos])) ++pos;
    if (pos >= line.size() || line[pos] != '"') {
      return std::string("expected a quoted token after '='");
    }
  }
  if (auto problem = ParseQuoted(line, pos, token)) return problem;
  while (pos < line.size() && absl::ascii_isspace(line[pos])) ++pos;
  if (pos != line.size()) {
    return std::string("unexpected text after the closing quote");
  }
  if (token.empty()) return std::string("empty token");
  if (token.size() > RF_DICT_MAX_BYTES) {
    return absl::StrCat("token is ", token.size(), " bytes; the limit is ",
                        RF_DICT_MAX_BYTES, " (RF_DICT_MAX_BYTES)");
  }
  return std::nullopt;
}

}  // namespace

absl::StatusOr<std::vector<Bytes>> ParseDictionary(std::string_view text) {
  std::vector<Bytes> tokens;
  absl::flat_hash_set<std::string> seen;
  int line_number = 0;
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    while (!line.empty() && absl::ascii_isspace(line.front())) {
      line.remove_prefix(1);
    }
    if (line.empty() || line[0] == '#') continue;
    Bytes token;
    if (auto problem = ParseLine(line, token)) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", line_number, ": ", *problem));
    }
    if (seen.insert(std::string(token.begin(), token.end())).second) {
      tokens.push_back(std::move(token));
    }
  }
  return tokens;
}

absl::StatusOr<std::vector<Bytes>> LoadDictionaryFile(const std::string& path) {
  const std::string fix =
      absl::StrCat("a -dict file holds tokens of at most ", RF_DICT_MAX_BYTES,
                   " bytes, one a line: pass a smaller one");
  absl::StatusOr<Bytes> data =
      ReadFileAtMost(path, FileCap{kMaxDictionaryFileBytes, "dictionary", fix});
  if (!data.ok()) return data.status();
  absl::StatusOr<std::vector<Bytes>> tokens = ParseDictionary(std::string_view(
      reinterpret_cast<const char*>(data->data()), data->size()));
  if (!tokens.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", tokens.status().message()));
  }
  return tokens;
}

}  // namespace ringfuzz
