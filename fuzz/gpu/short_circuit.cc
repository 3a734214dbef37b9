#include "fuzz/gpu/short_circuit.h"

#include <algorithm>
#include <cstddef>

namespace ringfuzz {

using spirv::Inst;

std::map<uint32_t, std::vector<uint32_t>> ShortCircuitOperands(
    const std::vector<Inst>& fn, uint32_t bool_type,
    const std::set<uint32_t>& constants) {
  // Each block's position and the target of its unconditional branch (0:
  // none).
  std::map<uint32_t, size_t> position;
  std::map<uint32_t, uint32_t> branches_to;
  uint32_t block = 0;
  for (const Inst& inst : fn) {
    if (inst.op == spv::Op::OpLabel && inst.words.size() > 1) {
      block = inst.words[1];
      position.emplace(block, position.size());
    } else if (inst.op == spv::Op::OpBranch && block != 0 &&
               inst.words.size() > 1) {
      branches_to[block] = inst.words[1];
    }
  }
  std::map<uint32_t, std::vector<uint32_t>> operands;
  block = 0;
  for (const Inst& inst : fn) {
    if (inst.op == spv::Op::OpLabel && inst.words.size() > 1) {
      block = inst.words[1];
      continue;
    }
    // OpPhi: type, result, then (value, parent) pairs.
    if (inst.op != spv::Op::OpPhi || block == 0 || inst.words.size() < 3 ||
        inst.words[1] != bool_type) {
      continue;
    }
    const size_t here = position[block];
    for (size_t k = 3; k + 1 < inst.words.size(); k += 2) {
      const uint32_t value = inst.words[k], parent = inst.words[k + 1];
      if (constants.count(value) != 0) continue;
      auto at = position.find(parent);
      auto to = branches_to.find(parent);
      if (at == position.end() || at->second >= here ||
          to == branches_to.end() || to->second != block) {
        continue;
      }
      std::vector<uint32_t>& values = operands[parent];
      if (std::find(values.begin(), values.end(), value) == values.end()) {
        values.push_back(value);
      }
    }
  }
  return operands;
}

}  // namespace ringfuzz
