// Lock / Unlock / LockAsync / UnlockAsync / Rename rules from the DDI pages.
#include <doctest/doctest.h>

#include <algorithm>
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

// Lock / Unlock / LockAsync / UnlockAsync / Rename: the pfnLock, D3DDDIARG_LOCK,
// pfnLockAsync, D3DDDIARG_LOCKASYNC, pfnUnlock, pfnUnlockAsync and pfnRename pages.

namespace {
D3DDDIARG_LOCK lock_args(DWORD surface, UINT flags) {
  D3DDDIARG_LOCK l{};
  l.hResource = as_handle(surface);
  l.Flags.Value = flags;
  return l;
}
HRESULT unlock(dp2::Device& dev, DWORD surface) {
  D3DDDIARG_UNLOCK u{};
  u.hResource = as_handle(surface);
  return dev.Unlock(u);
}
HRESULT unlock_async(dp2::Device& dev, DWORD surface) {
  D3DDDIARG_UNLOCKASYNC u{};
  u.hResource = as_handle(surface);
  return dev.UnlockAsync(u);
}
HRESULT rename(dp2::Device& dev, DWORD surface, HANDLE cookie) {
  D3DDDIARG_RENAME r{};
  r.hResource = as_handle(surface);
  r.hCookie = cookie;
  return dev.Rename(r);
}
constexpr UINT kReadOnly = 0x1, kWriteOnly = 0x2, kNoOverwrite = 0x4, kDiscard = 0x8, kRangeValid = 0x10,
               kAreaValid = 0x20, kBoxValid = 0x40, kDoNotWait = 0x200;
constexpr UINT kAsyncNoOverwrite = 0x1, kAsyncDiscard = 0x2;

// A vertex buffer of `n` XYZRHW|DIFFUSE vertices (explicit, DDSCAPS2_VERTEXBUFFER).
void make_vb(dp2::Device& dev, DWORD handle, std::size_t vertices) {
  dp2::SurfaceDesc d;
  d.kind = dp2::SurfaceKind::kVertexBuffer;
  d.size_bytes = vertices * kStrideC;
  d.explicit_vertex_buffer = true;
  REQUIRE(dev.create_surface(handle, d) == D3D_OK);
}
// Writes a full-target quad (6 vertices) of colour c at vertex `first` of `dst`.
void write_quad(std::byte* dst, std::size_t first, float w, float h, D3DCOLOR c) {
  VertexWriter v(kFvfC);
  quad(v, 0, 0, w, h, c);
  std::memcpy(dst + first * kStrideC, v.bytes().data(), v.bytes().size());
}
// A vertex buffer kVB of `vertices` vertices, the first six a full-target 8×8 quad of
// colour c (the rest zero).
void make_quad_vb(dp2::Device& dev, std::size_t vertices, D3DCOLOR c) {
  make_vb(dev, kVB, vertices);
  write_quad(dev.surface_bytes(kVB).data(), 0, 8, 8, c);
}
// Lets a held GPU run what was queued, and waits for it.
void release_gpu(dp2::Device& dev) {
  dev.hold_gpu(false);
  dev.wait_idle();
}
// DrawPrimitives2 drawing TRIANGLELIST (2 triangles) from vertex `first` of the vertex
// buffer surface `vb` (lpDDVertex), after a clear to black.
HRESULT draw_from_vb(dp2::Device& dev, ULONG_PTR ctx, DWORD vb, WORD first, DWORD vertex_count,
                     DWORD cmd_surface = 0x7C00, DWORD flags = 0, DWORD req_vertex_size = 0) {
  StreamWriter s;
  s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  flat_state(s);
  s.triangle_list(first, 2);
  dp2::Dp2CallDesc d;
  d.vertex_type = kFvfC;
  d.command_surface = cmd_surface;
  dp2::Dp2Call call(s, {}, d);
  REQUIRE(call.upload(dev, ctx) == D3D_OK);
  call.fill_data(ctx);
  call.data.lpDDVertex = vb;
  call.data.dwVertexLength = vertex_count;
  call.data.dwVertexSize = kStrideC;  // shares storage with ddrval
  call.data.dwFlags |= flags;
  call.data.dwReqVertexBufSize = req_vertex_size;
  dev.DrawPrimitives2(call.data);
  dev.destroy_surface(cmd_surface);
  return call.data.ddrval;
}
}  // namespace

TEST_CASE("locks: flag combinations the D3DDDIARG_LOCK remarks forbid are E_INVALIDARG") {
  Rig rig;
  // "ReadOnly and WriteOnly ... must not be set simultaneously"; "NoOverwrite ... must not be
  // simultaneously set with ... Discard"; "ReadOnly ... must not be simultaneously set with
  // ... Discard"; "Only one of the RangeValid, AreaValid, and BoxValid bit-field flags must
  // be set at any time".
  const UINT bad[] = {kReadOnly | kWriteOnly, kNoOverwrite | kDiscard, kReadOnly | kDiscard, kRangeValid | kAreaValid,
                      kAreaValid | kBoxValid,  kRangeValid | kBoxValid, kRangeValid | kAreaValid | kBoxValid};
  for (UINT f : bad) {
    CAPTURE(f);
    D3DDDIARG_LOCK l = lock_args(kRT, f);
    CHECK(rig.dev.Lock(l) == E_INVALIDARG);
  }
  // Nothing is left locked by the rejected calls: a plain lock works and unlocks.
  D3DDDIARG_LOCK ok = lock_args(kRT, 0);
  CHECK(rig.dev.Lock(ok) == S_OK);
  CHECK(ok.pSurfData != nullptr);
  CHECK(ok.Pitch == 16 * 4);
  CHECK(unlock(rig.dev, kRT) == S_OK);
}

TEST_CASE("locks: Unlock of a surface that is not locked is E_INVALIDARG") {
  Rig rig;
  // pfnUnlock: E_INVALIDARG — "was not locked by a previous call to the driver's Lock function".
  CHECK(unlock(rig.dev, kRT) == E_INVALIDARG);
  D3DDDIARG_LOCK l = lock_args(kRT, 0);
  REQUIRE(rig.dev.Lock(l) == S_OK);
  CHECK(unlock(rig.dev, kRT) == S_OK);
  CHECK(unlock(rig.dev, kRT) == E_INVALIDARG);  // twice
  CHECK(unlock(rig.dev, 0xBAD) == E_INVALIDARG);
}

TEST_CASE("locks: a lock on a surface with queued work waits — DoNotWait answers WASSTILLDRAWING") {
  Rig rig;
  rig.dev.hold_gpu(true);
  REQUIRE(draw_rect(rig.dev, rig.ctx, 0x00203040u, 0, 0, 0, 0, 0) == D3D_OK);
  // pfnLock: D3DDDIERR_WASSTILLDRAWING — "The resource was not idle when ... Lock [was
  // called] with the DoNotWait bit-field flag set".
  D3DDDIARG_LOCK nw = lock_args(kRT, kDoNotWait);
  CHECK(rig.dev.Lock(nw) == D3DDDIERR_WASSTILLDRAWING);
  // ReadOnly does not skip the GPU's pending write.
  D3DDDIARG_LOCK ro = lock_args(kRT, kDoNotWait | kReadOnly);
  CHECK(rig.dev.Lock(ro) == D3DDDIERR_WASSTILLDRAWING);
  // A plain Lock from another thread waits for the queued clear: the bytes it maps show it.
  std::atomic<bool> returned{false};
  HRESULT hr = E_FAIL;
  std::uint32_t seen = 0;
  std::thread t([&] {
    D3DDDIARG_LOCK l = lock_args(kRT, 0);
    hr = rig.dev.Lock(l);
    if (hr == S_OK) std::memcpy(&seen, l.pSurfData, 4);
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  CHECK_FALSE(returned.load());  // still waiting while the GPU is held
  rig.dev.hold_gpu(false);
  t.join();
  CHECK(hr == S_OK);
  CHECK((seen & 0x00FFFFFFu) == 0x00203040u);
  CHECK(unlock(rig.dev, kRT) == S_OK);
  // Idle now: DoNotWait succeeds, ReadOnly too.
  D3DDDIARG_LOCK nw2 = lock_args(kRT, kDoNotWait | kReadOnly);
  CHECK(rig.dev.Lock(nw2) == S_OK);
  CHECK(unlock(rig.dev, kRT) == S_OK);
}

TEST_CASE("locks: Discard on a busy surface does not wait and gives bytes the queued work does not touch") {
  Rig rig;
  rig.dev.hold_gpu(true);
  REQUIRE(draw_rect(rig.dev, rig.ctx, 0x00FF0000u, 0, 0, 16, 16, 0xFF00FF00u) == D3D_OK);
  // Discard: "the existing contents can be discarded" — the lock needs no wait; with
  // DoNotWait it must therefore not answer WASSTILLDRAWING.
  D3DDDIARG_LOCK l = lock_args(kRT, kDiscard | kDoNotWait);
  REQUIRE(rig.dev.Lock(l) == S_OK);
  for (std::uint32_t i = 0; i < 16 * 16; ++i) {
    const std::uint32_t c = 0x00ABCDEFu;
    std::memcpy(static_cast<std::byte*>(l.pSurfData) + i * 4, &c, 4);
  }
  CHECK(unlock(rig.dev, kRT) == S_OK);
  rig.dev.hold_gpu(false);
  rig.dev.wait_idle();
  // The whole resource was replaced by the Discard lock's contents; the earlier queued
  // draw went to the discarded bytes.
  CHECK(rig.count_not(kRT, 0x00ABCDEFu) == 0);
}

TEST_CASE("locks: LockAsync answers E_NOTIMPL where dp2 does not support it") {
  Rig rig;
  dp2::SurfaceDesc tex;
  tex.kind = dp2::SurfaceKind::kTexture;
  tex.format = D3DFMT_A8R8G8B8;
  tex.width = tex.height = 4;
  REQUIRE(rig.dev.create_surface(kTex, tex) == D3D_OK);
  make_vb(rig.dev, kVB, 6);
  dp2::SurfaceDesc cmd;
  cmd.kind = dp2::SurfaceKind::kCommandBuffer;
  cmd.size_bytes = 64;
  REQUIRE(rig.dev.create_surface(0x50, cmd) == D3D_OK);
  // pfnLockAsync: E_NOTIMPL — "does not support LockAsync for the specified resource".
  D3DDDIARG_LOCKASYNC none{};
  none.hResource = as_handle(kVB);
  CHECK(rig.dev.LockAsync(none) == E_NOTIMPL);  // no flags: the lock could only wait
  D3DDDIARG_LOCKASYNC tex_no{};
  tex_no.hResource = as_handle(kTex);
  tex_no.Flags.Value = kAsyncNoOverwrite;  // "used only with Direct3D vertex buffer locks"
  CHECK(rig.dev.LockAsync(tex_no) == E_NOTIMPL);
  D3DDDIARG_LOCKASYNC cb{};
  cb.hResource = as_handle(0x50);
  cb.Flags.Value = kAsyncDiscard;
  CHECK(rig.dev.LockAsync(cb) == E_NOTIMPL);
  cb.Flags.Value = kAsyncNoOverwrite;
  CHECK(rig.dev.LockAsync(cb) == E_NOTIMPL);
  // D3DDDIARG_LOCKASYNC: "NoOverwrite ... must not be simultaneously set with ... Discard".
  D3DDDIARG_LOCKASYNC both{};
  both.hResource = as_handle(kVB);
  both.Flags.Value = kAsyncNoOverwrite | kAsyncDiscard;
  CHECK(rig.dev.LockAsync(both) == E_INVALIDARG);
  // Nothing left locked: a valid LockAsync works.
  D3DDDIARG_LOCKASYNC ok{};
  ok.hResource = as_handle(kVB);
  ok.Flags.Value = kAsyncNoOverwrite;
  CHECK(rig.dev.LockAsync(ok) == S_OK);
  CHECK(unlock_async(rig.dev, kVB) == S_OK);
}

TEST_CASE("locks: LockAsync Discard hands out a new instance — rendering switches only at Rename") {
  Rig rig(8, 8);
  make_vb(rig.dev, kVB, 6);
  // The VB's instance (learnt through a first Discard + Rename, which leaves fresh bytes).
  const UINT current = allocation_of(rig.dev, kVB);
  {
    auto mem = rig.dev.surface_bytes(kVB);
    write_quad(mem.data(), 0, 8, 8, 0xFFFF0000u);  // red
  }
  REQUIRE(draw_from_vb(rig.dev, rig.ctx, kVB, 0, 6) == D3D_OK);
  CHECK(rig.count_not(kRT, 0x00FF0000u) == 0);

  D3DDDIARG_LOCKASYNC la{};
  la.hResource = as_handle(kVB);
  la.Flags.Value = kAsyncDiscard;
  REQUIRE(rig.dev.LockAsync(la) == S_OK);
  // hCookie "represents the renamed resource": a new allocation, not the current one.
  CHECK(la.hCookie != nullptr);
  CHECK(from_handle(la.hCookie) != current);
  write_quad(static_cast<std::byte*>(la.pSurfData), 0, 8, 8, 0xFF0000FFu);  // blue into the new instance
  REQUIRE(unlock_async(rig.dev, kVB) == S_OK);
  // "The driver should not update its internal tracking structures with the new
  // allocation handle ... Instead, the driver should wait until its Rename function is
  // called": this draw still uses the old (red) vertices.
  REQUIRE(draw_from_vb(rig.dev, rig.ctx, kVB, 0, 6) == D3D_OK);
  CHECK(rig.count_not(kRT, 0x00FF0000u) == 0);
  REQUIRE(rename(rig.dev, kVB, la.hCookie) == S_OK);
  // "After Rename returns successfully ... use the allocation that hCookie specifies for all
  // rendering operations".
  REQUIRE(draw_from_vb(rig.dev, rig.ctx, kVB, 0, 6) == D3D_OK);
  CHECK(rig.count_not(kRT, 0x000000FFu) == 0);
}

TEST_CASE("locks: UnlockAsync and Rename errors") {
  Rig rig;
  make_vb(rig.dev, kVB, 6);
  // pfnUnlockAsync: E_INVALIDARG — "was not locked by a previous call to the driver's
  // LockAsync function".
  CHECK(unlock_async(rig.dev, kVB) == E_INVALIDARG);
  // A cookie never handed out.
  CHECK(rename(rig.dev, kVB, as_handle(0xABCDEF)) == E_INVALIDARG);
  D3DDDIARG_LOCKASYNC la{};
  la.hResource = as_handle(kVB);
  la.Flags.Value = kAsyncDiscard;
  REQUIRE(rig.dev.LockAsync(la) == S_OK);
  CHECK(unlock_async(rig.dev, kVB) == S_OK);
  CHECK(unlock_async(rig.dev, kVB) == E_INVALIDARG);  // twice
  // A cookie of another resource.
  CHECK(rename(rig.dev, kRT, la.hCookie) == E_INVALIDARG);
  // "The runtime calls Rename, at most, once for each successful call to the driver's
  // LockAsync function with the Discard bit-field flag set".
  CHECK(rename(rig.dev, kVB, la.hCookie) == S_OK);
  CHECK(rename(rig.dev, kVB, la.hCookie) == E_INVALIDARG);
  // NoOverwrite hands out no cookie to rename.
  D3DDDIARG_LOCKASYNC no{};
  no.hResource = as_handle(kVB);
  no.Flags.Value = kAsyncNoOverwrite;
  REQUIRE(rig.dev.LockAsync(no) == S_OK);
  CHECK(unlock_async(rig.dev, kVB) == S_OK);
}

TEST_CASE("locks: LockAsync NoOverwrite on a vertex buffer maps the current instance without waiting") {
  Rig rig(8, 8);
  make_vb(rig.dev, kVB, 12);
  {
    auto mem = rig.dev.surface_bytes(kVB);
    write_quad(mem.data(), 0, 8, 8, 0xFF00FF00u);
  }
  rig.dev.hold_gpu(true);
  REQUIRE(draw_from_vb(rig.dev, rig.ctx, kVB, 0, 12) == D3D_OK);
  // "can have data appended to it but the existing data in the resource cannot be
  // modified": append vertices 6..11 while the GPU is held (no wait).
  D3DDDIARG_LOCKASYNC la{};
  la.hResource = as_handle(kVB);
  la.Flags.Value = kAsyncNoOverwrite;
  REQUIRE(rig.dev.LockAsync(la) == S_OK);
  write_quad(static_cast<std::byte*>(la.pSurfData), 6, 8, 8, 0xFFFFFF00u);
  REQUIRE(unlock_async(rig.dev, kVB) == S_OK);
  rig.dev.hold_gpu(false);
  CHECK(rig.count_not(kRT, 0x0000FF00u) == 0);  // the first frame used vertices 0..5
  REQUIRE(draw_from_vb(rig.dev, rig.ctx, kVB, 6, 12) == D3D_OK);
  CHECK(rig.count_not(kRT, 0x00FFFF00u) == 0);  // the appended ones
}

TEST_CASE("locks: a draw from a vertex buffer keeps it busy until the GPU has run it") {
  // The draw leaves its vertices in the buffer (the GPU reads them when it runs), so the
  // buffer's allocation is in the submission: a Lock waits for it, and with DoNotWait
  // answers "not idle" (pfnLock page) — as a Lock on a render target does.
  Rig rig(8, 8);
  make_quad_vb(rig.dev, 6, 0xFF00FF00u);
  rig.dev.hold_gpu(true);
  REQUIRE(draw_from_vb(rig.dev, rig.ctx, kVB, 0, 6) == D3D_OK);
  D3DDDIARG_LOCK nw = lock_args(kVB, kDoNotWait);
  CHECK(rig.dev.Lock(nw) == D3DDDIERR_WASSTILLDRAWING);
  // Discard does not wait: the buffer gets a new instance (its old one stays for the
  // draw), so what is written now (blue) is not what the queued draw reads (green).
  D3DDDIARG_LOCK discard = lock_args(kVB, kDiscard | kDoNotWait);
  REQUIRE(rig.dev.Lock(discard) == S_OK);
  write_quad(static_cast<std::byte*>(discard.pSurfData), 0, 8, 8, 0xFF0000FFu);
  REQUIRE(unlock(rig.dev, kVB) == S_OK);
  release_gpu(rig.dev);
  REQUIRE(rig.dev.Lock(nw) == S_OK);
  REQUIRE(unlock(rig.dev, kVB) == S_OK);
  CHECK(rig.count_not(kRT, 0x0000FF00u) == 0);
  REQUIRE(draw_from_vb(rig.dev, rig.ctx, kVB, 0, 6) == D3D_OK);
  CHECK(rig.count_not(kRT, 0x000000FFu) == 0);
}

TEST_CASE("locks: SWAPVERTEXBUFFER alone renames a vertex buffer queued draws still read") {
  // "If the driver renames the buffer, then the driver does not stall" (D3dDrawPrimitives2
  // page): with the flag and no larger size asked for, the buffer still gets new storage
  // of its own size while the call's draw is queued, so the caller's next Lock does not
  // wait, and the draw reads the call's vertices.
  Rig rig(8, 8);
  make_quad_vb(rig.dev, 6, 0xFFFF00FFu);
  rig.dev.hold_gpu(true);
  REQUIRE(draw_from_vb(rig.dev, rig.ctx, kVB, 0, 6, 0x7C00, D3DHALDP2_SWAPVERTEXBUFFER) == D3D_OK);
  D3DDDIARG_LOCK nw = lock_args(kVB, kDoNotWait);
  REQUIRE(rig.dev.Lock(nw) == S_OK);
  CHECK(nw.pSurfData != nullptr);
  REQUIRE(unlock(rig.dev, kVB) == S_OK);
  CHECK(rig.dev.surface_bytes(kVB).size() == 6 * kStrideC);
  release_gpu(rig.dev);
  CHECK(rig.count_not(kRT, 0x00FF00FFu) == 0);
}

TEST_CASE("locks: a DX8 stream draw reads its vertices in place from VStart") {
  // SETSTREAMSOURCE + DRAWPRIMITIVE with VStart 6: the draw's block starts 6 vertices
  // into the buffer (its DRAW_BUFFER offset), so the second quad (green) is drawn, not the
  // first (red).
  Rig rig(8, 8);
  make_quad_vb(rig.dev, 12, 0xFFFF0000u);
  write_quad(rig.dev.surface_bytes(kVB).data(), 6, 8, 8, 0xFF00FF00u);
  StreamWriter s;
  s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  flat_state(s);
  s.set_vertex_shader(kFvfC).set_stream_source(0, kVB, kStrideC).draw_primitive(D3DPT_TRIANGLELIST, 6, 2);
  dp2::Dp2CallDesc d;
  d.vertex_type = kFvfC;
  d.command_surface = 0x7C00;
  dp2::Dp2Call call(s, {}, d);
  REQUIRE(call.upload(rig.dev, rig.ctx) == D3D_OK);
  call.fill_data(rig.ctx);
  rig.dev.DrawPrimitives2(call.data);
  REQUIRE(call.data.ddrval == D3D_OK);
  rig.dev.wait_idle();
  CHECK(rig.count_not(kRT, 0x0000FF00u) == 0);
}

TEST_CASE("locks: a draw from a vertex buffer the caller holds locked reads the vertices of the call") {
  // D3dDrawPrimitives2 page: with "an outstanding lock on it, the driver should stall at
  // the end of its D3dDrawPrimitives2 function if it does not rename the buffer" — the
  // caller may write through the lock once the call returns. The draw must see what the
  // buffer held during the call (red), not what is written afterwards (blue).
  Rig rig(8, 8);
  make_vb(rig.dev, kVB, 6);
  D3DDDIARG_LOCK l = lock_args(kVB, 0);
  REQUIRE(rig.dev.Lock(l) == S_OK);
  auto* held = static_cast<std::byte*>(l.pSurfData);
  write_quad(held, 0, 8, 8, 0xFFFF0000u);
  rig.dev.hold_gpu(true);
  REQUIRE(draw_from_vb(rig.dev, rig.ctx, kVB, 0, 6) == D3D_OK);
  write_quad(held, 0, 8, 8, 0xFF0000FFu);
  REQUIRE(unlock(rig.dev, kVB) == S_OK);
  release_gpu(rig.dev);
  CHECK(rig.count_not(kRT, 0x00FF0000u) == 0);
}

TEST_CASE("locks: a SWAPVERTEXBUFFER draw reads the vertices of the call") {
  // D3DHALDP2_SWAPVERTEXBUFFER with REQVERTEXBUFSIZE: the buffer gets new storage of at
  // least dwReqVertexBufSize (D3dDrawPrimitives2 page) when the call returns; the call's
  // draws still read the old storage, which lives until they have run.
  Rig rig(8, 8);
  make_quad_vb(rig.dev, 6, 0xFF0000FFu);
  rig.dev.hold_gpu(true);
  REQUIRE(draw_from_vb(rig.dev, rig.ctx, kVB, 0, 6, 0x7C00, D3DHALDP2_SWAPVERTEXBUFFER | D3DHALDP2_REQVERTEXBUFSIZE,
                       4096) == D3D_OK);
  const std::span<std::byte> fresh = rig.dev.surface_bytes(kVB);
  CHECK(fresh.size() >= 4096);
  CHECK(std::all_of(fresh.begin(), fresh.end(), [](std::byte b) { return b == std::byte{0}; }));
  release_gpu(rig.dev);
  CHECK(rig.count_not(kRT, 0x000000FFu) == 0);
}

TEST_CASE("locks: RangeValid and AreaValid locks point at the region's first byte") {
  Rig rig(16, 16);
  make_vb(rig.dev, kVB, 8);
  D3DDDIARG_LOCK whole = lock_args(kVB, 0);
  REQUIRE(rig.dev.Lock(whole) == S_OK);
  REQUIRE(unlock(rig.dev, kVB) == S_OK);
  // RangeValid: "the resource is linear (Range is used)" — Range.Offset bytes in.
  D3DDDIARG_LOCK ranged = lock_args(kVB, kRangeValid);
  ranged.Range.Offset = 40;
  ranged.Range.Size = 20;
  REQUIRE(rig.dev.Lock(ranged) == S_OK);
  CHECK(static_cast<std::byte*>(ranged.pSurfData) == static_cast<std::byte*>(whole.pSurfData) + 40);
  REQUIRE(unlock(rig.dev, kVB) == S_OK);
  // AreaValid on the 16×16 X8R8G8B8 target: the Area's top-left pixel.
  D3DDDIARG_LOCK full = lock_args(kRT, 0);
  REQUIRE(rig.dev.Lock(full) == S_OK);
  REQUIRE(unlock(rig.dev, kRT) == S_OK);
  D3DDDIARG_LOCK area = lock_args(kRT, kAreaValid);
  area.Area = RECT{3, 5, 9, 10};
  REQUIRE(rig.dev.Lock(area) == S_OK);
  CHECK(static_cast<std::byte*>(area.pSurfData) == static_cast<std::byte*>(full.pSurfData) + 5 * 64 + 3 * 4);
  CHECK(area.Pitch == 64);
  REQUIRE(unlock(rig.dev, kRT) == S_OK);
}
