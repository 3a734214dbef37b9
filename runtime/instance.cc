#include "runtime/instance.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/device_query.h"
#include "runtime/status_macros.h"
#include "runtime/vk_check.h"
#include "runtime/vk_functions.h"

namespace ringfuzz::vk {

struct Instance::ValidationLog {
  // Called by the layer on whichever thread made the offending call.
  static VKAPI_ATTR VkBool32 VKAPI_CALL
  OnMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
            VkDebugUtilsMessageTypeFlagsEXT /*types*/,
            const VkDebugUtilsMessengerCallbackDataEXT* data, void* self) {
    const char* text = data != nullptr && data->pMessage != nullptr
                           ? data->pMessage
                           : "(no message)";
    const bool error = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    std::fprintf(stderr, "ringfuzz: vulkan validation %s: %s\n",
                 error ? "error" : "warning", text);
    auto* log = static_cast<ValidationLog*>(self);
    std::lock_guard<std::mutex> lock(log->mutex);
    ++log->count;
    log->last = text;
    return VK_FALSE;  // Let the call proceed; callers look at the count.
  }

  mutable std::mutex mutex;
  uint64_t count = 0;
  std::string last;
};

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool ValidationForcedByEnvironment() {
  const char* value = std::getenv("RINGFUZZ_VALIDATION");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

absl::Status RequireValidationLayer() {
  uint32_t count = 0;
  RINGFUZZ_VK_RETURN_IF_ERROR(
      Vk().vkEnumerateInstanceLayerProperties(&count, nullptr));
  std::vector<VkLayerProperties> layers(count);
  RINGFUZZ_VK_RETURN_IF_ERROR(
      Vk().vkEnumerateInstanceLayerProperties(&count, layers.data()));
  for (const VkLayerProperties& layer : layers) {
    if (std::strcmp(layer.layerName, kValidationLayer) == 0) {
      return absl::OkStatus();
    }
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "Vulkan validation was requested but ", kValidationLayer,
      " is not installed. Install vulkan-validationlayers (Debian/Ubuntu) or "
      "the Vulkan SDK, or run without validation (unset "
      "RINGFUZZ_VALIDATION)."));
}

absl::StatusOr<uint32_t> LoaderVersion() {
  uint32_t version = 0;
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkEnumerateInstanceVersion(&version));
  if (version < VK_API_VERSION_1_2) {
    return absl::FailedPreconditionError(absl::StrCat(
        "The Vulkan loader supports only Vulkan ",
        VK_API_VERSION_MAJOR(version), ".", VK_API_VERSION_MINOR(version),
        "; ringfuzz needs 1.2 or newer. Install a newer libvulkan1."));
  }
  return version;
}

}  // namespace

absl::StatusOr<Instance> Instance::Create(const InstanceOptions& options) {
  const bool validation = options.validation || ValidationForcedByEnvironment();
  RINGFUZZ_ASSIGN_OR_RETURN(const uint32_t loader_version, LoaderVersion());
  if (validation) RINGFUZZ_RETURN_IF_ERROR(RequireValidationLayer());

  Instance instance;
  instance.api_version_ = loader_version >= VK_API_VERSION_1_3
                              ? VK_API_VERSION_1_3
                              : VK_API_VERSION_1_2;
  instance.log_ = std::make_unique<ValidationLog>();

  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "ringfuzz";
  app.pEngineName = "ringfuzz";
  app.apiVersion = instance.api_version_;

  VkDebugUtilsMessengerCreateInfoEXT messenger_info{};
  messenger_info.sType =
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = &ValidationLog::OnMessage;
  messenger_info.pUserData = instance.log_.get();

  const char* layers[] = {kValidationLayer};
  const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  if (validation) {
    // Chained as well so that vkCreateInstance/vkDestroyInstance themselves
    // are covered, not only calls made while the messenger exists.
    info.pNext = &messenger_info;
    info.enabledLayerCount = 1;
    info.ppEnabledLayerNames = layers;
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = extensions;
  }
  RINGFUZZ_VK_RETURN_IF_ERROR(Vk().vkCreateInstance(
      &info, nullptr, instance.instance_.Receive(nullptr)));
  const VkInstance handle = instance.instance_.get();

  if (validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        Vk().vkGetInstanceProcAddr(handle, "vkCreateDebugUtilsMessengerEXT"));
    const auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        Vk().vkGetInstanceProcAddr(handle, "vkDestroyDebugUtilsMessengerEXT"));
    if (create == nullptr || destroy == nullptr) {
      return absl::FailedPreconditionError(
          "The Vulkan loader did not provide VK_EXT_debug_utils although it "
          "was enabled. Reinstall vulkan-validationlayers and libvulkan1.");
    }
    RINGFUZZ_VK_RETURN_IF_ERROR(create(handle, &messenger_info, nullptr,
                                       instance.messenger_.Receive(handle)));
  }
  return instance;
}

// Members go in reverse order of declaration (instance.h).
Instance::Instance(Instance&& other) noexcept = default;
Instance::~Instance() = default;

uint64_t Instance::validation_messages() const {
  if (log_ == nullptr) return 0;
  std::lock_guard<std::mutex> lock(log_->mutex);
  return log_->count;
}

std::string Instance::last_validation_message() const {
  if (log_ == nullptr) return "";
  std::lock_guard<std::mutex> lock(log_->mutex);
  return log_->last;
}

namespace {

absl::StatusOr<std::vector<VkPhysicalDevice>> PhysicalDevices(
    VkInstance instance) {
  uint32_t count = 0;
  RINGFUZZ_VK_RETURN_IF_ERROR(
      Vk().vkEnumeratePhysicalDevices(instance, &count, nullptr));
  std::vector<VkPhysicalDevice> devices(count);
  if (count > 0) {
    RINGFUZZ_VK_RETURN_IF_ERROR(
        Vk().vkEnumeratePhysicalDevices(instance, &count, devices.data()));
  }
  devices.resize(count);
  if (devices.empty()) {
    return absl::FailedPreconditionError(
        "No Vulkan device found. Install mesa-vulkan-drivers (lavapipe, "
        "Vulkan on the CPU) or your GPU's Vulkan driver; `vulkaninfo "
        "--summary` lists what the loader sees.");
  }
  return devices;
}

}  // namespace

absl::StatusOr<std::vector<PhysicalDeviceInfo>> Instance::EnumerateDevices()
    const {
  RINGFUZZ_ASSIGN_OR_RETURN(std::vector<VkPhysicalDevice> devices,
                            PhysicalDevices(instance_.get()));
  std::vector<PhysicalDeviceInfo> infos;
  for (uint32_t i = 0; i < devices.size(); ++i) {
    infos.push_back(QueryPhysicalDevice(devices[i], i));
  }
  return infos;
}

absl::StatusOr<VkPhysicalDevice> Instance::PhysicalDevice(
    uint32_t index) const {
  RINGFUZZ_ASSIGN_OR_RETURN(std::vector<VkPhysicalDevice> devices,
                            PhysicalDevices(instance_.get()));
  if (index >= devices.size()) {
    return absl::OutOfRangeError(absl::StrCat(
        "Vulkan device index ", index, " does not exist (there are ",
        devices.size(), "). Re-enumerate devices and pick one of them."));
  }
  return devices[index];
}

}  // namespace ringfuzz::vk
