// The tile executor: how the rasterizer runs its parallel work (tiles at flush, rounds of
// setup chunks for a large draw). ARCHITECTURE.md: "threads belong to the host" — the
// embedder sets the thread count, may hand in its own pool, and a build without TBB
// (DP2_WITH_TBB=OFF) schedules on dp2's own ThreadPool. executor.cpp is the one file
// that talks to TBB (STYLE.md §12).
#pragma once

#include <cstddef>
#include <memory>

#include "dp2raster/renderer.h"

namespace dp2::raster {

class TileExecutor {
 public:
  // threads: 0 = the scheduler's default (one per core), 1 = every index on the calling
  // thread; host: the embedder's parallel_for, used instead of dp2's own scheduler.
  TileExecutor(unsigned threads, HostExecutor host);
  ~TileExecutor();
  TileExecutor(const TileExecutor&) = delete;
  TileExecutor& operator=(const TileExecutor&) = delete;

  // Runs fn(context, i) once for every i in [0, count) and returns when all have returned:
  //   the host's parallel_for when it has one, threads != 1 and count > 1;
  //   else on the calling thread when threads == 1 or count <= 1;
  //   else TBB (a task arena of `threads` when threads > 0) in a DP2_WITH_TBB build,
  //   dp2's ThreadPool otherwise.
  // One owner calls it (the Renderer's thread); fn must not throw. Indices run on other
  // threads set dp2's floating-point environment (float_env.h) and restore the thread's;
  // those on the calling thread run in its environment, which the Renderer has set.
  void for_each_tile(std::size_t count, void (*fn)(void* context, std::size_t index), void* context);

  unsigned threads() const noexcept { return threads_; }
  const HostExecutor& host() const noexcept { return host_; }

  // "tbb" or "thread pool": what schedules when neither the host nor threads == 1 does.
  static const char* scheduler() noexcept;

 private:
  struct Own;  // the TBB arena or the ThreadPool (executor.cpp), made on first parallel use
  unsigned threads_;
  HostExecutor host_;
  std::unique_ptr<Own> own_;
};

}  // namespace dp2::raster
