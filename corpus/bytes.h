// Byte buffers as corpus/ and fuzz/ pass them around.
//
// fuzz/engine/executor.h declares the same two aliases for the executor
// interface; redeclaring an alias to the same type is legal C++, so both
// headers can be included together and the types are interchangeable.
#ifndef RINGFUZZ_CORPUS_BYTES_H_
#define RINGFUZZ_CORPUS_BYTES_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace ringfuzz {

using ByteSpan = absl::Span<const uint8_t>;
using Bytes = std::vector<uint8_t>;

}  // namespace ringfuzz

#endif  // RINGFUZZ_CORPUS_BYTES_H_
