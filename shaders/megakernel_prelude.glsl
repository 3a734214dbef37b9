// Megakernel prelude: what the mutators, the target and the main loop build
// on, one concern per file, in this order:
//   megakernel_buffers.glsl            the buffers, push constants and the
//                                      per-execution private state
//   megakernel_runtime.glsl            the target dialect's runtime (fz_byte,
//                                      fz_crash) and control-word marking
//   megakernel_coverage_signature.glsl the signature build's coverage, or
//   megakernel_coverage_precise.glsl   the precise build's (see below)
//   megakernel_hooks.glsl              the hooks that the SPIR-V instrumenter
//                                      (fuzz/gpu/gpu_instrument.h) calls from
//                                      every target block, loop and compare
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

#include "megakernel_buffers.glsl"
#include "megakernel_runtime.glsl"

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
#include "megakernel_coverage_signature.glsl"
#else
#include "megakernel_coverage_precise.glsl"
#endif

#include "megakernel_hooks.glsl"
