// A snapshot as a human-readable table (the decode command's default).
#ifndef RINGFUZZ_TELEMETRY_TEXT_TABLE_H_
#define RINGFUZZ_TELEMETRY_TEXT_TABLE_H_

#include <string>

#include "telemetry/json_export.h"
#include "telemetry/ring_telemetry.h"

namespace ringfuzz::telemetry {

// The same content as ToJson(telemetry, options), laid out for reading:
// one line per section, then a row per non-empty slot (empty slots are only
// counted, so a mostly idle 1M-slot ring stays readable) and per window.
// Ends with a newline.
std::string ToTable(const RingTelemetry& telemetry,
                    const ExportOptions& options = {});

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_TEXT_TABLE_H_
