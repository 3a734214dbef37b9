#include "fuzz/gpu/trial_queue.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace ringfuzz {

void TrialQueue::AddTrial(Find trial) { urgent_.push_back(std::move(trial)); }

bool TrialQueue::AddCandidate(Find candidate) {
  if (candidate.new_bits != 0) {
    urgent_.push_back(std::move(candidate));
  } else if (combinations_.size() < combination_cap_) {
    combinations_.push_back(std::move(candidate));
  } else {
    ++dropped_;
    return false;
  }
  return true;
}

std::vector<Find> TrialQueue::Take(size_t n, size_t& urgent) {
  std::vector<Find> taken;
  urgent = std::min(n, urgent_.size());
  const size_t combinations = std::min(n - urgent, combinations_.size());
  taken.reserve(urgent + combinations);
  for (std::deque<Find>* queue : {&urgent_, &combinations_}) {
    const size_t k = queue == &urgent_ ? urgent : combinations;
    std::move(queue->begin(), queue->begin() + k, std::back_inserter(taken));
    queue->erase(queue->begin(), queue->begin() + k);
  }
  return taken;
}

void TrialQueue::PutBack(std::vector<Find> inputs, size_t urgent) {
  urgent = std::min(urgent, inputs.size());
  combinations_.insert(combinations_.begin(),
                       std::make_move_iterator(inputs.begin() + urgent),
                       std::make_move_iterator(inputs.end()));
  urgent_.insert(urgent_.begin(), std::make_move_iterator(inputs.begin()),
                 std::make_move_iterator(inputs.begin() + urgent));
}

}  // namespace ringfuzz
