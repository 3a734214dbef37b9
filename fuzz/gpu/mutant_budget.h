// Mutant loop budgets: how many loop iterations a mutant of each parent may
// run in the signature build before it is cut (RF_ARG_STACK), from what the
// parent's mutants measured (libFuzzer judges slow units, and AFL++ sets its
// timeout, relative to normal runs; a GPU pays more, since one slow mutant
// holds every lane of its subgroup).
//
// A parent's budget is the largest of `floor` (kInputPasses passes over
// the longest input: loops over an input are never cut) and kSlowFactor
// times the mean loop iterations of its mutants (the older half weighing
// half once kHistory executions are behind it), doubled once for every
// window of kWindow executions whose cut share passed 1 / kCutShare
// (mutants that go further than most are then common, not a tail), and
// halved again for every window without a cut. No budget (0: the
// executor's whole exec_steps) before a parent has a measured slot, or
// where the budget would reach `ceiling`.
//
// A cut mutant is not lost where it went somewhere new before the cut: its
// signature so far makes it a candidate, and the precise build's re-run of
// a candidate has the whole budget (and reports a timeout where it hangs).
#ifndef RINGFUZZ_FUZZ_GPU_MUTANT_BUDGET_H_
#define RINGFUZZ_FUZZ_GPU_MUTANT_BUDGET_H_

#include <cstdint>
#include <vector>

namespace ringfuzz {

class MutantBudget {
 public:
  static constexpr uint64_t kSlowFactor = 16;
  // Passes over an input of max_len bytes the floor allows (as
  // kLoopPassesPerInput of fuzz/cli.h for the whole loop budget).
  static constexpr uint32_t kInputPasses = 8;
  static constexpr uint64_t kCutShare = 64;
  static constexpr uint64_t kWindow = 4096;
  static constexpr uint64_t kHistory = 65536;

  MutantBudget(uint32_t floor, uint32_t ceiling)
      : floor_(floor), ceiling_(ceiling) {}

  // One slot of `parent`'s mutants ran: `execs` executions, `steps` loop
  // iterations in all (a cut one's counted up to its cut), `cuts` cut.
  void Observe(uint32_t parent, uint64_t execs, uint64_t steps, uint64_t cuts);
  // The loop budget of `parent`'s mutants; 0 where they have the ceiling.
  uint32_t For(uint32_t parent) const;
  // Mutants cut so far, and executions observed.
  uint64_t cuts() const { return cuts_; }
  uint64_t executions() const { return executions_; }

 private:
  struct Parent {
    uint64_t execs = 0;
    uint64_t steps = 0;
    uint64_t window_execs = 0;
    uint64_t window_cuts = 0;
    uint32_t doublings = 0;
  };
  uint32_t floor_;
  uint32_t ceiling_;
  std::vector<Parent> parents_;
  uint64_t cuts_ = 0;
  uint64_t executions_ = 0;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_MUTANT_BUDGET_H_
