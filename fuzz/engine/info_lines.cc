#include "fuzz/engine/info_lines.h"

#include "absl/strings/str_cat.h"

namespace ringfuzz {

std::string MaxLenLine(uint64_t max_len) {
  return absl::StrCat(
      "INFO: -max_len is not provided; libFuzzer will not generate inputs "
      "larger than ",
      max_len, " bytes");
}

std::string LoadedModulesLine(uint64_t sites) {
  // libFuzzer's spacing: three spaces before the parenthesis and a
  // trailing ", " after each module's range.
  return absl::StrCat("INFO: Loaded 1 modules   (", sites,
                      " inline 8-bit counters): ", sites, " [0x0, 0x",
                      absl::Hex(sites), "), ");
}

std::string DictionaryLine(uint64_t entries) {
  return absl::StrCat("Dictionary: ", entries, " entries");
}

std::string AutomaticDictionaryLine(uint64_t added) {
  return absl::StrCat("INFO: automatic dictionary: ", added,
                      " tokens from the target's comparisons and constants");
}

}  // namespace ringfuzz
