// The ringfuzz target dialect: what a target file may rely on.
//
// A target is one source file that defines
//     void fz_target(uint len);
// and reads its input only through
//     uint fz_byte(uint i);      // byte i of the input, 0..255
//     void fz_crash(uint code);  // report a bug; the first report wins
// The same file compiles as GLSL (inside the megakernel, fuzzed on the GPU)
// and as C++ (the libFuzzer twin). This header makes both work; a target may
// include it explicitly ("#include \"ringfuzz.h\"") or rely on ringfuzz
// including it first. Reading fz_byte(i) with i >= len is itself a bug
// report (input overread) in both builds. See docs/dialect.md.
#ifndef RF_RINGFUZZ_H_
#define RF_RINGFUZZ_H_

#ifdef __cplusplus
#include <stdint.h>
typedef uint32_t uint;
// Provided by the twin runtime (fuzz/twin/twin_runtime.cc).
uint fz_byte(uint i);
void fz_crash(uint code);
void fz_target(uint len);

// The twin's loop budget, the C++ side of the GPU's rf_loop_hook: every
// visit of a loop header of the target costs one step of the execution's
// budget, and once it is spent every loop is left and the execution is a
// timeout ("timeout after <budget + 1> loop steps"), as on the GPU. Without
// it clang -O2 would delete a loop that never ends and has no side effects
// (C++'s forward-progress rule), and a hang would return at once.
// The runtime sets rf_twin_loop_left to the budget before each execution.
extern __thread uint32_t rf_twin_loop_left;
// Reports the timeout (the first report of an execution wins); returns
// false (or aborts, as other reports do). Defined by the runtime.
bool rf_twin_loop_exhausted(void);
// One loop step: true iff the loop may go on. Inline: a load, a decrement
// and a store per step, and an empty asm that hides the count from the
// optimiser, so that no loop is deleted or folded into a closed form.
static inline bool rf_twin_loop(void) {
  uint32_t left = rf_twin_loop_left;
  __asm__ volatile("" : "+r"(left));
  if (__builtin_expect(left != 0u, 1)) {
    rf_twin_loop_left = left - 1u;
    return true;
  }
  return rf_twin_loop_exhausted();
}

// Every loop of the target takes its steps through rf_twin_loop: `while`
// and `do ... while` before each test of the condition (as the GPU's loop
// header); `for` once on entry and once per iteration, i.e. also n + 1 for
// n iterations. The runtimes that include this header define
// RF_TWIN_RUNTIME: their own loops are not the target's.
#ifndef RF_TWIN_RUNTIME
// clang-format would put a space in `while(...)`, which would then no longer
// be a function-like macro.
// clang-format off
#define while(...) while (rf_twin_loop() && (__VA_ARGS__))
#define for(...)                                                  \
  for (bool rf_twin_entered_ = rf_twin_loop(); rf_twin_entered_; \
       rf_twin_entered_ = false)                                  \
    for (__VA_ARGS__)                                             \
      if (!rf_twin_loop()) break;                                 \
      else
// clang-format on
#endif
#endif
// In GLSL, fz_byte and fz_crash are defined by the megakernel prelude
// (shaders/megakernel_prelude.glsl) before the target is included.

#endif  // RF_RINGFUZZ_H_
