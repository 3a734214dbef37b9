#include "telemetry/control_snapshot.h"

#include <ostream>

#include "absl/strings/str_join.h"

namespace ringfuzz::telemetry {

std::ostream& operator<<(std::ostream& os, const DispatchMetric& metric) {
  return os << "(" << metric.opcode << "," << metric.count << ")";
}

std::ostream& operator<<(std::ostream& os, const ControlSnapshot& control) {
  os << "ControlSnapshot{shutdown=" << control.shutdown
     << ", done_count=" << control.done_count << ", epoch=" << control.epoch
     << ", metrics=[";
  const char* sep = "";
  for (const DispatchMetric& metric : control.metrics) {
    os << sep << metric;
    sep = ",";
  }
  return os << "], tenant_fairness=["
            << absl::StrJoin(control.tenant_fairness, ",")
            << "], priority_fairness=["
            << absl::StrJoin(control.priority_fairness, ",") << "]}";
}

}  // namespace ringfuzz::telemetry
