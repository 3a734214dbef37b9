// SHA-1 as libFuzzer uses it: the content hash that names corpus files and
// artifacts. Implemented here (FIPS 180-4) so that corpus/ needs no crypto
// library; SHA-1 is used for naming, not for security.
#ifndef RINGFUZZ_CORPUS_SHA1_H_
#define RINGFUZZ_CORPUS_SHA1_H_

#include <array>
#include <cstdint>
#include <string>

#include "corpus/bytes.h"

namespace ringfuzz {

inline constexpr size_t kSha1DigestBytes = 20;
// Length of Sha1Hex's result.
inline constexpr size_t kSha1HexChars = 2 * kSha1DigestBytes;

// Returns the 20-byte SHA-1 digest of `data`.
std::array<uint8_t, kSha1DigestBytes> Sha1Digest(ByteSpan data);

// Returns the SHA-1 of `data` as 40 lowercase hex digits, the form libFuzzer
// uses for file names ("crash-<sha1>", corpus files).
std::string Sha1Hex(ByteSpan data);

}  // namespace ringfuzz

#endif  // RINGFUZZ_CORPUS_SHA1_H_
