#include "tests/engine/engine_run.h"

#include <sstream>

namespace ringfuzz {

EngineRun RunEngineOn(const Config& config, Executor& executor,
                      const std::vector<std::string>& positional, Clock& clock,
                      const SteeringOptions& steering) {
  std::ostringstream out;
  Engine engine(config, executor, out, clock, steering);
  EngineRun run;
  run.code = engine.Run(positional);
  run.log = out.str();
  run.executions = engine.total_executions();
  for (size_t i = 0; i < engine.corpus().size(); ++i) {
    run.corpus.push_back(engine.corpus().entry(i).data);
  }
  return run;
}

}  // namespace ringfuzz
