// A deterministic count-min sketch: bounded memory for "how often did key K
// occur", never underestimating. It is the host mirror of the sketches the
// megakernel can keep in control memory, so its hashing is fixed by the
// wire protocol and has no seed: the same events give the same counters on
// every run, which keeps replays and golden tests stable.
#ifndef RINGFUZZ_TELEMETRY_COUNT_MIN_SKETCH_H_
#define RINGFUZZ_TELEMETRY_COUNT_MIN_SKETCH_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace ringfuzz::telemetry {

// Row r hashes key k with SplitMix64Finalize(k ^ (r * kCountMinRowGamma))
// (wrapping multiply). The gamma is SplitMix64's golden-ratio increment.
inline constexpr uint64_t kCountMinRowGamma = 0x9E3779B97F4A7C15u;

// The SplitMix64 output finalizer (variant 13 of Stafford's mix): the
// generator's step without the increment. A bijection on u64.
// wire-protocol.md names the finalizer alone; the original runtime's hash
// function added the increment before mixing, so its sketches bucket
// differently and are not mergeable with these.
constexpr uint64_t SplitMix64Finalize(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

// The column of `key` in row `row` of a sketch `width` columns wide.
// Requires width > 0.
constexpr uint64_t CountMinBucket(uint64_t row, uint32_t key, uint64_t width) {
  return SplitMix64Finalize(uint64_t{key} ^ (row * kCountMinRowGamma)) % width;
}

// Where CountMinSketch's counters come from: `allocate` returns `count`
// zeroed counters, or null when memory runs out; `release` frees them.
// calloc and free, unless a test installs its own before any sketch exists
// (tests/telemetry/allocation_test.cc routes them through operator new to
// fail allocations on purpose).
struct CounterMemory {
  uint64_t* (*allocate)(size_t count);
  void (*release)(uint64_t* counters);
};
// Installs `memory` for the whole process; returns the one it replaces.
CounterMemory SetCounterMemoryForTesting(CounterMemory memory);

// depth x width u64 counters, row-major. Copyable value type. The counters
// of a new sketch come zeroed from calloc: a large sketch whose events
// touch few counters costs pages only where they land.
class CountMinSketch {
 public:
  // A zeroed sketch. InvalidArgument if a dimension is zero or depth * width
  // overflows; ResourceExhausted if the counters cannot be allocated.
  static absl::StatusOr<CountMinSketch> Create(size_t depth, size_t width);

  CountMinSketch(const CountMinSketch& other);
  CountMinSketch& operator=(const CountMinSketch& other);
  // The moved-from sketch is left 0x0 (no counters); Reset reshapes it.
  CountMinSketch(CountMinSketch&& other) noexcept;
  CountMinSketch& operator=(CountMinSketch&& other) noexcept;
  ~CountMinSketch() = default;

  // Zeroes the counters and gives the sketch the shape depth x width,
  // reusing the allocation when it is large enough. Same errors as Create;
  // on error the sketch is unchanged.
  absl::Status Reset(size_t depth, size_t width);

  size_t depth() const { return depth_; }
  size_t width() const { return width_; }
  // Row-major: counter (row, column) is counters()[row * width() + column].
  absl::Span<const uint64_t> counters() const {
    return {counters_.get(), depth_ * width_};
  }

  // Adds `amount` to the key's counter in every row, saturating at
  // UINT64_MAX: a saturated counter still never underestimates.
  void Add(uint32_t key, uint64_t amount = 1);
  // Adds like Add, or returns OutOfRange and changes nothing if some counter
  // would pass UINT64_MAX.
  absl::Status TryAdd(uint32_t key, uint64_t amount = 1);
  // The smallest of the key's counters: never less than the true count (of
  // unsaturated adds), and more only by hash collisions.
  uint64_t Estimate(uint32_t key) const;

  // Adds `other` counter by counter, as if its events had been added here.
  // InvalidArgument if the shapes differ; OutOfRange if a sum would pass
  // UINT64_MAX. On error nothing changes.
  absl::Status Merge(const CountMinSketch& other);

  friend bool operator==(const CountMinSketch& a, const CountMinSketch& b) {
    return a.depth_ == b.depth_ && a.width_ == b.width_ &&
           a.counters() == b.counters();
  }
  friend bool operator!=(const CountMinSketch& a, const CountMinSketch& b) {
    return !(a == b);
  }

 private:
  CountMinSketch() = default;

  size_t Index(size_t row, uint32_t key) const {
    return row * width_ + CountMinBucket(row, key, width_);
  }

  struct Release {
    void operator()(uint64_t* counters) const;
  };

  size_t depth_ = 0;
  size_t width_ = 0;
  size_t capacity_ = 0;  // counters allocated (>= depth_ * width_)
  std::unique_ptr<uint64_t[], Release> counters_;
};
// Prints the shape and the non-zero counters.
std::ostream& operator<<(std::ostream& os, const CountMinSketch& sketch);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_COUNT_MIN_SKETCH_H_
