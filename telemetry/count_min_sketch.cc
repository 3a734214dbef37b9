#include "telemetry/count_min_sketch.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <new>
#include <ostream>
#include <stdexcept>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace ringfuzz::telemetry {
namespace {

constexpr uint64_t kCounterMax = std::numeric_limits<uint64_t>::max();

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

absl::StatusOr<CountMinSketch> CountMinSketch::Create(size_t depth,
                                                      size_t width) {
  CountMinSketch sketch;
  if (absl::Status status = sketch.Reset(depth, width); !status.ok()) {
    return status;
  }
  return sketch;
}

absl::Status CountMinSketch::Reset(size_t depth, size_t width) {
  if (absl::Status status = CheckShape(depth, width); !status.ok()) {
    return status;
  }
  const size_t cells = depth * width;
  try {
    counters_.reserve(cells);
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "cannot allocate %u counters for a %ux%u count-min sketch. Fix: "
        "lower the depth or the width.",
        cells, depth, width));
  } catch (const std::length_error&) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "%u counters for a %ux%u count-min sketch exceed what a vector can "
        "hold. Fix: lower the depth or the width.",
        cells, depth, width));
  }
  counters_.assign(cells, 0);  // within capacity: cannot throw
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
  for (size_t i = 0; i < counters_.size(); ++i) {
    if (other.counters_[i] > kCounterMax - counters_[i]) {
      return absl::OutOfRangeError(absl::StrFormat(
          "merging count-min sketches would overflow counter %u (%u + %u > "
          "2^64-1); nothing was merged. Fix: merge and export more often.",
          i, counters_[i], other.counters_[i]));
    }
  }
  for (size_t i = 0; i < counters_.size(); ++i) {
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
