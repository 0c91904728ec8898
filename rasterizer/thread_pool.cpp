// dp2's own thread pool (thread_pool.h). One job at a time: the caller publishes it under
// the mutex and every thread, the caller included, claims indices from one atomic
// counter, so a slow tile never holds up a queue behind it. The caller returns once it
// has run out of indices and no worker is still inside the job; the job lives on the
// caller's stack, and a worker that wakes later finds no job to join.
#include "dp2raster/thread_pool.h"

#include <system_error>

namespace dp2::raster {

namespace {
unsigned resolve(unsigned threads) {
  if (threads != 0) return threads;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores != 0 ? cores : 1;
}
}  // namespace

ThreadPool::ThreadPool(unsigned threads) : threads_(resolve(threads)) {}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::run(Job& job) {
  for (std::size_t i = job.next.fetch_add(1, std::memory_order_relaxed); i < job.count;
       i = job.next.fetch_add(1, std::memory_order_relaxed))
    job.fn(job.context, i);
}

void ThreadPool::start_workers() {
  std::lock_guard lock(mutex_);
  workers_.reserve(threads_ - 1);
  while (workers_.size() < threads_ - 1) {
    try {
      workers_.emplace_back([this] { work(); });
    } catch (const std::system_error&) {
      break;  // out of threads: the ones that started (and the caller) do the work
    }
  }
}

void ThreadPool::work() {
  std::unique_lock lock(mutex_);
  std::uint64_t seen = 0;
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || (job_ != nullptr && generation_ != seen); });
    if (stop_) return;
    seen = generation_;
    Job& job = *job_;
    ++active_;
    lock.unlock();
    run(job);
    lock.lock();
    if (--active_ == 0) idle_.notify_one();
  }
}

void ThreadPool::parallel_for(std::size_t count, void (*fn)(void*, std::size_t), void* context) {
  // Serial: nothing to share, no workers, or the workers are another call's (a second
  // caller, or fn calling back in) — running here keeps both calls going.
  if (count <= 1 || threads_ == 1 || busy_.exchange(true, std::memory_order_acquire)) {
    for (std::size_t i = 0; i < count; ++i) fn(context, i);
    return;
  }
  if (workers_.size() < threads_ - 1) start_workers();
  Job job{fn, context, count};
  {
    std::lock_guard lock(mutex_);
    job_ = &job;
    ++generation_;
  }
  wake_.notify_all();
  run(job);
  {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return active_ == 0; });
    job_ = nullptr;
  }
  busy_.store(false, std::memory_order_release);
}

}  // namespace dp2::raster
