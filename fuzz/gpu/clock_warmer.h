// The clock warmer: a GPU's clock governor keeps an idle device at a
// fraction of its clock and raises it only after some hundreds of
// milliseconds of load (an H200 idles at 345 MHz and needs about 300 ms to
// reach 1,980 MHz). A campaign's first rounds would then run several times
// slower than the rest, and the finds they make (most of a short campaign's)
// wait that much longer for their mutants. The warmer loads every core of
// the device with a spin shader (shaders/clock_warmer.glsl) until the first
// round, while the host builds the target.
//
// An H200 raises its clock as soon as a process creates a device and holds
// it about 3.5 s without load, so a build that ends sooner (a warm driver
// shader cache: 0.3-0.4 s from start to first execution) needs no warmer;
// one that compiles the megakernel cold (2-6 s) does. DelayedClockWarmer
// therefore starts the spin only once the build has taken a while.
#ifndef RINGFUZZ_FUZZ_GPU_CLOCK_WARMER_H_
#define RINGFUZZ_FUZZ_GPU_CLOCK_WARMER_H_

#include <cstdint>
#include <memory>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "runtime/buffer.h"
#include "runtime/compute_pipeline.h"
#include "runtime/device.h"
#include "runtime/dispatcher.h"

namespace ringfuzz {

struct ClockWarmerOptions {
  // Workgroups of 64 invocations: enough to be resident on every core of
  // the largest GPUs (an H200 holds 132 x 2,048 invocations).
  uint32_t groups = 1024;
  // The spin's own bound, in rounds of `round_steps` dependent integer
  // steps: it ends by itself if the host never stops it (about 2 s at an
  // H200's full clock, about 12 s at its idle clock).
  uint32_t max_rounds = 1u << 20;
  uint32_t round_steps = 1024;
};

// One spin dispatch on one device's queue. Not thread-safe. Lifetime: the
// Device must outlive the warmer. Nothing else may be submitted behind it
// on the same queue before Stop: it would wait for the spin.
class ClockWarmer {
 public:
  // Builds the spin shader's pipeline and submits it. Fails (and leaves the
  // device idle) if the shader does not build or the submission fails.
  static absl::StatusOr<std::unique_ptr<ClockWarmer>> Start(
      const vk::Device& device, const ClockWarmerOptions& options = {});

  ClockWarmer(const ClockWarmer&) = delete;
  ClockWarmer& operator=(const ClockWarmer&) = delete;
  // Stops the spin if Stop was not called (errors are dropped).
  ~ClockWarmer();

  // Tells the spin to end, waits until it has, and returns how many rounds
  // it ran, summed over its workgroups (at most groups x max_rounds).
  // Unavailable if the device was lost. A second call returns the same count
  // without touching the device.
  absl::StatusOr<uint32_t> Stop();

  // Host time from Start's submission to the end of Stop's wait.
  absl::Duration busy_time() const { return busy_time_; }

 private:
  ClockWarmer(vk::Buffer control, vk::ComputePipeline pipeline,
              vk::Dispatcher dispatcher);

  // Declared in the order they must be destroyed last-first: the
  // dispatcher (which waits for its submission) before the pipeline and the
  // buffer it uses.
  vk::Buffer control_;
  vk::ComputePipeline pipeline_;
  vk::Dispatcher dispatcher_;
  absl::Time started_ = absl::InfinitePast();
  absl::Duration busy_time_ = absl::ZeroDuration();
  bool stopped_ = false;
  uint32_t rounds_ = 0;
};

// How long after device creation a build must still be running for the
// device to be warmed: well past a warm start's whole build, well before
// an idle H200 lowers its clock again (about 3.5 s).
inline constexpr absl::Duration kClockWarmerDelay = absl::Seconds(1);

// Starts a ClockWarmer on `device` at `start_at` (at once if that has
// passed), on a thread of its own, unless Finish comes first. Lifetime: the
// Device must outlive it.
class DelayedClockWarmer {
 public:
  DelayedClockWarmer(const vk::Device& device, absl::Time start_at,
                     const ClockWarmerOptions& options = {});
  DelayedClockWarmer(const DelayedClockWarmer&) = delete;
  DelayedClockWarmer& operator=(const DelayedClockWarmer&) = delete;
  // Finishes if Finish was not called (errors are dropped).
  ~DelayedClockWarmer();

  // Cancels a start that is not due yet, or waits for a start under way and
  // stops the spin. Returns how long the device was kept busy (zero if the
  // spin never started), or the start's or the stop's error. Call once.
  absl::StatusOr<absl::Duration> Finish();

 private:
  absl::Notification finish_;
  // Written by thread_ only, read after joining it.
  absl::StatusOr<std::unique_ptr<ClockWarmer>> started_;
  std::thread thread_;
  bool finished_ = false;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_CLOCK_WARMER_H_
