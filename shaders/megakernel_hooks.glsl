// The instrumentation's hooks: features other than edges, the loop budget
// (rf_loop_hook), compare logging and value profile (rf_cmp_hook), and the
// precise build's hit-count features. Part of the prelude
// (megakernel_prelude.glsl), after the coverage build's file.

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
// execution has used its loop budget (rf_exec_limit); the instrumented
// header then leaves the loop, and the execution is reported as a timeout,
// or, below rf_pc.exec_steps, cut (RF_FIND_CUT). (rf_loop_id, the loop's
// index, is stored by the instrumentation before each call.)
uint rf_loop_id;

bool rf_loop_hook() {
  rf_exec_steps += 1u;
  if (rf_exec_steps <= rf_exec_limit) return true;
  if (rf_no_fault()) {
    rf_fault_kind =
        rf_exec_limit < rf_pc.exec_steps ? RF_FIND_CUT : RF_FIND_TIMEOUT;
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
    uint at = rf_cmp_log + 1u + RF_CMPLOG_SLOT(rf_cmp_logged) * RF_CMPLOG_RECORD_WORDS;
    rf_cmplog[at] = rf_cmp_site;
    rf_cmplog[at + 1u] = rf_cmp_a;
    rf_cmplog[at + 2u] = rf_cmp_b;
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
