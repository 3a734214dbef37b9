// libFuzzer harness of input-to-state patch derivation (fuzz/
// input_to_state.h) from a compare log as the GPU writes it (RF_OP_CMPLOG:
// site, a, b per record): every patch writes 1..4 bytes inside the input
// and changes it, no two are equal, and there are at most max_patches;
// the same with a colorization (fuzz/gpu/colorization.h) from copies of the
// input whose logs are the log with some operands changed by the copy's
// bytes, and its confirmed patches write inside the input. Text-to-state
// (fuzz/gpu/text_to_state.h) on the same log: at most max_inputs trials,
// distinct, none the input, none longer than max_len, each the input with
// one run of digits (decimal with its '-', or hex) replaced by another;
// varint-to-state (fuzz/gpu/varint_to_state.h): the same bounds. The log
// read back from a compare-log entry (fuzz/gpu/compare_log.h) written as
// the megakernel writes it is the log's first and last records, in order.
//
// Input (tests/hostfuzz/fuzz_input.h): Byte() max_patches, Part() the
// input, Rest() the log (12 bytes a record; a trailing partial record is
// dropped; the patches and trials see at most RF_CMPLOG_RECORDS records,
// what the GPU's log entry holds and the executor reads).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

#include "fuzz/gpu/colorization.h"
#include "fuzz/gpu/compare_log.h"
#include "fuzz/gpu/input_to_state.h"
#include "fuzz/gpu/text_to_state.h"
#include "fuzz/gpu/varint_to_state.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/hostfuzz/fuzz_input.h"

namespace ringfuzz {
namespace {

// Returns true iff no two of `patches` are equal (InputPatch::operator==:
// position, width and value), in O(n log n): max_patches goes to 255.
HOSTFUZZ_NO_COVERAGE bool AllDistinct(std::vector<InputPatch> patches) {
  const auto key = [](const InputPatch& p) {
    return std::tuple(p.position, p.width, p.value);
  };
  std::sort(patches.begin(), patches.end(),
            [&](const InputPatch& x, const InputPatch& y) {
              return key(x) < key(y);
            });
  return std::adjacent_find(patches.begin(), patches.end()) == patches.end();
}

// The invariants of the text-to-state trials of `bytes`.
// The invariants of the varint-to-state trials of `bytes`: at most
// max_inputs, none the input, none longer than max_len, no two equal.
HOSTFUZZ_NO_COVERAGE void CheckVarintTrials(
    const std::vector<uint8_t>& bytes,
    const std::vector<std::vector<uint8_t>>& trials, size_t max_len,
    size_t max_inputs) {
  HOSTFUZZ_CHECK(trials.size() <= max_inputs);
  for (const std::vector<uint8_t>& t : trials) {
    HOSTFUZZ_CHECK(t.size() <= max_len && t != bytes);
  }
  std::vector<std::vector<uint8_t>> sorted = trials;
  std::sort(sorted.begin(), sorted.end());
  HOSTFUZZ_CHECK(std::adjacent_find(sorted.begin(), sorted.end()) ==
                 sorted.end());
}

HOSTFUZZ_NO_COVERAGE void CheckTextTrials(
    const std::vector<uint8_t>& bytes,
    const std::vector<std::vector<uint8_t>>& trials, size_t max_len,
    size_t max_inputs) {
  HOSTFUZZ_CHECK(trials.size() <= max_inputs);
  auto numeric = [](uint8_t c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
           (c >= 'A' && c <= 'F') || c == '-';
  };
  for (const std::vector<uint8_t>& t : trials) {
    HOSTFUZZ_CHECK(t.size() <= max_len && t != bytes);
    // The longest common prefix and suffix leave only digits in between.
    size_t prefix = 0;
    while (prefix < t.size() && prefix < bytes.size() &&
           t[prefix] == bytes[prefix]) {
      ++prefix;
    }
    size_t suffix = 0;
    while (suffix < t.size() - prefix && suffix < bytes.size() - prefix &&
           t[t.size() - 1 - suffix] == bytes[bytes.size() - 1 - suffix]) {
      ++suffix;
    }
    for (size_t k = prefix; k < t.size() - suffix; ++k) {
      HOSTFUZZ_CHECK(numeric(t[k]));
    }
    for (size_t k = prefix; k < bytes.size() - suffix; ++k) {
      HOSTFUZZ_CHECK(numeric(bytes[k]));
    }
  }
  std::vector<std::vector<uint8_t>> sorted = trials;
  std::sort(sorted.begin(), sorted.end());
  HOSTFUZZ_CHECK(std::adjacent_find(sorted.begin(), sorted.end()) ==
                 sorted.end());
}

// A compare-log entry written as the megakernel writes `log` (record n at
// RF_CMPLOG_SLOT(n)) reads back as its first RF_CMPLOG_HEAD records and
// its last ones, in order.
HOSTFUZZ_NO_COVERAGE void CheckCompareLog(
    const std::vector<CompareRecord>& log) {
  std::vector<uint32_t> entry(RF_CMPLOG_ENTRY_WORDS, 0);
  entry[0] = static_cast<uint32_t>(log.size());
  for (uint32_t n = 0; n < log.size(); ++n) {
    uint32_t* w = entry.data() + 1 + RF_CMPLOG_SLOT(n) * RF_CMPLOG_RECORD_WORDS;
    w[0] = log[n].site;
    w[1] = log[n].a;
    w[2] = log[n].b;
  }
  std::vector<CompareRecord> read;
  HOSTFUZZ_CHECK(ReadCompareLog(entry, read) == log.size());
  const size_t tail = RF_CMPLOG_RECORDS - RF_CMPLOG_HEAD;
  HOSTFUZZ_CHECK(read.size() ==
                 std::min<size_t>(log.size(), RF_CMPLOG_RECORDS));
  for (size_t i = 0; i < read.size(); ++i) {
    const size_t n = log.size() <= RF_CMPLOG_RECORDS || i < RF_CMPLOG_HEAD
                         ? i
                         : log.size() - tail + (i - RF_CMPLOG_HEAD);
    HOSTFUZZ_CHECK(read[i].site == log[n].site && read[i].a == log[n].a &&
                   read[i].b == log[n].b);
  }
}

// The invariants of any patch list derived from `bytes`.
void CheckPatches(const std::vector<uint8_t>& bytes,
                  const std::vector<InputPatch>& patches, size_t max_patches) {
  HOSTFUZZ_CHECK(patches.size() <= max_patches);
  for (size_t i = 0; i < patches.size(); ++i) {
    const InputPatch& p = patches[i];
    HOSTFUZZ_CHECK(p.width >= 1 && p.width <= 4);
    HOSTFUZZ_CHECK(uint64_t{p.position} + p.width <= bytes.size());
    bool changes = false;
    for (uint32_t k = 0; k < p.width; ++k) {
      changes |= bytes[p.position + k] != ((p.value >> (8 * k)) & 0xFF);
    }
    HOSTFUZZ_CHECK(changes);
  }
  HOSTFUZZ_CHECK(AllDistinct(patches));
}

void RunColorized(const std::vector<uint8_t>& bytes,
                  const std::vector<CompareRecord>& log, size_t max_patches) {
  const std::vector<ByteRange> ranges = ColorRanges(bytes.size());
  std::vector<std::vector<uint8_t>> copies;
  std::vector<std::vector<CompareRecord>> logs;
  for (const ByteRange& range : ranges) {
    copies.push_back(ColoredCopy(bytes, range, bytes.size()));
    std::vector<CompareRecord> changed = log;
    for (size_t i = 0; i < changed.size(); ++i) {
      const uint8_t b = copies.back()[i % bytes.size()];
      if (i % 2 == 1) changed[i].a ^= b;
      if (i % 3 == 2) changed[i].b = b;
    }
    logs.push_back(std::move(changed));
  }
  std::vector<ColoredRun> runs;
  for (size_t j = 0; j < ranges.size(); ++j) {
    runs.push_back(
        {ranges[j], copies[j], logs[j], static_cast<uint32_t>(logs[j].size())});
  }
  const ColorEvidence color =
      Colorize(bytes, log, static_cast<uint32_t>(log.size()), runs);
  HOSTFUZZ_CHECK(color.inert.size() == bytes.size());
  HOSTFUZZ_CHECK(color.kept <= runs.size());
  CheckPatches(bytes, color.confirmed, SIZE_MAX);
  CheckPatches(bytes,
               DeriveInputToStatePatches(bytes, log, max_patches, &color),
               max_patches);
}

void RunOne(const uint8_t* data, size_t size) {
  hostfuzz::FuzzInput input(data, size);
  const size_t max_patches = input.Byte();
  const std::vector<uint8_t> bytes = input.Part();
  const std::vector<uint8_t> log_bytes = input.Rest();
  std::vector<CompareRecord> made(log_bytes.size() / 12);
  for (size_t i = 0; i < made.size(); ++i) {
    std::memcpy(&made[i].site, &log_bytes[12 * i], 4);
    std::memcpy(&made[i].a, &log_bytes[12 * i + 4], 4);
    std::memcpy(&made[i].b, &log_bytes[12 * i + 8], 4);
  }
  CheckCompareLog(made);
  const std::vector<CompareRecord> log(
      made.begin(),
      made.begin() + std::min<size_t>(made.size(), RF_CMPLOG_RECORDS));
  CheckPatches(bytes, DeriveInputToStatePatches(bytes, log, max_patches),
               max_patches);
  const size_t max_inputs = max_patches % 16;
  const size_t max_len = bytes.size() + max_patches / 16;
  CheckTextTrials(bytes, DeriveTextToState(bytes, log, max_len, max_inputs),
                  max_len, max_inputs);
  CheckVarintTrials(bytes, DeriveVarintToState(bytes, log, max_len, max_inputs),
                    max_len, max_inputs);
  if (!bytes.empty()) RunColorized(bytes, log, max_patches);
}

}  // namespace
}  // namespace ringfuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ringfuzz::RunOne(data, size);
  return 0;
}
