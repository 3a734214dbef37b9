#include "fuzz/engine/bug_signature.h"

#include "absl/strings/str_cat.h"
#include "fuzz/engine/bug_report.h"

namespace ringfuzz {

BugSignature SignatureOf(const Find& find) {
  BugSignature signature;
  signature.kind = find.kind;
  signature.code = find.kind == Find::Kind::kCrash ? find.code : 0;
  signature.function = find.function;
  signature.file = find.file;
  signature.line = find.line;
  return signature;
}

std::string DescribeSignature(const BugSignature& signature) {
  Find find;
  find.kind = signature.kind;
  find.code = signature.code;
  std::string text = BugCategory(find);
  if (!signature.function.empty()) {
    absl::StrAppend(&text, " in ", signature.function);
  }
  if (!signature.file.empty()) {
    absl::StrAppend(&text, " ", signature.file, ":", signature.line);
  }
  return text;
}

absl::StatusOr<std::vector<std::optional<BugSignature>>> ReproduceEach(
    Executor& executor, absl::Span<const Bytes> inputs, uint64_t* executions) {
  absl::StatusOr<BatchResult> result = executor.ExecuteEach(inputs);
  if (!result.ok()) return result.status();
  if (executions != nullptr) *executions += result->executions;
  std::vector<std::optional<BugSignature>> signatures(inputs.size());
  for (const Find& find : result->finds) {
    if (!IsBug(find.kind) || find.parent >= inputs.size()) continue;
    std::optional<BugSignature>& slot = signatures[find.parent];
    if (!slot) slot = SignatureOf(find);
  }
  return signatures;
}

}  // namespace ringfuzz
