#include "fuzz/gpu/target_limits.h"

#define SPV_ENABLE_UTILITY_CODE
#include <algorithm>
#include <map>
#include <spirv/unified1/spirv.hpp11>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fuzz/gpu/gpu_instrument.h"

namespace ringfuzz {
namespace {

constexpr size_t kHeaderWords = 5;

std::string Literal(absl::Span<const uint32_t> words) {
  std::string out;
  for (uint32_t word : words) {
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((word >> (8 * b)) & 0xFF);
      if (c == '\0') return out;
      out.push_back(c);
    }
  }
  return out;
}

// Where a variable is first used, or a loop starts.
struct Place {
  std::string function;  // source-level name; "" at global scope
  std::string file;
  uint32_t line = 0;
};

std::string Describe(const Place& place) {
  std::string out;
  if (!place.function.empty()) absl::StrAppend(&out, "in ", place.function);
  if (place.line != 0) {
    absl::StrAppend(&out, out.empty() ? "" : ", ", place.file, ":", place.line);
  }
  return out.empty() ? "" : absl::StrCat(" (", out, ")");
}

struct Variable {
  uint32_t id = 0;
  spv::StorageClass storage = spv::StorageClass::Private;
  uint64_t bytes = 0;
  Place place;
  bool placed = false;
};

struct UnrolledLoop {
  Place place;
  uint32_t condition = 0;  // of the first conditional branch after it
};

// One pass over the module: types, constants, names, variables with their
// first use, and the loops marked Unroll with the condition that ends them.
class Reader {
 public:
  explicit Reader(absl::Span<const uint32_t> spirv) : spirv_(spirv) {}

  bool Read() {
    if (spirv_.size() < kHeaderWords || spirv_[0] != spv::MagicNumber) {
      return false;
    }
    for (size_t pos = kHeaderWords; pos < spirv_.size();) {
      const uint32_t count = spirv_[pos] >> 16;
      if (count == 0 || pos + count > spirv_.size()) return false;
      Visit(static_cast<spv::Op>(spirv_[pos] & 0xFFFF),
            spirv_.subspan(pos, count));
      pos += count;
    }
    return true;
  }

  std::vector<Variable> variables;
  std::vector<UnrolledLoop> loops;
  std::map<uint32_t, uint64_t> constants;
  // A comparison's operands and whether it is signed, by its result id.
  struct Compare {
    uint32_t a = 0;
    uint32_t b = 0;
    bool is_signed = false;
  };
  std::map<uint32_t, Compare> compares;

  std::string Name(uint32_t id) const {
    auto it = names_.find(id);
    return it == names_.end() ? absl::StrCat("%", id) : it->second;
  }

 private:
  void Visit(spv::Op op, absl::Span<const uint32_t> w) {
    switch (op) {
      case spv::Op::OpName:
        names_[w[1]] = Literal(w.subspan(2));
        break;
      case spv::Op::OpString:
        strings_[w[1]] = Literal(w.subspan(2));
        break;
      case spv::Op::OpLine:
        line_ = {function_, strings_[w[1]], w[2]};
        break;
      case spv::Op::OpNoLine:
        line_ = {function_, "", 0};
        break;
      case spv::Op::OpTypeBool:
        sizes_[w[1]] = 4;
        break;
      case spv::Op::OpTypeInt:
      case spv::Op::OpTypeFloat:
        sizes_[w[1]] = w[2] / 8;
        break;
      case spv::Op::OpTypeVector:
      case spv::Op::OpTypeMatrix:
        sizes_[w[1]] = sizes_[w[2]] * w[3];
        break;
      case spv::Op::OpTypeArray:
        sizes_[w[1]] = sizes_[w[2]] * constants[w[3]];
        break;
      case spv::Op::OpTypeStruct: {
        uint64_t total = 0;
        for (uint32_t member : w.subspan(2)) total += sizes_[member];
        sizes_[w[1]] = total;
        break;
      }
      case spv::Op::OpTypePointer:
        pointee_[w[1]] = w[3];
        sizes_[w[1]] = 8;
        break;
      case spv::Op::OpConstant:
        constants[w[2]] = w[3];
        break;
      case spv::Op::OpFunction:
        function_ = names_[w[2]].substr(0, names_[w[2]].find('('));
        function_place_ = {function_, line_.file, line_.line};
        line_.function = function_;
        break;
      case spv::Op::OpFunctionEnd:
        function_.clear();
        line_ = {};
        break;
      case spv::Op::OpVariable: {
        const auto storage = static_cast<spv::StorageClass>(w[3]);
        if (storage == spv::StorageClass::Function ||
            storage == spv::StorageClass::Private ||
            storage == spv::StorageClass::Workgroup) {
          Variable v{w[2], storage, sizes_[pointee_[w[1]]], function_place_,
                     false};
          variable_index_[w[2]] = variables.size();
          variables.push_back(v);
        }
        break;
      }
      case spv::Op::OpLoad:
        Use(w[3]);
        break;
      case spv::Op::OpStore:
        Use(w[1]);
        break;
      case spv::Op::OpAccessChain:
      case spv::Op::OpInBoundsAccessChain:
        Use(w[3]);
        break;
      case spv::Op::OpLoopMerge:
        if ((w[3] & static_cast<uint32_t>(spv::LoopControlMask::Unroll)) &&
            IsTargetFunctionName(function_)) {
          loops.push_back({line_, 0});
          open_loop_ = true;
        }
        break;
      case spv::Op::OpBranchConditional:
        if (open_loop_) loops.back().condition = w[1];
        open_loop_ = false;
        break;
      case spv::Op::OpULessThan:
      case spv::Op::OpULessThanEqual:
      case spv::Op::OpUGreaterThan:
      case spv::Op::OpUGreaterThanEqual:
      case spv::Op::OpINotEqual:
        compares[w[2]] = {w[3], w[4], false};
        break;
      case spv::Op::OpSLessThan:
      case spv::Op::OpSLessThanEqual:
      case spv::Op::OpSGreaterThan:
      case spv::Op::OpSGreaterThanEqual:
        compares[w[2]] = {w[3], w[4], true};
        break;
      default:
        break;
    }
  }

  // The first use of a variable gives its place (a local's OpVariable
  // carries no line).
  void Use(uint32_t pointer) {
    auto it = variable_index_.find(pointer);
    if (it == variable_index_.end()) return;
    Variable& v = variables[it->second];
    if (v.placed || line_.line == 0) return;
    v.place = line_;
    v.placed = true;
  }

  absl::Span<const uint32_t> spirv_;
  std::map<uint32_t, std::string> names_;
  std::map<uint32_t, std::string> strings_;
  std::map<uint32_t, uint64_t> sizes_;
  std::map<uint32_t, uint32_t> pointee_;
  std::map<uint32_t, size_t> variable_index_;
  std::string function_;
  Place line_;
  Place function_place_;
  bool open_loop_ = false;
};

bool IsOwn(const Reader& reader, const Variable& v) {
  return reader.Name(v.id).rfind("rf_", 0) == 0;
}

std::string LargestPart(const Reader& reader, const Variable& largest) {
  return absl::StrCat("the largest part is `", reader.Name(largest.id), "`",
                      Describe(largest.place), ": ", largest.bytes, " bytes. ");
}

constexpr char kSmallerArray[] =
    "Make that array smaller: local arrays live in the private memory of "
    "every GPU lane (keep them to a few hundred words; see docs/dialect.md).";

// Checks the Function and Private variables against `limit`.
absl::Status CheckPrivateMemory(const Reader& reader,
                                const std::string& target_name,
                                uint64_t limit) {
  uint64_t total = 0;
  const Variable* largest = nullptr;
  for (const Variable& v : reader.variables) {
    if (v.storage == spv::StorageClass::Workgroup) continue;
    total += v.bytes;
    if (largest == nullptr || v.bytes > largest->bytes) largest = &v;
  }
  if (total <= limit) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "target '", target_name, "' needs ", total,
      " bytes of private memory per invocation, more than the ", limit,
      " that ringfuzz gives a device (lavapipe's compiler crashes on arrays "
      "of 256 KiB); ",
      LargestPart(reader, *largest),
      IsOwn(reader, *largest) ? "That is ringfuzz's own state: lower -max_len."
                              : kSmallerArray));
}

// Checks the Workgroup variables against `limits.shared_bytes`: the
// target's own get what the megakernel's leave.
absl::Status CheckSharedMemory(const Reader& reader,
                               const std::string& target_name,
                               const TargetLimits& limits) {
  uint64_t own = 0, target = 0;
  const Variable* largest = nullptr;  // of the target's
  for (const Variable& v : reader.variables) {
    if (v.storage != spv::StorageClass::Workgroup) continue;
    if (IsOwn(reader, v)) {
      own += v.bytes;
      continue;
    }
    target += v.bytes;
    if (largest == nullptr || v.bytes > largest->bytes) largest = &v;
  }
  const uint64_t limit = limits.shared_bytes;
  if (own + target <= limit) return absl::OkStatus();
  const uint64_t left = own < limit ? limit - own : 0;
  const std::string budget =
      absl::StrCat(limits.shared_source, " is ", limit,
                   " bytes, of which ringfuzz's ", "megakernel uses ", own);
  if (largest == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the megakernel of target '", target_name, "' needs ", own,
        " bytes of shared memory per workgroup, more than the device has (",
        budget, "); run on a device with more shared memory"));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "target '", target_name, "' needs ", target,
      " bytes of shared memory per workgroup, more than the ", left,
      " left to it (", budget, "); ", LargestPart(reader, *largest),
      "Make the target's shared arrays smaller, or run on a device with more "
      "shared memory (-device)."));
}

}  // namespace

absl::Status CheckTargetLimits(absl::Span<const uint32_t> spirv,
                               const std::string& target_name,
                               const TargetLimits& limits) {
  Reader reader(spirv);
  if (!reader.Read()) {
    return absl::InternalError(absl::StrCat(
        "the megakernel of '", target_name,
        "' is not a readable SPIR-V module (please report this ringfuzz bug)"));
  }
  for (const UnrolledLoop& loop : reader.loops) {
    auto compare = reader.compares.find(loop.condition);
    if (compare == reader.compares.end()) continue;
    // The constant the loop counter is compared with bounds its trip
    // count in the usual `for (i = 0; i < N; ++i)`, and in its reverse.
    const Reader::Compare& cmp = compare->second;
    uint64_t bound = 0;
    for (uint32_t operand : {cmp.a, cmp.b}) {
      auto c = reader.constants.find(operand);
      if (c == reader.constants.end()) continue;
      const int64_t value = static_cast<int32_t>(c->second);
      const uint64_t magnitude =
          cmp.is_signed ? static_cast<uint64_t>(value < 0 ? -value : value)
                        : c->second;
      bound = std::max(bound, magnitude);
    }
    if (bound <= limits.unroll_iterations) continue;
    return absl::InvalidArgumentError(absl::StrCat(
        "target '", target_name, "'", Describe(loop.place),
        ": an [[unroll]] loop bounded by ", bound, ", more than the ",
        limits.unroll_iterations,
        " iterations ringfuzz lets a driver unroll: the driver would compile "
        "its body ",
        bound,
        " times, for minutes and gigabytes. Remove [[unroll]] (the loop "
        "means the same) or bound it below ",
        limits.unroll_iterations, "."));
  }
  if (absl::Status s =
          CheckPrivateMemory(reader, target_name, limits.private_bytes);
      !s.ok()) {
    return s;
  }
  return CheckSharedMemory(reader, target_name, limits);
}

TargetLimits WithDeviceSharedMemory(TargetLimits limits,
                                    const std::string& device_name,
                                    uint64_t device_shared_bytes) {
  if (device_shared_bytes == 0) return limits;
  limits.shared_bytes = device_shared_bytes;
  limits.shared_source =
      absl::StrCat(device_name, "'s maxComputeSharedMemorySize");
  return limits;
}

}  // namespace ringfuzz
