#include "telemetry/decode_command.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "corpus/file_read.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/dump_check.h"
#include "telemetry/json_export.h"
#include "telemetry/ring_telemetry.h"
#include "telemetry/sketch_telemetry.h"
#include "telemetry/text_table.h"

namespace ringfuzz::telemetry {
namespace {

constexpr char kUsage[] =
    "usage: ringfuzz telemetry decode -control=FILE -ring=FILE\n"
    "           [-window_opcodes=a,b,...] [-sketch=DEPTHxWIDTH]\n"
    "           [-previous_control=FILE -previous_ring=FILE] [-json]\n"
    "  -control           control-buffer dump (640 to 157184 bytes)\n"
    "  -ring              ring-buffer dump (whole 64-byte slots, <= 64 MiB)\n"
    "  -window_opcodes    opcodes whose slots form ticketed windows\n"
    "  -sketch            add count-min sketch top entries, e.g. 4x1024\n"
    "                     (DEPTH <= 64, WIDTH <= 65536, DEPTH*WIDTH <= 2^20)\n"
    "  -previous_control  earlier control dump: adds watchdog health\n"
    "  -previous_ring     earlier ring dump (with -previous_control)\n"
    "  -json              print JSON instead of a table\n"
    "exit status: 0 ok, 1 unreadable file or bad dump, 2 bad flags\n";

// The largest dumps: the whole control buffer, and a ring of the most
// slots -batch_slots allows (1048576).
constexpr uint64_t kMaxControlDumpBytes = uint64_t{RF_CTRL_WORDS} * 4;
constexpr uint64_t kMaxRingDumpBytes = uint64_t{1} << 26;
static_assert(kMaxRingDumpBytes == (uint64_t{1} << 20) * RF_SLOT_BYTES);
static_assert(kMaxControlDumpBytes == 157184, "update kUsage's -control line");

// Sketch shapes the command builds (8 MiB of counters per sketch at most).
constexpr size_t kMaxSketchDepth = 64;
constexpr size_t kMaxSketchWidth = 65536;
constexpr size_t kMaxSketchCounters = size_t{1} << 20;

struct DecodeFlags {
  std::string control;
  std::string ring;
  std::string previous_control;
  std::string previous_ring;
  std::vector<uint32_t> window_opcodes;
  size_t sketch_depth = 0;
  size_t sketch_width = 0;
  bool json = false;
  bool help = false;
};

absl::StatusOr<uint32_t> ParseOpcode(absl::string_view text) {
  uint64_t value = 0;
  bool ok = false;
  if (absl::ConsumePrefix(&text, "0x") || absl::ConsumePrefix(&text, "0X")) {
    ok = !text.empty() && absl::SimpleHexAtoi(text, &value);
  } else {
    ok = absl::SimpleAtoi(text, &value);
  }
  if (!ok || value > std::numeric_limits<uint32_t>::max()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "-window_opcodes: '", text,
        "' is not a u32 opcode. Fix: list opcodes as decimal or 0x-hex "
        "numbers separated by commas, e.g. -window_opcodes=8,9,0xa."));
  }
  return static_cast<uint32_t>(value);
}

absl::Status ParseSketch(absl::string_view text, DecodeFlags& flags) {
  const std::vector<absl::string_view> parts = absl::StrSplit(text, 'x');
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &flags.sketch_depth) ||
      !absl::SimpleAtoi(parts[1], &flags.sketch_width) ||
      flags.sketch_depth == 0 || flags.sketch_width == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("-sketch: '", text,
                     "' is not DEPTHxWIDTH with both non-zero. Fix: pass e.g. "
                     "-sketch=4x1024."));
  }
  if (flags.sketch_depth > kMaxSketchDepth ||
      flags.sketch_width > kMaxSketchWidth ||
      flags.sketch_depth * flags.sketch_width > kMaxSketchCounters) {
    return absl::InvalidArgumentError(absl::StrCat(
        "-sketch: '", text, "' is larger than a decode sketch may be (DEPTH ",
        "at most ", kMaxSketchDepth, ", WIDTH at most ", kMaxSketchWidth,
        ", DEPTH*WIDTH at most ", kMaxSketchCounters,
        " counters). Fix: pass a smaller shape, e.g. -sketch=4x1024."));
  }
  return absl::OkStatus();
}

absl::Status ParseBool(absl::string_view name, absl::string_view text,
                       bool& out) {
  if (text == "true" || text == "1") {
    out = true;
  } else if (text == "false" || text == "0") {
    out = false;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("-", name, ": '", text, "' is not a boolean. Fix: pass -",
                     name, ", -", name, "=true or -", name, "=false."));
  }
  return absl::OkStatus();
}

absl::StatusOr<DecodeFlags> ParseFlags(absl::Span<const std::string> args) {
  DecodeFlags flags;
  for (const std::string& arg : args) {
    absl::string_view word = arg;
    if (!absl::ConsumePrefix(&word, "--")) absl::ConsumePrefix(&word, "-");
    if (word.size() == arg.size() || word.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unexpected argument '", arg,
          "'. Fix: pass everything as -name=value flags (see usage)."));
    }
    const size_t eq = word.find('=');
    const absl::string_view name = word.substr(0, eq);
    const std::optional<absl::string_view> value =
        eq == absl::string_view::npos
            ? std::nullopt
            : std::optional<absl::string_view>(word.substr(eq + 1));
    if (name == "json" || name == "help") {
      bool& target = name == "json" ? flags.json : flags.help;
      if (!value.has_value()) {
        target = true;
      } else if (absl::Status s = ParseBool(name, *value, target); !s.ok()) {
        return s;
      }
      continue;
    }
    std::string* path = name == "control"            ? &flags.control
                        : name == "ring"             ? &flags.ring
                        : name == "previous_control" ? &flags.previous_control
                        : name == "previous_ring"    ? &flags.previous_ring
                                                     : nullptr;
    const bool known =
        path != nullptr || name == "window_opcodes" || name == "sketch";
    if (!known) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown flag '", arg, "'. Fix: use the flags listed in the usage."));
    }
    if (!value.has_value() || value->empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "flag -", name, " needs a value. Fix: pass -", name, "=VALUE."));
    }
    if (path != nullptr) {
      *path = std::string(*value);
    } else if (name == "sketch") {
      if (absl::Status s = ParseSketch(*value, flags); !s.ok()) return s;
    } else {
      flags.window_opcodes.clear();
      for (absl::string_view item : absl::StrSplit(*value, ',')) {
        absl::StatusOr<uint32_t> opcode = ParseOpcode(item);
        if (!opcode.ok()) return opcode.status();
        flags.window_opcodes.push_back(*opcode);
      }
    }
  }
  if (flags.help) return flags;
  if (flags.control.empty() || flags.ring.empty()) {
    return absl::InvalidArgumentError(
        "both -control and -ring are required. Fix: pass the two dump "
        "files, e.g. -control=control.bin -ring=ring.bin.");
  }
  if (flags.previous_control.empty() != flags.previous_ring.empty()) {
    return absl::InvalidArgumentError(
        "-previous_control and -previous_ring go together. Fix: pass both "
        "dumps of the earlier snapshot, or neither.");
  }
  return flags;
}

// Reads the dump that -`flag` names, at most `cap.max_bytes` bytes; errors
// start with the flag and end with the fix.
absl::StatusOr<std::vector<uint8_t>> ReadDump(absl::string_view flag,
                                              const std::string& path,
                                              const FileCap& cap) {
  absl::StatusOr<std::vector<uint8_t>> bytes = ReadFileAtMost(path, cap);
  if (!bytes.ok()) {
    const bool too_large = absl::IsInvalidArgument(bytes.status());
    return absl::Status(
        bytes.status().code(),
        absl::StrCat("-", flag, ": ", bytes.status().message(),
                     too_large ? ""
                               : ". Fix: pass the path of an existing dump "
                                 "file."));
  }
  return bytes;
}

constexpr FileCap kControlCap{
    kMaxControlDumpBytes, "control dump",
    "no control buffer is larger. Fix: pass an epoch-NNNNNN.control file "
    "that -dump_buffers wrote."};
constexpr FileCap kRingCap{
    kMaxRingDumpBytes, "ring dump",
    "no ring holds more than 1048576 slots (-batch_slots' limit). Fix: pass "
    "an epoch-NNNNNN.ring file that -dump_buffers wrote."};

// Reads and strictly decodes one snapshot; errors name the flags.
absl::StatusOr<RingTelemetry> LoadSnapshot(
    absl::string_view control_flag, const std::string& control_path,
    absl::string_view ring_flag, const std::string& ring_path,
    absl::Span<const uint32_t> window_opcodes) {
  absl::StatusOr<std::vector<uint8_t>> control =
      ReadDump(control_flag, control_path, kControlCap);
  if (!control.ok()) return control.status();
  absl::StatusOr<std::vector<uint8_t>> ring =
      ReadDump(ring_flag, ring_path, kRingCap);
  if (!ring.ok()) return ring.status();
  absl::Status checked = CheckDump(*control, *ring);
  absl::StatusOr<RingTelemetry> telemetry =
      checked.ok() ? RingTelemetry::TryDecodeWithWindowOpcodes(*control, *ring,
                                                               window_opcodes)
                   : absl::StatusOr<RingTelemetry>(checked);
  if (!telemetry.ok()) {
    return absl::Status(
        telemetry.status().code(),
        absl::StrCat("-", control_flag, "='", control_path, "' -", ring_flag,
                     "='", ring_path, "': ", telemetry.status().message()));
  }
  return telemetry;
}

}  // namespace

int RunTelemetryDecode(absl::Span<const std::string> args, std::ostream& out,
                       std::ostream& err) {
  absl::StatusOr<DecodeFlags> flags = ParseFlags(args);
  if (!flags.ok()) {
    err << "telemetry decode: " << flags.status().message() << "\n" << kUsage;
    return kDecodeExitUsage;
  }
  if (flags->help) {
    out << kUsage;
    return kDecodeExitOk;
  }
  absl::StatusOr<RingTelemetry> now = LoadSnapshot(
      "control", flags->control, "ring", flags->ring, flags->window_opcodes);
  if (!now.ok()) {
    err << "telemetry decode: " << now.status().message() << "\n";
    return kDecodeExitFailed;
  }
  std::optional<RingTelemetry> previous;
  if (!flags->previous_control.empty()) {
    absl::StatusOr<RingTelemetry> loaded = LoadSnapshot(
        "previous_control", flags->previous_control, "previous_ring",
        flags->previous_ring, flags->window_opcodes);
    if (!loaded.ok()) {
      err << "telemetry decode: " << loaded.status().message() << "\n";
      return kDecodeExitFailed;
    }
    previous = *std::move(loaded);
  }
  if (flags->sketch_depth != 0) {
    // A sketch that cannot be built is a failed command, not an "error"
    // entry inside output that exits 0.
    absl::StatusOr<SketchTelemetry> sketch =
        now->Sketch(flags->sketch_depth, flags->sketch_width);
    if (!sketch.ok()) {
      err << "telemetry decode: -sketch: " << sketch.status().message() << "\n";
      return kDecodeExitFailed;
    }
  }
  ExportOptions options;
  options.previous = previous.has_value() ? &*previous : nullptr;
  options.sketch_depth = flags->sketch_depth;
  options.sketch_width = flags->sketch_width;
  if (flags->json) {
    out << ToJson(*now, options) << "\n";
  } else {
    out << ToTable(*now, options);
  }
  return kDecodeExitOk;
}

}  // namespace ringfuzz::telemetry
