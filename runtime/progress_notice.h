// Word from a call that may take long and cannot be interrupted (a driver
// compiling a pipeline): a watcher thread prints progress while it runs and
// gives up on it, ending the process, past a bound.

#ifndef RINGFUZZ_RUNTIME_PROGRESS_NOTICE_H_
#define RINGFUZZ_RUNTIME_PROGRESS_NOTICE_H_

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "absl/time/time.h"

namespace ringfuzz::vk {

struct ProgressNoticeOptions {
  // A line every `interval` while the call runs, the first after one
  // interval: a call that ends sooner prints nothing.
  absl::Duration interval = absl::Seconds(5);
  // Past this (if not zero) the call is given up: one ERROR line, then
  // `give_up` runs (default: the process exits with status 1, since a
  // driver call cannot be cancelled and would otherwise hold the run).
  absl::Duration bound = absl::ZeroDuration();
  std::string bound_advice;  // appended to the ERROR line: what to do
  // Where lines go (default: stderr, each with a newline).
  std::function<void(const std::string&)> print;
  std::function<void()> give_up;
};

// While alive, prints "INFO: <what> (<N> s so far) ..." every interval and,
// past the bound, "ERROR: <what> did not finish in <bound> s; <advice>" and
// gives up. `what` reads as a gerund phrase: "building the pipeline for
// tlv.fz". The destructor stops the watcher (and joins it) at once.
class ProgressNotice {
 public:
  ProgressNotice(std::string what, ProgressNoticeOptions options);
  ProgressNotice(const ProgressNotice&) = delete;
  ProgressNotice& operator=(const ProgressNotice&) = delete;
  ~ProgressNotice();

 private:
  void Watch();

  const std::string what_;
  const ProgressNoticeOptions options_;
  std::mutex mutex_;
  std::condition_variable done_changed_;
  bool done_ = false;
  std::thread watcher_;  // last: started once the rest is set
};

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_PROGRESS_NOTICE_H_
