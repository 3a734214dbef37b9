#include "fuzz/gpu/clock_warmer.h"

#include <atomic>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/shader_compiler.h"
#include "shaders/embedded_shaders.h"

namespace ringfuzz {
namespace {

constexpr std::string_view kShaderName = "clock_warmer.glsl";
// Control words (shaders/clock_warmer.glsl).
constexpr uint32_t kStopWord = 0;
constexpr uint32_t kRoundsWord = 1;
constexpr uint64_t kControlBytes = 16;

struct Push {
  uint32_t max_rounds;
  uint32_t round_steps;
};

absl::StatusOr<std::vector<uint32_t>> CompileSpin() {
  for (const EmbeddedFile& f : EmbeddedShaderFiles()) {
    if (f.name != kShaderName) continue;
    vk::CompileOptions options;
    options.debug_info = false;
    return vk::CompileComputeShader({f.name, f.text}, {}, options);
  }
  return absl::InternalError(absl::StrCat(
      std::string(kShaderName), " is not among the embedded shaders"));
}

}  // namespace

absl::StatusOr<std::unique_ptr<ClockWarmer>> ClockWarmer::Start(
    const vk::Device& device, const ClockWarmerOptions& options) {
  absl::StatusOr<std::vector<uint32_t>> spirv = CompileSpin();
  if (!spirv.ok()) return spirv.status();
  absl::StatusOr<vk::Buffer> control =
      vk::Buffer::Create(device, kControlBytes);
  if (!control.ok()) return control.status();
  std::memset(control->data(), 0, kControlBytes);
  vk::PipelineNotice quiet;
  quiet.watch = false;
  absl::StatusOr<vk::ComputePipeline> pipeline = vk::ComputePipeline::Create(
      device, *spirv, /*storage_buffer_count=*/1, sizeof(Push), quiet);
  if (!pipeline.ok()) return pipeline.status();
  absl::StatusOr<vk::Dispatcher> dispatcher =
      vk::Dispatcher::Create(device, *pipeline);
  if (!dispatcher.ok()) return dispatcher.status();
  std::unique_ptr<ClockWarmer> warmer(new ClockWarmer(
      *std::move(control), *std::move(pipeline), *std::move(dispatcher)));
  const vk::Buffer* bound[] = {&warmer->control_};
  if (absl::Status s = warmer->dispatcher_.BindBuffers(bound); !s.ok()) {
    warmer->stopped_ = true;  // nothing was submitted
    return s;
  }
  const Push push{options.max_rounds, options.round_steps};
  warmer->started_ = absl::Now();
  if (absl::Status s = warmer->dispatcher_.Submit(
          absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(&push),
                              sizeof(push)),
          options.groups);
      !s.ok()) {
    warmer->stopped_ = true;
    return s;
  }
  return warmer;
}

ClockWarmer::ClockWarmer(vk::Buffer control, vk::ComputePipeline pipeline,
                         vk::Dispatcher dispatcher)
    : control_(std::move(control)),
      pipeline_(std::move(pipeline)),
      dispatcher_(std::move(dispatcher)) {}

ClockWarmer::~ClockWarmer() {
  if (!stopped_) (void)Stop();
}

absl::StatusOr<uint32_t> ClockWarmer::Stop() {
  if (stopped_) return rounds_;
  stopped_ = true;
  // The memory is host-coherent: the store reaches the device without a
  // flush; the fence keeps it from being delayed past the wait.
  reinterpret_cast<volatile uint32_t*>(control_.words())[kStopWord] = 1;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  // The spin ends within a round of the store, or at its own bound.
  absl::StatusOr<bool> done = dispatcher_.Wait(absl::InfiniteDuration());
  busy_time_ = absl::Now() - started_;
  if (!done.ok()) return done.status();
  rounds_ = control_.words()[kRoundsWord];
  return rounds_;
}

DelayedClockWarmer::DelayedClockWarmer(const vk::Device& device,
                                       absl::Time start_at,
                                       const ClockWarmerOptions& options)
    : started_(std::unique_ptr<ClockWarmer>()) {
  thread_ = std::thread([this, &device, start_at, options] {
    if (finish_.WaitForNotificationWithDeadline(start_at)) return;
    started_ = ClockWarmer::Start(device, options);
  });
}

DelayedClockWarmer::~DelayedClockWarmer() {
  if (!finished_) (void)Finish();
}

absl::StatusOr<absl::Duration> DelayedClockWarmer::Finish() {
  finished_ = true;
  finish_.Notify();
  if (thread_.joinable()) thread_.join();
  if (!started_.ok()) return started_.status();
  if (*started_ == nullptr) return absl::ZeroDuration();
  absl::StatusOr<uint32_t> rounds = (*started_)->Stop();
  if (!rounds.ok()) return rounds.status();
  return (*started_)->busy_time();
}

}  // namespace ringfuzz
