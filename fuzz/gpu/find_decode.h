// Decoding the megakernel's find queue (shaders/ringfuzz_wire.h, RF_FIND_*)
// into Finds. The GPU writes every word of an entry, so every word is
// range-checked before it is used as a length, an index or a kind: a
// corrupted or newer-protocol queue gives errors, never reads out of bounds.
#ifndef RINGFUZZ_FUZZ_GPU_FIND_DECODE_H_
#define RINGFUZZ_FUZZ_GPU_FIND_DECODE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/engine/executor.h"
#include "fuzz/gpu/gpu_instrument.h"

namespace ringfuzz {

// The instrumentation's tables that a bug report's SITE word indexes
// (InstrumentedModule::locations and ::bounds_sites).
struct FindSiteTables {
  absl::Span<const SiteLocation> locations;
  absl::Span<const BoundsSite> bounds_sites;
};

// What one find queue held.
struct DecodedFindQueue {
  std::vector<Find> finds;       // new coverage and bugs, in queue order
  std::vector<Find> candidates;  // RF_FIND_CANDIDATE entries, in queue order
  // One line per entry that was skipped (unknown kind), naming the entry and
  // the word; the caller reports them.
  std::vector<std::string> errors;
};

// Decodes the first `reported_count` entries of `queue` (entries of
// RF_FIND_WORDS(max_len / 4) words each; `max_len` a multiple of 4, as the
// megakernel's is). Never reads past `queue`: the count is capped at the
// whole entries `queue` holds. Per entry:
//  - KIND must be one of RF_FIND_NEW_COVERAGE..RF_FIND_REDUCE;
//    anything else is an error and the entry is skipped (it is not new
//    coverage: a corrupted entry must not join the corpus);
//  - LEN is capped at max_len (the entry holds no more bytes);
//  - SITE of a bug is looked up only when it indexes the tables (for
//    out-of-bounds: bounds_sites, whose location must index locations);
//    otherwise the find has no source location and, for out-of-bounds,
//    aux (the array length) 0;
//  - MUTATIONS is unpacked (UnpackMutations: ids 0..14);
//  - PARENT, OPCODE, CODE, AUX and NEW_BITS are copied as they are: the
//    engine looks parents up (Corpus::FindByExecutorIndex) and prints the
//    others.
DecodedFindQueue DecodeFindQueue(absl::Span<const uint32_t> queue,
                                 uint32_t reported_count, uint32_t max_len,
                                 const FindSiteTables& sites);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_FIND_DECODE_H_
