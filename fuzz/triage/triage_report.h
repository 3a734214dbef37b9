// How `ringfuzz triage` prints a TriageReport: a table for people, or JSON
// (-json=1) for tools.
#ifndef RINGFUZZ_FUZZ_TRIAGE_TRIAGE_REPORT_H_
#define RINGFUZZ_FUZZ_TRIAGE_TRIAGE_REPORT_H_

#include <string>

#include "fuzz/triage/triage.h"

namespace ringfuzz {

// One row per bucket, columns aligned, with a header row:
//   BUCKET COUNT SMALLEST SIZE KIND LOCATION FIRST-SEEN GPU CPU
// then a line per bucket key ("#1 fz_crash(code=7) at t.fz:42"), the
// artifact and bucket totals, and the CPU note if CPU replays were skipped.
std::string TriageTable(const TriageReport& report);

// One JSON object:
//   {"artifacts": N, "buckets": [{"id": 1, "key": "...", "reproduces": true,
//     "kind": "fz_crash", "category": "fz_crash(code=7)",
//     "description": "...", "function": "...", "file": "...", "line": 42,
//     "count": 12, "smallest": {"path": "...", "size": 5, "sha1": "..."},
//     "first_seen": {"path": "...", "source": "telemetry"|"mtime",
//       "time": 1700000000, "epoch": 3, "slot": 1, "parent": 0,
//       "mutations": "MS: ..."}  (epoch..mutations only from telemetry),
//     "gpu": true, "cpu": "yes"|"no"|"differs"|"skipped"|"error",
//     "cpu_detail": "...", "members": ["path", ...]}, ...],
//    "cpu_note": "..."}
// The "does not reproduce" bucket has kind "none" and no category,
// function, file or line.
std::string TriageJson(const TriageReport& report);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_TRIAGE_TRIAGE_REPORT_H_
