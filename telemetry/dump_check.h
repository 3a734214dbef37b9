// What a pair of buffer dumps (`ringfuzz -dump_buffers`, read back by
// `ringfuzz telemetry decode`) must satisfy beyond the strict decoder's
// sizes. The wire protocol has no magic or version word, so a dump is
// recognised by the words ringfuzz's executor always writes and by the
// value ranges the protocol defines; random bytes, swapped files and the
// control and ring of two different epochs are refused instead of decoded.
//
// The telemetry API (RingTelemetry::TryDecode) stays as the wire-protocol
// spec defines it: unknown statuses decode as Unknown(raw) there. These
// checks are for files that claim to be ringfuzz dumps.
#ifndef RINGFUZZ_TELEMETRY_DUMP_CHECK_H_
#define RINGFUZZ_TELEMETRY_DUMP_CHECK_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace ringfuzz::telemetry {

// Returns OK iff `control` and `ring` are one snapshot of ringfuzz's
// buffers:
//  - both pass ValidateTelemetryBuffers (telemetry/wire_decode.h);
//  - control word RF_CTRL_TENANT_BASE is RF_CTRL_TENANT_MASKS (the executor
//    writes it once; the protocol puts the mask table at words 3..31);
//  - the priority partitions (RF_CTRL_PRIORITY_PARTITIONS, starts of
//    priorities 0..4, then the total) do not decrease;
//  - every ring slot's status is one of the protocol's (EMPTY..FAULT) and
//    its priority one of CRITICAL..IDLE;
//  - the partitions' total is the ring's slot count: the executor writes
//    them for the slots it publishes, and a dump holds exactly those.
// Otherwise InvalidArgument saying which word broke which rule, what that
// suggests (not a dump; -control and -ring swapped; two epochs) and
// "Fix: ...". Reads only words that the sizes check proved present.
absl::Status CheckDump(absl::Span<const uint8_t> control,
                       absl::Span<const uint8_t> ring);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_DUMP_CHECK_H_
