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
using ::ringfuzz::telemetry::testing::SlotWords;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

// A control dump as -dump_buffers writes it: the tenant mask table at word
// RF_CTRL_TENANT_MASKS, every tenant enabled, and the priority partitions of
// a ring of `slots` NORMAL slots (Ring() below has 3).
ControlBuilder Control(uint32_t done_count, uint32_t slots = 3) {
  ControlBuilder control(RF_CTRL_RESULT_BASE + RF_RES_HEADER_WORDS);
  control.Set(RF_CTRL_DONE_COUNT, done_count)
      .Set(RF_CTRL_TENANT_BASE, RF_CTRL_TENANT_MASKS)
      .Set(RF_CTRL_EPOCH, 2)
      .Set(RF_CTRL_DISPATCH + RF_OP_HAVOC, 11);
  for (uint32_t t = 0; t < RF_CTRL_TENANT_MASK_COUNT; ++t) {
    control.Set(RF_CTRL_TENANT_MASKS + t, 1);
  }
  for (uint32_t p = 0; p < RF_CTRL_PRIORITY_PARTITION_COUNT; ++p) {
    control.Set(RF_CTRL_PRIORITY_PARTITIONS + p,
                p <= RF_PRIORITY_NORMAL ? 0 : slots);
  }
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
  EXPECT_THAT(err_.str(),
              HasSubstr("-ring: cannot read ring dump '" + missing + "'"));
  EXPECT_THAT(err_.str(), HasSubstr("Fix:"));
  EXPECT_THAT(out_.str(), IsEmpty());

  EXPECT_EQ(Run({"-control=" + control_, "-ring=" + ring_,
                 "-previous_control=" + missing, "-previous_ring=" + ring_}),
            kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("-previous_control: cannot read"));
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

// Writes a sparse file of `bytes` bytes (all zero) and returns its path.
std::string Sparse(const std::filesystem::path& dir, const std::string& name,
                   uint64_t bytes) {
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary | std::ios::trunc).close();
  std::filesystem::resize_file(path, bytes);
  return path;
}

// Deterministic noise (xorshift), `bytes` bytes.
std::vector<uint8_t> Noise(size_t bytes, uint32_t seed) {
  std::vector<uint8_t> out(bytes);
  uint32_t x = seed;
  for (uint8_t& b : out) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = static_cast<uint8_t>(x);
  }
  return out;
}

TEST_F(DecodeCommandTest, DirectoryIsAnErrorNotAnAbort) {
  EXPECT_EQ(Run({"-control=" + dir_.string(), "-ring=" + ring_}),
            kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("-control"));
  EXPECT_THAT(err_.str(), HasSubstr(dir_.string()));
  EXPECT_THAT(err_.str(), HasSubstr("directory"));
  EXPECT_THAT(out_.str(), IsEmpty());
  EXPECT_EQ(Run({"-control=" + control_, "-ring=" + dir_.string()}),
            kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("-ring"));
}

// The control dump holds at most the whole control buffer; the ring at most
// 1048576 slots (-batch_slots' limit). Larger files are refused before they
// are read into memory.
TEST_F(DecodeCommandTest, FilesLargerThanTheirCapAreErrors) {
  const uint64_t control_cap = uint64_t{RF_CTRL_WORDS} * 4;
  const std::string big_control = Sparse(dir_, "big.control", control_cap + 4);
  EXPECT_EQ(Run({"-control=" + big_control, "-ring=" + ring_}),
            kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("'" + big_control + "' is larger than " +
                                    std::to_string(control_cap) + " bytes; "));
  EXPECT_THAT(out_.str(), IsEmpty());

  const uint64_t ring_cap = uint64_t{1} << 26;
  const std::string big_ring = Sparse(dir_, "big.ring", ring_cap + 64);
  EXPECT_EQ(Run({"-control=" + control_, "-ring=" + big_ring}),
            kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("'" + big_ring + "' is larger than " +
                                    std::to_string(ring_cap) + " bytes; "));
}

TEST_F(DecodeCommandTest, EndlessDevicesAreErrors) {
  EXPECT_EQ(Run({"-control=/dev/zero", "-ring=" + ring_}), kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("is larger than"));
  EXPECT_EQ(Run({"-control=" + control_, "-ring=/dev/urandom"}),
            kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("is larger than"));
  EXPECT_THAT(out_.str(), IsEmpty());
}

TEST_F(DecodeCommandTest, RandomBytesAreNotADump) {
  const std::string control = Write("noise.control", Noise(704, 1));
  const std::string ring = Write("noise.ring", Noise(64 * 228, 2));
  EXPECT_EQ(Run({"-control=" + control, "-ring=" + ring_}), kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr(control));
  EXPECT_THAT(err_.str(), HasSubstr("Fix:"));
  EXPECT_EQ(Run({"-control=" + control_, "-ring=" + ring}), kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr(ring));
  EXPECT_THAT(err_.str(), HasSubstr("Fix:"));
  EXPECT_THAT(out_.str(), IsEmpty());
}

TEST_F(DecodeCommandTest, SlotFieldsOutsideTheProtocolAreErrors) {
  RingBuilder bad_status = Ring();
  bad_status.AddStatus(RF_STATUS_FAULT + 1);
  const std::string control = Write("four.control", Control(30, 4).bytes());
  const std::string ring = Write("status.ring", bad_status.bytes());
  EXPECT_EQ(Run({"-control=" + control, "-ring=" + ring}), kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("slot 3"));
  EXPECT_THAT(err_.str(), HasSubstr("status 8"));

  RingBuilder bad_priority = Ring();
  SlotWords slot;
  slot.priority = RF_PRIORITY_IDLE + 1;
  bad_priority.Add(slot);
  const std::string ring2 = Write("priority.ring", bad_priority.bytes());
  EXPECT_EQ(Run({"-control=" + control, "-ring=" + ring2}), kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("slot 3"));
  EXPECT_THAT(err_.str(), HasSubstr("priority 5"));
}

// A realistic pair: 12 slots (768 bytes, a valid control size) and a control
// dump of 176 words (704 bytes = 11 slots, a valid ring size).
TEST_F(DecodeCommandTest, SwappedControlAndRingAreErrors) {
  RingBuilder ring;
  for (int i = 0; i < 12; ++i) {
    ring.Add({RF_STATUS_DONE, RF_OP_HAVOC, 0, 7, RF_CLASS_REQUIRED, 1});
  }
  const std::string control = Write("12.control", Control(12, 12).bytes());
  const std::string ring_path = Write("12.ring", ring.bytes());
  ASSERT_EQ(Run({"-control=" + control, "-ring=" + ring_path}), kDecodeExitOk)
      << err_.str();
  EXPECT_EQ(Run({"-control=" + ring_path, "-ring=" + control}),
            kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("swapped"));
  EXPECT_THAT(out_.str(), IsEmpty());
}

// The control and ring dumps of one snapshot come from one epoch: the
// control's priority partitions cover exactly the ring's slots.
TEST_F(DecodeCommandTest, ControlAndRingOfDifferentEpochsAreErrors) {
  const std::string other = Write("other.control", Control(30, 5).bytes());
  EXPECT_EQ(Run({"-control=" + other, "-ring=" + ring_}), kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("5 slots"));
  EXPECT_THAT(err_.str(), HasSubstr("3"));
  EXPECT_EQ(Run({"-control=" + control_, "-ring=" + ring_,
                 "-previous_control=" + other, "-previous_ring=" + ring_}),
            kDecodeExitFailed);
  EXPECT_THAT(err_.str(), HasSubstr("-previous_control"));
  EXPECT_THAT(out_.str(), IsEmpty());
}

TEST_F(DecodeCommandTest, ImpossibleSketchIsAnErrorNotJson) {
  for (const char* sketch : {"-sketch=4294967296x4294967296", "-sketch=65x16",
                             "-sketch=4x65537", "-sketch=64x65536"}) {
    EXPECT_EQ(Run({"-control=" + control_, "-ring=" + ring_, sketch, "-json"}),
              kDecodeExitUsage)
        << sketch;
    EXPECT_THAT(err_.str(), HasSubstr("-sketch"));
    EXPECT_THAT(err_.str(), HasSubstr("Fix:"));
    EXPECT_THAT(out_.str(), IsEmpty()) << sketch;
  }
  EXPECT_EQ(Run({"-control=" + control_, "-ring=" + ring_, "-sketch=16x65536",
                 "-json"}),
            kDecodeExitOk)
      << err_.str();
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
