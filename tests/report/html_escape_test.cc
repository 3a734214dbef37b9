#include "fuzz/report/html_escape.h"

#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

TEST(HtmlEscapeTest, EscapesMarkupCharacters) {
  EXPECT_EQ(HtmlEscape("<a href=\"x\">Tom & 'Jerry'</a>"),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
  EXPECT_EQ(HtmlEscape("plain text/1.fz:42"), "plain text/1.fz:42");
  EXPECT_EQ(HtmlEscape(""), "");
}

TEST(HtmlEscapeTest, KeepsValidUtf8AndWhitespace) {
  EXPECT_EQ(HtmlEscape("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x90\x9B\t\n"),
            "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x90\x9B\t\n");
}

TEST(HtmlEscapeTest, ReplacesInvalidBytesAndControls) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(HtmlEscape("a\xFF"
                       "b"),
            "a" + r + "b");
  EXPECT_EQ(HtmlEscape(std::string("a\0b", 3)), "a" + r + "b");
  EXPECT_EQ(HtmlEscape("\x1B[31m"), r + "[31m");
  EXPECT_EQ(HtmlEscape("\xC3"), r);                  // cut short
  EXPECT_EQ(HtmlEscape("\xC0\xBC"), r + r);          // overlong '<'
  EXPECT_EQ(HtmlEscape("\xED\xA0\x80"), r + r + r);  // a surrogate
}

}  // namespace
}  // namespace ringfuzz
