// Allocation behaviour, with this binary's global operator new replaced:
// the ...Into paths allocate nothing once grown, and the Try forms turn a
// failed allocation into ResourceExhausted with their output unchanged.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/count_min_sketch.h"
#include "telemetry/ring_telemetry.h"
#include "tests/telemetry/wire_builder.h"

namespace {

// Allocations since start-up, and how many more succeed before exactly one
// fails (-1: none fails). One failure, not all later ones, is what running
// out of memory for a large buffer looks like: the small allocations of an
// error message still succeed.
thread_local int64_t g_allocations = 0;
thread_local int64_t g_until_failure = -1;

}  // namespace

void* operator new(std::size_t size) {
  if (g_until_failure == 0) {
    g_until_failure = -1;
    throw std::bad_alloc();
  }
  if (g_until_failure > 0) --g_until_failure;
  ++g_allocations;
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace ringfuzz::telemetry {
namespace {

// The sketches' counters through the operator new above, so that a
// FailAllocationAfter fails them too.
uint64_t* CountersFromNew(size_t count) {
  try {
    return static_cast<uint64_t*>(::operator new(count * sizeof(uint64_t)));
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void DeleteCounters(uint64_t* counters) { ::operator delete(counters); }

// Installed before any test makes a sketch (static initialization); the
// calloc pair it replaces is never used here.
[[maybe_unused]] const CounterMemory kReplaced = SetCounterMemoryForTesting(
    {[](size_t count) {
       uint64_t* counters = CountersFromNew(count);
       if (counters != nullptr) {
         std::memset(counters, 0, count * sizeof(uint64_t));
       }
       return counters;
     },
     DeleteCounters});

using ::ringfuzz::telemetry::testing::ControlBuilder;
using ::ringfuzz::telemetry::testing::RingBuilder;

// While alive, the allocation after the next `succeeding` ones throws.
class FailAllocationAfter {
 public:
  explicit FailAllocationAfter(int64_t succeeding) {
    g_until_failure = succeeding;
  }
  ~FailAllocationAfter() { g_until_failure = -1; }
};

int64_t Allocations() { return g_allocations; }

struct Buffers {
  std::vector<uint8_t> control;
  std::vector<uint8_t> ring;
};

Buffers Sample(uint32_t slots) {
  ControlBuilder control;
  control.Set(RF_CTRL_DISPATCH + RF_OP_HAVOC, 3);
  RingBuilder ring;
  for (uint32_t i = 0; i < slots; ++i) {
    // Descending tickets force the window sort.
    ring.Add({RF_STATUS_PUBLISHED + i % 7, RF_OP_HAVOC + i % 3, i % 5,
              slots - i / 4, i % 2});
  }
  return {control.bytes(), ring.bytes()};
}

const std::vector<uint32_t> kWindowOps = {RF_OP_HAVOC, RF_OP_SPLICE};

TEST(AllocationTest, IntoPathsAllocateNothingOnceGrown) {
  const Buffers big = Sample(300);
  const Buffers small = Sample(40);
  RingTelemetry out;
  TelemetryDecodeScratch scratch;
  SketchTelemetryScratch sketch;
  std::vector<const RingSlotSnapshot*> slots;
  std::vector<const WindowTelemetry*> windows;
  auto round = [&](const Buffers& b) {
    ASSERT_TRUE(RingTelemetry::TryDecodeWithWindowOpcodesInto(
                    b.control, b.ring, kWindowOps, out, scratch)
                    .ok());
    ASSERT_TRUE(out.SketchInto(4, 512, sketch).ok());
    ASSERT_TRUE(out.TryActiveSlotsForOpcodeInto(RF_OP_HAVOC, slots).ok());
    out.ActiveWindowsInto(windows);
    size_t in_range = 0;
    for (const RingSlotSnapshot& slot : out.ActiveSlotsForOpcodeRange(9)) {
      in_range += slot.status.IsActive() ? 1 : 0;
    }
    EXPECT_GT(in_range, 0u);
  };
  round(big);  // warm-up: buffers grow here
  const int64_t before = Allocations();
  for (int i = 0; i < 3; ++i) {
    round(small);
    round(big);
  }
  EXPECT_EQ(Allocations() - before, 0);
  EXPECT_FALSE(out.windows.empty());
  EXPECT_FALSE(slots.empty());
}

// Runs attempt(n) for n = 0, 1, 2, ... until it succeeds; attempt(n) must
// run its operation under FailAllocationAfter(n). Every failure must be
// ResourceExhausted. Returns the number of failures.
template <typename Attempt>
int FailEachAllocationInTurn(Attempt attempt) {
  for (int64_t n = 0; n < 1000; ++n) {
    const absl::Status status = attempt(n);
    if (status.ok()) return static_cast<int>(n);
    EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
  }
  ADD_FAILURE() << "never succeeded";
  return 0;
}

TEST(AllocationTest, StrictDecodeIntoReportsExhaustionAndKeepsOut) {
  const Buffers b = Sample(100);
  const Buffers other = Sample(3);
  const RingTelemetry before = RingTelemetry::DecodeWithWindowOpcodes(
      other.control, other.ring, kWindowOps);
  const int failures = FailEachAllocationInTurn([&](int64_t n) {
    RingTelemetry out = before;
    TelemetryDecodeScratch scratch;
    absl::Status status;
    {
      FailAllocationAfter fail(n);
      status = RingTelemetry::TryDecodeWithWindowOpcodesInto(
          b.control, b.ring, kWindowOps, out, scratch);
    }
    if (!status.ok()) EXPECT_EQ(out, before);
    return status;
  });
  EXPECT_GT(failures, 0);
}

TEST(AllocationTest, StrictAndLenientDecodeUnderExhaustion) {
  const Buffers b = Sample(50);
  EXPECT_GT(FailEachAllocationInTurn([&](int64_t n) {
              FailAllocationAfter fail(n);
              return RingTelemetry::TryDecodeWithWindowOpcodes(
                         b.control, b.ring, kWindowOps)
                  .status();
            }),
            0);
  // Lenient: an empty snapshot while memory is short, never a crash.
  const RingTelemetry expected =
      RingTelemetry::DecodeWithWindowOpcodes(b.control, b.ring, kWindowOps);
  int empty = 0;
  for (int64_t n = 0; n < 8; ++n) {
    RingTelemetry out;
    TelemetryDecodeScratch scratch;
    {
      FailAllocationAfter fail(n);
      RingTelemetry::DecodeWithWindowOpcodesInto(b.control, b.ring, kWindowOps,
                                                 out, scratch);
    }
    if (out == RingTelemetry{}) {
      ++empty;
    } else {
      EXPECT_EQ(out, expected) << n;
    }
  }
  EXPECT_GT(empty, 0);
}

TEST(AllocationTest, TryQueriesReportExhaustion) {
  const Buffers b = Sample(60);
  const RingTelemetry t =
      RingTelemetry::DecodeWithWindowOpcodes(b.control, b.ring, kWindowOps);
  EXPECT_GT(FailEachAllocationInTurn([&](int64_t n) {
              FailAllocationAfter fail(n);
              return t.TryActiveSlotsForOpcode(RF_OP_HAVOC).status();
            }),
            0);
  EXPECT_GT(FailEachAllocationInTurn([&](int64_t n) {
              FailAllocationAfter fail(n);
              return t.TryActiveWindows().status();
            }),
            0);
  std::vector<const RingSlotSnapshot*> keep = {&t.slots[0]};
  absl::Status status;
  {
    FailAllocationAfter fail(0);
    status = t.TryActiveSlotsForOpcodeInto(RF_OP_HAVOC, keep);
  }
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  ASSERT_EQ(keep.size(), 1u);  // unchanged
  EXPECT_EQ(keep[0], &t.slots[0]);
  std::vector<const WindowTelemetry*> windows;
  {
    FailAllocationAfter fail(0);
    status = t.TryActiveWindowsInto(windows);
  }
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  // Plain forms let std::bad_alloc through, like any container.
  bool threw = false;
  {
    FailAllocationAfter fail(0);
    try {
      (void)t.ActiveSlotsForOpcode(RF_OP_HAVOC);
    } catch (const std::bad_alloc&) {
      threw = true;
    }
  }
  EXPECT_TRUE(threw);
}

TEST(AllocationTest, SketchReportsExhaustion) {
  const Buffers b = Sample(20);
  const RingTelemetry t = RingTelemetry::Decode(b.control, b.ring);
  EXPECT_GT(FailEachAllocationInTurn([&](int64_t n) {
              FailAllocationAfter fail(n);
              return t.Sketch(3, 64).status();
            }),
            0);
  SketchTelemetryScratch scratch;
  absl::Status status;
  {
    FailAllocationAfter fail(0);
    status = t.SketchInto(3, 64, scratch);
  }
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(scratch.sketch(), nullptr);
}

}  // namespace
}  // namespace ringfuzz::telemetry
