#include "runtime/progress_notice.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace ringfuzz::vk {

ProgressNotice::ProgressNotice(std::string what, ProgressNoticeOptions options)
    : what_(std::move(what)),
      options_(std::move(options)),
      watcher_([this] { Watch(); }) {}

ProgressNotice::~ProgressNotice() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  done_changed_.notify_all();
  watcher_.join();
}

void ProgressNotice::Watch() {
  auto print = [this](const std::string& line) {
    if (options_.print) {
      options_.print(line);
    } else {
      std::fprintf(stderr, "%s\n", line.c_str());
      std::fflush(stderr);
    }
  };
  const absl::Time start = absl::Now();
  absl::Time next = start + options_.interval;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    absl::Time wake = next;
    const bool bounded = options_.bound > absl::ZeroDuration();
    if (bounded) wake = std::min(wake, start + options_.bound);
    if (done_changed_.wait_until(lock, absl::ToChronoTime(wake),
                                 [this] { return done_; })) {
      return;
    }
    const absl::Time now = absl::Now();
    if (bounded && now >= start + options_.bound) {
      print(absl::StrCat("ERROR: ", what_, " did not finish in ",
                         absl::ToInt64Seconds(options_.bound), " s; ",
                         options_.bound_advice));
      if (options_.give_up) {
        options_.give_up();
        return;
      }
      std::_Exit(1);
    }
    if (now >= next) {
      print(absl::StrCat("INFO: ", what_, " (",
                         absl::ToInt64Seconds(now - start), " s so far) ..."));
      next += options_.interval;
    }
  }
}

}  // namespace ringfuzz::vk
