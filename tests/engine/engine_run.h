// One whole Engine::Run in a test, and what it leaves behind: the engine,
// corpus-full, reload and steering tests all run the engine this way.
#ifndef RINGFUZZ_TESTS_ENGINE_ENGINE_RUN_H_
#define RINGFUZZ_TESTS_ENGINE_ENGINE_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/engine/clock.h"
#include "fuzz/engine/engine.h"
#include "fuzz/engine/executor.h"

namespace ringfuzz {

struct EngineRun {
  int code = -1;    // Engine::Run's return value
  std::string log;  // everything the engine printed
  uint64_t executions = 0;
  std::vector<Bytes> corpus;  // the in-memory corpus at the end, in order
};

// Runs a fresh Engine over `positional` (corpus directories or inputs, as on
// the command line) with `clock` and `steering`.
EngineRun RunEngineOn(const Config& config, Executor& executor,
                      const std::vector<std::string>& positional, Clock& clock,
                      const SteeringOptions& steering = {});

}  // namespace ringfuzz

#endif  // RINGFUZZ_TESTS_ENGINE_ENGINE_RUN_H_
