// The GPU mutation engines (flat and branching), each on lavapipe: every
// work kind must produce the inputs it promises, within max_len.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fuzz/engine/mutators.h"
#include "fuzz/gpu/gpu_executor.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_mutators.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

using Engine = GpuExecutorOptions::MutationEngine;

std::string Data(const std::string& name) {
  return std::string(RF_TEST_DATA) + "/" + name;
}

Bytes Str(const std::string& s) { return Bytes(s.begin(), s.end()); }

using Ids = std::vector<uint32_t>;

// --- What each havoc mutator may make of a parent (megakernel_mutate.glsl;
// the flat engine moves blocks of at most 4 bytes, the branching one 8). ---

// `value`'s low `width` bytes at `pos` of a copy of `data`, little- or
// big-endian.
Bytes Put(Bytes data, size_t pos, size_t width, uint64_t value, bool big) {
  for (size_t k = 0; k < width; ++k) {
    const size_t shift = 8 * (big ? width - 1 - k : k);
    data[pos + k] = static_cast<uint8_t>(value >> shift);
  }
  return data;
}

uint64_t Get(const Bytes& data, size_t pos, size_t width, bool big) {
  uint64_t v = 0;
  for (size_t k = 0; k < width; ++k) {
    v |= uint64_t{data[pos + k]} << (8 * (big ? width - 1 - k : k));
  }
  return v;
}

size_t DifferingBytes(const Bytes& a, const Bytes& b) {
  size_t n = 0;
  for (size_t i = 0; i < a.size(); ++i) n += a[i] != b[i];
  return n;
}

bool FlipsOneBit(const Bytes& parent, const Bytes& mutant) {
  if (mutant.size() != parent.size()) return false;
  int bits = 0;
  for (size_t i = 0; i < parent.size(); ++i) {
    bits += __builtin_popcount(parent[i] ^ mutant[i]);
  }
  return bits == 1;
}

bool ChangesOneByte(const Bytes& parent, const Bytes& mutant) {
  return mutant.size() == parent.size() && DifferingBytes(parent, mutant) == 1;
}

// Some width (1, 2, 4), position and byte order where the mutant is the
// parent with `ok(old value, new value, width)`, and nothing else changed.
template <typename Ok>
bool RewritesOneValue(const Bytes& parent, const Bytes& mutant, Ok ok) {
  if (mutant.size() != parent.size()) return false;
  for (size_t width : {1, 2, 4}) {
    for (size_t pos = 0; pos + width <= parent.size(); ++pos) {
      for (bool big : {false, true}) {
        const uint64_t now = Get(mutant, pos, width, big);
        if (Put(parent, pos, width, now, big) == mutant &&
            ok(Get(parent, pos, width, big), now, width)) {
          return true;
        }
      }
    }
  }
  return false;
}

bool WritesAnInterestingValue(const Bytes& parent, const Bytes& mutant) {
  const std::set<uint64_t> v8 = {0x80, 0xFF, 0, 1, 16, 32, 64, 100, 127, 0x7E};
  const std::set<uint64_t> v16 = {0x8000, 0xFF7F, 128,  255,  256,
                                  512,    1000,   1024, 4096, 32767};
  const std::set<uint64_t> v32 = {
      0x80000000, 0xFA0000FA, 0xFFFF7FFF, 32768,      65535,
      65536,      0x05FFFF05, 0x7FFFFFFF, 0xFFFFFFFF, 0};
  return RewritesOneValue(parent, mutant,
                          [&](uint64_t, uint64_t now, size_t width) {
                            const std::set<uint64_t>& values =
                                width == 1 ? v8 : (width == 2 ? v16 : v32);
                            return values.count(now) != 0;
                          });
}

bool AddsOrSubtracts(const Bytes& parent, const Bytes& mutant) {
  return RewritesOneValue(
      parent, mutant, [](uint64_t old, uint64_t now, size_t width) {
        const uint64_t mask =
            width == 4 ? 0xFFFFFFFFull : (1ull << (8 * width)) - 1;
        const uint64_t up = (now - old) & mask, down = (old - now) & mask;
        return (up >= 1 && up <= 35) || (down >= 1 && down <= 35);
      });
}

// The mutant is the parent with 1..`most` bytes inserted at one position;
// with `block_of_parent`, bytes that are a run of the parent's; with
// `repeated`, all one value.
bool Inserts(const Bytes& parent, const Bytes& mutant, size_t most,
             bool block_of_parent, bool repeated) {
  if (mutant.size() <= parent.size() || mutant.size() > parent.size() + most) {
    return false;
  }
  const size_t n = mutant.size() - parent.size();
  for (size_t pos = 0; pos <= parent.size(); ++pos) {
    Bytes without = mutant;
    without.erase(without.begin() + pos, without.begin() + pos + n);
    if (without != parent) continue;
    const Bytes block(mutant.begin() + pos, mutant.begin() + pos + n);
    if (repeated && std::count(block.begin(), block.end(), block[0]) !=
                        static_cast<std::ptrdiff_t>(n)) {
      continue;
    }
    if (block_of_parent &&
        std::search(parent.begin(), parent.end(), block.begin(), block.end()) ==
            parent.end()) {
      continue;
    }
    return true;
  }
  return false;
}

bool ErasesUpTo4(const Bytes& parent, const Bytes& mutant) {
  return Inserts(mutant, parent, 4, false, false);
}

// The parent with a block of its own bytes copied over another.
bool CopiesABlock(const Bytes& parent, const Bytes& mutant, size_t most) {
  if (mutant.size() != parent.size()) return false;
  for (size_t n = 1; n <= most && n <= parent.size(); ++n) {
    for (size_t src = 0; src + n <= parent.size(); ++src) {
      for (size_t dst = 0; dst + n <= parent.size(); ++dst) {
        Bytes copied = parent;
        std::copy(parent.begin() + src, parent.begin() + src + n,
                  copied.begin() + dst);
        if (copied == mutant) return true;
      }
    }
  }
  return false;
}

// Length-, text- and varint-to-state trials of an input's own log
// (fuzz/gpu/length_to_state.h, text_to_state.h, varint_to_state.h) are
// made on the host, not mutants of a slot's work.
bool IsHostTrial(const Find& f) {
  return f.mutations == Ids{RF_MUT_LENGTH} || f.mutations == Ids{RF_MUT_TEXT} ||
         f.mutations == Ids{RF_MUT_VARINT};
}

std::string EngineName(const testing::TestParamInfo<Engine>& info) {
  return info.param == Engine::kFlat ? "Flat" : "Branching";
}

class GpuMutationTest : public testing::TestWithParam<Engine> {
 protected:
  std::unique_ptr<GpuExecutor> Make(const std::string& target,
                                    uint32_t max_len = 64,
                                    bool keep_going = false,
                                    uint32_t coherent_lanes = 4,
                                    bool havoc_build = true) {
    GpuExecutorOptions options;
    options.coherent_lanes = coherent_lanes;
    options.havoc_build = havoc_build;
    options.keep_going = keep_going;
    options.target_path = Data(target);
    options.device = "cpu";
    options.validation = true;
    options.max_len = max_len;
    options.mutation_engine = GetParam();
    // Every find is a mutant of a slot's work: no colored copies, whose log
    // runs find things of their own (ColorizationGpuTest).
    options.colorize = false;
    absl::StatusOr<std::unique_ptr<GpuExecutor>> executor =
        GpuExecutor::Create(options);
    EXPECT_TRUE(executor.ok()) << executor.status();
    if (!executor.ok()) return nullptr;
    EXPECT_EQ((*executor)->flat_mutation(), GetParam() == Engine::kFlat);
    return *std::move(executor);
  }

  // The body of InsertRepeatedBytesTakesItsEnginesSizes, for an executor
  // with or without the havoc-only build.
  void ExpectInsertRepeatedBytesTakesItsEnginesSizes(bool havoc_build);

  // Runs batches of `work` until a bug is found or `batches` ran; returns
  // the bug finds of the last batch run.
  static std::vector<Find> RunUntilBug(GpuExecutor& executor,
                                       const std::vector<WorkItem>& work,
                                       int batches,
                                       std::vector<Find>* all = nullptr) {
    for (int batch = 0; batch < batches; ++batch) {
      absl::StatusOr<BatchResult> r = executor.RunBatch(work, batch + 1);
      EXPECT_TRUE(r.ok()) << r.status();
      if (!r.ok()) return {};
      std::vector<Find> bugs;
      for (const Find& f : r->finds) {
        if (IsHostTrial(f)) continue;
        if (all != nullptr) all->push_back(f);
        if (IsBug(f.kind)) bugs.push_back(f);
      }
      if (!bugs.empty()) return bugs;
    }
    return {};
  }

  static std::vector<WorkItem> Work(uint32_t opcode, uint32_t stack,
                                    uint32_t count = 512,
                                    uint32_t partner = 0) {
    std::vector<WorkItem> work(8);
    for (WorkItem& item : work) {
      item.opcode = opcode;
      item.parent = 0;
      item.partner = partner;
      item.count = count;
      item.stack = stack;
    }
    return work;
  }
};

// A DICT mutant with no havoc step holds the whole token, inserted into or
// written over the parent, and nothing else changes.
TEST_P(GpuMutationTest, DictionaryTokenIsWrittenWhole) {
  auto executor = Make("needle.fz");
  ASSERT_NE(executor, nullptr);
  const Bytes parent = Str("AAAAAAAAAAAAAAAA");
  const Bytes token = Str("RINGFUZZ-TOK");
  ASSERT_TRUE(executor->AddInput(parent).ok());
  ASSERT_TRUE(executor->SetDictionary({Str("zz"), token}).ok());
  std::vector<Find> bugs =
      RunUntilBug(*executor, Work(RF_OP_DICT, /*stack=*/1), 20);
  ASSERT_FALSE(bugs.empty());
  const Find& bug = bugs[0];
  EXPECT_EQ(bug.code, 1u);
  EXPECT_EQ(bug.mutations, Ids{RF_MUT_DICT});
  const std::string data(bug.data.begin(), bug.data.end());
  ASSERT_TRUE(data.size() == 16 || data.size() == 28) << data;
  const size_t at = data.find("RINGFUZZ-TOK");
  ASSERT_NE(at, std::string::npos) << data;
  std::string rest = data;
  rest.erase(at, token.size());
  EXPECT_EQ(rest, std::string(data.size() - token.size(), 'A')) << data;
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// A batch that mixes work kinds runs every item, each kind on its build
// (lavapipe: HAVOC on the havoc-only build, DICT on the full one), and its
// DICT items still write their token.
TEST_P(GpuMutationTest, MixedBatchRunsEveryKindOnItsBuild) {
  auto executor = Make("needle.fz", 64, /*keep_going=*/true);
  ASSERT_NE(executor, nullptr);
  EXPECT_TRUE(executor->havoc_build());
  ASSERT_TRUE(executor->AddInput(Str("AAAAAAAAAAAAAAAA")).ok());
  ASSERT_TRUE(executor->SetDictionary({Str("RINGFUZZ-TOK")}).ok());
  std::vector<WorkItem> work;
  for (int i = 0; i < 8; ++i) {
    work.push_back(Work(RF_OP_HAVOC, /*stack=*/1, 256)[0]);
    work.push_back(Work(RF_OP_DICT, /*stack=*/1, 256)[0]);
  }
  bool token_found = false;
  for (uint64_t seed = 1; seed <= 20 && !token_found; ++seed) {
    absl::StatusOr<BatchResult> r = executor->RunBatch(work, seed);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->executions, 16u * 256u);
    for (const Find& f : r->finds) {
      if (f.kind != Find::Kind::kCrash || f.code != 1u) continue;
      EXPECT_EQ(f.opcode, RF_OP_DICT);
      token_found = true;
    }
  }
  EXPECT_TRUE(token_found);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// A SPLICE mutant with no havoc step is the parent with one run of the
// partner's bytes in it (overwriting a chunk, or replacing its suffix).
TEST_P(GpuMutationTest, SpliceTakesOneRunOfThePartner) {
  auto executor = Make("needle.fz");
  ASSERT_NE(executor, nullptr);
  const std::string partner = "xyzPQRSTUvw";
  ASSERT_TRUE(executor->AddInput(Str("AAAAAAAAAAAAAAAA")).ok());
  ASSERT_TRUE(executor->AddInput(Str(partner)).ok());
  std::vector<Find> bugs = RunUntilBug(
      *executor, Work(RF_OP_SPLICE, /*stack=*/1, 512, /*partner=*/1), 40);
  ASSERT_FALSE(bugs.empty());
  EXPECT_EQ(bugs[0].code, 2u);
  EXPECT_EQ(bugs[0].mutations, Ids{RF_MUT_SPLICE});
  const std::string data(bugs[0].data.begin(), bugs[0].data.end());
  const size_t first = data.find_first_not_of('A');
  const size_t last = data.find_last_not_of('A');
  ASSERT_NE(first, std::string::npos) << data;
  const std::string run = data.substr(first, last - first + 1);
  EXPECT_NE(partner.find(run), std::string::npos) << data;
  EXPECT_NE(run.find("PQRSTU"), std::string::npos) << data;
}

// How a SPLICE mutant is made of its parent and a partner whose bytes are
// all distinct: the length of the parent's prefix it keeps, and of the
// partner's run after it (from `from`), and whether the parent's own bytes
// follow that run (a chunk written over the parent) or not (the partner's
// suffix after a cut). Empty when the mutant is no such thing.
struct SpliceShape {
  size_t cut = 0;
  size_t from = 0;
  size_t run = 0;
  bool chunk = false;
};

std::optional<SpliceShape> ShapeOfSplice(const Bytes& parent,
                                         const Bytes& partner,
                                         const Bytes& mutant) {
  SpliceShape shape;
  while (shape.cut < mutant.size() && shape.cut < parent.size() &&
         mutant[shape.cut] == parent[shape.cut]) {
    ++shape.cut;
  }
  if (shape.cut == mutant.size()) return std::nullopt;
  const auto at = std::find(partner.begin(), partner.end(), mutant[shape.cut]);
  if (at == partner.end()) return std::nullopt;
  shape.from = static_cast<size_t>(at - partner.begin());
  while (shape.cut + shape.run < mutant.size() &&
         shape.from + shape.run < partner.size() &&
         mutant[shape.cut + shape.run] == partner[shape.from + shape.run]) {
    ++shape.run;
  }
  const size_t rest = shape.cut + shape.run;
  shape.chunk =
      mutant.size() == parent.size() &&
      std::equal(mutant.begin() + rest, mutant.end(), parent.begin() + rest);
  if (!shape.chunk && rest != mutant.size()) return std::nullopt;
  return shape;
}

// Every SPLICE mutant with no havoc step is exactly the parent with one run
// of one partner: a chunk of 1..16 bytes written over it, or its prefix
// followed by the partner's whole suffix (up to max_len), at every
// alignment of the run's source against its destination (both engines
// hold the input in words, so a run that starts at another byte of its
// word than its source must be shifted).
TEST_P(GpuMutationTest, SpliceWritesOneExactRunOfAPartner) {
  constexpr uint32_t kMaxLen = 64;
  auto executor = Make("every_mutant.fz", kMaxLen, /*keep_going=*/true);
  ASSERT_NE(executor, nullptr);
  // Byte values are unique over the parent and all partners, so each
  // mutant byte names where it came from.
  uint8_t next = 0;
  auto distinct = [&next](size_t n) {
    Bytes data(n);
    for (uint8_t& b : data) b = next++;
    return data;
  };
  const Bytes parent = distinct(23);
  std::vector<Bytes> partners;
  for (size_t n : {7, 13, 30, 41, 64}) partners.push_back(distinct(n));
  ASSERT_TRUE(executor->AddInput(parent).ok());
  for (const Bytes& p : partners) ASSERT_TRUE(executor->AddInput(p).ok());
  std::vector<Find> finds;
  RunUntilBug(*executor, Work(RF_OP_SPLICE, /*stack=*/1, 512, /*partner=*/1), 3,
              &finds);
  size_t chunks = 0;
  size_t suffixes = 0;
  std::set<size_t> alignments;
  for (const Find& f : finds) {
    if (f.kind != Find::Kind::kCrash) continue;
    ASSERT_EQ(f.mutations, Ids{RF_MUT_SPLICE});
    std::optional<SpliceShape> shape;
    const Bytes* partner = nullptr;
    for (const Bytes& p : partners) {
      shape = ShapeOfSplice(parent, p, f.data);
      if (shape.has_value()) {
        partner = &p;
        break;
      }
    }
    ASSERT_TRUE(shape.has_value()) << testing::PrintToString(f.data);
    ASSERT_GE(shape->run, 1u);
    if (shape->chunk && shape->run <= 16) {
      ++chunks;
    } else {
      // The suffix: the partner's bytes to its end, or to max_len.
      ASSERT_EQ(shape->run,
                std::min(partner->size() - shape->from, kMaxLen - shape->cut))
          << testing::PrintToString(f.data);
      ++suffixes;
    }
    alignments.insert((shape->from - shape->cut) & 3u);
  }
  EXPECT_GE(chunks, 16u);
  EXPECT_GE(suffixes, 16u);
  EXPECT_EQ(alignments.size(), 4u);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// Each SPLICE mutant draws its own partner among the corpus inputs other
// than the parent, whatever partner the work item names: the mutants of
// one slot hold runs of many partners, each mutant of exactly one.
TEST_P(GpuMutationTest, SpliceMutantsDrawTheirOwnPartners) {
  auto executor = Make("every_mutant.fz", 64, /*keep_going=*/true);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Bytes(16, 'A')).ok());
  constexpr int kPartners = 8;
  for (int p = 0; p < kPartners; ++p) {
    ASSERT_TRUE(
        executor->AddInput(Bytes(16, static_cast<uint8_t>('b' + p))).ok());
  }
  std::vector<Find> finds;
  RunUntilBug(*executor, Work(RF_OP_SPLICE, /*stack=*/1, 512, /*partner=*/1), 1,
              &finds);
  std::set<uint8_t> letters;
  size_t mutants = 0;
  for (const Find& f : finds) {
    if (f.kind != Find::Kind::kCrash) continue;
    ASSERT_EQ(f.mutations, Ids{RF_MUT_SPLICE});
    std::set<uint8_t> own(f.data.begin(), f.data.end());
    own.erase('A');
    const std::string data(f.data.begin(), f.data.end());
    // Never the parent itself (a splice always takes >= 1 partner byte),
    // and one partner per mutant.
    ASSERT_EQ(own.size(), 1u) << data;
    letters.insert(*own.begin());
    ++mutants;
  }
  ASSERT_GE(mutants, 32u);
  // The work names partner 1 ('b') only; with one partner per slot every
  // mutant would hold 'b'.
  EXPECT_GE(letters.size(), 6u) << mutants << " mutants";
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// TRIM mutants only ever remove bytes: every one is a shorter subsequence
// of the parent (the target faults on anything else).
TEST_P(GpuMutationTest, TrimOnlyRemovesBytes) {
  auto executor = Make("subsequence.fz");
  ASSERT_NE(executor, nullptr);
  Bytes parent(16);
  for (uint8_t i = 0; i < 16; ++i) parent[i] = i;
  ASSERT_TRUE(executor->AddInput(parent).ok());
  std::vector<Find> all;
  std::vector<Find> bugs =
      RunUntilBug(*executor, Work(RF_OP_TRIM, /*stack=*/4), 10, &all);
  EXPECT_TRUE(bugs.empty()) << "a trimmed input the target rejects, "
                            << bugs[0].data.size() << " bytes";
  EXPECT_FALSE(all.empty());  // shorter inputs take new loop counts
  for (const Find& f : all) {
    EXPECT_LT(f.data.size(), 16u);
    // Candidates keep their sequence through calibration: 1..4 erases.
    EXPECT_GE(f.mutations.size(), 1u);
    EXPECT_LE(f.mutations.size(), 4u);
    for (uint32_t id : f.mutations) EXPECT_EQ(id, RF_MUT_ERASE);
  }
}

// Mutations stack up to the slot's depth and no further: with stack 2, some
// TRIM mutant lost two erases' worth of bytes, none more.
TEST_P(GpuMutationTest, MutationsStackUpToTheSlotsDepth) {
  auto executor = Make("trim_depth.fz", 64, /*keep_going=*/true);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Bytes(16, 0x41)).ok());
  bool two_erases = false;
  for (int batch = 0; batch < 10 && !two_erases; ++batch) {
    absl::StatusOr<BatchResult> r =
        executor->RunBatch(Work(RF_OP_TRIM, /*stack=*/2), batch + 1);
    ASSERT_TRUE(r.ok()) << r.status();
    for (const Find& f : r->finds) {
      if (!IsBug(f.kind)) continue;
      EXPECT_EQ(f.code, 2u) << "a mutant of " << f.data.size() << " bytes";
      EXPECT_EQ(f.mutations, (Ids{RF_MUT_ERASE, RF_MUT_ERASE}));
      EXPECT_GE(f.data.size(), 8u);
      two_erases |= f.code == 2u;
    }
  }
  EXPECT_TRUE(two_erases) << "no mutant carried two erases";
}

// Block mutators move 1 to 4 bytes: TRIM mutants of a 16-byte parent lose
// each of those sizes, whether the lanes of a coherence group share the
// erase position (sizes spread over the group), share it in fours, or every
// lane draws alone. Coherence groups are the flat engine's; the branching
// engine runs once.
TEST_P(GpuMutationTest, ErasesTakeEveryBlockSize) {
  const std::vector<uint32_t> widths = GetParam() == Engine::kFlat
                                           ? std::vector<uint32_t>{4, 1, 32}
                                           : std::vector<uint32_t>{4};
  for (uint32_t lanes : widths) {
    auto executor = Make("erase_size.fz", 64, /*keep_going=*/true, lanes);
    ASSERT_NE(executor, nullptr);
    ASSERT_TRUE(executor->AddInput(Bytes(16, 0x41)).ok());
    std::set<uint32_t> sizes;
    for (int batch = 0; batch < 10 && sizes.size() < 4; ++batch) {
      absl::StatusOr<BatchResult> r =
          executor->RunBatch(Work(RF_OP_TRIM, /*stack=*/1), batch + 1);
      ASSERT_TRUE(r.ok()) << r.status();
      for (const Find& f : r->finds) {
        if (!IsBug(f.kind)) continue;
        EXPECT_GE(f.code, 1u);
        EXPECT_LE(f.code, 4u) << "an erase of " << f.code << " bytes";
        sizes.insert(f.code);
      }
    }
    EXPECT_EQ(sizes, (std::set<uint32_t>{1, 2, 3, 4})) << lanes << " lanes";
  }
}

// A coherence group of 32 lanes works in fours: the 32 first mutants of one
// slot (one per lane, all in one group) erase 32 different blocks, each
// block size at 8 consecutive positions (wrapped in the positions that
// size allows), so the group's lanes share their path up to the first of
// them. With one position for the whole group, a 4-way spread of sizes
// would give 4 distinct mutants, each 8 times.
TEST_P(GpuMutationTest, WideCoherenceGroupsEraseDistinctBlocksSideBySide) {
  if (GetParam() != Engine::kFlat)
    GTEST_SKIP() << "groups are the flat engine's";
  Bytes parent(16);
  for (size_t i = 0; i < parent.size(); ++i)
    parent[i] = static_cast<uint8_t>(i);
  for (uint64_t seed : {1u, 2u, 3u}) {
    auto executor = Make("erase_position.fz", 64, /*keep_going=*/true,
                         /*coherent_lanes=*/32);
    ASSERT_NE(executor, nullptr);
    ASSERT_TRUE(executor->AddInput(parent).ok());
    std::vector<WorkItem> work = Work(RF_OP_TRIM, /*stack=*/1, /*count=*/32);
    work.resize(1);
    absl::StatusOr<BatchResult> r = executor->RunBatch(work, seed);
    ASSERT_TRUE(r.ok()) << r.status();
    std::map<uint32_t, std::set<uint32_t>> positions;  // by erased size
    size_t mutants = 0;
    for (const Find& f : r->finds) {
      if (IsHostTrial(f) || !IsBug(f.kind)) continue;
      ++mutants;
      positions[f.code & 0xFF].insert(f.code >> 8);
    }
    EXPECT_EQ(mutants, 32u) << "seed " << seed;
    ASSERT_EQ(positions.size(), 4u) << "seed " << seed;
    for (const auto& [size, at] : positions) {
      ASSERT_EQ(at.size(), 8u) << "seed " << seed << ", size " << size;
      // A run of 8 consecutive positions modulo the 17 - size positions an
      // erase of `size` can start at: exactly one of them has no
      // predecessor in the set.
      const uint32_t range = 17 - size;
      int starts = 0;
      for (uint32_t p : at) starts += at.count((p + range - 1) % range) == 0;
      EXPECT_EQ(starts, 1) << "seed " << seed << ", size " << size;
    }
    EXPECT_EQ(executor->validation_messages(), 0u)
        << executor->last_validation_message();
  }
}

// No mutant of any work kind grows past max_len, however long the token,
// the partner or the stack.
TEST_P(GpuMutationTest, MutantsStayWithinMaxLen) {
  auto executor = Make("length_cap.fz", /*max_len=*/32);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Bytes(30, 0x90)).ok());
  ASSERT_TRUE(executor->AddInput(Bytes(32, 0x07)).ok());
  ASSERT_TRUE(
      executor
          ->SetDictionary({Bytes(20, 0xEE), Bytes(3, 0x11), Bytes(32, 0x22)})
          .ok());
  std::vector<WorkItem> work;
  for (uint32_t opcode : {RF_OP_HAVOC, RF_OP_DICT, RF_OP_SPLICE, RF_OP_CMP}) {
    std::vector<WorkItem> part = Work(opcode, /*stack=*/8, 512, /*partner=*/1);
    work.insert(work.end(), part.begin(), part.end());
  }
  std::vector<Find> all;
  std::vector<Find> bugs = RunUntilBug(*executor, work, 6, &all);
  EXPECT_TRUE(bugs.empty())
      << "a mutant of " << bugs[0].data.size() << " bytes";
  EXPECT_FALSE(all.empty());
  for (const Find& f : all) EXPECT_LE(f.data.size(), 32u);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// A CMP mutant writes the other operand of a comparison that its parent's
// own execution made where the first one's bytes are: a 32-bit magic falls
// in one step. (RunBatch logs the parent's comparisons first.)
TEST_P(GpuMutationTest, InputToStateSolvesAWordCompare) {
  auto executor = Make("word_magic.fz");
  ASSERT_NE(executor, nullptr);
  const Bytes parent = Str("ABCDEFGH");
  ASSERT_TRUE(executor->AddInput(parent).ok());
  std::vector<Find> bugs =
      RunUntilBug(*executor, Work(RF_OP_CMP, /*stack=*/1, 64), 10);
  ASSERT_FALSE(bugs.empty());
  EXPECT_EQ(bugs[0].code, 5u);
  EXPECT_EQ(bugs[0].mutations, Ids{RF_MUT_CMP});
  ASSERT_GE(bugs[0].data.size(), 8u);
  EXPECT_EQ(Bytes(bugs[0].data.begin() + 4, bugs[0].data.begin() + 8),
            (Bytes{0x42, 0xEE, 0xFF, 0xC0}));
}

// The value that opens own_checksum.fz's gate is a hash of the input's own
// bytes 4..7. Two parents with different bodies: each parent's CMP mutants
// solve it with the hash of that parent's body, which only that parent's
// compare log holds (a log taken from the other input, or one table shared
// by all, writes the other hash, which does not open the gate).
TEST_P(GpuMutationTest, InputToStateUsesTheParentsOwnComparisons) {
  const Bytes a = Str("0000AAAA"), b = Str("0000BBBB");
  auto check = [](const Bytes& input) {  // the target's formula
    uint32_t body = 0;
    for (int k = 3; k >= 0; --k) body = body << 8 | input[4 + k];
    return (body * 0x9E3779B1u) ^ 0x5A5A5A5Au;
  };
  for (uint32_t parent : {1u, 0u}) {
    // A fresh executor each: a bug is reported once per run.
    auto executor = Make("own_checksum.fz");
    ASSERT_NE(executor, nullptr);
    ASSERT_TRUE(executor->AddInput(a).ok());
    ASSERT_TRUE(executor->AddInput(b).ok());
    const Bytes& input = parent == 0 ? a : b;
    std::vector<WorkItem> work = Work(RF_OP_CMP, /*stack=*/1, 64);
    for (WorkItem& item : work) item.parent = parent;
    std::vector<Find> bugs = RunUntilBug(*executor, work, 4);
    ASSERT_FALSE(bugs.empty()) << "parent " << parent;
    EXPECT_EQ(bugs[0].code, 9u);
    ASSERT_EQ(bugs[0].data.size(), 8u);
    EXPECT_EQ(Bytes(bugs[0].data.begin() + 4, bugs[0].data.end()),
              Bytes(input.begin() + 4, input.end()));
    uint32_t field = 0;
    for (int k = 3; k >= 0; --k) field = field << 8 | bugs[0].data[k];
    EXPECT_EQ(field, check(input));
    // The patch is in that parent's list, and not in the other's.
    const std::vector<InputPatch> own = executor->InputToStatePatches(parent);
    const std::vector<InputPatch> other =
        executor->InputToStatePatches(1 - parent);
    const InputPatch solving{0, 4, check(input)};
    EXPECT_NE(std::find(own.begin(), own.end(), solving), own.end());
    EXPECT_EQ(std::find(other.begin(), other.end(), solving), other.end());
    EXPECT_EQ(executor->logged_inputs(), 2u);
    EXPECT_EQ(executor->validation_messages(), 0u)
        << executor->last_validation_message();
  }
}

// Every havoc mutator, in both engines: a HAVOC mutant of stack 1 records
// the one mutator that made it (RF_FIND_MUTATIONS), and differs from its
// parent as that mutator does. The target crashes on every input with a
// hash of it as the code, so each lane's first mutant of a slot is reported
// (each slot's first mutants share one mutator: the workgroup's draw).
TEST_P(GpuMutationTest, EachHavocMutatorIsNamedAndDoesWhatItsNameSays) {
  auto executor = Make("every_mutant.fz", 64, /*keep_going=*/true);
  ASSERT_NE(executor, nullptr);
  Bytes parent(16);
  for (size_t i = 0; i < parent.size(); ++i) parent[i] = 0x13 + 0x0B * i;
  ASSERT_TRUE(executor->AddInput(parent).ok());
  const size_t block = GetParam() == Engine::kFlat ? 4 : 8;
  const size_t repeated_most =
      GetParam() == Engine::kFlat ? 4 : RF_INSERT_REPEATED_MAX;
  std::vector<WorkItem> work = Work(RF_OP_HAVOC, /*stack=*/1, 64);
  work.resize(32, work[0]);
  std::map<uint32_t, int> seen;
  for (uint64_t seed = 1; seed <= 12 && seen.size() < 9; ++seed) {
    absl::StatusOr<BatchResult> r = executor->RunBatch(work, seed);
    ASSERT_TRUE(r.ok()) << r.status();
    // Every execution is counted for its one mutator.
    ASSERT_EQ(r->mutator_executions.size(), RF_RES_MUTATOR_USE_WORDS);
    uint64_t counted = 0;
    for (uint64_t n : r->mutator_executions) counted += n;
    EXPECT_EQ(counted, r->executions);
    for (uint32_t id = RF_MUT_INSERT_REPEATED + 1; id < RF_MUT_NONE; ++id) {
      EXPECT_EQ(r->mutator_executions[id], 0u) << MutatorName(id);
    }
    for (const Find& f : r->finds) {
      if (IsHostTrial(f)) continue;
      ASSERT_EQ(f.kind, Find::Kind::kCrash);
      ASSERT_EQ(f.mutations.size(), 1u);
      const uint32_t id = f.mutations[0];
      ++seen[id];
      EXPECT_GT(r->mutator_executions[id], 0u) << MutatorName(id);
      const Bytes& m = f.data;
      bool ok = false;
      switch (id) {
        case RF_MUT_FLIP_BIT:
          ok = FlipsOneBit(parent, m);
          break;
        case RF_MUT_CHANGE_BYTE:
          ok = ChangesOneByte(parent, m);
          break;
        case RF_MUT_INTERESTING:
          ok = WritesAnInterestingValue(parent, m);
          break;
        case RF_MUT_ARITH:
          ok = AddsOrSubtracts(parent, m);
          break;
        case RF_MUT_INSERT:
          ok = Inserts(parent, m, 4, false, false);
          break;
        case RF_MUT_INSERT_REPEATED:
          ok = Inserts(parent, m, repeated_most, false, /*repeated=*/true);
          break;
        case RF_MUT_ERASE:
          ok = ErasesUpTo4(parent, m);
          break;
        case RF_MUT_DUPLICATE:
          ok = Inserts(parent, m, block, /*block_of_parent=*/true, false);
          break;
        case RF_MUT_COPY:
          ok = CopiesABlock(parent, m, block);
          break;
        default:
          break;
      }
      EXPECT_TRUE(ok) << MutatorName(id) << " made a mutant of " << m.size()
                      << " bytes from one of " << parent.size();
    }
  }
  for (uint32_t id : {RF_MUT_FLIP_BIT, RF_MUT_CHANGE_BYTE, RF_MUT_INTERESTING,
                      RF_MUT_ARITH, RF_MUT_INSERT, RF_MUT_ERASE,
                      RF_MUT_DUPLICATE, RF_MUT_COPY, RF_MUT_INSERT_REPEATED}) {
    EXPECT_GT(seen[id], 0) << "no mutant of " << MutatorName(id);
  }
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// InsertRepeatedBytes: every HAVOC mutant of stack 1 that it made is the
// parent with one run of a single byte inserted. The branching engine
// inserts as many bytes as libFuzzer's does, 3 to 128 as many as fit: with
// a 16-byte parent and -max_len 256 its runs reach past 64 bytes and never
// past 128. The flat engine's micro-steps insert at most 4. On lavapipe
// HAVOC slots run on the havoc-only build, or on the full one without it.
TEST_P(GpuMutationTest, InsertRepeatedBytesTakesItsEnginesSizes) {
  for (const bool havoc_build : {true, false}) {
    SCOPED_TRACE(havoc_build ? "havoc-only build" : "full build");
    ExpectInsertRepeatedBytesTakesItsEnginesSizes(havoc_build);
  }
}

void GpuMutationTest::ExpectInsertRepeatedBytesTakesItsEnginesSizes(
    bool havoc_build) {
  auto executor = Make("every_mutant.fz", 256, /*keep_going=*/true,
                       /*coherent_lanes=*/4, havoc_build);
  ASSERT_NE(executor, nullptr);
  EXPECT_EQ(executor->havoc_build(), havoc_build);
  Bytes parent(16);
  for (size_t i = 0; i < parent.size(); ++i) parent[i] = 0x13 + 0x0B * i;
  ASSERT_TRUE(executor->AddInput(parent).ok());
  std::vector<WorkItem> work = Work(RF_OP_HAVOC, /*stack=*/1, 64);
  work.resize(32, work[0]);
  const bool flat = GetParam() == Engine::kFlat;
  const size_t limit = flat ? 4 : RF_INSERT_REPEATED_MAX;
  size_t most = 0;
  int runs = 0;
  for (uint64_t seed = 1; seed <= (flat ? 8 : 40) && (flat || most <= 64);
       ++seed) {
    absl::StatusOr<BatchResult> r = executor->RunBatch(work, seed);
    ASSERT_TRUE(r.ok()) << r.status();
    for (const Find& f : r->finds) {
      if (IsHostTrial(f) || f.mutations != Ids{RF_MUT_INSERT_REPEATED}) {
        continue;
      }
      ++runs;
      EXPECT_TRUE(Inserts(parent, f.data, limit, false, /*repeated=*/true))
          << "a mutant of " << f.data.size() << " bytes";
      most = std::max(most, f.data.size() - parent.size());
    }
  }
  EXPECT_GT(runs, 0);
  if (!flat) EXPECT_GT(most, 64u);
  EXPECT_LE(most, limit);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// Stacked mutants record their chain: the slot kind's mutation first, then
// up to stack - 1 havoc ones (TRIM: erases); each execution counts for its
// last mutation. A quarter of the mutants crash, so a lane's first
// reported one is at any depth.
TEST_P(GpuMutationTest, StackedMutantsRecordTheirChain) {
  auto executor = Make("some_mutants.fz", 64, /*keep_going=*/true);
  ASSERT_NE(executor, nullptr);
  Bytes parent(16);
  for (size_t i = 0; i < parent.size(); ++i) parent[i] = 0x13 + 0x0B * i;
  ASSERT_TRUE(executor->AddInput(parent).ok());
  ASSERT_TRUE(executor->AddInput(Str("partner-bytes")).ok());
  ASSERT_TRUE(executor->SetDictionary({Str("TOKEN")}).ok());
  std::map<uint32_t, uint32_t> first_of = {{RF_OP_SPLICE, RF_MUT_SPLICE},
                                           {RF_OP_DICT, RF_MUT_DICT},
                                           {RF_OP_TRIM, RF_MUT_ERASE}};
  for (const auto& [opcode, first] : first_of) {
    std::vector<WorkItem> work = Work(opcode, /*stack=*/4, 512, /*partner=*/1);
    std::set<size_t> depths;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      absl::StatusOr<BatchResult> r = executor->RunBatch(work, seed);
      ASSERT_TRUE(r.ok()) << r.status();
      uint64_t counted = 0;
      for (uint64_t n : r->mutator_executions) counted += n;
      EXPECT_EQ(counted, r->executions);
      // A quarter of the mutants are first of their chain.
      EXPECT_GE(r->mutator_executions[first], r->executions / 4);
      for (const Find& f : r->finds) {
        if (IsHostTrial(f)) continue;
        ASSERT_GE(f.mutations.size(), 1u);
        ASSERT_LE(f.mutations.size(), 4u);
        depths.insert(f.mutations.size());
        EXPECT_EQ(f.mutations[0], first) << "work kind " << opcode;
        for (size_t k = 1; k < f.mutations.size(); ++k) {
          if (opcode == RF_OP_TRIM) EXPECT_EQ(f.mutations[k], RF_MUT_ERASE);
          EXPECT_LE(f.mutations[k], RF_MUT_INSERT_REPEATED);
        }
      }
    }
    EXPECT_EQ(depths, (std::set<size_t>{1, 2, 3, 4})) << opcode;
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, GpuMutationTest,
                         testing::Values(Engine::kFlat, Engine::kBranching),
                         EngineName);

}  // namespace
}  // namespace ringfuzz
