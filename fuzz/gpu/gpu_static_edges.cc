#include "fuzz/gpu/gpu_static_edges.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "fuzz/gpu/gpu_instrument.h"
#include "fuzz/gpu/spirv_inst.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

using spirv::Inst;
using spirv::kHeaderWords;
using spirv::LiteralString;
using spirv::Make;

// The rf_prev value a hook of rf_site value `value` leaves behind.
uint32_t PrevOf(uint32_t value) { return (value & 0xFFFFu) >> 1; }

// The possible values of rf_prev at a point: known values, plus whether
// some path brings a value this pass cannot name.
struct PrevSet {
  std::set<uint32_t> values;
  bool unknown = false;

  bool Merge(const PrevSet& other) {
    const size_t before = values.size();
    values.insert(other.values.begin(), other.values.end());
    const bool grew = values.size() != before || (other.unknown && !unknown);
    unknown = unknown || other.unknown;
    return grew;
  }
};

// One coverage hook or call of a target function inside a block.
struct Event {
  size_t at = 0;        // index of the OpFunctionCall in the function's body
  uint32_t callee = 0;  // a target function's id, or 0 for a hook
  // A hook: its rf_site values (one, or the true and false values of a
  // condition) and the condition (0 for a block hook).
  std::vector<uint32_t> values;
  uint32_t condition = 0;
  PrevSet before;  // the possible rf_prev values when it runs
};

struct Block {
  std::vector<Event> events;
  std::vector<uint32_t> successors;  // block indices
  bool returns = false;
  PrevSet entry;
};

struct Function {
  uint32_t id = 0;
  std::string name;           // source-level
  size_t begin = 0, end = 0;  // [begin, end) in the module's instructions
  bool target = false;
  std::vector<Block> blocks;
  PrevSet entry;  // rf_prev on entry, from its call sites
  PrevSet exit;   // rf_prev after it returns
  int state = 0;  // 0 not analysed, 1 in progress, 2 done
};

class StaticEdgePass {
 public:
  explicit StaticEdgePass(absl::Span<const uint32_t> spirv) : in_(spirv) {}

  absl::StatusOr<StaticEdges> Run() {
    if (absl::Status s = spirv::Parse(in_, insts_, bound_); !s.ok()) return s;
    if (absl::Status s = Resolve(); !s.ok()) return s;
    StaticEdges out;
    if (std::string why = Analyse(); !why.empty()) {
      out.complete = false;
      out.incomplete = std::move(why);
      out.spirv.assign(in_.begin(), in_.end());
      return out;
    }
    Rewrite(out);
    return out;
  }

 private:
  absl::Status Resolve() {
    std::map<uint32_t, std::string> names;
    std::map<uint32_t, uint32_t> pointee;
    std::map<uint32_t, uint32_t> var_type;
    for (size_t i = 0; i < insts_.size(); ++i) {
      const std::vector<uint32_t>& w = insts_[i].words;
      switch (insts_[i].op) {
        case spv::Op::OpName:
          names[w[1]] = LiteralString(w, 2);
          break;
        case spv::Op::OpTypePointer:
          pointee[w[1]] = w[3];
          if (static_cast<spv::StorageClass>(w[2]) ==
              spv::StorageClass::Private) {
            private_pointer_[w[3]] = w[1];
          }
          break;
        case spv::Op::OpTypeBool:
          bool_type_ = w[1];
          break;
        case spv::Op::OpVariable:
          var_type[w[2]] = w[1];
          break;
        case spv::Op::OpConstant:
          if (w.size() == 4) constants_[w[2]] = w[3];
          break;
        case spv::Op::OpSelect:
          selects_[w[2]] = {w[3], w[4], w[5]};
          break;
        case spv::Op::OpFunction: {
          Function fn;
          fn.id = w[2];
          fn.begin = i;
          functions_.push_back(std::move(fn));
          break;
        }
        case spv::Op::OpFunctionEnd:
          if (!functions_.empty()) functions_.back().end = i + 1;
          break;
        default:
          break;
      }
    }
    for (const Function& fn : functions_) {
      if (fn.end == 0) {
        return absl::InvalidArgumentError(
            "malformed SPIR-V: a function without OpFunctionEnd");
      }
    }
    for (const auto& [id, name] : names) {
      if (name == "rf_site") site_var_ = id;
      if (name == "rf_prev") prev_var_ = id;
      if (name == "rf_edge_bits") edge_bits_var_ = id;
      if (absl::StartsWith(name, "rf_cov_hook(")) cov_hook_ = id;
    }
    if (site_var_ == 0 || prev_var_ == 0 || edge_bits_var_ == 0 ||
        cov_hook_ == 0 || bool_type_ == 0) {
      return absl::InvalidArgumentError(
          "the module lacks rf_site, rf_prev, rf_edge_bits or rf_cov_hook (a "
          "precise build with deferred coverage, compiled with debug names)");
    }
    uint_type_ = pointee[var_type[prev_var_]];
    uint_pointer_ = private_pointer_[uint_type_];
    if (uint_pointer_ == 0) {
      return absl::InvalidArgumentError(
          "the module declares no private uint pointer type");
    }
    for (Function& fn : functions_) {
      auto name = names.find(fn.id);
      const std::string mangled = name == names.end() ? "" : name->second;
      fn.name = mangled.substr(0, mangled.find('('));
      fn.target = IsTargetFunctionName(fn.name);
      index_[fn.id] = &fn - functions_.data();
    }
    return absl::OkStatus();
  }

  bool IsTarget(uint32_t id) const {
    auto it = index_.find(id);
    return it != index_.end() && functions_[it->second].target;
  }

  // Splits a target function into blocks with their hooks, calls and
  // successors. Returns why it cannot, or "".
  std::string Split(Function& fn) {
    std::map<uint32_t, uint32_t> label_index;
    for (size_t i = fn.begin; i < fn.end; ++i) {
      if (insts_[i].op == spv::Op::OpLabel) {
        const uint32_t next = static_cast<uint32_t>(label_index.size());
        label_index.emplace(insts_[i].words[1], next);
      }
    }
    fn.blocks.assign(label_index.size(), Block{});
    int64_t block = -1;
    uint32_t stored = 0;  // the last value stored into rf_site
    for (size_t i = fn.begin; i < fn.end; ++i) {
      const Inst& inst = insts_[i];
      const std::vector<uint32_t>& w = inst.words;
      if (inst.op == spv::Op::OpLabel) ++block;
      if (block < 0) continue;
      Block& b = fn.blocks[block];
      std::vector<uint32_t> labels;
      switch (inst.op) {
        case spv::Op::OpStore:
          if (w[1] == site_var_) stored = w[2];
          break;
        case spv::Op::OpFunctionCall:
          if (w[3] == cov_hook_) {
            Event hook;
            hook.at = i;
            if (auto c = constants_.find(stored); c != constants_.end()) {
              hook.values = {c->second};
            } else if (auto s = selects_.find(stored); s != selects_.end()) {
              auto t = constants_.find(s->second[1]);
              auto f = constants_.find(s->second[2]);
              if (t == constants_.end() || f == constants_.end()) {
                return absl::StrCat("a hook in ", fn.name,
                                    " selects between values that are not "
                                    "constants");
              }
              hook.values = {t->second, f->second};
              hook.condition = s->second[0];
            } else {
              return absl::StrCat("a hook in ", fn.name,
                                  " stores a value that is not a constant");
            }
            b.events.push_back(std::move(hook));
          } else if (IsTarget(w[3])) {
            Event call;
            call.at = i;
            call.callee = w[3];
            b.events.push_back(std::move(call));
          }
          break;
        case spv::Op::OpBranch:
          labels = {w[1]};
          break;
        case spv::Op::OpBranchConditional:
          labels = {w[2], w[3]};
          break;
        case spv::Op::OpSwitch:
          labels.push_back(w[2]);
          for (size_t k = 4; k < w.size(); k += 2) labels.push_back(w[k]);
          break;
        case spv::Op::OpReturn:
        case spv::Op::OpReturnValue:
          b.returns = true;
          break;
        default:
          break;
      }
      for (uint32_t label : labels) {
        auto it = label_index.find(label);
        if (it != label_index.end() &&
            std::find(b.successors.begin(), b.successors.end(), it->second) ==
                b.successors.end()) {
          b.successors.push_back(it->second);
        }
      }
    }
    if (fn.blocks.empty() || fn.blocks[0].events.empty() ||
        fn.blocks[0].events[0].callee != 0) {
      return absl::StrCat("the entry block of ", fn.name,
                          " does not start with a coverage hook");
    }
    return "";
  }

  // rf_prev after `event`, or after calls: the callee's exit values.
  PrevSet After(const Event& event) const {
    if (event.callee != 0) return functions_[index_.at(event.callee)].exit;
    PrevSet out;
    for (uint32_t v : event.values) out.values.insert(PrevOf(v));
    return out;
  }

  // The possible rf_prev values before each event of `fn` and at its
  // returns, given its entry values (fn.entry) and its callees' exits.
  void Flow(Function& fn) {
    for (Block& b : fn.blocks) b.entry = PrevSet{};
    fn.blocks[0].entry = fn.entry;
    std::vector<PrevSet> exit(fn.blocks.size());
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t k = 0; k < fn.blocks.size(); ++k) {
        Block& b = fn.blocks[k];
        PrevSet state = b.entry;
        for (Event& event : b.events) {
          event.before = state;
          state = After(event);
        }
        exit[k] = state;
        for (uint32_t s : b.successors) {
          changed = fn.blocks[s].entry.Merge(state) || changed;
        }
      }
    }
    fn.exit = PrevSet{};
    for (size_t k = 0; k < fn.blocks.size(); ++k) {
      if (fn.blocks[k].returns) fn.exit.Merge(exit[k]);
    }
  }

  // Computes fn.exit (callees first). Returns why it cannot, or "".
  std::string Exit(Function& fn) {
    if (fn.state == 2) return "";
    if (fn.state == 1) return absl::StrCat(fn.name, " is recursive");
    fn.state = 1;
    if (std::string why = Split(fn); !why.empty()) return why;
    for (const Block& b : fn.blocks) {
      for (const Event& event : b.events) {
        if (event.callee == 0) continue;
        if (std::string why = Exit(functions_[index_.at(event.callee)]);
            !why.empty()) {
          return why;
        }
      }
    }
    // The entry block starts with a hook, so the exit values do not
    // depend on the entry values.
    Flow(fn);
    fn.state = 2;
    return "";
  }

  // Returns why the module is incomplete, or "".
  std::string Analyse() {
    for (Function& fn : functions_) {
      if (!fn.target) continue;
      if (std::string why = Exit(fn); !why.empty()) return why;
    }
    // Entry values: from the call sites in the target, and rf_prev = 0
    // where the megakernel calls fz_target.
    for (Function& fn : functions_) {
      if (fn.target) {
        for (const Block& b : fn.blocks) {
          for (const Event& event : b.events) {
            if (event.callee != 0) {
              functions_[index_.at(event.callee)].entry.Merge(event.before);
            }
          }
        }
        continue;
      }
      for (size_t i = fn.begin; i < fn.end; ++i) {
        const Inst& inst = insts_[i];
        if (inst.op != spv::Op::OpFunctionCall || !IsTarget(inst.words[3])) {
          continue;
        }
        Function& callee = functions_[index_.at(inst.words[3])];
        if (callee.name != "fz_target") {
          return absl::StrCat("the megakernel calls target function ",
                              callee.name);
        }
        callee.entry.values.insert(0);
      }
    }
    // The before-values of the events in each function's entry block
    // depend on its entry values, which callers may only know now.
    for (Function& fn : functions_) {
      if (!fn.target) continue;
      Flow(fn);
      for (const Block& b : fn.blocks) {
        for (const Event& event : b.events) {
          if (event.callee != 0) continue;
          if (event.before.unknown) {
            return absl::StrCat("a hook in ", fn.name,
                                " follows an unknown hook");
          }
          if (event.before.values.size() > kMaxEdgeCandidates) {
            return absl::StrCat("a hook in ", fn.name, " may follow ",
                                event.before.values.size(), " hooks (at most ",
                                kMaxEdgeCandidates, ")");
          }
        }
      }
    }
    return "";
  }

  uint32_t Constant(uint32_t value) {
    auto [it, inserted] = new_constants_.emplace(value, 0);
    if (inserted) {
      it->second = bound_++;
      constants_out_.push_back(
          Make(spv::Op::OpConstant, {uint_type_, it->second, value}));
    }
    return it->second;
  }

  uint32_t EdgeNumber(uint32_t value, uint32_t prev, StaticEdges& out) {
    const uint32_t bit = ((value & 0xFFFFu) ^ prev) & (RF_EDGE_MAP_BITS - 1u);
    auto [it, inserted] =
        edge_numbers_.emplace(bit, static_cast<uint32_t>(out.edge_bits.size()));
    if (inserted) out.edge_bits.push_back(bit);
    return it->second;
  }

  // The instructions that set, in rf_edge_bits, the bit of the static edge
  // that hook `event` takes: for each of its values (a condition's: when
  // the condition is true, then false) and each possible previous value p,
  //   rf_edge_bits[j >> 5] |= (rf_prev == p [&& which way]) ? 1 << (j & 31) : 0
  // with j the edge's number, constants but for rf_prev and the condition.
  std::vector<Inst> EdgeUpdates(const Event& event, StaticEdges& out) {
    std::vector<Inst> code;
    const std::vector<uint32_t> candidates(event.before.values.begin(),
                                           event.before.values.end());
    uint32_t prev = 0;
    if (candidates.size() > 1) {
      prev = bound_++;
      code.push_back(Make(spv::Op::OpLoad, {uint_type_, prev, prev_var_}));
    }
    uint32_t negated = 0;
    if (event.condition != 0) {
      negated = bound_++;
      code.push_back(
          Make(spv::Op::OpLogicalNot, {bool_type_, negated, event.condition}));
    }
    for (size_t v = 0; v < event.values.size(); ++v) {
      // Which way of a condition this value is (0: a block, always).
      const uint32_t way =
          event.condition == 0 ? 0 : (v == 0 ? event.condition : negated);
      for (uint32_t p : candidates) {
        const uint32_t j = EdgeNumber(event.values[v], p, out);
        uint32_t taken = way;
        if (prev != 0) {
          const uint32_t equal = bound_++;
          code.push_back(
              Make(spv::Op::OpIEqual, {bool_type_, equal, prev, Constant(p)}));
          if (taken != 0) {
            const uint32_t both = bound_++;
            code.push_back(
                Make(spv::Op::OpLogicalAnd, {bool_type_, both, taken, equal}));
            taken = both;
          } else {
            taken = equal;
          }
        }
        uint32_t bit = Constant(1u << (j & 31u));
        if (taken != 0) {
          const uint32_t chosen = bound_++;
          code.push_back(Make(spv::Op::OpSelect,
                              {uint_type_, chosen, taken, bit, Constant(0)}));
          bit = chosen;
        }
        const uint32_t word = bound_++;
        code.push_back(
            Make(spv::Op::OpAccessChain,
                 {uint_pointer_, word, edge_bits_var_, Constant(j >> 5)}));
        const uint32_t old = bound_++;
        code.push_back(Make(spv::Op::OpLoad, {uint_type_, old, word}));
        const uint32_t updated = bound_++;
        code.push_back(
            Make(spv::Op::OpBitwiseOr, {uint_type_, updated, old, bit}));
        code.push_back(Make(spv::Op::OpStore, {word, updated}));
      }
    }
    return code;
  }

  void Rewrite(StaticEdges& out) {
    // Insertion points, in module order.
    std::map<size_t, std::vector<Inst>> before;
    for (const Function& fn : functions_) {
      if (!fn.target) continue;
      for (const Block& b : fn.blocks) {
        for (const Event& event : b.events) {
          if (event.callee == 0) before[event.at] = EdgeUpdates(event, out);
        }
      }
    }
    const size_t first_function =
        functions_.empty() ? insts_.size() : functions_.front().begin;
    // OpLine may precede the first OpFunction: keep it with the function.
    size_t code_start = first_function;
    while (code_start > 0 && (insts_[code_start - 1].op == spv::Op::OpLine ||
                              insts_[code_start - 1].op == spv::Op::OpNoLine)) {
      --code_start;
    }
    out.spirv.assign(in_.begin(), in_.begin() + kHeaderWords);
    out.spirv[3] = bound_;
    auto append = [&out](const Inst& inst) {
      out.spirv.insert(out.spirv.end(), inst.words.begin(), inst.words.end());
    };
    for (size_t i = 0; i < insts_.size(); ++i) {
      if (i == code_start) {
        for (const Inst& c : constants_out_) append(c);
      }
      if (auto it = before.find(i); it != before.end()) {
        for (const Inst& inst : it->second) append(inst);
      }
      append(insts_[i]);
    }
  }

  absl::Span<const uint32_t> in_;
  std::vector<Inst> insts_;
  uint32_t bound_ = 0;
  std::map<uint32_t, uint32_t> constants_;             // id -> 32-bit value
  std::map<uint32_t, std::vector<uint32_t>> selects_;  // id -> cond, a, b
  std::vector<Function> functions_;
  std::map<uint32_t, size_t> index_;  // function id -> index
  uint32_t site_var_ = 0, prev_var_ = 0, edge_bits_var_ = 0, cov_hook_ = 0;
  uint32_t uint_type_ = 0, bool_type_ = 0, uint_pointer_ = 0;
  std::map<uint32_t, uint32_t> private_pointer_;  // pointee -> Private ptr
  std::map<uint32_t, uint32_t> new_constants_;    // value -> id
  std::vector<Inst> constants_out_;
  std::map<uint32_t, uint32_t> edge_numbers_;  // edge-map bit -> j
};

}  // namespace

absl::StatusOr<StaticEdges> AddStaticEdges(absl::Span<const uint32_t> spirv) {
  return StaticEdgePass(spirv).Run();
}

}  // namespace ringfuzz
