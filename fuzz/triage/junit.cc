#include "fuzz/triage/junit.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/report/html_escape.h"

namespace ringfuzz {
namespace {

struct TestCase {
  std::string classname;
  std::string name;
  double seconds = 0;
  bool skipped = false;
  std::string skip_message;
  bool failed = false;
  std::string failure_type;
  std::string failure_message;
  std::string failure_text;
};

}  // namespace

std::string JunitXml(const CiResult& result) {
  std::vector<TestCase> cases;
  for (const CiPhaseResult& phase : result.phases) {
    TestCase test;
    test.classname = "ringfuzz.ci";
    test.name = std::string(CiPhaseName(phase.phase));
    test.seconds = phase.seconds;
    test.skipped = !phase.ran;
    test.skip_message = phase.note;
    size_t new_bugs = 0;
    for (const CiBug& bug : result.bugs) {
      if (bug.phase != phase.phase || !bug.is_new) continue;
      ++new_bugs;
      absl::StrAppend(&test.failure_text, bug.signature.Key(), ": ",
                      bug.reproducer, "\n");
    }
    if (new_bugs > 0) {
      test.failed = true;
      test.failure_type = "new-bugs";
      test.failure_message = absl::StrCat(new_bugs, " new bug(s)");
    }
    cases.push_back(std::move(test));
  }
  for (const CiBug& bug : result.bugs) {
    TestCase test;
    test.classname = "ringfuzz.bug";
    test.name = absl::StrCat(CiPhaseName(bug.phase), ": ", bug.signature.Key());
    if (bug.is_new) {
      test.failed = true;
      test.failure_type = bug.signature.kind;
      test.failure_message = bug.signature.description;
      test.failure_text = absl::StrCat(
          CiPhaseName(bug.phase), ": ", bug.count,
          " artifact(s); smallest reproducer ", bug.reproducer, " (", bug.size,
          " bytes); CPU replay: ", VerdictName(bug.cpu.verdict),
          bug.cpu.detail.empty() ? "" : absl::StrCat(" (", bug.cpu.detail, ")"),
          "\n");
    }
    cases.push_back(std::move(test));
  }
  size_t failures = 0, skipped = 0;
  double seconds = 0;
  for (const TestCase& test : cases) {
    failures += test.failed;
    skipped += test.skipped;
    seconds += test.seconds;
  }
  const std::string counts = absl::StrFormat(
      "tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\" "
      "time=\"%.3f\"",
      cases.size(), failures, skipped, seconds);
  std::string xml = absl::StrCat(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "
      "name=\"ringfuzz\" ",
      counts, ">\n  <testsuite name=\"",
      HtmlEscape(absl::StrCat("ringfuzz ci ", result.target)), "\" ", counts,
      ">\n");
  for (const TestCase& test : cases) {
    absl::StrAppendFormat(&xml,
                          "    <testcase classname=\"%s\" name=\"%s\" "
                          "time=\"%.3f\"",
                          HtmlEscape(test.classname), HtmlEscape(test.name),
                          test.seconds);
    if (!test.skipped && !test.failed) {
      xml += "/>\n";
      continue;
    }
    xml += ">\n";
    if (test.skipped) {
      absl::StrAppend(&xml, "      <skipped message=\"",
                      HtmlEscape(test.skip_message), "\"/>\n");
    }
    if (test.failed) {
      absl::StrAppend(&xml, "      <failure type=\"",
                      HtmlEscape(test.failure_type), "\" message=\"",
                      HtmlEscape(test.failure_message), "\">",
                      HtmlEscape(test.failure_text), "</failure>\n");
    }
    xml += "    </testcase>\n";
  }
  xml += "  </testsuite>\n</testsuites>\n";
  return xml;
}

}  // namespace ringfuzz
