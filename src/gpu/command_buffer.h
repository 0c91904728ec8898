// The records the front end hands toward the back end: draws, clears, blits and the
// state snapshots they refer to, with their index and rectangle data, and vertices from
// user memory, copied into the buffer's own arena (ARCHITECTURE.md: caller memory is read
// once, by the front end; what the back end needs later is copied here, or held through
// an allocation: a vertex buffer's vertices stay in it, DrawRecord).
//
// The memory and submission issue adds the allocation and patch location lists and
// submission through Render; the pixel issue consumes these records in rasterizer/.
//
// Thread: filled on the DrawPrimitives2 thread; read by whoever executes it later.
#pragma once

#include <cstddef>
#include <cstdint>
#include <array>
#include <span>
#include <variant>
#include <vector>

#include "dp2/ddi.h"
#include "state/pipeline_key.h"

namespace dp2::gpu {

enum class Topology : std::uint8_t {
  kPointList, kLineList, kLineStrip, kTriangleList, kTriangleStrip, kTriangleFan,
};

// A byte range inside CommandBuffer::data().
struct ArenaRange {
  std::uint32_t offset = 0;
  std::uint32_t size = 0;
};

// The state a run of records draws with. Palettes are copied in when the snapshot is
// taken, so a later UPDATEPALETTE in the same call does not reach back to earlier draws.
struct SnapshotPalette {
  std::uint8_t slot = 0;  // 0–7: the stage's texture; kTargetPaletteSlot: the colour target
  bool alpha = false;     // DDRAWIPAL_ALPHA
  std::array<DWORD, 256> entries{};
};
inline constexpr std::uint8_t kTargetPaletteSlot = 8;

struct StateSnapshot {
  state::PipelineKey key;
  state::DrawUniforms uniforms;
  DWORD render_target = 0;
  DWORD depth_stencil = 0;
  std::vector<SnapshotPalette> palettes;
};

// Vertex data is the block of every vertex the draw references, in the source FVF
// layout: copied into the arena, or (vertex_surface != 0) left in that vertex buffer
// surface at vertex_offset, for the GPU to read when the draw runs. The record names the
// surface's instance at record time (vertex_allocation): that allocation goes into the
// submission's list, so a Lock waits for it, and a later swap or rename of the surface
// does not change what the draw reads. Indices (32-bit) are relative to that block. Without indices the draw takes
// the block's vertices in order. Triangle fans keep D3D's vertex order: triangle i is
// (v[i+1], v[i+2], v[0]) (D3DHAL_DP2TRIANGLEFAN page).
struct DrawRecord {
  Topology topology = Topology::kTriangleList;
  std::uint32_t primitive_count = 0;
  DWORD fvf = 0;
  std::uint32_t stride = 0;
  std::uint32_t vertex_count = 0;
  ArenaRange vertices;            // empty when vertex_surface != 0
  DWORD vertex_surface = 0;       // the vertex buffer holding them, or 0: copied
  std::uint32_t vertex_allocation = 0;  // its instance (memory::AllocationHandle) when recorded
  std::uint32_t vertex_offset = 0;  // of the first vertex in vertex_surface
  ArenaRange indices;     // uint32 each; empty = sequential
  ArenaRange edge_flags;  // DWORD per primitive (wireframe edge flags); empty = all edges
  std::uint32_t state = 0;          // index into states()
  std::uint32_t source_offset = 0;  // of the DP2 command in the caller's buffer
  std::uint8_t source_op = 0;
  std::uint32_t tnl = UINT32_MAX;   // untransformed FVF: index into tnl_states(); else UINT32_MAX
};

struct ClearRecord {
  DWORD flags = 0;  // D3DCLEAR_*
  DWORD color = 0;
  float depth = 0.0f;
  DWORD stencil = 0;
  ArenaRange rects;  // RECTs; empty = the whole target (COMPUTERECTS with 0 rects → viewport)
  std::uint32_t state = 0;
  std::uint32_t source_offset = 0;
};

// TEXBLT, BLT, SURFACEBLT, VOLUMEBLT, BUFFERBLT, COLORFILL, GENERATEMIPSUBLEVELS: kept
// whole so the back end performs them in stream order.
struct CopyRecord {
  std::uint8_t source_op = 0;
  ArenaRange payload;  // the one record, as the stream had it
  std::uint32_t source_offset = 0;
};

using Record = std::variant<DrawRecord, ClearRecord, CopyRecord>;

class CommandBuffer {
 public:
  // Copies bytes into the arena; nullopt-like failure (size 0 range with ok=false) when
  // the arena would exceed kMaxArenaBytes.
  static constexpr std::size_t kMaxArenaBytes = std::size_t{1} << 30;  // 1 GiB per buffer

  [[nodiscard]] bool append_bytes(std::span<const std::byte> bytes, ArenaRange& out);
  [[nodiscard]] bool append_u32(std::span<const std::uint32_t> values, ArenaRange& out);

  // The snapshot index for the current state: a new snapshot only when something changed
  // (`changed`: the state was dirty since the last snapshot).
  std::uint32_t snapshot(const state::StateBlock& state, const state::PipelineKey& key,
                         const state::DrawUniforms& uniforms, bool changed);

  // The transform-and-lighting snapshot for an untransformed draw of `fvf` (an encoded
  // vertex::TnlState, kept in the arena): a new one only when it differs from the last.
  // False when the arena is full.
  [[nodiscard]] bool tnl_snapshot(const state::StateBlock& state, DWORD fvf, std::uint32_t& index);
  std::span<const std::byte> tnl_state(std::uint32_t index) const noexcept { return bytes(tnl_states_[index]); }

  void add(Record record) { records_.push_back(std::move(record)); }

  std::span<const Record> records() const noexcept { return records_; }
  std::span<const StateSnapshot> states() const noexcept { return states_; }
  std::span<const std::byte> data() const noexcept { return data_; }
  std::span<const std::byte> bytes(ArenaRange r) const noexcept { return std::span(data_).subspan(r.offset, r.size); }
  std::vector<std::uint32_t> indices(const DrawRecord& d) const;

  // Keeps capacity (no heap traffic in steady state).
  void reset();

  // A failed DP2 command leaves no half of itself behind: the executor marks the buffer
  // before each command and rolls back to the mark when the command fails, so the
  // runtime can resend from dwErrorOffset without drawing anything twice.
  struct Mark {
    std::size_t data = 0, records = 0, states = 0, tnl_states = 0;
  };
  Mark mark() const noexcept { return {data_.size(), records_.size(), states_.size(), tnl_states_.size()}; }
  void rollback(const Mark& m);

 private:
  std::vector<std::byte> data_;
  std::vector<Record> records_;
  std::vector<StateSnapshot> states_;
  std::vector<ArenaRange> tnl_states_;
  std::vector<std::byte> tnl_scratch_;
};

}  // namespace dp2::gpu
