// Fences, ordering, held GPU, context and device teardown with queued work.
#include <doctest/doctest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "dp2/device.h"
#include "dp2/gpu_commands.h"
#include "dp2/stream_writer.h"
#include "dp2/wddm.h"

#include "support/device_fixture.h"

// Fences and ordering (ARCHITECTURE.md "a fence id per submission"; DxgkDdiPatch page:
// SubmissionFenceId is a unique identifier written at the end of each DMA buffer) and
// what happens to queued work when its context or device goes away.

TEST_CASE("submission fences: one new fence per submission, completed after wait_fence") {
  Rig rig;
  CHECK(rig.dev.last_fence() == 0);
  GpuCmds g;
  g.nop().fence();
  std::uint64_t expect = 0;
  for (UINT i = 1; i <= 3; ++i) {
    D3DDDICB_RENDER r = render_args(rig.ctx, i);
    load(rig.dev, rig.ctx, g.b, r);
    REQUIRE(rig.dev.Render(r) == S_OK);
    CHECK(rig.dev.last_fence() == ++expect);
    REQUIRE(draw_rect(rig.dev, rig.ctx, 0, 0, 0, 4, 4, 0xFFFFFFFFu) == D3D_OK);  // a DrawPrimitives2 submission
    CHECK(rig.dev.last_fence() == ++expect);
    rig.dev.wait_fence(expect);
    CHECK(rig.dev.completed_fence() >= expect);
  }
  rig.dev.wait_idle();
  CHECK(rig.dev.completed_fence() == rig.dev.last_fence());
}

TEST_CASE("submission fences: submissions run in order — the later write of a pixel wins") {
  Rig rig;
  rig.dev.hold_gpu(true);  // both queued before either runs
  StreamWriter a, b;
  a.clear(D3DCLEAR_TARGET, 0x00000000u, 1.0f, 0);
  flat_state(a);
  VertexWriter va(kFvfC), vb(kFvfC);
  quad(va, 0, 0, 8, 8, 0xFFFF0000u);
  a.triangle_list(0, 2);
  flat_state(b);
  quad(vb, 4, 4, 12, 12, 0xFF0000FFu);
  b.triangle_list(0, 2);
  REQUIRE(dp2_call(rig.dev, rig.ctx, a, va.bytes()) == D3D_OK);
  REQUIRE(dp2_call(rig.dev, rig.ctx, b, vb.bytes()) == D3D_OK);
  rig.dev.hold_gpu(false);
  CHECK(rig.rgb(5, 5) == 0x000000FFu);  // overlap: the second call's colour
  CHECK(rig.rgb(1, 1) == 0x00FF0000u);
  CHECK(rig.rgb(10, 10) == 0x000000FFu);
  CHECK(rig.rgb(14, 14) == 0);
}

TEST_CASE("submission fences: a held GPU keeps completed_fence below last_fence") {
  Rig rig;
  rig.dev.hold_gpu(true);
  const std::uint64_t done = rig.dev.completed_fence();
  REQUIRE(draw_rect(rig.dev, rig.ctx, 0x00112233u, 0, 0, 0, 0, 0) == D3D_OK);
  REQUIRE(draw_rect(rig.dev, rig.ctx, 0x00445566u, 0, 0, 0, 0, 0) == D3D_OK);
  const std::uint64_t last = rig.dev.last_fence();
  CHECK(last == done + 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(rig.dev.completed_fence() < last);
  CHECK(rig.dev.completed_fence() == done);
  rig.dev.hold_gpu(false);
  rig.dev.wait_fence(last);
  CHECK(rig.dev.completed_fence() >= last);
  CHECK(rig.rgb(3, 3) == 0x00445566u);
}

TEST_CASE("submission fences: destroying a context with queued work completes its fences without drawing") {
  Rig rig;
  const ULONG_PTR other = rig.context(kRT);
  rig.dev.hold_gpu(true);
  REQUIRE(draw_rect(rig.dev, other, 0x00FF00FFu, 0, 0, 16, 16, 0xFFFFFFFFu) == D3D_OK);
  const std::uint64_t fence = rig.dev.last_fence();
  CHECK(rig.dev.destroy_context(other) == D3D_OK);
  rig.dev.hold_gpu(false);
  rig.dev.wait_fence(fence);  // must not hang
  CHECK(rig.dev.completed_fence() >= fence);
  CHECK(rig.count_not(kRT, 0) == 0);  // never drawn
  // The surviving context still renders.
  REQUIRE(draw_rect(rig.dev, rig.ctx, 0x00010203u, 0, 0, 0, 0, 0) == D3D_OK);
  CHECK(rig.rgb(0, 0) == 0x00010203u);
}

TEST_CASE("submission fences: destroying the device with held, queued work drains cleanly") {
  auto rig = std::make_unique<Rig>();
  rig->dev.hold_gpu(true);
  for (int i = 0; i < 4; ++i) REQUIRE(draw_rect(rig->dev, rig->ctx, 0x00102030u, 0, 0, 16, 16, 0xFF00FF00u) == D3D_OK);
  GpuCmds g;
  g.nop().fence();
  D3DDDICB_RENDER r = render_args(rig->ctx, 1);
  load(rig->dev, rig->ctx, g.b, r);
  REQUIRE(rig->dev.Render(r) == S_OK);
  CHECK(rig->dev.completed_fence() < rig->dev.last_fence());
  rig.reset();  // no hang, no leak, no use-after-free (run under ASan)
  CHECK(true);
}
