// Megakernel buffers (bindings RF_BINDING_* of ringfuzz_wire.h), the
// per-dispatch push constants, the device clock, and the private state of
// one execution. Part of the prelude (megakernel_prelude.glsl), which lists
// the compile-time parameters.
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
// The loop iterations an execution may run: rf_pc.exec_steps, or a slot's
// mutant loop budget below it (RF_ARG_STACK).
uint rf_exec_limit;
uint rf_steps;             // all loop iterations of this invocation
