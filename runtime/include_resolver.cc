#include "runtime/include_resolver.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace ringfuzz::vk {
namespace {

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

const SourceFile* FindInclude(absl::Span<const SourceFile> sources,
                              std::string_view name) {
  for (const SourceFile& source : sources) {
    if (source.name == name) return &source;
  }
  for (const SourceFile& source : sources) {
    if (BaseName(source.name) == BaseName(name)) return &source;
  }
  return nullptr;
}

IncludeResolver::IncludeResult* IncludeResolver::includeLocal(
    const char* header_name, const char* /*includer_name*/,
    size_t /*inclusion_depth*/) {
  // On a miss glslang falls back to includeSystem, which reports it.
  const SourceFile* source = FindInclude(sources_, header_name);
  if (source == nullptr) return nullptr;
  return new IncludeResult(source->name, source->text.data(),
                           source->text.size(), nullptr);
}

IncludeResolver::IncludeResult* IncludeResolver::includeSystem(
    const char* header_name, const char* includer_name,
    size_t inclusion_depth) {
  IncludeResult* found =
      includeLocal(header_name, includer_name, inclusion_depth);
  if (found != nullptr) return found;
  std::vector<std::string> known;
  for (const SourceFile& s : sources_) known.push_back(s.name);
  // The failure text must outlive the result; userData owns it. glslang
  // appends " for header name: <name>".
  auto* message = new std::string(absl::StrCat(
      "unknown include \"", header_name, "\" (the sources given are: ",
      known.empty() ? "none" : absl::StrJoin(known, ", "), "),"));
  return new IncludeResult("", message->data(), message->size(), message);
}

void IncludeResolver::releaseInclude(IncludeResult* result) {
  if (result == nullptr) return;
  delete static_cast<std::string*>(result->userData);
  delete result;
}

}  // namespace ringfuzz::vk
