// Round sizing by time: how many mutants per ring slot make one batch take
// about the target wall time (-round_ms).
#ifndef RINGFUZZ_FUZZ_ENGINE_ROUND_SIZER_H_
#define RINGFUZZ_FUZZ_ENGINE_ROUND_SIZER_H_

#include <cstdint>

#include "absl/time/time.h"

namespace ringfuzz {

// Sizes rounds (batches) by time: how many mutants per slot make a batch of
// `slots` items take about `target` inside Executor::RunBatch, from the
// measured time of the batches so far. A round costs a fixed part (launch,
// ring publication and readback, find handling: 1.6-3 ms measured on an
// H200 with 4096 slots, whatever the executions) plus a part per
// execution, so the sizer fits
//   time = fixed + per_exec * executions
// by least squares over the past batches, each batch's weight multiplied
// by kDecay at every later batch (while all of them had one size, fixed
// keeps its last fitted value, 0 at first, and per_exec = (mean time -
// fixed) / mean executions). Then
//   total    = max(target - fixed, (min_round_per_fixed - 1) * fixed)
//              / per_exec,  at most kMaxGrowth * the last batch's executions
//   per slot = clamp(ceil(total / slots), floor, ceiling)
// The second term keeps the device's throughput: a round is never so short
// that its fixed part is more than 1/min_round_per_fixed of it, so when the
// fixed part alone exceeds the target, rounds settle at min_round_per_fixed
// times it (kMinRoundPerFixed for rounds that run one at a time: at least
// 2/3 of the device's peak rate) instead of collapsing to the floor. To keep
// the fit informed, the second batch and then every kProbeEvery-th one is a
// probe of twice the size (2 * max(total, the last batch's executions), within
// the same bounds; an urgent batch defers it, see ExecsPerSlot).
//
// Once a fit of at least kMinFitBatches batches has separated the fixed
// part, kRegimeStreak batches in a row that each took less than
// 1/kRegimeChange (or each more than kRegimeChange) times what the fit
// predicts start the fit afresh from the last of them (fixed part 0, a
// probe due): the device's speed changed (its clocks rising at a
// campaign's start, or the corpus's executions getting cheaper), and the
// batches before would keep a fixed part that is no longer there, making
// rounds many times the target for tens of batches. Single batches off
// the fit (noise, a stall) change nothing.
//
// Before the first measurement a batch gets `floor` mutants per slot: the
// first batch is small and fast, and the size grows by at most kMaxGrowth
// a batch from there. A batch that ran no execution says nothing; one that
// took no measurable time (a clock too coarse) counts as fast: the size
// grows by kMaxGrowth. Deterministic for a deterministic clock.
class RoundSizer {
 public:
  // Weight a batch keeps per later batch: the fit follows a change of
  // speed within a few batches and remembers the sizes of about the last
  // twenty (the probes) for the fixed part.
  static constexpr double kDecay = 0.9;
  // Most the batch size grows from one batch to the next.
  static constexpr uint64_t kMaxGrowth = 4;
  // A round takes at least this many times its fixed part.
  static constexpr double kMinRoundPerFixed = 3;
  // The same for overlapped rounds (measured by their device time): the
  // device's fixed part of a round is partly hidden behind the round queued
  // after it, and a find waits for the rest of its round and the whole
  // next one. Measured on an H200, bundled targets, 3 seeds each side by
  // side: 2 ran the same exec/s as 3 (-2% to +4% per target, within the
  // run-to-run spread) with the feedback latency's p99 at most 7.8 ms
  // instead of 9.3 ms (docs/perf.md).
  static constexpr double kOverlappedMinRoundPerFixed = 2;
  // Every kProbeEvery-th batch (and the second) runs twice the size.
  static constexpr uint64_t kProbeEvery = 16;
  // An urgent batch aims at this share of the target time.
  static constexpr double kUrgentShare = 0.5;
  // A probe waits for at most this many urgent batches.
  static constexpr uint32_t kMaxProbeDeferrals = 4;
  // How far a batch's time may be off the fit's prediction before the fit
  // starts afresh.
  static constexpr double kRegimeChange = 2.5;
  static constexpr int kRegimeStreak = 2;
  static constexpr uint32_t kMinFitBatches = 8;

  // `floor` is clamped to [1, ceiling] (ceiling >= 1); `target` > 0;
  // `min_round_per_fixed` is clamped to at least 1.
  RoundSizer(absl::Duration target, uint32_t floor, uint32_t ceiling,
             double min_round_per_fixed = kMinRoundPerFixed);

  // Mutants per slot for the next batch of `slots` (>= 1) items.
  // `urgent`: the batch carries the first mutants of new corpus entries,
  // whose feedback latency ends with it: it aims at kUrgentShare of the
  // target (still at least min_round_per_fixed times the fixed part, and
  // never more than a batch that is not urgent), and a probe due waits
  // for the next batch that is not urgent. While the measured batches all
  // had one size (the fit cannot separate the fixed part), it waits for
  // at most kMaxProbeDeferrals urgent ones, so that a run that finds
  // something in every batch still learns the fixed part.
  uint32_t ExecsPerSlot(uint32_t slots, bool urgent = false);
  // Records that a batch ran `executions` in `elapsed`.
  void Observe(uint64_t executions, absl::Duration elapsed);
  // A new target time (> 0) for the batches sized from now on; the fit of
  // the device's speed is kept.
  void SetTarget(absl::Duration target);

  absl::Duration target() const { return target_; }
  uint32_t floor() const { return floor_; }
  uint32_t ceiling() const { return ceiling_; }
  double min_round_per_fixed() const { return min_round_per_fixed_; }
  // The fitted model (zero before the first measurement).
  absl::Duration fixed_cost() const { return absl::Seconds(fixed_); }
  double seconds_per_exec() const { return per_exec_; }

 private:
  // Refits fixed_ and per_exec_ from the decayed sums.
  void Fit();
  // The sizes of the next plain, urgent and probe batches from the fit,
  // each at most `most` executions; `last` is the last batch's.
  void Size(uint64_t most, double last);

  absl::Duration target_;
  double min_round_per_fixed_;
  uint32_t floor_;
  uint32_t ceiling_;
  uint64_t observed_ = 0;  // batches measured
  // Decayed sums over the measured batches: weight, executions, seconds,
  // executions^2, executions * seconds.
  double w_ = 0, n_ = 0, t_ = 0, nn_ = 0, nt_ = 0;
  double fixed_ = 0;           // seconds per round
  double per_exec_ = 0;        // seconds per execution
  uint64_t batch_execs_ = 0;   // executions the next batch aims at; 0: floor
  uint64_t urgent_execs_ = 0;  // the same for an urgent batch
  uint64_t probe_execs_ = 0;   // the same for a probe
  uint64_t most_execs_ = 0;    // the bound the sizes above were given
  double last_execs_ = 0;      // the last measured batch's executions
  bool probe_due_ = false;     // the next batch that is not urgent probes
  uint32_t deferrals_ = 0;     // urgent batches the due probe waited for
  // The last fit saw batches of different sizes, so it separated the
  // fixed part: a due probe may wait for as many urgent batches as come.
  bool separated_ = false;
  uint32_t fit_batches_ = 0;  // batches in the fit since it (re)started
  // Batches in a row whose time was off the fit's prediction: positive
  // when slower, negative when faster.
  int off_streak_ = 0;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_ROUND_SIZER_H_
