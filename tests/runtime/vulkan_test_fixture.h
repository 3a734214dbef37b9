// A Vulkan instance (validation on) and device for tests. Every test that
// uses it fails if the validation layer reported any warning or error.

#ifndef RINGFUZZ_TESTS_RUNTIME_VULKAN_TEST_FIXTURE_H_
#define RINGFUZZ_TESTS_RUNTIME_VULKAN_TEST_FIXTURE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/device.h"
#include "runtime/instance.h"

namespace ringfuzz::vk {

// The -device spec tests use: $RINGFUZZ_TEST_DEVICE, else "llvmpipe".
std::string TestDeviceSpec();

class VulkanTest : public ::testing::Test {
 protected:
  // Creates instance_ (validation = true) and device_ on TestDeviceSpec().
  void SetUp() override;
  // Destroys device_, then expects instance_->validation_messages() == 0.
  // Objects a test makes from device_ are gone by then (test-body scope).
  void TearDown() override;

  Device& device() { return *device_; }

  std::optional<Instance> instance_;
  std::optional<Device> device_;
};

// Compiles `glsl` (named "test.comp") with no includes, asserting success.
std::vector<uint32_t> CompileOrDie(const std::string& glsl);

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_TESTS_RUNTIME_VULKAN_TEST_FIXTURE_H_
