#include "runtime/dispatcher.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "runtime/buffer.h"
#include "runtime/compute_pipeline.h"
#include "tests/runtime/vulkan_test_fixture.h"

namespace ringfuzz::vk {
namespace {

constexpr uint32_t kElements = 4096;
constexpr uint32_t kLocalSize = 64;

// data[i] = i * 3 + pc.k
const char kAffine[] = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { uint data[]; };
layout(push_constant) uniform Push { uint k; uint n; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < pc.n) data[i] = i * 3u + pc.k;
}
)";

// data[i] = data[i] * 2: reads what an earlier submission wrote.
const char kDouble[] = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { uint data[]; };
void main() { data[gl_GlobalInvocationID.x] *= 2u; }
)";

// Iterates an LCG pc.iterations times per invocation (below lavapipe's
// 65,535 back-edge cut) and counts finished invocations in word 0.
const char kSpin[] = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { uint finished; uint data[]; };
layout(push_constant) uniform Push { uint iterations; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = i;
  for (uint n = 0u; n < pc.iterations; ++n) x = x * 1664525u + 1013904223u;
  data[i] = x;
  atomicAdd(finished, 1u);
}
)";

struct AffinePush {
  uint32_t k;
  uint32_t n;
};

absl::Span<const uint8_t> AsBytes(const void* data, size_t size) {
  return {static_cast<const uint8_t*>(data), size};
}

using DispatcherTest = VulkanTest;

TEST_F(DispatcherTest, WritesEveryElementAndRebindsANewBuffer) {
  absl::StatusOr<ComputePipeline> pipeline = ComputePipeline::Create(
      device(), CompileOrDie(kAffine), 1, sizeof(AffinePush));
  ASSERT_TRUE(pipeline.ok()) << pipeline.status();
  absl::StatusOr<Dispatcher> dispatcher =
      Dispatcher::Create(device(), *pipeline);
  ASSERT_TRUE(dispatcher.ok()) << dispatcher.status();
  absl::StatusOr<Buffer> first = Buffer::Create(device(), kElements * 4);
  ASSERT_TRUE(first.ok()) << first.status();

  const Buffer* bindings[] = {&*first};
  ASSERT_TRUE(dispatcher->BindBuffers(bindings).ok());
  AffinePush push{5, kElements};
  ASSERT_TRUE(
      dispatcher->Submit(AsBytes(&push, sizeof(push)), kElements / kLocalSize)
          .ok());
  absl::StatusOr<bool> done = dispatcher->Wait(absl::InfiniteDuration());
  ASSERT_TRUE(done.ok()) << done.status();
  ASSERT_TRUE(*done);
  EXPECT_FALSE(dispatcher->busy());
  for (uint32_t i = 0; i < kElements; ++i) {
    ASSERT_EQ(first->words()[i], i * 3 + 5) << i;
  }

  absl::StatusOr<Buffer> second = Buffer::Create(device(), kElements * 4);
  ASSERT_TRUE(second.ok()) << second.status();
  bindings[0] = &*second;
  ASSERT_TRUE(dispatcher->BindBuffers(bindings).ok());
  push.k = 1000;
  ASSERT_TRUE(
      dispatcher->Submit(AsBytes(&push, sizeof(push)), kElements / kLocalSize)
          .ok());
  done = dispatcher->Wait(absl::InfiniteDuration());
  ASSERT_TRUE(done.ok() && *done) << done.status();
  for (uint32_t i = 0; i < kElements; ++i) {
    ASSERT_EQ(second->words()[i], i * 3 + 1000) << i;
    ASSERT_EQ(first->words()[i], i * 3 + 5) << i;  // untouched
  }
}

TEST_F(DispatcherTest, SecondPipelineSeesTheFirstOnesWrites) {
  absl::StatusOr<ComputePipeline> affine = ComputePipeline::Create(
      device(), CompileOrDie(kAffine), 1, sizeof(AffinePush));
  ASSERT_TRUE(affine.ok()) << affine.status();
  absl::StatusOr<ComputePipeline> doubler =
      ComputePipeline::Create(device(), CompileOrDie(kDouble), 1, 0);
  ASSERT_TRUE(doubler.ok()) << doubler.status();
  absl::StatusOr<Dispatcher> first = Dispatcher::Create(device(), *affine);
  absl::StatusOr<Dispatcher> second = Dispatcher::Create(device(), *doubler);
  ASSERT_TRUE(first.ok() && second.ok());
  absl::StatusOr<Buffer> data = Buffer::Create(device(), kElements * 4);
  ASSERT_TRUE(data.ok()) << data.status();
  const Buffer* bindings[] = {&*data};
  ASSERT_TRUE(first->BindBuffers(bindings).ok());
  ASSERT_TRUE(second->BindBuffers(bindings).ok());

  const AffinePush push{1, kElements};
  ASSERT_TRUE(
      first->Submit(AsBytes(&push, sizeof(push)), kElements / kLocalSize).ok());
  // Queued behind the first without waiting: submission order is kept.
  ASSERT_TRUE(second->Submit({}, kElements / kLocalSize).ok());
  absl::StatusOr<bool> done = second->Wait(absl::InfiniteDuration());
  ASSERT_TRUE(done.ok() && *done) << done.status();
  done = first->Wait(absl::InfiniteDuration());
  ASSERT_TRUE(done.ok() && *done) << done.status();
  for (uint32_t i = 0; i < kElements; ++i) {
    ASSERT_EQ(data->words()[i], (i * 3 + 1) * 2) << i;
  }
}

// Wait(0) never blocks and never fails while a long dispatch runs, and the
// mapped counter read meanwhile never runs ahead of the invocations; at the
// end every invocation counted. (How often the host saw it running depends
// on the machine: printed, not asserted.)
TEST_F(DispatcherTest, NonBlockingWaitsFollowALongDispatchToItsEnd) {
  constexpr uint32_t kGroups = 16;
  constexpr uint32_t kInvocations = kGroups * kLocalSize;
  constexpr uint32_t kIterations = 50000;
  absl::StatusOr<ComputePipeline> pipeline = ComputePipeline::Create(
      device(), CompileOrDie(kSpin), 1, sizeof(uint32_t));
  ASSERT_TRUE(pipeline.ok()) << pipeline.status();
  absl::StatusOr<Dispatcher> dispatcher =
      Dispatcher::Create(device(), *pipeline);
  ASSERT_TRUE(dispatcher.ok()) << dispatcher.status();
  absl::StatusOr<Buffer> data =
      Buffer::Create(device(), (kInvocations + 1) * 4);
  ASSERT_TRUE(data.ok()) << data.status();
  const Buffer* bindings[] = {&*data};
  ASSERT_TRUE(dispatcher->BindBuffers(bindings).ok());

  const uint32_t iterations = kIterations;
  ASSERT_TRUE(
      dispatcher->Submit(AsBytes(&iterations, sizeof(iterations)), kGroups)
          .ok());
  // How often the host saw it still running depends on the machine; it is
  // reported, not asserted. Reads of the mapped counter while it runs are
  // what the telemetry poller does.
  uint64_t polls_while_running = 0;
  uint32_t last_seen_finished = 0;
  for (;;) {
    absl::StatusOr<bool> done = dispatcher->Wait(absl::ZeroDuration());
    ASSERT_TRUE(done.ok()) << done.status();
    if (*done) break;
    ++polls_while_running;
    last_seen_finished =
        reinterpret_cast<volatile const uint32_t*>(data->words())[0];
    absl::SleepFor(absl::Microseconds(200));
  }
  std::printf("polled %llu times while running; last count seen %u\n",
              static_cast<unsigned long long>(polls_while_running),
              last_seen_finished);
  EXPECT_LE(last_seen_finished, kInvocations);
  EXPECT_EQ(data->words()[0], kInvocations);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    uint32_t x = i;
    for (uint32_t n = 0; n < kIterations; ++n) x = x * 1664525u + 1013904223u;
    ASSERT_EQ(data->words()[1 + i], x) << i;
  }
}

TEST_F(DispatcherTest, MisuseIsReportedNotRecorded) {
  absl::StatusOr<ComputePipeline> pipeline = ComputePipeline::Create(
      device(), CompileOrDie(kAffine), 1, sizeof(AffinePush));
  ASSERT_TRUE(pipeline.ok()) << pipeline.status();
  absl::StatusOr<Dispatcher> dispatcher =
      Dispatcher::Create(device(), *pipeline);
  ASSERT_TRUE(dispatcher.ok()) << dispatcher.status();
  const AffinePush push{0, kElements};

  // Nothing in flight: Wait is immediately done.
  absl::StatusOr<bool> done = dispatcher->Wait(absl::ZeroDuration());
  ASSERT_TRUE(done.ok());
  EXPECT_TRUE(*done);

  absl::Status status = dispatcher->Submit(AsBytes(&push, sizeof(push)), 1);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;

  EXPECT_EQ(dispatcher->BindBuffers({}).code(),
            absl::StatusCode::kInvalidArgument);
  const Buffer* null_binding[] = {nullptr};
  EXPECT_EQ(dispatcher->BindBuffers(null_binding).code(),
            absl::StatusCode::kInvalidArgument);

  absl::StatusOr<Buffer> data = Buffer::Create(device(), kElements * 4);
  ASSERT_TRUE(data.ok()) << data.status();
  const Buffer* bindings[] = {&*data};
  ASSERT_TRUE(dispatcher->BindBuffers(bindings).ok());
  status = dispatcher->Submit(AsBytes(&push, 4), 1);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  status = dispatcher->Submit(AsBytes(&push, sizeof(push)),
                              device().info().max_workgroup_count_x + 1u);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_FALSE(dispatcher->busy());
}

TEST_F(DispatcherTest, PipelineRejectsBadInterface) {
  const std::vector<uint32_t> spirv = CompileOrDie(kAffine);
  EXPECT_EQ(ComputePipeline::Create(device(), {}, 1, 8).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ComputePipeline::Create(device(), spirv, 1, 6).status().code(),
            absl::StatusCode::kInvalidArgument);
  const uint32_t too_big = device().limits().maxPushConstantsSize + 4;
  EXPECT_EQ(
      ComputePipeline::Create(device(), spirv, 1, too_big).status().code(),
      absl::StatusCode::kInvalidArgument);
}

TEST_F(DispatcherTest, DestroyingWhileRunningWaitsFirst) {
  absl::StatusOr<ComputePipeline> pipeline = ComputePipeline::Create(
      device(), CompileOrDie(kSpin), 1, sizeof(uint32_t));
  ASSERT_TRUE(pipeline.ok()) << pipeline.status();
  absl::StatusOr<Buffer> data = Buffer::Create(device(), (64 * 4 + 1) * 4);
  ASSERT_TRUE(data.ok()) << data.status();
  {
    absl::StatusOr<Dispatcher> dispatcher =
        Dispatcher::Create(device(), *pipeline);
    ASSERT_TRUE(dispatcher.ok()) << dispatcher.status();
    const Buffer* bindings[] = {&*data};
    ASSERT_TRUE(dispatcher->BindBuffers(bindings).ok());
    const uint32_t iterations = 20000;
    ASSERT_TRUE(dispatcher->Submit(AsBytes(&iterations, 4), 4).ok());
    Dispatcher moved = *std::move(dispatcher);
    // Leaves scope without Wait: the destructor must wait.
  }
  EXPECT_EQ(data->words()[0], 64u * 4);
}

}  // namespace
}  // namespace ringfuzz::vk
