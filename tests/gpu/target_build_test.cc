// Errors of targets that cannot be built, told in the target's terms:
// BuildMegakernel only (glslang and SPIR-V checks), no Vulkan device.
#include <string>

#include "fuzz/gpu_megakernel.h"
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

TEST(TargetBuildTest, SharedMemoryBeyondTheGuaranteeIsRefused) {
  const absl::Status status = Build("shared.fz",
                                    "shared uint table[8192];\n"
                                    "void fz_target(uint len) {\n"
                                    "  if (len < 2u) return;\n"
                                    "  table[fz_byte(0u)] = fz_byte(1u);\n"
                                    "}\n");
  ASSERT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_THAT(status.message(), HasSubstr("of shared memory per workgroup"));
  EXPECT_THAT(status.message(),
              HasSubstr("`table` (in fz_target, shared.fz:4)"));
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
