// Turns the corpus into the next batch of work: which entries to mutate,
// how, and how many mutants each ring slot runs.
//
// Fresh entries first: entries found since their last batch (BatchPlan::
// fresh, queued by the engine) get kFreshItemsPerEntry items each at
// RF_PRIORITY_HIGH, dealt round robin (oldest entry first) ahead of the
// energy draws, at most 1/kFreshShare of the batch; those that got no item
// wait for the next batch (Batch::fresh_waiting). So an entry found by one
// batch has mutants claimed first by the next one, whatever its energy.
//
// Energy (how often an entry is drawn) is an entropic-lite rule. The
// executor reports per find only the coverage bits it set first (new_bits),
// so the terms are what a corpus of (entry, parent, new_bits, executions)
// can say:
//   energy    = gain * discovery * rarity * recency * fade
//   gain      = 1 + new_bits                      (what the entry added)
//   discovery = sqrt((1 + finds + child_bits) / (1 + executions))
//               (a Good-Turing-style rate: its kept children are the new
//               "species" its mutants found, child_bits weighs them by the
//               coverage they added)
//   rarity    = 1 / sqrt(siblings)  siblings = kept children of its parent
//               (>= 1; 1 for seeds): an entry from a crowded family shares
//               its region of the input space with its siblings, one with
//               few siblings holds coverage few inputs reach (Entropic's
//               rare features, by lineage since features are not reported)
//   recency   = 1 + 3 * added_at_exec / total_executions      (1 .. 4)
//   fade      = 1 / (1 + stale / (kStaleIntervals * interval))
//               stale    = executions - executions_at_last_find (executions
//                          spent on it since its last kept child, or since
//                          it was added)
//               interval = max(kMinFindInterval,
//                              total_executions / (1 + total_finds))
//                          (the campaign's mean executions per kept find)
// so entries that added more coverage, whose children were kept, that are
// rare, recent and little mutated are favoured, an entry whose mutants
// stopped giving kept children fades (its fade is 1/2 after kStaleIntervals
// find intervals without one), and every entry keeps a non-zero chance.
//
// A retired entry (replaced by a shorter input of its path, Corpus::Retire)
// has no energy and gets no fresh items.
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
// Slowest first: within RF_PRIORITY_NORMAL and within RF_PRIORITY_LOW,
// items are ordered by their parent's cost, dearest first (entries not
// measured yet first of all, as if dearest), ties in draw order. The
// device claims slots in ring order, one slot per workgroup at a time, so
// a round lasts until its last claimed slot ends: a slow parent's slot
// claimed last runs alone while the rest of the device idles, one claimed
// first overlaps the cheap slots claimed after it (longest processing
// time first). The batch's work is the same either way. Off by default:
// on the H100 it ran 13-25% fewer executions per second than draw order on
// the bundled targets at equal coverage, with and without cut rounds, and
// it was neutral on lavapipe (docs/perf.md).
//
// Everything is drawn from one std::mt19937_64, whose output the C++
// standard fixes, through conversions written out here (not the library's
// unspecified distributions), so a seed and a corpus give the same batches
// with any standard library.
//
// fuzz/engine/round_sizer.h sizes the batches by time.
#ifndef RINGFUZZ_FUZZ_ENGINE_SCHEDULER_H_
#define RINGFUZZ_FUZZ_ENGINE_SCHEDULER_H_

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "absl/time/time.h"
#include "corpus/corpus.h"
#include "fuzz/engine/executor.h"

namespace ringfuzz {

// How much work the next batch may hold.
struct BatchBudget {
  uint32_t slots = 1;           // most work items
  uint32_t execs_per_slot = 1;  // executions requested per item, normally
  std::optional<uint64_t> remaining_runs;  // nullopt: no -runs limit
};

// The steering's say in a batch (fuzz/steer/steering.h). The default plan
// leaves the batch to energy alone, every item in tenant 0.
struct BatchPlan {
  // Corpus indices whose earlier work was left unfinished (requeued): each
  // gets one item at RF_PRIORITY_HIGH, drawn before any other (at most half
  // of the batch, at least one item).
  std::vector<size_t> promoted;
  // Corpus indices of fresh entries (found since they last got items, see
  // the file comment), oldest first. Each gets up to kFreshItemsPerEntry
  // items at RF_PRIORITY_HIGH, after the promoted ones, dealt round robin;
  // at most 1/kFreshShare of the batch (at least one item) and never more
  // than what is left after the promoted ones. When the batch is split by
  // tenant, an entry's fresh items come out of its tenant's share (a tenant
  // whose share is used up serves no more fresh entries in this batch).
  std::vector<size_t> fresh;
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
  // The entries of BatchPlan::fresh that got no item (the fresh share was
  // used up), in plan order: the engine offers them again next batch.
  std::vector<size_t> fresh_waiting;
  // Set by the engine: the batch gives new entries (or, the first batch,
  // the seeds) their first mutants, so its finds are likely.
  bool first_mutants = false;
};

// What Energy needs to know about the corpus an entry is in.
struct EnergyContext {
  uint64_t total_executions = 0;  // of the whole run so far
  uint64_t total_finds = 0;       // Corpus::total_finds()
};

class Scheduler {
 public:
  // The first `required_per_parent` items of a parent are RF_CLASS_REQUIRED,
  // further ones RF_CLASS_LOOKAHEAD (speculative; RF_PRIORITY_LOW). HIGH
  // items (promoted, fresh) are RF_CLASS_REQUIRED too.
  static constexpr uint32_t kRequiredPerParent = 2;
  // Items at RF_PRIORITY_HIGH per fresh entry: enough that its first
  // mutants run on several workgroups at once, the first thing the device
  // claims, without one entry taking the fresh share.
  static constexpr uint32_t kFreshItemsPerEntry = 4;
  // Fresh items take at most 1/kFreshShare of a batch's items, so that a
  // burst of finds (the first batches of a campaign) leaves most of the
  // batch to energy.
  static constexpr uint32_t kFreshShare = 4;

  // `use_dictionary`: whether RF_OP_DICT work may be scheduled (a
  // dictionary was loaded into the executor).
  // use_compares: also schedule RF_OP_CMP (input-to-state) work.
  // slowest_first: order NORMAL and LOW items by cost (see the file
  // comment, -slowest_first=1); false keeps them in draw order.
  Scheduler(uint64_t seed, bool use_dictionary, bool use_compares = false,
            bool slowest_first = false);
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
  // parent are adjacent, and with slowest_first NORMAL and LOW items run
  // slowest parent first (see the file comment). Promoted items come first,
  // then fresh items (see BatchPlan), both RF_PRIORITY_HIGH. Work kinds: 1/8
  // RF_OP_SPLICE (only with >= 2 entries; the partner differs from the
  // parent), 1/8 RF_OP_DICT (only with a dictionary), 1/8 RF_OP_CMP (only
  // with compare feedback), else RF_OP_HAVOC; with compare feedback the
  // first item of a fresh or promoted parent is RF_OP_CMP.
  // RF_OP_REPLAY is never scheduled. `stack` is 1, 2, 4 or 8.
  Batch NextBatch(const Corpus& corpus, const BatchBudget& budget,
                  uint64_t total_executions, const BatchPlan& plan = {});

  // Cost of an execution beyond the target's loop iterations (mutation,
  // straight-line code), in loop iterations.
  static constexpr double kFixedCost = 16;
  static constexpr double kMinSpeed = 0.1;
  static constexpr double kMaxSpeed = 4;
  // Staleness (see the file comment): an entry that spent kStaleIntervals
  // of the campaign's find intervals without a kept child has its fade at
  // 1/2, at 2 * kStaleIntervals at 1/3, and so on. Measured in the
  // campaign's own interval, so it means the same on a CPU at 10^5 exec/s
  // and a GPU at 10^9.
  static constexpr double kStaleIntervals = 4;
  // Floor of the find interval, in executions, so that the first finds of
  // a campaign (a few executions apart) do not make every entry stale.
  static constexpr double kMinFindInterval = 1024;

  // Returns the energy of `entry` before speed (see the file comment); > 0.
  // `siblings`: kept children of its parent (1 for an entry without one).
  static double Energy(const CorpusEntry& entry, const EnergyContext& context,
                       uint64_t siblings = 1);
  // Returns the fade factor of `entry` (see the file comment), in (0, 1].
  static double Fade(const CorpusEntry& entry, const EnergyContext& context);

  // Returns the cost of one execution of a mutant of `entry` (see the file
  // comment), or nullopt if it was not measured.
  static std::optional<double> Cost(const CorpusEntry& entry);

  // Returns the speed factor of an entry of cost `cost` in a corpus of mean
  // cost `mean_cost` (see the file comment); 1 if either is unknown.
  static double Speed(std::optional<double> cost,
                      std::optional<double> mean_cost);

 private:
  // Deals at most `budget` fresh items round robin over plan.fresh (see
  // BatchPlan::fresh); returns the items of each. With `shares` (the batch
  // is split by tenant), each item comes out of its entry's tenant share.
  static std::vector<uint32_t> DealFresh(
      const Corpus& corpus, const BatchPlan& plan, uint64_t budget,
      std::optional<std::vector<uint64_t>>& shares);
  uint64_t Below(uint64_t n);  // uniform in [0, n), n > 0
  double Unit();               // uniform in [0, 1)
  // Appends `n` parents drawn by energy from `candidates` (corpus indices,
  // non-empty) to `parents`.
  void DrawParents(const Corpus& corpus, const std::vector<size_t>& candidates,
                   uint64_t n, const EnergyContext& context,
                   std::vector<size_t>& parents);

  std::mt19937_64 rng_;
  bool use_dictionary_;
  bool use_compares_;
  bool slowest_first_;
  uint32_t next_ticket_ = 0;  // the last ticket handed out; the first is 1
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_SCHEDULER_H_
