#include "tests/engine/fake_executor.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "shaders/ringfuzz_mutators.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

FakeExecutor::FakeExecutor(FakeExecutorOptions options)
    : options_(std::move(options)) {}

absl::StatusOr<uint32_t> FakeExecutor::AddInput(ByteSpan input) {
  if (input.size() > options_.max_len) {
    return absl::InvalidArgumentError("input longer than max_len");
  }
  if (inputs_.size() >= options_.corpus_limit) {
    return absl::ResourceExhaustedError(
        "the corpus buffer is full (FakeExecutorOptions::corpus_limit)");
  }
  inputs_.emplace_back(input.begin(), input.end());
  return static_cast<uint32_t>(inputs_.size() - 1);
}

absl::Status FakeExecutor::SetDictionary(const std::vector<Bytes>& tokens) {
  dictionary_ = tokens;
  return absl::OkStatus();
}

std::optional<Find> FakeExecutor::RunOne(const Bytes& input, uint32_t parent,
                                         uint32_t opcode) {
  ++executions_;
  size_t k = 0;
  while (k < input.size() && k < options_.magic.size() &&
         input[k] == static_cast<uint8_t>(options_.magic[k])) {
    ++k;
  }
  Find find;
  find.data = input;
  find.parent = parent;
  find.opcode = opcode;
  if (k == options_.magic.size()) {
    if (options_.bug_covers && options_.coverage) {
      features_.insert(k);
      features_.insert(1000 + std::min<size_t>(input.size(), 8));
      prefixes_.insert(k);
    }
    find.kind = options_.bug;
    find.code = options_.bug == Find::Kind::kOverread
                    ? static_cast<uint32_t>(input.size())
                    : options_.crash_code;
    find.aux = options_.bug == Find::Kind::kTimeout
                   ? 1000u
                   : static_cast<uint32_t>(input.size());
    return find;
  }
  if (!options_.coverage) return std::nullopt;
  uint32_t new_bits = 0;
  if (features_.insert(k).second) ++new_bits;
  if (features_.insert(1000 + std::min<size_t>(input.size(), 8)).second) {
    ++new_bits;
  }
  prefixes_.insert(k);
  if (new_bits == 0) return std::nullopt;
  find.kind = Find::Kind::kNewCoverage;
  find.new_bits = new_bits;
  return find;
}

Bytes FakeExecutor::Mutate(const WorkItem& item, std::mt19937_64& rng,
                           std::vector<uint32_t>& mutations) const {
  Bytes data = inputs_[item.parent];
  const size_t limit = options_.max_len;
  if (item.opcode == RF_OP_SPLICE && !inputs_[item.partner].empty()) {
    const Bytes& partner = inputs_[item.partner];
    size_t cut = rng() % (std::min(data.size(), partner.size()) + 1);
    data.resize(cut);
    data.insert(data.end(), partner.begin() + cut, partner.end());
    mutations.push_back(RF_MUT_SPLICE);
  }
  if (item.opcode == RF_OP_DICT && !dictionary_.empty()) {
    const Bytes& token = dictionary_[rng() % dictionary_.size()];
    size_t at = rng() % (data.size() + 1);
    data.insert(data.begin() + at, token.begin(), token.end());
    mutations.push_back(RF_MUT_DICT);
  }
  uint32_t ops = 1 + rng() % std::max<uint32_t>(item.stack, 1);
  for (uint32_t i = 0; i < ops; ++i) {
    switch (rng() % 3) {
      case 0:
        if (!data.empty()) data[rng() % data.size()] = rng() & 0xff;
        mutations.push_back(RF_MUT_CHANGE_BYTE);
        break;
      case 1:
        if (data.size() < limit) {
          data.insert(data.begin() + rng() % (data.size() + 1), rng() & 0xff);
        }
        mutations.push_back(RF_MUT_INSERT);
        break;
      case 2:
        if (data.size() > 1) data.erase(data.begin() + rng() % data.size());
        mutations.push_back(RF_MUT_ERASE);
        break;
    }
  }
  if (data.size() > limit) data.resize(limit);
  return data;
}

absl::Status FakeExecutor::SubmitBatch(absl::Span<const WorkItem> work,
                                       uint64_t seed) {
  if (submitted_.size() >= options_.overlap) {
    return absl::FailedPreconditionError(
        "SubmitBatch with overlap() batches already in flight");
  }
  in_flight_at_submit_.push_back(submitted_.size());
  collected_at_submit_.push_back(collected_);
  submitted_.emplace_back(std::vector<WorkItem>(work.begin(), work.end()),
                          seed);
  most_in_flight_ = std::max(most_in_flight_, submitted_.size());
  inputs_at_submit_.push_back(inputs_.size());
  return absl::OkStatus();
}

void FakeExecutor::CutEarlierRounds() {
  Cut cut;
  cut.in_flight = submitted_.size();
  if (!submitted_.empty()) {
    for (const WorkItem& item : submitted_.back().first) {
      cut.last_has_high |= item.priority <= RF_PRIORITY_HIGH;
    }
  }
  cuts_.push_back(cut);
}

absl::StatusOr<BatchResult> FakeExecutor::CollectBatch() {
  if (submitted_.empty()) {
    return absl::FailedPreconditionError("CollectBatch with none in flight");
  }
  auto [work, seed] = std::move(submitted_.front());
  submitted_.pop_front();
  ++collected_;
  return RunBatch(work, seed);
}

absl::StatusOr<BatchResult> FakeExecutor::RunBatch(
    absl::Span<const WorkItem> work, uint64_t seed) {
  if (options_.before_batch) options_.before_batch();
  if (options_.batch_error) return absl::InternalError(*options_.batch_error);
  if (options_.lose_device_at.count(++batches_run_) != 0) {
    return absl::UnavailableError("VK_ERROR_DEVICE_LOST (fake)");
  }
  batches_.emplace_back(work.begin(), work.end());
  BatchResult result;
  result.device_time = options_.device_time;
  for (size_t i = 0; i < work.size(); ++i) {
    const WorkItem& item = work[i];
    if (item.parent >= inputs_.size() || item.partner >= inputs_.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("work item ", i, " names an unknown corpus entry"));
    }
    if (options_.reduce && !inputs_[item.parent].empty()) {
      Find reduction;
      reduction.data.assign(inputs_[item.parent].begin(),
                            inputs_[item.parent].end() - 1);
      reduction.parent = item.parent;
      reduction.opcode = item.opcode;
      reduction.mutations = {RF_MUT_ERASE};
      reduction.reduces_parent = true;
      result.finds.push_back(std::move(reduction));
    }
    std::mt19937_64 rng(seed ^ (0x9E3779B97F4A7C15ull * (i + 1)));
    const uint32_t per = options_.execs_per_mutant;
    uint32_t runs = std::min(item.count / per + (item.count % per != 0 ? 1 : 0),
                             options_.max_execs_per_item);
    for (uint32_t r = 0; r < runs; ++r) {
      std::vector<uint32_t> mutations;
      Bytes mutant = Mutate(item, rng, mutations);
      result.executions += std::min(per, item.count - r * per);
      if (options_.name_mutators) {
        result.mutator_executions.resize(RF_MUT_COUNT);
        ++result.mutator_executions[mutations.back()];
      }
      if (std::optional<Find> find = RunOne(mutant, item.parent, item.opcode)) {
        if (options_.name_mutators) find->mutations = std::move(mutations);
        bool bug = IsBug(find->kind);
        if (options_.bugs_only && !bug) continue;
        result.finds.push_back(*std::move(find));
        if (bug) break;
      }
    }
    if (!result.finds.empty() && IsBug(result.finds.back().kind)) break;
  }
  result.device_time +=
      options_.device_time_per_exec * static_cast<int64_t>(result.executions);
  return result;
}

absl::StatusOr<BatchResult> FakeExecutor::Execute(ByteSpan input) {
  if (input.size() > options_.max_len) {
    return absl::InvalidArgumentError("input longer than max_len");
  }
  Bytes data(input.begin(), input.end());
  executed_.push_back(data);
  BatchResult result;
  result.executions = 1;
  if (std::optional<Find> find = RunOne(data, 0, RF_OP_REPLAY)) {
    result.finds.push_back(*std::move(find));
  }
  return result;
}

CoverageSummary FakeExecutor::Coverage() const {
  return CoverageSummary{prefixes_.size(), features_.size()};
}

absl::StatusOr<CoverageIds> FakeExecutor::CoverageIdsSoFar() const {
  CoverageIds ids;
  for (uint64_t f : features_) ids.features.push_back(static_cast<uint32_t>(f));
  for (size_t k : prefixes_) ids.blocks.push_back(static_cast<uint32_t>(k));
  std::sort(ids.features.begin(), ids.features.end());
  std::sort(ids.blocks.begin(), ids.blocks.end());
  return ids;
}

absl::Status FakeExecutor::ResetCoverage() {
  features_.clear();
  prefixes_.clear();
  return absl::OkStatus();
}

}  // namespace ringfuzz
