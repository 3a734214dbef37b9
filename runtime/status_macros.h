// Early-return helpers for absl::Status / absl::StatusOr.
//
// Abseil 20220623 (the Debian 12 package) ships no public status macros, so
// the runtime carries these two. They only propagate errors; they never log.

#ifndef RINGFUZZ_RUNTIME_STATUS_MACROS_H_
#define RINGFUZZ_RUNTIME_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Returns from the enclosing function with the status of `expr` iff it is not
// OK. The enclosing function must return absl::Status or absl::StatusOr<T>.
#define RINGFUZZ_RETURN_IF_ERROR(expr)                   \
  do {                                                   \
    ::absl::Status ringfuzz_status_ = (expr);            \
    if (!ringfuzz_status_.ok()) return ringfuzz_status_; \
  } while (0)

#define RINGFUZZ_STATUS_CONCAT_INNER_(a, b) a##b
#define RINGFUZZ_STATUS_CONCAT_(a, b) RINGFUZZ_STATUS_CONCAT_INNER_(a, b)

// Evaluates `expr` (an absl::StatusOr<T>); on error returns its status from the
// enclosing function, otherwise moves the value into `lhs` (which may be a
// declaration such as `auto x`).
#define RINGFUZZ_ASSIGN_OR_RETURN(lhs, expr) \
  RINGFUZZ_ASSIGN_OR_RETURN_IMPL_(           \
      RINGFUZZ_STATUS_CONCAT_(ringfuzz_statusor_, __LINE__), lhs, expr)

// `statusor` names a variable and `lhs` may be a declaration, so neither
// can be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define RINGFUZZ_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                                    \
  if (!statusor.ok()) return std::move(statusor).status();   \
  lhs = std::move(statusor).value()
// NOLINTEND(bugprone-macro-parentheses)

#endif  // RINGFUZZ_RUNTIME_STATUS_MACROS_H_
