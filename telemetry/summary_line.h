// The one-line telemetry summary written per epoch (-telemetry_out): fixed
// key=value tokens in a fixed order, so logs can be grepped and diffed.
#ifndef RINGFUZZ_TELEMETRY_SUMMARY_LINE_H_
#define RINGFUZZ_TELEMETRY_SUMMARY_LINE_H_

#include <cstddef>
#include <optional>
#include <string>

#include "telemetry/launch_policy.h"
#include "telemetry/ring_telemetry.h"

namespace ringfuzz::telemetry {

struct SummaryOptions {
  const RingTelemetry* previous = nullptr;        // adds health; not owned
  std::optional<MegakernelLaunchRequest> launch;  // adds the recommendation
  // Top sketch entries (0 = none); the sketch is depth x width.
  size_t sketch_top = 3;
  size_t sketch_depth = 4;
  size_t sketch_width = 256;
};

// One line, no newline:
//   epoch=E done=D slots=T queue=Q idle_ppm=I density_bps=F occupancy_bps=O
//   requeue=R fault=X tenant_skew=S
// then, with `previous`: " done_delta=N stall=0|1" or " health=new_epoch";
// with `launch`: " launch=MODE topology=T pressure=P groups=G wg=W slots=N
// hits=H peak_bytes=B age_priority=0|1" or " launch=error:CODE";
// with sketch_top > 0: " top_opcodes=K:N,... top_tenants=K:N,..." ("-" when
// empty) or " sketch=error:CODE".
std::string SummaryLine(const RingTelemetry& telemetry,
                        const SummaryOptions& options = {});

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_SUMMARY_LINE_H_
