#include "fuzz/gpu/compare_log.h"

#include <algorithm>

#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

static_assert(RF_CMPLOG_HEAD < RF_CMPLOG_RECORDS &&
                  ((RF_CMPLOG_RECORDS - RF_CMPLOG_HEAD) &
                   (RF_CMPLOG_RECORDS - RF_CMPLOG_HEAD - 1)) == 0,
              "RF_CMPLOG_SLOT's ring must have a power-of-2 size");

uint32_t ReadCompareLog(absl::Span<const uint32_t> entry,
                        std::vector<CompareRecord>& records) {
  records.clear();
  if (entry.size() < RF_CMPLOG_ENTRY_WORDS) return 0;
  const uint32_t made = entry[0];
  const uint32_t stored = std::min(made, RF_CMPLOG_RECORDS);
  records.reserve(stored);
  auto take = [&](uint32_t n) {
    const uint32_t* w =
        entry.data() + 1 + RF_CMPLOG_SLOT(n) * RF_CMPLOG_RECORD_WORDS;
    records.push_back({w[0], w[1], w[2]});
  };
  if (made <= RF_CMPLOG_RECORDS) {
    for (uint32_t n = 0; n < made; ++n) take(n);
    return made;
  }
  for (uint32_t n = 0; n < RF_CMPLOG_HEAD; ++n) take(n);
  for (uint32_t n = made - (RF_CMPLOG_RECORDS - RF_CMPLOG_HEAD); n < made;
       ++n) {
    take(n);
  }
  return made;
}

bool SamePath(absl::Span<const CompareRecord> log, uint32_t made,
              absl::Span<const CompareRecord> other, uint32_t other_made) {
  if (other_made != made || other.size() != log.size()) return false;
  for (size_t i = 0; i < log.size(); ++i) {
    if (other[i].site != log[i].site) return false;
  }
  return true;
}

size_t SharedPathPrefix(absl::Span<const CompareRecord> log, uint32_t made,
                        absl::Span<const CompareRecord> other,
                        uint32_t other_made) {
  if (SamePath(log, made, other, other_made)) return log.size();
  size_t limit = std::min(log.size(), other.size());
  if (made != log.size() || other_made != other.size()) {
    limit = std::min<size_t>(limit, RF_CMPLOG_HEAD);
  }
  size_t n = 0;
  while (n < limit && log[n].site == other[n].site) ++n;
  return n;
}

}  // namespace ringfuzz
