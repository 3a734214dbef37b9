// Tenant fairness: the corpus is split into tenants that share the device.
//
//  * tenant kSeedTenant (0): entries the run started with (seeds that added
//    coverage, or the "\n" starter);
//  * tenant kFoundTenant (1): entries found by this run.
//
// Each tenant with entries is owed an equal share of the device's claims.
// The megakernel counts claims per tenant in the fairness counters (control
// words RF_CTRL_TENANT_FAIRNESS..); the balancer reads how many claims each
// tenant got in the steered dispatches so far and gives a tenant that got
// less than its share more slots in the next batch (and one that got more,
// fewer), never less than one slot each. Its quotas and masks (tenants
// without entries are paused; tenant 0 never is) go to the control words
// RF_CTRL_TENANT_MASKS.. and RF_CTRL_TENANT_QUOTAS.. of the next batch.
// When the set of tenants with entries changes, the claims start counting
// afresh, so a tenant that just got its first entry is not owed the whole
// past.
#ifndef RINGFUZZ_FUZZ_STEER_STEERING_TENANTS_H_
#define RINGFUZZ_FUZZ_STEER_STEERING_TENANTS_H_

#include <array>
#include <cstdint>
#include <vector>

#include "fuzz/steer/steering_wire.h"
#include "telemetry/control_snapshot.h"

namespace ringfuzz {

inline constexpr uint32_t kSeedTenant = 0;
inline constexpr uint32_t kFoundTenant = 1;
inline constexpr uint32_t kTenantCount = 2;

class TenantBalancer {
 public:
  // Tenant of corpus entry `index` when the first `seed_entries` entries
  // are the ones the run started with.
  static uint32_t TenantOf(size_t index, size_t seed_entries) {
    return index < seed_entries ? kSeedTenant : kFoundTenant;
  }

  // The claims of one steered dispatch: the fairness counters before it
  // started and after it ended (counters of other dispatches, such as
  // calibration, are not the batches' and are not counted).
  void ObserveDispatch(const telemetry::ControlSnapshot& start,
                       const telemetry::ControlSnapshot& end);

  // Items per tenant for a batch of `slots` items, given how many entries
  // each tenant has (index = tenant). Adds up to `slots`.
  std::vector<uint32_t> Quotas(uint32_t slots,
                               const std::vector<size_t>& entries);

  // The control words for `quotas` (from Quotas) and `entries`.
  static TenantWords Words(const std::vector<uint32_t>& quotas,
                           const std::vector<size_t>& entries);

  // Claims per tenant counted since the set of tenants with entries last
  // changed.
  const std::array<uint64_t, kTenantCount>& claims() const { return claims_; }

 private:
  std::array<uint64_t, kTenantCount> claims_{};
  std::vector<bool> active_;  // tenants with entries, as last planned
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_STEER_STEERING_TENANTS_H_
