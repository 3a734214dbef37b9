// Megakernel main loop: each workgroup claims ring slots (PUBLISHED or
// REQUEUE -> CLAIMED), its invocations run the slot's mutants of the parent
// input in parallel, and invocation 0 completes the slot (DONE or FAULT) and
// updates the control counters of the wire protocol.
//
// A dispatch is bounded: an invocation stops taking mutants once its loop
// iterations (rf_steps) could exceed rf_pc.step_budget, and the workgroup stops
// claiming. Slots left PUBLISHED are claimed by the host's next dispatch.

shared uint rf_sh_slot;
shared uint rf_sh_execs;
shared uint rf_sh_finds;
shared uint rf_sh_steps;
shared uint rf_sh_fault;       // 0, or RF_FIND_* of the first fault
shared uint rf_sh_fault_code;
shared uint rf_sh_fault_aux;
shared uint rf_sh_out_of_budget;
shared uint rf_sh_resumed;  // the slot was claimed from REQUEUE
shared uint rf_sh_requeue;  // a lane ran out of loop budget with work left
shared uint rf_sh_reduced;  // the shortest RF_FIND_REDUCE length queued
shared uint rf_sh_cuts;     // mutants the slot's loop budget cut

// Set by rf_claim: the status the claimed slot had (PUBLISHED or REQUEUE).
uint rf_claimed_from;

// Word `word` of slot `slot`'s tail, after the slots in the ring buffer
// (RF_SLOT_TAIL_WORDS; the host sizes the ring: capacity *
// (RF_SLOT_WORDS + RF_SLOT_TAIL_WORDS(RF_LOCAL_SIZE)) words).
uint rf_tail_word(uint slot, uint word) {
  uint tail = RF_SLOT_TAIL_WORDS(RF_LOCAL_SIZE);
  uint capacity = uint(rf_ring.length()) / (RF_SLOT_WORDS + tail);
  return capacity * RF_SLOT_WORDS + slot * tail + word;
}

// The lane's next mutant when the slot was last left, so that a REQUEUE
// slot resumes where each lane stopped.
uint rf_progress_word(uint slot, uint lane) { return rf_tail_word(slot, lane); }

// Whether the last rf_execute was cut by the slot's mutant loop budget.
bool rf_cut;

// Runs the target once on rf_in[0, len).
void rf_execute(uint len) {
  rf_coverage_reset();
  rf_len = len;
  rf_fault_kind = 0u;
  rf_fault_code = 0u;
  rf_fault_aux = 0u;
  rf_fault_site = 0u;
  rf_prev = 0u;
  rf_new_bits = 0u;
  rf_first_new = 0u;
  rf_exec_steps = 0u;
  rf_oob_where = 0u;
  rf_oob_index = 0u;
  fz_target(len);
  // A cut execution is no fault: its coverage so far is judged as any.
  rf_cut = rf_fault_kind == RF_FIND_CUT;
  if (rf_cut) rf_fault_kind = 0u;
  // Overread: the input's length; timeout: the loop iterations it ran (the
  // budget + 1); crash: 0.
  rf_fault_aux = rf_fault_kind == RF_FIND_OVERREAD ? rf_len
               : rf_fault_kind == RF_FIND_TIMEOUT  ? rf_pc.exec_steps + 1u
                                                   : 0u;
  if (rf_oob_where != 0u) {
    // The host maps the bounds site to the array's length and location.
    rf_fault_kind = RF_FIND_OUT_OF_BOUNDS;
    rf_fault_code = rf_oob_index;
    rf_fault_aux = rf_oob_where - 1u;
    rf_fault_site = rf_oob_where - 1u;
  }
  // A crashing execution (crash, overread, out-of-bounds index) adds
  // nothing to the coverage maps, as AFL++ keeps crashes out of its virgin
  // map and libFuzzer's -fork merges only its corpus: the coverage the host
  // prints is the corpus's, which a restart on the corpus directory
  // recovers, and a later execution that reaches the same blocks without
  // the crash is a find. The marks made at the end of an execution
  // (deferred coverage, hit counts) are skipped; of those made as blocks
  // ran (the immediate precise build, value profile) the first bit the
  // execution set first is cleared again. A timeout keeps its coverage so
  // far: it is the device's loop budget running out, which -twin may clear
  // as no hang, and -merge keeps such an input for that coverage.
  if (rf_fault_kind == 0u || rf_fault_kind == RF_FIND_TIMEOUT) {
    rf_hit_features();
  } else {
    rf_unmark(rf_first_new);
    rf_new_bits = 0u;
  }
  rf_steps += rf_exec_steps + 1u;
}

// Appends the current input to the find queue, made from `parent` by the
// mutation sequence `mutations` (RF_MUT_SEQ_*). Returns 1 iff it was stored.
uint rf_push_find(uint kind, uint slot, uint parent, uint opcode, uint mutations) {
  uint index = atomicAdd(rf_ctrl[RF_RES_FIND_COUNT], 1u);
  if (index >= rf_pc.find_capacity) {
    atomicAdd(rf_ctrl[RF_RES_FIND_DROPPED], 1u);
    return 0u;
  }
  uint base = index * RF_FIND_WORDS(RF_MAX_WORDS);
  rf_finds[base + RF_FIND_KIND] = kind;
  rf_finds[base + RF_FIND_SLOT] = slot;
  rf_finds[base + RF_FIND_PARENT] = parent;
  rf_finds[base + RF_FIND_OPCODE] = opcode;
  rf_finds[base + RF_FIND_LEN] = rf_len;
  rf_finds[base + RF_FIND_CODE] = rf_fault_code;
  rf_finds[base + RF_FIND_AUX] = rf_fault_aux;
  rf_finds[base + RF_FIND_NEW_BITS] = rf_new_bits;
  rf_finds[base + RF_FIND_SITE] = rf_fault_site;
  rf_finds[base + RF_FIND_MUTATIONS] = mutations;
  uvec2 clock = rf_device_clock();
  rf_finds[base + RF_FIND_CLOCK_LO] = clock.x;
  rf_finds[base + RF_FIND_CLOCK_HI] = clock.y;
  uint words = (rf_len + 3u) >> 2u;
  for (uint w = 0u; w < words; ++w) {
    uint keep = (w + 1u) * 4u <= rf_len ? 0xFFFFFFFFu
                                        : (1u << ((rf_len & 3u) * 8u)) - 1u;
    rf_finds[base + RF_FIND_HEADER_WORDS + w] = rf_word(w) & keep;
  }
  rf_steps += words;
  return 1u;
}

// Lane 0: claims the next slot from the cursor, or returns RF_NO_SLOT.
uint rf_claim() {
  if (rf_ctrl[RF_CTRL_SHUTDOWN] != 0u || rf_ctrl[RF_RES_STOP] != 0u) return RF_NO_SLOT;
  // A round cut short (RF_CTRL_CUT_EPOCH) still runs its CRITICAL and HIGH
  // slots (service runs, new entries' first mutants): only the rest waits.
  bool cut = rf_ctrl[RF_CTRL_EPOCH] <= rf_ctrl[RF_CTRL_CUT_EPOCH];
  for (;;) {
    rf_steps += 1u;
    uint s = atomicAdd(rf_ctrl[RF_RES_CLAIM_CURSOR], 1u);
    if (s >= rf_pc.slot_count) return RF_NO_SLOT;
    uint base = s * RF_SLOT_WORDS;
    uint tenant = rf_ring[base + RF_SLOT_TENANT];
    if (tenant < RF_CTRL_TENANT_MASK_COUNT &&
        rf_ctrl[rf_ctrl[RF_CTRL_TENANT_BASE] + tenant] == 0u) {
      continue;  // tenant paused: leave the slot published
    }
    if (cut && rf_ring[base + RF_SLOT_PRIORITY] > RF_PRIORITY_HIGH) continue;
    uint seen = atomicCompSwap(rf_ring[base + RF_SLOT_STATUS], RF_STATUS_PUBLISHED,
                               RF_STATUS_CLAIMED);
    if (seen == RF_STATUS_REQUEUE) {
      seen = atomicCompSwap(rf_ring[base + RF_SLOT_STATUS], RF_STATUS_REQUEUE,
                            RF_STATUS_CLAIMED);
    }
    if (seen != RF_STATUS_PUBLISHED && seen != RF_STATUS_REQUEUE) continue;
    rf_claimed_from = seen;
    atomicAdd(rf_ctrl[RF_CTRL_TENANT_FAIRNESS + (tenant & 31u)], 1u);
    uint priority = rf_ring[base + RF_SLOT_PRIORITY];
    if (priority < RF_CTRL_PRIORITY_COUNT) {
      atomicAdd(rf_ctrl[RF_CTRL_PRIORITY_FAIRNESS + priority], 1u);
    }
    if (priority <= RF_PRIORITY_HIGH) {
      atomicAdd(rf_ctrl[RF_CTRL_STARVATION], 1u);
    } else {
      atomicExchange(rf_ctrl[RF_CTRL_STARVATION], 0u);
    }
    return s;
  }
  return RF_NO_SLOT;
}

// Mutants an invocation runs between two looks at the control words (stop,
// shutdown) and at the find queue. On SIMD back ends that predicate every
// branch (lavapipe), the code that queues finds costs its full size whenever
// it is reached, found or not; reaching it once per round instead of once
// per mutant keeps the common path (mutate, execute, one look-up in the seen
// table) free of it.
#define RF_ROUND_MUTANTS 16u

// Inputs in registers: the slot's parent is loaded once and copied per
// mutant; a CALIBRATE slot (one input per mutant) reloads its words.
#ifdef RF_INPUT_IN_REGISTERS
uint rf_parent_in[RF_MAX_WORDS];
uint rf_parent_len;

void rf_load_parent(uint index) {
  rf_parent_len = rf_load(index);
  [[unroll]] for (uint w = 0u; w < RF_MAX_WORDS; ++w) rf_parent_in[w] = rf_in[w];
}

// rf_load(source) for a slot whose parent rf_load_parent loaded; `reload`
// when source differs from it.
uint rf_load_mutant(uint source, bool reload) {
  [[unroll]] for (uint w = 0u; w < RF_MAX_WORDS; ++w) rf_in[w] = rf_parent_in[w];
  uint off = rf_corpus[2u * source];
  uint words = reload ? RF_MAX_WORDS : 0u;
  for (uint w = 0u; w < words; ++w) rf_put_word(w, rf_corpus[off + w]);
  rf_steps += words;
  return reload ? rf_corpus_len(source) : rf_parent_len;
}
#else
void rf_load_parent(uint index) {}

uint rf_load_mutant(uint source, bool reload) { return rf_load(source); }
#endif

// Queues the fault of the current execution (distinct faults once per run;
// replays always). Returns the number of finds stored (0 or 1).
uint rf_report_fault(uint slot, uint source, uint opcode, bool replay,
                     uint mutations) {
  uint key = rf_hash(rf_fault_kind * 0x9E3779B1u ^ rf_hash(rf_fault_code) ^
                     rf_fault_site * 0x85EBCA6Bu) & (RF_FAULT_SEEN_BITS - 1u);
  if (!replay && rf_mark(RF_RES_FAULT_SEEN + (key >> 5u), 1u << (key & 31u)) == 0u) {
    return 0u;
  }
  uint stored = rf_push_find(rf_fault_kind, slot, source, opcode, mutations);
  if (stored == 0u && !replay) {
    // The queue was full: forget the fault so that it is queued again.
    atomicAnd(rf_ctrl[RF_RES_FAULT_SEEN + (key >> 5u)], ~(1u << (key & 31u)));
  }
  return stored;
}

// Every invocation, at the end of a slot: adds its executions per last
// mutator (`uses`, indexed by RF_MUT_* id) to the counters
// RF_RES_MUTATOR_USES, one atomic per subgroup and mutator used. Executions
// without a mutation (RF_MUT_NONE) are not counted here.
void rf_count_mutator_uses(uint uses[RF_MUT_COUNT]) {
  [[unroll]] for (uint k = 0u; k < RF_MUT_COUNT; ++k) {
    uint total = subgroupAdd(uses[k]);
    if (total != 0u && subgroupElect()) {
      atomicAdd(rf_ctrl[RF_RES_MUTATOR_USES + k], total);
    }
  }
}

// Every invocation: runs its share of the slot's mutants, in rounds of up
// to RF_ROUND_MUTANTS. A round ends early at an execution that has
// something to queue (a fault, or coverage that may be new); it is queued
// between rounds.
void rf_run_slot(uint slot, uint lane) {
  uint base = slot * RF_SLOT_WORDS;
  uint args = base + RF_SLOT_ARG0;
  uint opcode = rf_ring[base + RF_SLOT_OPCODE];
  uint parent = rf_ring[args + RF_ARG_PARENT];
  uint count = rf_ring[args + RF_ARG_COUNT];
  uint seed = rf_ring[args + RF_ARG_SEED];
  uint partner = rf_ring[args + RF_ARG_PARTNER];
  uint stack_word = rf_ring[args + RF_ARG_STACK];
  uint stack = max(stack_word & RF_STACK_MASK, 1u);
  bool log = opcode == RF_OP_CMPLOG;
  // Mutant m of a CALIBRATE or CMPLOG slot is input parent + m, unmutated.
  bool calibrate = opcode == RF_OP_CALIBRATE || log;
  rf_exec_limit = rf_pc.exec_steps;
#ifdef RF_COVERAGE_SIGNATURE
  uint mutant_budget = stack_word >> RF_STACK_BUDGET_SHIFT;
  if (!calibrate && opcode != RF_OP_REPLAY && mutant_budget != 0u) {
    rf_exec_limit = min(mutant_budget, rf_pc.exec_steps);
  }
#endif
  bool replay = opcode == RF_OP_REPLAY || calibrate ||
                (rf_pc.flags & RF_PUSH_REPORT_ALL) != 0u;
  // A compare-log slot logs every input even after a fault (of a colored
  // copy of an input, see fuzz/gpu/colorization.h).
  bool keep_going = (rf_pc.flags & RF_PUSH_KEEP_GOING) != 0u || log;
  uint slot_hash = rf_hash(rf_pc.seed + slot);
  uint execs = 0u;
  uint faults = 0u;
  uint first_fault = 0u;
  uint first_fault_code = 0u;
  bool reported_fault = false;
  uint pushed = 0u;
  uint steps = 0u;  // target loop iterations of this lane's executions
  uint cuts = 0u;   // executions the mutant loop budget cut
  bool stop = false;
  // Mutants come in chains of `stack` (libFuzzer's mutation depth): the
  // first of a chain is the parent with one mutation of the slot's work kind,
  // each next one its predecessor with one more havoc mutation (TRIM: one
  // more erase; CMP: one more of the parent's patches). Mutant k of a lane
  // is at depth k % stack + 1, so depths 1..stack are equally common, and
  // the position in the chain is the same
  // in all lanes. Each execution pays for one mutation instead of a whole
  // stack (on SIMD back ends, the largest stack of its lanes).
  uint chain = calibrate || opcode == RF_OP_REPLAY ? 1u : stack;
  uint link = 0u;       // position of the lane's next mutant in its chain
  uint chain_len = 0u;  // length of the lane's previous mutant
  // The mutators of the lane's current mutant, its chain so far: a packed
  // mutation sequence (RF_MUT_SEQ_*, ringfuzz_mutators.h), in registers.
  uint mutations = RF_MUT_SEQ_EMPTY;
  // The lane's executions per last mutator (RF_MUT_*), in registers: each
  // mutant adds one with selects. Memory per mutant (a shared counter with
  // a lane-dependent address) would cost a SIMD back end a scalar loop over
  // the lanes, every mutant.
  uint uses[RF_MUT_COUNT];
  [[unroll]] for (uint k = 0u; k < RF_MUT_COUNT; ++k) uses[k] = 0u;
  rf_load_parent(parent);
  rf_slot_parent = parent;
  // A requeued slot goes on from each lane's next mutant.
  uint m = rf_sh_resumed != 0u ? rf_ring[rf_progress_word(slot, lane)] : lane;
#ifdef RF_COVERAGE_SIGNATURE
  // Input reduction (RF_PUSH_REDUCE): the lane's first mutant is the parent
  // itself, whose signature later mutants are compared with. A lane that
  // resumes a slot past its first mutant does not reduce.
  bool reduce = (rf_pc.flags & RF_PUSH_REDUCE) != 0u &&
                opcode == RF_OP_HAVOC &&
                rf_hash(slot_hash ^ 0x52454455u) % RF_REDUCE_SLOT_SHARE == 0u;
  bool reduce_known = false;  // parent_sig holds the parent's signature
  uint parent_sig = 0u;
  uint parent_len = 0u;
#endif
  bool out_of_budget = false;
  // A slot below HIGH priority stops at the round's cut (RF_CTRL_CUT_EPOCH)
  // as unclaimed ones do: a cut round ends within RF_ROUND_MUTANTS mutants
  // of each lane instead of at its slowest claimed slot. It ends DONE with
  // the mutants it ran (RF_ARG_EXECS below RF_ARG_COUNT).
  bool cuttable = rf_ring[base + RF_SLOT_PRIORITY] > RF_PRIORITY_HIGH;
  while (!stop && m < count) {
    if (rf_ctrl[RF_RES_STOP] != 0u) break;
    if (rf_ctrl[RF_CTRL_SHUTDOWN] != 0u) break;  // the host stops a stalled dispatch
    if (cuttable && rf_ctrl[RF_CTRL_EPOCH] <= rf_ctrl[RF_CTRL_CUT_EPOCH]) break;
    bool report = false;
    bool reduced = false;  // the execution to queue is a reduction
    uint source = parent;
    for (uint r = 0u; r < RF_ROUND_MUTANTS && m < count; ++r) {
      rf_steps += 1u;
      if (rf_steps + rf_pc.mutation_bound + rf_exec_limit + RF_MAX_WORDS +
              RF_DEFERRED_STEPS >
          rf_pc.step_budget) {
        rf_sh_out_of_budget = 1u;
        out_of_budget = true;
        stop = true;
        break;
      }
      rf_rng = rf_hash(seed ^ rf_hash(m ^ slot_hash));
      rf_rng_wide = rf_hash(seed ^ rf_hash((m - lane) ^ slot_hash));
      source = calibrate ? parent + m : parent;
#ifdef RF_COVERAGE_SIGNATURE
      bool parent_run = reduce && m == lane;
#else
      bool parent_run = false;
#endif
      bool chained = link != 0u;
      link = link + 1u >= chain ? 0u : link + 1u;
      uint len = chain_len;
      if (!chained) len = rf_load_mutant(source, calibrate);
      // A chain of a TRIM slot erases at every link, and one of a CMP slot
      // applies another of the parent's patches (comparisons joined by
      // `&&` need several at once); other chains add havoc steps.
      uint kind = calibrate ? RF_OP_CALIBRATE
                : parent_run ? RF_OP_REPLAY
                : chained && opcode != RF_OP_TRIM && opcode != RF_OP_CMP
                    ? RF_OP_HAVOC
                    : opcode;
      // A SPLICE mutant draws its own partner, any corpus input but the
      // parent (libFuzzer's CrossOver draws one per mutation): the mutants
      // of one slot cross the parent with many inputs, not one.
      uint with = partner;
      if (kind == RF_OP_SPLICE && rf_pc.corpus_count > 1u) {
        with = rf_below(rf_pc.corpus_count - 1u);
        with += with >= parent ? 1u : 0u;
      }
      len = rf_mutate(kind, len, with);
      chain_len = len;
      mutations = parent_run ? RF_MUT_SEQ_EMPTY
                  : ((chained ? mutations : RF_MUT_SEQ_EMPTY) << RF_MUT_BITS) |
                        rf_last_mutator;
      [[unroll]] for (uint k = 0u; k < RF_MUT_COUNT; ++k) {
        uses[k] += rf_last_mutator == k ? 1u : 0u;
      }
      // Compare operands are recorded by replays and 1 in 1024 executions:
      // every invocation writes the same table entries, so more would only
      // contend for them.
      rf_cmp_record = opcode == RF_OP_REPLAY || calibrate ||
                      (rf_rand() & 1023u) == 0u;
      rf_cmp_log = log ? (partner + m) * RF_CMPLOG_ENTRY_WORDS : RF_NO_LOG;
      rf_cmp_logged = 0u;
      rf_execute(len);
#ifndef RF_COVERAGE_SIGNATURE
      if (log) rf_cmplog[rf_cmp_log] = rf_cmp_logged;
#endif
      execs += 1u;
      cuts += rf_cut ? 1u : 0u;
      steps = min(steps, 0xFFFFFFFFu - rf_exec_steps) + rf_exec_steps;
#ifdef RF_COVERAGE_SIGNATURE
      // An unseen signature is a candidate (looked up with a plain load;
      // claimed with an atomic between rounds).
      uint sig = rf_signature();
      uint bit = sig & (RF_SEEN_BITS - 1u);
      bool interesting = (rf_ctrl[RF_RES_SEEN + (bit >> 5u)] & (1u << (bit & 31u))) == 0u;
      if (parent_run) {
        parent_sig = sig;
        parent_len = len;
        reduce_known = true;
        interesting = false;  // the parent: in the corpus already
      }
      reduced = reduce_known && !parent_run && sig == parent_sig &&
                len < parent_len && len < rf_sh_reduced;
      interesting = interesting || reduced;
#else
      bool interesting = rf_new_bits != 0u;
#endif
      if (rf_fault_kind != 0u || interesting) {
        report = true;
        break;
      }
      m += RF_LOCAL_SIZE;
    }
    if (!report) continue;
    // The execution of mutant m is still in rf_in/rf_len and rf_fault_*.
    m += RF_LOCAL_SIZE;
    if (rf_fault_kind != 0u) {
      // At most one fault queued per invocation and slot, but every input's
      // of a CALIBRATE or CMPLOG slot (an invocation may run several).
      if (!reported_fault || calibrate) {
        pushed += rf_report_fault(slot, source, opcode, replay, mutations);
        reported_fault = true;
      }
      faults += 1u;
      if (first_fault == 0u) {
        first_fault = rf_fault_kind;
        first_fault_code = rf_fault_code;
      }
      if (!keep_going) {
        atomicExchange(rf_ctrl[RF_RES_STOP], 1u);
        stop = true;
      }
      continue;
    }
#ifdef RF_COVERAGE_SIGNATURE
    // A reduction is queued when it is shorter than every one the slot
    // queued before; it marks nothing (a later, shorter one is queued too).
    if (reduced) {
      if (atomicMin(rf_sh_reduced, rf_len) > rf_len) {
        rf_new_bits = 0u;
        pushed += rf_push_find(RF_FIND_REDUCE, slot, source, opcode, mutations);
      }
      continue;
    }
    // A candidate that does not fit the find queue leaves its signature
    // unseen: a later execution with it is a candidate again.
    // It says how many (counter, class) pairs it visits first: the host
    // judges those candidates before new combinations of known pairs.
    // It carries its seen-table bit (+ 1) in RF_FIND_AUX: the host un-marks
    // the bit of a candidate it drops unjudged.
    uint bit = rf_signature() & (RF_SEEN_BITS - 1u);
    if (rf_mark(RF_RES_SEEN + (bit >> 5u), 1u << (bit & 31u)) != 0u) {
      rf_new_bits = rf_new_classes(false);
      rf_fault_aux = bit + 1u;
      uint stored =
          rf_push_find(RF_FIND_CANDIDATE, slot, source, opcode, mutations);
      if (stored == 0u) rf_unmark(RF_RES_SEEN * 32u + bit + 1u);
      if (stored != 0u && rf_new_bits != 0u) {
        rf_new_classes(true);
        if ((rf_pc.flags & RF_PUSH_CUT_ON_FIND) != 0u) {
          atomicMax(rf_ctrl[RF_CTRL_CUT_EPOCH], rf_ctrl[RF_CTRL_EPOCH]);
        }
      }
      pushed += stored;
    }
#else
    // A find that does not fit the find queue un-marks the first coverage
    // bit it set: a later execution that reaches it is a find again.
    uint stored =
        rf_push_find(RF_FIND_NEW_COVERAGE, slot, source, opcode, mutations);
    if (stored == 0u) rf_unmark(rf_first_new);
#ifdef RF_COVERAGE_DEFERRED
    if (stored == 0u) rf_forget_static_edges();
#endif
    pushed += stored;
#endif
  }
  if (first_fault != 0u) {
    atomicAdd(rf_ctrl[RF_RES_FAULTS], faults);
    if (atomicCompSwap(rf_sh_fault, 0u, first_fault) == 0u) {
      rf_sh_fault_code = first_fault_code;
      rf_sh_fault_aux = (first_fault << 24u) | lane;
    }
  }
  rf_count_mutator_uses(uses);
  atomicAdd(rf_sh_execs, execs);
  atomicAdd(rf_sh_finds, pushed);
  atomicAdd(rf_sh_steps, min(steps, 0xFFFFFFFFu / RF_LOCAL_SIZE));
  if (cuts != 0u) atomicAdd(rf_sh_cuts, cuts);
  // Where this lane stopped: the slot is requeued (not DONE) when a lane
  // ran out of loop budget before its last mutant, and resumes from here.
  rf_ring[rf_progress_word(slot, lane)] = m;
  if (out_of_budget && m < count) rf_sh_requeue = 1u;
}

// Lane 0: writes the slot's results, then its final status.
void rf_complete_slot(uint slot) {
  uint base = slot * RF_SLOT_WORDS;
  uint args = base + RF_SLOT_ARG0;
  // A resumed slot adds to what its earlier claims ran.
  bool resumed = rf_sh_resumed != 0u;
  rf_ring[args + RF_ARG_EXECS] =
      (resumed ? rf_ring[args + RF_ARG_EXECS] : 0u) + rf_sh_execs;
  rf_ring[args + RF_ARG_FINDS] =
      (resumed ? rf_ring[args + RF_ARG_FINDS] : 0u) + rf_sh_finds;
  rf_ring[args + RF_ARG_STEPS] =
      (resumed ? rf_ring[args + RF_ARG_STEPS] : 0u) + rf_sh_steps;
  // A slot that is not FAULT counts its cut mutants there instead.
  rf_ring[args + RF_ARG_FAULT_CODE] =
      rf_sh_fault != 0u ? rf_sh_fault_code
                        : (resumed ? rf_ring[args + RF_ARG_FAULT_CODE] : 0u) +
                              rf_sh_cuts;
  rf_ring[args + RF_ARG_FAULT_AUX] = rf_sh_fault_aux;
  atomicAdd(rf_ctrl[RF_RES_EXECS], rf_sh_execs);
  uint opcode = rf_ring[base + RF_SLOT_OPCODE];
  if (opcode < RF_CTRL_DISPATCH_COUNT) {
    atomicAdd(rf_ctrl[RF_CTRL_DISPATCH + opcode], 1u);
  }
  memoryBarrierBuffer();
  if (rf_sh_fault == 0u && rf_sh_requeue != 0u) {
    rf_ring[base + RF_SLOT_STATUS] = RF_STATUS_REQUEUE;
    return;
  }
  rf_ring[base + RF_SLOT_STATUS] = rf_sh_fault != 0u ? RF_STATUS_FAULT : RF_STATUS_DONE;
  atomicAdd(rf_ctrl[RF_CTRL_DONE_COUNT], 1u);
}

void main() {
  uint lane = gl_LocalInvocationID.x;
  rf_steps = 0u;
  rf_site = 0u;
  rf_exec_limit = rf_pc.exec_steps;
  if (lane == 0u) rf_sh_out_of_budget = 0u;
  // Keeps the instrumentation hooks in the module; never true at run time
  // (the host never sends an all-ones seed with an all-ones step budget).
  if (rf_pc.seed == 0xFFFFFFFFu && rf_pc.step_budget == 0xFFFFFFFFu) {
    rf_cov_hook();
    if (!rf_loop_hook()) rf_site = 1u;
    rf_site += rf_loc;
    rf_cmp_hook();
  }
  for (;;) {
    if (lane == 0u) {
      rf_claimed_from = RF_STATUS_PUBLISHED;
      rf_sh_slot = rf_sh_out_of_budget != 0u ? RF_NO_SLOT : rf_claim();
      rf_sh_resumed = rf_claimed_from == RF_STATUS_REQUEUE ? 1u : 0u;
      if (rf_sh_slot != RF_NO_SLOT && rf_sh_resumed == 0u) {
        uvec2 clock = rf_device_clock();
        rf_ring[rf_tail_word(rf_sh_slot, RF_TAIL_CLOCK_LO(RF_LOCAL_SIZE))] = clock.x;
        rf_ring[rf_tail_word(rf_sh_slot, RF_TAIL_CLOCK_HI(RF_LOCAL_SIZE))] = clock.y;
      }
      rf_sh_requeue = 0u;
      rf_sh_execs = 0u;
      rf_sh_finds = 0u;
      rf_sh_steps = 0u;
      rf_sh_cuts = 0u;
      rf_sh_fault = 0u;
      rf_sh_fault_code = 0u;
      rf_sh_fault_aux = 0u;
      rf_sh_reduced = 0xFFFFFFFFu;
    }
    barrier();
    uint slot = rf_sh_slot;
    if (slot == RF_NO_SLOT) break;
    rf_run_slot(slot, lane);
    barrier();
    if (lane == 0u) rf_complete_slot(slot);
    barrier();
  }
}
