#include "fuzz/gpu/gpu_cfg.h"

#include <algorithm>
#include <cstddef>

namespace ringfuzz {
namespace {

constexpr uint32_t kNone = 0xFFFFFFFFu;

// Immediate dominators of a graph of `n` nodes (edges `succ`, predecessors
// `pred`) rooted at `root`, by Cooper, Harvey and Kennedy's iterative
// algorithm. idom[root] == root; kNone for nodes unreachable from root.
std::vector<uint32_t> Dominators(
    size_t n, uint32_t root, const std::vector<std::vector<uint32_t>>& succ,
    const std::vector<std::vector<uint32_t>>& pred) {
  // Reverse post-order from root (iterative DFS).
  std::vector<uint32_t> order;
  std::vector<uint32_t> rpo_index(n, kNone);
  std::vector<uint8_t> state(n, 0);  // 0 new, 1 on stack, 2 done
  std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
  state[root] = 1;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < succ[node].size()) {
      const uint32_t s = succ[node][next++];
      if (state[s] == 0) {
        state[s] = 1;
        stack.push_back({s, 0});
      }
      continue;
    }
    state[node] = 2;
    order.push_back(node);
    stack.pop_back();
  }
  std::reverse(order.begin(), order.end());
  for (size_t i = 0; i < order.size(); ++i) {
    rpo_index[order[i]] = static_cast<uint32_t>(i);
  }
  std::vector<uint32_t> idom(n, kNone);
  idom[root] = root;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (rpo_index[a] > rpo_index[b]) a = idom[a];
      while (rpo_index[b] > rpo_index[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < order.size(); ++i) {
      const uint32_t node = order[i];
      uint32_t best = kNone;
      for (uint32_t p : pred[node]) {
        if (idom[p] == kNone) continue;  // not processed or unreachable
        best = best == kNone ? p : intersect(p, best);
      }
      if (best != kNone && idom[node] != best) {
        idom[node] = best;
        changed = true;
      }
    }
  }
  return idom;
}

// Whether `a` dominates `b` in the tree `idom` (both reachable).
bool Dominates(const std::vector<uint32_t>& idom, uint32_t a, uint32_t b) {
  for (uint32_t x = b;; x = idom[x]) {
    if (x == a) return true;
    if (idom[x] == x || idom[x] == kNone) return false;
  }
}

}  // namespace

std::vector<bool> RedundantCoverageBlocks(
    const std::vector<std::vector<uint32_t>>& successors) {
  const size_t n = successors.size();
  std::vector<bool> redundant(n, false);
  if (n == 0) return redundant;
  std::vector<std::vector<uint32_t>> predecessors(n);
  for (uint32_t b = 0; b < n; ++b) {
    for (uint32_t s : successors[b]) predecessors[s].push_back(b);
  }
  const std::vector<uint32_t> idom = Dominators(n, 0, successors, predecessors);
  // Post-dominators: dominators of the reversed graph from a virtual exit
  // (node n) that every returning block branches to.
  std::vector<std::vector<uint32_t>> reverse_succ(n + 1), reverse_pred(n + 1);
  for (uint32_t b = 0; b < n; ++b) {
    if (successors[b].empty()) {
      reverse_succ[n].push_back(b);
      reverse_pred[b].push_back(static_cast<uint32_t>(n));
    }
    for (uint32_t s : successors[b]) {
      reverse_succ[s].push_back(b);
      reverse_pred[b].push_back(s);
    }
  }
  const std::vector<uint32_t> ipdom =
      Dominators(n + 1, static_cast<uint32_t>(n), reverse_succ, reverse_pred);
  for (uint32_t b = 1; b < n; ++b) {
    if (idom[b] == kNone) continue;  // unreachable
    const auto& succ = successors[b];
    const bool full_dominator =
        !succ.empty() && std::all_of(succ.begin(), succ.end(), [&](uint32_t s) {
          return Dominates(idom, b, s);
        });
    const auto& pred = predecessors[b];
    const bool full_post_dominator =
        pred.size() >= 2 && ipdom[b] != kNone &&
        std::all_of(pred.begin(), pred.end(), [&](uint32_t p) {
          return ipdom[p] != kNone && Dominates(ipdom, b, p);
        });
    redundant[b] = full_dominator || full_post_dominator;
  }
  return redundant;
}

}  // namespace ringfuzz
