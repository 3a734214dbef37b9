#include "runtime/progress_notice.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz::vk {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

// Collects the notice's lines (it prints from its own thread).
struct Lines {
  std::mutex mutex;
  std::vector<std::string> lines;
  std::function<void(const std::string&)> Sink() {
    return [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mutex);
      lines.push_back(line);
    };
  }
  std::vector<std::string> Get() {
    std::lock_guard<std::mutex> lock(mutex);
    return lines;
  }
};

TEST(ProgressNoticeTest, QuickCallPrintsNothing) {
  Lines lines;
  {
    ProgressNoticeOptions options;
    options.interval = absl::Seconds(10);
    options.print = lines.Sink();
    ProgressNotice notice("building the pipeline for quick.fz", options);
  }  // returns at once, without waiting for the interval
  EXPECT_THAT(lines.Get(), IsEmpty());
}

TEST(ProgressNoticeTest, LongCallPrintsProgressEveryInterval) {
  Lines lines;
  {
    ProgressNoticeOptions options;
    options.interval = absl::Milliseconds(1000);
    options.print = lines.Sink();
    ProgressNotice notice("building the pipeline for slow.fz", options);
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  }
  EXPECT_THAT(
      lines.Get(),
      ElementsAre("INFO: building the pipeline for slow.fz (1 s so far) ...",
                  "INFO: building the pipeline for slow.fz (2 s so far) ..."));
}

TEST(ProgressNoticeTest, CallPastTheBoundIsGivenUp) {
  Lines lines;
  std::atomic<bool> gave_up{false};
  {
    ProgressNoticeOptions options;
    options.interval = absl::Seconds(1);
    options.bound = absl::Seconds(1);
    options.bound_advice = "exiting";
    options.print = lines.Sink();
    options.give_up = [&gave_up] { gave_up = true; };
    ProgressNotice notice("building the pipeline for stuck.fz", options);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  }
  EXPECT_TRUE(gave_up);
  ASSERT_EQ(lines.Get().size(), 1u);
  EXPECT_THAT(lines.Get()[0],
              StartsWith("ERROR: building the pipeline for stuck.fz did not "
                         "finish in 1 s; exiting"));
}

}  // namespace
}  // namespace ringfuzz::vk
