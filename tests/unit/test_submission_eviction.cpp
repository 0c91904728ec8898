// Eviction and re-patching; an embedder-provided video memory block.
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

// Residency: Device::evict moves a surface's instance out of video memory; queued work
// re-patches before it runs (DxgkDdiPatch: addresses "might change before the DMA buffer is
// submitted", so the buffer is patched with the current ones). Rendering is deterministic:
// the same stream gives the same bytes however it was patched (ARCHITECTURE.md).

namespace {
// A 4×4 A8R8G8B8 texture of distinct texels, and a stream that clears, then draws it
// point-sampled over a 16×16 quad plus a flat rectangle.
void make_texture(dp2::Device& dev) {
  dp2::SurfaceDesc t;
  t.kind = dp2::SurfaceKind::kTexture;
  t.format = D3DFMT_A8R8G8B8;
  t.width = t.height = 4;
  REQUIRE(dev.create_surface(kTex, t) == D3D_OK);
  auto mem = dev.surface_bytes(kTex);
  for (std::uint32_t i = 0; i < 16; ++i) {
    const std::uint32_t c = 0xFF000000u | (i * 0x0F0000u) | ((15 - i) * 0x000F00u) | (i * 7u);
    std::memcpy(mem.data() + i * 4, &c, 4);
  }
}
HRESULT textured_frame(dp2::Device& dev, ULONG_PTR ctx) {
  StreamWriter s;
  s.clear(D3DCLEAR_TARGET, 0x00102030u, 1.0f, 0);
  s.texture_stage_state(0, D3DTSS_TEXTUREMAP, kTex)
      .texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_SELECTARG1)
      .texture_stage_state(0, D3DTSS_COLORARG1, D3DTA_TEXTURE)
      .texture_stage_state(0, D3DTSS_MAGFILTER, D3DTFG_POINT)
      .texture_stage_state(0, D3DTSS_MINFILTER, D3DTFN_POINT)
      .end_merge()
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .end_merge();
  VertexWriter v(D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1);
  v.tl(1, 1, 0.5f, 1, 0xFFFFFFFFu, 0, 0, 0).tl(13, 1, 0.5f, 1, 0xFFFFFFFFu, 0, 1, 0).tl(1, 13, 0.5f, 1, 0xFFFFFFFFu, 0, 0, 1);
  v.tl(13, 1, 0.5f, 1, 0xFFFFFFFFu, 0, 1, 0).tl(13, 13, 0.5f, 1, 0xFFFFFFFFu, 0, 1, 1).tl(1, 13, 0.5f, 1, 0xFFFFFFFFu, 0, 0, 1);
  s.triangle_list(0, 2);
  return dp2_call(dev, ctx, s, v.bytes(), v.fvf());
}
}  // namespace

TEST_CASE("submission eviction: evicting the target and texture between frames gives identical bytes") {
  Rig rig;
  make_texture(rig.dev);
  REQUIRE(textured_frame(rig.dev, rig.ctx) == D3D_OK);
  const auto first = rig.snapshot(kRT);
  // The frame really textured something: a texel colour other than the clear appears.
  CHECK(rig.rgb(2, 2) != 0x00102030u);
  CHECK(rig.rgb(15, 15) == 0x00102030u);
  CHECK(rig.dev.evict(kRT) == S_OK);
  CHECK(rig.dev.evict(kTex) == S_OK);
  REQUIRE(textured_frame(rig.dev, rig.ctx) == D3D_OK);
  CHECK(rig.snapshot(kRT) == first);
  // evict: "E_INVALIDARG for an unknown or locked surface" (device.h).
  CHECK(rig.dev.evict(0xBAD) == E_INVALIDARG);
}

TEST_CASE("submission eviction: evicting while the submission is queued re-patches it") {
  Rig reference;
  make_texture(reference.dev);
  REQUIRE(textured_frame(reference.dev, reference.ctx) == D3D_OK);
  const auto want = reference.snapshot(kRT);

  Rig rig;
  make_texture(rig.dev);
  rig.dev.wait_idle();
  rig.dev.hold_gpu(true);
  REQUIRE(textured_frame(rig.dev, rig.ctx) == D3D_OK);
  CHECK(rig.dev.evict(kRT) == S_OK);
  CHECK(rig.dev.evict(kTex) == S_OK);
  rig.dev.hold_gpu(false);
  CHECK(rig.snapshot(kRT) == want);
}

TEST_CASE("submission eviction: an embedder's video memory block holds the render target") {
  std::vector<std::byte> vram(std::size_t{4} << 20);
  dp2::DeviceDesc desc;
  desc.video_memory = vram;
  Rig rig(16, 16, desc);
  REQUIRE(draw_rect(rig.dev, rig.ctx, 0x00C0FFEEu, 0, 0, 0, 0, 0) == D3D_OK);
  const auto mem = rig.dev.surface_bytes(kRT);
  REQUIRE(mem.size() == 16 * 16 * 4);
  CHECK(rig.count_not(kRT, 0x00C0FFEEu) == 0);
  // "the embedder's block (an emulator's VRAM array)": the pixels live inside it.
  const auto lo = reinterpret_cast<std::uintptr_t>(vram.data()), hi = lo + vram.size();
  const auto p = reinterpret_cast<std::uintptr_t>(mem.data());
  CHECK(p >= lo);
  CHECK(p + mem.size() <= hi);
  // And found by scanning the block: 256 consecutive pixels of the clear colour.
  std::size_t run = 0, best = 0;
  for (std::size_t i = 0; i + 4 <= vram.size(); i += 4) {
    std::uint32_t v = 0;
    std::memcpy(&v, vram.data() + i, 4);
    run = (v & 0x00FFFFFFu) == 0x00C0FFEEu ? run + 1 : 0;
    best = std::max(best, run);
  }
  CHECK(best >= 256);
}
