// Megakernel prelude: buffers, per-execution private state, the target
// dialect's runtime (fz_byte, fz_crash) and the coverage hooks that the SPIR-V
// instrumenter (fuzz/gpu/gpu_instrument.h) calls from every target basic block.
//
// Compile-time parameters (injected by the host as #defines):
//   RF_MAX_LEN      largest input in bytes (multiple of 4; a plain int so
//                   that #if can test it)
//   RF_LOCAL_SIZE   invocations per workgroup
//   RF_VALUE_PROFILE  (optional) compare-distance features, see rf_cmp_hook
//   RF_NO_COVERAGE  (optional) the target has no coverage hooks (measuring
//                   what coverage costs): no hit-count features either
//   RF_DEVICE_CLOCK (optional) the device has a device-scope shader clock
//                   (VK_KHR_shader_clock's shaderDeviceClock) and the
//                   source enables GL_EXT_shader_realtime_clock
//   RF_COVERAGE_DEFERRED (optional, precise build) coverage in registers,
//                   marked at the end of each execution, with
//                   RF_SITE_WORDS, RF_EDGE_WORDS and RF_EDGE_TABLE (see
//                   rf_mark_deferred; fuzz/gpu/gpu_megakernel.cc sets them)
#include "ringfuzz_wire.h"
#include "ringfuzz_mutators.h"

// Loop iterations an execution may add after the target's own: deferred
// coverage marks each static edge it took in a loop.
#ifdef RF_COVERAGE_DEFERRED
#define RF_DEFERRED_STEPS (RF_EDGE_WORDS * 32u)
#else
#define RF_DEFERRED_STEPS 0u
#endif

#define RF_MAX_WORDS (RF_MAX_LEN / 4)
#define RF_NO_SLOT 0xFFFFFFFFu

// Inputs of up to RF_REGISTER_WORDS words (ringfuzz_wire.h) live in
// registers: every access goes through rf_word/rf_put_word, which select
// among constant indices, so the compiler never spills the array to (slow,
// per-lane) scratch memory.
#if RF_MAX_WORDS <= RF_REGISTER_WORDS
#define RF_INPUT_IN_REGISTERS 1
#endif

layout(local_size_x = RF_LOCAL_SIZE) in;

layout(std430, set = 0, binding = RF_BINDING_CONTROL) coherent buffer RF_Control {
  uint rf_ctrl[];
};
layout(std430, set = 0, binding = RF_BINDING_RING) coherent buffer RF_Ring {
  uint rf_ring[];
};
layout(std430, set = 0, binding = RF_BINDING_CORPUS) readonly buffer RF_Corpus {
  uint rf_corpus[];
};
layout(std430, set = 0, binding = RF_BINDING_FINDS) buffer RF_Finds {
  uint rf_finds[];
};
layout(std430, set = 0, binding = RF_BINDING_DICT) readonly buffer RF_Dict {
  uint rf_dict[];
};
layout(std430, set = 0, binding = RF_BINDING_CMPLOG) buffer RF_CmpLog {
  uint rf_cmplog[];
};
layout(std430, set = 0, binding = RF_BINDING_PATCHES) readonly buffer RF_Patches {
  uint rf_patches[];
};

// The device clock in its own ticks (low word, high word), one timeline
// for every invocation of the device; (0, 0) without RF_DEVICE_CLOCK.
uvec2 rf_device_clock() {
#ifdef RF_DEVICE_CLOCK
  return clockRealtime2x32EXT();
#else
  return uvec2(0u, 0u);
#endif
}

// Per-dispatch parameters: the fields of RF_PUSH_FIELDS (ringfuzz_wire.h).
#define RF_PUSH_DECLARE(name) uint name;
layout(push_constant) uniform RF_Push {
  RF_PUSH_FIELDS(RF_PUSH_DECLARE)
} rf_pc;

// ---------------------------------------------------------------------------
// Private (per-invocation) execution state.
uint rf_in[RF_MAX_WORDS];  // current input, little-endian packed bytes
uint rf_len;               // its length in bytes
uint rf_fault_kind;        // 0 or RF_FIND_*: first bug report wins
uint rf_fault_code;
uint rf_fault_aux;          // set by rf_execute from the kind: the reports in
                            // the target's code store only what varies
uint rf_fault_site;        // location (rf_loc) that reported it; out of
                           // bounds: the bounds site (as in rf_fault_aux)
uint rf_loc;               // written by instrumentation before each call
                           // that may report a fault: its source location
// Written by the bounds checks that the instrumentation inlines at every
// dynamically indexed access to a local array of the target: 0, or 1 + the
// bounds site of the execution's first bad index when no other fault came
// before it; and that index. rf_execute turns them into the fault.
uint rf_oob_where;
uint rf_oob_index;
uint rf_prev;              // previous block's edge hash (AFL-style)
uint rf_new_bits;          // coverage bits this execution set first
// The first of them, as control word * 32 + bit + 1 (0: none yet): a find
// that does not fit the find queue clears it again, so that the input's
// coverage stays new and a later execution that reaches it is queued.
uint rf_first_new;
uint rf_site;              // written by instrumentation: site << 16 | hash16
uint rf_exec_steps;        // target loop iterations of this execution
uint rf_steps;             // all loop iterations of this invocation

// Whether no bug was reported yet in this execution.
bool rf_no_fault() { return (rf_fault_kind | rf_oob_where) == 0u; }

// Word w of the input (w < RF_MAX_WORDS).
uint rf_word(uint w) {
#ifdef RF_INPUT_IN_REGISTERS
  uint r = 0u;
  [[unroll]] for (uint k = 0u; k < RF_MAX_WORDS; ++k) {
    r = w == k ? rf_in[k] : r;
  }
  return r;
#else
  return rf_in[w];
#endif
}

void rf_put_word(uint w, uint v) {
#ifdef RF_INPUT_IN_REGISTERS
  [[unroll]] for (uint k = 0u; k < RF_MAX_WORDS; ++k) {
    rf_in[k] = w == k ? v : rf_in[k];
  }
#else
  rf_in[w] = v;
#endif
}

// Target dialect: input byte i, 0..255. Reading at i >= len is a bug report
// (input overread) and yields 0.
uint fz_byte(uint i) {
  if (i >= rf_len) {
    if (rf_no_fault()) {
      rf_fault_kind = RF_FIND_OVERREAD;
      rf_fault_code = i;
      rf_fault_site = rf_loc;
    }
    return 0u;
  }
  return (rf_word(i >> 2u) >> ((i & 3u) << 3u)) & 0xFFu;
}

// Target dialect: report a bug; the first report of an execution wins.
void fz_crash(uint code) {
  if (rf_no_fault()) {
    rf_fault_kind = RF_FIND_CRASH;
    rf_fault_code = code;
    rf_fault_site = rf_loc;
  }
}

// Sets `bit` in control word `w` if it is not set yet. Returns 1 iff this
// invocation set it first. Reads before writing: the common case (already
// set) costs one load and no atomic.
uint rf_mark(uint w, uint bit) {
  if ((rf_ctrl[w] & bit) != 0u) return 0u;
  uint old = atomicOr(rf_ctrl[w], bit);
  return (old & bit) == 0u ? 1u : 0u;
}

// rf_mark for a coverage bit of the current execution: also remembers the
// first one it set first (rf_first_new).
uint rf_mark_new(uint w, uint bit) {
  uint set = rf_mark(w, bit);
  if (set != 0u && rf_first_new == 0u) {
    rf_first_new = w * 32u + uint(findLSB(bit)) + 1u;
  }
  return set;
}

// Clears control word bit `at` (word * 32 + bit + 1, as rf_first_new);
// 0 is none.
void rf_unmark(uint at) {
  if (at != 0u) atomicAnd(rf_ctrl[(at - 1u) >> 5u], ~(1u << ((at - 1u) & 31u)));
}

// Coverage modes (chosen by the host when it builds the megakernel):
//  * precise (default): every block checks its edge bit in the edge map
//    with a plain load and sets it (and its block's bit) when new, counting
//    the bits it set first in rf_new_bits;
//  * signature (RF_COVERAGE_SIGNATURE): every block only counts its own
//    visits in a register byte counter (constant after inlining: one add),
//    and its value-profile features (RF_VALUE_PROFILE) go into a 256-bit
//    Bloom filter; the hash of the counters' hit-count classes and the filter
//    (the execution's signature) is looked up once per
//    execution in the seen table, and an unseen one makes the input a
//    candidate that the host runs again on the precise build, which
//    decides what is new. For SIMD back ends such as lavapipe, where both
//    sides of every branch run and each per-lane memory access is a
//    scalarised gather, this keeps the target's blocks free of memory
//    traffic and of edge hashing. The set of blocks determines the set of
//    edges except for critical edges (a branch straight to a merge block
//    that another path also reaches); an execution that differs from all
//    seen ones only there is not a candidate.
#ifdef RF_COVERAGE_SIGNATURE
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
#else
// Hit counts of the precise build: visits per block, in RF_HIT_COUNTERS
// register counters (block i counts in counter i % RF_HIT_COUNTERS, so
// blocks share counters as AFL's edges share map bytes). rf_site is a
// constant stored right before each rf_cov_hook call, so after inlining
// counting is one add. At the end of an execution each counter, bucketed
// like AFL's hit counts (1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+), is a
// coverage feature (rf_hit_features): a block, and so a loop, reached a new
// number of times is progress.
#define RF_HIT_COUNTERS 16u
uint rf_hits[RF_HIT_COUNTERS];

void rf_count_hit() {
  uint counter = (rf_site >> 16u) % RF_HIT_COUNTERS;
  [[unroll]] for (uint k = 0u; k < RF_HIT_COUNTERS; ++k) {
    rf_hits[k] += k == counter ? 1u : 0u;
  }
}

// The bucket of a hit count (hits > 0): 0..7.
uint rf_hit_bucket(uint hits) {
  return hits >= 128u ? 7u
       : hits >= 32u  ? 6u
       : hits >= 4u   ? uint(findMSB(hits)) + 1u
                      : hits - 1u;
}

#ifdef RF_COVERAGE_DEFERRED
// Deferred coverage (the precise build on SIMD back ends such as
// lavapipe, where every per-lane memory access is a scalarised loop that
// runs whether a lane takes the block or not): the hooks set bits in
// registers, and the execution marks the maps once, at its end
// (rf_mark_deferred), with the same bits the immediate build marks as it
// goes. Sites are numbered densely (RF_SITE_WORDS words of them; rf_site
// is a constant or a select of two after inlining, so setting its bit is
// an or or two); edges are the module's static edges
// (fuzz/gpu/gpu_static_edges.h), RF_EDGE_WORDS words of them, whose bits the
// instrumentation sets before each hook, and RF_EDGE_TABLE lists each
// one's edge-map bit.
uint rf_site_bits[RF_SITE_WORDS];
uint rf_edge_bits[RF_EDGE_WORDS];
const uint rf_edge_map_bits[] = uint[](RF_EDGE_TABLE);
#endif

void rf_coverage_reset() {
  [[unroll]] for (uint k = 0u; k < RF_HIT_COUNTERS; ++k) rf_hits[k] = 0u;
#ifdef RF_COVERAGE_DEFERRED
  [[unroll]] for (uint k = 0u; k < RF_SITE_WORDS; ++k) rf_site_bits[k] = 0u;
  [[unroll]] for (uint k = 0u; k < RF_EDGE_WORDS; ++k) rf_edge_bits[k] = 0u;
#endif
}

// The edge and the block (site) each have their own bit: the block map is
// exact (line coverage is read from it), the edge map hashed.
void rf_cov_hook() {
  rf_count_hit();
  uint cur = rf_site & 0xFFFFu;
  uint site = rf_site >> 16u;
#ifdef RF_COVERAGE_DEFERRED
  [[unroll]] for (uint k = 0u; k < RF_SITE_WORDS; ++k) {
    rf_site_bits[k] |= k == (site >> 5u) ? 1u << (site & 31u) : 0u;
  }
  rf_prev = cur >> 1u;
#else
  uint edge = (cur ^ rf_prev) & (RF_EDGE_MAP_BITS - 1u);
  rf_prev = cur >> 1u;
  rf_new_bits += rf_mark_new(RF_RES_EDGE_MAP + (edge >> 5u), 1u << (edge & 31u));
  rf_new_bits += rf_mark_new(RF_RES_SITE_MAP + (site >> 5u), 1u << (site & 31u));
#endif
}

#ifdef RF_COVERAGE_DEFERRED
// At the end of an execution: marks its sites a word at a time, and the
// edge-map bit of each static edge it took that RF_RES_STATIC_EDGES does
// not know yet (then tells it). Returns the loop iterations it ran (one
// per edge marked).
uint rf_mark_deferred() {
  [[unroll]] for (uint k = 0u; k < RF_SITE_WORDS; ++k) {
    uint mine = rf_site_bits[k];
    if (mine != 0u) {
      uint w = RF_RES_SITE_MAP + k;
      uint fresh = mine & ~rf_ctrl[w];
      if (fresh != 0u) {
        uint won = fresh & ~atomicOr(rf_ctrl[w], fresh);
        rf_new_bits += uint(bitCount(won));
        if (won != 0u && rf_first_new == 0u) {
          rf_first_new = w * 32u + uint(findLSB(won)) + 1u;
        }
      }
    }
  }
  uint edges = 0u;
  [[unroll]] for (uint k = 0u; k < RF_EDGE_WORDS; ++k) {
    uint fresh = rf_edge_bits[k];
    if (fresh != 0u) fresh &= ~rf_ctrl[RF_RES_STATIC_EDGES + k];
    uint bits = fresh;
    while (bits != 0u) {
      uint e = rf_edge_map_bits[k * 32u + uint(findLSB(bits))];
      bits &= bits - 1u;
      rf_new_bits += rf_mark_new(RF_RES_EDGE_MAP + (e >> 5u), 1u << (e & 31u));
      edges += 1u;
    }
    // After the edge map: a known static edge's bit is always set there.
    if (fresh != 0u) atomicOr(rf_ctrl[RF_RES_STATIC_EDGES + k], fresh);
  }
  return edges;
}

// Forgets every known static edge: after a find that did not fit the find
// queue un-marked its first new bit (which may be an edge's), so that the
// executions that take it mark it again.
void rf_forget_static_edges() {
  [[unroll]] for (uint k = 0u; k < RF_EDGE_WORDS; ++k) {
    atomicAnd(rf_ctrl[RF_RES_STATIC_EDGES + k], 0u);
  }
}
#endif
#endif

// Adds a feature other than an edge (a 16-bit hash: loop counts, compare
// distances) to this execution's coverage: a bit of the edge map (precise
// build, counted in rf_new_bits when set first) or of the Bloom filter
// (signature build). Both builds add the same features, so a candidate of
// the signature build is judged on them by the precise build.
void rf_feature(uint feature) {
#ifdef RF_COVERAGE_SIGNATURE
  uint h = feature * 0x9E3779B1u;
  rf_bloom_add(h >> 8u);
  rf_bloom_add(h >> 20u);
#else
  rf_new_bits += rf_mark_new(RF_RES_EDGE_MAP + (feature >> 5u),
                             1u << (feature & 31u));
#endif
}

// Instrumentation hook in every target loop header. Returns false once the
// execution has used its loop budget; the instrumented header then leaves
// the loop, and the execution is reported as a timeout. (rf_loop_id, the
// loop's index, is stored by the instrumentation before each call.)
uint rf_loop_id;

bool rf_loop_hook() {
  rf_exec_steps += 1u;
  if (rf_exec_steps <= rf_pc.exec_steps) return true;
  if (rf_no_fault()) {
    rf_fault_kind = RF_FIND_TIMEOUT;
    rf_fault_site = rf_loc;
  }
  return false;
}

// Instrumentation hook before every integer comparison of the target (and
// every switch: then rf_cmp_b is the case nearest to the selector, see
// fuzz/gpu/gpu_instrument.cc): rf_cmp_a/rf_cmp_b are its operands, rf_cmp_site
// its index. Executions that record (calibration, replays, and a sample of
// the others; see rf_run_slot) store the operands in the compare table.
uint rf_cmp_a;
uint rf_cmp_b;
uint rf_cmp_site;
bool rf_cmp_record;
// Compare logging (RF_OP_CMPLOG, precise build): the compare-log entry of
// this execution (its first word), or RF_NO_LOG; and the comparisons it
// made so far. rf_run_slot sets both and stores the count at the end.
#define RF_NO_LOG 0xFFFFFFFFu
uint rf_cmp_log;
uint rf_cmp_logged;

// Value profile (libFuzzer's -use_value_profile): how close the operands of
// a comparison came is a feature of its site, so a mutant that brings them
// closer (one more equal bit, one more equal low-order byte) is progress
// even though no branch flipped. Two features per comparison: the number
// of differing bits (0..32) and the number of equal low-order bytes (0..4).
// Deterministic in (site, a, b), so both coverage builds agree.
uint rf_value_feature(uint site, uint value) {
  uint h = ((site << 6u) | value) * 0x85EBCA77u + 0x165667B1u;
  return ((h ^ (h >> 15u)) * 0xC2B2AE3Du) >> 16u;
}

void rf_value_profile() {
  uint diff = rf_cmp_a ^ rf_cmp_b;
  uint equal_bytes = diff == 0u ? 4u : uint(findLSB(diff)) >> 3u;
  rf_feature(rf_value_feature(rf_cmp_site, uint(bitCount(diff))));
  rf_feature(rf_value_feature(rf_cmp_site, 33u + equal_bytes));
}

void rf_cmp_hook() {
#ifdef RF_VALUE_PROFILE
  rf_value_profile();
#endif
#ifndef RF_COVERAGE_SIGNATURE
  if (rf_cmp_log != RF_NO_LOG) {
    if (rf_cmp_logged < RF_CMPLOG_RECORDS) {
      uint at = rf_cmp_log + 1u + rf_cmp_logged * RF_CMPLOG_RECORD_WORDS;
      rf_cmplog[at] = rf_cmp_site;
      rf_cmplog[at + 1u] = rf_cmp_a;
      rf_cmplog[at + 2u] = rf_cmp_b;
    }
    rf_cmp_logged += 1u;
  }
  // Three plain stores: the check word lets the host drop an entry that
  // another execution recorded into at the same time (ringfuzz_wire.h).
  if (rf_cmp_record && rf_cmp_a != rf_cmp_b) {
    uint entry = RF_RES_CMP + RF_CMP_ENTRY_WORDS * (rf_cmp_site % RF_CMP_ENTRIES);
    rf_ctrl[entry + RF_CMP_A] = rf_cmp_a;
    rf_ctrl[entry + RF_CMP_B] = rf_cmp_b;
    rf_ctrl[entry + RF_CMP_CHECK] = RF_CMP_CHECK_OF(rf_cmp_a, rf_cmp_b);
  }
#endif
}

#ifndef RF_COVERAGE_SIGNATURE
// Adds each hit counter's bucket as an edge-map feature (the precise build;
// the signature build hashes the classes of its per-block counters into its
// signature instead).
void rf_hit_features() {
#ifdef RF_COVERAGE_DEFERRED
  rf_steps += rf_mark_deferred();
#endif
#ifndef RF_NO_COVERAGE
  [[unroll]] for (uint k = 0u; k < RF_HIT_COUNTERS; ++k) {
    uint hits = rf_hits[k];
    if (hits != 0u) {
      uint h = ((k * 8u + rf_hit_bucket(hits)) * 0x9E3779B1u) >> 16u;
      rf_feature(h);
    }
  }
#endif
}
#endif
