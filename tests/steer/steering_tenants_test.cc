#include "fuzz/steer/steering_tenants.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;

telemetry::ControlSnapshot Claims(uint32_t seeds, uint32_t found) {
  telemetry::ControlSnapshot control;
  control.tenant_fairness[kSeedTenant] = seeds;
  control.tenant_fairness[kFoundTenant] = found;
  return control;
}

TEST(TenantBalancerTest, EntriesSplitIntoSeedAndFoundTenants) {
  EXPECT_EQ(TenantBalancer::TenantOf(0, 3), kSeedTenant);
  EXPECT_EQ(TenantBalancer::TenantOf(2, 3), kSeedTenant);
  EXPECT_EQ(TenantBalancer::TenantOf(3, 3), kFoundTenant);
}

TEST(TenantBalancerTest, EqualSharesWhileClaimsAreEven) {
  TenantBalancer balancer;
  EXPECT_THAT(balancer.Quotas(16, {3, 5}), ElementsAre(8u, 8u));
  balancer.ObserveDispatch(Claims(100, 40), Claims(108, 48));
  EXPECT_THAT(balancer.Quotas(16, {3, 5}), ElementsAre(8u, 8u));
  EXPECT_THAT(balancer.Quotas(7, {3, 5}), ElementsAre(4u, 3u));
}

TEST(TenantBalancerTest, ATenantBehindItsShareGetsMoreSlots) {
  TenantBalancer balancer;
  EXPECT_THAT(balancer.Quotas(16, {3, 5}), ElementsAre(8u, 8u));
  // The device claimed 30 seed slots and 2 found ones.
  balancer.ObserveDispatch(Claims(0, 0), Claims(30, 2));
  EXPECT_THAT(balancer.claims(), ElementsAre(30u, 2u));
  // Each is owed (32 + 16) / 2 = 24: found needs 22, seeds none; seeds keep
  // one slot.
  EXPECT_THAT(balancer.Quotas(16, {3, 5}), ElementsAre(1u, 15u));
  balancer.ObserveDispatch(Claims(30, 2), Claims(31, 17));
  EXPECT_THAT(balancer.Quotas(16, {3, 5}), ElementsAre(2u, 14u));
}

TEST(TenantBalancerTest, ATenantWithoutEntriesGetsNothingAndIsPaused) {
  TenantBalancer balancer;
  EXPECT_THAT(balancer.Quotas(16, {4, 0}), ElementsAre(16u, 0u));
  const TenantWords words = TenantBalancer::Words({16, 0}, {4, 0});
  EXPECT_EQ(words.masks[kSeedTenant], 1u);
  EXPECT_EQ(words.masks[kFoundTenant], 0u);
  EXPECT_EQ(words.masks[2], 1u);  // not managed: may run
  EXPECT_EQ(words.quotas[kSeedTenant], 16u);
  EXPECT_EQ(words.quotas[kFoundTenant], 0u);
  // The seeds' tenant is never paused, even when empty.
  EXPECT_EQ(TenantBalancer::Words({}, {0, 2}).masks[kSeedTenant], 1u);
}

TEST(TenantBalancerTest, ClaimsCountAfreshWhenATenantGetsItsFirstEntry) {
  TenantBalancer balancer;
  balancer.Quotas(16, {4, 0});
  balancer.ObserveDispatch(Claims(0, 0), Claims(500, 0));
  EXPECT_THAT(balancer.Quotas(16, {4, 1}), ElementsAre(8u, 8u));
  EXPECT_THAT(balancer.claims(), ElementsAre(0u, 0u));
}

TEST(TenantBalancerTest, CountersThatWentBackwardsAddNothing) {
  TenantBalancer balancer;
  balancer.Quotas(8, {1, 1});
  balancer.ObserveDispatch(Claims(50, 50), Claims(3, 60));
  EXPECT_THAT(balancer.claims(), ElementsAre(0u, 10u));
}

}  // namespace
}  // namespace ringfuzz
