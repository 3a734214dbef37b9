#include "fuzz/gpu/spirv_cache.h"

#include <elf.h>
#include <link.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "corpus/atomic_file.h"
#include "corpus/file_read.h"
#include "corpus/sha1.h"
#include "fuzz/gpu/cache_home.h"

namespace ringfuzz {
namespace {

// An entry: this magic, the SHA-1 of the words that follow, the words.
constexpr char kMagic[8] = {'R', 'F', 'S', 'P', 'V', '\x01', '\0', '\0'};
constexpr size_t kHeaderBytes = sizeof(kMagic) + kSha1DigestBytes;
constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr char kSuffix[] = ".spv";
constexpr char kMarkerSuffix[] = ".valid";

// Largest entry read back: far above any megakernel (about 200 KiB).
constexpr uint64_t kMaxEntryBytes = uint64_t{64} << 20;

// dl_iterate_phdr visits the program first: its GNU build-ID note. The
// notes are found from the program headers' own address (PT_PHDR), by the
// distance between the two in the program's address layout.
int FindBuildId(dl_phdr_info* info, size_t /*size*/, void* data) {
  auto* id = static_cast<std::string*>(data);
  const ElfW(Phdr)* headers = info->dlpi_phdr;
  const ElfW(Phdr)* self = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    if (headers[i].p_type == PT_PHDR) self = &headers[i];
  }
  if (self == nullptr) return 1;
  const auto* layout_base = reinterpret_cast<const uint8_t*>(headers);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = headers[i];
    if (ph.p_type != PT_NOTE) continue;
    const uint8_t* at = layout_base + (ph.p_vaddr - self->p_vaddr);
    const uint8_t* end = at + ph.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof(note));
      const uint8_t* name = at + sizeof(note);
      const uint8_t* desc = name + ((note.n_namesz + 3) & ~3u);
      const uint8_t* next = desc + ((note.n_descsz + 3) & ~3u);
      if (next > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        static constexpr char kHex[] = "0123456789abcdef";
        for (uint32_t k = 0; k < note.n_descsz; ++k) {
          id->push_back(kHex[desc[k] >> 4]);
          id->push_back(kHex[desc[k] & 15]);
        }
        return 1;
      }
      at = next;
    }
  }
  return 1;  // only the program itself
}

// Appends `text` with its length first, so that no two argument lists
// serialize alike.
void AppendField(std::string& key, absl::string_view text) {
  absl::StrAppend(&key, text.size(), ":", text, ";");
}

// Removes the oldest files of `dir` named *`suffix` beyond
// kSpirvCacheEntries.
void Prune(const std::string& dir, absl::string_view suffix) {
  std::error_code error;
  std::vector<std::pair<std::filesystem::file_time_type, std::string>> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::string path = entry.path().string();
    if (!entry.is_regular_file(error) || !absl::EndsWith(path, suffix)) {
      continue;
    }
    files.emplace_back(entry.last_write_time(error), path);
  }
  if (files.size() <= kSpirvCacheEntries) return;
  std::sort(files.begin(), files.end());
  for (size_t k = 0; k + kSpirvCacheEntries < files.size(); ++k) {
    std::filesystem::remove(files[k].second, error);
  }
}

// The words of the entry at `path`, or an empty vector when it is missing,
// unreadable or corrupt.
std::vector<uint32_t> ReadEntry(const std::string& path) {
  absl::StatusOr<Bytes> data = ReadFileAtMost(
      path, FileCap{kMaxEntryBytes, "SPIR-V cache entry", "it is recompiled"});
  if (!data.ok() || data->size() <= kHeaderBytes ||
      (data->size() - kHeaderBytes) % 4 != 0 ||
      std::memcmp(data->data(), kMagic, sizeof(kMagic)) != 0) {
    return {};
  }
  const ByteSpan payload = ByteSpan(*data).subspan(kHeaderBytes);
  const std::array<uint8_t, kSha1DigestBytes> digest = Sha1Digest(payload);
  if (std::memcmp(digest.data(), data->data() + sizeof(kMagic),
                  kSha1DigestBytes) != 0) {
    return {};
  }
  std::vector<uint32_t> words(payload.size() / 4);
  std::memcpy(words.data(), payload.data(), payload.size());
  if (words[0] != kSpirvMagic) return {};
  return words;
}

}  // namespace

std::string ProgramBuildId() {
  static const std::string* id = [] {
    auto* found = new std::string;
    dl_iterate_phdr(FindBuildId, found);
    return found;
  }();
  return *id;
}

std::string DefaultSpirvCacheDirectory() {
  if (const char* on = std::getenv("RINGFUZZ_SPIRV_CACHE");
      on != nullptr && std::strcmp(on, "0") == 0) {
    return "";
  }
  const std::string home = UserCacheHome();
  if (ProgramBuildId().empty() || home.empty()) return "";
  return absl::StrCat(home, "/ringfuzz/spirv");
}

std::string SpirvCachePath(const std::string& dir, const vk::SourceFile& main,
                           absl::Span<const vk::SourceFile> includes,
                           const vk::CompileOptions& options) {
  std::string key;
  AppendField(key, ProgramBuildId());
  AppendField(key, main.name);
  AppendField(key, main.text);
  AppendField(key, absl::StrCat(includes.size()));
  for (const vk::SourceFile& file : includes) {
    AppendField(key, file.name);
    AppendField(key, file.text);
  }
  AppendField(key, absl::StrCat(options.defines.size()));
  for (const auto& [name, value] : options.defines) {
    AppendField(key, name);
    AppendField(key, value);
  }
  AppendField(key, options.debug_info ? "debug" : "nodebug");
  const Bytes bytes(key.begin(), key.end());
  return absl::StrCat(dir, "/", Sha1Hex(bytes), kSuffix);
}

absl::Status WriteSpirvCacheEntry(const std::string& path,
                                  absl::Span<const uint32_t> spirv) {
  Bytes data(kHeaderBytes + spirv.size() * 4);
  std::memcpy(data.data(), kMagic, sizeof(kMagic));
  if (!spirv.empty()) {
    std::memcpy(data.data() + kHeaderBytes, spirv.data(), spirv.size() * 4);
  }
  const std::array<uint8_t, kSha1DigestBytes> digest =
      Sha1Digest(ByteSpan(data).subspan(kHeaderBytes));
  std::memcpy(data.data() + sizeof(kMagic), digest.data(), kSha1DigestBytes);
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(),
                                      error);
  return WriteFileAtomically(path, data);
}

absl::StatusOr<std::vector<uint32_t>> CompileComputeShaderCached(
    const std::string& dir, const vk::SourceFile& main,
    absl::Span<const vk::SourceFile> includes,
    const vk::CompileOptions& options) {
  if (dir.empty()) return vk::CompileComputeShader(main, includes, options);
  const std::string path = SpirvCachePath(dir, main, includes, options);
  if (std::vector<uint32_t> cached = ReadEntry(path); !cached.empty()) {
    return cached;
  }
  absl::StatusOr<std::vector<uint32_t>> spirv =
      vk::CompileComputeShader(main, includes, options);
  if (!spirv.ok()) return spirv;
  // Best effort: a cache that cannot be written only loses its saving.
  if (WriteSpirvCacheEntry(path, *spirv).ok()) Prune(dir, kSuffix);
  return spirv;
}

std::string ValidationMarkerPath(const std::string& dir,
                                 absl::Span<const uint32_t> spirv) {
  std::string key;
  AppendField(key, ProgramBuildId());
  Bytes bytes(key.begin(), key.end());
  const size_t at = bytes.size();
  bytes.resize(at + spirv.size() * 4);
  if (!spirv.empty())
    std::memcpy(bytes.data() + at, spirv.data(), spirv.size() * 4);
  return absl::StrCat(dir, "/", Sha1Hex(bytes), kMarkerSuffix);
}

absl::Status ValidateSpirvCached(const std::string& dir,
                                 absl::Span<const uint32_t> spirv) {
  if (dir.empty()) return vk::ValidateSpirv(spirv);
  const std::string marker = ValidationMarkerPath(dir, spirv);
  std::error_code error;
  if (std::filesystem::is_regular_file(marker, error)) {
    return absl::OkStatus();
  }
  absl::Status valid = vk::ValidateSpirv(spirv);
  if (!valid.ok()) return valid;
  std::filesystem::create_directories(dir, error);
  // Best effort, as for the entries.
  if (WriteFileAtomically(marker, ByteSpan()).ok()) Prune(dir, kMarkerSuffix);
  return absl::OkStatus();
}

}  // namespace ringfuzz
