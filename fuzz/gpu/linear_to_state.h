// Linear-to-state: comparisons of values the target computes from several
// input bytes with weights (a header's checksum, a field packed as
// in[5] + 251 * in[7] + 251 * 251 * in[9], a count times a record size,
// a stored sum against the sum of the bytes it covers). Such an operand
// never stands in the input, so input-to-state (fuzz/gpu/input_to_state.h)
// has nothing to write, and colorization (fuzz/gpu/colorization.h) finds
// no place where it is read.
//
// So a new corpus input is also run, beside its colored copies, as probe
// copies: the input with one of its first kLinearProbeBytes bytes moved by
// one. A probe that takes the input's path (fuzz/gpu/compare_log.h,
// SamePath) shows, for each comparison of the log, by how much the
// difference of its operands moves when that byte moves by one: its
// weight. Taking the difference as linear in the probed bytes, the bytes
// that make it zero (or +/-1, for an ordering) are solved for, largest
// weight first, within 0..255 each; each solution is one input to try, and
// so is each solution with the equalities it broke (a record's checksum)
// restored in other bytes.
// Where the difference is not linear (a CRC, a product of bytes), the
// trial just fails.
#ifndef RINGFUZZ_FUZZ_GPU_LINEAR_TO_STATE_H_
#define RINGFUZZ_FUZZ_GPU_LINEAR_TO_STATE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/gpu/colorization.h"
#include "fuzz/gpu/input_to_state.h"

namespace ringfuzz {

// The bytes probed: the first kLinearProbeBytes of an input (headers,
// where fields computed from several bytes usually are).
inline constexpr size_t kLinearProbeBytes = 32;

// The positions probed in an input of `length` bytes: 0 .. min(length,
// kLinearProbeBytes) - 1.
std::vector<uint32_t> LinearProbePositions(size_t length);

// Whether an input of `length` bytes needs its probe pass, given what its
// colored copies told (null where it had none): not where every byte
// LinearProbePositions names is plain (ColorEvidence::plain). No
// comparison of its path then reads a value computed from those bytes, so
// a probe could only move operands that stand in the input, which
// input-to-state writes. A pass is kLinearProbeBytes + 1 logged runs of
// the input: a target whose comparisons read its bytes as they stand (a
// bytecode interpreter's opcode checks) spends them on nothing.
bool LinearProbeWanted(size_t length, const ColorEvidence* color);

// `input` with byte `position` (< its length) moved by one: up by one, or
// down where it is 255.
std::vector<uint8_t> ProbeCopy(absl::Span<const uint8_t> input,
                               uint32_t position);

// A probe copy's run with its comparisons logged.
struct ProbeRun {
  uint32_t position = 0;                // the byte moved (ProbeCopy)
  absl::Span<const CompareRecord> log;  // the comparisons stored
  uint32_t made = 0;                    // the comparisons its run made
};

// The inputs to try for `input`, whose own run made `made` comparisons and
// stored `log`, from its probes' runs: for each comparison of the log (those
// whose operands differ first, the last of them first; then those whose
// operands are equal, in order) whose difference moved in some probe that took
// the input's whole path, the input with the probed bytes set so that the
// difference becomes 0, then +1 and -1 (where the weights allow); among bytes
// of equal weight, those that feed fewer of the log's comparisons first. Each
// such input is followed by one that also keeps the log's earlier equalities:
// where the bytes set move an earlier comparison whose operands were equal (a
// checksum over a record's type byte), other bytes that it reads are set so
// that it stays equal (modulo 256 between byte operands, as an 8-bit sum
// wraps), by the weights of the probes that took the path up to it at least (a
// probe that broke the checksum left the path there). Where the operand that
// moves is 1, 2 or 4 bytes of the input as they stand (weights 1, 256, ... in
// either byte order, and the operand equal to those bytes), input-to-state
// writes it already: then only the input that keeps an equality is tried. Also,
// where a byte operand of a comparison whose operands differ stands in the
// input at a byte that an earlier equality reads (whose probe broke that
// equality and so never reached the comparison: a record's type, checked after
// its checksum), the input with the other operand written there and the
// equality kept. At most `max_inputs`, distinct, none equal to `input`.
std::vector<std::vector<uint8_t>> DeriveLinearToState(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    uint32_t made, absl::Span<const ProbeRun> probes, size_t max_inputs);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_LINEAR_TO_STATE_H_
