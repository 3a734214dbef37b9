#include "fuzz/gpu/spirv_inst.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace ringfuzz::spirv {

Inst Make(spv::Op op, std::vector<uint32_t> operands) {
  Inst inst{op, {}};
  inst.words.reserve(operands.size() + 1);
  inst.words.push_back(static_cast<uint32_t>((operands.size() + 1) << 16) |
                       static_cast<uint32_t>(op));
  inst.words.insert(inst.words.end(), operands.begin(), operands.end());
  return inst;
}

std::string LiteralString(const std::vector<uint32_t>& words, size_t first) {
  std::string out;
  for (size_t w = first; w < words.size(); ++w) {
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((words[w] >> (8 * b)) & 0xFF);
      if (c == '\0') return out;
      out.push_back(c);
    }
  }
  return out;
}

absl::Status Parse(absl::Span<const uint32_t> module, std::vector<Inst>& out,
                   uint32_t& bound) {
  if (module.size() < kHeaderWords || module[0] != spv::MagicNumber) {
    return absl::InvalidArgumentError(
        "not a SPIR-V module (bad magic number); the shader compiler output "
        "is corrupt");
  }
  bound = module[3];
  for (size_t pos = kHeaderWords; pos < module.size();) {
    const uint32_t count = module[pos] >> 16;
    if (count == 0 || pos + count > module.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("malformed SPIR-V instruction at word ", pos));
    }
    out.push_back({static_cast<spv::Op>(module[pos] & 0xFFFF),
                   std::vector<uint32_t>(module.begin() + pos,
                                         module.begin() + pos + count)});
    pos += count;
  }
  return absl::OkStatus();
}

}  // namespace ringfuzz::spirv
