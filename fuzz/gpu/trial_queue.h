// The inputs that overlapped signature flights (GpuExecutor::SubmitBatch)
// have yet to run on the precise build: length trials derived from compare
// logs, and the signature build's candidates. The signature build reports
// every execution whose signature it has not seen, which on some targets is
// thousands a flight, nearly all new combinations of block hit counts that
// the precise build has seen one by one. A candidate that visits a (block
// counter, hit-count class) pair no candidate visited before says so
// (Find::new_bits != 0, RF_RES_SIG_CLASSES): such candidates and the
// length trials are urgent and come out first; the combinations wait
// behind them, at most `combination_cap` of them (later ones are dropped
// and counted; the caller un-marks their signatures, so that a later
// execution with one is a candidate again).
#ifndef RINGFUZZ_FUZZ_GPU_TRIAL_QUEUE_H_
#define RINGFUZZ_FUZZ_GPU_TRIAL_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "fuzz/engine/executor.h"

namespace ringfuzz {

class TrialQueue {
 public:
  explicit TrialQueue(size_t combination_cap)
      : combination_cap_(combination_cap) {}

  // Queues a length trial: urgent.
  void AddTrial(Find trial);
  // Queues a signature candidate: urgent iff candidate.new_bits != 0.
  // Returns false iff it is a combination dropped because
  // `combination_cap` of them wait.
  bool AddCandidate(Find candidate);
  // Takes up to `n` inputs, the urgent ones first, each kind in the order
  // queued; sets `urgent` to how many of them (the first ones) are urgent.
  std::vector<Find> Take(size_t n, size_t& urgent);
  // Puts inputs that Take returned back in front, in their order; the
  // first `urgent` of them are urgent.
  void PutBack(std::vector<Find> inputs, size_t urgent);

  size_t size() const { return urgent_.size() + combinations_.size(); }
  size_t urgent() const { return urgent_.size(); }
  // Combinations dropped because `combination_cap` were waiting.
  uint64_t dropped() const { return dropped_; }

 private:
  size_t combination_cap_;
  std::deque<Find> urgent_;
  std::deque<Find> combinations_;
  uint64_t dropped_ = 0;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_TRIAL_QUEUE_H_
