#include "runtime/vk_functions.h"

namespace ringfuzz::vk {
namespace {

VkFunctions& Table() {
  static VkFunctions table;
  return table;
}

}  // namespace

const VkFunctions& Vk() { return Table(); }

ScopedVkFunctions::ScopedVkFunctions() : saved_(Table()) {}

ScopedVkFunctions::~ScopedVkFunctions() { Table() = saved_; }

VkFunctions& ScopedVkFunctions::table() { return Table(); }

}  // namespace ringfuzz::vk
