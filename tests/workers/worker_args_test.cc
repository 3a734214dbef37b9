#include "fuzz/workers/worker_args.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;

TEST(WorkerArgsTest, RunsAreSplitExactlyAndSeedsFollowTheCampaignSeed) {
  Config config;
  config.runs = 10;
  const std::vector<uint32_t> devices = {0, 1, 2};
  const std::vector<WorkerSpec> specs = PlanWorkers(config, devices, 100);
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0].runs, 4);
  EXPECT_EQ(specs[1].runs, 3);
  EXPECT_EQ(specs[2].runs, 3);
  EXPECT_EQ(specs[0].seed, 100u);
  EXPECT_EQ(specs[2].seed, 102u);
  EXPECT_EQ(specs[2].device_index, 2u);
  EXPECT_EQ(specs[2].worker, 2u);
}

TEST(WorkerArgsTest, UnlimitedRunsStayUnlimitedAndNoSeedIsZero) {
  Config config;
  const std::vector<uint32_t> devices = {3, 3};
  const std::vector<WorkerSpec> specs =
      PlanWorkers(config, devices, UINT64_MAX);
  EXPECT_EQ(specs[0].runs, -1);
  EXPECT_EQ(specs[1].runs, -1);
  EXPECT_EQ(specs[0].seed, UINT64_MAX);
  EXPECT_EQ(specs[1].seed, 1u);  // UINT64_MAX + 1 wraps to 0: "derive one"
}

TEST(WorkerArgsTest, PerProcessOutputsBecomeEachWorkersOwn) {
  Config config;
  config.exact_artifact_path = "out/crash";
  config.report = "rep";
  config.telemetry_out = "t.jsonl";
  const std::vector<uint32_t> devices = {0, 1};
  const std::vector<WorkerSpec> specs = PlanWorkers(config, devices, 1);
  EXPECT_EQ(specs[1].exact_artifact_path, "out/crash.1");
  EXPECT_EQ(specs[1].report, "rep.1");
  EXPECT_EQ(specs[0].telemetry_out, "t.jsonl.0");
  EXPECT_EQ(specs[0].dump_buffers, "");
  EXPECT_EQ(specs[0].coverage_report, "");
}

TEST(WorkerArgsTest, WorkerFlagsComeFirstAndReplaceTheCampaigns) {
  WorkerSpec spec;
  spec.worker = 1;
  spec.device_index = 4;
  spec.seed = 8;
  spec.runs = 500;
  spec.exact_artifact_path = "a.1";
  const std::vector<std::string> args = {"-devices=all",
                                         "-target=t.fz",
                                         "-seed=7",
                                         "-runs=1000",
                                         "-max_total_time=60",
                                         "-exact_artifact_path=a",
                                         "-print_final_stats=0",
                                         "-ignore_remaining_args=1",
                                         "corpus",
                                         "--x=1"};
  EXPECT_THAT(WorkerArgs(args, spec),
              ElementsAre("-device=4", "-seed=8", "-runs=500",
                          "-print_final_stats=1", "-exact_artifact_path=a.1",
                          "-target=t.fz", "-max_total_time=60",
                          "-ignore_remaining_args=1", "corpus", "--x=1"));
}

TEST(WorkerArgsTest, UnlimitedRunsAreNotPassed) {
  WorkerSpec spec;
  spec.seed = 3;
  const std::vector<std::string> args = {"-runs=-1", "corpus"};
  EXPECT_THAT(
      WorkerArgs(args, spec),
      ElementsAre("-device=0", "-seed=3", "-print_final_stats=1", "corpus"));
}

TEST(WorkerArgsTest, TenantsPairTargetsWithDirectoriesInOrder) {
  Config config;
  config.artifact_prefix = "out/";
  const std::vector<std::string> targets = {"a/tlv.fz", "b/lz.fz"};
  const std::vector<std::string> dirs = {"corpus_tlv", "corpus_lz"};
  absl::StatusOr<std::vector<Tenant>> tenants =
      PlanTenants(config, targets, dirs);
  ASSERT_TRUE(tenants.ok()) << tenants.status();
  ASSERT_EQ(tenants->size(), 2u);
  EXPECT_EQ((*tenants)[1].target, "b/lz.fz");
  EXPECT_EQ((*tenants)[1].corpus_dir, "corpus_lz");
  EXPECT_EQ((*tenants)[1].name, "lz");
  EXPECT_EQ((*tenants)[0].artifact_prefix, "out/tlv-");
}

TEST(WorkerArgsTest, TenantsNeedOneDirectoryEachAndTheirOwnNames) {
  const Config config;
  const std::vector<std::string> two = {"a.fz", "b.fz"};
  const std::vector<std::string> one_dir = {"d"};
  EXPECT_THAT(PlanTenants(config, two, one_dir).status().message(),
              ::testing::HasSubstr("2 targets need 2 corpus directories"));
  const std::vector<std::string> same = {"x/a.fz", "y/a.fz"};
  const std::vector<std::string> dirs = {"d1", "d2"};
  EXPECT_THAT(PlanTenants(config, same, dirs).status().message(),
              ::testing::HasSubstr("do not all have their own file name"));
}

TEST(WorkerArgsTest, EachTenantGetsAWorkerPerDeviceAndTheWholeRuns) {
  Config config;
  config.runs = 5;
  const std::vector<std::string> targets = {"a.fz", "b.fz"};
  const std::vector<std::string> dirs = {"da", "db"};
  const std::vector<Tenant> tenants = *PlanTenants(config, targets, dirs);
  const std::vector<uint32_t> devices = {0, 1};
  const std::vector<WorkerSpec> specs =
      PlanWorkers(config, devices, 10, tenants);
  ASSERT_EQ(specs.size(), 4u);
  // Tenant a on devices 0 and 1, then tenant b: -runs=5 split per tenant.
  EXPECT_EQ(specs[0].target, "a.fz");
  EXPECT_EQ(specs[1].target, "a.fz");
  EXPECT_EQ(specs[2].target, "b.fz");
  EXPECT_EQ(specs[3].corpus_dir, "db");
  EXPECT_EQ(specs[3].artifact_prefix, "b-");
  EXPECT_EQ(specs[3].tenant, 1u);
  EXPECT_EQ(specs[2].device_index, 0u);
  EXPECT_EQ(specs[3].device_index, 1u);
  EXPECT_EQ(specs[0].runs + specs[1].runs, 5);
  EXPECT_EQ(specs[2].runs + specs[3].runs, 5);
  EXPECT_EQ(specs[3].seed, 13u);
  EXPECT_EQ(specs[3].worker, 3u);
}

TEST(WorkerArgsTest, ATenantsWorkerRunsOnlyItsTargetIntoItsDirectory) {
  WorkerSpec spec;
  spec.device_index = 0;
  spec.seed = 3;
  spec.target = "b.fz";
  spec.corpus_dir = "db";
  spec.artifact_prefix = "out/b-";
  const std::vector<std::string> args = {
      "-target=a.fz",      "da", "-artifact_prefix=out/", "-target=b.fz", "db",
      "-max_total_time=9", "-"};
  EXPECT_THAT(WorkerArgs(args, spec),
              ElementsAre("-device=0", "-seed=3", "-print_final_stats=1",
                          "-target=b.fz", "-artifact_prefix=out/b-", "db",
                          "-max_total_time=9"));
}

TEST(WorkerArgsTest, SingleDeviceArgsReplaceDevicesByDevice) {
  const std::vector<std::string> args = {"-target=t.fz", "-devices=all",
                                         "corpus"};
  EXPECT_THAT(SingleDeviceArgs(args, 2),
              ElementsAre("-device=2", "-target=t.fz", "corpus"));
}

TEST(WorkerArgsTest, FlagNames) {
  EXPECT_EQ(FlagName("-runs=5"), "runs");
  EXPECT_EQ(FlagName("-keep_going"), "keep_going");
  EXPECT_EQ(FlagName("-dict=a=b"), "dict");
  EXPECT_EQ(FlagName("corpus"), "");
  EXPECT_EQ(FlagName("-"), "");
  EXPECT_EQ(FlagName("--runs=5"), "");
}

}  // namespace
}  // namespace ringfuzz
