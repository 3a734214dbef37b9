// `telemetry decode` end to end, on dump files written to a temporary
// directory.
#include "telemetry/decode_command.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/json_export.h"
#include "telemetry/ring_telemetry.h"
#include "tests/telemetry/wire_builder.h"

namespace ringfuzz::telemetry {
namespace {

using ::ringfuzz::telemetry::testing::ControlBuilder;
using ::ringfuzz::telemetry::testing::RingBuilder;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

ControlBuilder Control(uint32_t done_count) {
  ControlBuilder control;
  control.Set(RF_CTRL_DONE_COUNT, done_count)
      .Set(RF_CTRL_EPOCH, 2)
      .Set(RF_CTRL_DISPATCH + RF_OP_HAVOC, 11);
  return control;
}

RingBuilder Ring() {
  RingBuilder ring;
  ring.Add({RF_STATUS_CLAIMED, RF_OP_HAVOC, 2, 40, RF_CLASS_REQUIRED, 6});
  ring.Add({RF_STATUS_PUBLISHED, RF_OP_HAVOC, 2, 40, RF_CLASS_LOOKAHEAD});
  ring.AddStatus(RF_STATUS_EMPTY);
  return ring;
}

class DecodeCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           (std::string("telemetry_decode_") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    control_ = Write("control.bin", Control(30).bytes());
    ring_ = Write("ring.bin", Ring().bytes());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes `bytes` to `name` in the test's directory; returns its path.
  std::string Write(const std::string& name,
                    const std::vector<uint8_t>& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    EXPECT_TRUE(out.good()) << path;
    return path;
  }

  int Run(const std::vector<std::string>& args) {
    out_.str("");
    err_.str("");
    return RunTelemetryDecode(args, out_, err_);
  }

  std::filesystem::path dir_;
  std::string control_;
  std::string ring_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(DecodeCommandTest, PrintsATable) {
  ASSERT_EQ(Run({"-control=" + control_, "-ring=" + ring_}), kDecodeExitOk)
      << err_.str();
  EXPECT_THAT(err_.str(), IsEmpty());
  EXPECT_THAT(out_.str(),
              StartsWith("control    shutdown=no done_count=30 epoch=2\n"));
  EXPECT_THAT(out_.str(), HasSubstr("metrics    8:11\n"));
  EXPECT_THAT(out_.str(), HasSubstr("slots      2 shown, 1 empty not shown\n"));
  EXPECT_THAT(out_.str(), HasSubstr("claimed"));
  EXPECT_THAT(out_.str(), HasSubstr("windows    0, 0 active\n"));
}

TEST_F(DecodeCommandTest, JsonWithEverythingMatchesTheLibrary) {
  const std::string previous_control =
      Write("previous_control.bin", Control(25).bytes());
  const std::string previous_ring = Write("previous_ring.bin", Ring().bytes());
  ASSERT_EQ(
      Run({"--control=" + control_, "-ring=" + ring_, "-window_opcodes=9,0x8,8",
           "-sketch=2x32", "-previous_control=" + previous_control,
           "-previous_ring=" + previous_ring, "-json"}),
      kDecodeExitOk)
      << err_.str();
  const std::vector<uint32_t> ops = {8, 9};
  const RingTelemetry now = RingTelemetry::DecodeWithWindowOpcodes(
      Control(30).bytes(), Ring().bytes(), ops);
  const RingTelemetry previous = RingTelemetry::DecodeWithWindowOpcodes(
      Control(25).bytes(), Ring().bytes(), ops);
  JsonOptions options;
  options.previous = &previous;
  options.sketch_depth = 2;
  options.sketch_width = 32;
  EXPECT_EQ(out_.str(), ToJson(now, options) + "\n");
  EXPECT_THAT(out_.str(), HasSubstr(R"("health":{"done_delta":5,)"));
  EXPECT_THAT(out_.str(), HasSubstr(R"("windows":[{"ticket":40,)"));
  EXPECT_THAT(out_.str(), HasSubstr(R"("sketch":{"depth":2,"width":32,)"));
}

TEST_F(DecodeCommandTest, NewEpochIsReportedNotFatal) {
  const std::string previous_control =
      Write("previous_control.bin", Control(99).bytes());
  ASSERT_EQ(
      Run({"-control=" + control_, "-ring=" + ring_,
           "-previous_control=" + previous_control, "-previous_ring=" + ring_}),
      kDecodeExitOk);
  EXPECT_THAT(out_.str(), HasSubstr("health     done_count went backwards"));
}

TEST_F(DecodeCommandTest, MissingFileIsNamed) {
  const std::string missing = (dir_ / "nope.bin").string();
  EXPECT_EQ(Run({"-control=" + control_, "-ring=" + missing}),
            kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("-ring: cannot open '" + missing + "'"));
  EXPECT_THAT(err_.str(), HasSubstr("Fix:"));
  EXPECT_THAT(out_.str(), IsEmpty());

  EXPECT_EQ(Run({"-control=" + control_, "-ring=" + ring_,
                 "-previous_control=" + missing, "-previous_ring=" + ring_}),
            kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("-previous_control: cannot open"));
}

TEST_F(DecodeCommandTest, BadBuffersFailStrictly) {
  std::vector<uint8_t> truncated_ring = Ring().bytes();
  truncated_ring.pop_back();
  const std::string bad_ring = Write("bad_ring.bin", truncated_ring);
  EXPECT_EQ(Run({"-control=" + control_, "-ring=" + bad_ring}),
            kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr(bad_ring));
  EXPECT_THAT(err_.str(), HasSubstr("not a whole number of 64-byte slots"));
  EXPECT_THAT(out_.str(), IsEmpty());

  std::vector<uint8_t> short_control = Control(1).bytes();
  short_control.resize(RF_CTRL_MIN_BYTES - 4);
  const std::string bad_control = Write("bad_control.bin", short_control);
  EXPECT_EQ(Run({"-control=" + bad_control, "-ring=" + ring_}),
            kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("at least 640"));
}

TEST_F(DecodeCommandTest, BadFlagsAreUsageErrors) {
  const std::vector<std::vector<std::string>> cases = {
      {},
      {"-control=" + control_},
      {"-control=" + control_, "-ring=" + ring_, "-bogus=1"},
      {"-control=" + control_, "-ring=" + ring_, "positional"},
      {"-control=" + control_, "-ring=" + ring_, "-sketch=4"},
      {"-control=" + control_, "-ring=" + ring_, "-sketch=0x16"},
      {"-control=" + control_, "-ring=" + ring_, "-window_opcodes=8,x"},
      {"-control=" + control_, "-ring=" + ring_, "-window_opcodes=4294967296"},
      {"-control=" + control_, "-ring=" + ring_, "-json=maybe"},
      {"-control=" + control_, "-ring=" + ring_, "-previous_ring=" + ring_},
      {"-control=", "-ring=" + ring_},
  };
  for (const std::vector<std::string>& args : cases) {
    EXPECT_EQ(Run(args), kDecodeExitUsage) << ::testing::PrintToString(args);
    EXPECT_THAT(err_.str(), HasSubstr("Fix:"));
    EXPECT_THAT(err_.str(), HasSubstr("usage: ringfuzz telemetry decode"));
    EXPECT_THAT(out_.str(), IsEmpty());
  }
}

TEST_F(DecodeCommandTest, HelpAndJsonFalse) {
  EXPECT_EQ(Run({"-help"}), kDecodeExitOk);
  EXPECT_THAT(out_.str(), StartsWith("usage: ringfuzz telemetry decode"));
  ASSERT_EQ(Run({"-control=" + control_, "-ring=" + ring_, "-json=false"}),
            kDecodeExitOk);
  EXPECT_THAT(out_.str(), StartsWith("control    "));
}

}  // namespace
}  // namespace ringfuzz::telemetry
