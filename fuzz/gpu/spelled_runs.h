// Numbers that runs of an input's bytes spell in some encoding (decimal or
// hex text, LEB128 varints), and the trials that rewrite such a run with a
// number the input's own comparisons name.
//
// A parser compares the number it decoded, not the bytes that encode it,
// so input-to-state (fuzz/gpu/input_to_state.h) finds no operand in the
// input. Where a run decodes to one operand x of a logged comparison, the
// input with the run re-encoded as the other operand y, and as y - 1 and
// y + 1 (one of them decides any of ==, !=, <, <=, >, >=), is a trial. The
// run's length may change, so each trial is a new input tried once after
// the log (as the lengths of fuzz/gpu/length_to_state.h), not a patch.
// The encodings are in fuzz/gpu/text_to_state.h and
// fuzz/gpu/varint_to_state.h.
#ifndef RINGFUZZ_FUZZ_GPU_SPELLED_RUNS_H_
#define RINGFUZZ_FUZZ_GPU_SPELLED_RUNS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/types/span.h"
#include "fuzz/gpu/input_to_state.h"

namespace ringfuzz {

// Bytes [begin, end) of an input, spelling `value`.
struct SpelledRun {
  size_t begin = 0;
  size_t end = 0;
  uint32_t value = 0;
  // Runs of one symbol come after the others: a one-digit run is as often
  // a loop index or a version digit that some comparison happens to equal.
  bool short_run = false;
  // What the encoding needs to spell another value in the run's style
  // (sign, letter case, width); its own meaning per encoding.
  uint32_t style = 0;
};

// How an encoding spells `value` in the style of `run`, or nullopt where
// the run should not be rewritten with `value` (no trial).
using SpellFn = absl::FunctionRef<std::optional<std::string>(
    const SpelledRun& run, uint32_t value)>;

// Returns the inputs to try for `input` from `log` (its own comparisons, in
// execution order) and the runs it spells (`runs`, in the order they are
// preferred): first for the runs that are not short, then for the short
// ones, for each record in log order and each operand x (the other y != x),
// each run spelling x replaced by spell(run, y), spell(run, y - 1) and
// spell(run, y + 1), where the spelling is not nullopt. Inputs longer than
// `max_len`, equal to `input`, or already returned are left out; at most
// `max_inputs`.
std::vector<std::vector<uint8_t>> RewriteSpelledRuns(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    absl::Span<const SpelledRun> runs, SpellFn spell, size_t max_len,
    size_t max_inputs);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_SPELLED_RUNS_H_
