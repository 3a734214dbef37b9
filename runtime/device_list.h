// How the -devices flag of a multi-device campaign names its devices. Plain
// data in, plain data out: nothing here touches Vulkan, so the parsing is
// testable without a driver (Instance::EnumerateDevices gives the list).

#ifndef RINGFUZZ_RUNTIME_DEVICE_LIST_H_
#define RINGFUZZ_RUNTIME_DEVICE_LIST_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/device_info.h"

namespace ringfuzz::vk {

// Returns the `index` fields of the devices that `spec` (the -devices flag)
// names, one per worker, in order:
//   "all"        every device that is not a CPU device (every GPU of the
//                host), in enumeration order; where there is none, the
//                first CPU device (lavapipe) alone;
//   "A,B,..."    each item as -device takes it (SelectDevice: an index, cpu,
//                gpu or part of a name), so "0,1" is two GPUs and "cpu,cpu"
//                two workers on lavapipe. An item may name a device that an
//                earlier one named (two workers on one device).
// Keywords are case-insensitive; spaces around items are ignored.
// InvalidArgument for an empty spec, an empty item or "all" inside a list;
// NotFound for an item that names no device: the message names the item,
// lists every device with its index and says how to pick one.
absl::StatusOr<std::vector<uint32_t>> ResolveDeviceList(
    absl::Span<const PhysicalDeviceInfo> devices, std::string_view spec);

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_DEVICE_LIST_H_
