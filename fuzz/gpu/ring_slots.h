// The host's side of a ring slot's lifecycle (wire-protocol.md): a slot is
// published only from EMPTY or DONE, and a broken rule is an error, never
// a silent overwrite.
#ifndef RINGFUZZ_FUZZ_GPU_RING_SLOTS_H_
#define RINGFUZZ_FUZZ_GPU_RING_SLOTS_H_

#include <cstdint>

#include "absl/status/status.h"

namespace ringfuzz {

// Makes slots [0, count) of `ring` (RF_SLOT_WORDS words each) ready to be
// published, between rounds (no dispatch runs on the ring): slots the last
// round left active without running them (PUBLISHED, REQUEUE, YIELD,
// WAIT_IO) are cancelled to EMPTY, FAULT slots (whose fault the host has
// read) are reclaimed to EMPTY; EMPTY and DONE stay. Fails, changing
// nothing, when a slot is CLAIMED (a dispatch still holds it, or ended
// without completing it) or holds a status the protocol does not define.
absl::Status PrepareToPublish(uint32_t* ring, uint32_t count);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_RING_SLOTS_H_
