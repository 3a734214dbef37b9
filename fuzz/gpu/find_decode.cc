#include "fuzz/gpu/find_decode.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "fuzz/engine/mutators.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

bool KindOf(uint32_t raw, Find::Kind& kind) {
  switch (raw) {
    case RF_FIND_NEW_COVERAGE:
    case RF_FIND_CANDIDATE:
    case RF_FIND_REDUCE:
      kind = Find::Kind::kNewCoverage;
      return true;
    case RF_FIND_CRASH:
      kind = Find::Kind::kCrash;
      return true;
    case RF_FIND_OVERREAD:
      kind = Find::Kind::kOverread;
      return true;
    case RF_FIND_TIMEOUT:
      kind = Find::Kind::kTimeout;
      return true;
    case RF_FIND_OUT_OF_BOUNDS:
      kind = Find::Kind::kOutOfBounds;
      return true;
    default:
      return false;
  }
}

// Fills a bug's source location (and an out-of-bounds find's array length)
// from SITE, when SITE indexes the tables.
void Locate(uint32_t site, const FindSiteTables& sites, Find& find) {
  uint64_t loc = site;
  if (find.kind == Find::Kind::kOutOfBounds) {
    const bool known = site < sites.bounds_sites.size();
    find.aux = known ? sites.bounds_sites[site].length : 0;
    loc = known ? sites.bounds_sites[site].location : sites.locations.size();
  }
  if (loc < sites.locations.size() && sites.locations[loc].line != 0) {
    find.function = sites.locations[loc].function;
    find.file = sites.locations[loc].file;
    find.line = sites.locations[loc].line;
  }
}

}  // namespace

DecodedFindQueue DecodeFindQueue(absl::Span<const uint32_t> queue,
                                 uint32_t reported_count, uint32_t max_len,
                                 const FindSiteTables& sites) {
  DecodedFindQueue out;
  const uint64_t input_words = max_len / 4;
  const uint64_t stride = RF_FIND_WORDS(input_words);
  const uint64_t stored =
      std::min<uint64_t>(reported_count, queue.size() / stride);
  for (uint64_t i = 0; i < stored; ++i) {
    const uint32_t* entry = queue.data() + i * stride;
    Find find;
    if (!KindOf(entry[RF_FIND_KIND], find.kind)) {
      out.errors.push_back(absl::StrCat(
          "find queue entry ", i, " has kind ", entry[RF_FIND_KIND],
          ", which is none of the wire protocol's (", RF_FIND_NEW_COVERAGE,
          "..", RF_FIND_REDUCE, "); the entry is skipped"));
      continue;
    }
    const uint32_t len = static_cast<uint32_t>(
        std::min<uint64_t>(entry[RF_FIND_LEN], input_words * 4));
    const uint8_t* data =
        reinterpret_cast<const uint8_t*>(entry + RF_FIND_HEADER_WORDS);
    find.data.assign(data, data + len);
    find.parent = entry[RF_FIND_PARENT];
    find.slot = entry[RF_FIND_SLOT];
    find.opcode = entry[RF_FIND_OPCODE];
    find.code = entry[RF_FIND_CODE];
    find.aux = entry[RF_FIND_AUX];
    find.new_bits = entry[RF_FIND_NEW_BITS];
    find.reduces_parent = entry[RF_FIND_KIND] == RF_FIND_REDUCE;
    find.mutations = UnpackMutations(entry[RF_FIND_MUTATIONS]);
    find.device_clock =
        uint64_t{entry[RF_FIND_CLOCK_HI]} << 32 | entry[RF_FIND_CLOCK_LO];
    if (IsBug(find.kind)) Locate(entry[RF_FIND_SITE], sites, find);
    if (entry[RF_FIND_KIND] == RF_FIND_CANDIDATE) {
      out.candidates.push_back(std::move(find));
    } else {
      out.finds.push_back(std::move(find));
    }
  }
  return out;
}

}  // namespace ringfuzz
