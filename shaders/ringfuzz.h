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
#ifndef RINGFUZZ_H_
#define RINGFUZZ_H_

#ifdef __cplusplus
#include <stdint.h>
typedef uint32_t uint;
// Provided by the twin runtime (fuzz/twin/twin_runtime.cc).
uint fz_byte(uint i);
void fz_crash(uint code);
void fz_target(uint len);
#endif
// In GLSL, fz_byte and fz_crash are defined by the megakernel prelude
// (shaders/megakernel_prelude.glsl) before the target is included.

#endif  // RINGFUZZ_H_
