#include "gpu/encoder.h"

#include <cstring>
#include <type_traits>

namespace dp2::gpu {
namespace {

static_assert(std::is_trivially_copyable_v<state::PipelineKey> && std::is_trivially_copyable_v<state::DrawUniforms>,
              "key and uniforms travel as bytes");

constexpr std::size_t kCommandAlignment = 8;

// Runs twice over the same records: first measuring (no bytes written, no surface
// looked up), then writing into a buffer sized once from the measurement — no resize per
// command, and nothing zero-filled but each command's fixed part and padding.
class Writer {
 public:
  // measuring: count sizes only. Otherwise `out.commands` holds at least the measured size.
  Writer(EncodedBuffer& out, const SurfaceResolver& resolve, bool measuring)
      : out_(out), resolve_(resolve), measuring_(measuring) {}

  // Starts a command of `fixed` + `variable` payload bytes (padded to 8); returns the
  // offset of its payload. The header, the fixed part and the padding are written here;
  // the caller writes every one of the `variable` bytes with put().
  std::size_t begin(std::uint32_t op, std::size_t fixed, std::size_t variable = 0) {
    const std::size_t payload = fixed + variable;
    const std::size_t size = (sizeof(DP2GPU_HEADER) + payload + kCommandAlignment - 1) & ~(kCommandAlignment - 1);
    const std::size_t at = size_;
    size_ += size;
    if (measuring_) return at + sizeof(DP2GPU_HEADER);
    std::byte* const base = out_.commands.data() + at;
    const DP2GPU_HEADER h{op, static_cast<std::uint32_t>(size)};
    std::memcpy(base, &h, sizeof h);
    std::memset(base + sizeof h, 0, fixed);
    std::memset(base + sizeof h + payload, 0, size - sizeof h - payload);
    return at + sizeof(DP2GPU_HEADER);
  }
  void put(std::size_t at, const void* data, std::size_t size) {
    if (!measuring_ && size) std::memcpy(out_.commands.data() + at, data, size);
  }
  std::size_t size() const noexcept { return size_; }
  void skip(std::size_t bytes) noexcept { size_ += bytes; }

  // A surface record at `at`, with its allocation listed and its address patched later.
  // Returns false when a non-zero handle names nothing the GPU can use.
  bool surface(std::size_t at, DWORD handle, bool write) {
    if (measuring_) return true;
    DP2GPU_SURFACE s{};
    const auto binding = handle ? resolve_(handle) : std::nullopt;
    if (binding) {
      s = binding->surface;
      s.address = 0;
      patch(at + offsetof(DP2GPU_SURFACE, address), binding->allocation, 0, write);
    }
    put(at, &s, sizeof s);
    return handle == 0 || binding.has_value();
  }
  // A DRAW_BUFFER's vertex address at `at`: the vertex buffer's allocation listed (read)
  // and its address plus `offset` patched in.
  void vertex_buffer(std::size_t at, std::uint32_t allocation, std::uint32_t offset) {
    if (!measuring_) patch(at, allocation, offset, false);
  }
  void count_unresolved_texture() { ++out_.unresolved_textures; }

 private:
  void patch(std::size_t at, std::uint32_t allocation, std::uint32_t offset, bool write) {
    D3DDDI_PATCHLOCATIONLIST p{};
    p.AllocationIndex = allocation_index(allocation, write);
    p.AllocationOffset = offset;
    p.PatchOffset = static_cast<UINT>(at);
    out_.patches.push_back(p);
  }
  UINT allocation_index(std::uint32_t allocation, bool write) {
    // A linear search: a buffer lists a handful of surfaces (targets, up to 8 textures,
    // the vertex buffers drawn from), and a map would allocate a node per surface per flush.
    UINT index = 0;
    while (index < out_.allocations.size() && out_.allocations[index].hAllocation != allocation) ++index;
    if (index == out_.allocations.size()) {
      D3DDDI_ALLOCATIONLIST entry{};
      entry.hAllocation = allocation;
      out_.allocations.push_back(entry);
    }
    if (write) out_.allocations[index].WriteOperation = 1;
    return index;
  }

  EncodedBuffer& out_;
  const SurfaceResolver& resolve_;
  const bool measuring_;
  std::size_t size_ = 0;
};

void encode_state(Writer& w, const StateSnapshot& snap) {
  const std::size_t palettes = snap.palettes.size() * sizeof(std::array<DWORD, 256>);
  const std::size_t at = w.begin(DP2GPU_OP_SET_STATE, sizeof(DP2GPU_SET_STATE),
                                 sizeof(state::PipelineKey) + sizeof(state::DrawUniforms) + palettes);
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

// One pass over the records, measuring or writing (Writer).
void encode_records(const CommandBuffer& records, Writer& w) {
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
        w.put(w.begin(DP2GPU_OP_SET_TRANSFORM_LIGHTING, 0, blob.size()), blob.data(), blob.size());
        current_tnl = d->tnl;
      }
      const auto vertices = records.bytes(d->vertices), indices = records.bytes(d->indices),
                 edges = records.bytes(d->edge_flags);
      const DP2GPU_DRAW draw{static_cast<std::uint32_t>(d->topology), d->primitive_count, d->fvf, d->stride,
                             d->vertex_count, static_cast<std::uint32_t>(indices.size() / 4),
                             static_cast<std::uint32_t>(edges.size() / 4), 0};
      std::size_t at = 0;
      if (d->vertex_surface != 0) {
        // The vertices stay in their buffer: only the address goes in.
        at = w.begin(DP2GPU_OP_DRAW_BUFFER, sizeof(DP2GPU_DRAW_BUFFER), indices.size() + edges.size());
        w.vertex_buffer(at + offsetof(DP2GPU_DRAW_BUFFER, vertices), d->vertex_allocation, d->vertex_offset);
        w.put(at + offsetof(DP2GPU_DRAW_BUFFER, draw), &draw, sizeof draw);
        at += sizeof(DP2GPU_DRAW_BUFFER);
      } else {
        at = w.begin(DP2GPU_OP_DRAW, sizeof(DP2GPU_DRAW), vertices.size() + indices.size() + edges.size());
        w.put(at, &draw, sizeof draw);
        w.put(at + sizeof draw, vertices.data(), vertices.size());
        at += sizeof draw + vertices.size();
      }
      w.put(at, indices.data(), indices.size());
      w.put(at + indices.size(), edges.data(), edges.size());
    } else if (const auto* c = std::get_if<ClearRecord>(&r)) {
      use_state(c->state);
      const auto rects = records.bytes(c->rects);
      const std::size_t at = w.begin(DP2GPU_OP_CLEAR, sizeof(DP2GPU_CLEAR), rects.size());
      const DP2GPU_CLEAR clear{c->flags, c->color, c->depth, c->stencil, static_cast<std::uint32_t>(rects.size() / sizeof(RECT)), 0};
      w.put(at, &clear, sizeof clear);
      w.put(at + sizeof clear, rects.data(), rects.size());
    }
  }
  const std::size_t at = w.begin(DP2GPU_OP_FENCE, sizeof(DP2GPU_FENCE));
  const DP2GPU_FENCE fence{0};
  w.put(at, &fence, sizeof fence);
}

}  // namespace

std::size_t encoded_size(const CommandBuffer& records) {
  EncodedBuffer unused;
  const SurfaceResolver none;
  Writer w(unused, none, true);
  encode_records(records, w);
  return w.size();
}

void encode(const CommandBuffer& records, const SurfaceResolver& resolve, EncodedBuffer& out) {
  const std::size_t size = encoded_size(records);
  // The buffer only grows (its bytes past command_size are left as they are): a buffer
  // reused from the pool is not zero-filled again.
  if (out.commands.size() < out.command_size + size) out.commands.resize(out.command_size + size);
  Writer w(out, resolve, false);
  w.skip(out.command_size);
  encode_records(records, w);
  out.command_size = w.size();
}

}  // namespace dp2::gpu
