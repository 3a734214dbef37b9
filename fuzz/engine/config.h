// The fuzzer's configuration: one field per flag of fuzz/engine/flags.def, with
// the flag's default, and the fields below that tools derive from the flags.
// Engine code reads it as `const Config&`; tests set fields directly instead
// of building command lines.
#ifndef RINGFUZZ_FUZZ_ENGINE_CONFIG_H_
#define RINGFUZZ_FUZZ_ENGINE_CONFIG_H_

#include <cstdint>
#include <string>

namespace ringfuzz {

// Largest -max_len: 128 KiB, 32768 words of input per GPU invocation. The
// megakernel keeps the input in a private array of max_len / 4 words (the
// largest that lavapipe's compiler was seen to build is 32768 words; 65536
// crash it), and a GPU's find queue holds 16384 inputs of max_len bytes in
// one storage buffer, which Vulkan caps at 4 GiB. A device may hold less: the
// executor then refuses the length with an error naming -max_len.
inline constexpr int64_t kMaxLenLimit = 131072;

// -repeat_trials: never, once coverage stalls (the default: after
// Engine::kRepeatQuietTime without a new input), from the start.
inline constexpr int64_t kRepeatTrialsOff = 0;
inline constexpr int64_t kRepeatTrialsAfterStall = 1;
inline constexpr int64_t kRepeatTrialsOn = 2;

// The -repeat_trials of an executor built because coverage stalled
// (-auto_value_profile, -auto_max_len): on where they were due then.
inline int64_t RepeatTrialsAfterStall(int64_t flag) {
  return flag == kRepeatTrialsAfterStall ? kRepeatTrialsOn : flag;
}

struct Config {
#define RF_FLAG_INT(name, default_value, min, max, help) \
  int64_t name = default_value;
#define RF_FLAG_UINT64(name, default_value, help) uint64_t name = default_value;
#define RF_FLAG_BOOL(name, default_value, help) bool name = default_value;
#define RF_FLAG_STRING(name, default_value, help) \
  std::string name = default_value;
#include "fuzz/engine/flags.def"
#undef RF_FLAG_INT
#undef RF_FLAG_UINT64
#undef RF_FLAG_BOOL
#undef RF_FLAG_STRING

  // Not a flag: true iff the engine sizes the mutants per slot by time
  // (-round_ms) because the user left -slot_execs automatic. Set by the
  // executor factory, which replaces slot_execs == 0 by the device's
  // preferred value (then the ceiling of the sizing) and so is the last to
  // know; false (fixed batches) for configs built any other way, e.g. in
  // tests.
  bool adaptive_rounds = false;
  // Not a flag: true iff the executor factory chose -round_ms for rounds
  // that overlap on a GPU (the user left it automatic): the engine may
  // lengthen them while the executor's off-pace batches (precise flights)
  // last long (Engine, kRoundsPerPreciseFlight). False elsewhere.
  bool paced_rounds = false;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_CONFIG_H_
