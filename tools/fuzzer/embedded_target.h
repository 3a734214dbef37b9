// The target a <name>_fuzzer binary fuzzes, compiled into it by
// fuzzer.cmake (embed_target.cmake writes the definition).
#ifndef RINGFUZZ_TOOLS_FUZZER_EMBEDDED_TARGET_H_
#define RINGFUZZ_TOOLS_FUZZER_EMBEDDED_TARGET_H_

namespace ringfuzz {

struct EmbeddedTarget {
  const char* name;    // the fuzzer's name without "_fuzzer"
  const char* path;    // the absolute path it was built from
  const char* source;  // the file's text
};

const EmbeddedTarget& GetEmbeddedTarget();

}  // namespace ringfuzz

#endif  // RINGFUZZ_TOOLS_FUZZER_EMBEDDED_TARGET_H_
