#include "fuzz/gpu/input_to_state.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "fuzz/gpu/colorization.h"

namespace ringfuzz {
namespace {

// Collects patches in order, without duplicates or no-op writes, up to a
// limit.
class PatchList {
 public:
  PatchList(absl::Span<const uint8_t> input, size_t limit)
      : input_(input), limit_(limit) {}

  bool full() const { return patches_.size() >= limit_; }

  // From now on, writes of only bytes marked in `inert` (one flag per
  // input byte, or null: none) are not added.
  void set_inert(const std::vector<bool>* inert) { inert_ = inert; }

  // Adds a write of bytes[0, width) at `position` (in range) unless it
  // changes nothing, writes only inert bytes, or was added before.
  void Add(size_t position, const uint8_t* bytes, uint32_t width) {
    if (full() || width == 0 || width > 4 || position + width > input_.size())
      return;
    if (std::equal(bytes, bytes + width, input_.begin() + position)) return;
    if (inert_ != nullptr && inert_->size() == input_.size() &&
        std::all_of(inert_->begin() + position,
                    inert_->begin() + position + width,
                    [](bool b) { return b; })) {
      return;
    }
    InputPatch patch;
    patch.position = static_cast<uint32_t>(position);
    patch.width = width;
    for (uint32_t k = 0; k < width; ++k)
      patch.value |= uint32_t{bytes[k]} << (8 * k);
    if (!seen_.insert({patch.position, patch.width, patch.value}).second)
      return;
    patches_.push_back(patch);
  }

  const std::vector<InputPatch>& patches() const { return patches_; }
  std::vector<InputPatch> Take() && { return std::move(patches_); }

 private:
  absl::Span<const uint8_t> input_;
  size_t limit_;
  const std::vector<bool>* inert_ = nullptr;
  std::vector<InputPatch> patches_;
  absl::flat_hash_set<std::tuple<uint32_t, uint32_t, uint32_t>> seen_;
};

// Every position where `needle` stands in `input`.
std::vector<size_t> Occurrences(absl::Span<const uint8_t> input,
                                const std::vector<uint8_t>& needle) {
  std::vector<size_t> at;
  if (needle.empty() || needle.size() > input.size()) return at;
  for (size_t p = 0; p + needle.size() <= input.size(); ++p) {
    if (std::equal(needle.begin(), needle.end(), input.begin() + p)) {
      at.push_back(p);
    }
  }
  return at;
}

// The `width` bytes of `value`, least (big: most) significant first.
std::vector<uint8_t> Encode(uint32_t value, uint32_t width, bool big) {
  std::vector<uint8_t> bytes(width);
  for (uint32_t k = 0; k < width; ++k) {
    const uint32_t shift = 8 * (big ? width - 1 - k : k);
    bytes[k] = static_cast<uint8_t>(value >> shift);
  }
  return bytes;
}

bool Fits(uint32_t value, uint32_t width) {
  return width >= 4 || value < (uint32_t{1} << (8 * width));
}

// Patches from byte strings compared in a loop (see the header, 1.).
void AddStringPatches(absl::Span<const uint8_t> input,
                      absl::Span<const CompareRecord> log, PatchList& out) {
  for (size_t begin = 0; begin < log.size() && !out.full();) {
    size_t end = begin;
    while (end < log.size() && log[end].site == log[begin].site &&
           log[end].a < 0x100 && log[end].b < 0x100) {
      ++end;
    }
    if (end - begin >= 2) {
      std::vector<uint8_t> a, b;
      for (size_t i = begin; i < end; ++i) {
        a.push_back(static_cast<uint8_t>(log[i].a));
        b.push_back(static_cast<uint8_t>(log[i].b));
      }
      size_t first = 0, last = a.size();
      while (first < a.size() && a[first] == b[first]) ++first;
      while (last > first && a[last - 1] == b[last - 1]) --last;
      if (first < last && last - first <= 4) {
        const uint32_t width = static_cast<uint32_t>(last - first);
        for (size_t p : Occurrences(input, a))
          out.Add(p + first, &b[first], width);
        for (size_t p : Occurrences(input, b))
          out.Add(p + first, &a[first], width);
      }
    }
    begin = std::max(end, begin + 1);
  }
}

// The distinct pairs (a != b) of each site, at most kPairsPerSite per site
// (its first and last ones), in log order.
std::vector<std::pair<uint32_t, uint32_t>> OperandPairs(
    absl::Span<const CompareRecord> log) {
  absl::flat_hash_map<uint32_t, std::vector<size_t>> by_site;
  absl::flat_hash_set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
  std::vector<size_t> order;
  for (size_t i = 0; i < log.size(); ++i) {
    const CompareRecord& r = log[i];
    if (r.a == r.b || !seen.insert({r.site, r.a, r.b}).second) continue;
    by_site[r.site].push_back(i);
  }
  for (auto& [site, records] : by_site) {
    const size_t half = kPairsPerSite / 2;
    for (size_t k = 0; k < records.size(); ++k) {
      if (k < half || k + half >= records.size()) order.push_back(records[k]);
    }
  }
  std::sort(order.begin(), order.end());
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  pairs.reserve(order.size());
  for (size_t i : order) pairs.push_back({log[i].a, log[i].b});
  return pairs;
}

// Patches for additive checksums (see the header, 3.): the byte of each
// comparison that holds, plus each byte-sum delta of the patches so far.
void AddChecksumPartners(absl::Span<const uint8_t> input,
                         absl::Span<const CompareRecord> log, PatchList& out) {
  std::vector<uint8_t> deltas;
  for (const InputPatch& patch : out.patches()) {
    uint32_t delta = 0;
    for (uint32_t k = 0; k < patch.width; ++k) {
      delta += (patch.value >> (8 * k)) - input[patch.position + k];
    }
    const uint8_t d = static_cast<uint8_t>(delta);
    if (d != 0 && deltas.size() < kChecksumDeltas &&
        std::find(deltas.begin(), deltas.end(), d) == deltas.end()) {
      deltas.push_back(d);
    }
  }
  std::vector<uint8_t> held;
  for (const CompareRecord& r : log) {
    if (r.a != r.b || r.a > 0xFF) continue;
    const uint8_t v = static_cast<uint8_t>(r.a);
    if (std::find(held.begin(), held.end(), v) == held.end()) held.push_back(v);
  }
  const size_t limit = out.patches().size() + kChecksumPartners;
  for (uint8_t v : held) {
    for (size_t q : Occurrences(input, {v})) {
      for (uint8_t d : deltas) {
        if (out.patches().size() >= limit) return;
        const uint8_t byte = static_cast<uint8_t>(v + d);
        out.Add(q, &byte, 1);
      }
    }
  }
}

}  // namespace

std::vector<InputPatch> DeriveInputToStatePatches(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    size_t max_patches, const ColorEvidence* color) {
  PatchList out(input, max_patches);
  if (color != nullptr) {
    for (const InputPatch& patch : color->confirmed) {
      uint8_t bytes[4];
      for (uint32_t k = 0; k < 4; ++k)
        bytes[k] = static_cast<uint8_t>(patch.value >> (8 * k));
      out.Add(patch.position, bytes, patch.width);
    }
    out.set_inert(&color->inert);
  }
  AddStringPatches(input, log, out);
  const std::vector<std::pair<uint32_t, uint32_t>> pairs = OperandPairs(log);
  for (uint32_t width : {4u, 2u, 1u}) {
    for (const auto& [a, b] : pairs) {
      for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
        if (!Fits(x, width) || !Fits(y, width)) continue;
        for (bool big : {false, true}) {
          if (big && width == 1) continue;
          for (size_t p : Occurrences(input, Encode(x, width, big))) {
            for (uint32_t value : {y, y + 1, y - 1}) {
              if (value != y && !Fits(value, width)) continue;
              const std::vector<uint8_t> bytes = Encode(value, width, big);
              out.Add(p, bytes.data(), width);
            }
          }
        }
      }
    }
  }
  out.set_inert(nullptr);
  AddChecksumPartners(input, log, out);
  return std::move(out).Take();
}

}  // namespace ringfuzz
