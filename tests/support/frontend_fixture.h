// Scaffolding shared by the front-end suites (tests/unit/test_frontend_*.cpp): a context
// and a surface table driven through ddi::execute_draw_primitives2 directly, so recorded
// state and draws can be inspected; hand-built stream helpers; result checks.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <span>
#include <variant>
#include <vector>

#include "ddi/executor.h"
#include "device/context.h"
#include "device/surface_table.h"
#include "memory/video_memory.h"
#include "dp2/ddi.h"
#include "dp2/device.h"
#include "dp2/stream_writer.h"

namespace {

static_assert(std::endian::native == std::endian::little, "hand-built streams are little-endian");

using Bytes = std::vector<std::byte>;
using dp2::detail::Context;
using dp2::gpu::ClearRecord;
using dp2::gpu::CopyRecord;
using dp2::gpu::DrawRecord;
using dp2::gpu::Topology;

constexpr DWORD kRT = 1;  // the context's render target handle
// XYZRHW | DIFFUSE: 16 + 4 = 20 bytes (STATES.md §10); 20 is not a power of two, so a
// stride mix-up moves every vertex.
constexpr DWORD kFvf = D3DFVF_XYZRHW | D3DFVF_DIFFUSE;
constexpr std::uint32_t kStride = 20;

// Little-endian byte builder for hand-made streams (DP2-OPCODES.md §1, §4.1).
struct B {
  Bytes v;
  B& u8(unsigned x) { v.push_back(static_cast<std::byte>(x & 0xFFu)); return *this; }
  B& w(unsigned x) { return u8(x).u8(x >> 8); }
  B& d(std::uint32_t x) { return w(x & 0xFFFFu).w(x >> 16); }
  B& i(std::int32_t x) { return d(static_cast<std::uint32_t>(x)); }
  B& f(float x) { return d(std::bit_cast<std::uint32_t>(x)); }
  B& fill(std::size_t n, unsigned byte) { v.insert(v.end(), n, static_cast<std::byte>(byte)); return *this; }
  B& bytes(std::span<const std::byte> s) { v.insert(v.end(), s.begin(), s.end()); return *this; }
  // D3DHAL_DP2COMMAND: BYTE bCommand, BYTE bReserved, WORD wPrimitiveCount/wStateCount.
  B& hdr(unsigned op, unsigned count) { return u8(op).u8(0).w(count); }
  B& rs(DWORD state, DWORD value) { return hdr(D3DDP2OP_RENDERSTATE, 1).d(state).d(value); }
  std::size_t size() const { return v.size(); }
};

// n vertices of kFvf, every byte distinct enough that a wrong slice shows.
Bytes make_vertices(std::size_t n) {
  B b;
  for (std::size_t k = 0; k < n; ++k)
    b.f(static_cast<float>(k)).f(100.0f + static_cast<float>(k)).f(0.5f).f(1.0f).d(0xFF000000u | static_cast<DWORD>(k));
  return b.v;
}
Bytes slice(const Bytes& b, std::size_t first_vertex, std::size_t count, std::size_t stride = kStride) {
  return Bytes(b.begin() + static_cast<std::ptrdiff_t>(first_vertex * stride),
               b.begin() + static_cast<std::ptrdiff_t>((first_vertex + count) * stride));
}
Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// The front end alone: the executor (src/ddi/executor.h) on a context and surface table
// of our own, exactly what Device::DrawPrimitives2 runs after its context and flip checks.
// dp2::Device hands the recorded commands to the back end and resets them at the end of
// each call, so records are observed here; the two device-level steps (context, flip) are
// tested through dp2::Device in test_frontend_rules.cpp.
struct Fx {
  // The front end alone: no GPU runs here, so every fence reads as completed.
  struct NoFences final : dp2::memory::FenceSource {
    dp2::memory::FenceId completed() const override { return ~dp2::memory::FenceId{0}; }
    void wait(dp2::memory::FenceId) override {}
  };
  dp2::DeviceDesc device_desc;
  NoFences fences;
  dp2::memory::VideoMemory memory{{dp2::memory::SegmentDesc{std::uint64_t{16} << 20, {}}}, fences};
  dp2::detail::SurfaceTable surfaces{memory};
  std::unique_ptr<Context> context;
  dp2::Diagnostics diag;
  dp2::UnknownCommandCallback unknown;
  ULONG_PTR ctx = 1;
  DWORD next_handle = 0x100;

  explicit Fx(std::uint32_t interface_version = 3, bool tnl = false) {
    device_desc.transform_and_lighting = tnl;
    dp2::SurfaceDesc rt;
    rt.kind = dp2::SurfaceKind::kRenderTarget;
    rt.format = D3DFMT_A8R8G8B8;
    rt.width = rt.height = 8;
    REQUIRE(surfaces.create(kRT, rt) == D3D_OK);
    dp2::ContextDesc cd;
    cd.interface_version = interface_version;
    cd.render_target = kRT;
    context = std::make_unique<Context>(cd);
  }
  const Context& c() const { return *context; }
  const dp2::state::StateBlock& s() const { return c().state; }
  const dp2::Diagnostics& diagnostics() const { return diag; }
  void set_unknown_command_callback(dp2::UnknownCommandCallback cb) { unknown = std::move(cb); }
  HRESULT create_surface(DWORD h, const dp2::SurfaceDesc& sd) { return surfaces.create(h, sd); }
  std::span<std::byte> surface_bytes(DWORD h) {
    dp2::detail::Surface* s = surfaces.find(h);
    return s ? surfaces.bytes(*s) : std::span<std::byte>{};
  }
  DWORD draw_primitives2(D3DHAL_DRAWPRIMITIVES2DATA& d) {
    dp2::ddi::ExecutorEnv env{surfaces, *context, diag, unknown, device_desc};
    dp2::ddi::execute_draw_primitives2(d, env);
    // As Device::DrawPrimitives2 does once the records are submitted.
    if (d.ddrval == D3D_OK) dp2::ddi::swap_buffers(d, surfaces);
    return DDHAL_DRIVER_HANDLED;
  }
  // A buffer surface holding exactly `bytes` (nothing after them: ASan sees overreads).
  DWORD buffer(dp2::SurfaceKind kind, std::span<const std::byte> bytes) {
    const DWORD h = next_handle++;
    dp2::SurfaceDesc sd;
    sd.kind = kind;
    sd.size_bytes = std::max<std::size_t>(bytes.size(), 1);
    REQUIRE(surfaces.create(h, sd) == D3D_OK);
    auto mem = surface_bytes(h);
    REQUIRE(mem.size() >= bytes.size());
    std::copy(bytes.begin(), bytes.end(), mem.begin());
    return h;
  }
  std::vector<DrawRecord> draws() const {
    std::vector<DrawRecord> out;
    for (const auto& r : c().commands.records())
      if (const auto* d = std::get_if<DrawRecord>(&r)) out.push_back(*d);
    return out;
  }
  std::vector<ClearRecord> clears() const {
    std::vector<ClearRecord> out;
    for (const auto& r : c().commands.records())
      if (const auto* d = std::get_if<ClearRecord>(&r)) out.push_back(*d);
    return out;
  }
  std::vector<CopyRecord> copies() const {
    std::vector<CopyRecord> out;
    for (const auto& r : c().commands.records())
      if (const auto* d = std::get_if<CopyRecord>(&r)) out.push_back(*d);
    return out;
  }
  Bytes arena(dp2::gpu::ArenaRange r) const {
    auto s = c().commands.bytes(r);
    return Bytes(s.begin(), s.end());
  }
  // A draw's vertex block: copied into the arena, or left in its vertex buffer.
  Bytes vertices(const DrawRecord& d) {
    if (d.vertex_surface == 0) return arena(d.vertices);
    const auto all = surface_bytes(d.vertex_surface);
    const std::size_t size = std::size_t{d.vertex_count} * d.stride;
    REQUIRE(d.vertex_offset <= all.size());
    REQUIRE(size <= all.size() - d.vertex_offset);
    const auto block = all.subspan(d.vertex_offset, size);
    return Bytes(block.begin(), block.end());
  }
  std::vector<std::uint32_t> indices(const DrawRecord& d) const { return c().commands.indices(d); }
  std::size_t record_count() const { return c().commands.records().size(); }
};

// One D3dDrawPrimitives2 call's inputs other than the command bytes.
struct Call {
  DWORD command_offset = 0;     // dwCommandOffset; the bytes before it are 0xCD filler
  DWORD vertex_type = kFvf;     // dwVertexType
  DWORD vertex_size = 0;        // dwVertexSize (0 = let the FVF decide)
  Bytes vertices;               // legacy vertex buffer contents (after vertex_offset)
  DWORD vertex_offset = 0;      // dwVertexOffset
  DWORD vertex_length = ~0u;    // dwVertexLength; ~0u = vertices.size() / kStride
  bool user_memory = false;     // D3DHALDP2_USERMEMVERTICES + lpVertices
  DWORD flags = 0;
  LPDWORD render_states = nullptr;
  DWORD length_override = ~0u;  // dwCommandLength if not the stream size
  DWORD req_command = 0, req_vertex = 0;
  std::size_t surface_slack = 0;  // extra bytes after the stream in the command surface
};

struct Result {
  DWORD ret = 0;
  HRESULT ddrval = 0;
  DWORD error_offset = 0;
  DWORD command_surface = 0;
  DWORD vertex_surface = 0;
};

Result run(Fx& fx, std::span<const std::byte> commands, const Call& call = {}) {
  Bytes cmd_mem(call.command_offset, std::byte{0xCD});
  cmd_mem.insert(cmd_mem.end(), commands.begin(), commands.end());
  cmd_mem.insert(cmd_mem.end(), call.surface_slack, std::byte{0xCD});
  Result res;
  res.command_surface = fx.buffer(dp2::SurfaceKind::kCommandBuffer, cmd_mem);
  Bytes vb(call.vertex_offset, std::byte{0xAB});
  vb.insert(vb.end(), call.vertices.begin(), call.vertices.end());

  D3DHAL_DRAWPRIMITIVES2DATA d{};
  d.dwhContext = fx.ctx;
  d.dwFlags = call.flags | (call.user_memory ? D3DHALDP2_USERMEMVERTICES : 0u);
  d.dwVertexType = call.vertex_type;
  d.lpDDCommands = res.command_surface;
  d.dwCommandOffset = call.command_offset;
  d.dwCommandLength = call.length_override != ~0u ? call.length_override : static_cast<DWORD>(commands.size());
  if (call.user_memory) {
    d.lpVertices = vb.empty() ? nullptr : vb.data();
  } else if (!call.vertices.empty()) {
    res.vertex_surface = fx.buffer(dp2::SurfaceKind::kVertexBuffer, vb);
    d.lpDDVertex = res.vertex_surface;
  }
  d.dwVertexOffset = call.vertex_offset;
  d.dwVertexLength = call.vertex_length != ~0u ? call.vertex_length : static_cast<DWORD>(call.vertices.size() / kStride);
  d.dwReqCommandBufSize = call.req_command;
  d.dwReqVertexBufSize = call.req_vertex;
  d.lpdwRStates = call.render_states;
  d.dwVertexSize = call.vertex_size;
  d.dwErrorOffset = 0xDEADBEEF;  // must be rewritten on every path
  res.ret = fx.draw_primitives2(d);
  res.ddrval = d.ddrval;
  res.error_offset = d.dwErrorOffset;
  return res;
}

// Every outcome the DDI defines is reported through ddrval with DDHAL_DRIVER_HANDLED.
#define CHECK_OK(r)                            \
  do {                                         \
    CHECK((r).ret == DDHAL_DRIVER_HANDLED);    \
    CHECK((r).ddrval == D3D_OK);               \
    CHECK((r).error_offset == 0u);             \
  } while (0)
#define CHECK_FAIL(r, code, offset)            \
  do {                                         \
    CHECK((r).ret == DDHAL_DRIVER_HANDLED);    \
    CHECK((r).ddrval == (code));               \
    CHECK((r).error_offset == DWORD(offset));  \
  } while (0)

}  // namespace
