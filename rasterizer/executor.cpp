// The tile executor: the only file that uses TBB (STYLE.md §12), so another scheduler
// (a host's thread pool, a build without TBB) replaces this file alone.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "scene.h"

namespace dp2::raster {

void for_each_tile(unsigned threads, const HostExecutor& host, std::size_t count, void (*fn)(void*, std::size_t),
                   void* context) {
  if (host.parallel_for && threads != 1 && count > 1) {
    host.parallel_for(host.user, count, fn, context);
    return;
  }
  if (threads == 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i) fn(context, i);
    return;
  }
  auto body = [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) fn(context, i);
    });
  };
  if (threads == 0) {
    body();
  } else {
    tbb::task_arena arena(static_cast<int>(threads));
    arena.execute(body);
  }
}

}  // namespace dp2::raster
