#include "runtime/device_info.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace ringfuzz::vk {
namespace {

// VK_API_VERSION_MAJOR/MINOR without including Vulkan here.
uint32_t ApiMajor(uint32_t version) { return (version >> 22) & 0x7Fu; }
uint32_t ApiMinor(uint32_t version) { return (version >> 12) & 0x3FFu; }

bool IsDecimal(std::string_view text) {
  for (char c : text) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return !text.empty();
}

const PhysicalDeviceInfo* FindFirst(
    absl::Span<const PhysicalDeviceInfo> devices,
    bool (*predicate)(const PhysicalDeviceInfo&)) {
  for (const PhysicalDeviceInfo& device : devices) {
    if (predicate(device)) return &device;
  }
  return nullptr;
}

absl::Status NoMatch(absl::Span<const PhysicalDeviceInfo> devices,
                     std::string_view spec) {
  if (devices.empty()) {
    return absl::NotFoundError(
        "No Vulkan device found. Install mesa-vulkan-drivers (lavapipe, "
        "Vulkan on the CPU) or your GPU's Vulkan driver.");
  }
  std::vector<std::string> lines;
  for (const PhysicalDeviceInfo& device : devices) {
    lines.push_back(absl::StrCat("  ", device.index, ": ", Describe(device)));
  }
  return absl::NotFoundError(absl::StrCat(
      "No Vulkan device matches -device=\"", std::string(spec),
      "\". Available devices:\n", absl::StrJoin(lines, "\n"),
      "\nPick one with -device=N (index), -device=cpu, -device=gpu or "
      "-device=<part of the name>."));
}

}  // namespace

std::string Describe(const PhysicalDeviceInfo& info) {
  std::vector<std::string> tags;
  if (info.is_cpu) {
    tags.push_back("cpu");
  } else {
    tags.push_back(info.is_discrete ? "discrete gpu" : "gpu");
  }
  if (info.is_lavapipe) tags.push_back("lavapipe");
  tags.push_back(absl::StrCat("subgroup ", info.subgroup_size));
  tags.push_back(absl::StrCat("Vulkan ", ApiMajor(info.api_version), ".",
                              ApiMinor(info.api_version)));
  if (!info.is_cpu && info.device_local_bytes > 0) {
    tags.push_back(absl::StrFormat(
        "%.1f GiB device-local%s",
        static_cast<double>(info.device_local_bytes) / (1ull << 30),
        info.has_device_local_host_visible ? " host-visible" : ""));
  }
  return absl::StrCat(info.name, " [", absl::StrJoin(tags, ", "), "]");
}

absl::StatusOr<uint32_t> SelectDevice(
    absl::Span<const PhysicalDeviceInfo> devices, std::string_view spec) {
  // absl::string_view is not std::string_view in this Abseil build.
  const std::string wanted = absl::AsciiStrToLower(
      absl::StripAsciiWhitespace(absl::string_view(spec.data(), spec.size())));
  const PhysicalDeviceInfo* found = nullptr;
  if (wanted.empty()) {
    found = FindFirst(
        devices, [](const PhysicalDeviceInfo& d) { return d.is_discrete; });
    if (found == nullptr) {
      found = FindFirst(devices,
                        [](const PhysicalDeviceInfo& d) { return !d.is_cpu; });
    }
    if (found == nullptr) found = devices.empty() ? nullptr : &devices[0];
  } else if (wanted == "cpu") {
    found = FindFirst(devices,
                      [](const PhysicalDeviceInfo& d) { return d.is_cpu; });
  } else if (wanted == "gpu") {
    found = FindFirst(devices,
                      [](const PhysicalDeviceInfo& d) { return !d.is_cpu; });
  } else if (uint32_t index = 0;
             IsDecimal(wanted) && absl::SimpleAtoi(wanted, &index)) {
    for (const PhysicalDeviceInfo& device : devices) {
      if (device.index == index) found = &device;
    }
  } else {
    for (const PhysicalDeviceInfo& device : devices) {
      if (absl::StrContains(absl::AsciiStrToLower(device.name), wanted)) {
        found = &device;
        break;
      }
    }
  }
  if (found == nullptr) return NoMatch(devices, spec);
  return found->index;
}

}  // namespace ringfuzz::vk
