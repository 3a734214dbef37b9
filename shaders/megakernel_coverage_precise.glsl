// Coverage of the precise build (the default): edge and block bits of the
// control buffer's maps, set as blocks run or, with RF_COVERAGE_DEFERRED,
// kept in registers and marked at the end of the execution; plus hit-count
// counters (see the coverage modes in megakernel_prelude.glsl). Defines
// rf_coverage_reset and rf_cov_hook for the hooks and the main loop.

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
