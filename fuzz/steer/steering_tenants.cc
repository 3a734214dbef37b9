#include "fuzz/steer/steering_tenants.h"

#include <algorithm>
#include <utility>

namespace ringfuzz {

void TenantBalancer::ObserveDispatch(const telemetry::ControlSnapshot& start,
                                     const telemetry::ControlSnapshot& end) {
  for (uint32_t t = 0; t < kTenantCount; ++t) {
    const uint32_t before = start.tenant_fairness[t];
    const uint32_t after = end.tenant_fairness[t];
    claims_[t] += after >= before ? after - before : 0;  // reset: skip
  }
}

std::vector<uint32_t> TenantBalancer::Quotas(
    uint32_t slots, const std::vector<size_t>& entries) {
  std::vector<bool> active(kTenantCount, false);
  uint32_t tenants = 0;
  for (uint32_t t = 0; t < kTenantCount && t < entries.size(); ++t) {
    active[t] = entries[t] > 0;
    tenants += active[t];
  }
  if (active != active_) {
    active_ = active;
    claims_.fill(0);
  }
  std::vector<uint32_t> quotas(kTenantCount, 0);
  if (tenants == 0 || slots == 0) return quotas;
  // Claims each active tenant still needs to reach an equal share of the
  // claims so far plus this batch.
  uint64_t total = 0;
  for (uint32_t t = 0; t < kTenantCount; ++t) {
    if (active[t]) total += claims_[t];
  }
  const uint64_t target = (total + slots) / tenants;
  std::vector<uint64_t> want(kTenantCount, 0);
  uint64_t wanted = 0;
  for (uint32_t t = 0; t < kTenantCount; ++t) {
    if (!active[t]) continue;
    want[t] = target > claims_[t] ? target - claims_[t] : 0;
    wanted += want[t];
  }
  // Every active tenant gets at least one slot when there are enough.
  const uint32_t floor = slots >= tenants ? 1 : 0;
  uint32_t left = slots - floor * tenants;
  std::vector<std::pair<uint64_t, uint32_t>> remainders;
  for (uint32_t t = 0; t < kTenantCount; ++t) {
    if (!active[t]) continue;
    quotas[t] = floor;
    const uint64_t share_of = wanted == 0 ? 1 : want[t];
    const uint64_t out_of = wanted == 0 ? tenants : wanted;
    const unsigned __int128 exact =
        static_cast<unsigned __int128>(slots - floor * tenants) * share_of;
    quotas[t] += static_cast<uint32_t>(exact / out_of);
    left -= static_cast<uint32_t>(exact / out_of);
    remainders.push_back({static_cast<uint64_t>(exact % out_of), t});
  }
  std::stable_sort(
      remainders.begin(), remainders.end(),
      [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t k = 0; left > 0; ++k, --left) {
    ++quotas[remainders[k % remainders.size()].second];
  }
  return quotas;
}

TenantWords TenantBalancer::Words(const std::vector<uint32_t>& quotas,
                                  const std::vector<size_t>& entries) {
  TenantWords words;
  words.masks.fill(1);  // tenants the balancer does not manage may run
  for (uint32_t t = 0; t < kTenantCount; ++t) {
    const bool has_entries = t < entries.size() && entries[t] > 0;
    words.masks[t] = t == kSeedTenant || has_entries ? 1 : 0;
    words.quotas[t] = t < quotas.size() ? quotas[t] : 0;
  }
  return words;
}

}  // namespace ringfuzz
