#include "fuzz/gpu/gpu_megakernel.h"

#include <algorithm>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "corpus/file_read.h"
#include "fuzz/gpu/gpu_static_edges.h"
#include "fuzz/gpu/spirv_cache.h"
#include "fuzz/gpu/target_diagnostics.h"
#include "fuzz/gpu/target_limits.h"
#include "runtime/shader_compiler.h"
#include "shaders/embedded_shaders.h"

namespace ringfuzz {

uint32_t MutationStepBound(uint32_t max_len) {
  // rf_load (max_len / 4) + a gap move (max_len) plus a token or splice
  // copy (max_len) plus small fixed loops (64).
  return max_len / 4 + 2 * max_len + 64 + 16;
}

namespace {

// Words of `n` bits, at least one.
uint32_t Words(size_t n) {
  return static_cast<uint32_t>(std::max<size_t>((n + 31) / 32, 1));
}

// The deferred-coverage build of a target, from `first` (its build with
// one word of each kind): compiled again by `build` with its sites' and
// static edges' word counts and the edges' map bits, its static edges
// stored (fuzz/gpu/gpu_static_edges.h); `static_edges` is set to their count.
template <typename Build>
absl::StatusOr<InstrumentedModule> SizeDeferredBuild(
    const std::string& target_name, const InstrumentedModule& first,
    Build& build, uint32_t& static_edges) {
  absl::StatusOr<StaticEdges> edges = AddStaticEdges(first.spirv);
  if (!edges.ok()) return edges.status();
  if (!edges->complete) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no deferred coverage for '", target_name, "': ", edges->incomplete));
  }
  const uint32_t site_words = Words(first.sites.size());
  const uint32_t edge_words = Words(edges->edge_bits.size());
  if (site_words > kMaxDeferredWords || edge_words > kMaxDeferredWords) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no deferred coverage for '", target_name, "': ", first.sites.size(),
        " sites and ", edges->edge_bits.size(), " static edges (at most ",
        32 * kMaxDeferredWords, " of each)"));
  }
  const std::vector<uint32_t> bits = edges->edge_bits;
  absl::StatusOr<InstrumentedModule> module =
      build({{"RF_SITE_WORDS", absl::StrCat(site_words, "u")},
             {"RF_EDGE_WORDS", absl::StrCat(edge_words, "u")},
             {"RF_EDGE_TABLE",
              bits.empty() ? std::string("0u")
                           : absl::StrCat(absl::StrJoin(bits, "u,"), "u")}});
  if (!module.ok()) return module.status();
  edges = AddStaticEdges(module->spirv);
  if (!edges.ok()) return edges.status();
  if (!edges->complete || edges->edge_bits != bits ||
      module->sites.size() != first.sites.size()) {
    return absl::InternalError(absl::StrCat(
        "deferred build of '", target_name,
        "': its static edges changed once sized (please report this "
        "ringfuzz bug)"));
  }
  module->spirv = std::move(edges->spirv);
  static_edges = static_cast<uint32_t>(bits.size());
  return module;
}

}  // namespace

absl::StatusOr<Megakernel> BuildMegakernel(const std::string& target_name,
                                           const std::string& target_source,
                                           const MegakernelOptions& options) {
  if (options.coherent_lanes == 0 || options.coherent_lanes > 32 ||
      (options.coherent_lanes & (options.coherent_lanes - 1)) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("coherent lanes must be 1, 2, 4, 8, 16 or 32, not ",
                     options.coherent_lanes));
  }
  const uint32_t max_len =
      ((std::max<uint32_t>(options.max_len, 4) + 3) / 4) * 4;
  // The flat engine needs the input in registers (RF_INPUT_IN_REGISTERS:
  // RF_MAX_LEN / 4 <= RF_REGISTER_WORDS).
  const bool flat = options.flat_mutation && max_len <= kFlatMutationMaxLen;
  std::vector<vk::SourceFile> includes;
  for (const EmbeddedFile& f : EmbeddedShaderFiles()) {
    includes.push_back({f.name, f.text});
  }
  includes.push_back({target_name, target_source});
  // The main source is named after the target and the build: a pipeline
  // build that takes long is reported under this name
  // (vk::ComputePipeline::Create).
  vk::SourceFile main{
      absl::StrCat(
          target_name, " [",
          options.signature
              ? (options.havoc_only ? "signature, havoc only" : "signature")
              : (options.deferred_coverage ? "precise, deferred coverage"
                                           : "precise"),
          " build]"),
      absl::StrCat("#version 450\n"
                   "#extension GL_GOOGLE_include_directive : require\n"
                   "#extension GL_EXT_control_flow_attributes : require\n"
                   "#extension GL_KHR_shader_subgroup_arithmetic : require\n",
                   options.device_clock
                       ? "#extension GL_EXT_shader_realtime_clock : require\n"
                       : "",
                   "#include \"megakernel_prelude.glsl\"\n"
                   "#include \"megakernel_mutate.glsl\"\n",
                   flat ? "#include \"megakernel_mutate_flat.glsl\"\n"
                        : "#include \"megakernel_mutate_branching.glsl\"\n",
                   "#include \"ringfuzz.h\"\n"
                   "#include \"",
                   target_name,
                   "\"\n"
                   "#include \"megakernel_main.glsl\"\n")};
  vk::CompileOptions compile;
  compile.defines = {{"RF_MAX_LEN", absl::StrCat(max_len)},
                     {"RF_LOCAL_SIZE", absl::StrCat(options.local_size)}};
  if (options.signature)
    compile.defines.push_back({"RF_COVERAGE_SIGNATURE", "1"});
  if (!options.coverage) compile.defines.push_back({"RF_NO_COVERAGE", "1"});
  if (flat) {
    compile.defines.push_back(
        {"RF_COHERENT_LANES", absl::StrCat(options.coherent_lanes)});
  }
  if (options.value_profile)
    compile.defines.push_back({"RF_VALUE_PROFILE", "1"});
  if (options.havoc_only) compile.defines.push_back({"RF_HAVOC_ONLY", "1"});
  if (options.device_clock) {
    compile.defines.push_back({"RF_DEVICE_CLOCK", "1"});
  }
  compile.debug_info = true;
  // Compiles and instruments with `defines` added.
  auto build =
      [&](const std::vector<std::pair<std::string, std::string>>& defines)
      -> absl::StatusOr<InstrumentedModule> {
    vk::CompileOptions with = compile;
    with.defines.insert(with.defines.end(), defines.begin(), defines.end());
    absl::StatusOr<std::vector<uint32_t>> spirv = CompileComputeShaderCached(
        options.spirv_cache_dir, main, includes, with);
    if (!spirv.ok()) {
      return TargetCompileError(target_name, spirv.status().message());
    }
    // Before the driver sees it: drivers crash or compile for minutes on
    // what exceeds these.
    if (absl::Status fits =
            CheckTargetLimits(*spirv, target_name, options.limits);
        !fits.ok()) {
      return fits;
    }
    InstrumentOptions hooks;
    hooks.coverage = options.coverage;
    hooks.compares = options.compares;
    hooks.bounds = options.bounds;
    hooks.conditions = options.conditions;
    hooks.prune = options.signature;
    absl::StatusOr<InstrumentedModule> module = InstrumentSpirv(*spirv, hooks);
    if (!module.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot instrument target '", target_name,
                       "': ", module.status().message()));
    }
    return module;
  };
  if (options.deferred_coverage) {
    if (options.signature || !options.coverage) {
      return absl::InvalidArgumentError(
          "deferred coverage is a precise build's, with coverage hooks");
    }
    compile.defines.push_back({"RF_COVERAGE_DEFERRED", "1"});
  }
  absl::StatusOr<InstrumentedModule> module =
      options.deferred_coverage ? build({{"RF_SITE_WORDS", "1u"},
                                         {"RF_EDGE_WORDS", "1u"},
                                         {"RF_EDGE_TABLE", "0u"}})
                                : build({});
  if (!module.ok()) return module.status();
  uint32_t static_edges = 0;
  if (options.deferred_coverage) {
    absl::StatusOr<InstrumentedModule> sized =
        SizeDeferredBuild(target_name, *module, build, static_edges);
    if (!sized.ok()) return sized.status();
    module = *std::move(sized);
  }
  // The signature's per-block counters, sized to the hooks the pruned
  // instrumentation placed (it numbers them densely): every counter word
  // costs each execution a reset, a classification and a hash step, whether
  // a block uses it or not. The hooks do not depend on the size, so a
  // second compile with it places the same ones.
  uint32_t signature_words = 0;
  if (options.signature) {
    const uint32_t hooks = module->block_hooks;
    signature_words =
        std::clamp<uint32_t>((hooks + 3) / 4, 1, kMaxSignatureWords);
    if (signature_words < kMaxSignatureWords) {
      module =
          build({{"RF_SIG_COUNT_WORDS", absl::StrCat(signature_words, "u")}});
      if (!module.ok()) return module.status();
      if (module->block_hooks != hooks) {
        return absl::InternalError(
            absl::StrCat("signature build of '", target_name, "': ", hooks,
                         " block hooks, then ", module->block_hooks,
                         " once sized (please report this ringfuzz bug)"));
      }
    }
  }
  if (absl::Status valid =
          ValidateSpirvCached(options.spirv_cache_dir, module->spirv);
      !valid.ok()) {
    return absl::InternalError(absl::StrCat(
        "instrumented megakernel for '", target_name,
        "' failed SPIR-V validation (please report this ringfuzz bug): ",
        valid.message()));
  }
  Megakernel kernel;
  kernel.module = *std::move(module);
  kernel.target_name = target_name;
  kernel.max_len = max_len;
  kernel.local_size = options.local_size;
  kernel.signature = options.signature;
  kernel.flat_mutation = flat;
  kernel.value_profile = options.value_profile;
  kernel.signature_words = signature_words;
  kernel.deferred_coverage = options.deferred_coverage;
  kernel.static_edges = static_edges;
  return kernel;
}

absl::StatusOr<Megakernel> BuildMegakernelFromFile(
    const std::string& path, const MegakernelOptions& options) {
  absl::StatusOr<Bytes> text = ReadFileAtMost(
      path, FileCap{kMaxTargetFileBytes, "target source",
                    "-target names one source file in the ringfuzz dialect "
                    "(bundled targets are in shaders/targets/)"});
  if (!text.ok()) {
    if (absl::IsInvalidArgument(text.status())) return text.status();
    return absl::Status(
        text.status().code(),
        absl::StrCat(text.status().message(),
                     "; check the -target= path (bundled targets are in "
                     "shaders/targets/)"));
  }
  return BuildMegakernel(path, std::string(text->begin(), text->end()),
                         options);
}

}  // namespace ringfuzz
