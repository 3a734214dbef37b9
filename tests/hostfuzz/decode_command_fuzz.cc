// libFuzzer harness of `ringfuzz telemetry decode` (telemetry/
// decode_command.h) end to end: the buffers are written to files, the
// command reads them back with its caps and dump checks, and its exit code
// must be what the flags and CheckDump (telemetry/dump_check.h) predict:
// 2 for a bad -sketch or a bad extra flag, else 1 iff a pair is not a dump,
// else 0 with output on `out` only.
//
// Input (tests/hostfuzz/fuzz_input.h): Part() options, Part() control,
// Part() ring, Part() previous control, Rest() previous ring. Options, read
// with Byte()/Word() (0 when missing): flags (1 -json, 2 previous pair,
// 4 -sketch, 8 -window_opcodes, 16 extra flags), sketch depth % 80, sketch
// width % 70000, three window opcodes, then the extra flags as text, one
// per line (those naming files are dropped: the command reads only the
// harness's files).
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "telemetry/decode_command.h"
#include "telemetry/dump_check.h"
#include "tests/hostfuzz/fuzz_input.h"

namespace ringfuzz::telemetry {
namespace {

// A directory of this process for the dump files, removed at exit. It lies
// on /dev/shm (tmpfs) where there is one, so that the command's opens and
// reads cost no disk; each file stays open here and Write() rewrites it in
// place (the command still opens and reads it by name), or not at all when
// it already holds those bytes.
class DumpDir {
 public:
  DumpDir() {
    char shm[] = "/dev/shm/hostfuzz_decode.XXXXXX";
    char tmp[] = "/tmp/hostfuzz_decode.XXXXXX";
    const char* made = mkdtemp(shm);
    if (made == nullptr) made = mkdtemp(tmp);
    HOSTFUZZ_CHECK(made != nullptr);
    path_ = made;
    for (size_t i = 0; i < kFiles; ++i) {
      fds_[i] = open(File(kNames[i]).c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
      HOSTFUZZ_CHECK(fds_[i] >= 0);
    }
  }
  ~DumpDir() {
    for (size_t i = 0; i < kFiles; ++i) {
      close(fds_[i]);
      unlink(File(kNames[i]).c_str());
    }
    rmdir(path_.c_str());
  }
  DumpDir(const DumpDir&) = delete;
  DumpDir& operator=(const DumpDir&) = delete;

  std::string File(const char* name) const { return path_ + "/" + name; }

  // Makes file `name` (one of kNames) hold exactly `bytes`.
  void Write(const char* name, const std::vector<uint8_t>& bytes) {
    const size_t i = Index(name);
    if (written_[i] == bytes) return;
    HOSTFUZZ_CHECK(ftruncate(fds_[i], 0) == 0);
    HOSTFUZZ_CHECK(pwrite(fds_[i], bytes.data(), bytes.size(), 0) ==
                   static_cast<ssize_t>(bytes.size()));
    written_[i] = bytes;
  }

  static constexpr size_t kFiles = 4;
  static constexpr const char* kNames[kFiles] = {
      "control", "ring", "previous_control", "previous_ring"};

 private:
  static size_t Index(const char* name) {
    for (size_t i = 0; i < kFiles; ++i) {
      if (std::strcmp(name, kNames[i]) == 0) return i;
    }
    HOSTFUZZ_CHECK(false);
    return 0;
  }

  std::string path_;
  int fds_[kFiles] = {-1, -1, -1, -1};
  std::vector<uint8_t> written_[kFiles];  // what each file holds now
};

bool NamesAFile(const std::string& arg) {
  return arg.find("control") != std::string::npos ||
         arg.find("ring") != std::string::npos;
}

void RunOne(const uint8_t* data, size_t size) {
  static DumpDir dump_dir;  // one per process, removed at exit
  DumpDir* dir = &dump_dir;
  hostfuzz::FuzzInput input(data, size);
  const std::vector<uint8_t> option_bytes = input.Part();
  const std::vector<uint8_t> control = input.Part();
  const std::vector<uint8_t> ring = input.Part();
  const std::vector<uint8_t> previous_control = input.Part();
  const std::vector<uint8_t> previous_ring = input.Rest();
  hostfuzz::FuzzInput options(option_bytes.data(), option_bytes.size());
  const uint8_t flags = options.Byte();
  const uint32_t depth = options.Byte() % 80;
  const uint32_t width = options.Word() % 70000;
  const uint32_t opcodes[3] = {options.Byte(), options.Byte(), options.Byte()};
  const std::vector<uint8_t> extra_text = options.Rest();

  dir->Write("control", control);
  dir->Write("ring", ring);
  std::vector<std::string> args = {"-control=" + dir->File("control"),
                                   "-ring=" + dir->File("ring")};
  int expected = kDecodeExitOk;
  if (!CheckDump(control, ring).ok()) expected = kDecodeExitFailed;
  if (flags & 1) args.push_back("-json");
  if (flags & 2) {
    dir->Write("previous_control", previous_control);
    dir->Write("previous_ring", previous_ring);
    args.push_back("-previous_control=" + dir->File("previous_control"));
    args.push_back("--previous_ring=" + dir->File("previous_ring"));
    if (!CheckDump(previous_control, previous_ring).ok()) {
      expected = kDecodeExitFailed;
    }
  }
  if (flags & 4) {
    args.push_back(absl::StrCat("-sketch=", depth, "x", width));
    if (depth == 0 || width == 0 || depth > 64 || width > 65536 ||
        uint64_t{depth} * width > (uint64_t{1} << 20)) {
      expected = kDecodeExitUsage;
    }
  }
  if (flags & 8) {
    args.push_back(absl::StrCat("-window_opcodes=", opcodes[0], ",0x",
                                absl::Hex(opcodes[1]), ",", opcodes[2]));
  }
  bool extras = false;
  if (flags & 16) {
    const std::string text(extra_text.begin(), extra_text.end());
    for (absl::string_view word : absl::StrSplit(text, '\n')) {
      std::string arg(word);
      if (NamesAFile(arg)) continue;
      args.push_back(std::move(arg));
      extras = true;
    }
  }

  std::ostringstream out;
  std::ostringstream err;
  const int rc = RunTelemetryDecode(args, out, err);
  HOSTFUZZ_CHECK(rc == kDecodeExitOk || rc == kDecodeExitFailed ||
                 rc == kDecodeExitUsage);
  if (rc == kDecodeExitOk) {
    HOSTFUZZ_CHECK(!out.str().empty());
  } else {
    HOSTFUZZ_CHECK(!err.str().empty());
  }
  if (!extras) HOSTFUZZ_CHECK(rc == expected);
}

}  // namespace
}  // namespace ringfuzz::telemetry

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ringfuzz::telemetry::RunOne(data, size);
  return 0;
}
