// dp2's own thread pool (the scheduler of a build without TBB) and the tile executor.
//
// The pool tests are named "concurrency: ..." so `make tsan` runs them under
// ThreadSanitizer; they never schedule through TBB (Debian's libtbb gives TSan false
// positives). The TileExecutor tests without a host executor do go through TBB in a
// DP2_WITH_TBB build, so their names must not start with "concurrency".
#include <doctest/doctest.h>

#include <atomic>
#include <cfenv>
#include <cstddef>
#include <deque>
#include <thread>
#include <vector>

#include "support/demo_frame.h"
#include "support/float_env.h"
#include "demo_scene.h"
#include "dp2raster/executor.h"
#include "dp2raster/thread_pool.h"

using dp2::raster::HostExecutor;
using dp2::raster::ThreadPool;
using dp2::raster::TileExecutor;

namespace {

// Counts the calls per index, and which threads made them.
struct Hits {
  explicit Hits(std::size_t count) : calls(count) {}
  std::vector<std::atomic<unsigned>> calls;
  std::atomic<std::size_t> on_caller{0};
  std::thread::id caller = std::this_thread::get_id();

  static void task(void* context, std::size_t i) {
    auto& h = *static_cast<Hits*>(context);
    h.calls[i].fetch_add(1, std::memory_order_relaxed);
    if (std::this_thread::get_id() == h.caller) h.on_caller.fetch_add(1, std::memory_order_relaxed);
  }
  bool each_once() const {
    for (const auto& c : calls)
      if (c.load() != 1) return false;
    return true;
  }
};

// A worker's call waits until the caller has run an index of its own. Workers hold at
// most (threads - 1) indices, so with more indices than that the test ends only if the
// caller claims from the same counter (a pool whose caller only waited would hang here).
void wait_for_caller(void* context, std::size_t i) {
  auto& h = *static_cast<Hits*>(context);
  Hits::task(context, i);
  while (std::this_thread::get_id() != h.caller && h.on_caller.load() == 0) std::this_thread::yield();
}

// ThreadPool as a host's parallel_for (DeviceDesc::executor_*): what an embedder without
// a pool of its own may hand in, and how a DP2_WITH_TBB build renders through the pool.
void pool_parallel_for(void* user, std::size_t count, void (*task)(void*, std::size_t), void* context) {
  static_cast<ThreadPool*>(user)->parallel_for(count, task, context);
}

}  // namespace

TEST_CASE("concurrency: thread pool runs every index exactly once") {
  for (unsigned threads : {1u, 2u, 3u, 4u, 0u}) {
    ThreadPool pool(threads);
    CAPTURE(threads);
    CHECK(pool.size() >= 1);
    if (threads != 0) CHECK(pool.size() == threads);
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{1000}}) {
      CAPTURE(count);
      Hits hits(count);
      pool.parallel_for(count, Hits::task, &hits);
      CHECK(hits.each_once());
    }
  }
}

TEST_CASE("concurrency: thread pool — the caller takes indices too, and calls repeat") {
  ThreadPool pool(4);
  for (int round = 0; round < 50; ++round) {
    Hits hits(64);
    pool.parallel_for(hits.calls.size(), wait_for_caller, &hits);
    REQUIRE(hits.each_once());
    CHECK(hits.on_caller.load() > 0);
  }
  // A single-thread pool runs everything on the caller.
  ThreadPool one(1);
  Hits hits(100);
  one.parallel_for(hits.calls.size(), Hits::task, &hits);
  CHECK(hits.each_once());
  CHECK(hits.on_caller.load() == 100);
}

TEST_CASE("concurrency: thread pool — two pools called from two threads at once") {
  ThreadPool a(3), b(2);
  std::atomic<bool> ok_a{true}, ok_b{true};
  auto drive = [](ThreadPool& pool, std::atomic<bool>& ok) {
    for (int round = 0; round < 200; ++round) {
      Hits hits(static_cast<std::size_t>(round % 37));
      pool.parallel_for(hits.calls.size(), Hits::task, &hits);
      if (!hits.each_once()) ok = false;
    }
  };
  std::thread other([&] { drive(b, ok_b); });
  drive(a, ok_a);
  other.join();
  CHECK(ok_a.load());
  CHECK(ok_b.load());
}

TEST_CASE("concurrency: thread pool — one pool called from two threads, and from inside a task") {
  ThreadPool pool(3);
  std::atomic<bool> ok{true};
  auto drive = [&] {
    for (int round = 0; round < 200; ++round) {
      Hits hits(50);
      pool.parallel_for(hits.calls.size(), Hits::task, &hits);  // the busy caller runs serially
      if (!hits.each_once()) ok = false;
    }
  };
  std::thread other(drive);
  drive();
  other.join();
  CHECK(ok.load());

  // Nested: each outer index runs an inner parallel_for on the same pool.
  struct Nest {
    ThreadPool* pool;
    std::deque<Hits> inner;  // Hits holds atomics: built in place, never moved
  };
  Nest nest{&pool, {}};
  for (int i = 0; i < 8; ++i) nest.inner.emplace_back(10);
  pool.parallel_for(
      8,
      [](void* context, std::size_t i) {
        auto& n = *static_cast<Nest*>(context);
        n.pool->parallel_for(n.inner[i].calls.size(), Hits::task, &n.inner[i]);
      },
      &nest);
  for (const Hits& h : nest.inner) CHECK(h.each_once());
}

TEST_CASE("concurrency: thread pool — destroyed with idle workers, or before any work") {
  for (int i = 0; i < 20; ++i) {
    ThreadPool never_used(4);  // no threads were started
    ThreadPool used(4);
    Hits hits(16);
    used.parallel_for(hits.calls.size(), Hits::task, &hits);
    CHECK(hits.each_once());
  }  // both join here; workers wait on an empty job
}

TEST_CASE("concurrency: tile executor with a host executor covers every index") {
  ThreadPool pool(3);
  const HostExecutor host{&pool, pool_parallel_for};
  for (unsigned threads : {0u, 2u, 4u}) {
    TileExecutor executor(threads, host);
    Hits hits(257);
    executor.for_each_tile(hits.calls.size(), Hits::task, &hits);
    CHECK(hits.each_once());
  }
  // threads == 1 keeps everything on the calling thread, host or not.
  TileExecutor serial(1, host);
  Hits hits(40);
  serial.for_each_tile(hits.calls.size(), Hits::task, &hits);
  CHECK(hits.each_once());
  CHECK(hits.on_caller.load() == 40);
}

TEST_CASE("concurrency: tile executor work runs in the default floating-point environment on the host's threads") {
  // A host pool started from a thread that rounds toward zero (and on x86-64 flushes
  // denormals): its workers inherit that environment, and so does the calling thread. Each
  // index must still see round-to-nearest (and no flush-to-zero), and the calling thread
  // must get its own environment back (dp2raster/float_env.h).
  struct Seen {
    std::atomic<int> nearest{0}, other{0};
    static void task(void* context, std::size_t) {
      auto& s = *static_cast<Seen*>(context);
      // Floats near 1 are 2^-23 apart: 1 + 1.75·2^-23 rounds to nearest as 1 + 2^-22, and
      // toward zero (or down) as 1 + 2^-23; fegetround catches rounding up.
      volatile float one = 1.0f, tiny = 0x1.cp-23f;
      const bool nearest = one + tiny == 1.0f + 0x1p-22f && std::fegetround() == FE_TONEAREST;
      // Flush-to-zero would make the smallest subnormal times one zero.
      volatile float subnormal = 0x1p-149f;
      const bool keeps_subnormals = subnormal * one != 0.0f;
      (nearest && keeps_subnormals ? s.nearest : s.other).fetch_add(1);
    }
  };
  const dp2::test::HostileFloatEnvironment hostile;
  ThreadPool pool(3);  // its workers start at the first parallel_for, in this environment
  const HostExecutor host{&pool, pool_parallel_for};
  TileExecutor executor(4, host);
  Seen seen;
  executor.for_each_tile(64, Seen::task, &seen);
  CHECK(seen.nearest.load() == 64);
  CHECK(seen.other.load() == 0);
  CHECK(dp2::test::HostileFloatEnvironment::in_effect());  // the caller's own, given back
}

TEST_CASE("concurrency: the demo scene through dp2's thread pool (1–4 threads) gives the same bytes") {
  dp2::DeviceDesc serial;
  serial.render_threads = 1;
  const std::vector<std::byte> expected = dp2::test::render_demo_frame(serial);
  for (unsigned threads = 1; threads <= 4; ++threads) {
    CAPTURE(threads);
    ThreadPool pool(threads);
    dp2::DeviceDesc desc;
    desc.executor_user = &pool;
    desc.executor_parallel_for = pool_parallel_for;
    CHECK(dp2::test::render_demo_frame(desc) == expected);
  }
}

// Schedules through TBB in a DP2_WITH_TBB build (so not a "concurrency" test), through
// the thread pool in a build without it.
TEST_CASE("executor: threads 1, 2, 4 and 0 cover every index exactly once") {
  CHECK(TileExecutor::scheduler() != nullptr);
  for (unsigned threads : {1u, 2u, 4u, 0u}) {
    CAPTURE(threads);
    TileExecutor executor(threads, {});
    CHECK(executor.threads() == threads);
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{1000}}) {
      CAPTURE(count);
      for (int round = 0; round < 3; ++round) {  // the arena or pool is kept across calls
        Hits hits(count);
        executor.for_each_tile(count, Hits::task, &hits);
        CHECK(hits.each_once());
      }
    }
  }
}
