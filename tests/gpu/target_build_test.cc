// Errors of targets that cannot be built, told in the target's terms:
// BuildMegakernel only (glslang and SPIR-V checks), no Vulkan device.
#include <string>

#include "fuzz/gpu/gpu_megakernel.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

absl::Status Build(const std::string& name, const std::string& source,
                   bool signature = false) {
  MegakernelOptions options;
  options.signature = signature;
  return BuildMegakernel(name, source, options).status();
}

// Nothing of ringfuzz's own files may show: the target's author cannot act
// on them.
void ExpectNoInternals(const absl::Status& status) {
  EXPECT_THAT(status.message(), Not(HasSubstr("megakernel")));
  EXPECT_THAT(status.message(), Not(HasSubstr("syntax error")));
  EXPECT_THAT(status.message(), Not(HasSubstr("CompileComputeShader")));
}

TEST(TargetBuildTest, EmptyTargetDefinesNoFzTarget) {
  const absl::Status status = Build("empty.fz", "");
  ASSERT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_THAT(status.message(),
              HasSubstr("empty.fz defines no `void fz_target(uint len)`; "));
  ExpectNoInternals(status);
}

TEST(TargetBuildTest, MisspelledFzTargetIsNamed) {
  const absl::Status status =
      Build("typo.fz", "#include \"ringfuzz.h\"\nvoid fz_targt(uint len) {}\n");
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(status.message(),
              HasSubstr("typo.fz defines no `void fz_target(uint len)`; "));
  EXPECT_THAT(status.message(), HasSubstr("spelling"));
  ExpectNoInternals(status);
}

TEST(TargetBuildTest, TargetErrorsHideWhatTheyCauseInTheMegakernel) {
  const absl::Status status =
      Build("bad.fz", "void fz_target(uint len) {\n  x = 1u;\n}\n");
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(status.message(),
              HasSubstr("ERROR: bad.fz:2: 'x' : undeclared identifier"));
  ExpectNoInternals(status);
}

TEST(TargetBuildTest, UnknownIncludeNamesFileLineAndWhatTargetsMayInclude) {
  const absl::Status status = Build(
      "inc.fz",
      "#include \"ringfuzz.h\"\n#include \"helpers.h\"\nvoid fz_target(uint "
      "len) {}\n");
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(status.message(),
              HasSubstr("ERROR: inc.fz:2: #include \"helpers.h\": no such "
                        "file. A target is one file: it may include only "
                        "\"ringfuzz.h\""));
  ExpectNoInternals(status);
  // Not also "defines no fz_target": the include is the one error.
  EXPECT_THAT(status.message(), Not(HasSubstr("defines no")));
}

// What C++ habits the dialect rejects (docs/dialect.md) gets, after
// glslang's own error on the target's line, a "Fix:" line saying what to
// write instead.
struct HabitCase {
  const char* habit;
  const char* body;  // the statements of fz_target, from line 2; the
                     // error is on line 2 or 3
  const char* fix;   // expected in the Fix: line
};

TEST(TargetBuildTest, CppHabitsGetAFixLine) {
  const HabitCase cases[] = {
      {"character literal", "  if (fz_byte(0u) == 'A') fz_crash(1u);",
       "65u for 'A'"},
      {"string literal", "  uint x = \"ab\";", "const uint array"},
      {"integer as condition", "  if (len & 1u) fz_crash(1u);",
       "if ((b & 0x80u) != 0u)"},
      {"implicit uint to int", "  int n = len;", "int(x) or uint(n)"},
      {"GLSL keyword as a name", "  uint out = len;",
       "'out' is a GLSL keyword"},
      {"GLSL reserved word as a name", "  uint input = len;",
       "reserved in GLSL"},
      {"C++ type", "  char c = 0;", "no char, uint8_t"},
      {"C++ type at file scope",
       "}\nconst uint8_t kMagic[2] = {1u, 2u};\nvoid f() {",
       "no char, uint8_t"},
      {"C library", "  if (memcmp(0u, 1u, 2u) == 0) fz_crash(1u);",
       "no C library: write memcmp as a loop"},
  };
  for (const HabitCase& c : cases) {
    const std::string source =
        std::string("void fz_target(uint len) {\n") + c.body + "\n}\n";
    const absl::Status status = Build("habit.fz", source);
    ASSERT_TRUE(absl::IsInvalidArgument(status)) << c.habit << ": " << status;
    EXPECT_THAT(status.message(),
                ::testing::ContainsRegex("ERROR: habit.fz:[23]: "))
        << c.habit;
    EXPECT_THAT(status.message(), HasSubstr("\n  Fix: ")) << c.habit;
    EXPECT_THAT(status.message(), HasSubstr(c.fix)) << c.habit;
  }
}

TEST(TargetBuildTest, ErrorsWithoutADialectRuleGetNoFixLine) {
  const absl::Status status =
      Build("bad.fz", "void fz_target(uint len) {\n  x = 1u;\n}\n");
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(status.message(), Not(HasSubstr("Fix:")));
}

TEST(TargetBuildTest, LocalArrayTooLargeForTheDriverIsRefused) {
  const absl::Status status =
      Build("big.fz",
            "void fz_target(uint len) {\n"
            "  uint a[65536];\n"
            "  if (len < 2u) return;\n"
            "  a[fz_byte(0u)] = fz_byte(1u);\n"
            "  if (a[fz_byte(1u)] == 7u) fz_crash(1u);\n"
            "}\n");
  ASSERT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_THAT(status.message(),
              HasSubstr("bytes of private memory per invocation, more than "
                        "the 131072 that ringfuzz gives a device"));
  EXPECT_THAT(status.message(),
              HasSubstr("`a` (in fz_target, big.fz:4): 262144 bytes"));
}

TEST(TargetBuildTest, LocalArraysWithinTheLimitBuild) {
  const absl::Status status =
      Build("fits.fz",
            "void fz_target(uint len) {\n"
            "  uint a[16384];\n"
            "  if (len < 2u) return;\n"
            "  a[fz_byte(0u)] = fz_byte(1u);\n"
            "  if (a[fz_byte(1u)] == 7u) fz_crash(1u);\n"
            "}\n");
  EXPECT_TRUE(status.ok()) << status;
}

// A target with one shared array of `words` words.
std::string SharedTarget(int words) {
  return "shared uint table[" + std::to_string(words) +
         "];\n"
         "void fz_target(uint len) {\n"
         "  if (len < 2u) return;\n"
         "  table[fz_byte(0u)] = fz_byte(1u);\n"
         "}\n";
}

absl::Status BuildWithLimits(const std::string& source,
                             const TargetLimits& limits) {
  MegakernelOptions options;
  options.limits = limits;
  return BuildMegakernel("shared.fz", source, options).status();
}

// Without a device, a target gets what Vulkan guarantees every device.
TEST(TargetBuildTest, SharedMemoryBeyondTheGuaranteeIsRefused) {
  const absl::Status status = Build("shared.fz", SharedTarget(8192));
  ASSERT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_THAT(status.message(),
              HasSubstr("target 'shared.fz' needs 32768 bytes of shared "
                        "memory per workgroup, more than the "));
  EXPECT_THAT(status.message(),
              HasSubstr("(Vulkan's guaranteed maxComputeSharedMemorySize is "
                        "16384 bytes, of which ringfuzz's megakernel uses "));
  EXPECT_THAT(status.message(),
              HasSubstr("`table` (in fz_target, shared.fz:4)"));
}

// A device's maxComputeSharedMemorySize is the limit: what fits it builds,
// what does not is refused with the device's name and number.
TEST(TargetBuildTest, SharedMemoryLimitIsTheDevicesLessTheMegakernels) {
  const TargetLimits big =
      WithDeviceSharedMemory({}, "Big GPU", uint64_t{64} << 10);
  EXPECT_TRUE(BuildWithLimits(SharedTarget(8192), big).ok());
  EXPECT_TRUE(BuildWithLimits(SharedTarget(15000), big).ok());
  const absl::Status status = BuildWithLimits(SharedTarget(16384), big);
  ASSERT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_THAT(status.message(),
              HasSubstr("needs 65536 bytes of shared memory per workgroup"));
  EXPECT_THAT(status.message(),
              HasSubstr("(Big GPU's maxComputeSharedMemorySize is 65536 "
                        "bytes, of which ringfuzz's megakernel uses "));
  EXPECT_THAT(status.message(), HasSubstr("run on a device with more"));
  // Unknown (0): the guarantee.
  const TargetLimits unknown = WithDeviceSharedMemory({}, "Odd GPU", 0);
  EXPECT_EQ(unknown.shared_bytes, kMaxSharedBytes);
  EXPECT_FALSE(BuildWithLimits(SharedTarget(8192), unknown).ok());
}

// The megakernel's own shared words count against the device's limit: a
// target gets exactly the rest.
TEST(TargetBuildTest, SharedMemoryLeftToTheTargetIsExact) {
  const absl::Status refused = BuildWithLimits(
      SharedTarget(4096), WithDeviceSharedMemory({}, "Exact GPU", 16384));
  ASSERT_TRUE(absl::IsInvalidArgument(refused)) << refused;
  // "... more than the <left> left to it (... uses <own>); ..."
  const std::string message(refused.message());
  const size_t uses = message.find("megakernel uses ");
  ASSERT_NE(uses, std::string::npos) << message;
  const uint64_t own = std::stoull(message.substr(uses + 16));
  EXPECT_GT(own, 0u);
  EXPECT_THAT(message, HasSubstr("more than the " +
                                 std::to_string(16384 - own) + " left to it"));
  EXPECT_TRUE(
      BuildWithLimits(SharedTarget(4096),
                      WithDeviceSharedMemory({}, "Exact GPU", 16384 + own))
          .ok());
}

TEST(TargetBuildTest, HugeUnrolledLoopIsRefusedBeforeTheDriver) {
  const absl::Status status =
      Build("unroll.fz",
            "void fz_target(uint len) {\n"
            "  uint s = 0u;\n"
            "  [[unroll]] for (uint i = 0u; i < 100000u; i++) {\n"
            "    s += i * len;\n"
            "  }\n"
            "  if (s == 7u) fz_crash(1u);\n"
            "}\n");
  ASSERT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_THAT(status.message(),
              HasSubstr("target 'unroll.fz' (in fz_target, unroll.fz:3): an "
                        "[[unroll]] loop bounded by 100000, more than the "
                        "32 iterations"));
  EXPECT_THAT(status.message(), HasSubstr("Remove [[unroll]]"));
}

TEST(TargetBuildTest, SmallUnrolledLoopsAndThoseWithoutTheHintBuild) {
  for (const char* loop : {"[[unroll]] for (uint i = 0u; i < 16u; i++)",
                           "for (uint i = 0u; i < 100000u; i++)"}) {
    const absl::Status status =
        Build("loop.fz", std::string("void fz_target(uint len) {\n"
                                     "  uint s = 0u;\n  ") +
                             loop +
                             " { s += i * len; }\n"
                             "  if (s == 7u) fz_crash(1u);\n}\n");
    EXPECT_TRUE(status.ok()) << loop << ": " << status;
  }
}

// The megakernel's own globals carry the reserved rf_ prefix: a target may
// name its globals, functions, structs and macros after what the megakernel
// once called its buffers, push constants, shared variables and include
// guards (tests/gpu/data/megakernel_names.fz; it also fuzzes, in
// target_names_test.cc).
TEST(TargetBuildTest, TargetMayUseEveryUnreservedName) {
  for (const std::string name : {"ring",
                                 "ctrl",
                                 "finds",
                                 "corpus",
                                 "dict",
                                 "pc",
                                 "cmplog",
                                 "patches",
                                 "sh_slot",
                                 "sh_execs",
                                 "sh_finds",
                                 "sh_steps",
                                 "sh_fault",
                                 "sh_fault_code",
                                 "sh_fault_aux",
                                 "sh_out_of_budget",
                                 "RfControl",
                                 "RfRing",
                                 "RfCorpus",
                                 "RfFinds",
                                 "RfDict",
                                 "RfCmpLog",
                                 "RfPatches",
                                 "RfPush",
                                 "RINGFUZZ_H_",
                                 "RINGFUZZ_WIRE_H_",
                                 "RINGFUZZ_MUTATORS_H_"}) {
    for (bool signature : {false, true}) {
      const absl::Status status =
          Build("names.fz",
                "#include \"ringfuzz.h\"\nconst uint " + name +
                    " = 3u;\nvoid fz_target(uint len) {\n  if (len == " + name +
                    ") fz_crash(1u);\n}\n",
                signature);
      EXPECT_TRUE(status.ok()) << name << ": " << status;
    }
  }
}

}  // namespace
}  // namespace ringfuzz
