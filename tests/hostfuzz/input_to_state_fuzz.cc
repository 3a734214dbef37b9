// libFuzzer harness of input-to-state patch derivation (fuzz/
// input_to_state.h) from a compare log as the GPU writes it (RF_OP_CMPLOG:
// site, a, b per record): every patch writes 1..4 bytes inside the input
// and changes it, no two are equal, and there are at most max_patches.
//
// Input (tests/hostfuzz/fuzz_input.h): Byte() max_patches, Part() the
// input, Rest() the log (12 bytes a record; a trailing partial record is
// dropped; at most RF_CMPLOG_RECORDS records, what the GPU's log entry
// holds and the executor reads).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

#include "fuzz/input_to_state.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/hostfuzz/fuzz_input.h"

namespace ringfuzz {
namespace {

// Returns true iff no two of `patches` are equal (InputPatch::operator==:
// position, width and value), in O(n log n): max_patches goes to 255.
HOSTFUZZ_NO_COVERAGE bool AllDistinct(std::vector<InputPatch> patches) {
  const auto key = [](const InputPatch& p) {
    return std::tuple(p.position, p.width, p.value);
  };
  std::sort(patches.begin(), patches.end(),
            [&](const InputPatch& x, const InputPatch& y) {
              return key(x) < key(y);
            });
  return std::adjacent_find(patches.begin(), patches.end()) == patches.end();
}

void RunOne(const uint8_t* data, size_t size) {
  hostfuzz::FuzzInput input(data, size);
  const size_t max_patches = input.Byte();
  const std::vector<uint8_t> bytes = input.Part();
  const std::vector<uint8_t> log_bytes = input.Rest();
  std::vector<CompareRecord> log(
      std::min<size_t>(log_bytes.size() / 12, RF_CMPLOG_RECORDS));
  for (size_t i = 0; i < log.size(); ++i) {
    std::memcpy(&log[i].site, &log_bytes[12 * i], 4);
    std::memcpy(&log[i].a, &log_bytes[12 * i + 4], 4);
    std::memcpy(&log[i].b, &log_bytes[12 * i + 8], 4);
  }
  const std::vector<InputPatch> patches =
      DeriveInputToStatePatches(bytes, log, max_patches);
  HOSTFUZZ_CHECK(patches.size() <= max_patches);
  for (size_t i = 0; i < patches.size(); ++i) {
    const InputPatch& p = patches[i];
    HOSTFUZZ_CHECK(p.width >= 1 && p.width <= 4);
    HOSTFUZZ_CHECK(uint64_t{p.position} + p.width <= bytes.size());
    bool changes = false;
    for (uint32_t k = 0; k < p.width; ++k) {
      changes |= bytes[p.position + k] != ((p.value >> (8 * k)) & 0xFF);
    }
    HOSTFUZZ_CHECK(changes);
  }
  HOSTFUZZ_CHECK(AllDistinct(patches));
}

}  // namespace
}  // namespace ringfuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ringfuzz::RunOne(data, size);
  return 0;
}
