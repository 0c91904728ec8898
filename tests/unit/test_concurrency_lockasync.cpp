// LockAsync / Rename on one thread, DrawPrimitives2 on another (TSan preset).
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

// Concurrency: LockAsync / UnlockAsync / Rename on one thread while DrawPrimitives2 runs on
// another (pfnLockAsync page: "one thread can execute inside LockAsync while another thread
// that references the same display device executes inside of another user-mode display
// driver function"). Deterministic hand-offs; TSan runs these (ctest -R concurrency).

namespace {
void make_vb(dp2::Device& dev, DWORD handle, std::size_t vertices) {
  dp2::SurfaceDesc d;
  d.kind = dp2::SurfaceKind::kVertexBuffer;
  d.size_bytes = vertices * kStrideC;
  d.explicit_vertex_buffer = true;
  REQUIRE(dev.create_surface(handle, d) == D3D_OK);
}
void write_quad(std::byte* dst, std::size_t first, float w, float h, D3DCOLOR c) {
  VertexWriter v(kFvfC);
  quad(v, 0, 0, w, h, c);
  std::memcpy(dst + first * kStrideC, v.bytes().data(), v.bytes().size());
}
HRESULT draw_from_vb(dp2::Device& dev, ULONG_PTR ctx, DWORD vb, WORD first, DWORD vertex_count) {
  StreamWriter s;
  s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  flat_state(s);
  s.triangle_list(first, 2);
  dp2::Dp2CallDesc d;
  d.vertex_type = kFvfC;
  dp2::Dp2Call call(s, {}, d);
  if (call.upload(dev, ctx) != D3D_OK) return E_FAIL;
  call.fill_data(ctx);
  call.data.lpDDVertex = vb;
  call.data.dwVertexLength = vertex_count;
  call.data.dwVertexSize = kStrideC;
  dev.DrawPrimitives2(call.data);
  dev.destroy_surface(d.command_surface);
  return call.data.ddrval;
}
D3DCOLOR gen_colour(std::uint32_t g) { return 0xFF000000u | ((g * 37u) & 0xFFu) << 16 | ((g * 11u + 1) & 0xFFu) << 8 | (g & 0xFFu); }

// A one-slot hand-off: post(n) publishes step n, wait(n) blocks until step ≥ n.
struct Baton {
  std::mutex m;
  std::condition_variable cv;
  std::uint32_t step = 0;
  void post(std::uint32_t n) {
    {
      std::lock_guard l(m);
      step = n;
    }
    cv.notify_all();
  }
  void wait(std::uint32_t n) {
    std::unique_lock l(m);
    cv.wait(l, [&] { return step >= n; });
  }
};
}  // namespace

TEST_CASE("concurrency: LockAsync Discard + Rename generations — each frame shows its own generation") {
  dp2::DeviceDesc desc;
  desc.render_threads = 1;
  Rig rig(8, 8, desc);
  make_vb(rig.dev, kVB, 6);
  {
    auto mem = rig.dev.surface_bytes(kVB);
    write_quad(mem.data(), 0, 8, 8, gen_colour(0));
  }
  constexpr std::uint32_t kGenerations = 200;
  Baton ready, drawn;  // ready: generation g is renamed in; drawn: A's call for g returned
  ready.post(1);       // generation 0 is in place (published as step 1 = g + 1)
  std::atomic<int> wrong{0}, b_errors{0};
  std::vector<std::uint32_t> seen(kGenerations, 0);

  // Thread B: writes generation g + 1 into a fresh instance while A draws generation g,
  // renames it in only after A's DrawPrimitives2 for g returned.
  std::thread b([&] {
    for (std::uint32_t g = 1; g < kGenerations; ++g) {
      D3DDDIARG_LOCKASYNC la{};
      la.hResource = as_handle(kVB);
      la.Flags.Discard = 1;
      if (rig.dev.LockAsync(la) != S_OK) {
        ++b_errors;
        ready.post(g + 1);
        continue;
      }
      write_quad(static_cast<std::byte*>(la.pSurfData), 0, 8, 8, gen_colour(g));
      D3DDDIARG_UNLOCKASYNC ua{};
      ua.hResource = as_handle(kVB);
      if (rig.dev.UnlockAsync(ua) != S_OK) ++b_errors;
      drawn.wait(g);  // A's call for g - 1 returned (step g)
      D3DDDIARG_RENAME rn{};
      rn.hResource = as_handle(kVB);
      rn.hCookie = la.hCookie;
      if (rig.dev.Rename(rn) != S_OK) ++b_errors;
      ready.post(g + 1);
    }
  });
  // Thread A (this one): draws each generation and reads the frame back.
  for (std::uint32_t g = 0; g < kGenerations; ++g) {
    ready.wait(g + 1);
    const HRESULT hr = draw_from_vb(rig.dev, rig.ctx, kVB, 0, 6);
    drawn.post(g + 1);
    if (hr != D3D_OK) ++wrong;
    seen[g] = rig.rgb(3, 3);
    if (seen[g] != (gen_colour(g) & 0x00FFFFFFu) || rig.count_not(kRT, gen_colour(g) & 0x00FFFFFFu) != 0) ++wrong;
  }
  b.join();
  CHECK(b_errors.load() == 0);
  CHECK(wrong.load() == 0);
  for (std::uint32_t g = 0; g < kGenerations; g += 13) CHECK(seen[g] == (gen_colour(g) & 0x00FFFFFFu));
}

TEST_CASE("concurrency: LockAsync NoOverwrite appends while the other thread draws earlier ranges") {
  dp2::DeviceDesc desc;
  desc.render_threads = 1;
  Rig rig(8, 8, desc);
  constexpr std::uint32_t kRanges = 200;
  make_vb(rig.dev, kVB, 6 * kRanges);
  Baton written;
  std::atomic<int> wrong{0}, b_errors{0};
  // Thread B appends range r (vertices 6r .. 6r+5) and publishes it; it runs ahead of A.
  std::thread b([&] {
    for (std::uint32_t r = 0; r < kRanges; ++r) {
      D3DDDIARG_LOCKASYNC la{};
      la.hResource = as_handle(kVB);
      la.Flags.NoOverwrite = 1;
      la.Flags.RangeValid = 1;
      la.Range.Offset = r * 6 * kStrideC;
      la.Range.Size = 6 * kStrideC;
      if (rig.dev.LockAsync(la) != S_OK) {
        ++b_errors;
        written.post(r + 1);
        continue;
      }
      // pSurfData points at Range.Offset.
      write_quad(static_cast<std::byte*>(la.pSurfData), 0, 8, 8, gen_colour(r + 100));
      D3DDDIARG_UNLOCKASYNC ua{};
      ua.hResource = as_handle(kVB);
      if (rig.dev.UnlockAsync(ua) != S_OK) ++b_errors;
      written.post(r + 1);
    }
  });
  for (std::uint32_t r = 0; r < kRanges; ++r) {
    written.wait(r + 1);
    if (draw_from_vb(rig.dev, rig.ctx, kVB, static_cast<WORD>(6 * r), 6 * kRanges) != D3D_OK) ++wrong;
    if (rig.count_not(kRT, gen_colour(r + 100) & 0x00FFFFFFu) != 0) ++wrong;
  }
  b.join();
  CHECK(b_errors.load() == 0);
  CHECK(wrong.load() == 0);
}
