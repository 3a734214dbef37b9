// Escaping text for an HTML page (or inline SVG) or an XML file (JUnit)
// that ringfuzz writes: every string that came from outside the file's own
// code (target paths, flags, function names, artifact names) goes through
// HtmlEscape. Its output is also well-formed XML 1.0 text.
#ifndef RINGFUZZ_FUZZ_REPORT_HTML_ESCAPE_H_
#define RINGFUZZ_FUZZ_REPORT_HTML_ESCAPE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace ringfuzz {

// Returns `text` with & < > " ' replaced by their character references, so
// that it is safe as element text and inside a quoted attribute value.
// Bytes that are not valid UTF-8 and control characters other than tab,
// newline and carriage return become U+FFFD (an HTML parser would reject
// or mangle them).
std::string HtmlEscape(absl::string_view text);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_REPORT_HTML_ESCAPE_H_
