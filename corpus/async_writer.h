// Whole-file writes off the caller's thread.
//
// A campaign that finds tens of inputs at once would stall its device while
// each is written and synced (WriteFileAtomically); an AsyncWriter writes
// them on a thread of its own, in the order they were queued, and hands back
// each result so the caller can report an input only once it is on disk.
#ifndef RINGFUZZ_CORPUS_ASYNC_WRITER_H_
#define RINGFUZZ_CORPUS_ASYNC_WRITER_H_

#include <cstdint>
#include <deque>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "corpus/bytes.h"

namespace ringfuzz {

class AsyncWriter {
 public:
  // One finished write: the `tag` it was queued with and
  // WriteFileAtomically's result.
  struct Written {
    uint64_t tag = 0;
    std::string path;
    absl::Status status;
  };

  AsyncWriter();
  // Finishes every queued write, then ends the thread.
  ~AsyncWriter();
  AsyncWriter(const AsyncWriter&) = delete;
  AsyncWriter& operator=(const AsyncWriter&) = delete;

  // Queues WriteFileAtomically(path, data); returns at once.
  void Write(std::string path, Bytes data, uint64_t tag);
  // The writes finished since the last call, in the order they were
  // queued; never waits. A write is returned once, after its file is
  // complete (or its failure is known).
  std::vector<Written> TakeWritten();
  // As TakeWritten, after waiting for every write queued so far.
  std::vector<Written> Finish();
  // Writes queued and not yet returned by TakeWritten or Finish.
  size_t outstanding() const;

 private:
  struct Job {
    uint64_t tag = 0;
    std::string path;
    Bytes data;
  };
  void Loop();

  mutable absl::Mutex mu_;
  std::deque<Job> queue_ ABSL_GUARDED_BY(mu_);
  std::vector<Written> written_ ABSL_GUARDED_BY(mu_);
  size_t outstanding_ ABSL_GUARDED_BY(mu_) = 0;
  bool busy_ ABSL_GUARDED_BY(mu_) = false;  // the thread holds a job
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_CORPUS_ASYNC_WRITER_H_
