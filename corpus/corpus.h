// The in-memory corpus: the inputs fuzzing mutates, with the per-entry
// statistics the scheduler turns into energy.
#ifndef RINGFUZZ_CORPUS_CORPUS_H_
#define RINGFUZZ_CORPUS_CORPUS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "corpus/bytes.h"

namespace ringfuzz {

struct CorpusEntry {
  Bytes data;
  std::string sha1;             // Sha1Hex(data)
  uint32_t executor_index = 0;  // index in the executor's corpus mirror
  uint64_t executions = 0;      // mutants run from this entry
  uint32_t new_bits = 0;        // coverage bits it set first
  uint64_t added_at_exec = 0;   // total executions when it was added
  uint32_t finds = 0;           // children of it that were kept
  // Coverage bits its kept children set first (the sum of their new_bits).
  uint64_t child_bits = 0;
  // `executions` when its last kept child was recorded (0: none yet). The
  // executions since then, executions - executions_at_last_find, are the
  // ones spent on it without result (the scheduler's staleness).
  uint64_t executions_at_last_find = 0;
  // Corpus index of the entry it was mutated from; nullopt for the entries
  // the run started with (seeds) and where the parent is unknown.
  std::optional<size_t> parent;
  // Cost of mutating it, as measured by the executor: target loop
  // iterations over the executions of its mutants (0 and 0: unmeasured).
  uint64_t measured_executions = 0;
  uint64_t measured_steps = 0;
  // Replaced by a shorter input of the same path (Corpus::Retire): kept so
  // that indices stay valid, but no longer mutated or counted.
  bool retired = false;
};

// Entries are never removed, so an index stays valid for the whole run; an
// entry replaced by a shorter one is retired instead.
// Not copyable: there is one corpus per fuzzing run.
class Corpus {
 public:
  Corpus() = default;
  Corpus(const Corpus&) = delete;
  Corpus& operator=(const Corpus&) = delete;

  // Adds `entry` (its sha1 must be Sha1Hex(entry.data)) and returns its
  // index, or nullopt iff an entry with the same sha1 or the same
  // executor_index is already present (nothing changes then).
  std::optional<size_t> Add(CorpusEntry entry);

  // Returns the index of the entry with this sha1, if any.
  std::optional<size_t> FindBySha1(const std::string& sha1) const;
  // Returns the index of the entry the executor knows as `executor_index`.
  std::optional<size_t> FindByExecutorIndex(uint32_t executor_index) const;

  const CorpusEntry& entry(size_t index) const { return entries_[index]; }
  const std::vector<CorpusEntry>& entries() const { return entries_; }

  // Statistics updates; `index` must be valid.
  void RecordExecutions(size_t index, uint64_t executions);
  // A child of entry `index` that set `new_bits` coverage bits first was
  // kept: counts it (finds, child_bits, total_finds) and restarts the
  // entry's staleness (executions_at_last_find = executions).
  void RecordFind(size_t index, uint32_t new_bits = 0);
  // Adds a measurement of the cost of mutating entry `index`.
  void RecordCost(size_t index, uint64_t executions, uint64_t steps);
  // Retires entry `index` (once; again is a no-op): it leaves
  // active_size() and total_bytes(), and the scheduler draws it no more.
  void Retire(size_t index);

  // Every entry ever added, retired ones too (indices run below it).
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  // Entries not retired, as libFuzzer's "corp: N/<bytes>".
  size_t active_size() const { return entries_.size() - retired_; }
  // Sum of the sizes of the entries not retired, as libFuzzer's
  // "corp: N/<bytes>".
  uint64_t total_bytes() const { return total_bytes_; }
  // Size of the largest input (0 if empty).
  size_t max_input_size() const { return max_input_size_; }
  // Sum of all entries' finds (kept children recorded by RecordFind).
  uint64_t total_finds() const { return total_finds_; }

 private:
  std::vector<CorpusEntry> entries_;
  absl::flat_hash_map<std::string, size_t> by_sha1_;
  absl::flat_hash_map<uint32_t, size_t> by_executor_index_;
  uint64_t total_bytes_ = 0;
  size_t retired_ = 0;
  size_t max_input_size_ = 0;
  uint64_t total_finds_ = 0;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_CORPUS_CORPUS_H_
