// The ExecutorFactory of the ringfuzz command: opens the device the flags
// name and builds the megakernel for -target (fuzz/gpu/gpu_executor.h).
#ifndef RINGFUZZ_TOOLS_GPU_EXECUTOR_FACTORY_H_
#define RINGFUZZ_TOOLS_GPU_EXECUTOR_FACTORY_H_

#include <memory>
#include <ostream>

#include "absl/status/statusor.h"
#include "fuzz/engine/config.h"
#include "fuzz/engine/executor.h"

namespace ringfuzz {

// Creates a GpuExecutor for `config` and prints the chosen device, the
// instrumentation summary and the GPU memory it holds to `log`, which must
// outlive the executor (it gets a line whenever a buffer grows). Fills
// config.batch_slots/slot_execs when they are 0 (automatic) from the
// device's preferred batch shape; -gpu_memory_mb bounds its buffers.
absl::StatusOr<std::unique_ptr<Executor>> MakeGpuExecutor(Config& config,
                                                          std::ostream& log);

}  // namespace ringfuzz

#endif  // RINGFUZZ_TOOLS_GPU_EXECUTOR_FACTORY_H_
