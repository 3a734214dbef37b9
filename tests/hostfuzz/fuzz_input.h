// What the host-side harnesses (tests/hostfuzz) share: one libFuzzer input
// split into the buffers an entry point takes, and a check that aborts (so
// libFuzzer saves the input) when an invariant breaks.
//
// Input layout, read front to back: Byte() takes one byte (0 past the end);
// Part() takes a little-endian u32 length L (missing bytes read as 0) and
// then min(L, what is left) bytes; Rest() takes everything left. Each part
// is copied into a vector of its exact size, so ASan sees a read past any
// one buffer, not only past the whole input. tests/hostfuzz/make_seeds.py
// writes seeds in this layout from real buffer dumps.
#ifndef RINGFUZZ_TESTS_HOSTFUZZ_FUZZ_INPUT_H_
#define RINGFUZZ_TESTS_HOSTFUZZ_FUZZ_INPUT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define HOSTFUZZ_CHECK(cond)                                                \
  do {                                                                      \
    if (!(cond)) {                                                          \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                   #cond);                                                  \
      std::abort();                                                         \
    }                                                                       \
  } while (0)

// Marks a harness's own checking code (not the code under test): it gets
// no coverage instrumentation, so libFuzzer steers by the code under test
// alone and does not pay a callback per compared byte of, say, a JSON text;
// ASan and UBSan still instrument it.
#define HOSTFUZZ_NO_COVERAGE __attribute__((no_sanitize("coverage")))

namespace ringfuzz::hostfuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }

  uint32_t Word() {
    uint32_t w = 0;
    for (int i = 0; i < 4; ++i) w |= uint32_t{Byte()} << (8 * i);
    return w;
  }

  std::vector<uint8_t> Part() {
    const size_t len = std::min<size_t>(Word(), size_ - pos_);
    return Take(len);
  }

  std::vector<uint8_t> Rest() { return Take(size_ - pos_); }

 private:
  std::vector<uint8_t> Take(size_t len) {
    std::vector<uint8_t> out(data_ + pos_, data_ + pos_ + len);
    pos_ += len;
    return out;
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace ringfuzz::hostfuzz

#endif  // RINGFUZZ_TESTS_HOSTFUZZ_FUZZ_INPUT_H_
