// Save states (issue 7): Device::save_state quiesces the device and writes its whole state
// — surfaces and their bytes, flip chains, contexts with their StateBlock, state sets and
// Render buffers, and the counters that decide future handles — into a versioned blob;
// Device::restore_state rebuilds it in a fresh device, so rendering continues with the same
// bytes. docs/save-state.md gives the layout and the rules.
//
// Restore parses and checks the whole blob first (into detached objects), then applies it;
// if applying fails (no memory), everything it made is undone and the device is fresh again.
//
// Threads: any. save_state waits for the GPU worker to be idle, then holds the table mutex
// while it writes (and checks, under the mutex, that nothing was submitted meanwhile).
#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <type_traits>

#include "ddi/decoder.h"
#include "ddi/opcodes.h"
#include "device/device_impl.h"
#include "device/state_blob.h"

namespace dp2 {
namespace detail {
namespace {

using blob::Cursor;
using blob::Loader;
using blob::Saver;

// --- layout constants (docs/save-state.md) ------------------------------------------------
inline constexpr char kMagic[8] = {'D', 'P', '2', 'S', 'T', 'A', 'T', 'E'};
inline constexpr std::uint16_t kVersionMajor = 1;  // readers reject any other major
inline constexpr std::uint16_t kVersionMinor = 0;  // newer minors only append record fields
inline constexpr std::size_t kHeaderSize = 32;
inline constexpr std::uint32_t kEndMarker = 0x21444E45u;  // "END!"

inline constexpr std::uint32_t kDeviceTnL = 1u;
inline constexpr std::uint32_t kSurfaceExplicitVB = 1u, kSurfaceColorKey = 2u, kSurfaceFlipInProgress = 4u;
inline constexpr std::uint32_t kChainInFlip = 1u, kChainFrameReady = 2u;
inline constexpr std::uint32_t kContextFreeThreaded = 1u;
inline constexpr std::uint32_t kSurfaceKinds = 6;  // SurfaceKind values 0..5

// DDI structures travel as their packed DDI layouts; these sizes are part of the format.
static_assert(sizeof(D3DMATRIX) == 64 && sizeof(D3DMATERIAL7) == 68 && sizeof(D3DLIGHT7) == 104);
static_assert(sizeof(D3DHAL_DP2WINFO) == 8 && sizeof(D3DHAL_DP2ZRANGE) == 8 && sizeof(RECT) == 16);
static_assert(sizeof(D3DVERTEXELEMENT9) == 8 && sizeof(BOOL) == 4);
static_assert(sizeof(D3DDDI_ALLOCATIONLIST) == 8 && sizeof(D3DDDI_PATCHLOCATIONLIST) == 24);

// --- structures described once for both directions ----------------------------------------

// The front end's counters, field by field.
template <class D, class Fn>
void diagnostics_fields(D& d, Fn&& fn) {
  for (auto& c : d.commands) fn(c);
  for (auto& c : d.commands_not_rendered) fn(c);
  fn(d.unknown_render_states);
  fn(d.bad_texture_stages);
  fn(d.bad_handles);
  fn(d.unknown_commands_resumed);
  fn(d.draws_recorded);
  fn(d.zero_count_primitives);
  fn(d.draws_skipped);
  fn(d.missing_textures);
  fn(d.state_values_out_of_range);
  fn(d.buffers_executed);
  fn(d.render_calls);
  fn(d.last_render_cb_sequence);
  fn(d.last_marker_log_type);
  fn(d.primitives_rejected);
}

template <class Io, class S>
void io_shader(Io& io, S& shader) {
  io.vector(shader.declaration, 4, [&](auto& x) { io.value(x); });
  io.vector(shader.code, 4, [&](auto& x) { io.value(x); });
  io.vector(shader.elements, sizeof(D3DVERTEXELEMENT9), [&](auto& x) { io.value(x); });
}

template <class Io, class M>
void io_dword_map(Io& io, M& m) {
  io.map(m, 4, [&](auto& v) { io.value(v); });
}

// The whole StateBlock except its dirty bits (a restored block is all dirty).
template <class Io, class S>
void io_state_block(Io& io, S& s) {
  for (std::uint32_t i = 0; i < state::kRenderStateCount; ++i) {
    if constexpr (Io::kLoading) {
      DWORD v = 0;
      io.value(v);
      s.set_render_state(i, v);
    } else {
      io.value(s.render_state(i));
    }
  }
  for (std::uint32_t stage = 0; stage < state::kStageCount; ++stage)
    for (std::uint32_t t = 0; t < state::kStatesPerStage; ++t) {
      if constexpr (Io::kLoading) {
        DWORD v = 0;
        io.value(v);
        s.set_texture_stage_state(stage, t, v);
      } else {
        io.value(s.texture_stage_state(stage, t));
      }
    }
  io.value(s.viewport.x);
  io.value(s.viewport.y);
  io.value(s.viewport.width);
  io.value(s.viewport.height);
  io.value(s.winfo);
  io.value(s.zrange);
  io.map(s.transforms, sizeof(D3DMATRIX), [&](auto& m) { io.value(m); });
  io.value(s.material);
  io.map(s.lights, 3 + sizeof(D3DLIGHT7), [&](auto& light) {
    io.flag(light.created);
    io.flag(light.enabled);
    io.flag(light.has_data);
    io.value(light.data);
  });
  for (auto& plane : s.clip_planes) io.value(plane);
  io.value(s.scissor);
  io_dword_map(io, s.texture_lod);
  io_dword_map(io, s.priority);
  io.map(s.palettes, 4 + 4 * 256, [&](auto& p) {
    io.value(p.flags);
    io.value(p.entries);
  });
  io_dword_map(io, s.surface_palette);
  for (auto& st : s.streams) {
    auto kind = static_cast<std::uint8_t>(st.kind);
    io.value(kind);
    if constexpr (Io::kLoading) {
      if (kind > static_cast<std::uint8_t>(state::StreamSource::Kind::kUserMemory))
        io.cursor().fail("stream source kind " + std::to_string(kind));
      st.kind = static_cast<state::StreamSource::Kind>(io.ok() ? kind : 0);
    }
    io.value(st.surface);
    io.value(st.stride);
    io.value(st.offset);
    io.value(st.divider);
  }
  io.value(s.indices.surface);
  io.value(s.indices.stride);
  io.value(s.vertex_shader);
  io.value(s.vertex_shader_func);
  io.value(s.pixel_shader);
  for (auto* shaders : {&s.vertex_shaders, &s.vertex_decls, &s.vertex_funcs, &s.pixel_shaders})
    io.map(*shaders, 12, [&](auto& shader) { io_shader(io, shader); });
  io.vector(s.vs_const_f, 16, [&](auto& x) { io.value(x); });
  io.vector(s.ps_const_f, 16, [&](auto& x) { io.value(x); });
  io.vector(s.vs_const_i, 16, [&](auto& x) { io.value(x); });
  io.vector(s.ps_const_i, 16, [&](auto& x) { io.value(x); });
  io.vector(s.vs_const_b, 4, [&](auto& x) { io.value(x); });
  io.vector(s.ps_const_b, 4, [&](auto& x) { io.value(x); });
  io.map(s.queries, 8, [&](auto& q) {
    io.value(q.type);
    io.value(q.last_issue_flags);
  });
  io.value(s.render_target);
  io.value(s.depth_stencil);
  io.value(s.render_targets);
  io.flag(s.legacy_modulate);
  io.value(s.interface_version);
}

template <class Io, class Set>
void io_state_set(Io& io, Set& set) {
  io.vector(set, 9, [&](auto& entry) {
    io.value(entry.op);
    io.bytes(entry.payload);
  });
}

template <class Io, class B>
void io_render_buffers(Io& io, B& b) {
  io.value(b.next_sequence);
  io.bytes(b.commands);
  io.vector(b.allocations, sizeof(D3DDDI_ALLOCATIONLIST), [&](auto& x) { io.value(x); });
  io.vector(b.patches, sizeof(D3DDDI_PATCHLOCATIONLIST), [&](auto& x) { io.value(x); });
}

// The context's own part after its desc: Render buffers, state, state sets, recording.
template <class Io, class C, class B>
void io_context_body(Io& io, C& context, B& buffers) {
  io_render_buffers(io, buffers);
  io_state_block(io, context.state);
  io.map(context.state_sets, 4, [&](auto& set) { io_state_set(io, set); });
  io.flag(context.recording_state_set);
  io.value(context.recording_handle);
  io_state_set(io, context.recording);
}

// A recorded state-set entry is replayed through the front end (EXECUTE) and rewritten in
// place (CAPTURE), which trust its size: only the commands the recorder keeps, each exactly
// one record long (state_sets.cpp, executor.cpp).
bool valid_state_set_entry(const StateSetEntry& e) {
  switch (e.op) {
    case D3DDP2OP_RENDERSTATE: case D3DDP2OP_TEXTURESTAGESTATE: case D3DDP2OP_VIEWPORTINFO:
    case D3DDP2OP_WINFO: case D3DDP2OP_ZRANGE: case D3DDP2OP_SETMATERIAL: case D3DDP2OP_SETTRANSFORM:
    case D3DDP2OP_SETCLIPPLANE:
      if (const ddi::OpcodeInfo* info = ddi::find_opcode(e.op)) return e.payload.size() == info->item_size;
      return false;
    case D3DDP2OP_SETLIGHT: {
      const auto size = ddi::variable_record_size(e.op, ddi::ByteReader(e.payload), 0);
      return size && *size == e.payload.size();
    }
    default:
      return false;
  }
}

// --- save ------------------------------------------------------------------------------------

std::string save_refusal(const DeviceImpl& impl) {
  std::string why;
  impl.surfaces.for_each([&](DWORD handle, const Surface& s) {
    if (!why.empty()) return;
    if (s.locked) why = "surface " + std::to_string(handle) + " is locked (save with every lock released)";
    else if (!s.cookies.empty())
      why = "surface " + std::to_string(handle) + " has a LockAsync(Discard) instance not yet renamed";
  });
  return why;
}

void save_locked(DeviceImpl& impl, std::vector<std::byte>& out) {
  Saver w(out);
  out.insert(out.end(), reinterpret_cast<const std::byte*>(kMagic), reinterpret_cast<const std::byte*>(kMagic) + 8);
  w.value(kVersionMajor);
  w.value(kVersionMinor);
  w.value(static_cast<std::uint32_t>(kHeaderSize));
  w.value(std::uint64_t{0});  // body size, filled in at the end
  w.value(impl.desc.transform_and_lighting ? kDeviceTnL : 0u);
  w.value(static_cast<std::uint32_t>(sizeof(void*)));

  // The device record: handle counters and the front end's counters.
  std::size_t rec = w.begin_record();
  w.value(static_cast<std::uint64_t>(impl.next_context));
  w.value(static_cast<std::uint32_t>(impl.next_flip_chain));
  diagnostics_fields(impl.diagnostics, [&](const auto& v) { w.value(v); });
  w.end_record(rec);

  std::uint32_t surface_count = 0;
  impl.surfaces.for_each([&](DWORD, const Surface&) { ++surface_count; });
  w.value(surface_count);
  impl.surfaces.for_each([&](DWORD handle, const Surface& s) {
    const std::size_t r = w.begin_record();
    w.value(handle);
    w.value(static_cast<std::uint32_t>(s.desc.kind));
    w.value(static_cast<std::uint32_t>(s.desc.format));
    w.value(s.desc.width);
    w.value(s.desc.height);
    w.value(s.desc.mip_levels);
    w.value(static_cast<std::uint64_t>(s.desc.size_bytes));
    w.value((s.desc.explicit_vertex_buffer ? kSurfaceExplicitVB : 0u) | (s.desc.has_color_key ? kSurfaceColorKey : 0u) |
            (s.flip_in_progress ? kSurfaceFlipInProgress : 0u));
    w.value(s.desc.color_key);
    w.bytes(impl.surfaces.bytes(s));
    w.end_record(r);
  });

  w.value(static_cast<std::uint32_t>(impl.flip_chains.size()));
  for (const auto& [id, chain] : impl.flip_chains) {
    const std::size_t r = w.begin_record();
    w.value(id);
    w.value((chain.in_flip ? kChainInFlip : 0u) | (chain.frame_ready ? kChainFrameReady : 0u));
    w.value(chain.flips);
    w.value(chain.frame.frame);
    w.value(chain.frame.dirty);
    w.vector(chain.surfaces, 4, [&](DWORD h) { w.value(h); });
    w.end_record(r);
  }

  w.value(static_cast<std::uint32_t>(impl.contexts.size()));
  for (const auto& [handle, context] : impl.contexts) {
    const std::size_t r = w.begin_record();
    const ContextDesc& d = context->desc();
    w.value(static_cast<std::uint64_t>(handle));
    w.value(d.interface_version);
    w.value(d.render_target);
    w.value(d.depth_stencil);
    w.value(d.free_threaded ? kContextFreeThreaded : 0u);
    const RenderBuffers none;  // every context has its buffers (create_context); never used
    const auto b = impl.render_buffers.find(handle);
    io_context_body(w, *context, b == impl.render_buffers.end() ? none : b->second);
    w.end_record(r);
  }
  w.value(kEndMarker);
  const std::uint64_t body = out.size() - kHeaderSize;
  std::memcpy(out.data() + 16, &body, sizeof body);
}

// --- restore ---------------------------------------------------------------------------------

struct SurfaceRecord {
  std::size_t offset = 0;
  DWORD handle = 0;
  SurfaceDesc desc;
  bool flip_in_progress = false;
  std::span<const std::byte> data;
};

struct ChainRecord {
  std::size_t offset = 0;
  DWORD id = 0;
  FlipChain chain;
};

struct ContextRecord {
  ULONG_PTR handle = 0;
  std::unique_ptr<Context> context;
  RenderBuffers buffers;
};

struct Parsed {
  ULONG_PTR next_context = 1;
  DWORD next_flip_chain = 1;
  Diagnostics diagnostics;
  std::vector<SurfaceRecord> surfaces;
  std::vector<ChainRecord> chains;
  std::vector<ContextRecord> contexts;
};

// The bytes a surface of this description holds (SurfaceTable::create's rule), or 0.
std::size_t expected_size(const SurfaceDesc& d) {
  switch (d.kind) {
    case SurfaceKind::kVertexBuffer:
    case SurfaceKind::kIndexBuffer:
    case SurfaceKind::kCommandBuffer:
      return d.size_bytes;
    default:
      if (d.width == 0 || d.height == 0 || d.mip_levels == 0 || d.mip_levels > 16) return 0;
      return gpu::chain_size(d.format, d.width, d.height, d.mip_levels).value_or(0);
  }
}

void parse_surface(Cursor c, Parsed& p) {
  SurfaceRecord s;
  s.offset = c.offset();
  s.handle = c.get<std::uint32_t>();
  const auto kind = c.get<std::uint32_t>();
  const auto format = c.get<std::uint32_t>();
  s.desc.width = c.get<std::uint32_t>();
  s.desc.height = c.get<std::uint32_t>();
  s.desc.mip_levels = c.get<std::uint32_t>();
  const auto size_bytes = c.get<std::uint64_t>();
  const auto flags = c.get<std::uint32_t>();
  s.desc.color_key = c.get<std::uint32_t>();
  const std::size_t data_at = c.offset();
  const auto data_size = c.get<std::uint64_t>();
  if (c.ok() && data_size > c.remaining())
    c.fail_at(data_at, "surface " + std::to_string(s.handle) + ": " + std::to_string(data_size) + " bytes announced, " +
                           std::to_string(c.remaining()) + " left");
  if (!c.ok()) return;
  s.data = c.take(static_cast<std::size_t>(data_size));
  if (kind >= kSurfaceKinds || format > 0x7FFFFFFFu || size_bytes > SurfaceTable::kMaxSurfaceBytes)
    return c.fail_at(s.offset, "surface " + std::to_string(s.handle) + ": bad kind, format or size");
  s.desc.kind = static_cast<SurfaceKind>(kind);
  s.desc.format = static_cast<D3DFORMAT>(format);
  s.desc.size_bytes = static_cast<std::size_t>(size_bytes);
  s.desc.explicit_vertex_buffer = (flags & kSurfaceExplicitVB) != 0;
  s.desc.has_color_key = (flags & kSurfaceColorKey) != 0;
  s.flip_in_progress = (flags & kSurfaceFlipInProgress) != 0;
  // Checked before any memory is taken: the description must give exactly the bytes saved.
  const std::size_t expected = expected_size(s.desc);
  if (expected == 0 || expected != s.data.size())
    c.fail_at(s.offset, "surface " + std::to_string(s.handle) + ": " + std::to_string(s.data.size()) +
                            " bytes saved for a surface of " + std::to_string(expected));
  p.surfaces.push_back(s);
}

void parse_chain(Cursor c, Parsed& p) {
  ChainRecord r;
  r.offset = c.offset();
  r.id = c.get<std::uint32_t>();
  const auto flags = c.get<std::uint32_t>();
  r.chain.flips = c.get<std::uint64_t>();
  r.chain.frame.frame = c.get<std::uint64_t>();
  r.chain.frame.dirty = c.get<RECT>();
  Loader(c).vector(r.chain.surfaces, 4, [&](DWORD& h) { h = c.get<std::uint32_t>(); });
  r.chain.in_flip = (flags & kChainInFlip) != 0;
  r.chain.frame_ready = (flags & kChainFrameReady) != 0;
  if (c.ok() && (r.id == 0 || r.id >= p.next_flip_chain || r.chain.surfaces.size() < 2))
    c.fail_at(r.offset, "flip chain " + std::to_string(r.id) + ": bad id or fewer than 2 surfaces");
  p.chains.push_back(std::move(r));
}

void parse_context(Cursor c, Parsed& p) {
  const std::size_t at = c.offset();
  const auto handle = c.get<std::uint64_t>();
  ContextDesc desc;
  desc.interface_version = c.get<std::uint32_t>();
  desc.render_target = c.get<std::uint32_t>();
  desc.depth_stencil = c.get<std::uint32_t>();
  desc.free_threaded = (c.get<std::uint32_t>() & kContextFreeThreaded) != 0;
  if (!c.ok()) return;
  if (handle == 0 || handle >= p.next_context || handle > std::numeric_limits<ULONG_PTR>::max())
    return c.fail_at(at, "context handle " + std::to_string(handle) + " outside [1, next_context)");
  ContextRecord r;
  r.handle = static_cast<ULONG_PTR>(handle);
  r.context = std::make_unique<Context>(desc);
  Loader io(c);
  io_context_body(io, *r.context, r.buffers);
  if (!c.ok()) return;
  const RenderBuffers& b = r.buffers;
  if (b.commands.size() > DeviceImpl::kMaxCommandBufferSize || b.allocations.size() > DeviceImpl::kMaxAllocationListSize ||
      b.patches.size() > DeviceImpl::kMaxPatchListSize)
    return c.fail_at(at, "context " + std::to_string(handle) + ": Render buffers above dp2's limits");
  auto entries_valid = [](const StateSet& set) { return std::all_of(set.begin(), set.end(), valid_state_set_entry); };
  bool sets_valid = entries_valid(r.context->recording);
  for (const auto& [id, set] : r.context->state_sets) sets_valid = sets_valid && entries_valid(set);
  if (!sets_valid) return c.fail_at(at, "context " + std::to_string(handle) + ": a state-set entry is malformed");
  // Derived data (pipeline key, uniforms) is rebuilt from scratch at the next draw.
  r.context->state.mark(state::kDirtyAll);
  p.contexts.push_back(std::move(r));
}

bool parse(std::span<const std::byte> blob, const DeviceImpl& impl, Parsed& p, blob::Error& error) {
  Cursor c(blob, 0, error);
  const auto magic = c.take(8);
  if (c.ok() && std::memcmp(magic.data(), kMagic, 8) != 0) c.fail_at(0, "not a dp2 save state (bad magic)");
  const auto major = c.get<std::uint16_t>();
  const auto minor = c.get<std::uint16_t>();
  if (c.ok() && major != kVersionMajor)
    c.fail_at(8, "unsupported save-state version " + std::to_string(major) + "." + std::to_string(minor) +
                     " (this dp2 reads " + std::to_string(kVersionMajor) + ".x)");
  const auto header_size = c.get<std::uint32_t>();
  const auto body_size = c.get<std::uint64_t>();
  const auto device_flags = c.get<std::uint32_t>();
  c.get<std::uint32_t>();  // pointer size of the saving host (informational)
  if (!c.ok()) return false;
  if (header_size < kHeaderSize || header_size > blob.size())
    return c.fail_at(12, "header size " + std::to_string(header_size)), false;
  if (body_size != blob.size() - header_size)
    return c.fail_at(16, "body of " + std::to_string(body_size) + " bytes, the blob holds " +
                             std::to_string(blob.size() - header_size)),
           false;
  if (((device_flags & kDeviceTnL) != 0) != impl.desc.transform_and_lighting)
    return c.fail_at(24, "saved from a device with transform_and_lighting " +
                             std::string((device_flags & kDeviceTnL) ? "on" : "off") + ", restored into one without"),
           false;

  Cursor body(blob.subspan(header_size), header_size, error);
  {
    Cursor d = body.record();
    const std::size_t at = d.offset();
    const auto next_context = d.get<std::uint64_t>();
    p.next_flip_chain = d.get<std::uint32_t>();
    diagnostics_fields(p.diagnostics, [&](auto& v) { v = d.get<std::remove_reference_t<decltype(v)>>(); });
    if (d.ok() && (next_context == 0 || next_context > std::numeric_limits<ULONG_PTR>::max() || p.next_flip_chain == 0))
      d.fail_at(at, "bad handle counters");
    p.next_context = static_cast<ULONG_PTR>(next_context);
  }
  for (std::uint32_t n = body.count(8), i = 0; i < n && body.ok(); ++i) parse_surface(body.record(), p);
  for (std::uint32_t n = body.count(8), i = 0; i < n && body.ok(); ++i) parse_chain(body.record(), p);
  const std::size_t contexts_at = body.offset();
  const std::uint32_t context_count = body.count(8);
  if (context_count > DeviceImpl::kMaxContexts) body.fail_at(contexts_at, "more contexts than a device has");
  for (std::uint32_t i = 0; i < context_count && body.ok(); ++i) parse_context(body.record(), p);
  const std::size_t end_at = body.offset();
  if (body.get<std::uint32_t>() != kEndMarker && body.ok()) body.fail_at(end_at, "end marker missing");
  if (body.ok() && body.remaining() != 0) body.fail("bytes after the end marker");
  // Handles are unique (surfaces: the table checks at create).
  for (std::size_t i = 1; i < p.contexts.size() && body.ok(); ++i)
    if (p.contexts[i].handle <= p.contexts[i - 1].handle) body.fail_at(contexts_at, "context handles not in order");
  for (std::size_t i = 1; i < p.chains.size() && body.ok(); ++i)
    if (p.chains[i].id <= p.chains[i - 1].id) body.fail_at(p.chains[i].offset, "flip chain ids not in order");
  return body.ok();
}

// Applies a parsed blob to an empty device (table held). On failure the caller undoes it.
HRESULT apply(DeviceImpl& impl, Parsed& p, blob::Error& error) {
  for (const SurfaceRecord& r : p.surfaces) {
    if (const HRESULT hr = impl.surfaces.create(r.handle, r.desc); hr != D3D_OK) {
      error = {true, r.offset, "surface " + std::to_string(r.handle) + ": cannot be created"};
      return hr == E_OUTOFMEMORY ? E_OUTOFMEMORY : E_INVALIDARG;
    }
    Surface& s = *impl.surfaces.find(r.handle);
    const std::span<std::byte> bytes = impl.surfaces.bytes(s);
    if (bytes.size() != r.data.size()) {
      error = {true, r.offset, "surface " + std::to_string(r.handle) + ": size differs from the saved bytes"};
      return E_INVALIDARG;
    }
    std::memcpy(bytes.data(), r.data.data(), bytes.size());
    s.flip_in_progress = r.flip_in_progress;
  }
  for (ChainRecord& r : p.chains) {
    const Surface* front = impl.surfaces.find(r.chain.surfaces[0]);
    for (DWORD handle : r.chain.surfaces) {
      const Surface* s = impl.surfaces.find(handle);
      if (!s || !front || s->flip_chain != 0 || s->desc.kind != SurfaceKind::kRenderTarget ||
          s->desc.format != front->desc.format || s->desc.width != front->desc.width ||
          s->desc.height != front->desc.height) {
        error = {true, r.offset, "flip chain " + std::to_string(r.id) + ": surface " + std::to_string(handle) + " cannot be in it"};
        return E_INVALIDARG;
      }
      impl.surfaces.find(handle)->flip_chain = r.id;
    }
    FrontBuffer& f = r.chain.frame;
    f.chain = r.id;
    f.surface = r.chain.surfaces[0];
    f.data = impl.surfaces.bytes(*front).data();
    f.width = front->desc.width;
    f.height = front->desc.height;
    f.pitch = front->pitch;
    f.format = front->desc.format;
    impl.flip_chains.emplace(r.id, std::move(r.chain));
  }
  for (ContextRecord& r : p.contexts) {
    impl.contexts.emplace(r.handle, std::move(r.context));
    impl.render_buffers.emplace(r.handle, std::move(r.buffers));
  }
  impl.next_context = p.next_context;
  impl.next_flip_chain = p.next_flip_chain;
  impl.diagnostics = p.diagnostics;
  return D3D_OK;
}

}  // namespace
}  // namespace detail

HRESULT Device::save_state(std::vector<std::byte>& out, std::string* error) const {
  out.clear();
  try {
    // Quiesce: the worker idle and nothing submitted since (a Render or Flip on another
    // thread may slip in between wait_idle and the mutex; then wait again).
    for (;;) {
      impl_->gpu.wait_idle();
      std::lock_guard lock(impl_->table);
      if (impl_->gpu.completed() < impl_->gpu.last_submitted()) continue;
      if (std::string why = detail::save_refusal(*impl_); !why.empty()) {
        if (error) *error = why;
        return E_INVALIDARG;
      }
      detail::save_locked(*impl_, out);
      return S_OK;
    }
  } catch (const std::bad_alloc&) {
    out.clear();
    if (error) *error = "out of memory";
    return E_OUTOFMEMORY;
  }
}

HRESULT Device::restore_state(std::span<const std::byte> blob, std::string* error) {
  auto failed = [&](HRESULT hr, const std::string& why) {
    if (error) *error = why;
    return hr;
  };
  impl_->gpu.wait_idle();
  std::lock_guard lock(impl_->table);
  bool empty = impl_->contexts.empty() && impl_->flip_chains.empty();
  impl_->surfaces.for_each([&](DWORD, const detail::Surface&) { empty = false; });
  if (!empty) return failed(E_INVALIDARG, "restore_state needs a fresh device (no surfaces, contexts or flip chains)");
  const ULONG_PTR next_context = impl_->next_context;
  const DWORD next_flip_chain = impl_->next_flip_chain;
  detail::Parsed parsed;
  // Back to the fresh device it was (the counters the only state beside the tables).
  auto undo = [&] {
    for (const detail::SurfaceRecord& r : parsed.surfaces) impl_->surfaces.destroy(r.handle);
    impl_->contexts.clear();
    impl_->render_buffers.clear();
    impl_->flip_chains.clear();
    impl_->next_context = next_context;
    impl_->next_flip_chain = next_flip_chain;
  };
  try {
    const Diagnostics diagnostics = impl_->diagnostics;
    detail::blob::Error e;
    if (!detail::parse(blob, *impl_, parsed, e)) return failed(E_INVALIDARG, e.message());
    if (const HRESULT hr = detail::apply(*impl_, parsed, e); hr != D3D_OK) {
      undo();
      impl_->diagnostics = diagnostics;
      return failed(hr, e.message());
    }
    return S_OK;
  } catch (const std::bad_alloc&) {
    undo();
    return failed(E_OUTOFMEMORY, "out of memory");
  }
}

}  // namespace dp2
