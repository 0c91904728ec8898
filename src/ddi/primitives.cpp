// Primitive opcodes become draw records. Every vertex a primitive names is checked
// against the vertices the caller declared (dwVertexLength, the stream's buffer) before
// anything is recorded. The referenced block of user memory (or of a surface that is not
// an unlocked vertex buffer) is then copied into the command buffer, so nothing queued
// ever reads caller memory again; a vertex buffer's block stays in it, held through its
// allocation until the draw has run (ARCHITECTURE.md, note_vertex_buffer below).
//
// Out-of-range vertices fail the call with D3DERR_COMMAND_UNPARSED at the command, as the
// DDK samples' CHECK_DATABUF_LIMITS does (docs/decisions.md).
//
// Thread: the DrawPrimitives2 caller's.
#include <algorithm>
#include <limits>

#include "ddi/executor.h"
#include "ddi/fvf.h"
#include "vertex/tnl_state.h"

namespace dp2::ddi {
namespace {

using gpu::Topology;

// The four stream-draw records start with their D3DPRIMITIVETYPE; it is read as a DWORD.
static_assert(offsetof(D3DHAL_DP2DRAWPRIMITIVE, primType) == 0 && offsetof(D3DHAL_DP2DRAWINDEXEDPRIMITIVE, primType) == 0 &&
              offsetof(D3DHAL_DP2DRAWPRIMITIVE2, primType) == 0 && offsetof(D3DHAL_DP2DRAWINDEXEDPRIMITIVE2, primType) == 0);

std::optional<Topology> topology_from_d3dpt(DWORD type) {
  switch (type) {
    case D3DPT_POINTLIST: return Topology::kPointList;
    case D3DPT_LINELIST: return Topology::kLineList;
    case D3DPT_LINESTRIP: return Topology::kLineStrip;
    case D3DPT_TRIANGLELIST: return Topology::kTriangleList;
    case D3DPT_TRIANGLESTRIP: return Topology::kTriangleStrip;
    case D3DPT_TRIANGLEFAN: return Topology::kTriangleFan;
    default: return std::nullopt;
  }
}

// A TnL device's untransformed draw carries the transform-and-lighting state it needs
// (the back end reads nothing of the StateBlock).
CommandResult snapshot_tnl(ExecutorEnv& env, gpu::DrawRecord& d) {
  if (!env.device.transform_and_lighting || !vertex::is_untransformed(d.fvf)) return D3D_OK;
  return env.context.commands.tnl_snapshot(env.context.state, d.fvf, d.tnl) ? D3D_OK : DDERR_OUTOFMEMORY;
}

// A window on this surface leaves its draws' vertices in place when it is a vertex
// buffer (VertexWindow::buffer); other kinds used as vertex data are copied. So is a
// vertex buffer whose instance the caller holds locked during the call: it may write
// through that lock as soon as the call returns. The D3dDrawPrimitives2 page asks a driver
// to stall at the end of the call then ("If the buffer is explicit and there is an
// outstanding lock on it ... if it does not rename the buffer"); the copy gives the draw
// the bytes it would have read then, and the call still never waits.
void note_vertex_buffer(VertexWindow& w, const detail::Surface& s, DWORD handle) {
  if (s.desc.kind != SurfaceKind::kVertexBuffer || s.locked == s.allocation) return;
  w.buffer = handle;
  w.buffer_allocation = s.allocation;
}

}  // namespace

std::uint64_t vertices_for(Topology topology, std::uint64_t count) noexcept {
  switch (topology) {
    case Topology::kPointList: return count;
    case Topology::kLineList: return 2 * count;
    case Topology::kLineStrip: return count + 1;
    case Topology::kTriangleList: return 3 * count;
    case Topology::kTriangleStrip:
    case Topology::kTriangleFan: return count + 2;
  }
  return 0;
}

std::uint32_t PrimitiveRecorder::current_state() {
  detail::Context& ctx = env_.context;
  const bool changed = ctx.state.dirty() != 0;
  if (changed) state::update_derived(ctx.state, ctx.key, ctx.uniforms);
  return ctx.commands.snapshot(ctx.state, ctx.key, ctx.uniforms, changed);
}

// User memory has no length of its own: the caller promises dwVertexOffset bytes and then
// dwVertexLength vertices of the call's stride (dwVertexSize, or the FVF's). Every read
// from lpVertices — the legacy buffer or a SETSTREAMSOURCEUM stream of any stride — stays
// inside that promise (docs/decisions.md, "user-memory vertices").
// When the call states no stride at all (DX8+: dwVertexType and dwVertexSize both 0), the
// only stride given for lpVertices is the SETSTREAMSOURCEUM stream's (`stream_stride`).
std::optional<std::span<const std::byte>> PrimitiveRecorder::user_memory(std::uint32_t stream_stride) const {
  const std::uint32_t stride = user_stride_ != 0 ? user_stride_ : stream_stride;
  std::size_t size = 0;
  if (!(data_.dwFlags & D3DHALDP2_USERMEMVERTICES) || data_.lpVertices == nullptr ||
      !checked_mul(data_.dwVertexLength, stride, size) || !checked_add(size, data_.dwVertexOffset, size))
    return std::nullopt;
  return std::span(static_cast<const std::byte*>(data_.lpVertices), size);
}

std::optional<VertexWindow> PrimitiveRecorder::legacy_window() {
  if (legacy_ || legacy_failed_) return legacy_;
  legacy_failed_ = true;  // until proven otherwise
  if (stride_ == 0) return std::nullopt;
  VertexWindow w;
  w.stride = stride_;
  w.fvf = fvf_;
  w.base = data_.dwVertexOffset;
  w.max_vertices = data_.dwVertexLength;
  if (data_.dwFlags & D3DHALDP2_USERMEMVERTICES) {
    const auto bytes = user_memory(0);
    if (!bytes) return std::nullopt;
    w.bytes = *bytes;
  } else {
    const detail::Surface* vb = env_.surfaces.find(static_cast<DWORD>(data_.lpDDVertex));
    if (!vb || data_.lpDDVertex > std::numeric_limits<DWORD>::max()) return std::nullopt;
    w.bytes = env_.surfaces.bytes(*vb);
    note_vertex_buffer(w, *vb, static_cast<DWORD>(data_.lpDDVertex));
  }
  legacy_failed_ = false;
  legacy_ = w;
  return legacy_;
}

std::optional<VertexWindow> PrimitiveRecorder::stream0_window(bool require_fvf) {
  const state::StateBlock& s = env_.context.state;
  const state::StreamSource& stream = s.streams[0];
  VertexWindow w;
  w.stride = stream.stride;
  // SETVERTEXSHADER with bit 0 clear names an FVF; with bit 0 set, a declaration the
  // fixed-function path cannot interpret yet (kept, counted as not rendered).
  w.fvf = (s.vertex_shader & D3DFVF_RESERVED0) ? 0 : s.vertex_shader;
  if (require_fvf && w.fvf == 0) w.fvf = fvf_;
  switch (stream.kind) {
    case state::StreamSource::Kind::kNone:
      return std::nullopt;
    case state::StreamSource::Kind::kSurface: {
      const detail::Surface* vb = env_.surfaces.find(stream.surface);
      if (!vb) return std::nullopt;
      w.bytes = env_.surfaces.bytes(*vb);
      note_vertex_buffer(w, *vb, stream.surface);
      w.base = stream.offset;
      break;
    }
    case state::StreamSource::Kind::kUserMemory: {
      // SETSTREAMSOURCEUM: the data is at lpVertices + dwVertexOffset.
      const auto bytes = user_memory(stream.stride);
      if (!bytes) return std::nullopt;
      w.bytes = *bytes;
      w.base = data_.dwVertexOffset;
      break;
    }
  }
  return w;
}

CommandResult PrimitiveRecorder::emit_range(const Command& cmd, const VertexWindow& window, Topology topology,
                                            std::uint32_t primitives, std::uint64_t first, std::uint64_t count,
                                            std::span<const DWORD> edge_flags) {
  if (primitives == 0 || count == 0) {
    ++env_.diagnostics.zero_count_primitives;
    return D3D_OK;
  }
  // Both ends inside the window → every vertex between them is too.
  if (!window.contains(first) || !window.contains(first + count - 1)) return D3DERR_COMMAND_UNPARSED;
  return emit_block(cmd, window, topology, primitives, static_cast<std::uint32_t>(first),
                    static_cast<std::uint32_t>(count), {}, edge_flags);
}

CommandResult PrimitiveRecorder::emit_indexed(const Command& cmd, const VertexWindow& window, Topology topology,
                                              std::uint32_t primitives, std::span<const std::uint32_t> vertex_numbers,
                                              std::span<const DWORD> edge_flags) {
  if (primitives == 0 || vertex_numbers.empty()) {
    ++env_.diagnostics.zero_count_primitives;
    return D3D_OK;
  }
  const auto [lo_it, hi_it] = std::minmax_element(vertex_numbers.begin(), vertex_numbers.end());
  const std::uint32_t lo = *lo_it, hi = *hi_it;
  if (!window.contains(lo) || !window.contains(hi)) return D3DERR_COMMAND_UNPARSED;
  scratch_.assign(vertex_numbers.begin(), vertex_numbers.end());
  for (std::uint32_t& v : scratch_) v -= lo;
  return emit_block(cmd, window, topology, primitives, lo, hi - lo + 1, scratch_, edge_flags);
}

// Records the draw of vertices [first, first + count) of the window: left in place when
// the window is a vertex buffer (the GPU reads them there), else copied. The caller has
// checked the range; `indices` are relative to `first` (empty: sequential).
CommandResult PrimitiveRecorder::emit_block(const Command& cmd, const VertexWindow& window, Topology topology,
                                            std::uint32_t primitives, std::uint32_t first, std::uint32_t count,
                                            std::span<const std::uint32_t> indices, std::span<const DWORD> edge_flags) {
  gpu::CommandBuffer& cb = env_.context.commands;
  gpu::DrawRecord d;
  d.topology = topology;
  d.primitive_count = primitives;
  d.fvf = window.fvf;
  d.stride = window.stride;
  d.vertex_count = count;
  d.source_offset = static_cast<std::uint32_t>(data_.dwCommandOffset + cmd.offset);
  d.source_op = cmd.op;
  const std::size_t at = static_cast<std::size_t>(window.base + std::int64_t{first} * window.stride);
  // The arena refuses more than CommandBuffer::kMaxArenaBytes: a huge but valid draw
  // that is copied fails with DDERR_OUTOFMEMORY instead of exhausting the host.
  std::size_t bytes = 0;
  if (!checked_mul(count, window.stride, bytes)) return DDERR_OUTOFMEMORY;
  if (window.buffer != 0) {
    d.vertex_surface = window.buffer;
    d.vertex_allocation = window.buffer_allocation;
    d.vertex_offset = static_cast<std::uint32_t>(at);  // inside the surface: at most 1 GiB
  } else if (!cb.append_bytes(window.bytes.subspan(at, bytes), d.vertices)) {
    return DDERR_OUTOFMEMORY;
  }
  if (!indices.empty() && !cb.append_u32(indices, d.indices)) return DDERR_OUTOFMEMORY;
  if (!edge_flags.empty() && !cb.append_u32(edge_flags, d.edge_flags)) return DDERR_OUTOFMEMORY;
  d.state = current_state();
  if (CommandResult e = snapshot_tnl(env_, d); e != D3D_OK) return e;
  cb.add(d);
  ++env_.diagnostics.draws_recorded;
  if (window.fvf == 0) ++env_.diagnostics.commands_not_rendered[cmd.op];
  return D3D_OK;
}

CommandResult PrimitiveRecorder::emit_inline(const Command& cmd, Topology topology, std::uint32_t primitives,
                                             std::span<const std::byte> vertices, std::span<const DWORD> edge_flags) {
  if (primitives == 0) {
    ++env_.diagnostics.zero_count_primitives;
    return D3D_OK;
  }
  gpu::CommandBuffer& cb = env_.context.commands;
  gpu::DrawRecord d;
  d.topology = topology;
  d.primitive_count = primitives;
  d.fvf = fvf_;
  d.stride = stride_;
  d.vertex_count = static_cast<std::uint32_t>(vertices.size() / stride_);
  d.source_offset = static_cast<std::uint32_t>(data_.dwCommandOffset + cmd.offset);
  d.source_op = cmd.op;
  if (!cb.append_bytes(vertices, d.vertices)) return DDERR_OUTOFMEMORY;
  if (!edge_flags.empty() && !cb.append_u32(edge_flags, d.edge_flags)) return DDERR_OUTOFMEMORY;
  d.state = current_state();
  if (CommandResult e = snapshot_tnl(env_, d); e != D3D_OK) return e;
  cb.add(d);
  ++env_.diagnostics.draws_recorded;
  return D3D_OK;
}

CommandResult PrimitiveRecorder::record(const Command& cmd) {
  switch (cmd.op) {
    case D3DDP2OP_TRIANGLEFAN_IMM:
    case D3DDP2OP_LINELIST_IMM:
      return immediate(cmd);
    case D3DDP2OP_DRAWPRIMITIVE:
    case D3DDP2OP_DRAWINDEXEDPRIMITIVE:
    case D3DDP2OP_DRAWPRIMITIVE2:
    case D3DDP2OP_DRAWINDEXEDPRIMITIVE2:
    case D3DDP2OP_CLIPPEDTRIANGLEFAN:
      return stream_draw(cmd);
    default:
      return legacy(cmd);
  }
}

CommandResult PrimitiveRecorder::immediate(const Command& cmd) {
  // decode_one sized the body with the FVF stride, so it holds exactly the vertices.
  const std::uint32_t n = cmd.count;
  if (cmd.op == D3DDP2OP_LINELIST_IMM) return emit_inline(cmd, Topology::kLineList, n, cmd.body, {});
  // TRIANGLEFAN_IMM: bit i of dwEdgeFlags is edge V[i]–V[i+1]; bit n+1 is V[n+1]–V[0].
  const DWORD flags = cmd.imm_edge_flags;
  return emit_inline(cmd, Topology::kTriangleFan, n, cmd.body, std::span(&flags, 1));
}

CommandResult PrimitiveRecorder::legacy(const Command& cmd) {
  const auto window = legacy_window();
  // No vertex buffer where one is needed: the vertex parameters are wrong.
  if (!window) return DDERR_INVALIDPARAMS;
  const std::uint32_t n = cmd.count;
  std::vector<std::uint32_t>& v = indices_;
  v.clear();
  auto words = [&](std::uint32_t bias) {
    const Records<WORD> idx = cmd.records<WORD>();
    for (std::size_t i = 0; i < idx.size(); ++i) v.push_back(bias + idx[i]);
  };
  std::vector<DWORD>& edges = edges_;
  edges.clear();
  Topology topology = Topology::kTriangleList;
  switch (cmd.op) {
    case D3DDP2OP_POINTS: {
      // Each D3DHAL_DP2POINTS run draws wCount points from wVStart: one draw per run.
      const auto runs = cmd.records<D3DHAL_DP2POINTS>();
      for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto r = runs[i];
        if (CommandResult e = emit_range(cmd, *window, Topology::kPointList, r.wCount, r.wVStart, r.wCount); e != D3D_OK)
          return e;
      }
      return D3D_OK;
    }
    case D3DDP2OP_LINELIST:
    case D3DDP2OP_LINESTRIP:
    case D3DDP2OP_TRIANGLELIST:
    case D3DDP2OP_TRIANGLESTRIP:
    case D3DDP2OP_TRIANGLEFAN: {
      topology = cmd.op == D3DDP2OP_LINELIST       ? Topology::kLineList
                 : cmd.op == D3DDP2OP_LINESTRIP    ? Topology::kLineStrip
                 : cmd.op == D3DDP2OP_TRIANGLELIST ? Topology::kTriangleList
                 : cmd.op == D3DDP2OP_TRIANGLESTRIP ? Topology::kTriangleStrip
                                                    : Topology::kTriangleFan;
      const WORD start = *ByteReader(cmd.body).read<WORD>(0);
      return emit_range(cmd, *window, topology, n, start, vertices_for(topology, n));
    }
    case D3DDP2OP_INDEXEDLINELIST:
      topology = Topology::kLineList;
      words(0);
      break;
    case D3DDP2OP_INDEXEDTRIANGLELIST: {
      // wFlags carries D3DTRIFLAG_EDGEENABLE1..3 (v1–v2, v2–v3, v3–v1) for wireframe.
      topology = Topology::kTriangleList;
      const auto tris = cmd.records<D3DHAL_DP2INDEXEDTRIANGLELIST>();
      for (std::size_t i = 0; i < tris.size(); ++i) {
        const auto t = tris[i];
        v.insert(v.end(), {t.wV1, t.wV2, t.wV3});
        edges.push_back((t.wFlags & D3DTRIFLAG_EDGEENABLETRIANGLE) >> 8);
      }
      break;
    }
    case D3DDP2OP_INDEXEDLINELIST2:
      topology = Topology::kLineList;
      words(cmd.start_vertex);
      break;
    case D3DDP2OP_INDEXEDTRIANGLELIST2:
      topology = Topology::kTriangleList;
      words(cmd.start_vertex);
      break;
    case D3DDP2OP_INDEXEDLINESTRIP:
      topology = Topology::kLineStrip;
      words(cmd.start_vertex);
      break;
    case D3DDP2OP_INDEXEDTRIANGLESTRIP:
      topology = Topology::kTriangleStrip;
      words(cmd.start_vertex);
      break;
    case D3DDP2OP_INDEXEDTRIANGLEFAN:
      topology = Topology::kTriangleFan;
      words(cmd.start_vertex);
      break;
    default:
      return D3DERR_COMMAND_UNPARSED;
  }
  return emit_indexed(cmd, *window, topology, n, v, edges);
}

CommandResult PrimitiveRecorder::stream_draw(const Command& cmd) {
  // Stream 0 is located only when a record draws something: a zero-count record is
  // accepted even with no stream bound (docs/decisions.md, zero-count primitives).
  const bool software_processed = cmd.op == D3DDP2OP_DRAWPRIMITIVE2 || cmd.op == D3DDP2OP_DRAWINDEXEDPRIMITIVE2 ||
                                  cmd.op == D3DDP2OP_CLIPPEDTRIANGLEFAN;
  const auto window = stream0_window(software_processed);
  std::vector<std::uint32_t>& v = indices_;
  auto sequential_draw = [&](Topology t, std::uint64_t first, std::uint32_t count, VertexWindow w,
                             std::span<const DWORD> edges = {}) -> CommandResult {
    return emit_range(cmd, w, t, count, first, vertices_for(t, count), edges);
  };
  // Reads `count` indices of the bound index buffer from byte `offset`, adding `bias`.
  auto indexed_draw = [&](Topology t, std::uint64_t offset, std::uint32_t count, std::int64_t bias,
                          VertexWindow w) -> CommandResult {
    const state::IndexBinding& ib = env_.context.state.indices;
    const detail::Surface* surface = env_.surfaces.find(ib.surface);
    if (!surface || (ib.stride != 2 && ib.stride != 4)) return D3DERR_COMMAND_UNPARSED;
    const std::uint64_t needed = vertices_for(t, count);
    const ByteReader r(env_.surfaces.bytes(*surface));
    if (needed > (std::uint64_t{1} << 32) || offset > r.size() || needed * ib.stride > r.size() - offset)
      return D3DERR_COMMAND_UNPARSED;
    // The index list lives in the arena too; refuse what the arena would refuse anyway
    // before building it.
    if (needed * sizeof(std::uint32_t) > gpu::CommandBuffer::kMaxArenaBytes) return DDERR_OUTOFMEMORY;
    v.clear();
    for (std::uint64_t i = 0; i < needed; ++i) {
      const std::size_t at = static_cast<std::size_t>(offset + i * ib.stride);
      const std::int64_t idx = ib.stride == 2 ? std::int64_t{*r.read<WORD>(at)} : std::int64_t{*r.read<DWORD>(at)};
      const std::int64_t vertex = idx + bias;
      if (vertex < 0 || vertex > std::numeric_limits<std::uint32_t>::max()) return D3DERR_COMMAND_UNPARSED;
      v.push_back(static_cast<std::uint32_t>(vertex));
    }
    return emit_indexed(cmd, w, t, count, v);
  };

  switch (cmd.op) {
    case D3DDP2OP_DRAWPRIMITIVE: {
      const auto recs = cmd.records<D3DHAL_DP2DRAWPRIMITIVE>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto r = recs[i];
        const auto t = topology_from_d3dpt(recs.dword_at(i, 0));  // primType is at offset 0 in all four
        if (!t) return D3DERR_COMMAND_UNPARSED;
        if (r.PrimitiveCount == 0) {
          ++env_.diagnostics.zero_count_primitives;
          continue;
        }
        if (!window) return D3DERR_COMMAND_UNPARSED;
        if (CommandResult e = sequential_draw(*t, r.VStart, r.PrimitiveCount, *window); e != D3D_OK) return e;
      }
      return D3D_OK;
    }
    case D3DDP2OP_DRAWINDEXEDPRIMITIVE: {
      // vertex = indices[StartIndex + k] + BaseVertexIndex (DP2-OPCODES.md §3.2).
      const auto recs = cmd.records<D3DHAL_DP2DRAWINDEXEDPRIMITIVE>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto r = recs[i];
        const auto t = topology_from_d3dpt(recs.dword_at(i, 0));  // primType is at offset 0 in all four
        if (!t) return D3DERR_COMMAND_UNPARSED;
        if (r.PrimitiveCount == 0) {
          ++env_.diagnostics.zero_count_primitives;
          continue;
        }
        if (!window) return D3DERR_COMMAND_UNPARSED;
        const std::uint64_t offset = std::uint64_t{r.StartIndex} * env_.context.state.indices.stride;
        if (CommandResult e = indexed_draw(*t, offset, r.PrimitiveCount, r.BaseVertexIndex, *window); e != D3D_OK)
          return e;
      }
      return D3D_OK;
    }
    case D3DDP2OP_DRAWPRIMITIVE2: {
      // Byte offsets into stream 0 (software-processed vertices).
      const auto recs = cmd.records<D3DHAL_DP2DRAWPRIMITIVE2>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto r = recs[i];
        const auto t = topology_from_d3dpt(recs.dword_at(i, 0));  // primType is at offset 0 in all four
        if (!t) return D3DERR_COMMAND_UNPARSED;
        if (r.PrimitiveCount == 0) {
          ++env_.diagnostics.zero_count_primitives;
          continue;
        }
        if (!window) return D3DERR_COMMAND_UNPARSED;
        VertexWindow w = *window;
        w.base += r.FirstVertexOffset;
        if (CommandResult e = sequential_draw(*t, 0, r.PrimitiveCount, w); e != D3D_OK) return e;
      }
      return D3D_OK;
    }
    case D3DDP2OP_DRAWINDEXEDPRIMITIVE2: {
      const auto recs = cmd.records<D3DHAL_DP2DRAWINDEXEDPRIMITIVE2>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto r = recs[i];
        const auto t = topology_from_d3dpt(recs.dword_at(i, 0));  // primType is at offset 0 in all four
        if (!t) return D3DERR_COMMAND_UNPARSED;
        if (r.PrimitiveCount == 0) {
          ++env_.diagnostics.zero_count_primitives;
          continue;
        }
        if (!window) return D3DERR_COMMAND_UNPARSED;
        VertexWindow w = *window;
        w.base += r.BaseVertexOffset;  // signed bytes; each vertex is still range-checked
        if (CommandResult e = indexed_draw(*t, r.StartIndexOffset, r.PrimitiveCount, 0, w); e != D3D_OK) return e;
      }
      return D3D_OK;
    }
    case D3DDP2OP_CLIPPEDTRIANGLEFAN: {
      const auto recs = cmd.records<D3DHAL_CLIPPEDTRIANGLEFAN>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto r = recs[i];
        if (r.PrimitiveCount == 0) {
          ++env_.diagnostics.zero_count_primitives;
          continue;
        }
        if (!window) return D3DERR_COMMAND_UNPARSED;
        VertexWindow w = *window;
        w.base += r.FirstVertexOffset;
        const DWORD flags = r.dwEdgeFlags;
        if (CommandResult e = sequential_draw(Topology::kTriangleFan, 0, r.PrimitiveCount, w, std::span(&flags, 1));
            e != D3D_OK)
          return e;
      }
      return D3D_OK;
    }
    default:
      return D3DERR_COMMAND_UNPARSED;
  }
}

}  // namespace dp2::ddi
