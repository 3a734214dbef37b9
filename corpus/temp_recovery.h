// Recovering what killed writers left in a corpus directory.
//
// WriteFileAtomically writes a temporary (".tmp.<pid>.<counter>.<name>")
// and renames it; a writer killed in between (kill -9, a crash, a power
// cut) leaves the temporary behind. The input inside may be complete: the
// name of a corpus input's temporary carries the SHA-1 its content must
// have, which tells a complete temporary from a partial one.
#ifndef RINGFUZZ_CORPUS_TEMP_RECOVERY_H_
#define RINGFUZZ_CORPUS_TEMP_RECOVERY_H_

#include <cstddef>
#include <string>
#include <vector>

namespace ringfuzz {

// What RecoverTemporaries did, summed over the directories it ran on.
struct TempRecovery {
  size_t recovered = 0;           // complete inputs renamed to "<sha1>"
  size_t removed = 0;             // partial or unverifiable temporaries deleted
  std::vector<std::string> dirs;  // where either happened, in order
  std::vector<std::string> warnings;  // a temporary that could not be handled
};

// Handles every temporary of WriteFileAtomically directly inside `dir`
// whose writer process no longer exists (kill(pid, 0) fails with ESRCH):
//  * complete: its name carries a destination that is a SHA-1 (a corpus
//    input) and its content has that SHA-1. It is renamed to that name, so
//    it is a corpus input like any other (an existing file of that name has
//    the same content).
//  * otherwise (cut short, or no SHA-1 to check it against) it is removed:
//    a partial write must never be read as an input.
// Temporaries of live processes (another ringfuzz on the same directory, or
// this one) are never touched; neither is anything that is not a regular
// file. Failures are warnings naming the file; nothing here is fatal.
void RecoverTemporaries(const std::string& dir, TempRecovery& recovery);

// One line for the log, e.g. "recovered 2 inputs and removed 1 incomplete
// temporary file left by killed writers in corpus/"; "" if nothing was done.
std::string DescribeTempRecovery(const TempRecovery& recovery);

}  // namespace ringfuzz

#endif  // RINGFUZZ_CORPUS_TEMP_RECOVERY_H_
