#include "fuzz/gpu_instrument.h"

#include <spirv/unified1/spirv.hpp11>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

constexpr size_t kHeaderWords = 5;

struct Inst {
  spv::Op op;
  std::vector<uint32_t> words;  // including the leading word
};

Inst Make(spv::Op op, std::vector<uint32_t> operands) {
  Inst inst{op, {}};
  inst.words.reserve(operands.size() + 1);
  inst.words.push_back(static_cast<uint32_t>((operands.size() + 1) << 16) |
                       static_cast<uint32_t>(op));
  inst.words.insert(inst.words.end(), operands.begin(), operands.end());
  return inst;
}

// Decodes a literal string operand starting at word `first`.
std::string LiteralString(const std::vector<uint32_t>& words, size_t first) {
  std::string out;
  for (size_t w = first; w < words.size(); ++w) {
    for (int b = 0; b < 4; ++b) {
      char c = static_cast<char>((words[w] >> (8 * b)) & 0xFF);
      if (c == '\0') return out;
      out.push_back(c);
    }
  }
  return out;
}

// "parse(u1;i1;" -> "parse"
std::string SourceName(const std::string& mangled) {
  return mangled.substr(0, mangled.find('('));
}

bool IsTargetFunction(const std::string& name) {
  const std::string base = SourceName(name);
  return base != "main" && base != "fz_byte" && base != "fz_crash" &&
         !absl::StartsWith(base, "rf_");
}

class Instrumenter {
 public:
  Instrumenter(absl::Span<const uint32_t> spirv, const InstrumentOptions& options)
      : in_(spirv), options_(options) {}

  absl::StatusOr<InstrumentedModule> Run() {
    if (in_.size() < kHeaderWords || in_[0] != spv::MagicNumber) {
      return absl::InvalidArgumentError(
          "not a SPIR-V module (bad magic number); the shader compiler "
          "output is corrupt");
    }
    if (absl::Status s = Parse(); !s.ok()) return s;
    if (absl::Status s = Resolve(); !s.ok()) return s;
    if (absl::Status s = Rewrite(); !s.ok()) return s;
    return Emit();
  }

 private:
  absl::Status Parse() {
    size_t pos = kHeaderWords;
    while (pos < in_.size()) {
      uint32_t count = in_[pos] >> 16;
      if (count == 0 || pos + count > in_.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("malformed SPIR-V instruction at word ", pos));
      }
      Inst inst{static_cast<spv::Op>(in_[pos] & 0xFFFF),
                std::vector<uint32_t>(in_.begin() + pos,
                                      in_.begin() + pos + count)};
      insts_.push_back(std::move(inst));
      pos += count;
    }
    bound_ = in_[3];
    return absl::OkStatus();
  }

  absl::Status Resolve() {
    for (const Inst& inst : insts_) {
      const auto& w = inst.words;
      switch (inst.op) {
        case spv::Op::OpName:
          names_[w[1]] = LiteralString(w, 2);
          break;
        case spv::Op::OpString:
          strings_[w[1]] = LiteralString(w, 2);
          break;
        case spv::Op::OpTypePointer:
          pointee_[w[1]] = w[3];
          break;
        case spv::Op::OpVariable:
          var_type_[w[2]] = w[1];
          break;
        case spv::Op::OpFunction:
          fn_result_type_[w[2]] = w[1];
          break;
        default:
          break;
      }
    }
    for (const auto& [id, name] : names_) {
      if (name == "rf_site") site_var_ = id;
      if (absl::StartsWith(name, "rf_cov_hook(")) cov_hook_ = id;
      if (absl::StartsWith(name, "rf_loop_hook(")) loop_hook_ = id;
    }
    if (site_var_ == 0 || cov_hook_ == 0 || loop_hook_ == 0) {
      return absl::InvalidArgumentError(
          "the megakernel module lacks rf_site/rf_cov_hook/rf_loop_hook "
          "(compile with debug names; do not strip the module)");
    }
    uint_type_ = pointee_[var_type_[site_var_]];
    void_type_ = fn_result_type_[cov_hook_];
    bool_type_ = fn_result_type_[loop_hook_];
    if (uint_type_ == 0 || void_type_ == 0 || bool_type_ == 0) {
      return absl::InvalidArgumentError(
          "could not resolve the types of the instrumentation hooks");
    }
    return absl::OkStatus();
  }

  uint32_t NewId() { return bound_++; }

  uint32_t Constant(uint32_t value) {
    uint32_t id = NewId();
    constants_.push_back(Make(spv::Op::OpConstant, {uint_type_, id, value}));
    return id;
  }

  // Finds the block that starts at `label` in [begin, end).
  static bool BlockHasPhi(const std::vector<Inst>& fn, uint32_t label) {
    for (size_t i = 0; i < fn.size(); ++i) {
      if (fn[i].op == spv::Op::OpLabel && fn[i].words[1] == label) {
        for (size_t j = i + 1; j < fn.size(); ++j) {
          if (fn[j].op == spv::Op::OpPhi) return true;
          if (fn[j].op != spv::Op::OpLine && fn[j].op != spv::Op::OpNoLine) {
            return false;
          }
        }
      }
    }
    return false;
  }

  // Instruments one target function's instructions.
  absl::Status InstrumentFunction(std::vector<Inst>& fn,
                                  const std::string& fn_name) {
    std::vector<Inst> out;
    out.reserve(fn.size() * 2);
    std::string file;
    uint32_t line = 0;
    size_t i = 0;
    while (i < fn.size()) {
      if (fn[i].op == spv::Op::OpLine) {
        file = strings_[fn[i].words[1]];
        line = fn[i].words[2];
      }
      if (fn[i].op != spv::Op::OpLabel) {
        out.push_back(fn[i++]);
        continue;
      }
      // A block: copy the label, phis and variables, then insert the hook.
      size_t block_end = i + 1;
      while (block_end < fn.size() && fn[block_end].op != spv::Op::OpLabel &&
             fn[block_end].op != spv::Op::OpFunctionEnd) {
        ++block_end;
      }
      out.push_back(fn[i++]);
      while (i < block_end && (fn[i].op == spv::Op::OpPhi ||
                               fn[i].op == spv::Op::OpVariable ||
                               fn[i].op == spv::Op::OpLine ||
                               fn[i].op == spv::Op::OpNoLine)) {
        if (fn[i].op == spv::Op::OpLine) {
          file = strings_[fn[i].words[1]];
          line = fn[i].words[2];
        }
        out.push_back(fn[i++]);
      }
      // The block's own first line, if it has one later on.
      SiteLocation loc{SourceName(fn_name), file, line};
      for (size_t j = i; j < block_end; ++j) {
        if (fn[j].op == spv::Op::OpLine) {
          loc.file = strings_[fn[j].words[1]];
          loc.line = fn[j].words[2];
          break;
        }
      }
      const uint32_t site = static_cast<uint32_t>(sites_.size());
      if (site >= RF_SITE_MAP_BITS) {
        return absl::InvalidArgumentError(absl::StrCat(
            "the target has more than ", RF_SITE_MAP_BITS,
            " basic blocks; split it into smaller targets"));
      }
      sites_.push_back(loc);
      if (options_.coverage) {
        out.push_back(Make(spv::Op::OpStore,
                           {site_var_, Constant((site << 16) |
                                                SiteEdgeHash(site))}));
        out.push_back(Make(spv::Op::OpFunctionCall,
                           {void_type_, NewId(), cov_hook_}));
      }
      // Copy the rest of the block; guard loop headers.
      for (; i < block_end; ++i) {
        if (fn[i].op == spv::Op::OpLine) {
          file = strings_[fn[i].words[1]];
          line = fn[i].words[2];
        }
        if (fn[i].op == spv::Op::OpLoopMerge && i + 1 < block_end) {
          GuardLoop(fn, fn[i], fn[i + 1], out);
          ++i;  // the terminator was emitted by GuardLoop
          continue;
        }
        out.push_back(fn[i]);
      }
    }
    fn = std::move(out);
    return absl::OkStatus();
  }

  // Emits: ok = rf_loop_hook(); the merge instruction; a terminator that
  // also leaves the loop when !ok.
  void GuardLoop(const std::vector<Inst>& fn, const Inst& merge_inst,
                 const Inst& terminator, std::vector<Inst>& out) {
    ++loops_;
    const uint32_t merge = merge_inst.words[1];
    const uint32_t ok = NewId();
    out.push_back(Make(spv::Op::OpFunctionCall, {bool_type_, ok, loop_hook_}));
    bool guardable = !BlockHasPhi(fn, merge);
    if (guardable && terminator.op == spv::Op::OpBranch) {
      out.push_back(merge_inst);
      out.push_back(Make(spv::Op::OpBranchConditional,
                         {ok, terminator.words[1], merge}));
      return;
    }
    if (guardable && terminator.op == spv::Op::OpBranchConditional &&
        terminator.words.size() == 4) {
      const uint32_t cond = terminator.words[1];
      const uint32_t on_true = terminator.words[2];
      const uint32_t on_false = terminator.words[3];
      if (on_false == merge) {
        const uint32_t both = NewId();
        out.push_back(Make(spv::Op::OpLogicalAnd, {bool_type_, both, cond, ok}));
        out.push_back(merge_inst);
        out.push_back(
            Make(spv::Op::OpBranchConditional, {both, on_true, on_false}));
        return;
      }
      if (on_true == merge) {
        const uint32_t stop = NewId();
        const uint32_t either = NewId();
        out.push_back(Make(spv::Op::OpLogicalNot, {bool_type_, stop, ok}));
        out.push_back(
            Make(spv::Op::OpLogicalOr, {bool_type_, either, cond, stop}));
        out.push_back(merge_inst);
        out.push_back(
            Make(spv::Op::OpBranchConditional, {either, on_true, on_false}));
        return;
      }
    }
    ++unguarded_;
    out.push_back(merge_inst);
    out.push_back(terminator);
  }

  absl::Status Rewrite() {
    std::vector<Inst> result;
    result.reserve(insts_.size() * 2);
    size_t first_function = insts_.size();
    for (size_t i = 0; i < insts_.size(); ++i) {
      if (insts_[i].op == spv::Op::OpFunction) {
        first_function = i;
        break;
      }
    }
    std::vector<Inst> body;
    bool any_target = false;
    for (size_t i = first_function; i < insts_.size();) {
      size_t end = i;
      while (insts_[end].op != spv::Op::OpFunctionEnd) ++end;
      std::vector<Inst> fn(insts_.begin() + i, insts_.begin() + end + 1);
      // Debug instructions (OpLine) may precede the OpFunction itself.
      size_t head = i;
      while (insts_[head].op != spv::Op::OpFunction) ++head;
      const std::string& name = names_[insts_[head].words[2]];
      if (IsTargetFunction(name)) {
        any_target = true;
        if (absl::Status s = InstrumentFunction(fn, name); !s.ok()) return s;
      }
      for (Inst& inst : fn) body.push_back(std::move(inst));
      i = end + 1;
    }
    if (!any_target) {
      return absl::InvalidArgumentError(
          "no target function found in the module: the target must define "
          "void fz_target(uint len)");
    }
    result.assign(insts_.begin(), insts_.begin() + first_function);
    for (Inst& c : constants_) result.push_back(std::move(c));
    for (Inst& inst : body) result.push_back(std::move(inst));
    insts_ = std::move(result);
    return absl::OkStatus();
  }

  InstrumentedModule Emit() {
    InstrumentedModule module;
    module.spirv.assign(in_.begin(), in_.begin() + kHeaderWords);
    module.spirv[3] = bound_;
    for (const Inst& inst : insts_) {
      module.spirv.insert(module.spirv.end(), inst.words.begin(),
                          inst.words.end());
    }
    module.sites = std::move(sites_);
    module.loops = loops_;
    module.unguarded_loops = unguarded_;
    return module;
  }

  absl::Span<const uint32_t> in_;
  InstrumentOptions options_;
  std::vector<Inst> insts_;
  std::vector<Inst> constants_;
  std::map<uint32_t, std::string> names_;
  std::map<uint32_t, std::string> strings_;
  std::map<uint32_t, uint32_t> pointee_;
  std::map<uint32_t, uint32_t> var_type_;
  std::map<uint32_t, uint32_t> fn_result_type_;
  uint32_t bound_ = 0;
  uint32_t site_var_ = 0, cov_hook_ = 0, loop_hook_ = 0;
  uint32_t uint_type_ = 0, void_type_ = 0, bool_type_ = 0;
  std::vector<SiteLocation> sites_;
  uint32_t loops_ = 0, unguarded_ = 0;
};

}  // namespace

uint32_t SiteEdgeHash(uint32_t index) {
  uint32_t x = index * 0x9E3779B9u + 0x7F4A7C15u;
  x ^= x >> 16;
  x *= 0x85EBCA6Bu;
  x ^= x >> 13;
  x *= 0xC2B2AE35u;
  x ^= x >> 16;
  x &= 0xFFFFu;
  return x == 0 ? 1u : x;
}

absl::StatusOr<InstrumentedModule> InstrumentSpirv(
    absl::Span<const uint32_t> spirv, const InstrumentOptions& options) {
  return Instrumenter(spirv, options).Run();
}

}  // namespace ringfuzz
