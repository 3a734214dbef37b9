// The target dialect's runtime (fz_byte, fz_crash; docs/dialect.md), input
// word access, and marking bits of the control buffer's maps. Part of the
// prelude (megakernel_prelude.glsl); needs megakernel_buffers.glsl.

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
