// Flip chains: in-flip DrawPrimitives2, poll_frame, the frame callback, errors.
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

// Flip chains: D3dDrawPrimitives2 page — "Check that a flip to the drawing surface
// associated with the context is not in progress. If a flip is in progress, ... set ddrval
// to DDERR_WASSTILLDRAWING and return DDHAL_DRIVER_HANDLED"; device.h: the chain stays in a
// flip until the embedder takes the frame (poll_frame or the frame callback returning).

TEST_CASE("submission flip: the back buffer is busy until the frame is taken — the front shows the drawing") {
  Rig rig(16, 16);  // kRT is the front buffer
  REQUIRE(rig.dev.create_surface(kRT2, rt_desc(16, 16)) == D3D_OK);
  const ULONG_PTR back_ctx = rig.context(kRT2);
  const DWORD surfaces[] = {kRT, kRT2};
  DWORD chain = 0;
  REQUIRE(rig.dev.create_flip_chain(surfaces, chain) == S_OK);
  REQUIRE(draw_rect(rig.dev, back_ctx, 0x000000FFu, 4, 4, 8, 8, 0xFFFFFF00u) == D3D_OK);
  dp2::FrontBuffer none;
  CHECK_FALSE(rig.dev.poll_frame(chain, none));  // no flip yet
  REQUIRE(rig.dev.Flip(chain) == S_OK);
  // "Flip while a flip is in progress" — one flip at a time.
  CHECK(rig.dev.Flip(chain) == DDERR_WASSTILLDRAWING);
  rig.dev.wait_idle();
  CHECK(draw_rect(rig.dev, back_ctx, 0x00FF0000u, 0, 0, 0, 0, 0) == DDERR_WASSTILLDRAWING);
  CHECK(rig.dev.Flip(chain) == DDERR_WASSTILLDRAWING);
  dp2::FrontBuffer frame;
  REQUIRE(rig.dev.poll_frame(chain, frame));
  CHECK(frame.chain == chain);
  CHECK(frame.surface == kRT);
  CHECK(frame.width == 16);
  CHECK(frame.height == 16);
  CHECK(frame.frame == 1);
  REQUIRE(frame.data != nullptr);
  auto px = [&](std::uint32_t x, std::uint32_t y) {
    std::uint32_t v = 0;
    std::memcpy(&v, frame.data + y * frame.pitch + x * 4, 4);
    return v & 0x00FFFFFFu;
  };
  CHECK(px(5, 5) == 0x00FFFF00u);  // what was drawn into the back buffer before Flip
  CHECK(px(0, 0) == 0x000000FFu);
  CHECK(rig.rgb(kRT, 5, 5) == 0x00FFFF00u);  // the front surface itself
  CHECK(rig.rgb(kRT, 10, 10) == 0x000000FFu);
  CHECK_FALSE(rig.dev.poll_frame(chain, frame));  // taken
  // Taken: the chain is free again.
  CHECK(draw_rect(rig.dev, back_ctx, 0x00FF0000u, 0, 0, 0, 0, 0) == D3D_OK);
  CHECK(rig.rgb(kRT2, 1, 1) == 0x00FF0000u);
  CHECK(rig.rgb(kRT, 5, 5) == 0x00FFFF00u);  // the front keeps the flipped frame
  CHECK(rig.dev.Flip(chain) == S_OK);
  rig.dev.wait_idle();
  REQUIRE(rig.dev.poll_frame(chain, frame));
  CHECK(frame.frame == 2);
  CHECK(px(1, 1) == 0x00FF0000u);
}

TEST_CASE("submission flip: the frame callback receives the frame and the chain is free when it returns") {
  Rig rig(16, 16);
  REQUIRE(rig.dev.create_surface(kRT2, rt_desc(16, 16)) == D3D_OK);
  const ULONG_PTR back_ctx = rig.context(kRT2);
  const DWORD surfaces[] = {kRT, kRT2};
  DWORD chain = 0;
  REQUIRE(rig.dev.create_flip_chain(surfaces, chain) == S_OK);
  int calls = 0;
  std::uint32_t seen = 0;
  DWORD seen_surface = 0;
  rig.dev.set_frame_callback([&](const dp2::FrontBuffer& f) {
    ++calls;
    seen_surface = f.surface;
    std::memcpy(&seen, f.data + 2 * f.pitch + 2 * 4, 4);
  });
  REQUIRE(draw_rect(rig.dev, back_ctx, 0x00123456u, 0, 0, 0, 0, 0) == D3D_OK);
  REQUIRE(rig.dev.Flip(chain) == S_OK);
  rig.dev.wait_idle();  // the callback runs before the flip's fence completes
  CHECK(calls == 1);
  CHECK(seen_surface == kRT);
  CHECK((seen & 0x00FFFFFFu) == 0x00123456u);
  dp2::FrontBuffer frame;
  CHECK_FALSE(rig.dev.poll_frame(chain, frame));  // the callback took it
  CHECK(draw_rect(rig.dev, back_ctx, 0x00654321u, 0, 0, 0, 0, 0) == D3D_OK);
  CHECK(rig.dev.Flip(chain) == S_OK);
  rig.dev.wait_idle();
  CHECK(calls == 2);
  CHECK((seen & 0x00FFFFFFu) == 0x00654321u);
  rig.dev.set_frame_callback({});
}

TEST_CASE("submission flip: create_flip_chain and Flip errors") {
  Rig rig(16, 16);
  REQUIRE(rig.dev.create_surface(kRT2, rt_desc(16, 16)) == D3D_OK);
  REQUIRE(rig.dev.create_surface(10, rt_desc(8, 16)) == D3D_OK);                     // other size
  REQUIRE(rig.dev.create_surface(11, rt_desc(16, 16, D3DFMT_R5G6B5)) == D3D_OK);      // other format
  REQUIRE(rig.dev.create_surface(12, rt_desc(16, 16)) == D3D_OK);
  dp2::SurfaceDesc tex = rt_desc(16, 16);
  tex.kind = dp2::SurfaceKind::kTexture;
  REQUIRE(rig.dev.create_surface(13, tex) == D3D_OK);
  DWORD chain = 0;
  auto make = [&](std::vector<DWORD> s) { return rig.dev.create_flip_chain(s, chain); };
  CHECK(make({kRT}) == E_INVALIDARG);           // one buffer is no chain
  CHECK(make({}) == E_INVALIDARG);
  CHECK(make({kRT, 0xBAD}) == E_INVALIDARG);    // unknown handle
  CHECK(make({kRT, 10}) == E_INVALIDARG);       // size differs from the front
  CHECK(make({kRT, 11}) == E_INVALIDARG);       // format differs
  CHECK(make({kRT, kRT}) == E_INVALIDARG);      // the same buffer twice
  CHECK(make({kRT, 13}) == E_INVALIDARG);       // not a render target
  REQUIRE(make({kRT, kRT2}) == S_OK);
  const DWORD good = chain;
  CHECK(make({12, kRT2}) == E_INVALIDARG);      // already in a chain
  CHECK(rig.dev.Flip(good + 100) == E_INVALIDARG);
  CHECK(rig.dev.Flip(good) == S_OK);
  rig.dev.wait_idle();
  dp2::FrontBuffer f;
  CHECK(rig.dev.poll_frame(good, f));
}
