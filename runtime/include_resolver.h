// Resolves GLSL #include directives from an in-memory list of sources, so
// that shaders compiled at run time never read the file system.

#ifndef RINGFUZZ_RUNTIME_INCLUDE_RESOLVER_H_
#define RINGFUZZ_RUNTIME_INCLUDE_RESOLVER_H_

#include <glslang/Public/ShaderLang.h>

#include <cstddef>
#include <string_view>

#include "absl/types/span.h"
#include "runtime/shader_compiler.h"

namespace ringfuzz::vk {

// Returns the entry of `sources` named exactly `name`, else the first whose
// base name (text after the last '/') equals that of `name`, else nullptr.
const SourceFile* FindInclude(absl::Span<const SourceFile> sources,
                              std::string_view name);

// glslang includer over `sources`, which must outlive it (results point into
// their text). "" and <> includes resolve the same way (FindInclude). An
// unknown name yields glslang's failure result, with a message listing the
// names that are known; glslang then reports the missing name itself.
class IncludeResolver : public glslang::TShader::Includer {
 public:
  explicit IncludeResolver(absl::Span<const SourceFile> sources)
      : sources_(sources) {}

  IncludeResult* includeLocal(const char* header_name,
                              const char* includer_name,
                              size_t inclusion_depth) override;
  IncludeResult* includeSystem(const char* header_name,
                               const char* includer_name,
                               size_t inclusion_depth) override;
  void releaseInclude(IncludeResult* result) override;

 private:
  absl::Span<const SourceFile> sources_;
};

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_INCLUDE_RESOLVER_H_
