// `ringfuzz telemetry decode`: decode dumped control and ring buffers and
// print them as a table or as JSON.
//
//   ringfuzz telemetry decode -control=FILE -ring=FILE
//       [-window_opcodes=a,b,...] [-sketch=DEPTHxWIDTH]
//       [-previous_control=FILE -previous_ring=FILE] [-json]
//
// Flags take one or two dashes and the form -name=value (-json may stand
// alone). Opcodes are decimal or 0x-prefixed hex. The decode is strict:
// a truncated or misaligned dump is an error, never a silently empty table;
// so is a file over its cap (the whole control buffer; 1048576 ring slots),
// a directory, and a pair that is not one epoch of ringfuzz's dumps
// (telemetry/dump_check.h: random bytes, swapped files, two epochs).
// -sketch is bounded (DEPTH <= 64, WIDTH <= 65536, 2^20 counters); a sketch
// that cannot be built fails the command. A previous snapshot adds the
// watchdog's health; a new telemetry epoch (done_count went backwards) is
// reported in the output, not as a failure.
#ifndef RINGFUZZ_TELEMETRY_DECODE_COMMAND_H_
#define RINGFUZZ_TELEMETRY_DECODE_COMMAND_H_

#include <ostream>
#include <string>

#include "absl/types/span.h"

namespace ringfuzz::telemetry {

// Exit codes of RunTelemetryDecode.
inline constexpr int kDecodeExitOk = 0;
// A file could not be read, or a buffer failed strict decoding.
inline constexpr int kDecodeExitFailed = 1;
// The flags were wrong (unknown, malformed, missing or inconsistent): the
// call itself must change, as with most command-line tools.
inline constexpr int kDecodeExitUsage = 2;

// Runs the command on `args` (the words after "telemetry decode"): output
// on `out`, errors (what failed and how to fix it) and usage on `err`.
// Returns one of the exit codes above; -help prints usage on `out` and
// returns kDecodeExitOk.
int RunTelemetryDecode(absl::Span<const std::string> args, std::ostream& out,
                       std::ostream& err);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_DECODE_COMMAND_H_
