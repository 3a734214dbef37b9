#include "fuzz/engine/interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace ringfuzz {
namespace {

std::atomic<int> interrupt_signal{0};
std::atomic<int> second_signal_exit{72};

void OnInterrupt(int signal_number) {
  int expected = 0;
  if (!interrupt_signal.compare_exchange_strong(expected, signal_number)) {
    _exit(second_signal_exit.load());  // a second signal: stop now
  }
}

}  // namespace

void InstallInterruptHandlers(int exit_code) {
  second_signal_exit.store(exit_code);
  struct sigaction action = {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool Interrupted() { return interrupt_signal.load(std::memory_order_relaxed); }

int InterruptSignal() { return interrupt_signal.load(); }

void ResetInterrupt() { interrupt_signal.store(0); }

void RequestInterrupt(int signal_number) {
  int expected = 0;
  interrupt_signal.compare_exchange_strong(expected, signal_number);
}

}  // namespace ringfuzz
