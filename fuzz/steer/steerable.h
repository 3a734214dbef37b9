// The steering side of an executor with megakernel wire buffers: what the
// engine's steering (fuzz/steer/steering.h) may ask of it beyond running
// batches. An executor offers it through Executor::steerable(); one without
// wire buffers offers none, and the engine then runs with nothing to
// observe, a fixed launch geometry, no tenants and no slots to replay.
#ifndef RINGFUZZ_FUZZ_STEER_STEERABLE_H_
#define RINGFUZZ_FUZZ_STEER_STEERABLE_H_

#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "fuzz/engine/executor.h"
#include "fuzz/steer/steering_wire.h"

namespace ringfuzz {

class Steerable {
 public:
  virtual ~Steerable() = default;

  // Watches the dispatches of later RunBatch calls (not Execute); null
  // stops watching. `observer` must outlive its use.
  virtual void SetDispatchObserver(DispatchObserver* observer) = 0;

  // The device's limits and the current geometry; nullopt when the
  // launches cannot be steered.
  virtual std::optional<LaunchLimits> launch_limits() const = 0;

  // Launches `groups` workgroups per dispatch from the next dispatch on.
  virtual absl::Status SetWorkerGroups(uint32_t groups) = 0;

  // Writes the tenant masks and quotas of the control buffer, read from the
  // next dispatch on.
  virtual absl::Status SetTenantWords(const TenantWords& words) = 0;

  // Runs `slot` alone, as it ran before (same mutants), with the device's
  // bounded loop budget so that an input that hung the device ends as a
  // timeout Find. Executions are counted as in Executor::RunBatch.
  virtual absl::StatusOr<BatchResult> ReplaySlot(const SuspectSlot& slot) = 0;
};

// `executor`'s launch limits; nullopt for an executor without a steering
// side.
inline std::optional<LaunchLimits> LaunchLimitsOf(Executor& executor) {
  Steerable* steerable = executor.steerable();
  if (steerable == nullptr) return std::nullopt;
  return steerable->launch_limits();
}

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_STEER_STEERABLE_H_
