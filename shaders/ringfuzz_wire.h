// The megakernel wire protocol: control-buffer words, ring-slot words,
// statuses, opcodes, and ringfuzz's result region.
//
// This header is included verbatim by GLSL (the megakernel) and by C++ (the
// host driver and the telemetry decoder). It must stay plain preprocessor:
// only #define of unsigned literals and of macros over them, no types, no
// includes. Every layout number lives here once; nothing else may restate it.
//
// All words are little-endian 32-bit unsigned integers.
// Reference: shared/spec/wire-protocol.md (layout of release 0.6.3 of the
// original runtime, kept word for word).
#ifndef RF_WIRE_H_
#define RF_WIRE_H_

// ---------------------------------------------------------------------------
// Control buffer. At least RF_CTRL_MIN_WORDS words; the result region starts
// at RF_CTRL_RESULT_BASE.
#define RF_CTRL_SHUTDOWN 0u            // non-zero: every lane leaves its loop
#define RF_CTRL_DONE_COUNT 1u          // +1 per slot the GPU drains
#define RF_CTRL_TENANT_BASE 2u         // word index of the tenant mask table
#define RF_CTRL_TENANT_MASKS 3u        // default value of word TENANT_BASE
#define RF_CTRL_TENANT_MASK_COUNT 29u  // words 3..31
#define RF_CTRL_TENANT_QUOTAS 32u      // 32 words, host-set budget per tenant
#define RF_CTRL_TENANT_FAIRNESS 64u    // 32 counters, tenant mod 32, +1/claim
#define RF_CTRL_TENANT_FAIRNESS_COUNT 32u
#define RF_CTRL_DISPATCH 96u  // +1 per executed slot, opcode < 32
#define RF_CTRL_DISPATCH_COUNT 32u
#define RF_CTRL_EPOCH 128u                // +1 per epoch / batch fence
#define RF_CTRL_PRIORITY_PARTITIONS 129u  // 6 words: starts of prio 0..4, total
#define RF_CTRL_PRIORITY_PARTITION_COUNT 6u
#define RF_CTRL_STARVATION 135u  // consecutive claims at priority <= HIGH
#define RF_CTRL_PRIORITY_FAIRNESS 136u  // 5 counters, one per priority
#define RF_CTRL_PRIORITY_COUNT 5u
// ringfuzz's extension in the reserved words 141..159: a round (dispatch)
// whose RF_CTRL_EPOCH is at most this word claims no more slots of priority
// below HIGH (CRITICAL and HIGH ones still run), and its claimed slots below
// HIGH stop within 16 mutants a lane (RF_ROUND_MUTANTS; DONE, with the
// executions they ran). The host
// cuts a queued round short with it when the round queued after holds more
// urgent work, and a round cuts itself on an urgent find
// (RF_PUSH_CUT_ON_FIND, atomicMax); epochs only grow, so 0 (the initial
// value) and any stale value leave later rounds alone.
#define RF_CTRL_CUT_EPOCH 141u
#define RF_CTRL_RESULT_BASE 160u
#define RF_CTRL_MIN_WORDS 160u
#define RF_CTRL_MIN_BYTES 640u

// ---------------------------------------------------------------------------
// Ring slot: 16 words (64 bytes).
#define RF_SLOT_WORDS 16u
#define RF_SLOT_BYTES 64u
#define RF_SLOT_STATUS 0u  // the compare-and-swap target
#define RF_SLOT_OPCODE 1u
#define RF_SLOT_TENANT 2u
#define RF_SLOT_PRIORITY 3u
#define RF_SLOT_ARG0 4u  // args 0..11 are words 4..15
#define RF_SLOT_ARG_COUNT 12u

// Ring buffer beyond the slots (ringfuzz's, never read by telemetry): a
// ring of C slots run by workgroups of L lanes holds C * RF_SLOT_WORDS slot
// words, then RF_SLOT_TAIL_WORDS(L) words per slot, slot s's at
// C * RF_SLOT_WORDS + s * RF_SLOT_TAIL_WORDS(L):
//   words 0 .. L-1   each lane's next mutant when the slot was last left
//                    (a REQUEUE slot resumes there);
//   RF_TAIL_CLOCK_LO(L), RF_TAIL_CLOCK_HI(L)
//                    the device clock when the slot was claimed from
//                    PUBLISHED (its first mutant's start); 0 without
//                    RF_DEVICE_CLOCK.
#define RF_SLOT_TAIL_WORDS(lanes) ((lanes) + 2u)
#define RF_TAIL_CLOCK_LO(lanes) (lanes)
#define RF_TAIL_CLOCK_HI(lanes) ((lanes) + 1u)

// Slot statuses. Any other value decodes as Unknown(raw).
#define RF_STATUS_EMPTY 0u
#define RF_STATUS_PUBLISHED 1u
#define RF_STATUS_CLAIMED 2u
#define RF_STATUS_DONE 3u
#define RF_STATUS_WAIT_IO 4u
#define RF_STATUS_YIELD 5u
#define RF_STATUS_REQUEUE 6u
#define RF_STATUS_FAULT 7u

// Slot priorities.
#define RF_PRIORITY_CRITICAL 0u
#define RF_PRIORITY_HIGH 1u
#define RF_PRIORITY_NORMAL 2u
#define RF_PRIORITY_LOW 3u
#define RF_PRIORITY_IDLE 4u

// Opcodes reserved by the original runtime.
#define RF_OP_NOP 0u
#define RF_OP_STORE_U32 1u
#define RF_OP_ATOMIC_ADD 2u
#define RF_OP_LOAD_U32 3u
#define RF_OP_COMPARE_SWAP 4u
#define RF_OP_MEMCPY 5u
#define RF_OP_DFA_STEP 6u
#define RF_OP_BATCH_FENCE 7u
#define RF_OP_SHUTDOWN 0xFFFFFFFFu

// ringfuzz work kinds (8..31, so the dispatch counters count them). Each is
// a mutation strategy applied to the slot's parent; every mutant is executed.
#define RF_OP_HAVOC 8u   // stacked byte-level mutations
#define RF_OP_SPLICE 9u  // crossover with a partner input, then havoc
#define RF_OP_DICT 10u   // dictionary insert/overwrite, then havoc
// RF_OP_CMP: input-to-state, a patch from the parent's own compare log
// (patch buffer), then havoc.
#define RF_OP_CMP 11u
#define RF_OP_REPLAY 12u  // run the parent unchanged (replay, calibrate)
#define RF_OP_TRIM 13u    // erase-only mutations (minimisation)
#define RF_OP_CALIBRATE \
  14u  // run inputs parent .. parent+count-1 unmutated,
       // with precise coverage (candidate evaluation)
// Run corpus inputs parent .. parent+count-1 unmutated on the precise build,
// input parent+k recording its own comparisons in compare-log entry
// partner+k (RF_ARG_PARTNER: the entry of the slot's first input).
#define RF_OP_CMPLOG 15u
#define RF_OP_FIRST_WORK 8u
#define RF_OP_LAST_WORK 15u

// Window class tags (arg1).
#define RF_CLASS_REQUIRED 0u
#define RF_CLASS_LOOKAHEAD 1u

// ringfuzz's meaning of the slot args. arg0/arg1 are the ticketed-window
// fields of the wire protocol; the GPU writes only
// RF_ARG_EXECS..RF_ARG_FAULT_AUX. RF_ARG_PARTNER is the splice partner
// only while the corpus holds fewer than two inputs (otherwise each SPLICE
// mutant draws its own, see corpus_count below); a CMPLOG slot's first
// compare-log entry.
#define RF_ARG_TICKET 0u       // parent batch this slot belongs to
#define RF_ARG_CLASS 1u        // RF_CLASS_*
#define RF_ARG_PARENT 2u       // corpus index of the parent input
#define RF_ARG_COUNT 3u        // mutants requested (executions)
#define RF_ARG_SEED 4u         // per-slot RNG seed
#define RF_ARG_PARTNER 5u      // splice partner; CMPLOG: first log entry
#define RF_ARG_STACK 6u        // stack | mutant loop budget (see below)
#define RF_ARG_EXECS 7u        // GPU: executions actually run
#define RF_ARG_FINDS 8u        // GPU: find-queue entries pushed
#define RF_ARG_STEPS 9u        // GPU: target loop iterations its executions ran
#define RF_ARG_FAULT_CODE 10u  // GPU: first fault's code, or cuts (below)
#define RF_ARG_FAULT_AUX 11u   // GPU: first fault's kind << 24 | lane
// RF_ARG_STACK: bits 0..7 are the most stacked mutations per mutant (>= 1);
// bits 8..31 the slot's mutant loop budget: in signature builds, a mutant
// of a work kind that mutates (not REPLAY, CALIBRATE or CMPLOG) stops at
// min(it, exec_steps) loop iterations, 0 meaning exec_steps. A mutant it
// stops is cut, not a timeout: it reports no fault, its signature so far
// may make it a candidate (whose precise re-run has the whole exec_steps),
// and RF_ARG_FAULT_CODE of a slot that is not FAULT counts such mutants.
#define RF_STACK_MASK 0xFFu
#define RF_STACK_BUDGET_SHIFT 8u
#define RF_STACK_BUDGET_MAX 0xFFFFFFu

// ---------------------------------------------------------------------------
// Result region (control words from RF_CTRL_RESULT_BASE).
#define RF_RES_EXECS (RF_CTRL_RESULT_BASE + 0u)         // executions this epoch
#define RF_RES_CLAIM_CURSOR (RF_CTRL_RESULT_BASE + 1u)  // next slot to claim
#define RF_RES_FIND_COUNT (RF_CTRL_RESULT_BASE + 2u)    // find-queue pushes
#define RF_RES_FIND_DROPPED (RF_CTRL_RESULT_BASE + 3u)  // pushes past capacity
#define RF_RES_FAULTS (RF_CTRL_RESULT_BASE + 4u)        // faults this epoch
#define RF_RES_STOP (RF_CTRL_RESULT_BASE + 5u)  // GPU-set: stop claiming work
// Header words 6..15 are reserved (0).
#define RF_RES_HEADER_WORDS 16u

// Edge map: one bit per hashed (previous block, block) pair.
#define RF_EDGE_MAP_BITS 65536u
#define RF_EDGE_MAP_WORDS 2048u
#define RF_RES_EDGE_MAP (RF_CTRL_RESULT_BASE + RF_RES_HEADER_WORDS)
// Site map: one bit per instrumented basic block (exact, no hashing).
#define RF_SITE_MAP_BITS 32768u
#define RF_SITE_MAP_WORDS 1024u
#define RF_RES_SITE_MAP (RF_RES_EDGE_MAP + RF_EDGE_MAP_WORDS)
// Seen-signature table (signature mode): one bit per hashed execution
// signature, the set of edges an execution took folded in registers.
#define RF_SEEN_BITS 1048576u
#define RF_SEEN_WORDS 32768u
#define RF_RES_SEEN (RF_RES_SITE_MAP + RF_SITE_MAP_WORDS)
// Compare table: the last operands (a, b) that a recording execution saw
// at each instrumented integer comparison of the target (entry =
// comparison index mod RF_CMP_ENTRIES), for the recommended dictionary.
// Entry i is RF_CMP_ENTRY_WORDS words at RF_RES_CMP + i * RF_CMP_ENTRY_WORDS:
// operand a, operand b, and RF_CMP_CHECK_OF(a, b). The three are plain
// stores, so executions recording into one entry at once may leave words of
// different executions there; the host keeps an entry only if its check
// word is the check of its operands. The check, a * RF_CMP_CHECK_MUL ^ b ^
// RF_CMP_CHECK_SALT, is one-to-one in a for a fixed b and in b for a fixed
// a: an entry mixing two executions (two of its words from one, the third
// from another that stored a different value there) always fails it; one
// mixing three executions passes only by coincidence. An entry never
// written (all zeros) fails it too (the salt).
#define RF_CMP_ENTRIES 1024u
#define RF_CMP_ENTRY_WORDS 3u
#define RF_CMP_A 0u
#define RF_CMP_B 1u
#define RF_CMP_CHECK 2u
#define RF_CMP_CHECK_MUL 0x9E3779B1u
#define RF_CMP_CHECK_SALT 0x5BD1E995u
// One multiply (odd, so a bijection) and two xors, kept cheap because the
// megakernel inlines it at every compare site: an entry mixed from two
// executions i and j fails it unless its a and b are one execution's pair
// (a_i * M ^ b_j = a_i * M ^ b_i only if b_j = b_i; = a_j * M ^ b_j only if
// a_i = a_j). A mix of three executions passes only by coincidence.
#define RF_CMP_CHECK_OF(a, b) (((a)*RF_CMP_CHECK_MUL) ^ (b) ^ RF_CMP_CHECK_SALT)
#define RF_RES_CMP (RF_RES_SEEN + RF_SEEN_WORDS)
// Fault-seen table: one bit per hashed (kind, code, location) of a fault, so
// that a bug hit by many invocations (-keep_going) is queued once, not once
// per invocation. Replays always report.
#define RF_FAULT_SEEN_BITS 4096u
#define RF_FAULT_SEEN_WORDS 128u
#define RF_RES_FAULT_SEEN (RF_RES_CMP + RF_CMP_ENTRY_WORDS * RF_CMP_ENTRIES)
// Per-mutator execution counters: word m (one per id m of
// shaders/ringfuzz_mutators.h, words past its RF_MUT_COUNT reserved) += the
// executions whose last mutation was mutator m, added by each subgroup as
// it finishes a slot. The host reads and clears them after each dispatch.
#define RF_RES_MUTATOR_USES (RF_RES_FAULT_SEEN + RF_FAULT_SEEN_WORDS)
#define RF_RES_MUTATOR_USE_WORDS 16u
// Static edges known to be in the edge map (deferred coverage: the
// precise build on CPU devices, fuzz/gpu/gpu_static_edges.h): bit j is set
// once static edge j's edge-map bit is, so that an execution marks only the
// edges it takes first. Cleared with the maps; a subset of what the edge map
// says.
#define RF_STATIC_EDGE_WORDS 32u
#define RF_RES_STATIC_EDGES (RF_RES_MUTATOR_USES + RF_RES_MUTATOR_USE_WORDS)
// Hit-count classes seen by candidates (signature mode): byte b of word k
// is the signature build's folded block counter 4k + b, and its bit c is
// set once a candidate visited that counter's blocks with hit-count class
// c (0..7 for 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+ visits). A candidate
// carries in RF_FIND_NEW_BITS how many (counter, class) pairs it was the
// first to visit: 0 for a new combination of known ones, which the host
// judges after the others. Cleared with the maps.
#define RF_SIG_CLASS_WORDS RF_SIG_MAX_COUNT_WORDS
#define RF_RES_SIG_CLASSES (RF_RES_STATIC_EDGES + RF_STATIC_EDGE_WORDS)
#define RF_RES_END (RF_RES_SIG_CLASSES + RF_SIG_CLASS_WORDS)
#define RF_CTRL_WORDS RF_RES_END

// ---------------------------------------------------------------------------
// Find queue (its own buffer). Entry i starts at word i * RF_FIND_WORDS(mw)
// where mw = max_len / 4 words of input; the header is RF_FIND_HEADER_WORDS.
#define RF_FIND_KIND 0u    // RF_FIND_*
#define RF_FIND_SLOT 1u    // ring slot that produced it
#define RF_FIND_PARENT 2u  // corpus index of the parent
#define RF_FIND_OPCODE 3u  // work kind that produced it
#define RF_FIND_LEN 4u     // input length in bytes
#define RF_FIND_CODE 5u    // fz_crash code; overread/out-of-bounds: index
// AUX: overread: the input length; out-of-bounds: the bounds site (host:
// the array's length); timeout: loop steps; candidate: the bit of the seen
// table (RF_RES_SEEN) it marked, plus 1.
#define RF_FIND_AUX 6u
#define RF_FIND_NEW_BITS 7u  // coverage bits this input set first
// SITE: the source location index of a fault (rf_loc); out-of-bounds: the
// bounds site.
#define RF_FIND_SITE 8u
// MUTATIONS: the mutator ids (shaders/ringfuzz_mutators.h) that made the
// input from its parent, as one packed mutation sequence (RF_MUT_SEQ_*);
// RF_MUT_SEQ_EMPTY for unmutated inputs (replays, calibrations).
#define RF_FIND_MUTATIONS 9u
// CLOCK_LO/HI: the device clock (GL_EXT_shader_realtime_clock, in the
// device's own ticks) when the execution ended; 0 where the megakernel was
// built without it (RF_DEVICE_CLOCK).
#define RF_FIND_CLOCK_LO 10u
#define RF_FIND_CLOCK_HI 11u
#define RF_FIND_HEADER_WORDS 12u
#define RF_FIND_WORDS(max_words) (RF_FIND_HEADER_WORDS + (max_words))

#define RF_FIND_NEW_COVERAGE 1u
#define RF_FIND_CRASH 2u     // fz_crash(code)
#define RF_FIND_OVERREAD 3u  // fz_byte(i) with i >= len
#define RF_FIND_TIMEOUT 4u   // loop budget exhausted; AUX = steps
#define RF_FIND_CANDIDATE \
  5u                              // signature mode: unseen execution signature,
                                  // to be run again with precise coverage
#define RF_FIND_OUT_OF_BOUNDS 6u  // local array index >= its length
// Signature mode with RF_PUSH_REDUCE: an input with its parent's
// execution signature and fewer bytes (the parent's reduction, libFuzzer's
// REDUCE); NEW_BITS is 0.
#define RF_FIND_REDUCE 7u
// Never queued: the fault kind of an execution while its mutant loop budget
// (RF_ARG_STACK) has cut it, so that nothing after the cut is reported.
#define RF_FIND_CUT 15u

// ---------------------------------------------------------------------------
// Corpus buffer: RF_CORPUS_INDEX_WORDS(capacity) words of index, then data.
// Index entry i: word 2i = data offset in words (from buffer start), 2i+1 =
// length in bytes. Inputs are padded to whole words with zeros.
#define RF_CORPUS_INDEX_WORDS(capacity) (2u * (capacity))

// Dictionary buffer: entry i at i * RF_DICT_ENTRY_WORDS: word 0 = length in
// bytes (1..RF_DICT_MAX_BYTES), then the bytes packed little-endian.
#define RF_DICT_MAX_BYTES 64u
#define RF_DICT_ENTRY_WORDS 17u

// Compare-log buffer (RF_OP_CMPLOG): entry k at k * RF_CMPLOG_ENTRY_WORDS.
// Word 0 = the comparisons the execution made, then RF_CMPLOG_RECORDS
// records of 3 words: the compare site (the instrumentation's comparison
// index), operand a, operand b. A switch records (selector, nearest case).
// Comparison n (from 0) is stored in record RF_CMPLOG_SLOT(n): the first
// RF_CMPLOG_HEAD in order, the later ones in a ring of the rest, so that a
// run that makes more than RF_CMPLOG_RECORDS keeps its first and its last
// comparisons (a parser's checks often come after long loops over the
// input).
#define RF_CMPLOG_RECORDS 128u
#define RF_CMPLOG_HEAD 64u  // RF_CMPLOG_RECORDS - RF_CMPLOG_HEAD: a power of 2
#define RF_CMPLOG_SLOT(n)                         \
  ((n) < RF_CMPLOG_RECORDS                        \
       ? (n)                                      \
       : RF_CMPLOG_HEAD + (((n)-RF_CMPLOG_HEAD) & \
                           (RF_CMPLOG_RECORDS - RF_CMPLOG_HEAD - 1u)))
#define RF_CMPLOG_RECORD_WORDS 3u
#define RF_CMPLOG_ENTRY_WORDS (1u + RF_CMPLOG_RECORDS * RF_CMPLOG_RECORD_WORDS)

// Patch buffer: the input-to-state patches of each corpus input, derived on
// the host from its own compare log (RF_OP_CMP applies them). Index entry i:
// word 2i = offset of input i's first patch in words (from buffer start),
// 2i+1 = its patch count. A patch is RF_PATCH_WORDS words: its head
// RF_PATCH_HEAD(position, width) (width 1..4 bytes), then the bytes to
// write there, little-endian packed.
#define RF_PATCH_INDEX_WORDS(capacity) (2u * (capacity))
#define RF_PATCH_WORDS 2u
#define RF_PATCH_HEAD(position, width) (((position) << 8u) | (width))
#define RF_PATCH_POSITION(head) ((head) >> 8u)
#define RF_PATCH_WIDTH(head) ((head)&0xFFu)

// ---------------------------------------------------------------------------
// Push constants of a megakernel dispatch: one 32-bit word per field, in
// this order. RF_PUSH_FIELDS(F) expands F(name) for each; both the GLSL
// block RF_Push (megakernel_prelude.glsl) and the host's MegakernelPush
// (fuzz/gpu/gpu_megakernel.h) are declared from it.
//   seed            batch seed (mixed into every mutant's RNG)
//   slot_count      ring slots in this dispatch's ring
//   find_capacity   entries the find buffer holds
//   dict_count      dictionary entries
//   step_budget     loop iterations one invocation may run per dispatch
//   exec_steps      target loop iterations one execution may run
//   max_len         runtime input length cap (<= RF_MAX_LEN)
//   mutation_bound  worst-case loop iterations of loading and mutating one
//                   mutant
//   flags           RF_PUSH_*
//   cmp_sites       instrumented comparisons of the target
//   corpus_count    corpus inputs (corpus-buffer entries 0 .. corpus_count-1);
//                   each SPLICE mutant draws its partner among them
// clang-format off
#define RF_PUSH_FIELDS(F)                                                   \
  F(seed) F(slot_count) F(find_capacity) F(dict_count) F(step_budget)       \
  F(exec_steps) F(max_len) F(mutation_bound) F(flags) F(cmp_sites)        \
  F(corpus_count)
// clang-format on
#define RF_PUSH_WORDS 11u

// Inputs of up to RF_REGISTER_WORDS words live in registers in the
// megakernel, and only those the flat mutation engine handles. A plain
// number: the prelude tests it with #if.
#define RF_REGISTER_WORDS 64
// Signature build: words of per-block visit counters at most (the host
// picks 1..this many from the target's block hooks).
#define RF_SIG_MAX_COUNT_WORDS 32u

// Push-constant flags of the megakernel (rf_pc.flags).
#define RF_PUSH_KEEP_GOING 1u  // a fault does not stop the dispatch
#define RF_PUSH_REPORT_ALL 2u  // queue every fault, even one seen before
// The signature build: a candidate with new (counter, hit-count class)
// pairs raises RF_CTRL_CUT_EPOCH to this dispatch's epoch, so the dispatch
// claims no more slots below HIGH priority and its finds reach the host
// sooner.
#define RF_PUSH_CUT_ON_FIND 4u
// The signature build reduces inputs (RF_FIND_REDUCE): in one HAVOC slot
// of RF_REDUCE_SLOT_SHARE, each lane runs the parent unmutated as its
// first mutant, and a later mutant with the parent's signature and fewer
// bytes than any the slot queued before is queued.
#define RF_PUSH_REDUCE 8u
#define RF_REDUCE_SLOT_SHARE 8u

// Descriptor bindings of the megakernel (set 0).
#define RF_BINDING_CONTROL 0
#define RF_BINDING_RING 1
#define RF_BINDING_CORPUS 2
#define RF_BINDING_FINDS 3
#define RF_BINDING_DICT 4
#define RF_BINDING_CMPLOG 5
#define RF_BINDING_PATCHES 6
#define RF_BINDING_COUNT 7

#endif  // RF_WIRE_H_
