#include "fuzz/gpu/gpu_memory.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace ringfuzz {

uint64_t RingBytes(uint64_t slots) {
  // The slots, then each slot's tail (RF_SLOT_TAIL_WORDS).
  return slots * (RF_SLOT_BYTES + RF_SLOT_TAIL_WORDS(kWorkgroupLanes) * 4);
}

uint64_t FindQueueBytes(uint64_t capacity, uint64_t max_words) {
  return capacity * RF_FIND_WORDS(max_words) * 4;
}

uint32_t DefaultFindCapacity(bool cpu_device, uint64_t max_words,
                             uint64_t max_buffer_bytes) {
  const uint64_t budget = std::min(kFindQueueBudgetBytes, max_buffer_bytes);
  const uint64_t fits = budget / FindQueueBytes(1, max_words);
  const uint64_t wanted = cpu_device ? kCpuFindCapacity : kGpuFindCapacity;
  return static_cast<uint32_t>(std::max<uint64_t>(1, std::min(wanted, fits)));
}

uint64_t ControlBytes() { return uint64_t{RF_CTRL_WORDS} * 4; }

uint64_t SnapshotBytes() { return uint64_t{2} * kSnapshotWords * 4; }

uint64_t CompareLogBytes(uint64_t entries) {
  return entries * RF_CMPLOG_ENTRY_WORDS * 4;
}

uint64_t DictionaryBytes(uint64_t tokens) {
  // One word of padding after the last entry: the flat mutation engine
  // reads a token's words in pairs.
  return (std::max<uint64_t>(tokens, 1) * RF_DICT_ENTRY_WORDS + 1) * 4;
}

std::string Mib(uint64_t bytes) {
  if (bytes < (1 << 20)) {
    return absl::StrFormat("%.1f KiB", static_cast<double>(bytes) / (1 << 10));
  }
  return absl::StrFormat("%.1f MiB", static_cast<double>(bytes) / (1 << 20));
}

std::string FormatGpuMemory(const GpuMemory& m, uint64_t corpus_inputs,
                            uint64_t bound_bytes) {
  auto mib = [](uint64_t bytes) {
    return absl::StrFormat("%.1f", static_cast<double>(bytes) / (1 << 20));
  };
  std::string line =
      absl::StrCat("GPU memory: ", Mib(m.Total()), " (rings ", mib(m.rings),
                   ", find queues ", mib(m.finds), ", corpus ", mib(m.corpus),
                   " for ", corpus_inputs, " inputs, maps ", mib(m.maps),
                   ", compare logs ", mib(m.compare_logs), ", patches ",
                   mib(m.patches), ", dictionary ", mib(m.dictionary), ")");
  if (bound_bytes != 0) {
    absl::StrAppend(&line, ", at most ", Mib(bound_bytes), " (-gpu_memory_mb)");
  }
  return line;
}

uint64_t CorpusBufferBytes(const CorpusLayout& l) {
  // Index, scratch inputs, data, then one input of padding: the megakernel
  // loads whole inputs of max_words words, also past the last (short) one.
  return (RF_CORPUS_INDEX_WORDS(l.capacity + l.scratch) +
          l.scratch * l.max_words + l.data_words + l.max_words) *
         4;
}

CorpusLayout InitialCorpusLayout(uint64_t scratch, uint64_t max_words) {
  CorpusLayout layout;
  layout.capacity = kInitialCorpusEntries;
  layout.scratch = scratch;
  layout.max_words = max_words;
  layout.data_words =
      std::max(kInitialCorpusLongInputs * (max_words + 1),
               kInitialCorpusEntries * kInitialCorpusWordsPerEntry);
  return layout;
}

uint64_t GrowCapacity(uint64_t current, uint64_t needed, uint64_t floor) {
  if (current >= needed && current >= floor) return current;
  return std::max({floor, needed, current * 2});
}

CorpusLayout GrowCorpusLayout(CorpusLayout layout, uint64_t inputs,
                              uint64_t input_words) {
  // Each part on its own: an index that is full does not double the data
  // (a million 16-byte inputs would otherwise get room for 64-byte ones).
  layout.capacity = GrowCapacity(layout.capacity, inputs, 0);
  layout.data_words = GrowCapacity(layout.data_words, input_words, 0);
  return layout;
}

CorpusLayout FitCorpusLayout(CorpusLayout grown, uint64_t input_words,
                             uint64_t max_bytes) {
  if (CorpusBufferBytes(grown) <= max_bytes) return grown;
  CorpusLayout without_data = grown;
  without_data.data_words = 0;
  const uint64_t fixed = CorpusBufferBytes(without_data);
  if (fixed > max_bytes) return grown;
  const uint64_t room = (max_bytes - fixed) / 4;
  if (room >= input_words) grown.data_words = room;
  return grown;
}

CorpusLayout CorpusLayoutAfter(uint64_t inputs, uint64_t words_each,
                               uint64_t scratch, uint64_t max_words) {
  CorpusLayout layout = InitialCorpusLayout(scratch, max_words);
  // One input at a time never needs more than twice the room (an input is
  // at most max_words, and the data starts above that), so each growth
  // doubles.
  while (layout.capacity < inputs) layout.capacity *= 2;
  while (layout.data_words < inputs * words_each) layout.data_words *= 2;
  return layout;
}

uint64_t PatchBufferBytes(uint64_t inputs, uint64_t data_words) {
  return (RF_PATCH_INDEX_WORDS(inputs) + data_words) * 4;
}

GpuMemory FixedGpuMemory(bool cpu_device, bool overlap, uint64_t max_len) {
  const uint64_t copies = overlap ? 2 : 1;
  const uint64_t max_words = (max_len + 3) / 4;
  GpuMemory m;
  m.rings = copies * RingBytes(cpu_device ? kCpuRingSlots : kGpuRingSlots);
  m.finds = copies * FindQueueBytes(
                         DefaultFindCapacity(cpu_device, max_words, UINT64_MAX),
                         max_words);
  m.maps = ControlBytes() + (overlap ? SnapshotBytes() : 0);
  m.compare_logs =
      CompareLogBytes(cpu_device ? kCpuCompareLogs : kGpuCompareLogs);
  return m;
}

}  // namespace ringfuzz
