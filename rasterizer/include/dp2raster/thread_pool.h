// dp2's own thread pool: the tile executor's scheduler in a build without TBB
// (DP2_WITH_TBB=OFF, for hosts that cannot take oneTBB's Apache-2.0 licence), and a
// plain parallel_for any embedder may hand back in as its HostExecutor.
//
// Fixed size, no globals: each owner (one per Renderer) has its own workers. They start
// on the first call that needs them and are joined by the destructor, never per call.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace dp2::raster {

class ThreadPool {
 public:
  // threads: how many threads run a parallel_for, the calling thread included (so
  // threads - 1 workers); 0 = one per core (std::thread::hardware_concurrency()).
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();  // stops and joins the workers; no parallel_for may be running
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Calls fn(context, i) exactly once for every i in [0, count), on the calling thread
  // and the workers, in any order, and returns when every call has returned. Any thread
  // may call it. A call made while the pool is busy — from another thread, or from inside
  // fn (nesting) — runs its indices on its own thread rather than wait, so it never
  // deadlocks. fn must not throw.
  void parallel_for(std::size_t count, void (*fn)(void* context, std::size_t index), void* context);

  // Threads a parallel_for uses, the caller included (≥ 1).
  unsigned size() const noexcept { return threads_; }

 private:
  struct Job {
    void (*fn)(void*, std::size_t);
    void* context;
    std::size_t count;
    std::atomic<std::size_t> next{0};  // the next index to claim
  };
  static void run(Job& job);
  void start_workers();  // caller holds busy_
  void work();           // a worker's loop

  const unsigned threads_;
  std::atomic<bool> busy_{false};  // a parallel_for owns the workers
  std::mutex mutex_;               // guards everything below
  std::condition_variable wake_;   // workers: a new job, or stop
  std::condition_variable idle_;   // the caller: active_ fell to 0
  Job* job_ = nullptr;             // the running job (lives on the caller's stack)
  std::uint64_t generation_ = 0;   // bumped per job, so a worker joins each job once
  unsigned active_ = 0;            // workers inside job_
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace dp2::raster
