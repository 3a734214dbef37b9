// SIGINT and SIGTERM, as libFuzzer handles them: the first one asks the
// fuzzing loop to stop (it finishes the rounds in flight, saves what they
// found, prints "==PID== libFuzzer: run interrupted; exiting" and the final
// stats, and exits with -interrupted_exitcode); a second one while it
// stops exits at once with that code.
#ifndef RINGFUZZ_FUZZ_ENGINE_INTERRUPT_H_
#define RINGFUZZ_FUZZ_ENGINE_INTERRUPT_H_

namespace ringfuzz {

// Installs the handlers for SIGINT and SIGTERM, also where the process
// started with them ignored (a script's `cmd &`), as libFuzzer does.
// `exit_code` is what a second signal exits with.
void InstallInterruptHandlers(int exit_code);

// Whether a SIGINT or SIGTERM arrived since the handlers were installed
// (or since ResetInterrupt). Async-signal-safe to set, cheap to read.
bool Interrupted();

// The signal that interrupted (SIGINT or SIGTERM), 0 if none.
int InterruptSignal();

// Forgets an interrupt (tests).
void ResetInterrupt();

// Raises the interrupt as a signal would (tests).
void RequestInterrupt(int signal_number);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_INTERRUPT_H_
