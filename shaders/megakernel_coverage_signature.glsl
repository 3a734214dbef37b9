// Coverage of the signature build (RF_COVERAGE_SIGNATURE): per-block
// register counters and a Bloom filter of features, hashed once per
// execution into a signature looked up in the seen table (see the coverage
// modes in megakernel_prelude.glsl). Defines rf_coverage_reset, rf_cov_hook,
// rf_bloom_add, rf_signature and rf_new_classes for the hooks and the main
// loop.

uint rf_bloom[8];

void rf_bloom_add(uint h) {
  uint index = h & 7u;
  uint bit = 1u << ((h >> 3u) & 31u);
  [[unroll]] for (uint k = 0u; k < 8u; ++k) {
    rf_bloom[k] |= index == k ? bit : 0u;
  }
}

// Visits per block: one 8-bit counter per hooked block (numbered densely
// by the instrumentation in this build), four to a word, folded modulo
// 4 * RF_SIG_COUNT_WORDS. The host sizes RF_SIG_COUNT_WORDS to the
// target's hooks (at most RF_SIG_MAX_COUNT_WORDS; fuzz/gpu/gpu_megakernel.cc):
// every word is reset, classified and hashed once per execution. The instrumentation stores a
// constant rf_site right before each call, so after inlining the hook is a
// single add of a constant to a register: no per-execution edge hashing and
// one update per block. A block visited 256 times or more in one execution
// carries into its neighbour's counter: the signature stays a function of
// the visit counts, only coarser for them.
#ifndef RF_SIG_COUNT_WORDS
#define RF_SIG_COUNT_WORDS RF_SIG_MAX_COUNT_WORDS
#endif
uint rf_sig_counts[RF_SIG_COUNT_WORDS];

// Each byte of `counts` (a visit count) as its hit-count class, AFL's
// buckets: 0, 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+ give 0, 1, 2, 3, 7,
// 15, 31, 127, 255 (the bits below the count's top bit set, 32-63 merged
// into 64-127).
uint rf_count_classes(uint counts) {
  uint high = counts & 0xFCFCFCFCu;
  uint s = high | ((high >> 1u) & 0x7F7F7F7Fu);
  s |= (s >> 2u) & 0x3F3F3F3Fu;
  s |= (s >> 4u) & 0x0F0F0F0Fu;
  s |= (s & 0x20202020u) << 1u;
  return s | (counts & 0x03030303u);
}

// The signature build's hit counts are its per-block counters, which
// rf_signature reads: no features to add.
void rf_hit_features() {}

// One step of a signature hash chain.
uint rf_sig_step(uint h, uint word) {
  h = (h ^ word) * 0x01000193u;
  return h ^ (h >> 15u);
}

// Four independent chains (word i goes to chain i % 4), folded at the end:
// their multiplies overlap instead of each waiting for the previous one.
uint rf_signature() {
  uint chain[4] = uint[4](0x811C9DC5u, 0x9E3779B9u, 0x85EBCA6Bu, 0xC2B2AE35u);
  [[unroll]] for (uint k = 0u; k < 8u; ++k) {
    chain[k & 3u] = rf_sig_step(chain[k & 3u], rf_bloom[k]);
  }
  [[unroll]] for (uint k = 0u; k < RF_SIG_COUNT_WORDS; ++k) {
    chain[k & 3u] =
        rf_sig_step(chain[k & 3u], rf_count_classes(rf_sig_counts[k]));
  }
  uint h = rf_sig_step(chain[0], chain[1]);
  h = rf_sig_step(h, chain[2]);
  return rf_sig_step(h, chain[3]);
}

void rf_coverage_reset() {
  [[unroll]] for (uint k = 0u; k < 8u; ++k) rf_bloom[k] = 0u;
  [[unroll]] for (uint k = 0u; k < RF_SIG_COUNT_WORDS; ++k) rf_sig_counts[k] = 0u;
}

void rf_cov_hook() {
  uint site = rf_site >> 16u;
  uint word = (site >> 2u) % RF_SIG_COUNT_WORDS;
  uint add = 1u << ((site & 3u) * 8u);
  [[unroll]] for (uint k = 0u; k < RF_SIG_COUNT_WORDS; ++k) {
    rf_sig_counts[k] += k == word ? add : 0u;
  }
}

// Counter word k's (counter, hit-count class) pairs as bits: byte b, bit c
// for counter 4k + b visited with class c (RF_RES_SIG_CLASSES).
uint rf_class_bits(uint counts) {
  uint bits = 0u;
  for (uint b = 0u; b < 4u; ++b) {
    uint n = (counts >> (8u * b)) & 0xFFu;
    if (n == 0u) continue;
    uint top = uint(findMSB(n));
    uint c = n < 4u ? n - 1u : top < 6u ? top + 1u : top;
    bits |= 1u << (8u * b + c);
  }
  return bits;
}

// The (counter, class) pairs of this execution that no candidate visited
// before; with `mark`, they become visited. Only for an unseen signature:
// a loop over the counters with a load each, off the common path.
uint rf_new_classes(bool mark) {
  uint fresh = 0u;
  for (uint k = 0u; k < RF_SIG_COUNT_WORDS; ++k) {
    if (rf_sig_counts[k] == 0u) continue;
    uint bits = rf_class_bits(rf_sig_counts[k]);
    uint unseen = bits & ~rf_ctrl[RF_RES_SIG_CLASSES + k];
    if (unseen == 0u) continue;
    fresh += uint(bitCount(unseen));
    if (mark) atomicOr(rf_ctrl[RF_RES_SIG_CLASSES + k], unseen);
  }
  return fresh;
}
