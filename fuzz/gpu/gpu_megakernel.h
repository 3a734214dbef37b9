// Builds the fuzzing megakernel for one target: assembles the GLSL
// (prelude, mutators, the target, main loop), compiles it with glslang,
// instruments the target's blocks and loops (fuzz/gpu/gpu_instrument.h) and
// validates the result with SPIRV-Tools.
#ifndef RINGFUZZ_FUZZ_GPU_GPU_MEGAKERNEL_H_
#define RINGFUZZ_FUZZ_GPU_GPU_MEGAKERNEL_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "fuzz/gpu/gpu_instrument.h"
#include "fuzz/gpu/target_limits.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

struct MegakernelOptions {
  uint32_t max_len = 64;     // bytes; rounded up to a multiple of 4
  uint32_t local_size = 64;  // invocations per workgroup
  // Coverage hooks in every target block. Off: loop budgets only (for
  // measuring what coverage costs; the fuzzer is then blind).
  bool coverage = true;
  bool compares = true;  // compare-operand hooks (InstrumentOptions)
  bool bounds = true;    // local-array bounds checks (InstrumentOptions)
  // Hooks on branchless conditions (InstrumentOptions::conditions).
  bool conditions = true;
  // Compare-distance features (RF_VALUE_PROFILE, -use_value_profile): each
  // compare hook also adds features for how close its operands are.
  bool value_profile = false;
  // Signature coverage mode (see shaders/megakernel_prelude.glsl): blocks
  // fold edges into registers only; unseen executions become candidates.
  bool signature = false;
  // Flat mutation engine (shaders/megakernel_mutate_flat.glsl): one
  // predicated code path for SIMD back ends such as lavapipe. Applies to
  // inputs held in registers (max_len <= kFlatMutationMaxLen); the branching
  // engine is used otherwise.
  bool flat_mutation = false;
  // Invocations per coherence group of the flat engine (1, 2, 4, 8, 16 or
  // 32): they take each havoc step at the same position (groups over 4: in
  // quads at consecutive positions), with values spread over the group
  // (shaders/megakernel_mutate_flat.glsl). 1: every lane on its own.
  uint32_t coherent_lanes = 1;
  // Havoc-class work only (RF_HAVOC_ONLY): HAVOC, TRIM, REPLAY and
  // CALIBRATE slots run as in the full build; the DICT, SPLICE and CMP code
  // is left out, and such a slot runs havoc. For back ends that run every
  // branch of a SIMD vector (lavapipe), where that code costs every mutant
  // its full size whatever its work kind; GpuExecutor runs the other kinds
  // on a full build.
  bool havoc_only = false;
  // The device has a device-scope shader clock (vk::DeviceFeatures::
  // shader_device_clock): finds and slot claims carry its time
  // (RF_FIND_CLOCK_LO, RF_TAIL_CLOCK_LO in shaders/ringfuzz_wire.h).
  bool device_clock = false;
  // Deferred coverage (RF_COVERAGE_DEFERRED; precise build only): the
  // hooks set register bits and each execution marks the maps at its end,
  // over the module's static edges (fuzz/gpu/gpu_static_edges.h); compare
  // hooks, logs and the compare table are as in the immediate build. For
  // SIMD back ends, where every per-lane memory access in a block costs
  // each visit of it a scalarised loop: the precise build on CPU devices
  // (GpuExecutorOptions::deferred_coverage).
  // Refused (FailedPrecondition) for a target whose static edges are not
  // all known or that exceeds kMaxDeferredWords.
  bool deferred_coverage = false;
  // What the device can build (fuzz/gpu/target_limits.h): a megakernel beyond
  // these is refused before the driver sees it.
  TargetLimits limits;
  // Where glslang's output is cached between runs (fuzz/gpu/spirv_cache.h);
  // "" compiles every time.
  std::string spirv_cache_dir;
};

// Most register words deferred coverage keeps for sites, and for static
// edges (1,024 of each).
inline constexpr uint32_t kMaxDeferredWords = RF_STATIC_EDGE_WORDS;

// Most words of per-block counters a signature holds (RF_SIG_COUNT_WORDS's
// default in shaders/megakernel_coverage_signature.glsl): targets with more
// block hooks than 4 per word share counters.
inline constexpr uint32_t kMaxSignatureWords = RF_SIG_MAX_COUNT_WORDS;

// Largest max_len the flat mutation engine handles (its input lives in
// registers).
inline constexpr uint32_t kFlatMutationMaxLen = 4 * RF_REGISTER_WORDS;

// Per-dispatch parameters: the words of RF_PUSH_FIELDS
// (shaders/ringfuzz_wire.h), as the shader's RF_Push block declares them.
struct MegakernelPush {
#define RF_PUSH_MEMBER(name) uint32_t name = 0;
  RF_PUSH_FIELDS(RF_PUSH_MEMBER)
#undef RF_PUSH_MEMBER
};
static_assert(sizeof(MegakernelPush) == RF_PUSH_WORDS * 4,
              "MegakernelPush is the push-constant block word for word");

struct Megakernel {
  InstrumentedModule module;
  std::string target_name;  // as given; compiler messages use this name
  uint32_t max_len = 0;     // RF_MAX_LEN it was compiled with
  uint32_t local_size = 0;
  bool signature = false;
  bool flat_mutation = false;  // the flat engine was compiled in
  bool value_profile = false;
  // Signature build: words of per-block counters in its signature
  // (RF_SIG_COUNT_WORDS: a quarter of its block hooks, 1 to
  // kMaxSignatureWords); 0 in the precise build.
  uint32_t signature_words = 0;
  // Deferred coverage (MegakernelOptions::deferred_coverage): the static
  // edges it marks; 0 otherwise.
  bool deferred_coverage = false;
  uint32_t static_edges = 0;
};

// Compiles `target_source` (named `target_name` in messages). Errors:
// InvalidArgument with the compiler's "ERROR: <target_name>:<line>: ..."
// lines when the target does not compile, told in the target's terms
// (fuzz/gpu/target_diagnostics.h: a missing fz_target, an unknown #include);
// InvalidArgument when it exceeds options.limits (fuzz/gpu/target_limits.h);
// Internal when instrumentation produced an invalid module (a ringfuzz bug).
absl::StatusOr<Megakernel> BuildMegakernel(const std::string& target_name,
                                           const std::string& target_source,
                                           const MegakernelOptions& options);

// Largest target source BuildMegakernelFromFile reads: 4 MiB. Targets are
// one hand-written file of the dialect; anything larger (or an endless
// device such as /dev/zero) is refused before glslang sees it.
inline constexpr uint64_t kMaxTargetFileBytes = uint64_t{4} << 20;

// Reads the target file at `path`, then BuildMegakernel. A file that cannot
// be read (missing, a directory) keeps its errno's code and says to check
// -target; one over kMaxTargetFileBytes is "target source '<path>' is larger
// than 4194304 bytes; ..." (InvalidArgument).
absl::StatusOr<Megakernel> BuildMegakernelFromFile(
    const std::string& path, const MegakernelOptions& options);

// Worst-case loop iterations of loading one mutant's input and applying its
// mutation at `max_len` bytes (a mutant is its predecessor in the chain
// with one more mutation: one per execution, whatever the stack): what the
// megakernel reserves before each execution so that a dispatch never
// exceeds its step budget.
uint32_t MutationStepBound(uint32_t max_len);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_GPU_MEGAKERNEL_H_
