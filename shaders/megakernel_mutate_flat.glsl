// Flat mutation engine: rf_mutate for SIMD back ends that predicate every
// branch (lavapipe: both sides of an if always run, masked, and a loop runs
// the largest trip count of its lanes, at least once). There, the cost of a
// mutant is the size of the whole mutation code, not of the mutator taken,
// so this engine has one code path: every step is one micro-step of
//   read 4 bytes (peek) -> open or close a gap of <= 4 bytes -> write <= 4
//   bytes (poke)
// whose parameters are chosen with selects. The work kinds map onto it:
//   HAVOC    the byte-level mutators of megakernel_mutate.glsl (duplicate and
//            copy move at most 4 bytes per step), numbered as there
//            (RF_MUT_*, ringfuzz_mutators.h);
//   TRIM     erase steps only;
//   DICT     a token, inserted or overwritten 4 bytes per micro-step, then
//            havoc steps;
//   SPLICE   partner bytes (a chunk of <= 16, or the partner's suffix after a
//            cut), 4 per micro-step, then havoc steps;
//   CMP      the input-to-state write (one of the parent's patches,
//            rf_cmp_patch), then havoc steps.
// Coherent lanes: on a SIMD device a lane waits for the slowest lane of its
// vector, and a target's path through a mutant depends most on where the
// mutant differs from its parent. So the RF_COHERENT_LANES consecutive
// invocations of a coherence group (1, 2 or 4: GpuExecutorOptions::
// coherent_lanes, 4 by default, lavapipe's SIMD width) take each havoc step
// at the same position (the mutator is already the same in the whole
// workgroup iteration), and then run the same path up to it. Each lane
// still draws its own values; block sizes, flipped bits and interesting
// values are spread over the group (lane j takes the group's draw + j,
// wrapped), so the group's mutants differ wherever the mutator's choices
// allow. Groups of 8, 16 or 32 (a GPU's subgroup) are quads: each quad
// spreads values as a group of 4 does, and quad q takes every position q
// bytes after the group's (wrapped in the position's range), so that the
// group's mutants still differ (a 4-way spread of 1..4-byte blocks would
// repeat) while its lanes run the same path up to the group's first
// position. Every mutant on its own keeps the distribution of an independent
// draw; only its group's mutants are correlated. The group's draws come
// from the workgroup's shared stream (rf_rand_wide), so a lane whose stream
// write took more micro-steps than its group's leaves the group for the
// rest of that mutant: less coherence, nothing else.
// A havoc-only build (RF_HAVOC_ONLY, MegakernelOptions::havoc_only) leaves
// the stream and input-to-state code out of every micro-step.
// Requires the register input form (RF_INPUT_IN_REGISTERS). The host
// includes it after megakernel_mutate.glsl instead of the branching engine
// (megakernel_mutate_branching.glsl) for inputs that fit in registers
// (MegakernelOptions::flat_mutation).

#ifndef RF_INPUT_IN_REGISTERS
#error "the flat mutation engine needs the input in registers (RF_MAX_LEN / 4 <= RF_REGISTER_WORDS)"
#endif
#ifndef RF_COHERENT_LANES
#define RF_COHERENT_LANES 1
#endif
#if RF_COHERENT_LANES != 1 && RF_COHERENT_LANES != 2 && RF_COHERENT_LANES != 4 && \
    RF_COHERENT_LANES != 8 && RF_COHERENT_LANES != 16 && RF_COHERENT_LANES != 32
#error "RF_COHERENT_LANES must be 1, 2, 4, 8, 16 or 32"
#endif
// Lanes that spread values over one position (at most 4, see rf_spread).
#if RF_COHERENT_LANES > 4
#define RF_SPREAD_LANES 4
#else
#define RF_SPREAD_LANES RF_COHERENT_LANES
#endif

// 4 input bytes from byte `pos` on, little-endian; bytes past the buffer
// read 0.
uint rf_peek4(uint pos) {
  uint q = pos >> 2u;
  uint r = (pos & 3u) * 8u;
  uint lo = 0u;
  uint hi = 0u;
  [[unroll]] for (uint k = 0u; k < RF_MAX_WORDS; ++k) {
    lo = k == q ? rf_in[k] : lo;
    hi = k == q + 1u ? rf_in[k] : hi;
  }
  return r == 0u ? lo : (lo >> r) | (hi << ((32u - r) & 31u));
}

// Writes the low `width` (0..4) bytes of v at byte `pos`, little-endian;
// bytes past the buffer are dropped.
void rf_poke(uint pos, uint width, uint v) {
  uint q = pos >> 2u;
  uint r = (pos & 3u) * 8u;
  uint m = rf_width_mask(width);
  v &= m;
  uint lo_mask = m << r;
  uint lo_val = v << r;
  uint hi_mask = r == 0u ? 0u : m >> ((32u - r) & 31u);
  uint hi_val = r == 0u ? 0u : v >> ((32u - r) & 31u);
  [[unroll]] for (uint k = 0u; k < RF_MAX_WORDS; ++k) {
    uint mask = k == q ? lo_mask : (k == q + 1u ? hi_mask : 0u);
    uint val = k == q ? lo_val : hi_val;
    rf_in[k] = (rf_in[k] & ~mask) | (val & mask);
  }
}

// up: moves bytes [pos, end of buffer) up by n (0..4), leaving n stale bytes
// at pos (a gap) and dropping what passes the buffer's end.
// !up: removes bytes [pos, pos + n), moving the rest down.
void rf_shift(uint pos, uint n, bool up) {
  uint sh = (n * 8u) & 31u;
  bool whole = n >= 4u;
  uint prev = 0u;
  [[unroll]] for (uint k = 0u; k < RF_MAX_WORDS; ++k) {
    uint cur = rf_in[k];
    uint next = k + 1u < RF_MAX_WORDS ? rf_in[(k + 1u) % RF_MAX_WORDS] : 0u;
    uint moved_up = whole ? prev
                  : sh == 0u ? cur
                             : (cur << sh) | (prev >> ((32u - sh) & 31u));
    uint moved_down = whole ? next
                    : sh == 0u ? cur
                               : (cur >> sh) | (next << ((32u - sh) & 31u));
    uint base = 4u * k;
    uint keep = pos <= base ? 0u
              : pos >= base + 4u ? 0xFFFFFFFFu
                                 : (1u << (((pos - base) * 8u) & 31u)) - 1u;
    rf_in[k] = (cur & keep) | ((up ? moved_up : moved_down) & ~keep);
    prev = cur;
  }
}

// The low `width` (1..4) bytes of v in the other byte order.
uint rf_swap(uint v, uint width) {
  uint s = ((v & 0xFFu) << 24u) | ((v & 0xFF00u) << 8u) |
           ((v >> 8u) & 0xFF00u) | (v >> 24u);
  return s >> ((32u - 8u * width) & 31u);
}

// One interesting value of `width` bytes (1, 2 or 4), without a local array
// (which the SIMD back end would index lane by lane).
uint rf_interesting_flat(uint width, uint r) {
  uint v8 = r == 0u ? 0x80u : r == 1u ? 0xFFu : r == 2u ? 0u : r == 3u ? 1u
          : r == 4u ? 16u : r == 5u ? 32u : r == 6u ? 64u : r == 7u ? 100u
          : r == 8u ? 127u : 0x7Eu;
  uint v16 = r == 0u ? 0x8000u : r == 1u ? 0xFF7Fu : r == 2u ? 128u
           : r == 3u ? 255u : r == 4u ? 256u : r == 5u ? 512u
           : r == 6u ? 1000u : r == 7u ? 1024u : r == 8u ? 4096u : 32767u;
  uint v32 = r == 0u ? 0x80000000u : r == 1u ? 0xFA0000FAu
           : r == 2u ? 0xFFFF7FFFu : r == 3u ? 32768u : r == 4u ? 65535u
           : r == 5u ? 65536u : r == 6u ? 0x05FFFF05u : r == 7u ? 0x7FFFFFFFu
           : r == 8u ? 0xFFFFFFFFu : 0u;
  return width == 1u ? v8 : (width == 2u ? v16 : v32);
}

// A pending stream write (DICT token or SPLICE bytes): `left` bytes still to
// write at `at`, read from byte `from` of the source, gap opened first when
// `insert`. Consumed 4 bytes per micro-step before the havoc steps.
uint rf_stream_left;
uint rf_stream_at;
uint rf_stream_from;
bool rf_stream_insert;
bool rf_stream_dict;  // source: dictionary entry (else the partner input)
uint rf_stream_base;  // source word offset (dict entry data / corpus offset)

// 4 source bytes of the pending stream from its current position.
uint rf_stream_peek4() {
  uint w = rf_stream_base + (rf_stream_from >> 2u);
  uint r = (rf_stream_from & 3u) * 8u;
  uint lo;
  uint hi;
  if (rf_stream_dict) {
    lo = rf_dict[w];
    hi = rf_dict[w + 1u];
  } else {
    lo = rf_corpus[w];
    hi = rf_corpus[w + 1u];
  }
  return r == 0u ? lo : (lo >> r) | (hi << ((32u - r) & 31u));
}

// Sets up the stream of a DICT mutant: a token inserted at a random
// position (half the time, when it fits) or overwriting one. Returns the
// new length. The dictionary buffer is padded by one word per entry.
uint rf_stream_dict_setup(uint len) {
  uint e = rf_below(rf_pc.dict_count) * RF_DICT_ENTRY_WORDS;
  uint n = rf_dict[e];
  bool insert = rf_below(2u) == 0u && len + n <= rf_pc.max_len;
  bool fits = n != 0u && n <= rf_pc.max_len && (insert || n <= len);
  rf_stream_dict = true;
  rf_stream_base = e + 1u;
  rf_stream_from = 0u;
  rf_stream_insert = insert;
  rf_stream_left = fits ? n : 0u;
  rf_stream_at = insert ? rf_below(len + 1u) : rf_below(len - min(n, len) + 1u);
  return fits && insert ? len + n : len;
}

// Sets up the stream of a SPLICE mutant: half the time the input keeps a
// prefix and continues with the partner's suffix; otherwise a chunk of up
// to 16 partner bytes overwrites the input's bytes. Returns the new length.
uint rf_stream_splice_setup(uint len, uint partner) {
  uint plen = rf_corpus_len(partner);
  rf_stream_dict = false;
  rf_stream_base = rf_corpus[2u * partner];
  rf_stream_insert = false;
  if (rf_below(2u) == 0u) {
    uint cut = rf_below(len + 1u);
    uint from = rf_below(max(plen, 1u));
    uint n = plen == 0u ? 0u : min(plen - from, rf_pc.max_len - cut);
    rf_stream_at = cut;
    rf_stream_from = from;
    rf_stream_left = n;
    return plen == 0u ? len : cut + n;
  }
  uint n = len == 0u || plen == 0u ? 0u : 1u + rf_below(min(min(plen, len), 16u));
  rf_stream_from = rf_below(plen - min(n, plen) + 1u);
  rf_stream_at = rf_below(len - min(n, len) + 1u);
  rf_stream_left = n;
  return len;
}

// Value in [0, n) from 16 random bits r16 (n <= 65536): one multiply, no
// 64-bit product.
uint rf_scale16(uint r16, uint n) { return (r16 * n) >> 16u; }

// (x + j) mod d for x < d, j < 4 and d >= 1, without a division.
uint rf_spread(uint x, uint j, uint d) {
  x += j;
  x = x >= d ? x - d : x;
  x = x >= d ? x - d : x;
  return x >= d ? x - d : x;
}

// Position p (< range) moved `stagger` bytes on, wrapped in [0, range):
// where quad `stagger` of a coherence group of more than 4 lanes works.
// Groups of up to 4 lanes have one quad and take p as drawn.
uint rf_stagger(uint p, uint stagger, uint range) {
#if RF_COHERENT_LANES > 4
  return (p + stagger) % max(range, 1u);
#else
  return p;
#endif
}

// One micro-step. `choice` (the same in all lanes of a workgroup iteration)
// picks the havoc mutator (RF_MUT_*, ringfuzz_mutators.h): RF_MUT_FLIP_BIT,
// RF_MUT_CHANGE_BYTE (also RF_HAVOC_CHOICE_CHANGE_BYTE), RF_MUT_INTERESTING,
// RF_MUT_ARITH (add/subtract), RF_MUT_INSERT, RF_MUT_ERASE,
// RF_MUT_DUPLICATE, RF_MUT_COPY. A pending stream write (rf_stream_left) or
// input-to-state write (cmp_width) takes the step's place. Sets
// rf_last_mutator to what the step applied. Returns the new length.
uint rf_flat_step(uint len, uint choice, uint cmp_at, uint cmp_width, uint cmp_value) {
  choice = len == 0u ? RF_MUT_INSERT : choice;
  uint max_len = rf_pc.max_len;
  // Five 32-bit draws feed every parameter: the mutators are mutually
  // exclusive, so those that never run together share random bits. r_pos
  // and r_group are the coherence group's (see the file comment), the others
  // the lane's own.
  uint in_group = gl_LocalInvocationID.x & uint(RF_COHERENT_LANES - 1);
  uint group_lane = in_group & uint(RF_SPREAD_LANES - 1);  // within its quad
  uint stagger = in_group / uint(RF_SPREAD_LANES);         // its quad
  uint group = gl_LocalInvocationID.x / uint(RF_COHERENT_LANES);
  uint r_pos = rf_hash(rf_rand_wide() ^ group * 0x9E3779B9u);
  // r_pos: positions, low half source side, high half destination
  uint r_group = rf_hash(r_pos ^ 0x85EBCA6Bu);  // spread: sizes, bits, values
  uint r_fill = rf_rand();  // inserted bytes
  uint r_a = rf_rand();     // widths, flags
  uint r_b = rf_rand();     // values
  // Value mutators: width 1, 2 or 4 (fitting len), position, byte order.
  uint w = 1u << rf_scale16(r_a & 0xFFFFu, 3u);
  w = w > len ? (len >= 2u ? 2u : 1u) : w;
  bool byte_op = choice == RF_MUT_FLIP_BIT || choice == RF_MUT_CHANGE_BYTE ||
                 choice == RF_HAVOC_CHOICE_CHANGE_BYTE;
  w = byte_op ? 1u : w;
  uint vrange = len - min(w, len) + 1u;
  uint vpos = rf_stagger(rf_scale16(r_pos & 0xFFFFu, vrange), stagger, vrange);
  bool big = (r_a & 0x10000u) != 0u;
  // Block mutators: n bytes (1..4), a source and a destination.
  uint room = max_len - min(len, max_len);
  uint r_n = r_group & 0xFFFFu;
  uint d_ins = max(min(4u, room), 1u);
  uint d_blk = max(min(4u, len - min(len, 1u)), 1u);
  uint d_dup = max(min(min(4u, len), room), 1u);
  uint n_ins = 1u + rf_spread(rf_scale16(r_n, d_ins), group_lane, d_ins);
  uint n_blk = 1u + rf_spread(rf_scale16(r_n, d_blk), group_lane, d_blk);
  uint n_dup = 1u + rf_spread(rf_scale16(r_n, d_dup), group_lane, d_dup);
  bool ins_ok = len < max_len;
  bool era_ok = len > 1u;
  bool dup_ok = len != 0u && len < max_len;
  bool cpy_ok = len >= 2u;
  uint n = choice == RF_MUT_INSERT ? (ins_ok ? n_ins : 0u)
         : choice == RF_MUT_ERASE ? (era_ok ? n_blk : 0u)
         : choice == RF_MUT_DUPLICATE ? (dup_ok ? n_dup : 0u)
         : choice == RF_MUT_COPY ? (cpy_ok ? n_blk : 0u)
                                 : 0u;
  uint src_range = len - min(n, len) + 1u;
  uint dst_range = choice == RF_MUT_COPY ? src_range : len + 1u;
  uint src = rf_stagger(rf_scale16(r_pos & 0xFFFFu, src_range), stagger, src_range);
  uint dst = rf_stagger(rf_scale16(r_pos >> 16u, dst_range), stagger, dst_range);
  uint epos = src;
  uint fill_byte = (r_fill & 0xFFu) * 0x01010101u;
  bool repeated = (r_b & 0x80000000u) != 0u;
  uint fill = repeated ? fill_byte : r_fill;
  uint bit = 1u << (((r_group >> 16u) + group_lane) & 7u);
  uint rnd = 1u + rf_scale16((r_b >> 3u) & 0xFFFFu, 255u);
  uint delta = 1u + rf_scale16((r_b >> 3u) & 0xFFFFu, 35u);
  bool sub = (r_b & 0x40000000u) != 0u;
  uint interesting = rf_interesting_flat(
      w, rf_spread(rf_scale16(r_group >> 16u, 10u), group_lane, 10u));

  // Read.
#ifdef RF_HAVOC_ONLY
  const bool stream = false;
  const uint stream_value = 0u;
  const uint chunk = 0u;
#else
  bool stream = rf_stream_left != 0u;
  uint stream_value = rf_stream_peek4();
  uint chunk = min(rf_stream_left, 4u);
#endif
  bool cmp = cmp_width != 0u;
  bool block = choice == RF_MUT_DUPLICATE || choice == RF_MUT_COPY;
  uint old = rf_peek4(block ? src : vpos);

  // The value to write and where.
  uint m = rf_width_mask(w);
  uint old_w = big ? rf_swap(old, w) : old & m;
  uint arith = sub ? old_w - delta : old_w + delta;
  arith = big ? rf_swap(arith, w) : arith;
  uint value = choice == RF_MUT_FLIP_BIT ? old ^ bit
             : choice == RF_MUT_INTERESTING ? (big ? rf_swap(interesting, w) : interesting)
             : choice == RF_MUT_ARITH ? arith
             : choice == RF_MUT_INSERT ? fill
             : block ? old
                     : old ^ rnd;  // RF_MUT_CHANGE_BYTE
  uint at = choice == RF_MUT_INSERT || block ? dst : vpos;
  uint width = choice == RF_MUT_ERASE ? 0u
             : (choice >= RF_MUT_INSERT && choice <= RF_MUT_COPY ? n : w);
  bool gap_up = choice == RF_MUT_INSERT || choice == RF_MUT_DUPLICATE;
  uint gap = gap_up || choice == RF_MUT_ERASE ? n : 0u;
  uint gap_at = choice == RF_MUT_ERASE ? epos : dst;
  uint new_len = gap_up ? len + gap : len - gap;
  uint mutator = choice == RF_HAVOC_CHOICE_CHANGE_BYTE ? RF_MUT_CHANGE_BYTE
               : choice == RF_MUT_INSERT && repeated ? RF_MUT_INSERT_REPEATED
                                                     : choice;

  // A stream chunk or the input-to-state write replaces the havoc step.
  value = stream ? stream_value : (cmp ? cmp_value : value);
  at = stream ? rf_stream_at : (cmp ? cmp_at : at);
  width = stream ? chunk : (cmp ? cmp_width : width);
  gap_up = stream ? rf_stream_insert : (cmp ? false : gap_up);
  gap = stream ? (rf_stream_insert ? chunk : 0u) : (cmp ? 0u : gap);
  gap_at = stream ? rf_stream_at : gap_at;
  new_len = stream || cmp ? len : new_len;
  rf_last_mutator = stream ? (rf_stream_dict ? RF_MUT_DICT : RF_MUT_SPLICE)
                  : (cmp ? RF_MUT_CMP : mutator);

  // Write.
  rf_shift(gap_at, gap, gap_up);
  rf_poke(at, width, value);
#ifndef RF_HAVOC_ONLY
  rf_stream_left -= chunk;
  rf_stream_at += chunk;
  rf_stream_from += chunk;
#endif
  return new_len;
}

#ifdef RF_HAVOC_ONLY
// Havoc-only build: one havoc step (TRIM: one erase), the same draws as the
// full build's rf_mutate makes for those kinds; DICT, SPLICE and CMP slots
// run havoc. Returns the length.
uint rf_mutate(uint opcode, uint len, uint partner) {
  uint n = opcode == RF_OP_REPLAY || opcode == RF_OP_CALIBRATE ? 0u : 1u;
  rf_last_mutator = RF_MUT_NONE;
  for (uint k = 0u; k < n; ++k) {
    uint choice = opcode == RF_OP_TRIM ? RF_MUT_ERASE : rf_below_wide(RF_HAVOC_CHOICES);
    len = rf_flat_step(len, choice, 0u, 0u, 0u);
  }
  rf_steps += n;
  return len;
}
#else

// Applies one mutation of the work kind to the loaded input (a havoc step
// for HAVOC, and for DICT without a dictionary; a stream write takes as
// many micro-steps as it has 4-byte chunks); replays and calibrations leave
// it as is. Stacks are chains of calls (rf_run_slot). Sets rf_last_mutator
// (the kind's mutator for a SPLICE or DICT stream of no chunks, which leaves
// the input as is). Returns the length.
uint rf_mutate(uint opcode, uint len, uint partner) {
  bool replay = opcode == RF_OP_REPLAY || opcode == RF_OP_CALIBRATE;
  uint n = replay ? 0u : 1u;
  rf_last_mutator = opcode == RF_OP_SPLICE ? RF_MUT_SPLICE
                  : opcode == RF_OP_DICT ? RF_MUT_DICT
                                         : RF_MUT_NONE;
  rf_stream_left = 0u;
  rf_stream_dict = false;
  rf_stream_base = 0u;
  rf_stream_from = 0u;
  rf_stream_at = 0u;
  rf_stream_insert = false;
  uint stream_len = len;
  if (opcode == RF_OP_DICT && rf_pc.dict_count != 0u) {
    stream_len = rf_stream_dict_setup(len);
  } else if (opcode == RF_OP_SPLICE) {
    stream_len = rf_stream_splice_setup(len, partner);
  }
  uint cmp_at = 0u;
  uint cmp_width = 0u;
  uint cmp_value = 0u;
  if (opcode == RF_OP_CMP) {
    uint width;
    uint value;
    uint at;
    if (rf_cmp_patch(len, at, width, value)) {
      cmp_at = at;
      cmp_width = width;
      cmp_value = value;
    }
  }
  // The stream's chunks take the place of the first mutation step (as many
  // micro-steps as it has 4-byte chunks); the input-to-state write replaces
  // the first havoc step.
  uint extra = (rf_stream_left + 3u) >> 2u;
  n -= opcode == RF_OP_SPLICE || (opcode == RF_OP_DICT && rf_pc.dict_count != 0u) ? 1u : 0u;
  bool had_stream = extra != 0u;
  for (uint k = 0u; k < n + extra; ++k) {
    uint choice = opcode == RF_OP_TRIM ? RF_MUT_ERASE : rf_below_wide(RF_HAVOC_CHOICES);
    len = rf_flat_step(len, choice, cmp_at, cmp_width, cmp_value);
    cmp_width = 0u;
    if (had_stream && rf_stream_left == 0u) {
      len = stream_len;
      had_stream = false;
    }
  }
  rf_steps += n + extra;
  return len;
}
#endif  // RF_HAVOC_ONLY
