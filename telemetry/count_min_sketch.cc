#include "telemetry/count_min_sketch.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <ostream>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace ringfuzz::telemetry {
namespace {

constexpr uint64_t kCounterMax = std::numeric_limits<uint64_t>::max();

// calloc checks count * 8 for overflow, and its large blocks come zeroed
// from the system without being written: pages cost only where counters
// are touched.
uint64_t* CallocCounters(size_t count) {
  return static_cast<uint64_t*>(std::calloc(count, sizeof(uint64_t)));
}
void FreeCounters(uint64_t* counters) { std::free(counters); }

CounterMemory g_counter_memory = {CallocCounters, FreeCounters};

absl::Status CheckShape(size_t depth, size_t width) {
  if (depth == 0 || width == 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "count-min sketch shape %ux%u has a zero dimension. Fix: ask for at "
        "least 1 row and 1 column (e.g. 4x1024).",
        depth, width));
  }
  if (depth > std::numeric_limits<size_t>::max() / width) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "count-min sketch shape %ux%u overflows the counter count. Fix: "
        "lower the depth or the width.",
        depth, width));
  }
  return absl::OkStatus();
}

}  // namespace

CounterMemory SetCounterMemoryForTesting(CounterMemory memory) {
  return std::exchange(g_counter_memory, memory);
}

void CountMinSketch::Release::operator()(uint64_t* counters) const {
  g_counter_memory.release(counters);
}

absl::StatusOr<CountMinSketch> CountMinSketch::Create(size_t depth,
                                                      size_t width) {
  CountMinSketch sketch;
  if (absl::Status status = sketch.Reset(depth, width); !status.ok()) {
    return status;
  }
  return sketch;
}

CountMinSketch::CountMinSketch(const CountMinSketch& other) { *this = other; }

CountMinSketch& CountMinSketch::operator=(const CountMinSketch& other) {
  if (this == &other) return *this;
  const size_t cells = other.depth_ * other.width_;
  if (cells > capacity_) {
    uint64_t* counters = g_counter_memory.allocate(cells);
    if (counters == nullptr) throw std::bad_alloc();
    counters_.reset(counters);
    capacity_ = cells;
  }
  if (cells != 0) {
    std::memcpy(counters_.get(), other.counters_.get(),
                cells * sizeof(uint64_t));
  }
  depth_ = other.depth_;
  width_ = other.width_;
  return *this;
}

CountMinSketch::CountMinSketch(CountMinSketch&& other) noexcept {
  *this = std::move(other);
}

CountMinSketch& CountMinSketch::operator=(CountMinSketch&& other) noexcept {
  if (this == &other) return *this;
  counters_ = std::move(other.counters_);
  depth_ = std::exchange(other.depth_, 0);
  width_ = std::exchange(other.width_, 0);
  capacity_ = std::exchange(other.capacity_, 0);
  return *this;
}

absl::Status CountMinSketch::Reset(size_t depth, size_t width) {
  if (absl::Status status = CheckShape(depth, width); !status.ok()) {
    return status;
  }
  const size_t cells = depth * width;
  if (cells <= capacity_) {
    std::memset(counters_.get(), 0, cells * sizeof(uint64_t));
  } else {
    uint64_t* counters = g_counter_memory.allocate(cells);
    if (counters == nullptr) {
      return absl::ResourceExhaustedError(absl::StrFormat(
          "cannot allocate %u counters for a %ux%u count-min sketch. Fix: "
          "lower the depth or the width.",
          cells, depth, width));
    }
    counters_.reset(counters);
    capacity_ = cells;
  }
  depth_ = depth;
  width_ = width;
  return absl::OkStatus();
}

void CountMinSketch::Add(uint32_t key, uint64_t amount) {
  for (size_t row = 0; row < depth_; ++row) {
    uint64_t& counter = counters_[Index(row, key)];
    counter = amount > kCounterMax - counter ? kCounterMax : counter + amount;
  }
}

absl::Status CountMinSketch::TryAdd(uint32_t key, uint64_t amount) {
  for (size_t row = 0; row < depth_; ++row) {
    const uint64_t counter = counters_[Index(row, key)];
    if (amount > kCounterMax - counter) {
      return absl::OutOfRangeError(absl::StrFormat(
          "count-min sketch counter for key %u in row %u would overflow "
          "(%u + %u > 2^64-1); nothing was added. Fix: export and Reset the "
          "sketch before its counters get this large.",
          key, row, counter, amount));
    }
  }
  for (size_t row = 0; row < depth_; ++row) {
    counters_[Index(row, key)] += amount;
  }
  return absl::OkStatus();
}

uint64_t CountMinSketch::Estimate(uint32_t key) const {
  uint64_t estimate = kCounterMax;
  for (size_t row = 0; row < depth_; ++row) {
    estimate = std::min(estimate, counters_[Index(row, key)]);
  }
  return estimate;
}

absl::Status CountMinSketch::Merge(const CountMinSketch& other) {
  if (depth_ != other.depth_ || width_ != other.width_) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "cannot merge a %ux%u count-min sketch into a %ux%u one: counters "
        "only line up between sketches of the same shape. Fix: build both "
        "sketches with the same depth and width.",
        other.depth_, other.width_, depth_, width_));
  }
  const size_t cells = depth_ * width_;
  for (size_t i = 0; i < cells; ++i) {
    if (other.counters_[i] > kCounterMax - counters_[i]) {
      return absl::OutOfRangeError(absl::StrFormat(
          "merging count-min sketches would overflow counter %u (%u + %u > "
          "2^64-1); nothing was merged. Fix: merge and export more often.",
          i, counters_[i], other.counters_[i]));
    }
  }
  for (size_t i = 0; i < cells; ++i) {
    counters_[i] += other.counters_[i];
  }
  return absl::OkStatus();
}

std::ostream& operator<<(std::ostream& os, const CountMinSketch& sketch) {
  os << "CountMinSketch{" << sketch.depth() << "x" << sketch.width() << ":";
  const absl::Span<const uint64_t> counters = sketch.counters();
  for (size_t i = 0; i < counters.size(); ++i) {
    if (counters[i] != 0) {
      os << " [" << i / sketch.width() << "," << i % sketch.width()
         << "]=" << counters[i];
    }
  }
  return os << "}";
}

}  // namespace ringfuzz::telemetry
