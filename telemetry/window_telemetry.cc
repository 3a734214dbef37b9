#include "telemetry/window_telemetry.h"

#include <ostream>

namespace ringfuzz::telemetry {

bool operator==(const WindowTelemetry& a, const WindowTelemetry& b) {
  return a.ticket == b.ticket && a.tenant == b.tenant && a.opcode == b.opcode &&
         a.required_slots == b.required_slots &&
         a.lookahead_slots == b.lookahead_slots && a.published == b.published &&
         a.claimed == b.claimed && a.done == b.done && a.wait_io == b.wait_io &&
         a.yield == b.yield && a.requeue == b.requeue && a.fault == b.fault;
}

std::ostream& operator<<(std::ostream& os, const WindowTelemetry& window) {
  return os << "WindowTelemetry{ticket=" << window.ticket
            << ", tenant=" << window.tenant << ", opcode=" << window.opcode
            << ", required_slots=" << window.required_slots
            << ", lookahead_slots=" << window.lookahead_slots
            << ", published=" << window.published
            << ", claimed=" << window.claimed << ", done=" << window.done
            << ", wait_io=" << window.wait_io << ", yield=" << window.yield
            << ", requeue=" << window.requeue << ", fault=" << window.fault
            << "}";
}

}  // namespace ringfuzz::telemetry
