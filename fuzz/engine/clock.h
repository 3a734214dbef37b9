// Time as the engine sees it. The engine reads time only through a Clock so
// that tests can drive -max_total_time, exec/s and pulse lines
// deterministically (no sleeping, no timing assertions).
#ifndef RINGFUZZ_FUZZ_ENGINE_CLOCK_H_
#define RINGFUZZ_FUZZ_ENGINE_CLOCK_H_

#include "absl/time/time.h"

namespace ringfuzz {

class Clock {
 public:
  virtual ~Clock() = default;
  // Returns a monotonic time since an arbitrary origin.
  virtual absl::Duration Now() = 0;
};

// Returns the process-wide steady clock (stateless, thread-safe).
Clock& RealClock();

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_CLOCK_H_
