// Measures the host's planning of one round: Scheduler::NextBatch on a
// synthetic corpus, in microseconds per batch, with glibc's default
// treatment of freed memory and with KeepFreedMemoryForReuse (what ringfuzz
// runs with). No device is involved.
//
//   scheduler_bench [-slots=N] [-entries=N] [-batches=N] [-keep_freed=0|1]
//
// -slots is the ring's work items per batch (4,096 on the H200), -entries
// the corpus size, -batches how many batches are timed (after one warm-up
// batch). Each entry has its own measured cost and a few new bits, so that
// parents are drawn by energy and speed as in a campaign; every fourth
// batch has fresh and promoted parents. Prints one line:
//   scheduler_bench: SLOTS slots, ENTRIES entries, keep_freed K: U us per batch
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "corpus/corpus.h"
#include "corpus/sha1.h"
#include "fuzz/engine/heap_tuning.h"
#include "fuzz/engine/scheduler.h"

ABSL_FLAG(uint32_t, slots, 4096, "work items per batch");
ABSL_FLAG(uint32_t, entries, 120, "corpus entries");
ABSL_FLAG(uint32_t, batches, 2000, "batches timed");
ABSL_FLAG(bool, keep_freed, true,
          "call KeepFreedMemoryForReuse first, as ringfuzz does");

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const bool keep_freed = absl::GetFlag(FLAGS_keep_freed);
  if (keep_freed) ringfuzz::KeepFreedMemoryForReuse();
  const uint32_t slots = absl::GetFlag(FLAGS_slots);
  const uint32_t entries = absl::GetFlag(FLAGS_entries);
  const uint32_t batches = absl::GetFlag(FLAGS_batches);
  if (slots == 0 || entries == 0 || batches == 0) {
    std::fprintf(stderr,
                 "scheduler_bench: -slots, -entries and -batches must be at "
                 "least 1\n");
    return 2;
  }
  ringfuzz::Corpus corpus;
  for (uint32_t i = 0; i < entries; ++i) {
    ringfuzz::CorpusEntry entry;
    const std::string text = "entry " + std::to_string(i);
    entry.data = ringfuzz::Bytes(text.begin(), text.end());
    entry.sha1 = ringfuzz::Sha1Hex(entry.data);
    entry.executor_index = i;
    entry.new_bits = i % 5;
    entry.executions = 1000ull * i;
    entry.measured_executions = 1000;
    entry.measured_steps = 1000ull * (1 + i % 7);
    if (!corpus.Add(std::move(entry)).has_value()) {
      std::fprintf(stderr, "scheduler_bench: entry %u was refused\n", i);
      return 1;
    }
  }
  ringfuzz::Scheduler scheduler(1, true, true);
  auto plan_of = [&](uint32_t b) {
    ringfuzz::BatchPlan plan;
    if (b % 4 == 1) {
      plan.promoted = {b % entries};
      plan.fresh = {(b * 7) % entries, (b * 13) % entries};
    }
    return plan;
  };
  uint64_t items =
      scheduler
          .NextBatch(corpus, {slots, 600, std::nullopt}, 1000000, plan_of(0))
          .work.size();
  const auto start = std::chrono::steady_clock::now();
  for (uint32_t b = 1; b <= batches; ++b) {
    items += scheduler
                 .NextBatch(corpus, {slots, 600, std::nullopt}, 1000000ull * b,
                            plan_of(b))
                 .work.size();
  }
  const double us = std::chrono::duration<double, std::micro>(
                        std::chrono::steady_clock::now() - start)
                        .count() /
                    batches;
  const uint64_t asked = uint64_t{slots} * (uint64_t{batches} + 1);
  if (items != asked) {
    std::fprintf(stderr, "scheduler_bench: %llu items planned, %llu asked\n",
                 static_cast<unsigned long long>(items),
                 static_cast<unsigned long long>(asked));
    return 1;
  }
  std::printf(
      "scheduler_bench: %u slots, %u entries, keep_freed %d: %.1f us per "
      "batch\n",
      slots, entries, keep_freed ? 1 : 0, us);
  return 0;
}
