#include "corpus/corpus.h"

#include <algorithm>
#include <utility>

namespace ringfuzz {

std::optional<size_t> Corpus::Add(CorpusEntry entry) {
  if (by_sha1_.contains(entry.sha1) ||
      by_executor_index_.contains(entry.executor_index)) {
    return std::nullopt;
  }
  size_t index = entries_.size();
  by_sha1_.emplace(entry.sha1, index);
  by_executor_index_.emplace(entry.executor_index, index);
  total_bytes_ += entry.data.size();
  max_input_size_ = std::max(max_input_size_, entry.data.size());
  entries_.push_back(std::move(entry));
  return index;
}

std::optional<size_t> Corpus::FindBySha1(const std::string& sha1) const {
  auto it = by_sha1_.find(sha1);
  if (it == by_sha1_.end()) return std::nullopt;
  return it->second;
}

std::optional<size_t> Corpus::FindByExecutorIndex(
    uint32_t executor_index) const {
  auto it = by_executor_index_.find(executor_index);
  if (it == by_executor_index_.end()) return std::nullopt;
  return it->second;
}

void Corpus::Retire(size_t index) {
  CorpusEntry& entry = entries_[index];
  if (entry.retired) return;
  entry.retired = true;
  ++retired_;
  total_bytes_ -= entry.data.size();
}

void Corpus::RecordExecutions(size_t index, uint64_t executions) {
  entries_[index].executions += executions;
}

void Corpus::RecordFind(size_t index, uint32_t new_bits) {
  CorpusEntry& entry = entries_[index];
  ++entry.finds;
  entry.child_bits += new_bits;
  entry.executions_at_last_find = entry.executions;
  ++total_finds_;
}

void Corpus::RecordCost(size_t index, uint64_t executions, uint64_t steps) {
  entries_[index].measured_executions += executions;
  entries_[index].measured_steps += steps;
}

}  // namespace ringfuzz
