// How the host's allocator treats the memory a campaign frees each round.
#ifndef RINGFUZZ_FUZZ_ENGINE_HEAP_TUNING_H_
#define RINGFUZZ_FUZZ_ENGINE_HEAP_TUNING_H_

namespace ringfuzz {

// Every round allocates and frees ring-sized vectors (work items, decoded
// telemetry, finds, costs): hundreds of KiB each. By default glibc maps
// such blocks afresh (mmap) or gives the top of the heap back (trim), so
// each round pays page faults on memory it just had: on a 4,096-slot ring
// a round's planning took 2-2.3x as long as with the memory kept
// (docs/perf.md). After this call freed memory stays in the heap for the
// next round: blocks under 32 MiB come from the heap, and the heap is
// trimmed only when more than 256 MiB at its top are free. A program calls
// it once, first thing in main(); elsewhere than glibc it does nothing.
void KeepFreedMemoryForReuse();

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_HEAP_TUNING_H_
