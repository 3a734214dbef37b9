// A non-owning view of the elements of a span that satisfy a predicate,
// for range-for loops that must not allocate.
#ifndef RINGFUZZ_TELEMETRY_FILTERED_RANGE_H_
#define RINGFUZZ_TELEMETRY_FILTERED_RANGE_H_

#include <cstddef>
#include <iterator>

#include "absl/types/span.h"

namespace ringfuzz::telemetry {

// Iterates the elements of `items` for which `predicate(element)` holds, in
// order. The range and its iterators stay valid while the span's storage
// does. `Predicate` is a small, copyable, default-constructible callable
// `bool(const T&) const`; every iterator carries its own copy.
template <typename T, typename Predicate>
class FilteredRange {
 public:
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;

    Iterator() = default;

    reference operator*() const { return *current_; }
    pointer operator->() const { return current_; }
    Iterator& operator++() {
      ++current_;
      SkipRejected();
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    friend bool operator==(const Iterator& a, const Iterator& b) {
      return a.current_ == b.current_;
    }
    friend bool operator!=(const Iterator& a, const Iterator& b) {
      return !(a == b);
    }

   private:
    friend class FilteredRange;
    Iterator(const T* current, const T* end, const Predicate& predicate)
        : current_(current), end_(end), predicate_(predicate) {
      SkipRejected();
    }
    void SkipRejected() {
      while (current_ != end_ && !predicate_(*current_)) ++current_;
    }

    const T* current_ = nullptr;
    const T* end_ = nullptr;
    Predicate predicate_{};
  };

  FilteredRange(absl::Span<const T> items, Predicate predicate)
      : items_(items), predicate_(predicate) {}

  Iterator begin() const {
    return Iterator(items_.data(), items_.data() + items_.size(), predicate_);
  }
  Iterator end() const {
    const T* end = items_.data() + items_.size();
    return Iterator(end, end, predicate_);
  }

  // Number of accepted elements (one pass over the span).
  size_t size() const {
    size_t count = 0;
    for (const T& item : items_) count += predicate_(item) ? 1 : 0;
    return count;
  }
  bool empty() const { return begin() == end(); }

 private:
  absl::Span<const T> items_;
  Predicate predicate_;
};

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_FILTERED_RANGE_H_
