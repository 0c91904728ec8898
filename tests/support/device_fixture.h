// Scaffolding shared by the memory and submission suites (test_submission_*, test_locks_*,
// test_concurrency_*): devices, surfaces, streams and read-back through the public API.
#pragma once

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

namespace {

using dp2::StreamWriter;
using dp2::VertexWriter;

[[maybe_unused]] constexpr DWORD kRT = 1, kRT2 = 2, kTex = 3, kVB = 4;
constexpr DWORD kFvfC = D3DFVF_XYZRHW | D3DFVF_DIFFUSE;
constexpr std::uint32_t kStrideC = 20;  // XYZRHW 16 + DIFFUSE 4

[[maybe_unused]] HANDLE as_handle(std::uintptr_t v) { return reinterpret_cast<HANDLE>(v); }
[[maybe_unused]] std::uintptr_t from_handle(HANDLE h) { return reinterpret_cast<std::uintptr_t>(h); }

[[maybe_unused]] dp2::SurfaceDesc rt_desc(std::uint32_t w, std::uint32_t h, D3DFORMAT f = D3DFMT_X8R8G8B8) {
  dp2::SurfaceDesc d;
  d.kind = dp2::SurfaceKind::kRenderTarget;
  d.format = f;
  d.width = w;
  d.height = h;
  return d;
}

// A device with an X8R8G8B8 render target kRT and one DX9 context drawing to it.
struct Rig {
  dp2::Device dev;
  ULONG_PTR ctx = 0;
  std::uint32_t w, h;
  explicit Rig(std::uint32_t width = 16, std::uint32_t height = 16, dp2::DeviceDesc desc = {}, bool free_threaded = false)
      : dev([&] {
          if (desc.render_threads == 0) desc.render_threads = 1;
          return desc;
        }()),
        w(width), h(height) {
    REQUIRE(dev.create_surface(kRT, rt_desc(width, height)) == D3D_OK);
    ctx = context(kRT, free_threaded);
  }
  ULONG_PTR context(DWORD target, bool free_threaded = false) {
    dp2::ContextDesc cd;
    cd.interface_version = 5;
    cd.render_target = target;
    cd.free_threaded = free_threaded;
    ULONG_PTR c = 0;
    REQUIRE(dev.create_context(cd, c) == D3D_OK);
    return c;
  }
  // 0x00RRGGBB of pixel (x, y) of an X8R8G8B8 surface (pitch = 4·width).
  std::uint32_t rgb(DWORD surface, std::uint32_t x, std::uint32_t y) {
    const auto mem = dev.surface_bytes(surface);
    std::uint32_t v = 0;
    std::memcpy(&v, mem.data() + (std::size_t{y} * w + x) * 4, 4);
    return v & 0x00FFFFFFu;
  }
  std::uint32_t rgb(std::uint32_t x, std::uint32_t y) { return rgb(kRT, x, y); }
  // Every pixel of `surface` equals `c` (count of the others).
  int count_not(DWORD surface, std::uint32_t c) {
    int n = 0;
    for (std::uint32_t y = 0; y < h; ++y)
      for (std::uint32_t x = 0; x < w; ++x) n += rgb(surface, x, y) != c;
    return n;
  }
  std::vector<std::byte> snapshot(DWORD surface) {
    const auto mem = dev.surface_bytes(surface);
    return {mem.begin(), mem.end()};
  }
};

// One D3dDrawPrimitives2 call with a fresh command surface (and vertex surface when there
// are vertices); returns ddrval.
[[maybe_unused]] HRESULT dp2_call(dp2::Device& dev, ULONG_PTR ctx, const StreamWriter& s, std::span<const std::byte> vertices = {},
                 DWORD fvf = kFvfC, DWORD cmd_surface = 0x7C00, DWORD vb_surface = 0x7C01) {
  dp2::Dp2CallDesc d;
  d.vertex_type = fvf;
  d.command_surface = cmd_surface;
  d.vertex_surface = vb_surface;
  dp2::Dp2Call call(s, vertices, d);
  REQUIRE(call.upload(dev, ctx) == D3D_OK);
  call.run(dev);
  dev.destroy_surface(cmd_surface);
  dev.destroy_surface(vb_surface);
  return call.data.ddrval;
}

// Stage 0 passes the diffuse colour straight through; no culling.
[[maybe_unused]] StreamWriter& flat_state(StreamWriter& s) {
  return s.texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_SELECTARG1)
      .texture_stage_state(0, D3DTSS_COLORARG1, D3DTA_DIFFUSE)
      .texture_stage_state(0, D3DTSS_ALPHAOP, D3DTOP_SELECTARG1)
      .texture_stage_state(0, D3DTSS_ALPHAARG1, D3DTA_DIFFUSE)
      .end_merge()
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .end_merge();
}

// Axis-aligned rectangle as two triangles of a list: covers pixel centres x0 ≤ i < x1,
// y0 ≤ j < y1 (D3D top-left rule, pixel centres on integers).
[[maybe_unused]] void quad(VertexWriter& v, float x0, float y0, float x1, float y1, D3DCOLOR c) {
  v.tl(x0, y0, 0.5f, 1, c).tl(x1, y0, 0.5f, 1, c).tl(x0, y1, 0.5f, 1, c);
  v.tl(x1, y0, 0.5f, 1, c).tl(x1, y1, 0.5f, 1, c).tl(x0, y1, 0.5f, 1, c);
}

// A frame: clear to `clear`, then a rectangle of colour `c` over [x0,x1)×[y0,y1).
[[maybe_unused]] HRESULT draw_rect(dp2::Device& dev, ULONG_PTR ctx, D3DCOLOR clear, float x0, float y0, float x1, float y1, D3DCOLOR c) {
  StreamWriter s;
  s.clear(D3DCLEAR_TARGET, clear, 1.0f, 0);
  flat_state(s);
  VertexWriter v(kFvfC);
  quad(v, x0, y0, x1, y1, c);
  s.triangle_list(0, 2);
  return dp2_call(dev, ctx, s, v.bytes());
}

// The allocation handle of a surface's tracked instance, through the public DDI: a
// LockAsync(Discard) hands out hCookie, and after Rename "the user-mode display driver
// should use the allocation that hCookie specifies for all rendering operations that
// reference the resource" (pfnRename page) — so the cookie IS the surface's allocation.
[[maybe_unused]] UINT allocation_of(dp2::Device& dev, DWORD surface) {
  D3DDDIARG_LOCKASYNC la{};
  la.hResource = as_handle(surface);
  la.Flags.Discard = 1;
  REQUIRE(dev.LockAsync(la) == S_OK);
  D3DDDIARG_UNLOCKASYNC ua{};
  ua.hResource = as_handle(surface);
  REQUIRE(dev.UnlockAsync(ua) == S_OK);
  D3DDDIARG_RENAME rn{};
  rn.hResource = as_handle(surface);
  rn.hCookie = la.hCookie;
  REQUIRE(dev.Rename(rn) == S_OK);
  return static_cast<UINT>(from_handle(la.hCookie));
}

// GPU command buffer builder (dp2/gpu_commands.h): header + payload, sizes padded to 8.
struct GpuCmds {
  std::vector<std::byte> b;
  std::size_t add(std::uint32_t op, const void* payload, std::size_t n, std::uint32_t size_override = 0) {
    const std::size_t size = (8 + n + 7) & ~std::size_t{7};
    const std::size_t at = b.size();
    b.resize(at + size);
    const DP2GPU_HEADER hd{op, size_override ? size_override : static_cast<std::uint32_t>(size)};
    std::memcpy(b.data() + at, &hd, 8);
    if (n && payload) std::memcpy(b.data() + at + 8, payload, n);
    return at + 8;
  }
  GpuCmds& nop() {
    add(DP2GPU_OP_NOP, nullptr, 0);
    return *this;
  }
  // SET_STATE with Direct3D's default state (key_size = uniforms_size = 0) and colour
  // target `color`; returns the byte offset of color.address (a patch location).
  std::size_t set_state(const DP2GPU_SURFACE& color) {
    DP2GPU_SET_STATE st{};
    st.color = color;
    const std::size_t at = add(DP2GPU_OP_SET_STATE, &st, sizeof st);
    return at + offsetof(DP2GPU_SET_STATE, color) + offsetof(DP2GPU_SURFACE, address);
  }
  GpuCmds& clear(D3DCOLOR color) {
    const DP2GPU_CLEAR c{D3DCLEAR_TARGET, color, 1.0f, 0, 0, 0};
    add(DP2GPU_OP_CLEAR, &c, sizeof c);
    return *this;
  }
  // A triangle list of XYZRHW|DIFFUSE vertices, optional indices.
  GpuCmds& draw(const std::vector<std::array<float, 2>>& xy, D3DCOLOR c, std::uint32_t primitives,
            const std::vector<std::uint32_t>& indices = {}) {
    std::vector<std::byte> p(sizeof(DP2GPU_DRAW) + xy.size() * kStrideC + indices.size() * 4);
    const DP2GPU_DRAW d{DP2GPU_TRIANGLELIST, primitives, kFvfC, kStrideC, static_cast<std::uint32_t>(xy.size()),
                        static_cast<std::uint32_t>(indices.size()), 0, 0};
    std::memcpy(p.data(), &d, sizeof d);
    for (std::size_t i = 0; i < xy.size(); ++i) {
      const float v[4] = {xy[i][0], xy[i][1], 0.5f, 1.0f};
      std::memcpy(p.data() + sizeof d + i * kStrideC, v, 16);
      std::memcpy(p.data() + sizeof d + i * kStrideC + 16, &c, 4);
    }
    if (!indices.empty()) std::memcpy(p.data() + sizeof d + xy.size() * kStrideC, indices.data(), indices.size() * 4);
    add(DP2GPU_OP_DRAW, p.data(), p.size());
    return *this;
  }
  // DRAW_BUFFER: a triangle list of `vertex_count` XYZRHW|DIFFUSE vertices read from a
  // vertex buffer; returns the byte offset of its `vertices` address (a patch location).
  std::size_t draw_buffer(std::uint32_t vertex_count, std::uint32_t primitives, std::size_t size_override = 0) {
    DP2GPU_DRAW_BUFFER d{};
    d.draw = {DP2GPU_TRIANGLELIST, primitives, kFvfC, kStrideC, vertex_count, 0, 0, 0};
    const std::size_t at = add(DP2GPU_OP_DRAW_BUFFER, &d, size_override ? size_override : sizeof d);
    return at + offsetof(DP2GPU_DRAW_BUFFER, vertices);
  }
  GpuCmds& fence() {
    const DP2GPU_FENCE f{0};
    add(DP2GPU_OP_FENCE, &f, sizeof f);
    return *this;
  }
};

[[maybe_unused]] DP2GPU_SURFACE target_record(std::uint32_t w, std::uint32_t h) {
  DP2GPU_SURFACE s{};
  s.format = D3DFMT_X8R8G8B8;
  s.width = w;
  s.height = h;
  s.pitch = w * 4;
  s.levels = 1;
  return s;
}

// Copies `cmds` and the lists into the context's current buffers and fills the counts of
// `r` (other members are the caller's).
[[maybe_unused]] void load(dp2::Device& dev, ULONG_PTR ctx, const std::vector<std::byte>& cmds, D3DDDICB_RENDER& r,
          const std::vector<D3DDDI_ALLOCATIONLIST>& allocations = {},
          const std::vector<D3DDDI_PATCHLOCATIONLIST>& patches = {}) {
  dp2::CommandBuffers cb;
  REQUIRE(dev.command_buffers(ctx, cb) == S_OK);
  REQUIRE(cb.command_buffer_size >= cmds.size());
  if (!cmds.empty()) std::memcpy(cb.command_buffer, cmds.data(), cmds.size());
  for (std::size_t i = 0; i < allocations.size(); ++i) cb.allocation_list[i] = allocations[i];
  for (std::size_t i = 0; i < patches.size(); ++i) cb.patch_location_list[i] = patches[i];
  r.CommandLength = static_cast<UINT>(cmds.size());
  r.NumAllocations = static_cast<UINT>(allocations.size());
  r.NumPatchLocations = static_cast<UINT>(patches.size());
}

[[maybe_unused]] D3DDDI_ALLOCATIONLIST alloc_entry(UINT handle, bool write) {
  D3DDDI_ALLOCATIONLIST a{};
  a.hAllocation = handle;
  a.WriteOperation = write ? 1 : 0;
  return a;
}
[[maybe_unused]] D3DDDI_PATCHLOCATIONLIST patch_entry(UINT index, std::size_t offset, UINT allocation_offset = 0) {
  D3DDDI_PATCHLOCATIONLIST p{};
  p.AllocationIndex = index;
  p.AllocationOffset = allocation_offset;
  p.PatchOffset = static_cast<UINT>(offset);
  return p;
}

[[maybe_unused]] D3DDDICB_RENDER render_args(ULONG_PTR ctx, UINT sequence) {
  D3DDDICB_RENDER r{};
  r.hContext = as_handle(ctx);
  r.RenderCBSequence = sequence;
  return r;
}

// Asks, as pfnRenderCb allows, for next buffers of other sizes: each New*Size with its
// Resize* flag.
[[maybe_unused]] void request_resize(D3DDDICB_RENDER& r, UINT command_bytes, UINT allocations, UINT patches) {
  r.Flags.ResizeCommandBuffer = 1;
  r.NewCommandBufferSize = command_bytes;
  r.Flags.ResizeAllocationList = 1;
  r.NewAllocationListSize = allocations;
  r.Flags.ResizePatchLocationList = 1;
  r.NewPatchLocationListSize = patches;
}

}  // namespace
