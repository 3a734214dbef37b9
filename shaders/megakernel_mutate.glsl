// GPU mutators. Each works on the private input rf_in/rf_len in place and
// returns nothing or the new length; every loop iteration is charged to
// rf_steps so the host can bound a dispatch (platform-facts: lavapipe cuts
// loops after 65,535 back-edges). Mutators are named in docs/architecture.md,
// numbered in ringfuzz_mutators.h (RF_MUT_*), and selected by the slot's
// work kind (RF_OP_*). rf_mutate, which applies the work kind, comes from one
// of the two engines that the host includes after this file:
// megakernel_mutate_branching.glsl (one mutator per call) or
// megakernel_mutate_flat.glsl (one predicated path).

uint rf_rng;       // per invocation: positions and values
uint rf_rng_wide;  // the same in all invocations of a workgroup iteration:
                   // which mutators run, so that SIMD lanes do not diverge
// The mutator (RF_MUT_*) of the last rf_mutate call: RF_MUT_NONE when it
// left the input as is (replay, calibration).
uint rf_last_mutator;

// PCG-RXS-M-XS 32-bit step.
uint rf_rand() {
  rf_rng = rf_rng * 747796405u + 2891336453u;
  uint w = ((rf_rng >> ((rf_rng >> 28u) + 4u)) ^ rf_rng) * 277803737u;
  return (w >> 22u) ^ w;
}

uint rf_rand_wide() {
  rf_rng_wide = rf_rng_wide * 747796405u + 2891336453u;
  uint w = ((rf_rng_wide >> ((rf_rng_wide >> 28u) + 4u)) ^ rf_rng_wide) * 277803737u;
  return (w >> 22u) ^ w;
}

uint rf_below_wide(uint n) {
  uint hi, lo;
  umulExtended(rf_rand_wide(), n, hi, lo);
  return hi;
}

// Value in [0, n) (0 when n == 0), by multiply-high: no division, which
// SIMD back ends (lavapipe) would run lane by lane.
uint rf_below(uint n) {
  uint hi, lo;
  umulExtended(rf_rand(), n, hi, lo);
  return hi;
}

uint rf_hash(uint x) {
  x ^= x >> 16u;
  x *= 0x7feb352du;
  x ^= x >> 15u;
  x *= 0x846ca68bu;
  x ^= x >> 16u;
  return x;
}

uint rf_get(uint i) { return (rf_word(i >> 2u) >> ((i & 3u) << 3u)) & 0xFFu; }

void rf_set(uint i, uint v) {
  uint s = (i & 3u) << 3u;
  rf_put_word(i >> 2u, (rf_word(i >> 2u) & ~(0xFFu << s)) | ((v & 0xFFu) << s));
}

// Loads corpus entry `index` (truncated to max_len); returns its length.
uint rf_load(uint index) {
  uint off = rf_corpus[2u * index];
  uint len = min(rf_corpus[2u * index + 1u], rf_pc.max_len);
  uint words = (len + 3u) >> 2u;
#ifdef RF_INPUT_IN_REGISTERS
  // The corpus buffer ends with RF_MAX_WORDS words of padding, so reading
  // whole registers past a short entry stays in bounds.
  [[unroll]] for (uint w = 0u; w < RF_MAX_WORDS; ++w) {
    rf_in[w] = rf_corpus[off + w];
  }
#else
  for (uint w = 0u; w < words; ++w) rf_in[w] = rf_corpus[off + w];
  rf_steps += words;
#endif
  return len;
}

// Byte `i` of corpus entry `index` (caller keeps i < its length).
uint rf_corpus_byte(uint index, uint i) {
  uint off = rf_corpus[2u * index];
  return (rf_corpus[off + (i >> 2u)] >> ((i & 3u) << 3u)) & 0xFFu;
}

uint rf_corpus_len(uint index) {
  return min(rf_corpus[2u * index + 1u], rf_pc.max_len);
}

#ifdef RF_INPUT_IN_REGISTERS
// Register form: whole words move by 1..3 bytes per pass, with constant
// indices only, so nothing leaves registers and no lane loops per byte.
void rf_shift_up(uint pos, uint n) {
  uint sh = n * 8u;
  uint prev = 0u;
  [[unroll]] for (uint k = 0u; k < RF_MAX_WORDS; ++k) {
    uint cur = rf_in[k];
    uint moved = (cur << sh) | (prev >> (32u - sh));
    uint base = 4u * k;
    uint keep = pos <= base ? 0u
              : pos >= base + 4u ? 0xFFFFFFFFu
              : (1u << ((pos - base) * 8u)) - 1u;
    rf_in[k] = (cur & keep) | (moved & ~keep);
    prev = cur;
  }
}

void rf_shift_down(uint pos, uint n) {
  uint sh = n * 8u;
  [[unroll]] for (uint k = 0u; k < RF_MAX_WORDS; ++k) {
    uint cur = rf_in[k];
    uint next = k + 1u < RF_MAX_WORDS ? rf_in[k + 1u] : 0u;
    uint moved = (cur >> sh) | (next << (32u - sh));
    uint base = 4u * k;
    uint keep = pos <= base ? 0u
              : pos >= base + 4u ? 0xFFFFFFFFu
              : (1u << ((pos - base) * 8u)) - 1u;
    rf_in[k] = (cur & keep) | (moved & ~keep);
  }
}

// Moves bytes [pos, len) right by n (n free bytes at pos). Caller keeps
// len + n <= max_len.
void rf_open_gap(uint len, uint pos, uint n) {
  for (uint left = n; left > 0u; left -= min(left, 3u)) {
    rf_shift_up(pos, min(left, 3u));
    rf_steps += 1u;
  }
}

// Moves bytes [pos + n, len) left by n.
void rf_close_gap(uint len, uint pos, uint n) {
  for (uint left = n; left > 0u; left -= min(left, 3u)) {
    rf_shift_down(pos, min(left, 3u));
    rf_steps += 1u;
  }
}
#else
// Moves bytes [pos, len) right by n (n free bytes at pos). Caller keeps
// len + n <= max_len.
void rf_open_gap(uint len, uint pos, uint n) {
  for (uint i = len; i > pos; --i) rf_set(i - 1u + n, rf_get(i - 1u));
  rf_steps += len - pos;
}

// Moves bytes [pos + n, len) left by n.
void rf_close_gap(uint len, uint pos, uint n) {
  for (uint i = pos; i + n < len; ++i) rf_set(i, rf_get(i + n));
  rf_steps += len - pos;
}
#endif

// Writes a `width`-byte value at pos, little- or big-endian.
void rf_put(uint pos, uint width, uint v, bool big) {
  for (uint k = 0u; k < width; ++k) {
    uint shift = big ? (width - 1u - k) * 8u : k * 8u;
    rf_set(pos + k, v >> shift);
  }
}

uint rf_fetch(uint pos, uint width, bool big) {
  uint v = 0u;
  for (uint k = 0u; k < width; ++k) {
    uint shift = big ? (width - 1u - k) * 8u : k * 8u;
    v |= rf_get(pos + k) << shift;
  }
  return v;
}

// A random width (1, 2 or 4) that fits len; 0 if len == 0.
uint rf_width(uint len) {
  uint w = 1u << rf_below(3u);
  while (w > len && w > 1u) w >>= 1u;
  return len == 0u ? 0u : w;
}

uint rf_interesting(uint width) {
  uint r = rf_below(10u);
  if (width == 1u) {
    uint v8[10] = uint[10](0x80u, 0xFFu, 0u, 1u, 16u, 32u, 64u, 100u, 127u, 0x7Eu);
    return v8[r];
  }
  if (width == 2u) {
    uint v16[10] = uint[10](0x8000u, 0xFF7Fu, 128u, 255u, 256u, 512u, 1000u,
                            1024u, 4096u, 32767u);
    return v16[r];
  }
  uint v32[10] = uint[10](0x80000000u, 0xFA0000FAu, 0xFFFF7FFFu, 32768u,
                          65535u, 65536u, 0x05FFFF05u, 0x7FFFFFFFu,
                          0xFFFFFFFFu, 0u);
  return v32[r];
}

// --- havoc mutators --------------------------------------------------------
void rf_mut_flip_bit(uint len) {
  uint i = rf_below(len);
  rf_set(i, rf_get(i) ^ (1u << rf_below(8u)));
}

void rf_mut_random_byte(uint len) {
  uint i = rf_below(len);
  rf_set(i, rf_get(i) ^ (1u + rf_below(255u)));
}

void rf_mut_interesting(uint len) {
  uint width = rf_width(len);
  rf_put(rf_below(len - width + 1u), width, rf_interesting(width),
         rf_below(2u) == 0u);
}

void rf_mut_arith(uint len) {
  uint width = rf_width(len);
  uint pos = rf_below(len - width + 1u);
  bool big = rf_below(2u) == 0u;
  uint delta = 1u + rf_below(35u);
  uint v = rf_fetch(pos, width, big);
  v = rf_below(2u) == 0u ? v + delta : v - delta;
  rf_put(pos, width, v, big);
}

// The byte of an InsertRepeatedBytes, as libFuzzer draws it: half the time
// a random one, else 0x00 or 0xFF.
uint rf_repeated_byte(uint r) {
  return (r & 1u) != 0u ? (r >> 8u) & 0xFFu : ((r & 2u) != 0u ? 0u : 0xFFu);
}

// RF_MUT_INSERT (1..4 random bytes), or half the time RF_MUT_INSERT_REPEATED:
// RF_INSERT_REPEATED_MIN..MAX bytes of one value (libFuzzer's sizes) where
// that many fit, else 1..4 (rf_last_mutator says which).
uint rf_mut_insert(uint len) {
  rf_last_mutator = RF_MUT_INSERT;
  if (len >= rf_pc.max_len) return len;
  uint room = rf_pc.max_len - len;
  bool same = rf_below(2u) == 0u;
  uint n = same && room >= RF_INSERT_REPEATED_MIN
               ? RF_INSERT_REPEATED_MIN +
                     rf_below(min(RF_INSERT_REPEATED_MAX, room) -
                              RF_INSERT_REPEATED_MIN + 1u)
               : 1u + rf_below(min(4u, room));
  uint pos = rf_below(len + 1u);
  rf_open_gap(len, pos, n);
  uint fill = rf_repeated_byte(rf_rand());
  rf_last_mutator = same ? RF_MUT_INSERT_REPEATED : RF_MUT_INSERT;
  for (uint k = 0u; k < n; ++k) rf_set(pos + k, same ? fill : rf_rand());
  return len + n;
}

uint rf_mut_erase(uint len) {
  if (len <= 1u) return len;
  uint n = 1u + rf_below(min(4u, len - 1u));
  uint pos = rf_below(len - n + 1u);
  rf_close_gap(len, pos, n);
  return len - n;
}

// Copies up to 8 bytes from src to dst (a private temp makes overlap safe).
void rf_copy_block(uint src, uint dst, uint n) {
  uint tmp[8];
  for (uint k = 0u; k < n; ++k) tmp[k] = rf_get(src + k);
  for (uint k = 0u; k < n; ++k) rf_set(dst + k, tmp[k]);
}

uint rf_mut_duplicate(uint len) {
  if (len == 0u || len >= rf_pc.max_len) return len;
  uint n = 1u + rf_below(min(min(8u, len), rf_pc.max_len - len));
  uint src = rf_below(len - n + 1u);
  uint dst = rf_below(len + 1u);
  uint tmp[8];
  for (uint k = 0u; k < n; ++k) tmp[k] = rf_get(src + k);
  rf_open_gap(len, dst, n);
  for (uint k = 0u; k < n; ++k) rf_set(dst + k, tmp[k]);
  return len + n;
}

void rf_mut_copy(uint len) {
  if (len < 2u) return;
  uint n = 1u + rf_below(min(8u, len - 1u));
  rf_copy_block(rf_below(len - n + 1u), rf_below(len - n + 1u), n);
}

// Splice: overwrite a chunk with a chunk of the partner, or (half the time)
// keep a prefix of the input and append the partner's suffix.
uint rf_mut_splice(uint len, uint partner) {
  uint plen = rf_corpus_len(partner);
  if (plen == 0u) return len;
  if (rf_below(2u) == 0u) {
    uint cut = rf_below(len + 1u);
    uint from = rf_below(plen);
    uint n = min(plen - from, rf_pc.max_len - cut);
    for (uint k = 0u; k < n; ++k) rf_set(cut + k, rf_corpus_byte(partner, from + k));
    rf_steps += n;
    return cut + n;
  }
  if (len == 0u) return len;
  uint n = 1u + rf_below(min(min(plen, len), 16u));
  uint from = rf_below(plen - n + 1u);
  uint to = rf_below(len - n + 1u);
  for (uint k = 0u; k < n; ++k) rf_set(to + k, rf_corpus_byte(partner, from + k));
  rf_steps += n;
  return len;
}

// Dictionary: insert or overwrite a token.
uint rf_mut_dict(uint len) {
  if (rf_pc.dict_count == 0u) return len;
  uint e = rf_below(rf_pc.dict_count) * RF_DICT_ENTRY_WORDS;
  uint n = rf_dict[e];
  if (n == 0u || n > rf_pc.max_len) return len;
  uint pos;
  if (rf_below(2u) == 0u && len + n <= rf_pc.max_len) {
    pos = rf_below(len + 1u);
    rf_open_gap(len, pos, n);
    len += n;
  } else {
    if (n > len) return len;
    pos = rf_below(len - n + 1u);
  }
  for (uint k = 0u; k < n; ++k) {
    rf_set(pos + k, rf_dict[e + 1u + (k >> 2u)] >> ((k & 3u) << 3u));
  }
  rf_steps += n;
  return len;
}

// One havoc step: a random byte-level mutator (an insert into an empty
// input); sets rf_last_mutator.
uint rf_havoc_step(uint len) {
  uint choice = rf_below_wide(RF_HAVOC_CHOICES);
  if (len == 0u) return rf_mut_insert(len);
  rf_last_mutator =
      choice == RF_HAVOC_CHOICE_CHANGE_BYTE ? RF_MUT_CHANGE_BYTE : choice;
  switch (choice) {
    case RF_MUT_FLIP_BIT: rf_mut_flip_bit(len); break;
    case RF_MUT_CHANGE_BYTE: rf_mut_random_byte(len); break;
    case RF_MUT_INTERESTING: rf_mut_interesting(len); break;
    case RF_MUT_ARITH: rf_mut_arith(len); break;
    case RF_MUT_INSERT: len = rf_mut_insert(len); break;
    case RF_MUT_ERASE: len = rf_mut_erase(len); break;
    case RF_MUT_DUPLICATE: len = rf_mut_duplicate(len); break;
    case RF_MUT_COPY: rf_mut_copy(len); break;
    default: rf_mut_random_byte(len); break;  // RF_HAVOC_CHOICE_CHANGE_BYTE
  }
  return len;
}

// Mask of the low `width` (0..4) bytes.
uint rf_width_mask(uint width) {
  return width >= 4u ? 0xFFFFFFFFu : (1u << ((8u * width) & 31u)) - 1u;
}

// The corpus index of the slot's parent (rf_run_slot sets it): CMP
// mutants take their patches from its list.
uint rf_slot_parent;

// Input-to-state: draws one of the parent's own patches (patch buffer,
// derived on the host from the compare log of the parent's own execution,
// fuzz/gpu/input_to_state.h): `width` bytes, little-endian packed in `value`,
// to be written at `at`. Returns false when the parent has none, or the
// patch does not fit in `len` bytes (the mutant then gets a havoc step).
bool rf_cmp_patch(uint len, out uint at, out uint width, out uint value) {
  uint first = rf_patches[2u * rf_slot_parent];
  uint count = rf_patches[2u * rf_slot_parent + 1u];
  uint p = first + RF_PATCH_WORDS * rf_below(count);
  uint head = count != 0u ? rf_patches[p] : 0u;
  at = RF_PATCH_POSITION(head);
  width = RF_PATCH_WIDTH(head);
  value = count != 0u ? rf_patches[p + 1u] : 0u;
  return count != 0u && width != 0u && at + width <= len;
}

// Input-to-state (branching engine): applies one of the parent's patches
// (RF_MUT_CMP), or a havoc step when none applies. Returns the length.
uint rf_mut_cmp(uint len) {
  uint at;
  uint width;
  uint value;
  if (!rf_cmp_patch(len, at, width, value)) return rf_havoc_step(len);
  rf_last_mutator = RF_MUT_CMP;
  rf_put(at, width, value, false);
  return len;
}
