// Compiler errors of a target, told in the target's terms.
//
// The megakernel (shaders/megakernel_*.glsl) is compiled with the target
// #included in the middle, so glslang's log mixes the target's own errors
// with what they cause inside ringfuzz's files: a target without
// fz_target fails in megakernel_main.glsl, and after any error glslang's
// recovery adds a spurious syntax error in the megakernel's main source.
// This turns that log into errors a target's author can act on.
#ifndef RINGFUZZ_FUZZ_GPU_TARGET_DIAGNOSTICS_H_
#define RINGFUZZ_FUZZ_GPU_TARGET_DIAGNOSTICS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace ringfuzz {

// The headers a target may #include (only the dialect's, which ringfuzz
// includes before the target anyway): a target is one file.
inline constexpr absl::string_view kTargetIncludes = "\"ringfuzz.h\"";

// Returns the InvalidArgument error for a target named `target_name` whose
// megakernel failed to compile with `compiler_message` (the message of
// vk::CompileComputeShader: glslang's "ERROR: <file>:<line>: <text>" lines).
//  * An #include the compiler could not resolve becomes
//    "ERROR: <target>:<line>: #include \"<name>\": no such file; ..." with
//    the line of the #include and the includes a target may use.
//  * Errors in the target's file are kept, each followed by a line
//    "  Fix: ..." where the dialect has a rule for it (a character or
//    string literal, a non-bool condition, an implicit int/uint
//    conversion, a GLSL keyword used as a name, an unknown type such as
//    char); what they cause in ringfuzz's own files is dropped.
//  * With no error in the target's file, a megakernel that finds no
//    fz_target is "<target> defines no `void fz_target(uint len)`; ...".
//  * Anything else (errors only inside ringfuzz's files) is kept verbatim
//    and said to be a ringfuzz bug unless a target name collides.
absl::Status TargetCompileError(const std::string& target_name,
                                absl::string_view compiler_message);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_TARGET_DIAGNOSTICS_H_
