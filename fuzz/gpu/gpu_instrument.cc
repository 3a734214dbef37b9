#include "fuzz/gpu/gpu_instrument.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "fuzz/gpu/gpu_cfg.h"
#include "fuzz/gpu/short_circuit.h"
#include "fuzz/gpu/spirv_inst.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

using spirv::Inst;
using spirv::kHeaderWords;
using spirv::LiteralString;
using spirv::Make;

// "parse(u1;i1;" -> "parse"
std::string SourceName(const std::string& mangled) {
  return mangled.substr(0, mangled.find('('));
}

bool IsTargetFunction(const std::string& name) {
  return IsTargetFunctionName(SourceName(name));
}

class Instrumenter {
 public:
  Instrumenter(absl::Span<const uint32_t> spirv,
               const InstrumentOptions& options)
      : in_(spirv), options_(options) {}

  absl::StatusOr<InstrumentedModule> Run() {
    if (absl::Status s = spirv::Parse(in_, insts_, bound_); !s.ok()) return s;
    if (absl::Status s = Resolve(); !s.ok()) return s;
    if (absl::Status s = Rewrite(); !s.ok()) return s;
    return Emit();
  }

 private:
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
          if (w.size() > 4 && composites_.count(w[4]) != 0) {
            stored_composite_[w[2]] = w[4];  // initialized with it
          }
          break;
        case spv::Op::OpFunction:
          fn_result_type_[w[2]] = w[1];
          break;
        case spv::Op::OpTypeArray:
          array_types_[w[1]] = {w[2], w[3]};
          break;
        case spv::Op::OpTypeStruct:
          struct_members_[w[1]].assign(w.begin() + 2, w.end());
          break;
        case spv::Op::OpTypeInt:
          int_types_[w[1]] = {w[2], w[3]};
          break;
        case spv::Op::OpConstant:
          constants_value_[w[2]] = w[3];
          break;
        case spv::Op::OpConstantTrue:
        case spv::Op::OpConstantFalse:
        case spv::Op::OpSpecConstantTrue:
        case spv::Op::OpSpecConstantFalse:
        case spv::Op::OpConstantNull:
          other_constants_.insert(w[2]);
          break;
        case spv::Op::OpConstantComposite:
          composites_[w[2]].assign(w.begin() + 3, w.end());
          break;
        case spv::Op::OpStore:  // e.g. a global const array, set up in main
          if (composites_.count(w[2]) != 0) stored_composite_[w[1]] = w[2];
          break;
        default:
          break;
      }
      bool has_result = false, has_type = false;
      spv::HasResultAndType(inst.op, &has_result, &has_type);
      if (has_result && has_type && w.size() > 2) result_type_[w[2]] = w[1];
      if (inst.op == spv::Op::OpTypePointer) storage_[w[1]] = w[2];
    }
    for (const auto& [id, name] : names_) {
      if (name == "rf_site") site_var_ = id;
      if (name == "rf_oob_where") oob_where_var_ = id;
      if (name == "rf_loc") loc_var_ = id;
      if (name == "rf_loop_id") loop_id_var_ = id;
      if (name == "rf_cmp_a") cmp_a_var_ = id;
      if (name == "rf_cmp_b") cmp_b_var_ = id;
      if (name == "rf_cmp_site") cmp_site_var_ = id;
      if (absl::StartsWith(name, "rf_cmp_hook(")) cmp_hook_ = id;
      if (absl::StartsWith(name, "fz_crash(")) fz_crash_ = id;
      if (absl::StartsWith(name, "fz_byte(")) fz_byte_ = id;
      if (name == "rf_oob_index") oob_index_var_ = id;
      if (name == "rf_fault_kind") fault_kind_var_ = id;
      if (absl::StartsWith(name, "rf_cov_hook(")) cov_hook_ = id;
      if (absl::StartsWith(name, "rf_loop_hook(")) loop_hook_ = id;
    }
    if (site_var_ == 0 || cov_hook_ == 0 || loop_hook_ == 0 ||
        oob_where_var_ == 0 || oob_index_var_ == 0 || fault_kind_var_ == 0 ||
        loc_var_ == 0 || loop_id_var_ == 0 || cmp_hook_ == 0 ||
        cmp_a_var_ == 0 || cmp_b_var_ == 0 || cmp_site_var_ == 0) {
      return absl::InvalidArgumentError(
          "the megakernel module lacks its instrumentation hooks "
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

  // A uint constant of `value` (declared once).
  uint32_t Constant(uint32_t value) {
    auto [it, inserted] = new_constants_.emplace(value, 0);
    if (!inserted) return it->second;
    it->second = NewId();
    constants_.push_back(
        Make(spv::Op::OpConstant, {uint_type_, it->second, value}));
    return it->second;
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

  // The control-flow graph of function `fn`: per block (in order of their
  // labels), the distinct blocks its terminator may branch to.
  static std::vector<std::vector<uint32_t>> Successors(
      const std::vector<Inst>& fn) {
    std::map<uint32_t, uint32_t> index;  // label id -> block index
    for (const Inst& inst : fn) {
      if (inst.op == spv::Op::OpLabel) {
        const uint32_t next = static_cast<uint32_t>(index.size());
        index.emplace(inst.words[1], next);
      }
    }
    std::vector<std::vector<uint32_t>> successors(index.size());
    int32_t block = -1;
    for (const Inst& inst : fn) {
      if (inst.op == spv::Op::OpLabel) ++block;
      if (block < 0) continue;
      std::vector<uint32_t> labels;
      if (inst.op == spv::Op::OpBranch) {
        labels = {inst.words[1]};
      } else if (inst.op == spv::Op::OpBranchConditional) {
        labels = {inst.words[2], inst.words[3]};
      } else if (inst.op == spv::Op::OpSwitch) {
        labels = {inst.words[2]};
        for (size_t k = 4; k < inst.words.size(); k += 2) {
          labels.push_back(inst.words[k]);
        }
      }
      auto& out = successors[block];
      for (uint32_t label : labels) {
        auto it = index.find(label);
        if (it != index.end() &&
            std::find(out.begin(), out.end(), it->second) == out.end()) {
          out.push_back(it->second);
        }
      }
    }
    return successors;
  }

  // Instruments one target function's instructions.
  absl::Status InstrumentFunction(std::vector<Inst>& fn,
                                  const std::string& fn_name) {
    std::vector<Inst> out;
    out.reserve(fn.size() * 2);
    std::string& file = file_;
    uint32_t& line = line_;
    function_ = SourceName(fn_name);
    file.clear();
    line = 0;
    const std::vector<bool> redundant =
        options_.prune ? RedundantCoverageBlocks(Successors(fn))
                       : std::vector<bool>();
    const std::map<uint32_t, std::vector<uint32_t>> short_circuits =
        ShortCircuitOperands(fn, bool_type_, other_constants_);
    size_t block_index = 0;
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
      const uint32_t label = fn[i].words[1];
      out.push_back(fn[i++]);
      const size_t block_body = i;  // first instruction after the label
      while (i < block_end &&
             (fn[i].op == spv::Op::OpPhi || fn[i].op == spv::Op::OpVariable ||
              fn[i].op == spv::Op::OpLine || fn[i].op == spv::Op::OpNoLine)) {
        if (fn[i].op == spv::Op::OpLine) {
          file = strings_[fn[i].words[1]];
          line = fn[i].words[2];
        }
        out.push_back(fn[i++]);
      }
      // The block's own first line, if it has one later on, and every line
      // of that file the block's instructions carry.
      SiteLocation loc{SourceName(fn_name), file, line, {}};
      bool first = true;
      for (size_t j = block_body; j < block_end; ++j) {
        if (fn[j].op != spv::Op::OpLine) continue;
        if (first) {
          loc.file = strings_[fn[j].words[1]];
          loc.line = fn[j].words[2];
          first = false;
        }
        if (strings_[fn[j].words[1]] == loc.file) {
          loc.lines.push_back(fn[j].words[2]);
        }
      }
      // A block without lines of its own (a merge block that only
      // branches) is credited to no line: the line in effect before it may
      // belong to a branch that did not run.
      absl::StatusOr<uint32_t> site = NewSite(loc);
      if (!site.ok()) return site.status();
      const bool skip =
          block_index < redundant.size() && redundant[block_index];
      ++block_index;
      if (options_.coverage && !skip) {
        out.push_back(
            Make(spv::Op::OpStore, {site_var_, Constant(HookValue(*site))}));
        out.push_back(
            Make(spv::Op::OpFunctionCall, {void_type_, NewId(), cov_hook_}));
      }
      // Copy the rest of the block; guard loop headers.
      for (; i < block_end; ++i) {
        if (fn[i].op == spv::Op::OpLine) {
          file = strings_[fn[i].words[1]];
          line = fn[i].words[2];
        }
        NoteByteStrings(fn[i]);
        if (fn[i].op == spv::Op::OpLoopMerge && i + 1 < block_end) {
          GuardLoop(fn, fn[i], fn[i + 1], out);
          ++i;  // the terminator was emitted by GuardLoop
          continue;
        }
        if (fn[i].op == spv::Op::OpAccessChain ||
            fn[i].op == spv::Op::OpInBoundsAccessChain) {
          out.push_back(options_.bounds ? BoundsCheck(fn[i], out) : fn[i]);
          continue;
        }
        if (fn[i].op == spv::Op::OpFunctionCall &&
            (fn[i].words[3] == fz_crash_ || fn[i].words[3] == fz_byte_)) {
          MarkLocation(out);
        }
        if (IsIntegerCompare(fn[i].op)) CompareHook(fn[i], out);
        if (fn[i].op == spv::Op::OpLogicalAnd ||
            fn[i].op == spv::Op::OpLogicalOr || fn[i].op == spv::Op::OpSelect) {
          if (absl::Status s = BranchlessConditionHook(fn[i], out); !s.ok()) {
            return s;
          }
        }
        if (fn[i].op == spv::Op::OpBranch) {
          // The second operand of a short-circuit && or ||, on its way to
          // the join (fuzz/gpu/short_circuit.h).
          if (auto it = short_circuits.find(label);
              it != short_circuits.end()) {
            for (uint32_t value : it->second) {
              if (absl::Status s = ConditionHook(value, out); !s.ok()) {
                return s;
              }
            }
          }
        }
        if (fn[i].op == spv::Op::OpSwitch) {
          for (size_t k = 3; k + 1 < fn[i].words.size(); k += 2) {
            compare_constants_.insert(fn[i].words[k]);
          }
          if (options_.compares) SwitchHook(fn[i], out);
        }
        out.push_back(fn[i]);
      }
    }
    fn = std::move(out);
    return absl::OkStatus();
  }

  // Allocates the next site (bit of the site map) for `loc`.
  absl::StatusOr<uint32_t> NewSite(SiteLocation loc) {
    const uint32_t site = static_cast<uint32_t>(sites_.size());
    if (site >= RF_SITE_MAP_BITS) {
      return absl::InvalidArgumentError(
          absl::StrCat("the target has more than ", RF_SITE_MAP_BITS,
                       " basic blocks and branchless conditions; split it into "
                       "smaller targets"));
    }
    sites_.push_back(std::move(loc));
    return site;
  }

  // The rf_site value of a block hook for `site` (see InstrumentOptions::
  // prune for the numbering); counts the hook.
  uint32_t HookValue(uint32_t site) {
    const uint32_t number = options_.prune ? block_hooks_ : site;
    ++block_hooks_;
    return (number << 16) | SiteEdgeHash(site);
  }

  // Before `a && b` or `a || b` (OpLogicalAnd/OpLogicalOr) and `c ? x : y`
  // (OpSelect) on a scalar condition: a condition hook (ConditionHook) on
  // `a` or `c`, which says which way the condition went (for && and ||:
  // whether `a` alone decided the result or `b` had to be looked at). A CPU
  // compiles && and || into branches, and the twin's coverage sees the edge
  // into `b`; glslang evaluates both sides when they are simple and joins
  // them with one instruction, so without this hook `if (a && b && c)` is
  // one block on the GPU and satisfying `a` alone is never new coverage.
  // Selects are how GPU code avoids divergent branches (ternaries,
  // branchless code), so their conditions count as branches too.
  absl::Status BranchlessConditionHook(const Inst& inst,
                                       std::vector<Inst>& out) {
    if (inst.op == spv::Op::OpSelect &&
        constants_value_.count(inst.words[4]) != 0 &&
        inst.words[4] == inst.words[5]) {
      return absl::OkStatus();  // both ways the same constant
    }
    return ConditionHook(inst.words[3], out);
  }

  // A block hook whose site says which way the boolean `condition` went:
  // two sites (both with the source line in effect but no lines of their
  // own, so line coverage is unchanged) and one hook call, chosen without
  // a branch. Nothing where `condition` is not a scalar bool.
  absl::Status ConditionHook(uint32_t condition, std::vector<Inst>& out) {
    if (!options_.coverage || !options_.conditions) return absl::OkStatus();
    if (result_type_[condition] != bool_type_) return absl::OkStatus();
    const SiteLocation loc{function_, file_, line_, {}};
    absl::StatusOr<uint32_t> when_true = NewSite(loc);
    if (!when_true.ok()) return when_true.status();
    absl::StatusOr<uint32_t> when_false = NewSite(loc);
    if (!when_false.ok()) return when_false.status();
    const uint32_t value = NewId();
    out.push_back(Make(spv::Op::OpSelect, {uint_type_, value, condition,
                                           Constant(HookValue(*when_true)),
                                           Constant(HookValue(*when_false))}));
    out.push_back(Make(spv::Op::OpStore, {site_var_, value}));
    out.push_back(
        Make(spv::Op::OpFunctionCall, {void_type_, NewId(), cov_hook_}));
    ++condition_hooks_;
    return absl::OkStatus();
  }

  // Constant arrays of 2..RF_DICT_MAX_BYTES integers that are all bytes
  // (< 256) that `inst` of a target function uses, directly or through the
  // variable they initialize or were stored in (glslang copies a const
  // array that is indexed dynamically into a variable): strings the target
  // compares byte by byte (the dialect has no string type), kept for the
  // automatic dictionary.
  void NoteByteStrings(const Inst& inst) {
    for (size_t k = 1; k < inst.words.size(); ++k) {
      const uint32_t id = inst.words[k];
      auto stored = stored_composite_.find(id);
      NoteByteString(stored != stored_composite_.end() ? stored->second : id);
    }
  }

  void NoteByteString(uint32_t id) {
    auto composite = composites_.find(id);
    if (composite == composites_.end()) return;
    const std::vector<uint32_t>& parts = composite->second;
    if (parts.size() < 2 || parts.size() > RF_DICT_MAX_BYTES) return;
    std::vector<uint8_t> bytes;
    for (uint32_t part : parts) {
      auto value = constants_value_.find(part);
      if (value == constants_value_.end() || value->second > 0xFF) return;
      bytes.push_back(static_cast<uint8_t>(value->second));
    }
    byte_strings_.insert(std::move(bytes));
  }

  static bool IsIntegerCompare(spv::Op op) {
    switch (op) {
      case spv::Op::OpIEqual:
      case spv::Op::OpINotEqual:
      case spv::Op::OpUGreaterThan:
      case spv::Op::OpSGreaterThan:
      case spv::Op::OpUGreaterThanEqual:
      case spv::Op::OpSGreaterThanEqual:
      case spv::Op::OpULessThan:
      case spv::Op::OpSLessThan:
      case spv::Op::OpULessThanEqual:
      case spv::Op::OpSLessThanEqual:
        return true;
      default:
        return false;
    }
  }

  // Returns `id` as a 32-bit unsigned value, emitting a bitcast if needed;
  // 0 if it is not a 32-bit integer scalar.
  uint32_t AsUint(uint32_t id, std::vector<Inst>& out) {
    auto type = int_types_.find(result_type_[id]);
    if (type == int_types_.end() || type->second.first != 32) return 0;
    if (result_type_[id] == uint_type_) return id;
    const uint32_t cast = NewId();
    out.push_back(Make(spv::Op::OpBitcast, {uint_type_, cast, id}));
    return cast;
  }

  // Before an integer comparison: records constant operands for the
  // automatic dictionary and, when an operand varies, emits
  // rf_cmp_a/b/site = ...; rf_cmp_hook().
  void CompareHook(const Inst& cmp, std::vector<Inst>& out) {
    const uint32_t a = cmp.words[3];
    const uint32_t b = cmp.words[4];
    const bool a_const = constants_value_.count(a) != 0;
    const bool b_const = constants_value_.count(b) != 0;
    if (a_const) compare_constants_.insert(constants_value_[a]);
    if (b_const) compare_constants_.insert(constants_value_[b]);
    if ((a_const && b_const) || !options_.compares) return;
    std::vector<Inst> emitted;
    const uint32_t ua = AsUint(a, emitted);
    const uint32_t ub = AsUint(b, emitted);
    if (ua == 0 || ub == 0) return;  // not 32-bit scalars
    for (Inst& inst : emitted) out.push_back(std::move(inst));
    EmitCompareSite(ua, ub, out);
  }

  // Emits rf_cmp_a = a; rf_cmp_b = b; rf_cmp_site = <next compare site>;
  // rf_cmp_hook(). Comparisons and switches share the site numbering.
  void EmitCompareSite(uint32_t a, uint32_t b, std::vector<Inst>& out) {
    out.push_back(Make(spv::Op::OpStore, {cmp_a_var_, a}));
    out.push_back(Make(spv::Op::OpStore, {cmp_b_var_, b}));
    out.push_back(
        Make(spv::Op::OpStore, {cmp_site_var_, Constant(compare_sites_++)}));
    out.push_back(
        Make(spv::Op::OpFunctionCall, {void_type_, NewId(), cmp_hook_}));
  }

  // Before an OpSwitch on a varying 32-bit selector: emits rf_cmp_a = the
  // selector, rf_cmp_b = one case literal, rf_cmp_site = a compare site of
  // its own (numbered with the comparisons, so the compare table and
  // compare_sites cover it), then rf_cmp_hook(). The code goes before the
  // switch's OpSelectionMerge, which must stay right before the OpSwitch.
  //
  // Which case: the one nearest to the selector by popcount(selector ^
  // case), ties to the earlier case, and never the case the selector already
  // equals (unless it is the only one), computed with selects over the
  // first kSwitchCasesCompared cases (6 instructions per case, no
  // branches). Nearest, because the input-to-state mutator then writes the
  // case that differs in the fewest bits, and value profile rewards getting
  // closer to it; not the equal case, because that entry would not be
  // recorded (a == b), while one naming a sibling case lets input-to-state
  // open that case. A deterministic function of the selector, unlike a
  // rotation through the cases: both coverage builds must see the same
  // value-profile features.
  void SwitchHook(const Inst& sw, std::vector<Inst>& out) {
    constexpr size_t kSwitchCasesCompared = 64;
    const uint32_t selector = sw.words[1];
    if (constants_value_.count(selector) != 0 || sw.words.size() < 5) return;
    std::vector<Inst> emitted;
    const uint32_t sel = AsUint(selector, emitted);
    if (sel == 0) return;  // not a 32-bit selector (one-word literals)
    uint32_t best_case = Constant(sw.words[3]);
    uint32_t best_distance = Constant(0xFFFFFFFFu);
    for (size_t k = 3;
         k + 1 < sw.words.size() && (k - 3) / 2 < kSwitchCasesCompared;
         k += 2) {
      // distance = popcount(sel ^ case) - 1: 0xFFFFFFFF for the equal case,
      // which therefore never wins the unsigned minimum.
      const uint32_t value = Constant(sw.words[k]);
      const uint32_t diff = NewId(), bits = NewId(), distance = NewId();
      const uint32_t closer = NewId(), next_case = NewId(),
                     next_distance = NewId();
      emitted.push_back(
          Make(spv::Op::OpBitwiseXor, {uint_type_, diff, sel, value}));
      emitted.push_back(Make(spv::Op::OpBitCount, {uint_type_, bits, diff}));
      emitted.push_back(
          Make(spv::Op::OpISub, {uint_type_, distance, bits, Constant(1)}));
      emitted.push_back(Make(spv::Op::OpULessThan,
                             {bool_type_, closer, distance, best_distance}));
      emitted.push_back(Make(spv::Op::OpSelect, {uint_type_, next_case, closer,
                                                 value, best_case}));
      emitted.push_back(
          Make(spv::Op::OpSelect,
               {uint_type_, next_distance, closer, distance, best_distance}));
      best_case = next_case;
      best_distance = next_distance;
    }
    EmitCompareSite(sel, best_case, emitted);
    ++switch_sites_;
    // Before the merge instruction (and the debug lines around it).
    size_t at = out.size();
    while (at > 0 && (out[at - 1].op == spv::Op::OpLine ||
                      out[at - 1].op == spv::Op::OpNoLine)) {
      --at;
    }
    if (at > 0 && out[at - 1].op == spv::Op::OpSelectionMerge) --at;
    out.insert(out.begin() + at, std::make_move_iterator(emitted.begin()),
               std::make_move_iterator(emitted.end()));
  }

  // Emits `rf_loc = <index of the current source location>`: the location a
  // fault reported by the next hook or dialect call is attributed to.
  void MarkLocation(std::vector<Inst>& out) {
    out.push_back(Make(spv::Op::OpStore, {loc_var_, Constant(LocationId())}));
  }

  // Returns the index of the current source location in locations_.
  uint32_t LocationId() {
    const SiteLocation loc{function_, file_, line_, {}};
    const auto key = std::make_tuple(loc.function, loc.file, loc.line);
    auto [it, inserted] =
        location_ids_.emplace(key, static_cast<uint32_t>(locations_.size()));
    if (inserted) locations_.push_back(loc);
    return it->second;
  }

  // Emits, for every dynamic index into a local (Function) array along the
  // access chain, an inline bounds check, and returns the chain with those
  // indices replaced by always-in-bounds ones (0 for a bad index):
  //   bad = index >= length;  safe = bad ? 0 : index;
  //   first = bad && rf_oob_where == 0 && rf_fault_kind == 0;
  //   rf_oob_where = first ? 1 + <bounds site> : rf_oob_where;
  //   rf_oob_index = first ? index : rf_oob_index;
  // Two stores and no call: on SIMD back ends that predicate every branch
  // (lavapipe), each store of a hook costs a load, a blend and a store at
  // every access, so the fault's other details (kind, length, location)
  // are filled in once per execution from the bounds site (rf_execute and
  // InstrumentedModule::bounds_sites).
  Inst BoundsCheck(Inst chain, std::vector<Inst>& out) {
    const uint32_t base = chain.words[3];
    auto pointer = result_type_.find(base);
    if (pointer == result_type_.end()) return chain;
    if (storage_[pointer->second] !=
        static_cast<uint32_t>(spv::StorageClass::Function)) {
      return chain;
    }
    uint32_t type = pointee_[pointer->second];
    for (size_t k = 4; k < chain.words.size(); ++k) {
      const uint32_t index = chain.words[k];
      if (auto array = array_types_.find(type); array != array_types_.end()) {
        const uint32_t length = constants_value_[array->second.second];
        if (constants_value_.count(index) == 0) {
          uint32_t as_uint = index;
          auto index_type = int_types_.find(result_type_[index]);
          if (index_type == int_types_.end() ||
              index_type->second.first != 32) {
            break;  // not a 32-bit integer index: leave the chain alone
          }
          if (result_type_[index] != uint_type_) {
            as_uint = NewId();
            out.push_back(
                Make(spv::Op::OpBitcast, {uint_type_, as_uint, index}));
          }
          const uint32_t site = static_cast<uint32_t>(bounds_sites_.size());
          bounds_sites_.push_back({LocationId(), length});
          const uint32_t bad = NewId(), safe = NewId(), where = NewId(),
                         kind = NewId(), either = NewId(), clear = NewId(),
                         first = NewId(), new_where = NewId(),
                         old_index = NewId(), new_index = NewId();
          out.push_back(Make(spv::Op::OpUGreaterThanEqual,
                             {bool_type_, bad, as_uint, Constant(length)}));
          out.push_back(Make(spv::Op::OpSelect,
                             {uint_type_, safe, bad, Constant(0), as_uint}));
          out.push_back(
              Make(spv::Op::OpLoad, {uint_type_, where, oob_where_var_}));
          out.push_back(
              Make(spv::Op::OpLoad, {uint_type_, kind, fault_kind_var_}));
          out.push_back(
              Make(spv::Op::OpBitwiseOr, {uint_type_, either, where, kind}));
          out.push_back(Make(spv::Op::OpIEqual,
                             {bool_type_, clear, either, Constant(0)}));
          out.push_back(
              Make(spv::Op::OpLogicalAnd, {bool_type_, first, bad, clear}));
          out.push_back(Make(spv::Op::OpSelect, {uint_type_, new_where, first,
                                                 Constant(site + 1), where}));
          out.push_back(Make(spv::Op::OpStore, {oob_where_var_, new_where}));
          out.push_back(
              Make(spv::Op::OpLoad, {uint_type_, old_index, oob_index_var_}));
          out.push_back(Make(spv::Op::OpSelect, {uint_type_, new_index, first,
                                                 as_uint, old_index}));
          out.push_back(Make(spv::Op::OpStore, {oob_index_var_, new_index}));
          chain.words[k] = safe;
        }
        type = array->second.first;
      } else if (auto members = struct_members_.find(type);
                 members != struct_members_.end()) {
        auto member = constants_value_.find(index);
        if (member == constants_value_.end() ||
            member->second >= members->second.size()) {
          break;
        }
        type = members->second[member->second];
      } else {
        break;  // vectors, matrices: no array bound to check
      }
    }
    return chain;
  }

  // Emits: ok = rf_loop_hook(); the merge instruction; a terminator that
  // also leaves the loop when !ok.
  void GuardLoop(const std::vector<Inst>& fn, const Inst& merge_inst,
                 const Inst& terminator, std::vector<Inst>& out) {
    ++loops_;
    const uint32_t merge = merge_inst.words[1];
    const uint32_t ok = NewId();
    MarkLocation(out);
    out.push_back(Make(spv::Op::OpStore, {loop_id_var_, Constant(loops_ - 1)}));
    out.push_back(Make(spv::Op::OpFunctionCall, {bool_type_, ok, loop_hook_}));
    bool guardable = !BlockHasPhi(fn, merge);
    if (guardable && terminator.op == spv::Op::OpBranch) {
      out.push_back(merge_inst);
      out.push_back(
          Make(spv::Op::OpBranchConditional, {ok, terminator.words[1], merge}));
      return;
    }
    if (guardable && terminator.op == spv::Op::OpBranchConditional &&
        terminator.words.size() == 4) {
      const uint32_t cond = terminator.words[1];
      const uint32_t on_true = terminator.words[2];
      const uint32_t on_false = terminator.words[3];
      if (on_false == merge) {
        const uint32_t both = NewId();
        out.push_back(
            Make(spv::Op::OpLogicalAnd, {bool_type_, both, cond, ok}));
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
    module.block_hooks = block_hooks_;
    module.condition_hooks = condition_hooks_;
    module.loops = loops_;
    module.unguarded_loops = unguarded_;
    module.bounds_checks = static_cast<uint32_t>(bounds_sites_.size());
    module.bounds_sites = std::move(bounds_sites_);
    module.locations = std::move(locations_);
    module.compare_sites = compare_sites_;
    module.switch_sites = switch_sites_;
    module.compare_constants.assign(compare_constants_.begin(),
                                    compare_constants_.end());
    module.byte_strings.assign(byte_strings_.begin(), byte_strings_.end());
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
  std::map<uint32_t, uint32_t> result_type_;  // id -> its type
  std::map<uint32_t, uint32_t> storage_;      // pointer type -> class
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> array_types_;  // elem, len
  std::map<uint32_t, std::vector<uint32_t>> struct_members_;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> int_types_;  // width, sign
  std::map<uint32_t, uint32_t> constants_value_;  // 32-bit OpConstant values
  std::set<uint32_t> other_constants_;            // boolean and null constants
  uint32_t oob_where_var_ = 0, oob_index_var_ = 0, fault_kind_var_ = 0;
  std::vector<BoundsSite> bounds_sites_;
  uint32_t loc_var_ = 0, fz_crash_ = 0, fz_byte_ = 0, loop_id_var_ = 0;
  uint32_t cmp_hook_ = 0, cmp_a_var_ = 0, cmp_b_var_ = 0, cmp_site_var_ = 0;
  uint32_t compare_sites_ = 0, switch_sites_ = 0;
  std::map<uint32_t, uint32_t> new_constants_;  // value -> id, by Constant()
  std::set<uint32_t> compare_constants_;
  std::map<uint32_t, std::vector<uint32_t>> composites_;  // id -> parts
  std::map<uint32_t, uint32_t> stored_composite_;  // variable -> composite
  std::set<std::vector<uint8_t>> byte_strings_;
  std::string function_, file_;  // where the walk is, for MarkLocation
  uint32_t line_ = 0;
  std::vector<SiteLocation> locations_;
  std::map<std::tuple<std::string, std::string, uint32_t>, uint32_t>
      location_ids_;
  uint32_t bound_ = 0;
  uint32_t site_var_ = 0, cov_hook_ = 0, loop_hook_ = 0;
  uint32_t uint_type_ = 0, void_type_ = 0, bool_type_ = 0;
  std::vector<SiteLocation> sites_;
  uint32_t loops_ = 0, unguarded_ = 0, block_hooks_ = 0;
  uint32_t condition_hooks_ = 0;
};

}  // namespace

bool IsTargetFunctionName(absl::string_view name) {
  return name != "main" && name != "fz_byte" && name != "fz_crash" &&
         !absl::StartsWith(name, "rf_");
}

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
