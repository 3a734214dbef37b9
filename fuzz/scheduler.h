// Turns the corpus into the next batch of work: which entries to mutate,
// how, and how many mutants each ring slot runs.
//
// Energy (how often an entry is picked) is an entropic-lite rule:
//   energy = (1 + new_bits) * sqrt(1 + finds) * recency / sqrt(1 + executions)
//   recency = 1 + 3 * added_at_exec / total_executions      (1 .. 4)
// so entries that added more coverage, whose children were kept, that are
// recent, and that have been mutated less are favoured, while every entry
// keeps a non-zero chance.
//
// Energy is then scaled by speed, as AFL's performance score does: an entry
// whose mutants run cheaper than the corpus average is picked more often,
// one whose mutants run longer less often, so that slow inputs (a loop at
// its iteration cap) do not take most of the device's time:
//   cost  = kFixedCost + measured_steps / measured_executions
//   speed = clamp((mean cost of the measured entries / cost)^2,
//                 kMinSpeed, kMaxSpeed)
// An entry not measured yet, or a corpus with nothing measured, has speed 1.
//
// Everything is drawn from one std::mt19937_64, whose output the C++
// standard fixes, through conversions written out here (not the library's
// unspecified distributions), so a seed and a corpus give the same batches
// with any standard library.
#ifndef RINGFUZZ_FUZZ_SCHEDULER_H_
#define RINGFUZZ_FUZZ_SCHEDULER_H_

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "corpus/corpus.h"
#include "fuzz/executor.h"

namespace ringfuzz {

// How much work the next batch may hold.
struct BatchBudget {
  uint32_t slots = 1;           // most work items
  uint32_t execs_per_slot = 1;  // executions requested per item, normally
  std::optional<uint64_t> remaining_runs;  // nullopt: no -runs limit
};

// The steering's say in a batch (fuzz/steering.h). The default plan leaves
// the batch to energy alone, every item in tenant 0.
struct BatchPlan {
  // Corpus indices whose earlier work was left unfinished (requeued): each
  // gets one item at RF_PRIORITY_HIGH, drawn before any other (at most half
  // of the batch, at least one item).
  std::vector<size_t> promoted;
  // Tenant of corpus entry i (entries past the end: tenant 0).
  std::vector<uint32_t> entry_tenant;
  // Items per tenant (index = tenant) for the draws after the promoted ones,
  // scaled to what is left; a tenant without entries gives its share to the
  // others. Empty: parents are drawn from the whole corpus.
  std::vector<uint32_t> tenant_items;
};

struct Batch {
  std::vector<WorkItem> work;
  uint64_t seed = 0;  // for Executor::RunBatch
  // Sum of the items' counts: min(slots * execs_per_slot, remaining_runs).
  uint64_t requested = 0;
};

class Scheduler {
 public:
  // The first `required_per_parent` items of a parent are RF_CLASS_REQUIRED,
  // further ones RF_CLASS_LOOKAHEAD (speculative; RF_PRIORITY_LOW).
  static constexpr uint32_t kRequiredPerParent = 2;

  // `use_dictionary`: whether RF_OP_DICT work may be scheduled (a
  // dictionary was loaded into the executor).
  // use_compares: also schedule RF_OP_CMP (input-to-state) work.
  Scheduler(uint64_t seed, bool use_dictionary, bool use_compares = false);
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Returns the next batch; empty iff the corpus is empty or no runs remain.
  //
  // The requested total is split over min(slots, total) items so that the
  // counts differ by at most one and add up exactly (this makes -runs
  // exact). Parents are drawn by energy (within each tenant's share when
  // `plan` splits the batch by tenant); items of one parent share a ticket
  // (arg0), fresh per parent and batch, and each item carries its parent's
  // tenant. Items are sorted by priority (stable), so that the device claims
  // HIGH before NORMAL before LOW work; within a priority the items of one
  // parent are adjacent. Work kinds: 1/8
  // RF_OP_SPLICE (only with >= 2 entries; the partner differs from the
  // parent), 1/8 RF_OP_DICT (only with a dictionary), else RF_OP_HAVOC.
  // RF_OP_REPLAY is never scheduled. `stack` is 1, 2, 4 or 8.
  Batch NextBatch(const Corpus& corpus, const BatchBudget& budget,
                  uint64_t total_executions, const BatchPlan& plan = {});

  // Cost of an execution beyond the target's loop iterations (mutation,
  // straight-line code), in loop iterations.
  static constexpr double kFixedCost = 16;
  static constexpr double kMinSpeed = 0.1;
  static constexpr double kMaxSpeed = 4;

  // Returns the energy of `entry` before speed (see the file comment); > 0.
  static double Energy(const CorpusEntry& entry, uint64_t total_executions);

  // Returns the cost of one execution of a mutant of `entry` (see the file
  // comment), or nullopt if it was not measured.
  static std::optional<double> Cost(const CorpusEntry& entry);

  // Returns the speed factor of an entry of cost `cost` in a corpus of mean
  // cost `mean_cost` (see the file comment); 1 if either is unknown.
  static double Speed(std::optional<double> cost,
                      std::optional<double> mean_cost);

 private:
  uint64_t Below(uint64_t n);  // uniform in [0, n), n > 0
  double Unit();               // uniform in [0, 1)
  // Appends `n` parents drawn by energy from `candidates` (corpus indices,
  // non-empty) to `parents`.
  void DrawParents(const Corpus& corpus, const std::vector<size_t>& candidates,
                   uint64_t n, uint64_t total_executions,
                   std::vector<size_t>& parents);

  std::mt19937_64 rng_;
  bool use_dictionary_;
  bool use_compares_;
  uint32_t next_ticket_ = 0;  // the last ticket handed out; the first is 1
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_SCHEDULER_H_
