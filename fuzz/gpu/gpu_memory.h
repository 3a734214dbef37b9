// What the GPU executor's buffers take of the device's memory, by role, and
// how the buffers that grow are sized: one set of formulas for the
// executor, its -gpu_memory_mb bound, its INFO line and the planning of
// large corpora (docs/architecture.md, "GPU memory"). Plain arithmetic, no
// Vulkan.
//
// With F finds per round (4,096 on CPU devices, 16,384 on GPUs), W =
// max_len / 4 words per input, S ring slots (256 / 4,096), L compare-log
// entries (256 / 1,024), 2 of the ring and find queue with overlapped
// rounds (GPUs):
//   ring          S * (64 + 264) bytes           (per ring)
//   find queue    F * (12 + W) * 4 bytes         (per queue)
//   maps          157,184 bytes of control words and coverage maps, and
//                 2 snapshots of kSnapshotWords (13,056 bytes each) with
//                 overlapped rounds
//   compare logs  L * 385 * 4 bytes
//   dictionary    (tokens * 17 + 1) * 4 bytes
//   corpus        (2 * (C + F) + F * W + D + W) * 4 bytes: an index entry
//                 per input and scratch entry, F scratch inputs, the data
//                 (D words, at least the inputs' words) and a padding input
//   patches       (2 * P + Q) * 4 bytes: an index entry per input, and the
//                 input-to-state patches (2 words each, at most 128 per
//                 input) in Q words
// C, D, P and Q start at 1,024 / 17 * 1,024 (or 64 inputs of W + 1 words)
// / 64 / 1,024 and each doubles when what it holds does not fit, so each
// is less than twice what it holds (or its start); where a doubled corpus
// buffer would not fit the room left (the bound, maxStorageBufferRange)
// but its inputs would, D grows to what fits instead. While a buffer grows, the
// old and the new one are held at once: a growth is allowed iff the total with
// the new buffer added stays within the bound.
#ifndef RINGFUZZ_FUZZ_GPU_GPU_MEMORY_H_
#define RINGFUZZ_FUZZ_GPU_GPU_MEMORY_H_

#include <cstdint>
#include <string>

#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

// The executor's buffer defaults by kind of device (GpuExecutor::Create;
// GpuExecutorOptions can override the ring and the find queue).
inline constexpr uint32_t kCpuRingSlots = 256;
inline constexpr uint32_t kGpuRingSlots = 4096;
// Slots of a fuzzing batch on a CPU device (GpuExecutor::PreferredBatch),
// and the most mutants each asks for (rounds sized by time ask for fewer):
// lavapipe pays tens of microseconds per slot whatever it runs (claiming,
// loading the parent, counting mutator uses, two barriers, each run
// masked by every SIMD vector of the workgroup), so few slots of many
// mutants make the same round shorter. A dispatch on a CPU device has as
// many workgroups, so that each workgroup's loop budget goes to one slot.
// Measured on lavapipe, 2 cores, 8 s campaigns beside 256 slots of at most
// 1,024 (docs/perf.md): median feedback latency 13-47 ms instead of 18-82 ms on
// the bundled targets. At most 32 mutants per lane: with 64, a lane's share
// of a fast target's slot often outran its loop budget, and the slot's rest
// took a second dispatch (tlv: a tenth of the time); 32 ran 0.76-1.15x the
// exec/s with the feedback latency's p99 15-45 ms instead of 25-73.
inline constexpr uint32_t kCpuBatchSlots = 64;
inline constexpr uint32_t kCpuFindCapacity = 4096;
inline constexpr uint32_t kGpuFindCapacity = 16384;
// A find queue holds at most this many bytes unless asked for more
// (GpuExecutorOptions::find_capacity): with long inputs it has fewer
// entries than the defaults above.
inline constexpr uint64_t kFindQueueBudgetBytes = uint64_t{64} << 20;
// Compare-log entries: one for each input logged in one dispatch and one
// for each of its colored copies (up to 15, GpuExecutorOptions::colorize).
inline constexpr uint32_t kCpuCompareLogs = 1024;
inline constexpr uint32_t kGpuCompareLogs = 4096;
// Invocations of one megakernel workgroup.
inline constexpr uint32_t kWorkgroupLanes = 64;
// The most mutants a CPU device's slot asks for: 32 per lane (see
// kCpuBatchSlots).
inline constexpr uint32_t kCpuSlotExecs = 32 * kWorkgroupLanes;
// The index of word `word` of slot `slot`'s tail (RF_SLOT_TAIL_WORDS) in a
// ring buffer of `capacity` slots (RingBytes(capacity)).
inline uint64_t SlotTailWord(uint64_t capacity, uint32_t slot, uint32_t word) {
  return capacity * RF_SLOT_WORDS +
         uint64_t{slot} * RF_SLOT_TAIL_WORDS(kWorkgroupLanes) + word;
}

// Corpus inputs the corpus buffer has index entries for before it first
// grows, and its first data region: this many inputs of 17 words, or 64
// inputs of max_len, whichever is more.
inline constexpr uint64_t kInitialCorpusEntries = 1024;
inline constexpr uint64_t kInitialCorpusWordsPerEntry = 17;
inline constexpr uint64_t kInitialCorpusLongInputs = 64;
// The patch buffer's first index entries and data words: room for the
// patches of the first 1,024 inputs (each reserves up to 128 patches of
// RF_PATCH_WORDS while its compare log runs), 1 MiB. Growing the buffer
// waits for the rounds in flight; at 64 inputs and 1,024 words it grew
// three to five times in a campaign's first 100 ms, just when most new
// entries wait for their first mutants, and on the H200 the median
// feedback latency was 1-1.5 ms longer in each of 8 campaigns
// (docs/perf.md).
inline constexpr uint64_t kInitialPatchInputs = 1024;
inline constexpr uint64_t kInitialPatchWords = 262144;

// Overlapped rounds: each round's copy of the control words (those before
// RF_RES_EDGE_MAP, then the RF_RES_MUTATOR_USE_WORDS counters, then the
// edge and site maps at kSnapshotMaps), kSnapshotWords per round.
inline constexpr uint32_t kSnapshotMaps =
    RF_RES_EDGE_MAP + RF_RES_MUTATOR_USE_WORDS;
inline constexpr uint32_t kSnapshotWords =
    kSnapshotMaps + RF_EDGE_MAP_WORDS + RF_SITE_MAP_WORDS;

// Bytes of each buffer kind.
uint64_t RingBytes(uint64_t slots);
uint64_t FindQueueBytes(uint64_t capacity, uint64_t max_words);
// The find queue's entries by default for inputs of `max_words` words: the
// device kind's default (kCpuFindCapacity, kGpuFindCapacity), lowered so
// that the queue fits kFindQueueBudgetBytes and `max_buffer_bytes` (the
// device's maxStorageBufferRange); at least 1. A find that does not fit
// the queue is not lost: its coverage stays new until a later round queues
// it.
uint32_t DefaultFindCapacity(bool cpu_device, uint64_t max_words,
                             uint64_t max_buffer_bytes);
uint64_t ControlBytes();
// The two per-round snapshots of overlapped rounds.
uint64_t SnapshotBytes();
uint64_t CompareLogBytes(uint64_t entries);
uint64_t DictionaryBytes(uint64_t tokens);

// Bytes held on the device, by role.
struct GpuMemory {
  uint64_t rings = 0;         // the ring buffer(s)
  uint64_t finds = 0;         // the find queue(s)
  uint64_t maps = 0;          // control words, coverage maps, snapshots
  uint64_t compare_logs = 0;  // the compare-log buffer
  uint64_t dictionary = 0;
  uint64_t corpus = 0;   // the corpus buffer (index, scratch, inputs)
  uint64_t patches = 0;  // the input-to-state patch buffer
  uint64_t Total() const {
    return rings + finds + maps + compare_logs + dictionary + corpus + patches;
  }
};

// Returns "GPU memory: T MiB (rings R, find queues F, corpus C for N
// inputs, maps M, compare logs L, patches P, dictionary D)", each in MiB
// to one decimal, and ", at most B MiB (-gpu_memory_mb)" when `bound_bytes`
// is not 0. No "INFO: " and no newline.
std::string FormatGpuMemory(const GpuMemory& memory, uint64_t corpus_inputs,
                            uint64_t bound_bytes);

// The corpus buffer's shape: index entries for `capacity` inputs and
// `scratch` scratch inputs of `max_words` words, and `data_words` words of
// inputs.
struct CorpusLayout {
  uint64_t capacity = 0;
  uint64_t scratch = 0;
  uint64_t max_words = 0;
  uint64_t data_words = 0;
};

// The bytes of a corpus buffer of that shape (formula in the file comment).
uint64_t CorpusBufferBytes(const CorpusLayout& layout);

// The layout the executor starts with.
CorpusLayout InitialCorpusLayout(uint64_t scratch, uint64_t max_words);

// The layout that `layout` grows to for `inputs` inputs of `input_words`
// words in all, as the executor grows it: the capacity and the data, each
// on its own, doubled if they do not fit (or made exactly as large, if
// doubling is not enough); `layout` itself if they fit.
CorpusLayout GrowCorpusLayout(CorpusLayout layout, uint64_t inputs,
                              uint64_t input_words);

// `grown` (a layout GrowCorpusLayout made for `input_words` words of
// inputs) made to fit in `max_bytes` if it does not: its data shrunk to
// what fits, as long as that still holds `input_words`; else `grown` as
// it is. Doubling must not fail a corpus that fits the room left
// (-gpu_memory_mb, maxStorageBufferRange).
CorpusLayout FitCorpusLayout(CorpusLayout grown, uint64_t input_words,
                             uint64_t max_bytes);

// The layout after `inputs` inputs of `words_each` words (at most max_words)
// were added one by one to the initial layout, as a campaign adds them:
// capacity and data each the start doubled until they hold them.
CorpusLayout CorpusLayoutAfter(uint64_t inputs, uint64_t words_each,
                               uint64_t scratch, uint64_t max_words);

// The bytes of a patch buffer with room for `inputs` index entries and
// `data_words` words of patches.
uint64_t PatchBufferBytes(uint64_t inputs, uint64_t data_words);

// `current` if it is at least `needed` and `floor`; else the largest of
// 2 * `current`, `needed` and `floor` (a buffer that grows doubles).
uint64_t GrowCapacity(uint64_t current, uint64_t needed, uint64_t floor);

// The fixed buffers (all but the corpus, the patches and the dictionary)
// of an executor on a CPU device (lavapipe) or a GPU with their defaults,
// for inputs of `max_len` bytes; `overlap`: two rings and find queues.
GpuMemory FixedGpuMemory(bool cpu_device, bool overlap, uint64_t max_len);

// Bytes as "12.3 MiB", or "6.0 KiB" below a MiB.
std::string Mib(uint64_t bytes);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_GPU_MEMORY_H_
