#include "gpu/encoder.h"

#include <cstring>
#include <map>
#include <type_traits>

namespace dp2::gpu {
namespace {

static_assert(std::is_trivially_copyable_v<state::PipelineKey> && std::is_trivially_copyable_v<state::DrawUniforms>,
              "key and uniforms travel as bytes");

constexpr std::size_t kCommandAlignment = 8;

class Writer {
 public:
  Writer(EncodedBuffer& out, const SurfaceResolver& resolve) : out_(out), resolve_(resolve) {}

  // Starts a command of `payload` bytes (padded to 8); returns the offset of its payload.
  std::size_t begin(std::uint32_t op, std::size_t payload) {
    const std::size_t size = (sizeof(DP2GPU_HEADER) + payload + kCommandAlignment - 1) & ~(kCommandAlignment - 1);
    const std::size_t at = out_.commands.size();
    out_.commands.resize(at + size);
    const DP2GPU_HEADER h{op, static_cast<std::uint32_t>(size)};
    std::memcpy(out_.commands.data() + at, &h, sizeof h);
    return at + sizeof(DP2GPU_HEADER);
  }
  void put(std::size_t at, const void* data, std::size_t size) {
    if (size) std::memcpy(out_.commands.data() + at, data, size);
  }

  // A surface record at `at`, with its allocation listed and its address patched later.
  // Returns false when a non-zero handle names nothing the GPU can use.
  bool surface(std::size_t at, DWORD handle, bool write) {
    DP2GPU_SURFACE s{};
    const auto binding = handle ? resolve_(handle) : std::nullopt;
    if (binding) {
      s = binding->surface;
      s.address = 0;
      D3DDDI_PATCHLOCATIONLIST patch{};
      patch.AllocationIndex = allocation_index(binding->allocation, write);
      patch.PatchOffset = static_cast<UINT>(at + offsetof(DP2GPU_SURFACE, address));
      out_.patches.push_back(patch);
    }
    put(at, &s, sizeof s);
    return handle == 0 || binding.has_value();
  }
  void count_unresolved_texture() { ++out_.unresolved_textures; }

 private:
  UINT allocation_index(std::uint32_t allocation, bool write) {
    auto [it, inserted] = index_.try_emplace(allocation, static_cast<UINT>(out_.allocations.size()));
    if (inserted) {
      D3DDDI_ALLOCATIONLIST entry{};
      entry.hAllocation = allocation;
      out_.allocations.push_back(entry);
    }
    if (write) out_.allocations[it->second].WriteOperation = 1;
    return it->second;
  }

  EncodedBuffer& out_;
  const SurfaceResolver& resolve_;
  std::map<std::uint32_t, UINT> index_;
};

void encode_state(Writer& w, const StateSnapshot& snap) {
  const std::size_t palettes = snap.palettes.size() * sizeof(std::array<DWORD, 256>);
  const std::size_t at = w.begin(DP2GPU_OP_SET_STATE, sizeof(DP2GPU_SET_STATE) + sizeof(state::PipelineKey) +
                                                          sizeof(state::DrawUniforms) + palettes);
  w.surface(at + offsetof(DP2GPU_SET_STATE, color), snap.render_target, true);
  w.surface(at + offsetof(DP2GPU_SET_STATE, depth), snap.depth_stencil, true);
  for (std::uint32_t i = 0; i < DP2GPU_MAX_TEXTURES; ++i) {
    const DWORD handle = i < snap.key.active_stages ? snap.uniforms.textures[i] : 0;
    if (!w.surface(at + offsetof(DP2GPU_SET_STATE, textures) + i * sizeof(DP2GPU_SURFACE), handle, false))
      w.count_unresolved_texture();
  }
  std::uint32_t mask = 0, alpha = 0;
  for (const SnapshotPalette& p : snap.palettes) {
    mask |= 1u << p.slot;
    if (p.alpha) alpha |= 1u << p.slot;
  }
  const std::uint32_t sizes[4] = {sizeof(state::PipelineKey), sizeof(state::DrawUniforms), mask, alpha};
  w.put(at + offsetof(DP2GPU_SET_STATE, key_size), sizes, sizeof sizes);
  std::size_t tail = at + sizeof(DP2GPU_SET_STATE);
  w.put(tail, &snap.key, sizeof snap.key);
  tail += sizeof snap.key;
  w.put(tail, &snap.uniforms, sizeof snap.uniforms);
  tail += sizeof snap.uniforms;
  // Palettes in slot order, as the mask lists them.
  for (std::uint8_t slot = 0; slot <= kTargetPaletteSlot; ++slot)
    for (const SnapshotPalette& p : snap.palettes)
      if (p.slot == slot) {
        w.put(tail, p.entries.data(), sizeof p.entries);
        tail += sizeof p.entries;
      }
}

}  // namespace

void encode(const CommandBuffer& records, const SurfaceResolver& resolve, EncodedBuffer& out) {
  Writer w(out, resolve);
  std::uint32_t current = UINT32_MAX, current_tnl = UINT32_MAX;
  auto use_state = [&](std::uint32_t index) {
    if (index == current) return;
    encode_state(w, records.states()[index]);
    current = index;
  };
  for (const Record& r : records.records()) {
    if (const auto* d = std::get_if<DrawRecord>(&r)) {
      use_state(d->state);
      // An untransformed draw: its TnL state, when it is not the one already in effect.
      if (d->tnl != UINT32_MAX && d->tnl != current_tnl) {
        const auto blob = records.tnl_state(d->tnl);
        w.put(w.begin(DP2GPU_OP_SET_TRANSFORM_LIGHTING, blob.size()), blob.data(), blob.size());
        current_tnl = d->tnl;
      }
      const auto vertices = records.bytes(d->vertices), indices = records.bytes(d->indices),
                 edges = records.bytes(d->edge_flags);
      const std::size_t at = w.begin(DP2GPU_OP_DRAW, sizeof(DP2GPU_DRAW) + vertices.size() + indices.size() + edges.size());
      const DP2GPU_DRAW draw{static_cast<std::uint32_t>(d->topology), d->primitive_count, d->fvf, d->stride,
                             d->vertex_count, static_cast<std::uint32_t>(indices.size() / 4),
                             static_cast<std::uint32_t>(edges.size() / 4), 0};
      w.put(at, &draw, sizeof draw);
      w.put(at + sizeof draw, vertices.data(), vertices.size());
      w.put(at + sizeof draw + vertices.size(), indices.data(), indices.size());
      w.put(at + sizeof draw + vertices.size() + indices.size(), edges.data(), edges.size());
    } else if (const auto* c = std::get_if<ClearRecord>(&r)) {
      use_state(c->state);
      const auto rects = records.bytes(c->rects);
      const std::size_t at = w.begin(DP2GPU_OP_CLEAR, sizeof(DP2GPU_CLEAR) + rects.size());
      const DP2GPU_CLEAR clear{c->flags, c->color, c->depth, c->stencil, static_cast<std::uint32_t>(rects.size() / sizeof(RECT)), 0};
      w.put(at, &clear, sizeof clear);
      w.put(at + sizeof clear, rects.data(), rects.size());
    }
  }
  const std::size_t at = w.begin(DP2GPU_OP_FENCE, sizeof(DP2GPU_FENCE));
  const DP2GPU_FENCE fence{0};
  w.put(at, &fence, sizeof fence);
}

}  // namespace dp2::gpu
