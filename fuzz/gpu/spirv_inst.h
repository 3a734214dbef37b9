// SPIR-V instructions as ringfuzz's module passes edit them
// (fuzz/gpu/gpu_instrument.cc, fuzz/gpu/gpu_static_edges.cc): each one's words,
// decoded, made and parsed by hand, since the installed SPIRV-Tools exposes
// no pass API.
#ifndef RINGFUZZ_FUZZ_GPU_SPIRV_INST_H_
#define RINGFUZZ_FUZZ_GPU_SPIRV_INST_H_

#ifndef SPV_ENABLE_UTILITY_CODE
#define SPV_ENABLE_UTILITY_CODE  // spv::HasResultAndType
#endif
#include <cstddef>
#include <cstdint>
#include <spirv/unified1/spirv.hpp11>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace ringfuzz::spirv {

// Words of the module header (magic, version, generator, bound, schema).
inline constexpr size_t kHeaderWords = 5;

struct Inst {
  spv::Op op;
  std::vector<uint32_t> words;  // including the leading word
};

// The instruction `op` with `operands` (its word count computed).
Inst Make(spv::Op op, std::vector<uint32_t> operands);

// Decodes a literal string operand starting at word `first`.
std::string LiteralString(const std::vector<uint32_t>& words, size_t first);

// Appends the instructions after `module`'s header to `out` and sets
// `bound` to the header's id bound (every id is below it).
// InvalidArgument for a module without the SPIR-V magic number or with an
// instruction whose word count is 0 or runs past the end.
absl::Status Parse(absl::Span<const uint32_t> module, std::vector<Inst>& out,
                   uint32_t& bound);

}  // namespace ringfuzz::spirv

#endif  // RINGFUZZ_FUZZ_GPU_SPIRV_INST_H_
