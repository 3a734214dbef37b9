#include "fuzz/gpu/gpu_executor.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <set>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "fuzz/engine/mutators.h"
#include "fuzz/gpu/compare_log.h"
#include "fuzz/gpu/compare_table.h"
#include "fuzz/gpu/escape_to_state.h"
#include "fuzz/gpu/find_decode.h"
#include "fuzz/gpu/gpu_build_notice.h"
#include "fuzz/gpu/lavapipe_env.h"
#include "fuzz/gpu/linear_to_state.h"
#include "fuzz/gpu/parallel_for.h"
#include "fuzz/gpu/repeat_trials.h"
#include "fuzz/gpu/ring_slots.h"
#include "fuzz/gpu/string_to_state.h"
#include "fuzz/gpu/text_to_state.h"
#include "fuzz/gpu/varint_to_state.h"
#include "shaders/ringfuzz_mutators.h"
#include "shaders/ringfuzz_wire.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#include <sanitizer/lsan_interface.h>
#define RINGFUZZ_HAVE_LSAN 1
#endif
#endif
#ifndef RINGFUZZ_HAVE_LSAN
#define RINGFUZZ_HAVE_LSAN 0
#endif

namespace ringfuzz {
namespace {

// lavapipe ends every loop after 65,535 back-edges per SIMD batch of lanes
// (platform-facts.md); the batch's count is at most the sum of its lanes'
// iterations, so each lane gets 1/subgroup of it, with a margin.
constexpr uint32_t kLavapipeLoopLimit = 65535;
constexpr uint32_t kLocalSize = kWorkgroupLanes;

uint32_t WordsFor(size_t bytes) {
  return static_cast<uint32_t>((bytes + 3) / 4);
}

// Length-to-state trials per corpus input: enough for o - 1, o, o + 1 of
// two length comparisons.
constexpr size_t kMaxLengthsPerInput = 6;
// Text-to-state trials per corpus input: y, y - 1, y + 1 of a few compared
// numbers that the input spells in decimal.
constexpr size_t kMaxTextTrialsPerInput = 12;
constexpr size_t kMaxVarintTrialsPerInput = 8;
// Escape-to-state trials per input: y, y - 1, y + 1 of the last two
// compared values that a byte of the input equals.
constexpr size_t kMaxEscapeTrialsPerInput = 6;
// String-to-state trials per input: the rest of a constant string at a
// few of the places its last compared bytes name.
constexpr size_t kMaxStringTrialsPerInput = 8;
// Linear-to-state trials per input (fuzz/gpu/linear_to_state.h).
constexpr size_t kMaxLinearTrialsPerInput = 12;

// How often a dispatch's wait looks at the stop check.
constexpr absl::Duration kStopPoll = absl::Milliseconds(20);

// Work kinds that a havoc-only build runs as the full build does
// (MegakernelOptions::havoc_only).
bool IsHavocClass(uint32_t opcode) {
  return opcode == RF_OP_HAVOC || opcode == RF_OP_TRIM ||
         opcode == RF_OP_REPLAY;
}

// Ring slots of an executor: GpuExecutorOptions::ring_slots, else the
// device kind's default.
uint32_t RingSlots(const GpuExecutorOptions& options,
                   const vk::PhysicalDeviceInfo& info) {
  return options.ring_slots != 0
             ? options.ring_slots
             : (info.is_cpu ? kCpuRingSlots : kGpuRingSlots);
}

}  // namespace

uint32_t GpuExecutor::Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xFF51AFD7ED558CCDull;
  x ^= x >> 33;
  x *= 0xC4CEB9FE1A85EC53ull;
  x ^= x >> 33;
  return static_cast<uint32_t>(x);
}

absl::StatusOr<std::unique_ptr<GpuExecutor>> GpuExecutor::Create(
    const GpuExecutorOptions& options) {
  MegakernelOptions build;
  build.max_len = options.max_len;
  build.local_size = kLocalSize;
  build.coverage = options.coverage;
  build.compares = options.compares;
  build.bounds = options.bounds;
  build.conditions = options.conditions;
  build.value_profile = options.value_profile;
  // The signature build (if any) differs in this and in its compare hooks.
  build.signature = false;
  // Both builds fuzz (the precise one on GPUs, or when signature mode is
  // off), so both get the same mutation engine.
  build.flat_mutation =
      options.mutation_engine != GpuExecutorOptions::MutationEngine::kBranching;
  build.coherent_lanes = options.coherent_lanes;
  build.spirv_cache_dir = options.spirv_cache_dir;
  ConfigureLavapipeEnvironment(options.lavapipe_simd_bits);
  vk::InstanceOptions instance_options;
  instance_options.validation = options.validation;
  absl::StatusOr<vk::Instance> instance =
      vk::Instance::Create(instance_options);
  if (!instance.ok()) return instance.status();
  absl::StatusOr<std::vector<vk::PhysicalDeviceInfo>> devices =
      instance->EnumerateDevices();
  if (!devices.ok()) return devices.status();
  absl::StatusOr<uint32_t> chosen = vk::SelectDevice(*devices, options.device);
  if (!chosen.ok()) return chosen.status();
  absl::StatusOr<vk::Device> device =
      vk::Device::Create(*instance, (*devices)[*chosen]);
  if (!device.ok()) return device.status();

  const vk::PhysicalDeviceInfo& info = device->info();
  const absl::Time device_created = absl::Now();
  // From here to the first empty dispatches, the target is being built:
  // progress lines, and a bound past which the process ends.
  vk::ProgressNotice build_notice(
      PipelineBuildWhat(info),
      PipelineBuildNoticeOptions(options.compile_timeout));
  build.device_clock = device->features().shader_device_clock;
  // The target gets the device's shared memory, less the megakernel's.
  build.limits = WithDeviceSharedMemory(build.limits, info.name,
                                        info.max_compute_shared_memory_bytes);
  const bool signature =
      options.coverage &&
      options.coverage_mode != GpuExecutorOptions::CoverageMode::kPrecise;
  // The precise build defers its coverage to the end of each execution
  // (on CPU devices unless asked otherwise), unless the target's static
  // edges are not all known.
  using DeferredCoverage = GpuExecutorOptions::DeferredCoverage;
  MegakernelOptions precise_build = build;
  precise_build.deferred_coverage =
      options.coverage &&
      (options.deferred_coverage == DeferredCoverage::kOn ||
       (options.deferred_coverage == DeferredCoverage::kAuto && info.is_cpu));
  absl::StatusOr<Megakernel> precise =
      BuildMegakernelFromFile(options.target_path, precise_build);
  std::string deferred_refusal;
  if (absl::IsFailedPrecondition(precise.status())) {
    deferred_refusal = std::string(precise.status().message());
    precise = BuildMegakernelFromFile(options.target_path, build);
  }
  if (!precise.ok()) return precise.status();
  const uint32_t ring_slots = RingSlots(options, info);
  const uint32_t max_words = precise->max_len / 4;
  const uint32_t find_capacity =
      options.find_capacity != 0
          ? options.find_capacity
          : DefaultFindCapacity(info.is_cpu, max_words,
                                info.max_storage_buffer_range);
  using RingMemory = GpuExecutorOptions::RingMemory;
  const vk::Placement polled =
      options.ring_memory == RingMemory::kHost ||
              (options.ring_memory == RingMemory::kAuto && !info.is_cpu)
          ? vk::Placement::kHost
          : vk::Placement::kDevice;
  absl::StatusOr<vk::Buffer> control =
      vk::Buffer::Create(*device, ControlBytes());
  if (!control.ok()) return control.status();
  // The slots, then each slot's tail (RF_SLOT_TAIL_WORDS): where each lane
  // of a slot that ran out of loop budget goes on when the slot is claimed
  // again, and when the slot was first claimed.
  absl::StatusOr<vk::Buffer> ring =
      vk::Buffer::Create(*device, RingBytes(ring_slots), polled);
  if (!ring.ok()) return ring.status();
  absl::StatusOr<vk::Buffer> finds = vk::Buffer::Create(
      *device, FindQueueBytes(find_capacity, max_words), polled);
  if (!finds.ok()) return finds.status();
  absl::StatusOr<vk::Buffer> dict =
      vk::Buffer::Create(*device, DictionaryBytes(0));
  if (!dict.ok()) return dict.status();
  const uint32_t log_capacity = info.is_cpu ? kCpuCompareLogs : kGpuCompareLogs;
  absl::StatusOr<vk::Buffer> cmplog =
      vk::Buffer::Create(*device, CompareLogBytes(log_capacity), polled);
  if (!cmplog.ok()) return cmplog.status();
  using Overlap = GpuExecutorOptions::Overlap;
  const bool overlap = options.overlap == Overlap::kOn ||
                       (options.overlap == Overlap::kAuto && !info.is_cpu);
  std::unique_ptr<vk::Buffer> ring2, finds2, snapshots;
  if (overlap) {
    for (auto [buffer, bytes] :
         {std::pair{&ring2, ring->size()}, std::pair{&finds2, finds->size()},
          std::pair{&snapshots, SnapshotBytes()}}) {
      absl::StatusOr<vk::Buffer> made =
          vk::Buffer::Create(*device, bytes, polled);
      if (!made.ok()) return made.status();
      *buffer = std::make_unique<vk::Buffer>(*std::move(made));
    }
  }

  std::unique_ptr<GpuExecutor> executor(
      new GpuExecutor(*std::move(instance), *std::move(device),
                      *std::move(control), *std::move(ring), *std::move(finds),
                      *std::move(dict), *std::move(cmplog), options));
  GpuExecutor& e = *executor;
  // A slow build keeps the device busy until the first round, so that it
  // does not idle down to its lowest clock meanwhile.
  using WarmClock = GpuExecutorOptions::WarmClock;
  if (options.warm_clock == WarmClock::kOn ||
      (options.warm_clock == WarmClock::kAuto && !e.device_.info().is_cpu)) {
    e.clock_warmer_ = std::make_unique<DelayedClockWarmer>(
        e.device_, device_created + options.warm_clock_delay);
  }
  e.overlap_ = overlap;
  e.cut_rounds_ = options.cut_rounds;
  e.repeat_trials_ = options.repeat_trials;
  e.repeat_trial_cap_ = options.repeat_trial_cap;
  e.ring2_ = std::move(ring2);
  e.finds2_ = std::move(finds2);
  e.snapshots_ = std::move(snapshots);
  e.ring_slots_ = ring_slots;
  e.find_capacity_ = find_capacity;
  e.scratch_entries_ = find_capacity;
  e.pending_trials_ =
      TrialQueue(size_t{kPendingCombinationFlights} * find_capacity);
  e.log_capacity_ = log_capacity;
  e.colorize_ = options.colorize;
  e.max_len_ = precise->max_len;
  e.deferred_refusal_ = std::move(deferred_refusal);
  // The build holds whole words; inputs stop at the exact length asked.
  e.len_limit_ = options.max_len == 0
                     ? precise->max_len
                     : std::min(options.max_len, precise->max_len);
  // The bound is checked before the slow part, the pipelines: the buffers
  // made so far and the corpus and patch buffers to come.
  const CorpusLayout corpus_start =
      InitialCorpusLayout(find_capacity, max_words);
  if (const uint64_t start =
          e.Memory().Total() + CorpusBufferBytes(corpus_start) +
          PatchBufferBytes(options.patch_inputs, options.patch_words);
      options.memory_bound != 0 && start > options.memory_bound) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the executor's buffers need ", Mib(start), " at start (",
        FormatGpuMemory(e.Memory(), 0, 0),
        ", before the corpus and the patches), more than the bound of ",
        Mib(options.memory_bound),
        " (-gpu_memory_mb). Fix: raise -gpu_memory_mb, or lower -max_len "
        "(each of the ",
        find_capacity,
        " find-queue entries and corpus scratch inputs holds "
        "max_len bytes)"));
  }
  // The signature build is compiled and turned into a pipeline on a second
  // thread while this one makes the precise build's pipeline: lavapipe
  // spends most of the start-up compiling each, one core per pipeline.
  absl::Status fast_status = absl::OkStatus();
  std::thread fast_builder;
  if (signature) {
    build.signature = true;
    // The signature build never writes the compare table (the precise
    // build's replays and calibrations do); its compare hooks only serve
    // value-profile features.
    build.compares = options.compares && options.value_profile;
    fast_builder = std::thread([&e, &options, build, overlap, &fast_status] {
      absl::StatusOr<Megakernel> fast =
          BuildMegakernelFromFile(options.target_path, build);
      fast_status = fast.ok() ? e.AddProgram(*std::move(fast), e.fast_, overlap)
                              : fast.status();
    });
  }
  absl::Status havoc_status = absl::OkStatus();
  std::thread havoc_builder;
  if (signature && info.is_cpu && options.havoc_build) {
    MegakernelOptions havoc = build;
    havoc.havoc_only = true;
    havoc_builder = std::thread([&e, &options, havoc, &havoc_status] {
      absl::StatusOr<Megakernel> kernel =
          BuildMegakernelFromFile(options.target_path, havoc);
      havoc_status = kernel.ok() ? e.AddProgram(*std::move(kernel), e.havoc_)
                                 : kernel.status();
    });
  }
  absl::Status precise_status =
      e.AddProgram(*std::move(precise), e.precise_, overlap);
  if (fast_builder.joinable()) fast_builder.join();
  if (havoc_builder.joinable()) havoc_builder.join();
  if (!precise_status.ok()) return precise_status;
  if (!fast_status.ok()) return fast_status;
  if (!havoc_status.ok()) return havoc_status;
  if (absl::Status s = e.UploadPatches(0); !s.ok()) return s;
  // Room for the first bursts of finds: growing the buffer waits for the
  // rounds in flight, which stalls the device just when new entries wait
  // for their mutants. 1,024 entries of up to 64 bytes (or 64 of any
  // length); it doubles from there.
  if (absl::Status s =
          e.RebuildCorpus(static_cast<uint32_t>(corpus_start.capacity),
                          corpus_start.data_words);
      !s.ok()) {
    return s;
  }
  if (e.clock_warmer_ != nullptr) {
    absl::StatusOr<absl::Duration> busy = e.clock_warmer_->Finish();
    if (!busy.ok()) return busy.status();
    e.clock_warm_time_ = *busy;
    e.clock_warmer_.reset();
  }
  if (absl::Status s = e.WarmUp(); !s.ok()) return s;
  return executor;
}

GpuExecutor::GpuExecutor(vk::Instance instance, vk::Device device,
                         vk::Buffer control, vk::Buffer ring, vk::Buffer finds,
                         vk::Buffer dict, vk::Buffer cmplog,
                         const GpuExecutorOptions& options)
    : instance_(std::move(instance)),
      device_(std::move(device)),
      control_(std::move(control)),
      ring_(std::move(ring)),
      finds_(std::move(finds)),
      dict_(std::move(dict)),
      cmplog_(std::move(cmplog)),
      push_flags_((options.keep_going ? RF_PUSH_KEEP_GOING : 0u) |
                  (options.reduce_inputs ? RF_PUSH_REDUCE : 0u)),
      dispatch_timeout_(options.dispatch_timeout) {
  memory_bound_ = options.memory_bound;
  patch_start_inputs_ = std::max<uint64_t>(options.patch_inputs, 1);
  patch_start_words_ = std::max<uint64_t>(options.patch_words, 1);
  memory_log_ = options.memory_log;
  const vk::PhysicalDeviceInfo& info = device_.info();
  const uint32_t subgroup = std::max<uint32_t>(info.subgroup_size, 1);
  const uint32_t max_len = (std::max<uint32_t>(options.max_len, 4) + 3) / 4 * 4;
  step_budget_ =
      info.is_lavapipe ? (kLavapipeLoopLimit - 1024) / subgroup : (1u << 20);
  // Before each execution an invocation keeps room for the mutation, the
  // execution and queueing its input as a find (max_len / 4 words); lane 0
  // also claims the slots, skipping at most the ring's slots per dispatch.
  const uint32_t reserve =
      MutationStepBound(max_len) + max_len / 4 + RingSlots(options, info) + 64;
  uint32_t default_exec = info.is_lavapipe ? 2048u : 65536u;
  if (info.is_lavapipe && reserve + default_exec > step_budget_) {
    default_exec = step_budget_ > reserve + 256 ? step_budget_ - reserve : 256;
  }
  exec_steps_ = options.exec_steps != 0 ? options.exec_steps : default_exec;
  if (options.exec_steps == 0 && options.loop_budget != 0) {
    exec_steps_ = std::min(options.loop_budget, default_exec);  // the ceiling
  }
  replay_exec_steps_ = std::min(exec_steps_, default_exec);
  if (options.cut_slow_mutants) {
    mutant_budget_ = MutantBudget(
        static_cast<uint32_t>(std::min<uint64_t>(
            uint64_t{MutantBudget::kInputPasses} * max_len, UINT32_MAX)),
        std::min<uint32_t>(exec_steps_, RF_STACK_BUDGET_MAX));
  }
  shutdown_grace_ = options.shutdown_grace;
  if (exec_steps_ + reserve > step_budget_)
    step_budget_ = exec_steps_ + reserve;
  // Enough workgroups to fill the device; each claims slots until none
  // remain. On a CPU device one per slot of a batch (kCpuBatchSlots).
  groups_ = info.is_cpu ? kCpuBatchSlots : 4096u;
  uint32_t* ctrl = control_.words();
  ctrl[RF_CTRL_TENANT_BASE] = RF_CTRL_TENANT_MASKS;
  for (uint32_t t = 0; t < RF_CTRL_TENANT_MASK_COUNT; ++t) {
    ctrl[RF_CTRL_TENANT_MASKS + t] = 1;
  }
}

absl::Status GpuExecutor::NoteLoss(absl::Status status) {
  lost_ |= status.code() == absl::StatusCode::kUnavailable;
  return status;
}

absl::Status GpuExecutor::Hung() {
  // Whatever the dispatch uses stays as it is: no later call may free or
  // replace a buffer under it (CheckUsable), and destruction leaks them.
  hung_ = true;
  return absl::DeadlineExceededError(absl::StrCat(
      "the megakernel did not finish within ",
      absl::FormatDuration(dispatch_timeout_),
      "; the device may be hung (a target loop without a budget?) and is "
      "fenced off for the rest of this process. The corpus found so far is "
      "on disk: rerun to resume"));
}

absl::Status GpuExecutor::CheckUsable() const {
  if (lost_) {
    return absl::UnavailableError(
        "the device was lost (VK_ERROR_DEVICE_LOST): make a new executor");
  }
  if (!hung_) return absl::OkStatus();
  return absl::FailedPreconditionError(
      "the device is hung (a dispatch never ended), so nothing more runs on "
      "it in this process; restart ringfuzz to resume (the corpus is on "
      "disk; the device may need a reset)");
}

GpuExecutor::~GpuExecutor() {
  clock_warmer_.reset();  // a Create that failed before stopping it
  if (!hung_) return;
  // A dispatch that outlived its timeout may have ended since: then every
  // object can go as usual.
  bool ended = true;
  for (Program* program : {precise_.get(), fast_.get(), havoc_.get()}) {
    if (program == nullptr) continue;
    for (vk::Dispatcher* d :
         {program->dispatcher.get(), program->second.get()}) {
      if (d == nullptr || !ended) continue;
      absl::StatusOr<bool> done = d->Wait(shutdown_grace_);
      ended = done.ok() && *done;
    }
  }
  if (ended) return;
  // The device still runs a dispatch that never ended; destroying what it
  // uses would block forever (or worse). Leak it, on purpose: told to
  // LeakSanitizer, so that sanitizer builds report only real leaks.
  const auto leak = [](void* object) {
    if (object == nullptr) return;
#if RINGFUZZ_HAVE_LSAN
    __lsan_ignore_object(object);
#endif
  };
  leak(precise_.release());
  leak(fast_.release());
  leak(havoc_.release());
  leak(corpus_.release());
  leak(patches_.release());
  leak(ring2_.release());
  leak(finds2_.release());
  leak(snapshots_.release());
  for (vk::Buffer* buffer : {&control_, &ring_, &finds_, &dict_, &cmplog_}) {
    leak(new vk::Buffer(std::move(*buffer)));
  }
  leak(new vk::Device(std::move(device_)));
  leak(new vk::Instance(std::move(instance_)));
}

absl::Status GpuExecutor::AddProgram(Megakernel kernel,
                                     std::unique_ptr<Program>& slot,
                                     bool second) {
  // Create watches the whole build (build_notice), not each pipeline.
  vk::PipelineNotice unwatched;
  unwatched.watch = false;
  absl::StatusOr<vk::ComputePipeline> pipeline = vk::ComputePipeline::Create(
      device_, kernel.module.spirv, RF_BINDING_COUNT, sizeof(MegakernelPush),
      unwatched);
  if (!pipeline.ok() && kernel.max_len > kFlatMutationMaxLen) {
    // Drivers refuse large private arrays without saying so (NVIDIA:
    // VK_ERROR_UNKNOWN); the input is the largest one ringfuzz adds.
    return absl::Status(
        pipeline.status().code(),
        absl::StrCat(pipeline.status().message(),
                     " The megakernel holds each input in ", kernel.max_len,
                     " bytes of private memory per invocation (-max_len), "
                     "which a device's compiler may refuse: lower -max_len "
                     "(an NVIDIA H200 builds 12288 and refuses 16384)."));
  }
  if (!pipeline.ok()) return pipeline.status();
  auto program = std::make_unique<Program>(
      Program{std::move(kernel), *std::move(pipeline), nullptr, nullptr});
  absl::StatusOr<vk::Dispatcher> dispatcher =
      vk::Dispatcher::Create(device_, program->pipeline);
  if (!dispatcher.ok()) return dispatcher.status();
  program->dispatcher =
      std::make_unique<vk::Dispatcher>(*std::move(dispatcher));
  if (second) {
    absl::StatusOr<vk::Dispatcher> other =
        vk::Dispatcher::Create(device_, program->pipeline);
    if (!other.ok()) return other.status();
    program->second = std::make_unique<vk::Dispatcher>(*std::move(other));
  }
  slot = std::move(program);
  return absl::OkStatus();
}

absl::Status GpuExecutor::WarmUp() {
  const MegakernelPush push = MakePush(/*slot_count=*/0, 0);
  for (Program* program : {precise_.get(), fast_.get(), havoc_.get()}) {
    if (program == nullptr) continue;
    if (absl::Status s = program->dispatcher->Submit(
            absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(&push),
                                sizeof(push)),
            /*groups_x=*/1);
        !s.ok()) {
      return s;
    }
    // The build notice bounds the wait (or nothing does: -compile_timeout=0).
    absl::StatusOr<bool> done =
        program->dispatcher->Wait(absl::InfiniteDuration());
    if (!done.ok()) return done.status();
  }
  // The one workgroup found no slot: the claim cursor is all it moved.
  control_.words()[RF_RES_CLAIM_CURSOR] = 0;
  return absl::OkStatus();
}

GpuExecutor::Program& GpuExecutor::ProgramFor(uint32_t opcode) {
  if (havoc_ != nullptr && IsHavocClass(opcode)) return *havoc_;
  return fast_ != nullptr ? *fast_ : *precise_;
}

absl::Status GpuExecutor::BindAll() {
  for (Program* program : {precise_.get(), fast_.get(), havoc_.get()}) {
    if (program == nullptr) continue;
    if (absl::Status s = BindProgram(*program); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status GpuExecutor::BindProgram(Program& program) {
  const vk::Buffer* buffers[RF_BINDING_COUNT] = {
      &control_, &ring_,   corpus_.get(), &finds_,
      &dict_,    &cmplog_, patches_.get()};
  if (absl::Status s = program.dispatcher->BindBuffers(buffers); !s.ok()) {
    return s;
  }
  if (program.second != nullptr) {
    const vk::Buffer* second[RF_BINDING_COUNT] = {
        &control_, ring2_.get(), corpus_.get(), finds2_.get(),
        &dict_,    &cmplog_,     patches_.get()};
    if (absl::Status s = program.second->BindBuffers(second); !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

uint64_t GpuExecutor::IndexWords() const {
  return RF_CORPUS_INDEX_WORDS(uint64_t{corpus_capacity_} + scratch_entries_);
}

uint64_t GpuExecutor::ScratchOffset(uint32_t i) const {
  return IndexWords() + uint64_t{i} * (max_len_ / 4);
}

uint64_t GpuExecutor::DataStart() const {
  return ScratchOffset(scratch_entries_);
}

absl::Status GpuExecutor::RebuildCorpus(uint32_t capacity,
                                        uint64_t data_words) {
  const uint32_t old_capacity = corpus_capacity_;
  // Trailing max_words of padding: the megakernel loads whole inputs of
  // max_words words, also past the end of the last (short) entry.
  const uint64_t bytes =
      CorpusBufferBytes({capacity, scratch_entries_, max_len_ / 4, data_words});
  if (absl::Status s = CheckGrowth(
          absl::StrCat("the corpus buffer (for ", capacity, " inputs)"),
          corpus_ != nullptr ? corpus_->size() : 0, bytes,
          absl::StrCat("raise -gpu_memory_mb, lower -max_len (the corpus "
                       "buffer holds ",
                       scratch_entries_,
                       " scratch inputs of max_len bytes), or fuzz a smaller "
                       "corpus (-merge=1 into an empty directory keeps the "
                       "inputs that add coverage)"));
      !s.ok()) {
    return s;
  }
  corpus_capacity_ = capacity;
  absl::StatusOr<vk::Buffer> buffer = vk::Buffer::Create(device_, bytes);
  if (!buffer.ok()) {
    corpus_capacity_ = old_capacity;
    return absl::Status(
        buffer.status().code(),
        absl::StrCat("cannot grow the corpus buffer to ", Mib(bytes), ": ",
                     buffer.status().message()));
  }
  corpus_ = std::make_unique<vk::Buffer>(*std::move(buffer));
  corpus_data_words_ = data_words;
  corpus_cursor_ = DataStart();
  for (uint32_t i = 0; i < inputs_.size(); ++i) {
    WriteCorpusEntry(i, corpus_cursor_, inputs_[i]);
    corpus_cursor_ += WordsFor(inputs_[i].size());
  }
  if (absl::Status s = BindAll(); !s.ok()) return s;
  if (old_capacity != 0) {
    LogMemory(
        absl::StrCat("the corpus buffer grew for ", inputs_.size(), " inputs"));
  }
  return absl::OkStatus();
}

GpuMemory GpuExecutor::Memory() const {
  GpuMemory m;
  auto size = [](const std::unique_ptr<vk::Buffer>& b) {
    return b != nullptr ? b->size() : 0;
  };
  m.rings = ring_.size() + size(ring2_);
  m.finds = finds_.size() + size(finds2_);
  m.maps = control_.size() + size(snapshots_);
  m.compare_logs = cmplog_.size();
  m.dictionary = dict_.size();
  m.corpus = size(corpus_);
  m.patches = size(patches_);
  return m;
}

std::string GpuExecutor::MemoryLine() const {
  return FormatGpuMemory(Memory(), inputs_.size(), memory_bound_);
}

void GpuExecutor::LogMemory(const std::string& event) const {
  if (memory_log_) {
    memory_log_(absl::StrCat("INFO: ", MemoryLine(), " after ", event));
  }
}

absl::Status GpuExecutor::CheckGrowth(const std::string& what,
                                      uint64_t old_bytes, uint64_t new_bytes,
                                      const std::string& fix) const {
  const uint64_t range = device_.info().max_storage_buffer_range;
  if (new_bytes > range) {
    return absl::ResourceExhaustedError(
        absl::StrCat(what, " would need ", Mib(new_bytes),
                     ", more than the largest "
                     "storage buffer of ",
                     device_.info().name, " (maxStorageBufferRange ",
                     Mib(range), "). Fix: ", fix));
  }
  // Both are held while the new one is filled.
  const uint64_t peak = Memory().Total() + new_bytes;
  if (memory_bound_ != 0 && peak > memory_bound_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("growing ", what, " from ", Mib(old_bytes), " to ",
                     Mib(new_bytes), " would hold ", Mib(peak),
                     " of GPU memory (", MemoryLine(), "), over the bound of ",
                     Mib(memory_bound_), " (-gpu_memory_mb). Fix: ", fix));
  }
  return absl::OkStatus();
}

void GpuExecutor::WriteCorpusEntry(uint32_t index, uint64_t offset_words,
                                   ByteSpan input) {
  uint32_t* words = corpus_->words();
  const uint32_t n = WordsFor(input.size());
  std::memset(words + offset_words, 0, uint64_t{n} * 4);
  if (!input.empty())
    std::memcpy(words + offset_words, input.data(), input.size());
  words[2 * index] = static_cast<uint32_t>(offset_words);
  words[2 * index + 1] = static_cast<uint32_t>(input.size());
}

absl::StatusOr<uint32_t> GpuExecutor::AddInput(ByteSpan input) {
  if (input.size() > len_limit_) input = input.subspan(0, len_limit_);
  const uint32_t words = WordsFor(input.size());
  inputs_.emplace_back(input.begin(), input.end());
  const uint32_t index = static_cast<uint32_t>(inputs_.size() - 1);
  if (inputs_.size() > corpus_capacity_ ||
      corpus_cursor_ + words > DataStart() + corpus_data_words_) {
    // The flights in the air read the buffer this replaces.
    absl::Status usable = CheckUsable();
    if (absl::Status s = usable.ok() ? Quiesce() : usable; !s.ok()) {
      inputs_.pop_back();
      return s;
    }
    const uint64_t needed = corpus_cursor_ + words - DataStart();
    // Doubled, unless that passes the room left while the inputs alone
    // would fit.
    const uint64_t total = Memory().Total();
    uint64_t room = device_.info().max_storage_buffer_range;
    if (memory_bound_ != 0) {
      room = std::min(room, memory_bound_ > total ? memory_bound_ - total : 0);
    }
    const CorpusLayout grown =
        FitCorpusLayout(GrowCorpusLayout({corpus_capacity_, scratch_entries_,
                                          max_len_ / 4, corpus_data_words_},
                                         uint64_t{index} + 1, needed),
                        needed, room);
    absl::Status s =
        grown.capacity > UINT32_MAX
            ? absl::ResourceExhaustedError("the corpus holds 2^32 inputs")
            : RebuildCorpus(static_cast<uint32_t>(grown.capacity),
                            grown.data_words);
    if (!s.ok()) {
      inputs_.pop_back();
      return s;
    }
    return index;  // the rebuild wrote every entry, this one included
  }
  WriteCorpusEntry(index, corpus_cursor_, inputs_.back());
  corpus_cursor_ += words;
  return index;
}

absl::Status GpuExecutor::SetDictionary(const std::vector<Bytes>& tokens) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].empty() || tokens[i].size() > RF_DICT_MAX_BYTES) {
      return absl::InvalidArgumentError(absl::StrCat(
          "dictionary token ", i, " has ", tokens[i].size(),
          " bytes; tokens must have 1..", RF_DICT_MAX_BYTES, " bytes"));
    }
  }
  // One word of padding after the last entry: the flat mutation engine
  // reads a token's words in pairs.
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  if (absl::Status s = Quiesce(); !s.ok()) return s;
  const uint64_t bytes = DictionaryBytes(tokens.size());
  if (absl::Status s = CheckGrowth(
          absl::StrCat("the dictionary buffer (", tokens.size(), " tokens)"),
          dict_.size(), bytes,
          "use a smaller -dict file or raise "
          "-gpu_memory_mb");
      bytes > dict_.size() && !s.ok()) {
    return s;
  }
  if (bytes != dict_.size()) {
    absl::StatusOr<vk::Buffer> buffer = vk::Buffer::Create(device_, bytes);
    if (!buffer.ok()) return buffer.status();
    dict_ = *std::move(buffer);
    if (absl::Status s = BindAll(); !s.ok()) return s;
  }
  uint32_t* words = dict_.words();
  words[bytes / 4 - 1] = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    uint32_t* entry = words + i * RF_DICT_ENTRY_WORDS;
    std::memset(entry, 0, RF_DICT_ENTRY_WORDS * 4);
    entry[0] = static_cast<uint32_t>(tokens[i].size());
    std::memcpy(entry + 1, tokens[i].data(), tokens[i].size());
  }
  dict_count_ = static_cast<uint32_t>(tokens.size());
  return absl::OkStatus();
}

absl::Status GpuExecutor::CollectFinds(const uint32_t* counters,
                                       uint32_t parity, BatchResult& result,
                                       std::vector<Find>& candidates) {
  const uint32_t stored = std::min(counters[RF_RES_FIND_COUNT], find_capacity_);
  result.dropped_finds += counters[RF_RES_FIND_DROPPED];
  const InstrumentedModule& module = precise_->kernel.module;
  const vk::Buffer& queue = FindsOf(parity);
  DecodedFindQueue decoded = DecodeFindQueue(
      absl::MakeConstSpan(queue.words(), queue.size() / 4), stored, max_len_,
      {module.locations, module.bounds_sites});
  coverage_stale_ = true;
  if (!decoded.errors.empty()) {
    return absl::InternalError(absl::StrCat(
        "the find queue holds an entry the wire protocol does not define (",
        decoded.errors.front(), decoded.errors.size() > 1 ? ", and " : "",
        decoded.errors.size() > 1
            ? absl::StrCat(decoded.errors.size() - 1, " more")
            : "",
        "): a device fault or a megakernel bug; the inputs found so far are "
        "saved"));
  }
  const absl::Duration when =
      result.device_start.value_or(absl::ZeroDuration());
  for (std::vector<Find>* list : {&decoded.finds, &decoded.candidates}) {
    for (Find& find : *list) {
      if (find.data.size() > len_limit_) find.data.resize(len_limit_);
      find.device_clock = clock_fit_.Extend(find.device_clock, when);
    }
  }
  for (Find& find : decoded.finds) result.finds.push_back(std::move(find));
  for (Find& find : decoded.candidates) candidates.push_back(std::move(find));
  return absl::OkStatus();
}

void GpuExecutor::CollectMutatorUses(const uint32_t* uses,
                                     BatchResult& result) {
  result.mutator_executions.resize(RF_RES_MUTATOR_USE_WORDS);
  for (uint32_t id = 0; id < RF_RES_MUTATOR_USE_WORDS; ++id) {
    result.mutator_executions[id] += uses[id];
  }
}

GpuExecutor::PendingWork GpuExecutor::Pending(uint32_t slot_count,
                                              uint32_t parity) const {
  const uint32_t* ring = RingOf(parity).words();
  PendingWork pending;
  for (uint32_t s = 0; s < slot_count; ++s) {
    const uint32_t* slot = ring + uint64_t{s} * RF_SLOT_WORDS;
    const uint32_t status = slot[RF_SLOT_STATUS];
    const uint32_t* args = slot + RF_SLOT_ARG0;
    // The slot's mutants not run yet (left for a later dispatch, or not run
    // at all by a slot a cut ended).
    const uint32_t left =
        args[RF_ARG_COUNT] - std::min(args[RF_ARG_EXECS], args[RF_ARG_COUNT]);
    if (status == RF_STATUS_PUBLISHED || status == RF_STATUS_REQUEUE) {
      ++pending.slots;
      pending.executions += left;
    } else if (status == RF_STATUS_DONE) {
      pending.stopped_short += left;
    }
  }
  return pending;
}

void GpuExecutor::AddInterval(const vk::Dispatcher& dispatcher,
                              BatchResult& result) {
  const std::optional<vk::DeviceInterval> interval = dispatcher.LastInterval();
  if (!interval) return;
  if (!result.device_start || interval->start < *result.device_start) {
    result.device_start = interval->start;
  }
  if (!result.device_end || interval->end > *result.device_end) {
    result.device_end = interval->end;
  }
}

void GpuExecutor::AddInterval(const BatchResult& from, BatchResult& to) {
  if (from.device_start &&
      (!to.device_start || *from.device_start < *to.device_start)) {
    to.device_start = from.device_start;
  }
  if (from.device_end &&
      (!to.device_end || *from.device_end > *to.device_end)) {
    to.device_end = from.device_end;
  }
}

uint64_t GpuExecutor::RawClaimClock(uint32_t parity, uint32_t s) const {
  const uint32_t* ring = RingOf(parity).words();
  const uint64_t lo =
      SlotTailWord(ring_slots_, s, RF_TAIL_CLOCK_LO(kWorkgroupLanes));
  const uint64_t hi =
      SlotTailWord(ring_slots_, s, RF_TAIL_CLOCK_HI(kWorkgroupLanes));
  return uint64_t{ring[hi]} << 32 | ring[lo];
}

void GpuExecutor::CollectCosts(uint32_t slot_count, BatchResult& result,
                               uint32_t parity) {
  const uint32_t* ring = RingOf(parity).words();
  for (uint32_t s = 0; s < slot_count; ++s) {
    const uint32_t* slot = ring + uint64_t{s} * RF_SLOT_WORDS;
    const uint32_t* args = slot + RF_SLOT_ARG0;
    // Compare logs and calibrations run inputs unmutated: no parent's cost.
    if ((slot[RF_SLOT_STATUS] != RF_STATUS_DONE &&
         slot[RF_SLOT_STATUS] != RF_STATUS_FAULT) ||
        args[RF_ARG_EXECS] == 0 || args[RF_ARG_PARENT] >= inputs_.size() ||
        slot[RF_SLOT_OPCODE] == RF_OP_CMPLOG ||
        slot[RF_SLOT_OPCODE] == RF_OP_CALIBRATE) {
      continue;
    }
    const uint64_t raw = RawClaimClock(parity, s);
    // A slot that is not FAULT counts its cut mutants in FAULT_CODE.
    const uint32_t cuts =
        slot[RF_SLOT_STATUS] == RF_STATUS_DONE ? args[RF_ARG_FAULT_CODE] : 0;
    result.costs.push_back(
        {args[RF_ARG_PARENT], args[RF_ARG_EXECS], args[RF_ARG_STEPS],
         clock_fit_.Extend(raw,
                           result.device_start.value_or(absl::ZeroDuration())),
         cuts});
  }
  // The batch's earliest claim anchors the device clock to its start (the
  // same anchor again for each later dispatch of a batch).
  uint64_t first_tick = 0;
  for (const ParentCost& cost : result.costs) {
    if (cost.first_clock != 0 &&
        (first_tick == 0 || cost.first_clock < first_tick)) {
      first_tick = cost.first_clock;
    }
  }
  if (first_tick != 0 && result.device_start) {
    clock_fit_.Anchor(*result.device_start, first_tick);
    result.clock_tick_ns = clock_fit_.tick_ns();
  }
}

MegakernelPush GpuExecutor::MakePush(uint32_t slot_count, uint32_t seed) const {
  MegakernelPush push;
  push.seed = seed;
  push.slot_count = slot_count;
  push.find_capacity = find_capacity_;
  push.dict_count = dict_count_;
  push.step_budget = step_budget_;
  push.exec_steps = exec_steps_;
  push.max_len = len_limit_;
  push.mutation_bound = MutationStepBound(max_len_);
  push.flags = push_flags_;
  // The compare table is indexed by the precise build's sites (the
  // signature build may have no compare hooks).
  push.cmp_sites = precise_->kernel.module.compare_sites;
  push.corpus_count = static_cast<uint32_t>(inputs_.size());
  return push;
}

absl::Status GpuExecutor::Drain(Program& program, uint32_t slot_count,
                                uint64_t seed, BatchResult& result,
                                std::vector<Find>& candidates,
                                uint32_t parity) {
  uint32_t* ctrl = control_.words();
  vk::Dispatcher& dispatcher = DispatcherOf(program, parity);
  ctrl[RF_RES_STOP] = 0;
  ctrl[RF_RES_FAULTS] = 0;
  for (uint32_t round = 0;; ++round) {
    ctrl[RF_RES_EXECS] = 0;
    ctrl[RF_RES_CLAIM_CURSOR] = 0;
    ctrl[RF_CTRL_EPOCH] += 1;
    ctrl[RF_RES_FIND_COUNT] = 0;
    ctrl[RF_RES_FIND_DROPPED] = 0;
    std::fill(ctrl + RF_RES_MUTATOR_USES,
              ctrl + RF_RES_MUTATOR_USES + RF_RES_MUTATOR_USE_WORDS, 0u);
    const uint32_t done_before = ctrl[RF_CTRL_DONE_COUNT];
    MegakernelPush push = MakePush(
        slot_count,
        Mix(seed * 0x9E3779B97F4A7C15ull + round + (uint64_t{++epoch_} << 32)));
    if (replay_push_seed_) {
      push.seed = *replay_push_seed_;
      push.flags |= RF_PUSH_REPORT_ALL;  // a replay reports what it finds
    }
    if (cut_on_find_) push.flags |= RF_PUSH_CUT_ON_FIND;
    const uint32_t groups = std::min(slot_count, groups_);
    if (steered_ != nullptr) {
      steered_->OnDispatchStart(Wire(slot_count, push.seed, parity));
    }
    const absl::Time submit = absl::Now();
    absl::Status submitted = dispatcher.Submit(
        absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(&push),
                            sizeof(push)),
        groups);
    if (!submitted.ok()) return NoteLoss(submitted);
    absl::StatusOr<bool> finished =
        WaitForDispatch(dispatcher, slot_count, push.seed, parity);
    device_time_ += absl::Now() - submit;
    AddInterval(dispatcher, result);
    if (!finished.ok()) return NoteLoss(finished.status());
    if (!*finished) return Hung();
    result.executions += ctrl[RF_RES_EXECS];
    CollectMutatorUses(ctrl + RF_RES_MUTATOR_USES, result);
    if (absl::Status s = CollectFinds(ctrl, parity, result, candidates);
        !s.ok()) {
      return s;
    }
    const bool cut = ctrl[RF_CTRL_CUT_EPOCH] >= ctrl[RF_CTRL_EPOCH];
    NotifyEpochEnd(slot_count, push.seed, parity, nullptr, cut);
    if (host_stopped_) return absl::OkStatus();
    if (ctrl[RF_RES_STOP] != 0) return absl::OkStatus();
    if (stop_check_ && stoppable_ && stop_check_()) {
      host_stopped_ = true;
      return absl::OkStatus();
    }
    const PendingWork left = Pending(slot_count, parity);
    const uint32_t pending = left.slots;
    if (cut) {
      // Its unclaimed slots are dropped, and its claimed ones stopped.
      result.cut_executions += left.executions + left.stopped_short;
      return absl::OkStatus();
    }
    if (pending == 0) return absl::OkStatus();
    if (ctrl[RF_CTRL_DONE_COUNT] == done_before && ctrl[RF_RES_EXECS] == 0) {
      return absl::InternalError(absl::StrCat(
          pending,
          " ring slots stayed published through a whole dispatch: "
          "the megakernel makes no progress (are all tenants paused?)"));
    }
  }
}

void GpuExecutor::MarkPublished(uint32_t count, uint32_t parity) {
  uint32_t* ring = RingOf(parity).words();
  for (uint32_t s = 0; s < count; ++s) {
    ring[uint64_t{s} * RF_SLOT_WORDS + RF_SLOT_STATUS] = RF_STATUS_PUBLISHED;
  }
}

void GpuExecutor::PublishSlot(uint32_t s, const WorkItem& item, uint32_t seed,
                              uint32_t parity) {
  // Status EMPTY or DONE (PrepareToPublish): invisible to the GPU until
  // MarkPublished.
  uint32_t* slot = RingOf(parity).words() + uint64_t{s} * RF_SLOT_WORDS;
  slot[RF_SLOT_OPCODE] = item.opcode;
  slot[RF_SLOT_TENANT] = item.tenant;
  slot[RF_SLOT_PRIORITY] = item.priority;
  uint32_t* args = slot + RF_SLOT_ARG0;
  std::fill(args, args + RF_SLOT_ARG_COUNT, 0u);
  args[RF_ARG_TICKET] = item.ticket;
  args[RF_ARG_CLASS] = item.window_class;
  args[RF_ARG_PARENT] = item.parent;
  args[RF_ARG_COUNT] = item.count;
  args[RF_ARG_SEED] = seed;
  args[RF_ARG_PARTNER] = item.partner;
  // The shader applies the budget to mutating work kinds only.
  const uint32_t budget =
      item.parent < inputs_.size() ? mutant_budget_.For(item.parent) : 0;
  args[RF_ARG_STACK] = std::clamp<uint32_t>(item.stack, 1, kMaxStack) |
                       budget << RF_STACK_BUDGET_SHIFT;
}

absl::Status GpuExecutor::Calibrate(const std::vector<Find>& inputs,
                                    BatchResult& result) {
  steered_ = nullptr;
  // In byte order: neighbouring lanes of a SIMD vector then run inputs
  // that share their first bytes and so, mostly, their path through the
  // target (on lavapipe a vector runs the union of its lanes' paths).
  std::vector<uint32_t> order(inputs.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return inputs[a].data < inputs[b].data;
  });
  for (size_t first = 0; first < inputs.size(); first += scratch_entries_) {
    const uint32_t n = static_cast<uint32_t>(
        std::min<size_t>(scratch_entries_, inputs.size() - first));
    for (uint32_t i = 0; i < n; ++i) {
      WriteCorpusEntry(corpus_capacity_ + i, ScratchOffset(i),
                       inputs[order[first + i]].data);
    }
    absl::StatusOr<uint32_t> published =
        PublishInputRuns(RF_OP_CALIBRATE, corpus_capacity_, n);
    if (!published.ok()) return published.status();
    BatchResult evaluated;
    std::vector<Find> unused;
    if (absl::Status s = Drain(*precise_, *published, 0, evaluated, unused);
        !s.ok()) {
      return s;
    }
    // Report each find as made by the mutation that produced its input.
    for (Find& find : evaluated.finds) {
      const uint32_t i = find.parent - corpus_capacity_;
      if (i < n) {
        const Find& input = inputs[order[first + i]];
        find.parent = input.parent;
        find.opcode = input.opcode;
        find.mutations = input.mutations;
        find.host_trial = input.host_trial;
        find.device_clock = input.device_clock;
      }
      result.finds.push_back(std::move(find));
    }
    candidates_evaluated_ += n;
  }
  return absl::OkStatus();
}

namespace {

// Work that a round cut short still runs (RF_CTRL_CUT_EPOCH).
bool IsUrgentItem(const WorkItem& item) {
  return item.priority <= RF_PRIORITY_HIGH;
}

}  // namespace

absl::StatusOr<BatchResult> GpuExecutor::RunBatch(
    absl::Span<const WorkItem> work, uint64_t seed) {
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  if (absl::Status s = Quiesce(); !s.ok()) return s;
  BatchResult result;
  host_stopped_ = false;
  const absl::Duration device_before = device_time_;
  // CMP items draw from their parent's own patches: inputs added since the
  // last batch are logged before any item runs.
  std::vector<Find> candidates;  // length trials, then signature finds
  BatchResult log_span;          // the compare-log dispatches' interval
  if (absl::Status s = LogNewInputs(candidates, result, log_span); !s.ok()) {
    return s;
  }
  // Trials queued for overlapped rounds (StartRepeatTrials' too) run with
  // this batch's candidates.
  if (pending_trials_.urgent() != 0) {
    size_t urgent = 0;
    for (Find& trial : pending_trials_.Take(pending_trials_.urgent(), urgent)) {
      candidates.push_back(std::move(trial));
    }
  }
  // With a havoc-only build, its items run first (in their order), then the
  // others on the full build: each dispatch runs one build.
  std::vector<WorkItem> ordered;
  size_t havoc_items = 0;
  if (havoc_ != nullptr) {
    ordered.assign(work.begin(), work.end());
    havoc_items = std::stable_partition(ordered.begin(), ordered.end(),
                                        [](const WorkItem& item) {
                                          return IsHavocClass(item.opcode);
                                        }) -
                  ordered.begin();
    work = ordered;
  }
  // Once a dispatch was cut on an urgent find, the later ones run only
  // their CRITICAL and HIGH slots (new entries' first mutants, whose CMP
  // items are not havoc-class): they are cut from the start.
  bool cut = false;
  uint32_t* ctrl = control_.words();
  for (size_t first = 0; first < work.size();) {
    const size_t end = first < havoc_items ? havoc_items : work.size();
    const uint32_t count =
        static_cast<uint32_t>(std::min<size_t>(ring_slots_, end - first));
    Program& program = ProgramFor(work[first].opcode);
    const absl::Span<const WorkItem> items = work.subspan(first, count);
    if (cut && std::none_of(items.begin(), items.end(), IsUrgentItem)) {
      for (const WorkItem& item : items) result.cut_executions += item.count;
      first += count;
      continue;
    }
    for (uint32_t s = 0; s < count; ++s) {
      const WorkItem& item = work[first + s];
      if (item.parent >= inputs_.size() ||
          (item.opcode == RF_OP_SPLICE && item.partner >= inputs_.size())) {
        return absl::InvalidArgumentError(
            absl::StrCat("work item names corpus entry ",
                         std::max(item.parent, item.partner),
                         " but the executor holds ", inputs_.size()));
      }
      if (s == 0) {
        if (absl::Status p = PrepareToPublish(ring_.words(), count); !p.ok()) {
          return p;
        }
      }
      PublishSlot(s, item, Mix(seed + first + s));
    }
    const auto partitions = PriorityPartitions(items);
    std::copy(partitions.begin(), partitions.end(),
              ctrl + RF_CTRL_PRIORITY_PARTITIONS);
    MarkPublished(count);
    // (Drain's dispatch takes the next epoch.)
    if (cut) ctrl[RF_CTRL_CUT_EPOCH] = ctrl[RF_CTRL_EPOCH] + 1;
    steered_ = observer_;
    stoppable_ = true;
    cut_on_find_ = cut_rounds_;
    absl::Status drained =
        Drain(program, count, seed + first, result, candidates);
    cut_on_find_ = false;
    stoppable_ = false;
    steered_ = nullptr;
    if (!drained.ok()) return drained;
    CollectCosts(count, result);
    if (ctrl[RF_RES_STOP] != 0 || host_stopped_) break;
    cut = cut || ctrl[RF_CTRL_CUT_EPOCH] >= ctrl[RF_CTRL_EPOCH];
    first += count;
  }
  // The length trials and the candidates of all the batch's dispatches,
  // evaluated in one: on lavapipe each dispatch of the precise build costs
  // milliseconds of fixed work, however few its inputs.
  if (!candidates.empty()) {
    if (absl::Status s = Calibrate(candidates, result); !s.ok()) return s;
  }
  // The batch's interval covers its compare logs too (their colored
  // copies' finds are the batch's), added after CollectCosts has anchored
  // the device clock at the work's first dispatch.
  AddInterval(log_span, result);
  result.device_time = device_time_ - device_before;
  ObserveCosts(result);
  return result;
}

void GpuExecutor::ObserveCosts(const BatchResult& result) {
  for (const ParentCost& cost : result.costs) {
    mutant_budget_.Observe(cost.parent, cost.executions, cost.steps, cost.cuts);
  }
}

// See PublishInputRuns.
constexpr uint32_t kCpuInputsPerLane = 8;

absl::StatusOr<uint32_t> GpuExecutor::PublishInputRuns(uint32_t opcode,
                                                       uint32_t first,
                                                       uint32_t n) {
  const InputRange range{first, n, 0};
  return PublishInputRuns(opcode, absl::MakeConstSpan(&range, 1));
}

absl::StatusOr<uint32_t> GpuExecutor::PublishInputRuns(
    uint32_t opcode, absl::Span<const InputRange> ranges) {
  // In contiguous ranges, one slot per workgroup's worth of inputs (a slot
  // runs on one workgroup): on a GPU each its own, so that they spread over
  // the device. On a CPU device (lavapipe, a workgroup on one core) a
  // slot's fixed cost is tens of microseconds, so slots take up to
  // kCpuInputsPerLane inputs per invocation, but as many slots as the
  // device has threads.
  uint32_t n = 0;
  for (const InputRange& range : ranges) n += range.n;
  const uint32_t local_size = precise_->kernel.local_size;
  const uint32_t workgroups = (n + local_size - 1) / local_size;
  uint32_t wanted = workgroups;
  if (device_.info().is_cpu) {
    const uint32_t threads =
        std::max<uint32_t>(std::thread::hardware_concurrency(), 1);
    wanted = std::max(std::min(threads, workgroups),
                      (workgroups + kCpuInputsPerLane - 1) / kCpuInputsPerLane);
  }
  // At least a slot per range that has inputs.
  uint32_t nonempty = 0;
  for (const InputRange& range : ranges) nonempty += range.n != 0 ? 1 : 0;
  const uint32_t limit = std::min(ring_slots_, groups_);
  if (nonempty > limit) {
    return absl::InternalError(
        absl::StrCat(nonempty, " input ranges for ", limit, " slots"));
  }
  const uint32_t slots =
      std::clamp<uint32_t>(wanted, std::max(nonempty, 1u), limit);
  // Each range rounds its last slot up: more inputs per slot until the
  // ranges fit the slots.
  uint32_t per_slot = std::max<uint32_t>((n + slots - 1) / slots, 1);
  auto slots_needed = [&] {
    uint32_t needed = 0;
    for (const InputRange& range : ranges) {
      needed += (range.n + per_slot - 1) / per_slot;
    }
    return needed;
  };
  while (slots_needed() > slots) ++per_slot;
  std::vector<WorkItem> items;
  for (const InputRange& range : ranges) {
    for (const WorkItem& item : InputRuns(opcode, range, per_slot)) {
      items.push_back(item);
    }
  }
  const uint32_t count = static_cast<uint32_t>(items.size());
  if (absl::Status s = PrepareToPublish(ring_.words(), count); !s.ok()) {
    return s;
  }
  for (uint32_t s = 0; s < count; ++s) PublishSlot(s, items[s], 0);
  MarkPublished(count);
  return count;
}

std::vector<WorkItem> GpuExecutor::InputRuns(uint32_t opcode, InputRange range,
                                             uint32_t per_slot) {
  std::vector<WorkItem> items;
  for (uint32_t start = 0; start < range.n; start += per_slot) {
    WorkItem item;
    item.opcode = opcode;
    item.parent = range.first + start;
    // RF_OP_CMPLOG: the log entry of its first input.
    item.partner = range.log_base + start;
    item.count = std::min(per_slot, range.n - start);
    item.priority = RF_PRIORITY_CRITICAL;
    items.push_back(item);
  }
  return items;
}

uint32_t GpuExecutor::PlanColorCopies(uint32_t first, uint32_t most,
                                      uint32_t log_room, uint32_t scratch_room,
                                      ColorCopies& copies) {
  copies = ColorCopies();
  uint32_t n = 0;
  while (n < most && n + 1 + copies.size() <= log_room) {
    const Bytes& input = inputs_[first + n];
    std::vector<ByteRange> ranges;
    if (colorize_ && input.size() <= kMaxColorLength) {
      ranges = ColorRanges(input.size());
    }
    const uint32_t more = static_cast<uint32_t>(ranges.size());
    if (n + 1 + copies.size() + more > log_room ||
        copies.size() + more > scratch_room) {
      // The input waits for a dispatch with room for its copies, unless it
      // would be alone there, or no copy has room.
      if (n > 0 && scratch_room > 0) break;
      ranges.clear();
    }
    for (const ByteRange& range : ranges) {
      copies.input.push_back(n);
      copies.range.push_back(range);
      // Seeded by the input's place in the corpus: runs with one -seed
      // color alike.
      copies.data.push_back(ColoredCopy(input, range, first + n));
    }
    ++n;
  }
  for (uint32_t j = 0; j < copies.size(); ++j) {
    WriteCorpusEntry(corpus_capacity_ + j, ScratchOffset(j), copies.data[j]);
  }
  return n;
}

uint32_t GpuExecutor::PlanProbeCopies(uint32_t most, uint32_t log_room,
                                      uint32_t scratch_room,
                                      ColorCopies& copies, uint32_t& first) {
  copies = ColorCopies();
  // The positions input `index` is probed at: none where probing is off,
  // the input too long or its colored copies showed no byte a probe could
  // tell about (LinearProbeWanted), and such inputs need no pass.
  auto wanted = [&](uint32_t index) {
    return index >= probe_wanted_.size() || probe_wanted_[index];
  };
  auto positions_of = [&](uint32_t index) {
    return colorize_ && wanted(index) &&
                   inputs_[index].size() <= kMaxColorLength
               ? LinearProbePositions(inputs_[index].size())
               : std::vector<uint32_t>();
  };
  for (; probe_queued_ < logged_inputs_; ++probe_queued_) {
    probe_waiting_.push_back(probe_queued_);
  }
  // The newest input that waits for a pass; newer ones without probes
  // need none.
  while (!probe_waiting_.empty() &&
         positions_of(probe_waiting_.back()).empty()) {
    const uint32_t index = probe_waiting_.back();
    probe_waiting_.pop_back();
    if (colorize_ && !wanted(index)) ++probes_skipped_;
    ++probed_inputs_;
  }
  if (probe_waiting_.empty()) return 0;
  const uint32_t last = probe_waiting_.back() + 1;
  first = last;
  // Older ones just before it, while they wait too and there is room.
  uint32_t runs = 0;
  uint32_t scratch = 0;
  while (!probe_waiting_.empty() && probe_waiting_.back() + 1 == first &&
         last - first < most) {
    const uint32_t more = static_cast<uint32_t>(positions_of(first - 1).size());
    if (runs + 1 + more > log_room || scratch + more > scratch_room) break;
    runs += 1 + more;
    scratch += more;
    --first;
    probe_waiting_.pop_back();
  }
  const uint32_t n = last - first;
  for (uint32_t k = 0; k < n; ++k) {
    for (const uint32_t p : positions_of(first + k)) {
      copies.input.push_back(k);
      copies.range.push_back({p, p + 1});
      copies.data.push_back(ProbeCopy(inputs_[first + k], p));
    }
  }
  for (uint32_t j = 0; j < copies.size(); ++j) {
    WriteCorpusEntry(corpus_capacity_ + j, ScratchOffset(j), copies.data[j]);
  }
  probe_passes_ += n;
  return n;
}

void GpuExecutor::PutBackProbes(uint32_t first, uint32_t n) {
  const auto at =
      std::lower_bound(probe_waiting_.begin(), probe_waiting_.end(), first);
  const auto block = probe_waiting_.insert(at, n, first);
  std::iota(block, block + n, first);
}

void GpuExecutor::KeepCopyFinds(std::vector<Find>& from, uint32_t first,
                                const ColorCopies& copies,
                                std::vector<Find>& to) const {
  for (Find& find : from) {
    if (find.parent < corpus_capacity_) continue;  // a corpus input again
    const uint32_t j = find.parent - corpus_capacity_;
    if (j >= copies.size()) continue;
    find.parent = first + copies.input[j];
    find.opcode = RF_OP_CMPLOG;
    find.mutations.clear();
    to.push_back(std::move(find));
  }
}

absl::Status GpuExecutor::LogWithCopies(uint32_t first, uint32_t n,
                                        const ColorCopies& copies,
                                        BatchResult& result,
                                        BatchResult& span) {
  const InputRange ranges[] = {{first, n, 0},
                               {corpus_capacity_, copies.size(), n}};
  absl::StatusOr<uint32_t> published = PublishInputRuns(
      RF_OP_CMPLOG, absl::MakeConstSpan(ranges, copies.size() != 0 ? 2 : 1));
  if (!published.ok()) return published.status();
  BatchResult logged;
  std::vector<Find> unused;
  if (absl::Status s = Drain(*precise_, *published, 0, logged, unused);
      !s.ok()) {
    return s;
  }
  AddInterval(logged, span);
  KeepCopyFinds(logged.finds, first, copies, result.finds);
  return absl::OkStatus();
}

absl::Status GpuExecutor::LogNewInputs(std::vector<Find>& resized,
                                       BatchResult& result, BatchResult& span) {
  steered_ = nullptr;
  const bool logged_any = logged_inputs_ < inputs_.size();
  while (logged_inputs_ < inputs_.size()) {
    const uint32_t first = logged_inputs_;
    ColorCopies copies;
    // The copies take a second range of slots.
    const bool room = std::min(ring_slots_, groups_) >= 2;
    const uint32_t n =
        PlanColorCopies(first, static_cast<uint32_t>(inputs_.size() - first),
                        log_capacity_, room ? scratch_entries_ : 0, copies);
    if (absl::Status s = LogWithCopies(first, n, copies, result, span);
        !s.ok()) {
      return s;
    }
    DeriveFromLogs(first, n, copies, resized);
    if (absl::Status s = UploadPatches(first); !s.ok()) return s;
    logged_inputs_ = first + n;
  }
  // A probe pass (fuzz/gpu/linear_to_state.h) of kProbedInputsPerFlight
  // inputs, in a batch that logged none: probes feed trials only, and a
  // burst of new inputs must not wait for them.
  const bool room = std::min(ring_slots_, groups_) >= 2;
  if (!logged_any && room && probed_inputs_ < logged_inputs_) {
    ColorCopies copies;
    uint32_t first = 0;
    const uint32_t n = PlanProbeCopies(kProbedInputsPerFlight, log_capacity_,
                                       scratch_entries_, copies, first);
    if (n == 0) return absl::OkStatus();
    if (absl::Status s = LogWithCopies(first, n, copies, result, span);
        !s.ok()) {
      PutBackProbes(first, n);
      return s;
    }
    DeriveLinearFromLogs(first, n, copies, resized);
    probed_inputs_ += n;
  }
  return absl::OkStatus();
}

namespace {

// A trial of corpus input `parent`, made on the host by `mutator`: it runs
// as CMP work (the megakernel has no opcode of its own for it).
Find HostTrial(Bytes data, uint32_t parent, uint32_t mutator) {
  Find trial;
  trial.data = std::move(data);
  trial.parent = parent;
  trial.opcode = RF_OP_CMP;
  trial.mutations = {mutator};
  trial.host_trial = true;
  return trial;
}

}  // namespace

void GpuExecutor::DeriveFromLogs(uint32_t first, uint32_t n,
                                 const ColorCopies& copies,
                                 std::vector<Find>& trials) {
  // What each input's own log gives, derived for the inputs in parallel (a
  // burst of tens of new inputs took milliseconds on one thread, while the
  // device waited for the next round), then appended in input order.
  struct Derived {
    std::vector<InputPatch> patches;
    std::vector<size_t> lengths;
    std::vector<Bytes> texts;
    std::vector<Bytes> varints;
    std::vector<Bytes> escapes;
    std::vector<Bytes> strings;
    bool probe = true;  // LinearProbeWanted
  };
  std::vector<Derived> derived(n);
  // Input k's copies are copies [copy_start[k], copy_start[k + 1]): they
  // are made in input order.
  std::vector<uint32_t> copy_start(n + 1);
  for (uint32_t k = 0; k <= n; ++k) {
    copy_start[k] = static_cast<uint32_t>(
        std::lower_bound(copies.input.begin(), copies.input.end(), k) -
        copies.input.begin());
  }
  ParallelFor(n, kInputsPerDeriveTask, [&](size_t k) {
    std::vector<CompareRecord> records_of_input;
    const uint32_t made =
        ReadLogEntry(static_cast<uint32_t>(k), records_of_input);
    const Bytes& input = inputs_[first + k];
    std::optional<ColorEvidence> color;
    if (copy_start[k] < copy_start[k + 1]) {
      const uint32_t count = copy_start[k + 1] - copy_start[k];
      std::vector<std::vector<CompareRecord>> logs(count);
      std::vector<ColoredRun> runs(count);
      for (uint32_t i = 0; i < count; ++i) {
        const uint32_t j = copy_start[k] + i;
        runs[i].made = ReadLogEntry(n + j, logs[i]);
        runs[i].range = copies.range[j];
        runs[i].data = copies.data[j];
        runs[i].log = logs[i];
      }
      color = Colorize(input, records_of_input, made, runs);
    }
    const ColorEvidence* evidence = color.has_value() ? &*color : nullptr;
    derived[k].probe = LinearProbeWanted(input.size(), evidence);
    derived[k].patches = DeriveInputToStatePatches(
        input, records_of_input, kMaxPatchesPerInput, evidence);
    derived[k].lengths = DeriveLengthsToTry(input.size(), records_of_input,
                                            len_limit_, kMaxLengthsPerInput);
    derived[k].texts = DeriveTextToState(input, records_of_input, len_limit_,
                                         kMaxTextTrialsPerInput);
    derived[k].varints = DeriveVarintToState(
        input, records_of_input, len_limit_, kMaxVarintTrialsPerInput);
    derived[k].escapes = DeriveEscapeToState(
        input, records_of_input, len_limit_, kMaxEscapeTrialsPerInput);
    derived[k].strings = DeriveStringToState(
        input, records_of_input, kernel().module.byte_strings, len_limit_,
        kMaxStringTrialsPerInput);
  });
  if (probe_wanted_.size() < first + n) probe_wanted_.resize(first + n, true);
  for (uint32_t k = 0; k < n; ++k) {
    probe_wanted_[first + k] = derived[k].probe;
    const Bytes& input = inputs_[first + k];
    auto add_trial = [&](Bytes data, uint32_t mutator) {
      trials.push_back(HostTrial(std::move(data), first + k, mutator));
    };
    for (size_t length : derived[k].lengths) {
      add_trial(ResizeInput(input, length), RF_MUT_LENGTH);
    }
    for (Bytes& text : derived[k].texts) {
      add_trial(std::move(text), RF_MUT_TEXT);
    }
    for (Bytes& varint : derived[k].varints) {
      add_trial(std::move(varint), RF_MUT_VARINT);
    }
    // Escapes are text rewritten with a compared value too.
    for (Bytes& escape : derived[k].escapes) {
      add_trial(std::move(escape), RF_MUT_TEXT);
    }
    // Strings are compared operands written where the input feeds them.
    for (Bytes& string : derived[k].strings) {
      add_trial(std::move(string), RF_MUT_CMP);
    }
    if (repeat_trials_) AddRepeatTrials(first + k, trials);
    if (patches_capped_) derived[k].patches.clear();
    patch_index_.push_back(static_cast<uint32_t>(patch_data_.size()));
    patch_index_.push_back(static_cast<uint32_t>(derived[k].patches.size()));
    for (const InputPatch& patch : derived[k].patches) {
      patch_data_.push_back(RF_PATCH_HEAD(patch.position, patch.width));
      patch_data_.push_back(patch.value);
    }
  }
}

uint32_t GpuExecutor::ReadLogEntry(uint32_t e,
                                   std::vector<CompareRecord>& records) const {
  return ReadCompareLog(
      absl::MakeConstSpan(cmplog_.words() + uint64_t{e} * RF_CMPLOG_ENTRY_WORDS,
                          RF_CMPLOG_ENTRY_WORDS),
      records);
}

void GpuExecutor::DeriveLinearFromLogs(uint32_t first, uint32_t n,
                                       const ColorCopies& copies,
                                       std::vector<Find>& trials) {
  std::vector<std::vector<Bytes>> solved(n);
  ParallelFor(n, kInputsPerDeriveTask, [&](size_t k) {
    const uint32_t input = static_cast<uint32_t>(k);
    std::vector<CompareRecord> records_of_input;
    const uint32_t made = ReadLogEntry(input, records_of_input);
    // Input k's probes are copies [start, start + count): made in input
    // order.
    const auto begin =
        std::lower_bound(copies.input.begin(), copies.input.end(), input);
    const auto end = std::upper_bound(begin, copies.input.end(), input);
    const uint32_t start = static_cast<uint32_t>(begin - copies.input.begin());
    const uint32_t count = static_cast<uint32_t>(end - begin);
    std::vector<std::vector<CompareRecord>> logs(count);
    std::vector<ProbeRun> probes(count);
    for (uint32_t i = 0; i < count; ++i) {
      probes[i].made = ReadLogEntry(n + start + i, logs[i]);
      probes[i].position = copies.range[start + i].begin;
      probes[i].log = logs[i];
    }
    solved[k] = DeriveLinearToState(inputs_[first + k], records_of_input, made,
                                    probes, kMaxLinearTrialsPerInput);
  });
  for (uint32_t k = 0; k < n; ++k) {
    linear_trials_ += solved[k].size();
    // Written from the input's own comparisons, as CMP patches are.
    for (Bytes& data : solved[k]) {
      trials.push_back(HostTrial(std::move(data), first + k, RF_MUT_CMP));
    }
  }
}

void GpuExecutor::AddRepeatTrials(uint32_t index, std::vector<Find>& trials) {
  if (repeat_trials_made_ >= repeat_trial_cap_) return;
  // Whole copies of the input (or of its tail after a header) inserted
  // after it: libFuzzer's CopyPart at its largest.
  for (Bytes& repeat : DeriveRepeats(inputs_[index], len_limit_)) {
    if (repeat_trials_made_ == repeat_trial_cap_) break;
    trials.push_back(HostTrial(std::move(repeat), index, RF_MUT_DUPLICATE));
    ++repeat_trials_made_;
  }
}

bool GpuExecutor::StartRepeatTrials() {
  if (repeat_trials_) return false;
  repeat_trials_ = true;
  std::vector<Find> trials;
  for (uint32_t i = 0; i < logged_inputs_; ++i) AddRepeatTrials(i, trials);
  for (Find& trial : trials) pending_trials_.AddTrial(std::move(trial));
  return true;
}

absl::Status GpuExecutor::ReservePatches(uint32_t inputs, uint64_t data_words) {
  if (patches_ != nullptr && inputs <= patch_index_capacity_ &&
      data_words <= patch_data_capacity_) {
    return absl::OkStatus();
  }
  // The flights in the air read the buffer this replaces.
  if (absl::Status s = Quiesce(); !s.ok()) return s;
  // Each part doubles on its own, as the corpus buffer's.
  const uint64_t index_capacity =
      GrowCapacity(patch_index_capacity_, inputs, patch_start_inputs_);
  const uint64_t data_capacity =
      GrowCapacity(patch_data_capacity_, data_words, patch_start_words_);
  const uint64_t bytes = PatchBufferBytes(index_capacity, data_capacity);
  if (absl::Status s = CheckGrowth(
          absl::StrCat("the patch buffer (for ", index_capacity, " inputs)"),
          patches_ != nullptr ? patches_->size() : 0, bytes,
          "raise -gpu_memory_mb, or fuzz a smaller corpus (-merge=1 into an "
          "empty directory keeps the inputs that add coverage)");
      !s.ok()) {
    return s;
  }
  if (index_capacity > UINT32_MAX) {
    return absl::ResourceExhaustedError("the patch index holds 2^32 inputs");
  }
  absl::StatusOr<vk::Buffer> buffer = vk::Buffer::Create(device_, bytes);
  if (!buffer.ok()) return buffer.status();
  const bool grew = patches_ != nullptr;
  patches_ = std::make_unique<vk::Buffer>(*std::move(buffer));
  patch_index_capacity_ = static_cast<uint32_t>(index_capacity);
  patch_data_capacity_ = data_capacity;
  std::memset(patches_->words(), 0,
              RF_PATCH_INDEX_WORDS(uint64_t{index_capacity}) * 4);
  if (corpus_ != nullptr) {
    if (absl::Status s = BindAll(); !s.ok()) return s;
  }
  if (grew) {
    LogMemory(
        absl::StrCat("the patch buffer grew for ", index_capacity, " inputs"));
  }
  return UploadPatches(0);
}

void GpuExecutor::CapPatches(uint32_t first, const absl::Status& why) {
  if (!patches_capped_ && memory_log_) {
    memory_log_(absl::StrCat(
        "WARNING: new corpus inputs get no input-to-state patches from now "
        "on (their CMP mutants run as havoc): ",
        why.message()));
  }
  patches_capped_ = true;
  const uint32_t inputs = static_cast<uint32_t>(patch_index_.size() / 2);
  if (first >= inputs) return;
  patch_data_.resize(patch_index_[2 * first]);
  for (uint32_t i = first; i < inputs; ++i) {
    patch_index_[2 * i] = static_cast<uint32_t>(patch_data_.size());
    patch_index_[2 * i + 1] = 0;
  }
}

absl::Status GpuExecutor::UploadPatches(uint32_t first_input) {
  const uint32_t inputs = static_cast<uint32_t>(patch_index_.size() / 2);
  if (patches_ == nullptr || inputs > patch_index_capacity_ ||
      patch_data_.size() > patch_data_capacity_) {
    // Rewrites every entry.
    absl::Status s = ReservePatches(inputs, patch_data_.size());
    if (s.code() != absl::StatusCode::kResourceExhausted) return s;
    // No room for these inputs' patches: they go without (the index still
    // needs room, or the campaign cannot go on).
    CapPatches(first_input, s);
    return ReservePatches(inputs, patch_data_.size());
  }
  uint32_t* words = patches_->words();
  const uint64_t data_start =
      RF_PATCH_INDEX_WORDS(uint64_t{patch_index_capacity_});
  for (uint32_t i = first_input; i < inputs; ++i) {
    const uint32_t offset = patch_index_[2 * i];
    const uint32_t count = patch_index_[2 * i + 1];
    std::copy(patch_data_.begin() + offset,
              patch_data_.begin() + offset + uint64_t{count} * RF_PATCH_WORDS,
              words + data_start + offset);
    words[2 * i] = static_cast<uint32_t>(data_start + offset);
    words[2 * i + 1] = count;
  }
  return absl::OkStatus();
}

std::vector<InputPatch> GpuExecutor::InputToStatePatches(uint32_t index) const {
  std::vector<InputPatch> out;
  if (index >= logged_inputs_) return out;
  const uint32_t offset = patch_index_[2 * index];
  const uint32_t count = patch_index_[2 * index + 1];
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t head = patch_data_[offset + RF_PATCH_WORDS * k];
    out.push_back({RF_PATCH_POSITION(head), RF_PATCH_WIDTH(head),
                   patch_data_[offset + RF_PATCH_WORDS * k + 1]});
  }
  return out;
}

absl::StatusOr<BatchResult> GpuExecutor::Execute(ByteSpan input) {
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  if (absl::Status s = Quiesce(); !s.ok()) return s;
  if (input.size() > len_limit_) input = input.subspan(0, len_limit_);
  Find find;
  find.data.assign(input.begin(), input.end());
  BatchResult result;
  if (absl::Status s = Calibrate({find}, result); !s.ok()) return s;
  result.executions = 1;
  for (Find& f : result.finds) f.parent = 0;
  return result;
}

CoverageSummary GpuExecutor::Coverage() const {
  // Recounted once per dispatch round at most: on a discrete GPU the maps
  // live in device memory, which the host reads uncached over PCIe.
  if (!coverage_stale_) return coverage_;
  const uint32_t* ctrl = control_.words();
  coverage_ = CountCoverage(ctrl + RF_RES_EDGE_MAP, ctrl + RF_RES_SITE_MAP);
  coverage_stale_ = false;
  return coverage_;
}

CoverageSummary GpuExecutor::CountCoverage(const uint32_t* edge_map,
                                           const uint32_t* site_map) {
  CoverageSummary summary;
  for (uint32_t w = 0; w < RF_EDGE_MAP_WORDS; ++w) {
    summary.features += __builtin_popcount(edge_map[w]);
  }
  for (uint32_t w = 0; w < RF_SITE_MAP_WORDS; ++w) {
    summary.blocks += __builtin_popcount(site_map[w]);
  }
  return summary;
}

std::vector<bool> GpuExecutor::CoveredSites() const {
  const uint32_t* ctrl = control_.words();
  std::vector<bool> covered(kernel().module.sites.size());
  for (size_t i = 0; i < covered.size(); ++i) {
    covered[i] = (ctrl[RF_RES_SITE_MAP + i / 32] >> (i % 32)) & 1u;
  }
  return covered;
}

absl::StatusOr<std::vector<LineCoverage>> GpuExecutor::Lines() const {
  const std::vector<SiteLocation>& sites = kernel().module.sites;
  const std::vector<bool> covered = CoveredSites();
  std::map<std::pair<std::string, uint32_t>, bool> lines;
  for (size_t i = 0; i < sites.size(); ++i) {
    for (uint32_t line : sites[i].lines) {
      bool& reached = lines[{sites[i].file, line}];
      reached = reached || covered[i];
    }
  }
  std::vector<LineCoverage> out;
  out.reserve(lines.size());
  for (const auto& [key, reached] : lines) {
    out.push_back({key.first, key.second, reached});
  }
  return out;
}

namespace {

// The little-endian bytes of `value` in the fewest of 2 or 4 bytes, and the
// big-endian ones too; values below 0x100 give nothing (a single byte is
// found quickly by havoc).
void AddValueTokens(uint32_t value, std::set<Bytes>& tokens) {
  if (value < 0x100u) return;
  const size_t width = value < 0x10000u ? 2 : 4;
  Bytes little, big;
  for (size_t k = 0; k < width; ++k) {
    little.push_back(static_cast<uint8_t>(value >> (8 * k)));
    big.push_back(static_cast<uint8_t>(value >> (8 * (width - 1 - k))));
  }
  tokens.insert(little);
  tokens.insert(big);
}

}  // namespace

std::vector<Bytes> GpuExecutor::AutoDictionary() const {
  std::set<Bytes> tokens;
  for (uint32_t value : kernel().module.compare_constants) {
    AddValueTokens(value, tokens);
  }
  for (const std::vector<uint8_t>& bytes : kernel().module.byte_strings) {
    tokens.insert(Bytes(bytes.begin(), bytes.end()));
  }
  return {tokens.begin(), tokens.end()};
}

std::vector<Bytes> GpuExecutor::RecommendedDictionary() const {
  std::set<Bytes> tokens;
  const absl::Span<const uint32_t> table(
      control_.words() + RF_RES_CMP,
      size_t{RF_CMP_ENTRIES} * RF_CMP_ENTRY_WORDS);
  for (const ComparePair& pair :
       DecodeCompareTable(table, kernel().module.compare_sites)) {
    AddValueTokens(pair.a, tokens);
    AddValueTokens(pair.b, tokens);
  }
  return {tokens.begin(), tokens.end()};
}

absl::Span<const uint8_t> GpuExecutor::ring_bytes() const {
  return ring_.bytes().subspan(0, uint64_t{ring_slots_} * RF_SLOT_BYTES);
}

std::string GpuExecutor::DeviceDescription() const {
  return vk::Describe(device_.info());
}

uint64_t GpuExecutor::validation_messages() const {
  return instance_.validation_messages();
}

std::string GpuExecutor::last_validation_message() const {
  return instance_.last_validation_message();
}

BatchShape GpuExecutor::PreferredBatch() const {
  if (device_.info().is_cpu) {
    return {std::min(ring_slots_, kCpuBatchSlots), kCpuSlotExecs};
  }
  return {ring_slots_, kLocalSize * 1024};
}

// ---------------------------------------------------------------------------
// Telemetry and steering.

WireView GpuExecutor::Wire(uint32_t slot_count, uint32_t push_seed,
                           uint32_t parity, const uint32_t* control) const {
  // Observers get host copies, taken with one memcpy each: on a discrete GPU
  // the buffers are device memory behind the PCIe BAR, where every word the
  // decoders read one at a time would be an uncached round trip. The
  // control copy holds the wire protocol's words and the result header, all
  // the telemetry reads.
  const size_t control_bytes =
      std::min<size_t>(control_.bytes().size(),
                       size_t{RF_CTRL_RESULT_BASE + RF_RES_HEADER_WORDS} * 4);
  const vk::Buffer& ring = RingOf(parity);
  const size_t ring_bytes = std::min<size_t>(
      uint64_t{slot_count} * RF_SLOT_BYTES, ring.bytes().size());
  control_copy_.resize(control_bytes);
  ring_copy_.resize(ring_bytes);
  std::memcpy(
      control_copy_.data(),
      control != nullptr ? static_cast<const void*>(control) : control_.data(),
      control_bytes);
  if (ring_bytes != 0) std::memcpy(ring_copy_.data(), ring.data(), ring_bytes);
  WireView wire;
  wire.control = control_copy_;
  wire.ring = ring_copy_;
  wire.push_seed = push_seed;
  return wire;
}

absl::StatusOr<bool> GpuExecutor::WaitForDispatch(vk::Dispatcher& dispatcher,
                                                  uint32_t slot_count,
                                                  uint32_t push_seed,
                                                  uint32_t parity) {
  const bool check = stop_check_ && stoppable_;
  if (steered_ == nullptr && !check) return dispatcher.Wait(dispatch_timeout_);
  const absl::Time deadline = absl::Now() + dispatch_timeout_;
  const absl::Duration poll =
      steered_ != nullptr ? std::min(steered_->poll_interval(), kStopPoll)
                          : kStopPoll;
  for (;;) {
    absl::StatusOr<bool> finished = dispatcher.Wait(poll);
    if (!finished.ok() || *finished) return finished;
    if (steered_ != nullptr &&
        steered_->OnPoll(Wire(slot_count, push_seed, parity))) {
      break;
    }
    if (check && stop_check_()) break;
    if (absl::Now() >= deadline) return false;
  }
  // Every lane leaves its loop at its next check: the claim, or the next
  // mutant. A lane stuck inside an execution does not see it.
  uint32_t* ctrl = control_.words();
  ctrl[RF_CTRL_SHUTDOWN] = 1;
  absl::StatusOr<bool> ended = dispatcher.Wait(shutdown_grace_);
  if (!ended.ok()) return ended;
  // Flights queued behind see SHUTDOWN at their first claim and end at
  // once, claiming nothing.
  for (Flight& flight : flights_) {
    if (!*ended) break;
    flight.stopped = true;
    ended = DispatcherOf(*precise_, flight.parity).Wait(shutdown_grace_);
    if (!ended.ok()) return ended;
  }
  if (!*ended) {
    hung_ = true;
    return absl::UnavailableError(absl::StrCat(
        "the device is hung: the megakernel stalled and did not stop within ",
        absl::FormatDuration(shutdown_grace_),
        " after the host set SHUTDOWN (a target execution that never ends, "
        "or a driver fault). Nothing more can run on this device in this "
        "process; restart ringfuzz to resume (the device may need a reset)"));
  }
  ctrl[RF_CTRL_SHUTDOWN] = 0;
  host_stopped_ = true;
  return true;
}

void GpuExecutor::NotifyEpochEnd(uint32_t slot_count, uint32_t push_seed,
                                 uint32_t parity, const uint32_t* control,
                                 bool cut) {
  if (steered_ == nullptr) return;
  const uint32_t* ctrl = control != nullptr ? control : control_.words();
  const bool last = host_stopped_ || cut || ctrl[RF_RES_STOP] != 0 ||
                    Pending(slot_count, parity).slots == 0;
  steered_->OnEpochEnd(Wire(slot_count, push_seed, parity, control), last);
}

std::optional<LaunchLimits> GpuExecutor::launch_limits() const {
  const vk::PhysicalDeviceInfo& info = device_.info();
  LaunchLimits limits;
  limits.workgroup_size_x = precise_->kernel.local_size;
  limits.max_workgroup_size_x = info.max_workgroup_size_x;
  limits.max_workgroups_per_dimension = info.max_workgroup_count_x;
  limits.max_invocations_per_workgroup = info.max_invocations_per_workgroup;
  limits.ring_slots = ring_slots_;
  limits.worker_groups = groups_;
  limits.resident_device_bytes = control_.size() + ring_.size() +
                                 finds_.size() + dict_.size() +
                                 (corpus_ != nullptr ? corpus_->size() : 0);
  limits.device_memory_budget_bytes = info.device_local_bytes;
  return limits;
}

absl::Status GpuExecutor::SetWorkerGroups(uint32_t groups) {
  const uint32_t most = device_.info().max_workgroup_count_x;
  if (groups == 0 || groups > most) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot launch ", groups,
                     " workgroups per dispatch; the device "
                     "takes 1..",
                     most, " (maxComputeWorkGroupCount[0])"));
  }
  groups_ = groups;
  return absl::OkStatus();
}

absl::Status GpuExecutor::SetTenantWords(const TenantWords& words) {
  uint32_t* ctrl = control_.words();
  ctrl[RF_CTRL_TENANT_BASE] = RF_CTRL_TENANT_MASKS;
  std::copy(words.masks.begin(), words.masks.end(),
            ctrl + RF_CTRL_TENANT_MASKS);
  std::copy(words.quotas.begin(), words.quotas.end(),
            ctrl + RF_CTRL_TENANT_QUOTAS);
  return absl::OkStatus();
}

absl::StatusOr<BatchResult> GpuExecutor::ReplaySlot(const SuspectSlot& slot) {
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  if (absl::Status s = Quiesce(); !s.ok()) return s;
  const uint32_t* words = slot.words.data();
  const uint32_t parent = words[RF_SLOT_ARG0 + RF_ARG_PARENT];
  if (slot.index >= ring_slots_ || parent >= inputs_.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot replay ring slot ", slot.index, " of parent ", parent,
        ": the ring has ", ring_slots_, " slots and the corpus ",
        inputs_.size(), " inputs; replay only slots this executor ran"));
  }
  uint32_t* ring = ring_.words();
  for (uint32_t s = 0; s < ring_slots_; ++s) {
    uint32_t& status = ring[s * RF_SLOT_WORDS + RF_SLOT_STATUS];
    if (status == RF_STATUS_PUBLISHED || status == RF_STATUS_REQUEUE ||
        status == RF_STATUS_YIELD || status == RF_STATUS_WAIT_IO) {
      status = RF_STATUS_EMPTY;  // cancel: only the suspect may run
    }
  }
  uint32_t* target = ring + uint64_t{slot.index} * RF_SLOT_WORDS;
  target[RF_SLOT_STATUS] = RF_STATUS_EMPTY;
  std::copy(slot.words.begin() + 1, slot.words.end(), target + 1);
  for (uint32_t a = RF_ARG_EXECS; a < RF_SLOT_ARG_COUNT; ++a) {
    target[RF_SLOT_ARG0 + a] = 0;
  }
  target[RF_SLOT_STATUS] = RF_STATUS_PUBLISHED;

  Program& program = ProgramFor(words[RF_SLOT_OPCODE]);
  const uint32_t saved_steps = exec_steps_, saved_groups = groups_;
  exec_steps_ = replay_exec_steps_;
  groups_ = 1;
  replay_push_seed_ = slot.push_seed;
  steered_ = nullptr;
  BatchResult result;
  std::vector<Find> candidates;
  absl::Status drained = Drain(program, slot.index + 1, 0, result, candidates);
  exec_steps_ = saved_steps;
  groups_ = saved_groups;
  replay_push_seed_.reset();
  if (!drained.ok()) return drained;
  if (!candidates.empty()) {
    if (absl::Status s = Calibrate(candidates, result); !s.ok()) return s;
  }
  return result;
}

}  // namespace ringfuzz
