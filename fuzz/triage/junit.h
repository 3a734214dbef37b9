// The JUnit XML report of a CI run, the format CI systems (GitHub Actions
// test reporters, GitLab, Jenkins) show as test results.
#ifndef RINGFUZZ_FUZZ_TRIAGE_JUNIT_H_
#define RINGFUZZ_FUZZ_TRIAGE_JUNIT_H_

#include <string>

#include "absl/strings/string_view.h"
#include "fuzz/triage/ci_result.h"

namespace ringfuzz {

// Returns `text` with &, <, >, " and ' escaped and the control characters
// XML 1.0 cannot hold replaced by '?'.
std::string XmlEscape(absl::string_view text);

// <testsuites> holding one <testsuite name="ringfuzz ci TARGET"> with one
// <testcase> per phase (classname "ringfuzz.ci", name CiPhaseName; a
// <skipped> one for a phase that did not run; a <failure> when it found a
// new bug) and one per bug bucket (classname "ringfuzz.bug", name "PHASE:
// KEY"; a <failure type=KIND> iff the bug is new). The counts (tests,
// failures, errors, skipped) and times are those of the test cases.
std::string JunitXml(const CiResult& result);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_TRIAGE_JUNIT_H_
