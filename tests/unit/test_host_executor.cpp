// A host-provided executor (an emulator's own thread pool) runs the rasterizer's tiles,
// and the image is the same as with dp2's own executor: tiles own their pixels and keep
// submission order inside, so neither the executor nor the order it runs tiles in can
// change a byte (ARCHITECTURE.md, "Rules that keep it fast and safe").
#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "support/demo_frame.h"
#include "demo_scene.h"

namespace {

struct Pool {
  std::atomic<std::size_t> batches{0}, tasks{0};
};

// Runs the tasks backwards on two host threads — an order dp2's own executor never uses.
void host_parallel_for(void* user, std::size_t count, void (*task)(void*, std::size_t), void* context) {
  auto& pool = *static_cast<Pool*>(user);
  ++pool.batches;
  auto worker = [&](std::size_t parity) {
    for (std::size_t k = count; k-- > 0;)
      if (k % 2 == parity) {
        task(context, k);
        ++pool.tasks;
      }
  };
  std::thread other(worker, 1);
  worker(0);
  other.join();
}

}  // namespace

TEST_CASE("host executor: tiles run through the host's pool and the image does not change") {
  Pool pool;
  dp2::DeviceDesc host;
  host.executor_user = &pool;
  host.executor_parallel_for = host_parallel_for;
  const std::vector<std::byte> with_host = dp2::test::render_demo_frame(host);
  CHECK(pool.batches.load() > 0);
  CHECK(pool.tasks.load() > 0);
  dp2::DeviceDesc own;
  own.render_threads = 1;
  CHECK(with_host == dp2::test::render_demo_frame(own));
}
