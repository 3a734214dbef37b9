#include "runtime/device_list.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace ringfuzz::vk {

absl::StatusOr<std::vector<uint32_t>> ResolveDeviceList(
    absl::Span<const PhysicalDeviceInfo> devices, std::string_view spec) {
  // absl::string_view is not std::string_view in this Abseil build.
  const absl::string_view text =
      absl::StripAsciiWhitespace(absl::string_view(spec.data(), spec.size()));
  if (text.empty()) {
    return absl::InvalidArgumentError(
        "-devices is empty; pass -devices=all (every GPU) or a list of "
        "devices, e.g. -devices=0,1 or -devices=cpu,cpu");
  }
  std::vector<uint32_t> chosen;
  if (absl::AsciiStrToLower(text) == "all") {
    for (const PhysicalDeviceInfo& device : devices) {
      if (!device.is_cpu) chosen.push_back(device.index);
    }
    if (chosen.empty()) {
      absl::StatusOr<uint32_t> cpu = SelectDevice(devices, "cpu");
      if (!cpu.ok()) return cpu.status();
      chosen.push_back(*cpu);
    }
    return chosen;
  }
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    item = absl::StripAsciiWhitespace(item);
    if (item.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "-devices=", text,
          " has an empty item; separate devices by single commas, e.g. "
          "-devices=0,1"));
    }
    if (absl::AsciiStrToLower(item) == "all") {
      return absl::InvalidArgumentError(absl::StrCat(
          "-devices=", text,
          ": 'all' stands alone; pass -devices=all or a list of devices"));
    }
    absl::StatusOr<uint32_t> index =
        SelectDevice(devices, std::string_view(item.data(), item.size()));
    if (!index.ok()) {
      return absl::Status(
          index.status().code(),
          absl::StrCat("-devices=", text, ": item '", item,
                       "' names no device. ", index.status().message()));
    }
    chosen.push_back(*index);
  }
  return chosen;
}

}  // namespace ringfuzz::vk
