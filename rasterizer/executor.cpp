// The tile executor (executor.h): the only file that uses TBB (STYLE.md §12). A build
// with DP2_WITH_TBB=0 schedules on dp2's own ThreadPool instead.
#include "dp2raster/executor.h"

#include "dp2raster/float_env.h"

#if DP2_WITH_TBB
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <optional>
#else
#include "dp2raster/thread_pool.h"
#endif

namespace dp2::raster {

#if DP2_WITH_TBB
// threads > 0: an arena of that concurrency, kept for the executor's life (TBB starts its
// workers on first use). threads == 0: TBB's implicit arena, one worker per core.
struct TileExecutor::Own {
  explicit Own(unsigned threads) {
    if (threads > 0) arena.emplace(static_cast<int>(threads));
  }
  std::optional<tbb::task_arena> arena;

  void parallel_for(std::size_t count, void (*fn)(void*, std::size_t), void* context) {
    auto body = [&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count), [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) fn(context, i);
      });
    };
    if (arena)
      arena->execute(body);
    else
      body();
  }
};
const char* TileExecutor::scheduler() noexcept { return "tbb"; }
#else
struct TileExecutor::Own {
  explicit Own(unsigned threads) : pool(threads) {}  // 0: one per core
  ThreadPool pool;

  void parallel_for(std::size_t count, void (*fn)(void*, std::size_t), void* context) {
    pool.parallel_for(count, fn, context);
  }
};
const char* TileExecutor::scheduler() noexcept { return "thread pool"; }
#endif

TileExecutor::TileExecutor(unsigned threads, HostExecutor host) : threads_(threads), host_(host) {}
TileExecutor::~TileExecutor() = default;

namespace {
// Each index runs in dp2's floating-point environment on whatever thread takes it (TBB's
// and the host's workers serve other work too), and leaves that thread's own as it was.
struct InDefaultFloatEnvironment {
  void (*fn)(void*, std::size_t);
  void* context;
};
void run_in_default_float_environment(void* wrapped, std::size_t index) {
  const auto* w = static_cast<const InDefaultFloatEnvironment*>(wrapped);
  const DefaultFloatEnvironment fp;
  w->fn(w->context, index);
}
}  // namespace

void TileExecutor::for_each_tile(std::size_t count, void (*fn)(void*, std::size_t), void* context) {
  if (threads_ == 1 || count <= 1) {  // the calling thread, whose environment the Renderer set
    for (std::size_t i = 0; i < count; ++i) fn(context, i);
    return;
  }
  InDefaultFloatEnvironment wrapped{fn, context};
  if (host_.parallel_for) {
    host_.parallel_for(host_.user, count, run_in_default_float_environment, &wrapped);
    return;
  }
  if (!own_) own_ = std::make_unique<Own>(threads_);
  own_->parallel_for(count, run_in_default_float_environment, &wrapped);
}

}  // namespace dp2::raster
