#include "corpus/async_writer.h"

#include <utility>

#include "corpus/atomic_file.h"

namespace ringfuzz {

AsyncWriter::AsyncWriter() : thread_([this] { Loop(); }) {}

AsyncWriter::~AsyncWriter() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  thread_.join();
}

void AsyncWriter::Write(std::string path, Bytes data, uint64_t tag) {
  absl::MutexLock lock(&mu_);
  queue_.push_back({tag, std::move(path), std::move(data)});
  ++outstanding_;
}

std::vector<AsyncWriter::Written> AsyncWriter::TakeWritten() {
  absl::MutexLock lock(&mu_);
  std::vector<Written> done = std::move(written_);
  written_.clear();
  outstanding_ -= done.size();
  return done;
}

std::vector<AsyncWriter::Written> AsyncWriter::Finish() {
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(
      +[](AsyncWriter* w) ABSL_EXCLUSIVE_LOCKS_REQUIRED(w->mu_) {
        return w->queue_.empty() && !w->busy_;
      },
      this));
  std::vector<Written> done = std::move(written_);
  written_.clear();
  outstanding_ -= done.size();
  return done;
}

size_t AsyncWriter::outstanding() const {
  absl::MutexLock lock(&mu_);
  return outstanding_;
}

void AsyncWriter::Loop() {
  while (true) {
    Job job;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(
          +[](AsyncWriter* w) ABSL_EXCLUSIVE_LOCKS_REQUIRED(w->mu_) {
            return !w->queue_.empty() || w->stopping_;
          },
          this));
      if (queue_.empty()) return;  // stopping, nothing left
      job = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
    }
    absl::Status status = WriteFileAtomically(job.path, job.data);
    absl::MutexLock lock(&mu_);
    written_.push_back({job.tag, std::move(job.path), std::move(status)});
    busy_ = false;
  }
}

}  // namespace ringfuzz
