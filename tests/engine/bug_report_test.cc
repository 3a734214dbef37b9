#include "fuzz/engine/bug_report.h"

#include <sstream>
#include <string>

#include "corpus/atomic_file.h"
#include "corpus/sha1.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_mutators.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/corpus/temp_dir.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;

Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }

Find Crash(const std::string& data) {
  Find find;
  find.kind = Find::Kind::kCrash;
  find.data = B(data);
  find.code = 7;
  return find;
}

TEST(BugReportTest, DescribesEachKind) {
  Find crash = Crash("x");
  EXPECT_EQ(DescribeBug(crash), "fz_crash(code=7)");
  EXPECT_EQ(BugCategory(crash), "fz_crash(code=7)");
  Find overread;
  overread.kind = Find::Kind::kOverread;
  overread.code = 5;
  overread.aux = 5;
  EXPECT_EQ(DescribeBug(overread), "input overread: fz_byte(5) with len 5");
  EXPECT_EQ(BugCategory(overread), "input-overread");
  Find timeout;
  timeout.kind = Find::Kind::kTimeout;
  timeout.aux = 4096;
  EXPECT_EQ(DescribeBug(timeout), "timeout after 4096 loop steps");
  EXPECT_EQ(BugCategory(timeout), "timeout");
  EXPECT_EQ(ArtifactKind(Find::Kind::kCrash), "crash");
  EXPECT_EQ(ArtifactKind(Find::Kind::kOverread), "crash");
  EXPECT_EQ(ArtifactKind(Find::Kind::kTimeout), "timeout");
}

TEST(BugReportTest, UnitRenderings) {
  EXPECT_EQ(HexArray(B("FU\n")), "0x46,0x55,0xa,");
  EXPECT_EQ(PrintableAscii(Bytes{'a', '\\', '"', 0, 0x7f, 0xff}),
            "a\\\\\\\"\\x00\\x7f\\xff");
  EXPECT_EQ(PlainHex(Bytes{0x00, 0xab, 0x10}), "00ab10");
  // RFC 4648 test vectors.
  EXPECT_EQ(Base64(B("")), "");
  EXPECT_EQ(Base64(B("f")), "Zg==");
  EXPECT_EQ(Base64(B("fo")), "Zm8=");
  EXPECT_EQ(Base64(B("foo")), "Zm9v");
  EXPECT_EQ(Base64(B("foob")), "Zm9vYg==");
  EXPECT_EQ(Base64(B("fooba")), "Zm9vYmE=");
  EXPECT_EQ(Base64(B("foobar")), "Zm9vYmFy");
  EXPECT_EQ(Base64(Bytes{0xff, 0xfe}), "//4=");
}

TEST(BugReportTest, GoldenReportWithArtifact) {
  TempDir dir;
  WorkDir work_dir("", dir.path() + "/", "");
  Find find = Crash("FUZ!");
  BugReportRequest request;
  request.find = &find;
  request.pid = 1234;
  request.opcodes = {RF_OP_HAVOC};
  request.base_sha1 = std::string(40, 'a');
  std::ostringstream out;
  const BugReportResult reported = ReportBug(request, work_dir, out);
  EXPECT_TRUE(reported.preserved);
  std::string sha1 = Sha1Hex(find.data);
  std::string path = dir.path() + "/crash-" + sha1;
  EXPECT_EQ(reported.artifact, path);
  EXPECT_EQ(out.str(),
            "==1234== ERROR: libFuzzer: deadly signal\n"
            "ringfuzz: fz_crash(code=7) in fz_target\n"
            "    #0 0x00000000 in fz_crash\n"
            "    #1 0x00000000 in fz_target\n"
            "SUMMARY: libFuzzer: deadly signal\n"
            "MS: 1 havoc-; base unit: " +
                std::string(40, 'a') +
                "\n"
                "0x46,0x55,0x5a,0x21,\n"
                "FUZ!\n"
                "artifact_prefix='" +
                dir.path() + "/'; Test unit written to " + path +
                "\n"
                "Base64: RlVaIQ==\n");
  EXPECT_EQ(*ReadFile(path), find.data);
}

// The mutators that made the input, when known, replace the work kind.
TEST(BugReportTest, MutationSequenceNamesTheMutators) {
  TempDir dir;
  WorkDir work_dir("", dir.path() + "/", "");
  Find find = Crash("FUZ!");
  BugReportRequest request;
  request.find = &find;
  request.pid = 1234;
  request.opcodes = {RF_OP_DICT};
  request.mutations = {RF_MUT_DICT, RF_MUT_CHANGE_BYTE};
  std::ostringstream out;
  EXPECT_TRUE(ReportBug(request, work_dir, out));
  EXPECT_NE(
      out.str().find("\nMS: 2 AddFromManualDict-ChangeByte-; base unit: " +
                     std::string(40, '0') + "\n"),
      std::string::npos)
      << out.str();
}

TEST(BugReportTest, SeedsHaveNoBaseUnitAndLongInputsAreNotInlined) {
  TempDir dir;
  WorkDir work_dir("", "", dir.Sub("exact"));
  Find find = Crash(std::string(300, 'z'));
  find.kind = Find::Kind::kTimeout;
  find.aux = 9;
  BugReportRequest request;
  request.find = &find;
  request.pid = 1;
  std::ostringstream out;
  EXPECT_TRUE(ReportBug(request, work_dir, out));
  EXPECT_EQ(out.str(),
            "==1== ERROR: libFuzzer: timeout after 9 loop steps\n"
            "ringfuzz: timeout after 9 loop steps in fz_target\n"
            "    #0 0x00000000 in fz_target\n"
            "SUMMARY: libFuzzer: timeout\n"
            "MS: 0 ; base unit: 0000000000000000000000000000000000000000\n"
            "artifact_prefix=''; Test unit written to " +
                dir.Sub("exact") + "\n");
  EXPECT_EQ(*ReadFile(dir.Sub("exact")), find.data);
}

TEST(BugReportTest, RunningFilesPrintsOnlyTheError) {
  Find find = Crash("x");
  BugReportRequest request;
  request.find = &find;
  request.pid = 3;
  request.save_artifact = false;
  std::ostringstream out;
  EXPECT_TRUE(ReportBug(request, WorkDir("", "/nonexistent/", ""), out));
  EXPECT_EQ(out.str(),
            "==3== ERROR: libFuzzer: deadly signal\n"
            "ringfuzz: fz_crash(code=7) in fz_target\n"
            "    #0 0x00000000 in fz_crash\n"
            "    #1 0x00000000 in fz_target\n"
            "SUMMARY: libFuzzer: deadly signal\n");
}

TEST(BugReportTest, OutOfBoundsIsReportedInUbsanWordsWithItsLocation) {
  Find find = Crash("x");
  find.kind = Find::Kind::kOutOfBounds;
  find.code = 70;
  find.aux = 64;
  find.function = "decode_block";
  find.file = "shaders/targets/lz_block.fz";
  find.line = 88;
  BugReportRequest request;
  request.find = &find;
  request.pid = 5;
  request.save_artifact = false;
  std::ostringstream out;
  EXPECT_TRUE(ReportBug(request, WorkDir("", "/nonexistent/", ""), out));
  EXPECT_EQ(out.str(),
            "shaders/targets/lz_block.fz:88: runtime error: index 70 out of "
            "bounds for type 'uint[64]'\n"
            "ringfuzz: out-of-bounds: local array index 70 with length 64 in "
            "decode_block shaders/targets/lz_block.fz:88\n"
            "    #0 0x00000058 in decode_block shaders/targets/lz_block.fz:88\n"
            "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior "
            "shaders/targets/lz_block.fz:88 in decode_block\n");
}

TEST(BugReportTest, OverreadNamesTheInputAsTheArray) {
  Find find = Crash("x");
  find.kind = Find::Kind::kOverread;
  find.code = 10;
  find.aux = 10;
  find.function = "fz_target";
  find.file = "shaders/targets/tlv.fz";
  find.line = 31;
  BugReportRequest request;
  request.find = &find;
  request.pid = 5;
  request.save_artifact = false;
  std::ostringstream out;
  EXPECT_TRUE(ReportBug(request, WorkDir("", "/nonexistent/", ""), out));
  EXPECT_EQ(out.str(),
            "shaders/targets/tlv.fz:31: runtime error: index 10 out of bounds "
            "for type 'const uint8_t[10]'\n"
            "ringfuzz: input overread: fz_byte(10) with len 10 in fz_target "
            "shaders/targets/tlv.fz:31\n"
            "    #0 0x00000000 in fz_byte\n"
            "    #1 0x0000001f in fz_target shaders/targets/tlv.fz:31\n"
            "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior "
            "shaders/targets/tlv.fz:31 in fz_target\n");
}

// The finding must survive a failed artifact write: the whole input is in
// the log, whatever its size.
TEST(BugReportTest, FailedArtifactWritePrintsTheWholeInput) {
  TempDir dir;
  std::string prefix = dir.Sub("missing/");
  Find find = Crash(std::string(300, 'q'));
  BugReportRequest request;
  request.find = &find;
  request.pid = 1;
  std::ostringstream out;
  EXPECT_FALSE(ReportBug(request, WorkDir("", prefix, ""), out));
  std::string log = out.str();
  std::string sha1 = Sha1Hex(find.data);
  EXPECT_THAT(log, HasSubstr("ERROR: the artifact could not be written: "
                             "cannot write '" +
                             prefix + "crash-" + sha1));
  EXPECT_THAT(log, HasSubstr("does not exist; create it"));
  EXPECT_THAT(log, HasSubstr("Hex: " + PlainHex(find.data) + "\n"));
  EXPECT_THAT(log, HasSubstr("Base64: " + Base64(find.data) + "\n"));
  EXPECT_THAT(log, HasSubstr("xxd -r -p > crash-" + sha1));
  EXPECT_THAT(log, ::testing::Not(HasSubstr("Test unit written")));
}

}  // namespace
}  // namespace ringfuzz
