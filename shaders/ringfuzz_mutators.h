// The mutators of both GPU mutation engines, by id: one table for the flat
// engine (megakernel_mutate_flat.glsl), the branching engine
// (megakernel_mutate.glsl), the find queue's mutation sequences
// (RF_FIND_MUTATIONS), the per-mutator execution counters
// (RF_RES_MUTATOR_USES) and the host's names (fuzz/engine/mutators.h).
//
// Included verbatim by GLSL and by C++, like ringfuzz_wire.h: only #define of
// unsigned literals and of macros over them, no types, no includes.
#ifndef RF_MUTATORS_H_
#define RF_MUTATORS_H_

// Havoc mutators. Ids 0..7 are also the havoc draw (`choice`) that picks
// them: a havoc step draws one of RF_HAVOC_CHOICES values, and the last
// value (8) is a second chance of RF_MUT_CHANGE_BYTE.
#define RF_MUT_FLIP_BIT 0u     // one bit of one byte flipped
#define RF_MUT_CHANGE_BYTE 1u  // one byte xored with 1..255
#define RF_MUT_INTERESTING 2u  // an interesting 8/16/32-bit value written
#define RF_MUT_ARITH 3u        // an 8/16/32-bit value +/- 1..35
#define RF_MUT_INSERT 4u       // 1..4 random bytes inserted
#define RF_MUT_ERASE 5u        // 1..4 bytes erased (also every TRIM step)
#define RF_MUT_DUPLICATE 6u    // a copy of a block inserted
#define RF_MUT_COPY 7u         // a block copied over another
#define RF_HAVOC_CHOICES 9u
#define RF_HAVOC_CHOICE_CHANGE_BYTE 8u  // the draw that also means CHANGE_BYTE
// The insert draw (RF_MUT_INSERT) when its bytes are all one value. The
// branching engine inserts libFuzzer's InsertRepeatedBytes sizes,
// RF_INSERT_REPEATED_MIN..MAX bytes (as many as fit; 1..4 where fewer than
// MIN fit) of a random byte, 0x00 or 0xFF; the flat engine, whose
// micro-steps move at most 4 bytes, 1..4 of a random byte.
#define RF_MUT_INSERT_REPEATED 8u
#define RF_INSERT_REPEATED_MIN 3u
#define RF_INSERT_REPEATED_MAX 128u
// Work-kind mutators: the first mutation of a SPLICE, DICT or CMP mutant.
#define RF_MUT_SPLICE 9u  // partner bytes (a chunk, or a suffix after a cut)
#define RF_MUT_DICT 10u   // a dictionary token inserted or written over
#define RF_MUT_CMP 11u    // an input-to-state patch of the parent's compares
#define RF_MUT_COUNT 12u  // ids 0..RF_MUT_COUNT-1 are the GPU's mutators
// A mutation made on the host, never on the GPU (so never counted in
// RF_RES_MUTATOR_USES): the input padded to a length that its own
// comparisons name (fuzz/gpu/length_to_state.h).
#define RF_MUT_LENGTH 12u
// Also made on the host: a run of decimal or hex digits of the input
// replaced by a number its own comparisons compared it with
// (fuzz/gpu/text_to_state.h), or a byte of it written as an escape of such
// a number (fuzz/gpu/escape_to_state.h).
#define RF_MUT_TEXT 13u
// Also made on the host: a LEB128 varint of the input replaced by a number
// its own comparisons compared it with (fuzz/gpu/varint_to_state.h).
#define RF_MUT_VARINT 14u
#define RF_MUT_NAMED \
  15u  // ids 0..RF_MUT_NAMED-1 have names (fuzz/engine/mutators.h)
// No mutation (replays, calibrations, compare logs); never a mutator id.
// Ids are below 16, so the execution counters (RF_RES_MUTATOR_USES, 16
// words) have one word per id; words RF_MUT_COUNT.. stay 0 (reserved).
#define RF_MUT_NONE 15u

// A mutation sequence in one word: the ids of a mutant's mutations in
// application order, RF_MUT_BITS each, the last one in the low bits; the
// high nibbles that hold no mutation are RF_MUT_NONE. So an empty sequence
// is RF_MUT_SEQ_EMPTY and appending id m is (seq << RF_MUT_BITS) | m. Holds
// RF_MUT_SEQ_MAX mutations (the deepest stack), dropping the oldest beyond.
#define RF_MUT_BITS 4u
#define RF_MUT_SEQ_MAX 8u
#define RF_MUT_SEQ_EMPTY 0xFFFFFFFFu

#endif  // RF_MUTATORS_H_
