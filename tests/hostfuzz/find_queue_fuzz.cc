// libFuzzer harness of the find queue's decoding (fuzz/gpu/find_decode.h) and
// the mutation sequences it unpacks (fuzz/engine/mutators.h): whatever words
// the GPU left in the queue, decoding reads only the queue, keeps each input
// within max_len, takes source locations only from the tables, and refuses
// unknown kinds.
//
// Input (tests/hostfuzz/fuzz_input.h): Byte() max_len / 4 - 1 (% 64),
// Word() reported count, Byte() locations (% 8), Byte() bounds sites (% 8),
// then Rest(): the queue's words (a trailing partial word is dropped).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz/engine/mutators.h"
#include "fuzz/gpu/find_decode.h"
#include "shaders/ringfuzz_mutators.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/hostfuzz/fuzz_input.h"

namespace ringfuzz {
namespace {

void CheckMutations(uint32_t packed) {
  const std::vector<uint32_t> ids = UnpackMutations(packed);
  HOSTFUZZ_CHECK(ids.size() <= RF_MUT_SEQ_MAX);
  for (uint32_t id : ids) {
    HOSTFUZZ_CHECK(id < RF_MUT_NONE);
    HOSTFUZZ_CHECK(!MutatorName(id).empty());
  }
  HOSTFUZZ_CHECK(UnpackMutations(PackMutations(ids)) == ids);
  const std::string sequence = MutatorSequence(ids);
  HOSTFUZZ_CHECK(sequence.rfind("MS: ", 0) == 0);
}

bool KnownKind(uint32_t raw) {
  return raw >= RF_FIND_NEW_COVERAGE && raw <= RF_FIND_REDUCE;
}

void RunOne(const uint8_t* data, size_t size) {
  hostfuzz::FuzzInput input(data, size);
  const uint32_t max_len = 4 * (1 + input.Byte() % 64);
  const uint32_t reported = input.Word();
  std::vector<SiteLocation> locations(input.Byte() % 8);
  for (size_t i = 0; i < locations.size(); ++i) {
    locations[i] = {
        "f" + std::to_string(i), "t.fz", static_cast<uint32_t>(i), {}};
  }
  std::vector<BoundsSite> bounds(input.Byte() % 8);
  for (size_t i = 0; i < bounds.size(); ++i) {
    bounds[i] = {static_cast<uint32_t>(2 * i), static_cast<uint32_t>(i + 1)};
  }
  const std::vector<uint8_t> bytes = input.Rest();
  std::vector<uint32_t> queue(bytes.size() / 4);
  if (!queue.empty()) std::memcpy(queue.data(), bytes.data(), queue.size() * 4);

  const DecodedFindQueue decoded =
      DecodeFindQueue(queue, reported, max_len, {locations, bounds});
  const size_t stride = RF_FIND_WORDS(max_len / 4);
  const size_t stored = std::min<size_t>(reported, queue.size() / stride);
  HOSTFUZZ_CHECK(decoded.finds.size() + decoded.candidates.size() +
                     decoded.errors.size() ==
                 stored);
  size_t known = 0;
  std::vector<uint32_t> packed(stored);
  for (size_t i = 0; i < stored; ++i) {
    const uint32_t* entry = queue.data() + i * stride;
    known += KnownKind(entry[RF_FIND_KIND]);
    packed[i] = entry[RF_FIND_MUTATIONS];
  }
  // Each distinct word once: CheckMutations depends on the word alone, and
  // mutated queues repeat words (runs of one byte, copied parts).
  std::sort(packed.begin(), packed.end());
  packed.erase(std::unique(packed.begin(), packed.end()), packed.end());
  for (uint32_t word : packed) CheckMutations(word);
  HOSTFUZZ_CHECK(decoded.errors.size() == stored - known);
  for (const std::vector<Find>* list : {&decoded.finds, &decoded.candidates}) {
    for (const Find& find : *list) {
      HOSTFUZZ_CHECK(find.data.size() <= max_len);
      HOSTFUZZ_CHECK(find.mutations.size() <= RF_MUT_SEQ_MAX);
      if (find.line != 0) {
        HOSTFUZZ_CHECK(IsBug(find.kind));
        HOSTFUZZ_CHECK(find.line < locations.size());
      }
    }
  }
  for (const Find& find : decoded.candidates) {
    HOSTFUZZ_CHECK(find.kind == Find::Kind::kNewCoverage);
  }
}

}  // namespace
}  // namespace ringfuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ringfuzz::RunOne(data, size);
  return 0;
}
