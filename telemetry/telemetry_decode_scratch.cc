#include "telemetry/telemetry_decode_scratch.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "shaders/ringfuzz_wire.h"
#include "telemetry/count_min_sketch.h"
#include "telemetry/slot_status.h"
#include "telemetry/wire_decode.h"

namespace ringfuzz::telemetry {
namespace {

constexpr size_t kMinTableSize = 64;  // a power of two

size_t Hash(uint32_t ticket, uint32_t opcode) {
  return static_cast<size_t>(
      SplitMix64Finalize(uint64_t{ticket} << 32 | opcode));
}

void CountSlot(SlotStatus status, uint32_t window_class,
               WindowTelemetry& window) {
  switch (window_class) {
    case RF_CLASS_REQUIRED:
      ++window.required_slots;
      break;
    case RF_CLASS_LOOKAHEAD:
      ++window.lookahead_slots;
      break;
    default:
      break;  // neither required nor lookahead work
  }
  switch (status.kind()) {
    case SlotStatusKind::kPublished:
      ++window.published;
      break;
    case SlotStatusKind::kClaimed:
      ++window.claimed;
      break;
    case SlotStatusKind::kDone:
      ++window.done;
      break;
    case SlotStatusKind::kWaitIo:
      ++window.wait_io;
      break;
    case SlotStatusKind::kYield:
      ++window.yield;
      break;
    case SlotStatusKind::kRequeue:
      ++window.requeue;
      break;
    case SlotStatusKind::kFault:
      ++window.fault;
      break;
    case SlotStatusKind::kEmpty:
    case SlotStatusKind::kUnknown:
      break;  // members, but not counted (wire protocol)
  }
}

}  // namespace

void TelemetryDecodeScratch::SetWindowOpcodes(
    absl::Span<const uint32_t> opcodes) {
  window_opcodes_.assign(opcodes.begin(), opcodes.end());
  std::sort(window_opcodes_.begin(), window_opcodes_.end());
  window_opcodes_.erase(
      std::unique(window_opcodes_.begin(), window_opcodes_.end()),
      window_opcodes_.end());
  small_window_opcodes_ = 0;
  for (uint32_t opcode : window_opcodes_) {
    if (opcode < 64) small_window_opcodes_ |= uint64_t{1} << opcode;
  }
}

bool TelemetryDecodeScratch::IsWindowOpcode(uint32_t opcode) const {
  if (opcode < 64) return (small_window_opcodes_ >> opcode) & 1;
  return std::binary_search(window_opcodes_.begin(), window_opcodes_.end(),
                            opcode);
}

void TelemetryDecodeScratch::Grow() {
  table_.assign(std::max(kMinTableSize, table_.size() * 2), 0);
  const size_t mask = table_.size() - 1;
  for (size_t i = 0; i < windows_.size(); ++i) {
    size_t pos = Hash(windows_[i].ticket, windows_[i].opcode) & mask;
    while (table_[pos] != 0) pos = (pos + 1) & mask;
    table_[pos] = static_cast<uint32_t>(i + 1);
  }
}

WindowTelemetry& TelemetryDecodeScratch::FindOrAdd(uint32_t ticket,
                                                   uint32_t opcode,
                                                   uint32_t tenant) {
  const size_t mask = table_.size() - 1;
  size_t pos = Hash(ticket, opcode) & mask;
  while (table_[pos] != 0) {
    WindowTelemetry& window = windows_[table_[pos] - 1];
    if (window.ticket == ticket && window.opcode == opcode) return window;
    pos = (pos + 1) & mask;
  }
  // New window. Keep the load factor at most 1/2 so probes stay short.
  if (2 * (windows_.size() + 1) > table_.size()) {
    WindowTelemetry added;
    added.ticket = ticket;
    added.opcode = opcode;
    added.tenant = tenant;
    windows_.push_back(added);
    Grow();
    return windows_.back();
  }
  WindowTelemetry& window = windows_.emplace_back();
  window.ticket = ticket;
  window.opcode = opcode;
  window.tenant = tenant;  // slots are scanned in ring order: the first one
  table_[pos] = static_cast<uint32_t>(windows_.size());
  return window;
}

size_t TelemetryDecodeScratch::GroupWindows(absl::Span<const uint8_t> ring) {
  windows_.clear();
  order_.clear();
  if (window_opcodes_.empty()) return 0;
  if (table_.empty()) {
    table_.assign(kMinTableSize, 0);
  } else {
    std::fill(table_.begin(), table_.end(), 0);
  }
  const size_t slot_count = SlotCount(ring);
  for (size_t i = 0; i < slot_count; ++i) {
    const uint8_t* slot = ring.data() + i * RF_SLOT_BYTES;
    const uint32_t opcode = LoadWordLe(slot + RF_SLOT_OPCODE * kWordBytes);
    if (!IsWindowOpcode(opcode)) continue;
    const uint32_t ticket =
        LoadWordLe(slot + (RF_SLOT_ARG0 + RF_ARG_TICKET) * kWordBytes);
    WindowTelemetry& window = FindOrAdd(
        ticket, opcode, LoadWordLe(slot + RF_SLOT_TENANT * kWordBytes));
    CountSlot(
        SlotStatus::FromRaw(LoadWordLe(slot + RF_SLOT_STATUS * kWordBytes)),
        LoadWordLe(slot + (RF_SLOT_ARG0 + RF_ARG_CLASS) * kWordBytes), window);
  }
  for (size_t i = 0; i < windows_.size(); ++i) {
    order_.push_back({uint64_t{windows_[i].ticket} << 32 | windows_[i].opcode,
                      static_cast<uint32_t>(i)});
  }
  const auto by_key = [](const SortKey& a, const SortKey& b) {
    return a.ticket_opcode < b.ticket_opcode;
  };
  if (!std::is_sorted(order_.begin(), order_.end(), by_key)) {
    std::sort(order_.begin(), order_.end(), by_key);
  }
  return windows_.size();
}

void TelemetryDecodeScratch::CopyWindowsTo(
    std::vector<WindowTelemetry>& out) const {
  out.clear();
  for (const SortKey& key : order_) out.push_back(windows_[key.window]);
}

}  // namespace ringfuzz::telemetry
