#include "fuzz/gpu/colorization.h"

#include <algorithm>
#include <array>

#include "absl/container/flat_hash_set.h"
#include "fuzz/gpu/compare_log.h"

namespace ringfuzz {
namespace {

// SplitMix64's output function: a different 64-bit value for every x.
uint64_t SplitMix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The `width` bytes at data[p], as a number read little- or big-endian.
uint32_t ReadAt(absl::Span<const uint8_t> data, size_t p, uint32_t width,
                bool big) {
  uint32_t value = 0;
  for (uint32_t k = 0; k < width; ++k) {
    const uint32_t byte = data[big ? p + k : p + width - 1 - k];
    value = (value << 8) | byte;
  }
  return value;
}

bool HoldsIn(uint32_t value, uint32_t width) {
  return width >= 4 || (value >> (8 * width)) == 0;
}

}  // namespace

std::vector<ByteRange> ColorRanges(size_t length, uint32_t levels) {
  std::vector<ByteRange> ranges;
  if (length == 0 || levels == 0) return ranges;
  std::vector<ByteRange> level = {{0, static_cast<uint32_t>(length)}};
  for (uint32_t d = 0; d < levels && !level.empty(); ++d) {
    ranges.insert(ranges.end(), level.begin(), level.end());
    std::vector<ByteRange> next;
    for (const ByteRange& r : level) {
      if (r.end - r.begin < 2) continue;
      const uint32_t mid = r.begin + (r.end - r.begin) / 2;
      next.push_back({r.begin, mid});
      next.push_back({mid, r.end});
    }
    level = std::move(next);
  }
  return ranges;
}

std::vector<uint8_t> ColoredCopy(absl::Span<const uint8_t> input,
                                 ByteRange range, uint64_t seed) {
  std::vector<uint8_t> copy(input.begin(), input.end());
  const size_t end = std::min<size_t>(range.end, copy.size());
  uint64_t state = SplitMix(seed ^ (uint64_t{range.begin} << 32 | range.end));
  for (size_t i = range.begin; i < end; ++i) {
    state = SplitMix(state);
    // 1..255 added: never the byte it replaces.
    copy[i] = static_cast<uint8_t>(copy[i] + 1 + state % 255);
  }
  return copy;
}

ColorEvidence Colorize(absl::Span<const uint8_t> input,
                       absl::Span<const CompareRecord> log, uint32_t made,
                       absl::Span<const ColoredRun> runs) {
  ColorEvidence out;
  const size_t length = input.size();
  std::vector<bool> colored(length, false), read(length, false);
  out.plain.assign(length, false);
  absl::flat_hash_set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
  auto add = [&](size_t p, uint32_t width, uint32_t value, bool big) {
    if (!HoldsIn(value, width)) return;
    InputPatch patch;
    patch.position = static_cast<uint32_t>(p);
    patch.width = width;
    // The patch's value is little-endian: byte k is written at p + k.
    for (uint32_t k = 0; k < width; ++k) {
      const uint32_t shift = 8 * (big ? width - 1 - k : k);
      patch.value |= ((value >> shift) & 0xFFu) << (8 * k);
    }
    if (ReadAt(input, p, width, /*big=*/false) == patch.value) return;
    if (seen.insert({patch.position, patch.width, patch.value}).second) {
      out.confirmed.push_back(patch);
    }
  };
  for (const ColoredRun& run : runs) {
    if (run.data.size() != length || !SamePath(log, made, run.log, run.made))
      continue;
    const size_t begin = std::min<size_t>(run.range.begin, length);
    const size_t end = std::min<size_t>(run.range.end, length);
    if (begin >= end) continue;
    ++out.kept;
    std::vector<bool> read_here(length, false);
    bool explained = true;  // every changed operand was found
    // The positions where a match may start (up to 3 bytes before the
    // range), by the copy's byte there: a match's first byte is known, so
    // a search visits about 1/256 of the range.
    const size_t scan = begin >= 3 ? begin - 3 : 0;
    std::array<std::vector<uint32_t>, 256> starting;
    for (size_t p = scan; p < end; ++p) {
      starting[run.data[p]].push_back(static_cast<uint32_t>(p));
    }
    for (size_t i = 0; i < log.size(); ++i) {
      const CompareRecord& before = log[i];
      const CompareRecord& after = run.log[i];
      const uint32_t xs[2][3] = {{before.a, after.a, before.b},
                                 {before.b, after.b, before.a}};
      for (const auto& [x, x_colored, y] : xs) {
        if (x == x_colored) continue;
        bool found = false;
        // Positions with a patch at a wider width.
        absl::flat_hash_set<size_t> patched;
        for (uint32_t width : {4u, 2u, 1u}) {
          if (width > length || !HoldsIn(x, width) ||
              !HoldsIn(x_colored, width)) {
            continue;
          }
          const size_t first = begin >= width - 1 ? begin - (width - 1) : 0;
          const size_t last = std::min(end - 1, length - width);
          for (bool big : {false, true}) {
            if (big && width == 1) continue;
            const uint32_t lead =
                (x_colored >> (big ? 8 * (width - 1) : 0)) & 0xFFu;
            for (const uint32_t p : starting[lead]) {
              if (p < first || p > last) continue;
              if (ReadAt(run.data, p, width, big) != x_colored ||
                  ReadAt(input, p, width, big) != x) {
                continue;
              }
              found = true;
              for (size_t q = std::max<size_t>(p, begin);
                   q < std::min<size_t>(p + width, end); ++q) {
                read_here[q] = true;
              }
              // Only a match inside the colored range pins the width: the
              // bytes around it are the same in both runs.
              if (p < begin || p + width > end) continue;
              if (!patched.insert(p).second) continue;
              add(p, width, y, big);
              add(p, width, y + 1, big);
              add(p, width, y - 1, big);
            }
          }
        }
        explained = explained && found;
      }
    }
    for (size_t p = begin; p < end; ++p) {
      // A change found nowhere (a checksum, a hash of the bytes) may come
      // from any colored byte: then none is known to be unread.
      colored[p] = colored[p] || (explained && !read_here[p]);
      out.plain[p] = out.plain[p] || explained;
      read[p] = read[p] || read_here[p];
    }
  }
  out.inert.resize(length);
  for (size_t p = 0; p < length; ++p) out.inert[p] = colored[p] && !read[p];
  return out;
}

}  // namespace ringfuzz
