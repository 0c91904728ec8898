#include "gpu/validate.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "ddi/reader.h"
#include "dp2raster/limits.h"
#include "state/pipeline_key.h"
#include "vertex/tnl_state.h"

namespace dp2::gpu {
namespace {

using ddi::checked_add;
using ddi::checked_mul;

// Largest surface a SURFACE record may describe: the rasterizer's own limit.
constexpr std::uint32_t kMaxDimension = raster::kMaxSurfaceDimension;
constexpr std::uint32_t kMaxLevels = 16;
constexpr std::uint32_t kTopologyCount = DP2GPU_TRIANGLEFAN + 1;

std::uint64_t vertices_needed(std::uint32_t topology, std::uint64_t primitives) {
  switch (topology) {
    case DP2GPU_POINTLIST: return primitives;
    case DP2GPU_LINELIST: return 2 * primitives;
    case DP2GPU_LINESTRIP: return primitives + 1;
    case DP2GPU_TRIANGLELIST: return 3 * primitives;
    default: return primitives + 2;  // strips and fans
  }
}

template <class T>
T load(std::span<const std::byte> bytes, std::size_t at) {
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof v);
  return v;
}

bool surface_ok(const DP2GPU_SURFACE& s) {
  if (s.address == 0 && s.width == 0) return true;  // "none"
  return s.width > 0 && s.height > 0 && s.width <= kMaxDimension && s.height <= kMaxDimension && s.levels > 0 &&
         s.levels <= kMaxLevels;
}

HRESULT check_set_state(std::span<const std::byte> p, std::size_t payload_at, std::vector<std::size_t>& slots) {
  if (p.size() < sizeof(DP2GPU_SET_STATE)) return D3DDDIERR_INVALIDUSERBUFFER;
  const auto st = load<DP2GPU_SET_STATE>(p, 0);
  // 0 = Direct3D's default state (for buffers written outside dp2's front end).
  if ((st.key_size != 0 && st.key_size != sizeof(state::PipelineKey)) ||
      (st.uniforms_size != 0 && st.uniforms_size != sizeof(state::DrawUniforms)) ||
      (st.palette_mask >> 9) != 0 || (st.palette_alpha_mask & ~st.palette_mask) != 0)
    return D3DDDIERR_INVALIDINSTRUCTION;
  const std::size_t palettes = static_cast<std::size_t>(__builtin_popcount(st.palette_mask)) * 1024;
  if (p.size() < sizeof(DP2GPU_SET_STATE) + st.key_size + st.uniforms_size + palettes) return D3DDDIERR_INVALIDUSERBUFFER;
  const DP2GPU_SURFACE* all[2 + DP2GPU_MAX_TEXTURES] = {&st.color, &st.depth};
  for (int i = 0; i < DP2GPU_MAX_TEXTURES; ++i) all[2 + i] = &st.textures[i];
  for (int i = 0; i < 2 + DP2GPU_MAX_TEXTURES; ++i) {
    if (!surface_ok(*all[i])) return D3DDDIERR_INVALIDINSTRUCTION;
    slots.push_back(payload_at + static_cast<std::size_t>(i) * sizeof(DP2GPU_SURFACE) + offsetof(DP2GPU_SURFACE, address));
  }
  return S_OK;
}

// DRAW carries its vertices inline; DRAW_BUFFER names them by an address (a patch slot)
// and carries only its indices and edge flags.
HRESULT check_draw(std::uint32_t op, std::span<const std::byte> p, std::size_t payload_at, std::vector<std::size_t>& slots) {
  const std::optional<DrawCommand> c = read_draw(op, p);
  if (!c) return D3DDDIERR_INVALIDUSERBUFFER;
  const DP2GPU_DRAW& d = c->draw;
  if (d.topology >= kTopologyCount || d.stride == 0) return D3DDDIERR_INVALIDINSTRUCTION;
  // The primitives must fit the vertices (or indices) the command names.
  const std::uint64_t available = d.index_count ? d.index_count : d.vertex_count;
  if (d.primitive_count > 0 && vertices_needed(d.topology, d.primitive_count) > available)
    return D3DDDIERR_INVALIDINSTRUCTION;
  for (std::uint32_t i = 0; i < d.index_count; ++i)
    if (load<std::uint32_t>(c->indices, 4 * std::size_t{i}) >= d.vertex_count) return D3DDDIERR_INVALIDINSTRUCTION;
  if (c->buffered) slots.push_back(payload_at + offsetof(DP2GPU_DRAW_BUFFER, vertices));
  return S_OK;
}

HRESULT check_clear(std::span<const std::byte> p) {
  if (p.size() < sizeof(DP2GPU_CLEAR)) return D3DDDIERR_INVALIDUSERBUFFER;
  const auto c = load<DP2GPU_CLEAR>(p, 0);
  std::size_t rects = 0;
  if (!checked_mul(c.rect_count, sizeof(RECT), rects) || sizeof(DP2GPU_CLEAR) + rects > p.size())
    return D3DDDIERR_INVALIDUSERBUFFER;
  return S_OK;
}

// Exactly one TnlState and its world_count (1–256) matrices, padded to 8.
HRESULT check_transform_lighting(std::span<const std::byte> p) {
  if (p.size() < sizeof(vertex::TnlState)) return D3DDDIERR_INVALIDUSERBUFFER;
  const auto t = load<vertex::TnlState>(p, 0);
  if (t.world_count == 0 || t.world_count > vertex::kMaxWorldMatrices || t.light_count > vertex::kMaxActiveLights)
    return D3DDDIERR_INVALIDINSTRUCTION;
  const std::size_t expected = (vertex::tnl_encoded_size(t.world_count) + 7) & ~std::size_t{7};
  return p.size() == expected ? S_OK : D3DDDIERR_INVALIDUSERBUFFER;
}

}  // namespace

std::optional<DrawCommand> read_draw(std::uint32_t op, std::span<const std::byte> payload) {
  DrawCommand c;
  c.buffered = op == DP2GPU_OP_DRAW_BUFFER;
  const std::size_t fixed = c.buffered ? sizeof(DP2GPU_DRAW_BUFFER) : sizeof(DP2GPU_DRAW);
  if (payload.size() < fixed) return std::nullopt;
  if (c.buffered) c.vertex_address = load<std::uint64_t>(payload, offsetof(DP2GPU_DRAW_BUFFER, vertices));
  c.draw = load<DP2GPU_DRAW>(payload, fixed - sizeof(DP2GPU_DRAW));
  std::size_t index_bytes = 0, edge_bytes = 0, total = fixed;
  if (!checked_mul(c.draw.vertex_count, c.draw.stride, c.vertex_bytes) || !checked_mul(c.draw.index_count, 4, index_bytes) ||
      !checked_mul(c.draw.edge_count, 4, edge_bytes))
    return std::nullopt;
  const std::size_t inline_bytes = c.buffered ? 0 : c.vertex_bytes;
  if (!checked_add(total, inline_bytes, total) || !checked_add(total, index_bytes, total) ||
      !checked_add(total, edge_bytes, total) || total > payload.size())
    return std::nullopt;
  c.vertices = payload.subspan(fixed, inline_bytes);
  c.indices = payload.subspan(fixed + inline_bytes, index_bytes);
  c.edge_flags = payload.subspan(fixed + inline_bytes + index_bytes, edge_bytes);
  return c;
}

HRESULT validate_submission(std::span<const std::byte> commands, std::span<const D3DDDI_ALLOCATIONLIST> allocations,
                            std::span<const D3DDDI_PATCHLOCATIONLIST> patches,
                            const std::function<bool(std::uint32_t)>& allocation_exists) {
  std::vector<std::size_t> slots;
  return validate_submission(commands, allocations, patches, allocation_exists, slots);
}

HRESULT validate_submission(std::span<const std::byte> commands, std::span<const D3DDDI_ALLOCATIONLIST> allocations,
                            std::span<const D3DDDI_PATCHLOCATIONLIST> patches,
                            const std::function<bool(std::uint32_t)>& allocation_exists,
                            std::vector<std::size_t>& slots) {
  // Offsets of patchable addresses (SURFACE records, DRAW_BUFFER vertices). Commands are
  // walked front to back and a SET_STATE's surfaces in order, so the list comes out sorted
  // (binary search below).
  slots.clear();
  std::size_t at = 0;
  while (at < commands.size()) {
    if (commands.size() - at < sizeof(DP2GPU_HEADER)) return D3DDDIERR_INVALIDUSERBUFFER;
    const auto h = load<DP2GPU_HEADER>(commands, at);
    if (h.size < sizeof(DP2GPU_HEADER) || h.size % 8 != 0 || h.size > commands.size() - at)
      return D3DDDIERR_INVALIDUSERBUFFER;
    const auto payload = commands.subspan(at + sizeof h, h.size - sizeof h);
    HRESULT hr = S_OK;
    switch (h.op) {
      case DP2GPU_OP_NOP: break;
      case DP2GPU_OP_SET_STATE: hr = check_set_state(payload, at + sizeof h, slots); break;
      case DP2GPU_OP_DRAW:
      case DP2GPU_OP_DRAW_BUFFER: hr = check_draw(h.op, payload, at + sizeof h, slots); break;
      case DP2GPU_OP_CLEAR: hr = check_clear(payload); break;
      case DP2GPU_OP_SET_TRANSFORM_LIGHTING: hr = check_transform_lighting(payload); break;
      case DP2GPU_OP_FENCE: hr = payload.size() >= sizeof(DP2GPU_FENCE) ? S_OK : D3DDDIERR_INVALIDUSERBUFFER; break;
      default: hr = D3DDDIERR_INVALIDINSTRUCTION; break;
    }
    if (hr != S_OK) return hr;
    at += h.size;
  }
  for (const D3DDDI_ALLOCATIONLIST& a : allocations)
    if (a.hAllocation != 0 && !allocation_exists(a.hAllocation)) return D3DDDIERR_INVALIDHANDLE;
  for (const D3DDDI_PATCHLOCATIONLIST& p : patches) {
    if (p.AllocationIndex >= allocations.size() || !std::binary_search(slots.begin(), slots.end(), std::size_t{p.PatchOffset})) return D3DDDIERR_INVALIDINSTRUCTION;
  }
  return S_OK;
}

}  // namespace dp2::gpu
