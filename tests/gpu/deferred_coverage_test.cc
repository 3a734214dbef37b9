// Deferred coverage (GpuExecutorOptions::deferred_coverage) on lavapipe,
// checked against the immediate precise build as the reference: every
// input that does not crash (a timeout included) marks the same edge-map
// and site-map bits either way, and one that crashes marks none in the
// deferred build.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "corpus/file_read.h"
#include "fuzz/gpu/gpu_executor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using gpu_test::CpuOptions;
using gpu_test::MakeExecutor;

// The repository's root, from the test data directory.
std::string Root() { return std::string(RF_TEST_DATA) + "/../../.."; }

// The corpus seeds of bundled target `name` (none for others), then
// `count` mutants of them: bytes replaced, inserted and erased.
std::vector<Bytes> Inputs(const std::string& name, size_t count) {
  std::vector<std::string> files;
  if (!name.empty()) {
    for (const auto& entry :
         std::filesystem::directory_iterator(Root() + "/corpus/" + name)) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<Bytes> seeds;
  for (const std::string& file : files) {
    absl::StatusOr<Bytes> bytes = ReadFilePrefix(file, 64);
    if (bytes.ok()) seeds.push_back(*std::move(bytes));
  }
  if (seeds.empty()) seeds.push_back(Bytes(16, 'x'));
  std::vector<Bytes> inputs = seeds;
  std::mt19937 rng(7);
  for (size_t i = 0; i < count; ++i) {
    Bytes input = seeds[rng() % seeds.size()];
    for (int k = 1 + rng() % 3; k > 0; --k) {
      const size_t at = input.empty() ? 0 : rng() % input.size();
      switch (rng() % 3) {
        case 0:
          if (!input.empty()) input[at] = static_cast<uint8_t>(rng());
          break;
        case 1:
          if (input.size() < 64) {
            input.insert(input.begin() + at, static_cast<uint8_t>(rng()));
          }
          break;
        default:
          if (!input.empty()) input.erase(input.begin() + at);
      }
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

struct Case {
  std::string target;  // path
  std::string corpus;  // bundled target name, or ""
  bool value_profile = false;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.target << (c.value_profile ? " with value profile" : "");
}

class DeferredCoverageTest : public ::testing::TestWithParam<Case> {};

TEST_P(DeferredCoverageTest, EachInputMarksWhatTheImmediateBuildMarks) {
  GpuExecutorOptions options = CpuOptions("magic.fz");
  options.target_path = GetParam().target;
  options.value_profile = GetParam().value_profile;
  options.deferred_coverage = GpuExecutorOptions::DeferredCoverage::kOn;
  auto deferred = MakeExecutor(options);
  options.deferred_coverage = GpuExecutorOptions::DeferredCoverage::kOff;
  auto immediate = MakeExecutor(options);
  ASSERT_NE(deferred, nullptr);
  ASSERT_NE(immediate, nullptr);
  ASSERT_TRUE(deferred->deferred_coverage())
      << deferred->deferred_coverage_refusal();
  ASSERT_FALSE(immediate->deferred_coverage());
  std::vector<Bytes> inputs = Inputs(GetParam().corpus, 120);
  size_t features = 0;
  std::vector<Bytes> clean;  // the inputs that do not crash
  for (const Bytes& input : inputs) {
    bool crashed = false;
    for (GpuExecutor* executor : {deferred.get(), immediate.get()}) {
      ASSERT_TRUE(executor->ResetCoverage().ok());
      absl::StatusOr<BatchResult> ran = executor->ExecuteEach({input});
      ASSERT_TRUE(ran.ok()) << ran.status();
      for (const Find& find : ran->finds) {
        crashed |= IsBug(find.kind) && find.kind != Find::Kind::kTimeout;
      }
    }
    absl::StatusOr<CoverageIds> a = deferred->CoverageIdsSoFar();
    absl::StatusOr<CoverageIds> b = immediate->CoverageIdsSoFar();
    ASSERT_TRUE(a.ok() && b.ok());
    if (crashed) {
      // A crashing execution marks nothing; the immediate build takes back
      // only the first bit it set (rf_execute).
      ASSERT_TRUE(a->features.empty() && a->blocks.empty())
          << "crashing input of " << input.size();
      continue;
    }
    ASSERT_EQ(a->features, b->features) << "input of " << input.size();
    ASSERT_EQ(a->blocks, b->blocks) << "input of " << input.size();
    features += a->features.size();
    clean.push_back(input);
  }
  inputs = std::move(clean);
  EXPECT_GT(features, inputs.size());  // inputs reach more than one block
  // All inputs in one call, on maps that already hold some of their bits:
  // the union is the same, and the known static edges do not hide any.
  for (GpuExecutor* executor : {deferred.get(), immediate.get()}) {
    ASSERT_TRUE(executor->ExecuteEach(inputs).ok());
  }
  absl::StatusOr<CoverageIds> a = deferred->CoverageIdsSoFar();
  absl::StatusOr<CoverageIds> b = immediate->CoverageIdsSoFar();
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->features, b->features);
  EXPECT_EQ(a->blocks, b->blocks);
  EXPECT_EQ(deferred->validation_messages(), 0u)
      << deferred->last_validation_message();
}

INSTANTIATE_TEST_SUITE_P(
    Targets, DeferredCoverageTest,
    ::testing::Values(
        Case{Root() + "/shaders/targets/bytecode_vm.fz", "bytecode_vm"},
        Case{Root() + "/shaders/targets/tlv.fz", "tlv"},
        Case{Root() + "/shaders/targets/lz_block.fz", "lz_block"},
        Case{Root() + "/shaders/targets/magic_checksum.fz", "magic_checksum"},
        Case{Root() + "/shaders/targets/tlv.fz", "tlv", true},
        Case{Root() + "/shaders/puzzles/lf_switch3.fz", ""},
        Case{Root() + "/shaders/puzzles/lf_strncmp.fz", ""},
        Case{std::string(RF_TEST_DATA) + "/branchless.fz", ""},
        Case{std::string(RF_TEST_DATA) + "/hits.fz", ""}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string name =
          info.param.target.substr(info.param.target.find_last_of('/') + 1);
      name = name.substr(0, name.find('.'));
      return info.param.value_profile ? name + "_value_profile" : name;
    });

}  // namespace
}  // namespace ringfuzz
