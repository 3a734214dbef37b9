// SPIR-V coverage instrumentation of a compiled megakernel.
//
// The megakernel (shaders/megakernel_*.glsl) is compiled with the target
// included; this pass then edits the SPIR-V binary directly (the installed
// SPIRV-Tools exposes no pass API) so that the target needs no annotation:
//   * at the entry of every basic block of every target function it stores a
//     site value into the private `rf_site` and calls `rf_cov_hook()`, which
//     records the block and the (previous block, block) edge;
//   * in every loop header it calls `rf_loop_hook()` and, when that returns
//     false, leaves the loop through its merge block: the per-execution loop
//     budget that bounds hangs and dispatch length;
//   * before every integer comparison with a varying operand it stores the
//     operands and calls `rf_cmp_hook()` (compare feedback), and it collects
//     the constants the target compares with (the automatic dictionary);
//     before every switch on a varying selector it does the same with the
//     selector and the case literal nearest to it (see SwitchHook);
//   * before every access to a local array of the target with a dynamic
//     index it calls `rf_bounds_hook()`, which reports an index past the
//     array's length as an out-of-bounds fault and substitutes an in-bounds
//     one, so a target cannot touch memory outside its arrays.
// Target functions are all functions except `main`, `fz_byte`, `fz_crash`
// and those whose names start with `rf_` (reserved for ringfuzz).
#ifndef RINGFUZZ_FUZZ_GPU_INSTRUMENT_H_
#define RINGFUZZ_FUZZ_GPU_INSTRUMENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace ringfuzz {

// Where an instrumentation site (a basic block) is in the target source.
struct SiteLocation {
  std::string function;  // source-level name, e.g. "parse_header"
  std::string file;      // as the compiler saw it, e.g. "tlv.fz"
  uint32_t line = 0;     // 0 when the block carries no line information
  // For a site (basic block): every line its own instructions carry, in
  // `file` (none for a block that only branches).
  std::vector<uint32_t> lines;
};

struct InstrumentedModule {
  std::vector<uint32_t> spirv;
  // sites[i] is the location of site i (bit i of the site map): the first
  // line of its basic block.
  std::vector<SiteLocation> sites;
  // locations[i]: the source location of fault-capable call i (fz_crash,
  // fz_byte, array accesses, loop headers); faults report rf_loc's value.
  std::vector<SiteLocation> locations;
  uint32_t loops = 0;            // loop headers given a budget check
  uint32_t unguarded_loops = 0;  // loop headers counted but not guarded
  uint32_t bounds_checks = 0;    // array indices checked
  // Compare sites: integer comparisons and switches given rf_cmp_hook, in
  // module order; site i writes compare-table entry i % RF_CMP_ENTRIES.
  uint32_t compare_sites = 0;
  uint32_t switch_sites = 0;  // of those, switches (selector, nearest case)
  // Every constant the target compares with or switches on (sorted).
  std::vector<uint32_t> compare_constants;
};

// Which hooks to add. Loop budgets are always added (they bound every
// execution); switching the others off measures what each costs.
struct InstrumentOptions {
  bool coverage = true;  // block/edge hooks
  bool compares = true;  // compare and switch hooks (the dictionary is kept)
  bool bounds = true;    // local-array bounds checks
};

// Instruments `spirv` as described above. Fails (InvalidArgument) when the
// module lacks the hooks or a target function, or has more blocks than the
// site map holds (RF_SITE_MAP_BITS).
absl::StatusOr<InstrumentedModule> InstrumentSpirv(
    absl::Span<const uint32_t> spirv, const InstrumentOptions& options = {});

// The 16-bit edge hash of site `index` (never 0): the value the AFL-style
// edge map XORs. Exposed for tests.
uint32_t SiteEdgeHash(uint32_t index);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_INSTRUMENT_H_
