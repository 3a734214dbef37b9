#include "fuzz/corpus_tools/cleared_timeout.h"

#include "absl/time/time.h"

namespace ringfuzz {

bool TimeoutClearedByTwin(const BugSignature& bug, const Bytes& input,
                          const std::string& path, TimeoutGate& gate,
                          std::ostream& out) {
  if (bug.kind != Find::Kind::kTimeout ||
      !gate.Clears(input, absl::InfiniteDuration(), out)) {
    return false;
  }
  out << "ERROR: the input " << path
      << " did not crash: it exhausts the device's loop budget, but the twin "
         "(-twin) runs it to the end within -timeout\n";
  return true;
}

}  // namespace ringfuzz
