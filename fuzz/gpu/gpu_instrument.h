// SPIR-V coverage instrumentation of a compiled megakernel.
//
// The megakernel (shaders/megakernel_*.glsl) is compiled with the target
// included; this pass then edits the SPIR-V binary directly (the installed
// SPIRV-Tools exposes no pass API) so that the target needs no annotation:
//   * at the entry of every basic block of every target function it stores a
//     site value into the private `rf_site` and calls `rf_cov_hook()`, which
//     records the block and the (previous block, block) edge;
//   * before every `a && b` / `a || b` / `c ? x : y` that the compiler
//     left without a branch it records, as a block hook of a site of its
//     own, which way the condition went (for && and ||: the edge a CPU's
//     short-circuit branch would take); likewise at the end of the block
//     of a short-circuit's second operand that the compiler did branch
//     around, which way that operand went (fuzz/gpu/short_circuit.h);
//   * in every loop header it calls `rf_loop_hook()` and, when that returns
//     false, leaves the loop through its merge block: the per-execution loop
//     budget that bounds hangs and dispatch length;
//   * before every integer comparison with a varying operand it stores the
//     operands and calls `rf_cmp_hook()` (compare feedback), and it collects
//     the constants the target compares with (the automatic dictionary);
//     before every switch on a varying selector it does the same with the
//     selector and the case literal nearest to it (see SwitchHook);
//   * before every access to a local array of the target with a dynamic
//     index it inlines a bounds check that substitutes an in-bounds index
//     (0) for one past the array's length, so a target cannot touch memory
//     outside its arrays, and records the first bad index of an execution
//     and its bounds site in `rf_oob_index` / `rf_oob_where`, which the
//     megakernel reports as an out-of-bounds fault.
// Target functions are all functions except `main`, `fz_byte`, `fz_crash`
// and those whose names start with `rf_` (reserved for ringfuzz).
#ifndef RINGFUZZ_FUZZ_GPU_GPU_INSTRUMENT_H_
#define RINGFUZZ_FUZZ_GPU_GPU_INSTRUMENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
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

// A checked dynamic index into a local array of the target.
struct BoundsSite {
  uint32_t location = 0;  // index into InstrumentedModule::locations
  uint32_t length = 0;    // the array's length
};

struct InstrumentedModule {
  std::vector<uint32_t> spirv;
  // sites[i] is the location of site i (bit i of the site map): the first
  // line of its basic block.
  std::vector<SiteLocation> sites;
  // locations[i]: the source location of fault-capable call i (fz_crash,
  // fz_byte, array accesses, loop headers); faults report rf_loc's value
  // (out-of-bounds faults: their bounds site's location).
  std::vector<SiteLocation> locations;
  uint32_t block_hooks = 0;  // sites given a block hook (see prune)
  // Conditions given a hook: those without a branch (a && b, a || b,
  // c ? x : y) and the second operands of short-circuits with one
  // (fuzz/gpu/short_circuit.h); two sites each, counted in block_hooks.
  uint32_t condition_hooks = 0;
  uint32_t loops = 0;            // loop headers given a budget check
  uint32_t unguarded_loops = 0;  // loop headers counted but not guarded
  uint32_t bounds_checks = 0;    // array indices checked
  // bounds_sites[i]: bounds site i (module order); an out-of-bounds fault
  // carries its bounds site in its AUX and SITE words (RF_FIND_AUX).
  std::vector<BoundsSite> bounds_sites;
  // Compare sites: integer comparisons and switches given rf_cmp_hook, in
  // module order; site i writes compare-table entry i % RF_CMP_ENTRIES.
  uint32_t compare_sites = 0;
  uint32_t switch_sites = 0;  // of those, switches (selector, nearest case)
  // Every constant the target compares with or switches on (sorted).
  std::vector<uint32_t> compare_constants;
  // Constant arrays of 2..RF_DICT_MAX_BYTES byte values (< 256) that the
  // target's functions use: the strings a target in the dialect spells as
  // `const uint k[] = uint[](...)` and compares byte by byte (sorted).
  std::vector<std::vector<uint8_t>> byte_strings;
};

// Which hooks to add. Loop budgets are always added (they bound every
// execution); switching the others off measures what each costs.
struct InstrumentOptions {
  bool coverage = true;  // block/edge hooks
  bool compares = true;  // compare and switch hooks (the dictionary is kept)
  bool bounds = true;    // local-array bounds checks
  // Condition hooks (branchless &&, ||, ?: and short-circuit second
  // operands); with `coverage`.
  bool conditions = true;
  // Skip the block hook of blocks whose visits the others imply (see
  // fuzz/gpu/gpu_cfg.h). Sites keep their numbers, but the hooks store their
  // rank among the hooked blocks (0 .. block_hooks - 1) in rf_site's high
  // half instead of their site; a skipped block is never recorded itself,
  // so only a build whose coverage is a filter (the signature build) may
  // prune.
  bool prune = false;
};

// Instruments `spirv` as described above. Fails (InvalidArgument) when the
// module lacks the hooks or a target function, or has more blocks than the
// site map holds (RF_SITE_MAP_BITS).
absl::StatusOr<InstrumentedModule> InstrumentSpirv(
    absl::Span<const uint32_t> spirv, const InstrumentOptions& options = {});

// Whether a function of that source-level name ("parse", not the mangled
// "parse(u1;") is the target's: all but main, fz_byte, fz_crash and rf_*.
bool IsTargetFunctionName(absl::string_view name);

// The 16-bit edge hash of site `index` (never 0): the value the AFL-style
// edge map XORs. Exposed for tests.
uint32_t SiteEdgeHash(uint32_t index);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_GPU_INSTRUMENT_H_
