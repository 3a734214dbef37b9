// Decode throughput and allocations of the reuse path
// (RingTelemetry::TryDecodeWithWindowOpcodesInto with the same output and
// scratch every time) on synthetic rings of 1K, 64K and 1M slots.
//
//   telemetry_decode_bench [slots_per_config]
//
// Each configuration decodes about `slots_per_config` slots in total
// (default 2^26) after one warm-up decode, and reports slots per second
// and heap allocations per decode, counted by replacing operator new.
// After warm-up the allocation count must be 0; the exit status is 1 if
// it is not.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <random>
#include <vector>

#include "shaders/ringfuzz_wire.h"
#include "telemetry/ring_telemetry.h"

namespace {
uint64_t g_allocations = 0;
}  // namespace

void* operator new(std::size_t size) {
  ++g_allocations;
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace ringfuzz::telemetry {
namespace {

void Put(std::vector<uint8_t>& bytes, size_t word, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[word * 4 + i] = uint8_t(value >> (8 * i));
}

enum class Tickets { kBatched, kShuffled };

// A busy ring: statuses cycle through all eight; slots come in batches of 16
// (one ticket, one work kind, as when the host schedules 16 mutants of one
// parent), placed in ring order or shuffled across the ring.
std::vector<uint8_t> MakeRing(uint32_t slots, Tickets tickets) {
  std::vector<uint8_t> ring(size_t{slots} * RF_SLOT_BYTES, 0);
  std::vector<uint32_t> ticket_of(slots);
  for (uint32_t i = 0; i < slots; ++i) ticket_of[i] = i / 16;
  if (tickets == Tickets::kShuffled) {
    std::shuffle(ticket_of.begin(), ticket_of.end(), std::mt19937(1));
  }
  for (uint32_t i = 0; i < slots; ++i) {
    const size_t base = size_t{i} * RF_SLOT_WORDS;
    Put(ring, base + RF_SLOT_STATUS, i % 8);
    Put(ring, base + RF_SLOT_OPCODE,
        RF_OP_FIRST_WORK +
            ticket_of[i] % (RF_OP_LAST_WORK - RF_OP_FIRST_WORK + 1));
    Put(ring, base + RF_SLOT_TENANT, i % 4);
    Put(ring, base + RF_SLOT_ARG0 + RF_ARG_TICKET, ticket_of[i]);
    Put(ring, base + RF_SLOT_ARG0 + RF_ARG_CLASS, i % 3 == 0);
  }
  return ring;
}

// Returns false if a decode after warm-up allocated.
bool Bench(uint32_t slots, const char* label,
           const std::vector<uint32_t>& window_opcodes, Tickets tickets,
           uint64_t slots_per_config) {
  std::vector<uint8_t> control(RF_CTRL_WORDS * 4, 0);
  Put(control, RF_CTRL_DISPATCH + RF_OP_HAVOC, 1000);
  const std::vector<uint8_t> ring = MakeRing(slots, tickets);
  RingTelemetry out;
  TelemetryDecodeScratch scratch;
  if (!RingTelemetry::TryDecodeWithWindowOpcodesInto(
           control, ring, window_opcodes, out, scratch)
           .ok()) {
    std::fprintf(stderr, "warm-up decode failed\n");
    return false;
  }
  const uint64_t decodes = std::max<uint64_t>(3, slots_per_config / slots);
  const uint64_t allocations_before = g_allocations;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < decodes; ++i) {
    (void)RingTelemetry::TryDecodeWithWindowOpcodesInto(
        control, ring, window_opcodes, out, scratch);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const uint64_t allocations = g_allocations - allocations_before;
  const double slots_per_second = double(slots) * decodes / seconds;
  std::printf("%9u  %-16s %8" PRIu64 " %8.3f %14.0f %9.2f %14.3f\n", slots,
              label, decodes, seconds, slots_per_second, 1e9 / slots_per_second,
              double(allocations) / decodes);
  return allocations == 0 && out.slots.size() == slots;
}

}  // namespace
}  // namespace ringfuzz::telemetry

int main(int argc, char** argv) {
  using ringfuzz::telemetry::Bench;
  using ringfuzz::telemetry::Tickets;
  const uint64_t slots_per_config =
      argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (uint64_t{1} << 26);
  const std::vector<uint32_t> none;
  std::vector<uint32_t> work_kinds;
  for (uint32_t op = RF_OP_FIRST_WORK; op <= RF_OP_LAST_WORK; ++op) {
    work_kinds.push_back(op);
  }
  std::printf("%9s  %-16s %8s %8s %14s %9s %14s\n", "slots", "windows",
              "decodes", "seconds", "slots/s", "ns/slot", "allocs/decode");
  bool ok = true;
  for (uint32_t slots : {1u << 10, 1u << 16, 1u << 20}) {
    ok &= Bench(slots, "none", none, Tickets::kBatched, slots_per_config);
    ok &= Bench(slots, "all, batched", work_kinds, Tickets::kBatched,
                slots_per_config);
    ok &= Bench(slots, "all, shuffled", work_kinds, Tickets::kShuffled,
                slots_per_config);
  }
  if (!ok) std::fprintf(stderr, "FAIL: a decode after warm-up allocated\n");
  return ok ? 0 : 1;
}
