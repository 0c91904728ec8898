// Render (pfnRenderCb / D3DDDICB_RENDER): every error with its code, and what a successful
// submission hands back. Expected values come from the DDI pages, quoted beside each check.
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
#include <string>
#include <thread>
#include <vector>

#include "dp2/device.h"
#include "dp2/gpu_commands.h"
#include "dp2/stream_writer.h"
#include "dp2/wddm.h"

#include "support/device_fixture.h"

// Rules: pfnRenderCb page (PFND3DDDI_RENDERCB) and D3DDDICB_RENDER page; error codes are
// the ones the pfnRenderCb page lists (D3DDDIERR_ILLEGALINSTRUCTION is spelled
// D3DDDIERR_INVALIDINSTRUCTION in the header), E_INVALIDARG = "Parameters were validated
// and determined to be incorrect."

TEST_CASE("submission render: reserved members must be zero (E_INVALIDARG, nothing queued)") {
  Rig rig;
  GpuCmds g;
  g.nop();
  const std::uint64_t before = rig.dev.last_fence();
  // "NewCommandBuffer ... reserved and should be set to zero" (same for pPrivateDriverData,
  // PrivateDriverDataSize); D3DDDICB_RENDERFLAGS Reserved bits are 0.
  for (int which = 0; which < 4; ++which) {
    CAPTURE(which);
    D3DDDICB_RENDER r = render_args(rig.ctx, 1);
    load(rig.dev, rig.ctx, g.b, r);
    int dummy = 0;
    if (which == 0) r.NewCommandBuffer = 1;
    if (which == 1) r.pPrivateDriverData = &dummy;
    if (which == 2) r.PrivateDriverDataSize = 4;
    if (which == 3) r.Flags.Value = 1u << 4;  // first Reserved bit
    CHECK(rig.dev.Render(r) == E_INVALIDARG);
    CHECK(rig.dev.last_fence() == before);  // nothing queued
  }
  // The rejected calls did not consume sequence 1: a valid call with 1 is accepted.
  D3DDDICB_RENDER r = render_args(rig.ctx, 1);
  load(rig.dev, rig.ctx, g.b, r);
  CHECK(rig.dev.Render(r) == S_OK);
  CHECK(rig.dev.last_fence() == before + 1);
}

TEST_CASE("submission render: hContext — unknown is E_INVALIDARG, NULL is the default (first) context") {
  Rig rig;
  const ULONG_PTR second = rig.context(kRT);
  GpuCmds g;
  g.nop();
  D3DDDICB_RENDER bad = render_args(0xBEEF, 1);
  load(rig.dev, rig.ctx, g.b, bad);
  CHECK(rig.dev.Render(bad) == E_INVALIDARG);
  CHECK(rig.dev.last_fence() == 0);

  rig.dev.hold_gpu(true);
  // "If hContext is NULL, the Direct3D runtime sends the rendering operation to the
  // default context of the device" — dp2's first context, rig.ctx.
  D3DDDICB_RENDER r = render_args(0, 1);
  load(rig.dev, rig.ctx, g.b, r);
  CHECK(rig.dev.Render(r) == S_OK);
  CHECK(r.QueuedBufferCount == 1);
  // The first context received it: its sequence moved on to 2 and it has 2 queued now;
  // the second context still starts at 1 with nothing queued before.
  D3DDDICB_RENDER r1 = render_args(rig.ctx, 2);
  load(rig.dev, rig.ctx, g.b, r1);
  CHECK(rig.dev.Render(r1) == S_OK);
  CHECK(r1.QueuedBufferCount == 2);
  D3DDDICB_RENDER r2 = render_args(second, 1);
  load(rig.dev, second, g.b, r2);
  CHECK(rig.dev.Render(r2) == S_OK);
  CHECK(r2.QueuedBufferCount == 1);
  rig.dev.hold_gpu(false);
  rig.dev.wait_idle();
}

TEST_CASE("submission render: broadcast context rules") {
  Rig rig;
  const ULONG_PTR second = rig.context(kRT);
  GpuCmds g;
  g.nop();
  auto attempt = [&](auto&& setup) {
    D3DDDICB_RENDER r = render_args(rig.ctx, 1);
    load(rig.dev, rig.ctx, g.b, r);
    setup(r);
    return rig.dev.Render(r);
  };
  // "D3DDDI_MAX_BROADCAST_CONTEXT constant, which is defined as 64, defines the maximum
  // number of additional contexts".
  CHECK(attempt([&](D3DDDICB_RENDER& r) {
          r.BroadcastContextCount = D3DDDI_MAX_BROADCAST_CONTEXT + 1;
          for (auto& h : r.BroadcastContext) h = as_handle(second);
        }) == E_INVALIDARG);
  // "The original context that the hContext member specifies ... is not an element in the
  // BroadcastContext array."
  CHECK(attempt([&](D3DDDICB_RENDER& r) {
          r.BroadcastContextCount = 1;
          r.BroadcastContext[0] = as_handle(rig.ctx);
        }) == E_INVALIDARG);
  // An element must be a context created with pfnCreateContextCb.
  CHECK(attempt([&](D3DDDICB_RENDER& r) {
          r.BroadcastContextCount = 1;
          r.BroadcastContext[0] = as_handle(0xBEEF);
        }) == E_INVALIDARG);
  // The same additional context twice.
  CHECK(attempt([&](D3DDDICB_RENDER& r) {
          r.BroadcastContextCount = 2;
          r.BroadcastContext[0] = as_handle(second);
          r.BroadcastContext[1] = as_handle(second);
        }) == E_INVALIDARG);
  CHECK(rig.dev.last_fence() == 0);  // nothing queued by any of them
}

TEST_CASE("submission render: RenderCBSequence starts at 1 and grows by one per call") {
  Rig rig;
  GpuCmds g;
  g.nop();
  auto attempt = [&](ULONG_PTR ctx, UINT seq) {
    D3DDDICB_RENDER r = render_args(ctx, seq);
    load(rig.dev, ctx, g.b, r);
    return rig.dev.Render(r);
  };
  // "Starts at a value of 1 for contexts associated with single-threaded user-mode DDIs";
  // "must increment the value for each pfnRenderCb call".
  CHECK(attempt(rig.ctx, 0) == E_INVALIDARG);
  CHECK(attempt(rig.ctx, 2) == E_INVALIDARG);
  CHECK(rig.dev.last_fence() == 0);  // nothing queued
  CHECK(attempt(rig.ctx, 1) == S_OK);
  CHECK(attempt(rig.ctx, 1) == E_INVALIDARG);  // not incremented
  CHECK(attempt(rig.ctx, 3) == E_INVALIDARG);  // skipped one
  CHECK(rig.dev.last_fence() == 1);
  CHECK(attempt(rig.ctx, 2) == S_OK);
  CHECK(attempt(rig.ctx, 3) == S_OK);
  CHECK(rig.dev.last_fence() == 3);

  // "... to a value of 0x80000001 for contexts associated with free-threaded user mode DDIs".
  const ULONG_PTR ft = rig.context(kRT, true);
  CHECK(attempt(ft, 1) == E_INVALIDARG);
  CHECK(rig.dev.last_fence() == 3);
  CHECK(attempt(ft, 0x80000001u) == S_OK);
  CHECK(attempt(ft, 0x80000001u) == E_INVALIDARG);
  CHECK(attempt(ft, 0x80000002u) == S_OK);
  rig.dev.wait_idle();
}

TEST_CASE("submission render: lengths and list counts beyond the buffers are E_INVALIDARG") {
  Rig rig;
  GpuCmds g;
  g.nop().nop();
  dp2::CommandBuffers cb;
  REQUIRE(rig.dev.command_buffers(rig.ctx, cb) == S_OK);
  auto attempt = [&](auto&& setup) {
    D3DDDICB_RENDER r = render_args(rig.ctx, 1);
    load(rig.dev, rig.ctx, g.b, r);
    setup(r);
    return rig.dev.Render(r);
  };
  // CommandOffset is the first command inside [0, CommandLength).
  CHECK(attempt([](D3DDDICB_RENDER& r) { r.CommandOffset = r.CommandLength + 8; }) == E_INVALIDARG);
  // CommandLength bytes "of the command buffer, starting from offset zero" must be in it.
  CHECK(attempt([&](D3DDDICB_RENDER& r) { r.CommandLength = cb.command_buffer_size + 8; }) == E_INVALIDARG);
  // NumAllocations / NumPatchLocations: "number of elements in the ... list".
  CHECK(attempt([&](D3DDDICB_RENDER& r) { r.NumAllocations = cb.allocation_list_size + 1; }) == E_INVALIDARG);
  CHECK(attempt([&](D3DDDICB_RENDER& r) { r.NumPatchLocations = cb.patch_location_list_size + 1; }) == E_INVALIDARG);
  CHECK(rig.dev.last_fence() == 0);
  // CommandOffset == CommandLength (an empty submission) and one NOP skipped are fine.
  CHECK(attempt([](D3DDDICB_RENDER& r) { r.CommandOffset = 8; }) == S_OK);
  rig.dev.wait_idle();
}

TEST_CASE("submission render: malformed commands — INVALIDUSERBUFFER / INVALIDINSTRUCTION") {
  Rig rig;
  auto attempt = [&](const std::vector<std::byte>& cmds) {
    D3DDDICB_RENDER r = render_args(rig.ctx, 1);
    load(rig.dev, rig.ctx, cmds, r);
    return rig.dev.Render(r);
  };
  // D3DDDIERR_INVALIDUSERBUFFER: "detected an underrun or overrun of data or instructions".
  {
    GpuCmds g;
    g.add(DP2GPU_OP_NOP, nullptr, 0, 4);  // size below the header
    CHECK(attempt(g.b) == D3DDDIERR_INVALIDUSERBUFFER);
  }
  {
    GpuCmds g;
    g.add(DP2GPU_OP_NOP, nullptr, 8, 12);  // not a multiple of 8
    CHECK(attempt(g.b) == D3DDDIERR_INVALIDUSERBUFFER);
  }
  {
    GpuCmds g;
    g.add(DP2GPU_OP_NOP, nullptr, 0, 64);  // runs past CommandLength
    CHECK(attempt(g.b) == D3DDDIERR_INVALIDUSERBUFFER);
  }
  {
    GpuCmds g;
    g.nop();
    g.b.resize(12);  // a truncated header at the end
    CHECK(attempt(g.b) == D3DDDIERR_INVALIDUSERBUFFER);
  }
  {
    GpuCmds g;
    const DP2GPU_CLEAR c{D3DCLEAR_TARGET, 0, 1.0f, 0, 4, 0};  // 4 rects announced, none carried
    g.add(DP2GPU_OP_CLEAR, &c, sizeof c);
    CHECK(attempt(g.b) == D3DDDIERR_INVALIDUSERBUFFER);
  }
  {
    GpuCmds g;
    const std::uint32_t small[2] = {0, 0};  // SET_STATE payload shorter than DP2GPU_SET_STATE
    g.add(DP2GPU_OP_SET_STATE, small, sizeof small);
    CHECK(attempt(g.b) == D3DDDIERR_INVALIDUSERBUFFER);
  }
  // D3DDDIERR_INVALIDINSTRUCTION: "detected instructions that graphics hardware cannot support".
  {
    GpuCmds g;
    g.add(99, nullptr, 0);  // no such opcode
    CHECK(attempt(g.b) == D3DDDIERR_INVALIDINSTRUCTION);
  }
  {
    GpuCmds g;
    g.draw({{0, 0}, {4, 0}, {0, 4}}, 0xFFFFFFFFu, 1, {0, 1, 3});  // index 3 ≥ vertex_count 3
    CHECK(attempt(g.b) == D3DDDIERR_INVALIDINSTRUCTION);
  }
  CHECK(rig.dev.last_fence() == 0);
}

TEST_CASE("submission render: allocation and patch lists are validated") {
  Rig rig;
  const UINT rt = allocation_of(rig.dev, kRT);
  GpuCmds g;
  const std::size_t slot = g.set_state(target_record(rig.w, rig.h));
  g.clear(0x00FF0000u);
  auto attempt = [&](const std::vector<D3DDDI_ALLOCATIONLIST>& a, const std::vector<D3DDDI_PATCHLOCATIONLIST>& p) {
    D3DDDICB_RENDER r = render_args(rig.ctx, 1);
    load(rig.dev, rig.ctx, g.b, r, a, p);
    return rig.dev.Render(r);
  };
  // D3DDDIERR_INVALIDHANDLE: "detected an invalid handle in the command buffer" — an
  // allocation list entry naming no allocation.
  CHECK(attempt({alloc_entry(rt + 1000, true)}, {patch_entry(0, slot)}) == D3DDDIERR_INVALIDHANDLE);
  // A patch location whose PatchOffset is not a DP2GPU_SURFACE.address: the header, and
  // the middle of the address.
  CHECK(attempt({alloc_entry(rt, true)}, {patch_entry(0, 0)}) == D3DDDIERR_INVALIDINSTRUCTION);
  CHECK(attempt({alloc_entry(rt, true)}, {patch_entry(0, slot + 4)}) == D3DDDIERR_INVALIDINSTRUCTION);
  CHECK(rig.dev.last_fence() == 0);
  CHECK(rig.count_not(kRT, 0) == 0);  // nothing ran
  CHECK(attempt({alloc_entry(rt, true)}, {patch_entry(0, slot)}) == S_OK);
  CHECK(rig.count_not(kRT, 0x00FF0000u) == 0);
}

TEST_CASE("submission render: a hand-written buffer clears and draws a triangle (default state)") {
  Rig rig(16, 16);
  const UINT rt = allocation_of(rig.dev, kRT);
  GpuCmds g;
  const std::size_t slot = g.set_state(target_record(rig.w, rig.h));
  // Clockwise on screen (y down): (2,2) → (12,2) → (2,12); the default D3DCULL_CCW keeps it.
  g.clear(0x00336699u).draw({{2, 2}, {12, 2}, {2, 12}}, 0xFFFFFFFFu, 1).fence();
  D3DDDICB_RENDER r = render_args(rig.ctx, 1);
  load(rig.dev, rig.ctx, g.b, r, {alloc_entry(rt, true)}, {patch_entry(0, slot)});
  REQUIRE(rig.dev.Render(r) == S_OK);
  rig.dev.wait_fence(rig.dev.last_fence());
  // Top-left rule, centres on integers: the top edge y = 2 and the left edge x = 2 are in,
  // the hypotenuse x + y = 14 (a right edge) is out. The white diffuse colour comes out
  // white whether stage 0's default MODULATE with no texture reads the texture as white or
  // as disabled.
  int wrong = 0;
  for (std::uint32_t y = 0; y < 16; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) {
      const bool in = x >= 2 && y >= 2 && x + y < 14;
      const std::uint32_t want = in ? 0x00FFFFFFu : 0x00336699u;
      if (rig.rgb(x, y) != want) {
        if (++wrong <= 6) MESSAGE("(" << x << "," << y << ") = 0x" << std::hex << rig.rgb(x, y) << " want 0x" << want);
      }
    }
  CHECK(wrong == 0);
}

// A vertex buffer `handle` of 9 XYZRHW|DIFFUSE vertices: three triangles, each the one the
// hand-written test above draws ((2,2), (12,2), (2,12)), coloured 0xFF0000, 0xFFFFFF and
// `last` in turn. Returns its allocation.
UINT three_triangle_vb(dp2::Device& dev, DWORD handle = kVB, D3DCOLOR last = 0xFF00FF00u) {
  dp2::SurfaceDesc d;
  d.kind = dp2::SurfaceKind::kVertexBuffer;
  d.size_bytes = 9 * kStrideC;
  REQUIRE(dev.create_surface(handle, d) == D3D_OK);
  const UINT allocation = allocation_of(dev, handle);
  const std::span<std::byte> mem = dev.surface_bytes(handle);
  REQUIRE(mem.size() == 9 * kStrideC);
  const float xy[3][2] = {{2, 2}, {12, 2}, {2, 12}};
  const D3DCOLOR colors[3] = {0xFFFF0000u, 0xFFFFFFFFu, last};
  for (int v = 0; v < 9; ++v) {
    const float pos[4] = {xy[v % 3][0], xy[v % 3][1], 0.5f, 1.0f};
    std::memcpy(mem.data() + v * kStrideC, pos, 16);
    std::memcpy(mem.data() + v * kStrideC + 16, &colors[v / 3], 4);
  }
  return allocation;
}

TEST_CASE("submission render: DRAW_BUFFER reads its vertices in a vertex buffer at the patched offset") {
  // Pixels inside the triangle: the top-left rule as in the hand-written test above.
  auto inside = [](std::uint32_t x, std::uint32_t y) { return x >= 2 && y >= 2 && x + y < 14; };
  Rig rig(16, 16);
  const UINT rt = allocation_of(rig.dev, kRT);
  const UINT vb = three_triangle_vb(rig.dev);
  // Renders a buffer with DRAW_BUFFER of 3 vertices whose vertex address gets patches
  // `vertex_patches` (allocation 1 is `buffer`); returns Render's result.
  auto run = [&](std::vector<D3DDDI_PATCHLOCATIONLIST> vertex_patches, UINT sequence, UINT buffer = 0) {
    GpuCmds g;
    const std::size_t target = g.set_state(target_record(rig.w, rig.h));
    g.clear(0x00336699u);
    const std::size_t vertices = g.draw_buffer(3, 1);
    g.fence();
    std::vector<D3DDDI_PATCHLOCATIONLIST> patches{patch_entry(0, target)};
    for (D3DDDI_PATCHLOCATIONLIST p : vertex_patches) {
      p.PatchOffset = static_cast<UINT>(vertices);
      patches.push_back(p);
    }
    D3DDDICB_RENDER r = render_args(rig.ctx, sequence);
    load(rig.dev, rig.ctx, g.b, r, {alloc_entry(rt, true), alloc_entry(buffer ? buffer : vb, false)}, patches);
    const HRESULT hr = rig.dev.Render(r);
    rig.dev.wait_fence(rig.dev.last_fence());
    return hr;
  };
  auto count_wrong = [&](std::uint32_t triangle_rgb) {
    int wrong = 0;
    for (std::uint32_t y = 0; y < 16; ++y)
      for (std::uint32_t x = 0; x < 16; ++x) wrong += rig.rgb(x, y) != (inside(x, y) ? triangle_rgb : 0x00336699u);
    return wrong;
  };
  // AllocationOffset 3 vertices in: the white triangle, not the red one at 0.
  REQUIRE(run({patch_entry(1, 0, 3 * kStrideC)}, 1) == S_OK);
  CHECK(count_wrong(0x00FFFFFFu) == 0);
  REQUIRE(run({patch_entry(1, 0, 6 * kStrideC)}, 2) == S_OK);
  CHECK(count_wrong(0x0000FF00u) == 0);
  // Vertices the buffer does not hold: the draw is skipped and counted, the clear stands.
  // No patch (address 0); 3 vertices from vertex 7 of 9; an offset far past the end.
  const std::uint64_t skipped = rig.dev.diagnostics().draws_skipped;
  REQUIRE(run({}, 3) == S_OK);
  CHECK(count_wrong(0x00336699u) == 0);
  REQUIRE(run({patch_entry(1, 0, 7 * kStrideC)}, 4) == S_OK);
  CHECK(count_wrong(0x00336699u) == 0);
  REQUIRE(run({patch_entry(1, 0, 0xFFFFFF00u)}, 5) == S_OK);
  CHECK(count_wrong(0x00336699u) == 0);
  CHECK(rig.dev.diagnostics().draws_skipped == skipped + 3);
  // A second buffer, drawn once (so it is mapped into the aperture right after the
  // first, whose 180 bytes take a 256-byte range): an offset of 256 from the first
  // buffer's address is the second's first vertex. The buffer lists only the first, and
  // the worker resolves only inside what the running buffer lists (pinned), so the draw
  // is skipped rather than reading memory another thread could free meanwhile.
  const UINT other = three_triangle_vb(rig.dev, kVB + 1, 0xFF0000FFu);
  REQUIRE(run({patch_entry(1, 0, 6 * kStrideC)}, 6, other) == S_OK);
  CHECK(count_wrong(0x000000FFu) == 0);
  REQUIRE(run({patch_entry(1, 0, 256)}, 7) == S_OK);
  CHECK(count_wrong(0x00336699u) == 0);
  CHECK(rig.dev.diagnostics().draws_skipped == skipped + 4);
}

TEST_CASE("submission render: a malformed DRAW_BUFFER is refused at Render") {
  Rig rig;
  auto attempt = [&](const GpuCmds& g, std::vector<D3DDDI_PATCHLOCATIONLIST> patches = {}) {
    D3DDDICB_RENDER r = render_args(rig.ctx, 1);
    load(rig.dev, rig.ctx, g.b, r, {alloc_entry(allocation_of(rig.dev, kRT), false)}, patches);
    return rig.dev.Render(r);
  };
  {
    // Shorter than its fixed part (the address and the DRAW record).
    GpuCmds g;
    g.draw_buffer(3, 1, sizeof(DP2GPU_DRAW_BUFFER) - 8);
    CHECK(attempt(g) == D3DDDIERR_INVALIDUSERBUFFER);
  }
  {
    // More triangles than its vertices hold.
    GpuCmds g;
    g.draw_buffer(3, 2);
    CHECK(attempt(g) == D3DDDIERR_INVALIDINSTRUCTION);
  }
  {
    // A patch inside the command but not at its address.
    GpuCmds g;
    const std::size_t vertices = g.draw_buffer(3, 1);
    CHECK(attempt(g, {patch_entry(0, vertices + 8)}) == D3DDDIERR_INVALIDINSTRUCTION);
    CHECK(attempt(g, {patch_entry(0, vertices)}) == S_OK);
  }
}

TEST_CASE("submission render: new buffers come back with the sizes asked for") {
  Rig rig;
  GpuCmds g;
  g.nop();
  dp2::CommandBuffers before;
  REQUIRE(rig.dev.command_buffers(rig.ctx, before) == S_OK);
  D3DDDICB_RENDER r = render_args(rig.ctx, 1);
  load(rig.dev, rig.ctx, g.b, r);
  // "put the requested size or count in New*Size" with the matching Resize* flag.
  request_resize(r, 4096, 7, 9);
  REQUIRE(rig.dev.Render(r) == S_OK);
  CHECK(r.pNewCommandBuffer != nullptr);
  CHECK(r.NewCommandBufferSize == 4096);
  CHECK(r.pNewAllocationList != nullptr);
  CHECK(r.NewAllocationListSize == 7);
  CHECK(r.pNewPatchLocationList != nullptr);
  CHECK(r.NewPatchLocationListSize == 9);
  // The buffers for the next submission are the ones handed out.
  dp2::CommandBuffers next;
  REQUIRE(rig.dev.command_buffers(rig.ctx, next) == S_OK);
  CHECK(next.command_buffer == r.pNewCommandBuffer);
  CHECK(next.command_buffer_size == 4096);
  CHECK(next.allocation_list == r.pNewAllocationList);
  CHECK(next.allocation_list_size == 7);
  CHECK(next.patch_location_list == r.pNewPatchLocationList);
  CHECK(next.patch_location_list_size == 9);
  // The new sizes bound the next call: 8 allocations are more than the 7 available.
  D3DDDICB_RENDER r2 = render_args(rig.ctx, 2);
  load(rig.dev, rig.ctx, g.b, r2);
  r2.NumAllocations = 8;
  CHECK(rig.dev.Render(r2) == E_INVALIDARG);
  // Without Resize* flags the sizes stay.
  r2.NumAllocations = 0;
  REQUIRE(rig.dev.Render(r2) == S_OK);
  CHECK(r2.NewCommandBufferSize == 4096);
  CHECK(r2.NewAllocationListSize == 7);
  CHECK(r2.NewPatchLocationListSize == 9);
  rig.dev.wait_idle();
}

TEST_CASE("submission render: QueuedBufferCount counts the context's queued buffers") {
  Rig rig;
  const ULONG_PTR second = rig.context(kRT);
  GpuCmds g;
  g.nop();
  rig.dev.hold_gpu(true);
  // "The number of DMA buffers that are queued to the context that the hContext member
  // specifies after the current submission occurs."
  for (UINT i = 1; i <= 3; ++i) {
    D3DDDICB_RENDER r = render_args(rig.ctx, i);
    load(rig.dev, rig.ctx, g.b, r);
    REQUIRE(rig.dev.Render(r) == S_OK);
    CHECK(r.QueuedBufferCount == i);
  }
  D3DDDICB_RENDER r = render_args(second, 1);
  load(rig.dev, second, g.b, r);
  REQUIRE(rig.dev.Render(r) == S_OK);
  CHECK(r.QueuedBufferCount == 1);  // only the second context's own
  rig.dev.hold_gpu(false);
  rig.dev.wait_idle();
  D3DDDICB_RENDER r4 = render_args(rig.ctx, 4);
  load(rig.dev, rig.ctx, g.b, r4);
  rig.dev.hold_gpu(true);
  REQUIRE(rig.dev.Render(r4) == S_OK);
  CHECK(r4.QueuedBufferCount == 1);  // the earlier ones ran
  rig.dev.hold_gpu(false);
  rig.dev.wait_idle();
}

TEST_CASE("submission render: NullRendering signals the fence without drawing") {
  Rig rig;
  const UINT rt = allocation_of(rig.dev, kRT);
  const std::uint64_t executed = rig.dev.diagnostics().buffers_executed;
  GpuCmds g;
  const std::size_t slot = g.set_state(target_record(rig.w, rig.h));
  g.clear(0x00FF0000u).fence();
  D3DDDICB_RENDER r = render_args(rig.ctx, 1);
  load(rig.dev, rig.ctx, g.b, r, {alloc_entry(rt, true)}, {patch_entry(0, slot)});
  // "inform the GPU not to process any commands ... still must perform the overhead of DMA
  // buffer submission and signaling".
  r.Flags.NullRendering = 1;
  REQUIRE(rig.dev.Render(r) == S_OK);
  const std::uint64_t fence = rig.dev.last_fence();
  rig.dev.wait_fence(fence);
  CHECK(rig.dev.completed_fence() >= fence);
  CHECK(rig.count_not(kRT, 0) == 0);  // not cleared
  CHECK(rig.dev.diagnostics().buffers_executed == executed);
}

TEST_CASE("submission render: broadcast runs the same buffer on every context") {
  Rig rig;
  const ULONG_PTR second = rig.context(kRT), third = rig.context(kRT);
  const UINT rt = allocation_of(rig.dev, kRT);
  const std::uint64_t executed = rig.dev.diagnostics().buffers_executed;
  GpuCmds g;
  const std::size_t slot = g.set_state(target_record(rig.w, rig.h));
  g.clear(0x0000FF00u);
  const std::uint64_t fence0 = rig.dev.last_fence();
  rig.dev.hold_gpu(true);
  D3DDDICB_RENDER r = render_args(rig.ctx, 1);
  load(rig.dev, rig.ctx, g.b, r, {alloc_entry(rt, true)}, {patch_entry(0, slot)});
  // "With one element, the buffer goes to hContext plus one other context" — here two.
  r.BroadcastContextCount = 2;
  r.BroadcastContext[0] = as_handle(second);
  r.BroadcastContext[1] = as_handle(third);
  REQUIRE(rig.dev.Render(r) == S_OK);
  CHECK(r.QueuedBufferCount == 1);
  CHECK(rig.dev.last_fence() == fence0 + 3);  // one submission per context
  // The second context got one buffer queued (its next Render counts 2).
  D3DDDICB_RENDER r2 = render_args(second, 1);
  GpuCmds nop;
  nop.nop();
  load(rig.dev, second, nop.b, r2);
  REQUIRE(rig.dev.Render(r2) == S_OK);
  CHECK(r2.QueuedBufferCount == 2);
  rig.dev.hold_gpu(false);
  rig.dev.wait_idle();
  CHECK(rig.dev.diagnostics().buffers_executed == executed + 4);
  CHECK(rig.count_not(kRT, 0x0000FF00u) == 0);
}

TEST_CASE("submission render: marker type and sequence are kept") {
  Rig rig(16, 16, {}, true);
  GpuCmds g;
  g.nop();
  D3DDDICB_RENDER r = render_args(rig.ctx, 0x80000001u);
  load(rig.dev, rig.ctx, g.b, r);
  r.MarkerLogType = D3DDDIMLT_PROFILE;
  REQUIRE(rig.dev.Render(r) == S_OK);
  dp2::Diagnostics d = rig.dev.diagnostics();
  CHECK(d.last_marker_log_type == D3DDDIMLT_PROFILE);
  CHECK(d.last_render_cb_sequence == 0x80000001u);
  D3DDDICB_RENDER r2 = render_args(rig.ctx, 0x80000002u);
  load(rig.dev, rig.ctx, g.b, r2);
  r2.MarkerLogType = D3DDDIMLT_FULL;
  REQUIRE(rig.dev.Render(r2) == S_OK);
  d = rig.dev.diagnostics();
  CHECK(d.last_marker_log_type == D3DDDIMLT_FULL);
  CHECK(d.last_render_cb_sequence == 0x80000002u);
}

TEST_CASE("submission render: the instruction set the diagnostics name is one the tools accept") {
  // Diagnostics::simd is what dp2bench prints and what --isa takes back (device.h): the
  // name must parse, and a device asked for it must run the same set. A set the CPU lacks
  // falls back to one it runs, which must round-trip too.
  for (const dp2::SimdTarget asked : {dp2::SimdTarget::kAuto, dp2::SimdTarget::kScalar, dp2::SimdTarget::kSse41,
                                      dp2::SimdTarget::kAvx2, dp2::SimdTarget::kAvx512, dp2::SimdTarget::kNeon}) {
    CAPTURE(static_cast<int>(asked));
    dp2::DeviceDesc desc;
    desc.simd = asked;
    const Rig rig(16, 16, desc);
    const std::string name = rig.dev.diagnostics().simd;
    CAPTURE(name);
    dp2::SimdTarget parsed = dp2::SimdTarget::kAuto;
    REQUIRE(dp2::simd_target_from_name(name, parsed));
    CHECK(parsed != dp2::SimdTarget::kAuto);  // the set that runs, not the request
    desc.simd = parsed;
    const Rig again(16, 16, desc);
    CHECK(std::string(again.dev.diagnostics().simd) == name);
  }
}

TEST_CASE("submission render: CommandOffset skips leading bytes, patch offsets count from the buffer start") {
  Rig rig;
  const UINT rt = allocation_of(rig.dev, kRT);
  GpuCmds g;
  // Bytes before CommandOffset are not commands: here a header that would be invalid.
  g.add(DP2GPU_OP_NOP, nullptr, 8, 12);
  const std::size_t skip = g.b.size();
  const std::size_t slot = g.set_state(target_record(rig.w, rig.h));
  g.clear(0x00445566u).fence();
  // "CommandOffset ... offset, in bytes, to the first command in the command buffer";
  // PatchOffset is the byte offset from the start of the buffer (gpu_commands.h).
  D3DDDICB_RENDER bad = render_args(rig.ctx, 1);
  load(rig.dev, rig.ctx, g.b, bad, {alloc_entry(rt, true)}, {patch_entry(0, 0)});  // inside the skipped bytes
  bad.CommandOffset = static_cast<UINT>(skip);
  CHECK(rig.dev.Render(bad) == D3DDDIERR_INVALIDINSTRUCTION);
  D3DDDICB_RENDER r = render_args(rig.ctx, 1);
  load(rig.dev, rig.ctx, g.b, r, {alloc_entry(rt, true)}, {patch_entry(0, slot)});
  r.CommandOffset = static_cast<UINT>(skip);
  REQUIRE(rig.dev.Render(r) == S_OK);
  CHECK(rig.count_not(kRT, 0x00445566u) == 0);
}
