// Mutation dictionaries in the libFuzzer/AFL text format:
//
//   # a comment
//   kw1="GET"
//   "\x00\x01"
//   header@2="HTTP/1.1"     (AFL level suffix, accepted and ignored)
//
// One token per line, quoted; inside the quotes \\ is a backslash, \" a
// quote and \xNN a byte. Blank lines and lines starting with '#' (after
// leading blanks) are ignored.
#ifndef RINGFUZZ_CORPUS_DICTIONARY_H_
#define RINGFUZZ_CORPUS_DICTIONARY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "corpus/bytes.h"

namespace ringfuzz {

// Returns the distinct tokens of `text` in first-appearance order. Any
// malformed line fails the whole parse with InvalidArgument
// "line N: <what is wrong>", because a silently dropped token silently
// weakens the fuzzer. Tokens must be 1..RF_DICT_MAX_BYTES bytes (the
// megakernel's dictionary entry size); an escape other than \\, \" and \xNN
// is an error, as in AFL.
absl::StatusOr<std::vector<Bytes>> ParseDictionary(std::string_view text);

// Largest dictionary file LoadDictionaryFile reads: 16 MiB, hundreds of
// thousands of tokens.
inline constexpr uint64_t kMaxDictionaryFileBytes = uint64_t{16} << 20;

// Reads and parses the dictionary file `path`; parse errors are prefixed
// with the path ("dict.txt: line 3: missing closing quote"). A file over
// kMaxDictionaryFileBytes (also an endless device such as /dev/zero) is
// "dictionary '<path>' is larger than 16777216 bytes; ..." (ReadFileAtMost).
absl::StatusOr<std::vector<Bytes>> LoadDictionaryFile(const std::string& path);

}  // namespace ringfuzz

#endif  // RINGFUZZ_CORPUS_DICTIONARY_H_
