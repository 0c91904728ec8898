// D3dDrawPrimitives2, step by step as its page prescribes (after the device's context
// and flip checks): locate the stream, check the FVF, execute each command in order.
// State opcodes update the StateBlock; primitive opcodes go to PrimitiveRecorder; copies
// and clears become records; what the back end cannot honour yet is kept and counted in
// Diagnostics::commands_not_rendered, never dropped silently.
//
// Thread: the DrawPrimitives2 caller's.
#include "ddi/executor.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "ddi/fvf.h"
#include "state/legacy_states.h"

namespace dp2::ddi {
namespace {

// Register files a shader-constant command may write; a register + count beyond this is
// outside any D3D9 shader model (vs_3_0 has 256 float registers; DDI caps allow up to 8192).
constexpr std::uint32_t kMaxShaderConstants = 8192;

class Dp2Call {
 public:
  Dp2Call(D3DHAL_DRAWPRIMITIVES2DATA& data, ExecutorEnv& env) : data_(data), env_(env) {}
  void run();

 private:
  // Fails the call at the command whose header starts at stream offset `at`.
  void fail(HRESULT ddrval, std::size_t at) {
    data_.ddrval = ddrval;
    data_.dwErrorOffset = static_cast<DWORD>(data_.dwCommandOffset + at);
  }
  CommandResult execute(const Command& cmd);
  CommandResult state_command(const Command& cmd);
  CommandResult state_set(const Command& cmd);
  void record_into_state_set(const Command& cmd);
  void set_render_state(DWORD state, DWORD value);
  void not_rendered(const Command& cmd) { ++env_.diagnostics.commands_not_rendered[cmd.op]; }
  bool known_surface(DWORD handle) const { return handle == 0 || env_.surfaces.find(handle) != nullptr; }
  void count_bad_handle(DWORD handle) {
    if (!known_surface(handle)) ++env_.diagnostics.bad_handles;
  }
  template <class T>
  CommandResult store_constants(std::vector<T>& file, DWORD first, DWORD count, std::span<const std::byte> data);
  void handle_swap_flags();

  D3DHAL_DRAWPRIMITIVES2DATA& data_;
  ExecutorEnv& env_;
  DWORD fvf_ = 0;
  std::uint32_t stride_ = 0;
};

void Dp2Call::run() {
  detail::Context& ctx = env_.context;
  data_.dwErrorOffset = 0;

  // The first command is dwCommandOffset bytes into the command buffer; the stream is
  // dwCommandLength bytes from there, and every read stays inside it.
  const detail::Surface* commands = nullptr;
  if (data_.lpDDCommands <= std::numeric_limits<DWORD>::max())
    commands = env_.surfaces.find(static_cast<DWORD>(data_.lpDDCommands));
  const ByteReader whole(commands ? std::span<const std::byte>(commands->bytes) : std::span<const std::byte>{});
  const auto stream = whole.slice(data_.dwCommandOffset, data_.dwCommandLength);
  if (!commands || !stream) {
    // Perm3 answers a missing command buffer with DDERR_INVALIDPARAMS; nothing ran, so
    // the first unhandled command is the first one.
    fail(DDERR_INVALIDPARAMS, 0);
    return;
  }

  // The FVF check (D3dDrawPrimitives2 page). A DX8+ runtime declares vertex formats in the
  // stream (SETVERTEXSHADER) and may leave dwVertexType 0: that is accepted, and a legacy
  // primitive then fails for want of a vertex format (docs/decisions.md, "where a bad FVF
  // fails").
  fvf_ = data_.dwVertexType;
  const std::uint32_t version = ctx.desc().interface_version;
  if (!(fvf_ == 0 && version >= kInterfaceDX8)) {
    if (check_fvf(fvf_, version, env_.device.transform_and_lighting) != FvfProblem::kNone) {
      fail(DDERR_INVALIDPARAMS, 0);
      return;
    }
    stride_ = fvf_stride(fvf_);
    // dwVertexSize (a union with ddrval) restates the stride; 0 means "use the FVF's".
    // A different non-zero size would make driver and runtime disagree on where each
    // vertex starts, so it fails like a bad FVF.
    if (data_.dwVertexSize != 0 && data_.dwVertexSize != stride_) {
      fail(DDERR_INVALIDPARAMS, 0);
      return;
    }
  }

  PrimitiveRecorder primitives(env_, data_, fvf_, stride_, data_.dwVertexSize != 0 ? data_.dwVertexSize : stride_);
  DecodeOptions options;
  options.alignment_base = data_.dwCommandOffset;
  options.imm_vertex_stride = stride_;

  const std::span<const std::byte> bytes = *stream;
  std::size_t at = 0;
  while (at < bytes.size()) {
    const DecodeResult decoded = decode_one(bytes, at, options);
    if (decoded.error == DecodeError::kUnknownOpcode || decoded.error == DecodeError::kNotInStreams) {
      // "If the command is unknown, call the runtime's D3dParseUnknownCommand callback."
      std::size_t consumed = 0;
      const std::span<const std::byte> rest = bytes.subspan(at);
      const HRESULT hr = env_.unknown_command ? env_.unknown_command(rest, consumed) : D3DERR_COMMAND_UNPARSED;
      if (hr != D3D_OK || consumed == 0 || consumed > rest.size()) {
        fail(D3DERR_COMMAND_UNPARSED, at);
        return;
      }
      ++env_.diagnostics.unknown_commands_resumed;
      at += consumed;
      continue;
    }
    if (decoded.error == DecodeError::kNoVertexStride) {
      fail(DDERR_INVALIDPARAMS, at);
      return;
    }
    if (decoded.error != DecodeError::kNone) {
      fail(D3DERR_COMMAND_UNPARSED, at);
      return;
    }
    const Command& cmd = decoded.command;
    const gpu::CommandBuffer::Mark mark = ctx.commands.mark();
    const CommandResult result = is_primitive(cmd.op) ? primitives.record(cmd) : execute(cmd);
    if (result != D3D_OK) {
      ctx.commands.rollback(mark);
      fail(result, at);
      return;
    }
    ++env_.diagnostics.commands[cmd.op];
    at += cmd.size;
  }
  data_.ddrval = D3D_OK;
  handle_swap_flags();
}

void Dp2Call::set_render_state(DWORD state, DWORD value) {
  if (!env_.context.state.set_render_state(state, value)) {
    ++env_.diagnostics.unknown_render_states;
    return;
  }
  state::map_legacy_render_state(env_.context.state, state, value);
  // "When the D3DHALDP2_EXECUTEBUFFER flag is set, the driver should also reflect the state
  // change in the array that lpdwRStates points to" (D3dDrawPrimitives2 page).
  if ((data_.dwFlags & D3DHALDP2_EXECUTEBUFFER) && data_.lpdwRStates) data_.lpdwRStates[state] = value;
}

template <class T>
CommandResult Dp2Call::store_constants(std::vector<T>& file, DWORD first, DWORD count,
                                       std::span<const std::byte> payload) {
  if (first >= kMaxShaderConstants || count > kMaxShaderConstants - first) return D3DERR_COMMAND_UNPARSED;
  if (count == 0) return D3D_OK;
  if (file.size() < first + count) file.resize(first + count);
  std::memcpy(file.data() + first, payload.data(), std::size_t{count} * sizeof(T));
  return D3D_OK;
}

// D3DHALDP2_SWAP*BUFFER: "the driver can swap the buffer ... with a new [one]"; with the
// REQ*BUFSIZE flags the new one must be at least that large (command buffer: larger by
// that much). dp2 copied what it needs during the call, so the old contents are free now;
// the surface keeps its handle and gets fresh storage of the required size.
void Dp2Call::handle_swap_flags() {
  const DWORD flags = data_.dwFlags;
  if ((flags & D3DHALDP2_SWAPCOMMANDBUFFER) && (flags & D3DHALDP2_REQCOMMANDBUFSIZE)) {
    const DWORD handle = static_cast<DWORD>(data_.lpDDCommands);
    if (const detail::Surface* s = env_.surfaces.find(handle))
      env_.surfaces.grow(handle, s->bytes.size() + data_.dwReqCommandBufSize);
  }
  if ((flags & D3DHALDP2_SWAPVERTEXBUFFER) && (flags & D3DHALDP2_REQVERTEXBUFSIZE) &&
      !(flags & D3DHALDP2_USERMEMVERTICES) && data_.lpDDVertex <= std::numeric_limits<DWORD>::max())
    env_.surfaces.grow(static_cast<DWORD>(data_.lpDDVertex), data_.dwReqVertexBufSize);
}

CommandResult Dp2Call::execute(const Command& cmd) {
  detail::Context& ctx = env_.context;
  if (ctx.recording_state_set && cmd.op != D3DDP2OP_STATESET) {
    // Between STATESETBEGIN and END, state commands are recorded into the set, not
    // applied (the DDK sample's bStateRecMode).
    switch (cmd.op) {
      case D3DDP2OP_RENDERSTATE: case D3DDP2OP_TEXTURESTAGESTATE: case D3DDP2OP_VIEWPORTINFO:
      case D3DDP2OP_WINFO: case D3DDP2OP_ZRANGE: case D3DDP2OP_SETMATERIAL: case D3DDP2OP_SETLIGHT:
      case D3DDP2OP_SETTRANSFORM: case D3DDP2OP_SETCLIPPLANE:
        record_into_state_set(cmd);
        return D3D_OK;
      default:
        break;
    }
  }
  if (cmd.op == D3DDP2OP_STATESET) return state_set(cmd);
  return state_command(cmd);
}

CommandResult Dp2Call::state_command(const Command& cmd) {
  detail::Context& ctx = env_.context;
  state::StateBlock& s = ctx.state;
  switch (cmd.op) {
    case D3DDP2OP_RENDERSTATE: {
      const auto recs = cmd.records<D3DHAL_DP2RENDERSTATE>();
      for (std::size_t i = 0; i < recs.size(); ++i)
        set_render_state(recs.dword_at(i, offsetof(D3DHAL_DP2RENDERSTATE, RenderState)), recs[i].dwState);
      return D3D_OK;
    }
    case D3DDP2OP_TEXTURESTAGESTATE: {
      const auto recs = cmd.records<D3DHAL_DP2TEXTURESTAGESTATE>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto r = recs[i];
        // Stages 8–15 are DX9 sampler slots; for an older interface a stage above 7 is
        // out of range and ignored like one past the table.
        const bool stage_ok = r.wStage < state::kTextureStages || ctx.desc().interface_version >= kInterfaceDX9;
        if (!stage_ok || !s.set_texture_stage_state(r.wStage, r.TSState, r.dwValue)) {
          ++env_.diagnostics.bad_texture_stages;
          continue;
        }
        if (r.TSState == D3DTSS_TEXTUREMAP) count_bad_handle(r.dwValue);
      }
      return D3D_OK;
    }
    case D3DDP2OP_VIEWPORTINFO: {
      // The page says one structure follows; the samples parse wStateCount of them. dp2
      // parses n and the last one wins (docs/decisions.md).
      const auto recs = cmd.records<D3DHAL_DP2VIEWPORTINFO>();
      if (!recs.empty()) {
        const auto v = recs[recs.size() - 1];
        s.viewport = {v.dwX, v.dwY, v.dwWidth, v.dwHeight};
        s.mark(state::kDirtyViewport);
      }
      return D3D_OK;
    }
    case D3DDP2OP_WINFO: {
      const auto recs = cmd.records<D3DHAL_DP2WINFO>();
      if (!recs.empty()) {
        s.winfo = recs[recs.size() - 1];
        s.mark(state::kDirtyDepth);
      }
      return D3D_OK;
    }
    case D3DDP2OP_ZRANGE: {
      const auto recs = cmd.records<D3DHAL_DP2ZRANGE>();
      if (!recs.empty()) {
        s.zrange = recs[recs.size() - 1];
        s.mark(state::kDirtyDepth);
      }
      return D3D_OK;
    }
    case D3DDP2OP_SETMATERIAL: {
      const auto recs = cmd.records<D3DHAL_DP2SETMATERIAL>();
      if (!recs.empty()) s.material = recs[recs.size() - 1];
      s.mark(state::kDirtyLighting);
      not_rendered(cmd);
      return D3D_OK;
    }
    case D3DDP2OP_CREATELIGHT: {
      const auto recs = cmd.records<D3DHAL_DP2CREATELIGHT>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        if (recs[i].dwIndex >= state::kMaxLights) return D3DERR_COMMAND_UNPARSED;
        s.lights[recs[i].dwIndex].created = true;
      }
      return D3D_OK;
    }
    case D3DDP2OP_SETLIGHT: {
      CommandResult result = D3D_OK;
      for_each_variable_record(cmd, [&](std::span<const std::byte> rec) {
        const ByteReader r(rec);
        const auto head = *r.read<D3DHAL_DP2SETLIGHT>(0);
        if (head.dwIndex >= state::kMaxLights || head.dwDataType > D3DHAL_SETLIGHT_DATA) {
          result = D3DERR_COMMAND_UNPARSED;
          return;
        }
        state::Light& light = s.lights[head.dwIndex];
        if (head.dwDataType == D3DHAL_SETLIGHT_ENABLE) light.enabled = true;
        if (head.dwDataType == D3DHAL_SETLIGHT_DISABLE) light.enabled = false;
        if (head.dwDataType == D3DHAL_SETLIGHT_DATA) {
          light.data = *r.read<D3DLIGHT7>(sizeof(D3DHAL_DP2SETLIGHT));
          light.has_data = true;
        }
      });
      s.mark(state::kDirtyLighting);
      not_rendered(cmd);
      return result;
    }
    case D3DDP2OP_SETTRANSFORM:
    case D3DDP2OP_MULTIPLYTRANSFORM: {
      // D3DHAL_DP2SETTRANSFORM and D3DHAL_DP2MULTIPLYTRANSFORM share one layout.
      const auto recs = cmd.records<D3DHAL_DP2SETTRANSFORM>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto r = recs[i];
        const DWORD type = recs.dword_at(i, offsetof(D3DHAL_DP2SETTRANSFORM, xfrmType));
        // MultiplyTransform: the new matrix is the given one times the current one.
        s.transforms[type] = cmd.op == D3DDP2OP_SETTRANSFORM ? r.matrix
                                                              : state::multiply(r.matrix, s.transform_or_identity(type));
      }
      s.mark(state::kDirtyTransform);
      not_rendered(cmd);
      return D3D_OK;
    }
    case D3DDP2OP_SETCLIPPLANE: {
      const auto recs = cmd.records<D3DHAL_DP2SETCLIPPLANE>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto r = recs[i];
        if (r.dwIndex >= state::kMaxClipPlanes) return D3DERR_COMMAND_UNPARSED;
        std::memcpy(s.clip_planes[r.dwIndex].data(), r.plane, sizeof r.plane);
      }
      s.mark(state::kDirtyClipping);
      not_rendered(cmd);
      return D3D_OK;
    }
    case D3DDP2OP_SETRENDERTARGET: {
      const auto r = cmd.records<D3DHAL_DP2SETRENDERTARGET>()[0];
      // Perm3 fails an unknown render-target handle with DDERR_GENERIC.
      if (!env_.surfaces.find(r.hRenderTarget) || !known_surface(r.hZBuffer)) return DDERR_GENERIC;
      s.render_target = s.render_targets[0] = r.hRenderTarget;
      s.depth_stencil = r.hZBuffer;
      s.mark(state::kDirtyTargets);
      return D3D_OK;
    }
    case D3DDP2OP_SETRENDERTARGET2: {
      const auto r = cmd.records<D3DHAL_DP2SETRENDERTARGET2>()[0];
      if (r.RTIndex >= s.render_targets.size() || !known_surface(r.hRenderTarget) ||
          (r.RTIndex == 0 && r.hRenderTarget == 0))
        return DDERR_GENERIC;
      s.render_targets[r.RTIndex] = r.hRenderTarget;
      if (r.RTIndex == 0) s.render_target = r.hRenderTarget;
      else not_rendered(cmd);
      s.mark(state::kDirtyTargets);
      return D3D_OK;
    }
    case D3DDP2OP_SETDEPTHSTENCIL: {
      const auto r = cmd.records<D3DHAL_DP2SETDEPTHSTENCIL>()[0];
      if (!known_surface(r.hZBuffer)) return DDERR_GENERIC;
      s.depth_stencil = r.hZBuffer;
      s.mark(state::kDirtyTargets);
      return D3D_OK;
    }
    case D3DDP2OP_CLEAR: {
      const ByteReader r(cmd.payload);
      gpu::ClearRecord c;
      c.flags = *r.read<DWORD>(offsetof(D3DHAL_DP2CLEAR, dwFlags));
      c.color = *r.read<DWORD>(offsetof(D3DHAL_DP2CLEAR, dwFillColor));
      c.depth = *r.read<float>(offsetof(D3DHAL_DP2CLEAR, dvFillDepth));
      c.stencil = *r.read<DWORD>(offsetof(D3DHAL_DP2CLEAR, dwFillStencil));
      c.source_offset = static_cast<std::uint32_t>(data_.dwCommandOffset + cmd.offset);
      // With no rectangles the one RECT in the payload is undefined and not read.
      if (cmd.count > 0 && !ctx.commands.append_bytes(cmd.body, c.rects)) return DDERR_OUTOFMEMORY;
      if (s.dirty()) state::update_derived(s, ctx.key, ctx.uniforms);
      c.state = ctx.commands.snapshot(ctx.key, ctx.uniforms, s.render_target, s.depth_stencil, true);
      ctx.commands.add(c);
      return D3D_OK;
    }
    case D3DDP2OP_SETTEXLOD: {
      const auto recs = cmd.records<D3DHAL_DP2SETTEXLOD>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        count_bad_handle(recs[i].dwDDSurface);
        s.texture_lod[recs[i].dwDDSurface] = recs[i].dwLOD;
      }
      s.mark(state::kDirtySamplers);
      return D3D_OK;
    }
    case D3DDP2OP_SETPRIORITY: {
      const auto recs = cmd.records<D3DHAL_DP2SETPRIORITY>();
      for (std::size_t i = 0; i < recs.size(); ++i) s.priority[recs[i].dwDDSurface] = recs[i].dwPriority;
      return D3D_OK;  // a residency hint: nothing to render
    }
    case D3DDP2OP_SETPALETTE: {
      const auto recs = cmd.records<D3DHAL_DP2SETPALETTE>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto r = recs[i];
        count_bad_handle(r.dwSurfaceHandle);
        if (r.dwPaletteHandle == 0) {
          s.surface_palette.erase(r.dwSurfaceHandle);  // handle 0 detaches
        } else {
          s.surface_palette[r.dwSurfaceHandle] = r.dwPaletteHandle;
          s.palettes[r.dwPaletteHandle].flags = r.dwPaletteFlags;
        }
      }
      s.mark(state::kDirtySamplers);
      return D3D_OK;
    }
    case D3DDP2OP_UPDATEPALETTE: {
      const auto head = *ByteReader(cmd.payload).read<D3DHAL_DP2UPDATEPALETTE>(0);
      // A palette has 256 entries; an update past them is a malformed payload.
      if (std::uint32_t{head.wStartIndex} + head.wNumEntries > 256) return D3DERR_COMMAND_UNPARSED;
      state::Palette& p = s.palettes[head.dwPaletteHandle];
      std::memcpy(p.entries.data() + head.wStartIndex, cmd.body.data(), cmd.body.size());
      s.mark(state::kDirtySamplers);
      return D3D_OK;
    }
    case D3DDP2OP_SETSCISSORRECT: {
      const auto recs = cmd.records<D3DHAL_DP2SETSCISSORRECT>();
      if (!recs.empty()) s.scissor = recs[recs.size() - 1];
      s.mark(state::kDirtyRaster);
      return D3D_OK;
    }
    case D3DDP2OP_SETSTREAMSOURCE: {
      const auto recs = cmd.records<D3DHAL_DP2SETSTREAMSOURCE>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto r = recs[i];
        if (r.dwStream >= state::kMaxStreams) return D3DERR_COMMAND_UNPARSED;
        count_bad_handle(r.dwVBHandle);
        s.streams[r.dwStream] = {r.dwVBHandle ? state::StreamSource::Kind::kSurface : state::StreamSource::Kind::kNone,
                                 r.dwVBHandle, r.dwStride, 0, s.streams[r.dwStream].divider};
      }
      s.mark(state::kDirtyStreams);
      return D3D_OK;
    }
    case D3DDP2OP_SETSTREAMSOURCE2: {
      const auto recs = cmd.records<D3DHAL_DP2SETSTREAMSOURCE2>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto r = recs[i];
        if (r.dwStream >= state::kMaxStreams) return D3DERR_COMMAND_UNPARSED;
        count_bad_handle(r.dwVBHandle);
        s.streams[r.dwStream] = {r.dwVBHandle ? state::StreamSource::Kind::kSurface : state::StreamSource::Kind::kNone,
                                 r.dwVBHandle, r.dwStride, r.dwOffset, s.streams[r.dwStream].divider};
      }
      s.mark(state::kDirtyStreams);
      return D3D_OK;
    }
    case D3DDP2OP_SETSTREAMSOURCEUM: {
      const auto recs = cmd.records<D3DHAL_DP2SETSTREAMSOURCEUM>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto r = recs[i];
        if (r.dwStream >= state::kMaxStreams) return D3DERR_COMMAND_UNPARSED;
        s.streams[r.dwStream] = {state::StreamSource::Kind::kUserMemory, 0, r.dwStride, 0,
                                 s.streams[r.dwStream].divider};
      }
      s.mark(state::kDirtyStreams);
      return D3D_OK;
    }
    case D3DDP2OP_SETSTREAMSOURCEFREQ: {
      const auto recs = cmd.records<D3DHAL_DP2SETSTREAMSOURCEFREQ>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        if (recs[i].dwStream >= state::kMaxStreams) return D3DERR_COMMAND_UNPARSED;
        s.streams[recs[i].dwStream].divider = recs[i].dwDivider;
      }
      s.mark(state::kDirtyStreams);
      not_rendered(cmd);
      return D3D_OK;
    }
    case D3DDP2OP_SETINDICES: {
      const auto recs = cmd.records<D3DHAL_DP2SETINDICES>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto r = recs[i];
        if (r.dwVBHandle != 0 && r.dwStride != 2 && r.dwStride != 4) return D3DERR_COMMAND_UNPARSED;
        count_bad_handle(r.dwVBHandle);
        s.indices = {r.dwVBHandle, r.dwStride};
      }
      s.mark(state::kDirtyStreams);
      return D3D_OK;
    }
    case D3DDP2OP_SETVERTEXSHADER:
    case D3DDP2OP_SETVERTEXSHADERDECL: {
      const auto recs = cmd.records<D3DHAL_DP2VERTEXSHADER>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const DWORD h = recs[i].dwHandle;
        // Bit 0 clear: an FVF code, held to the same rule as dwVertexType.
        if (h != 0 && !(h & D3DFVF_RESERVED0) &&
            check_fvf(h, env_.context.desc().interface_version, env_.device.transform_and_lighting) !=
                FvfProblem::kNone)
          return DDERR_INVALIDPARAMS;
        s.vertex_shader = h;
      }
      s.mark(state::kDirtyStreams);
      return D3D_OK;
    }
    case D3DDP2OP_SETVERTEXSHADERFUNC:
    case D3DDP2OP_SETPIXELSHADER: {
      const auto recs = cmd.records<D3DHAL_DP2VERTEXSHADER>();
      if (!recs.empty()) (cmd.op == D3DDP2OP_SETPIXELSHADER ? s.pixel_shader : s.vertex_shader_func) = recs[recs.size() - 1].dwHandle;
      s.mark(state::kDirtyShaders);
      if (!recs.empty() && recs[recs.size() - 1].dwHandle != 0) not_rendered(cmd);
      return D3D_OK;
    }
    case D3DDP2OP_CREATEVERTEXSHADER:
    case D3DDP2OP_CREATEPIXELSHADER:
    case D3DDP2OP_CREATEVERTEXSHADERFUNC:
    case D3DDP2OP_CREATEVERTEXSHADERDECL: {
      for_each_variable_record(cmd, [&](std::span<const std::byte> rec) {
        const ByteReader r(rec);
        const DWORD handle = *r.read<DWORD>(0);
        state::ShaderObject obj;
        auto tokens = [](std::span<const std::byte> b) {
          std::vector<DWORD> t(b.size() / sizeof(DWORD));
          if (!t.empty()) std::memcpy(t.data(), b.data(), t.size() * sizeof(DWORD));
          return t;
        };
        switch (cmd.op) {
          case D3DDP2OP_CREATEVERTEXSHADER: {
            const DWORD decl = *r.read<DWORD>(offsetof(D3DHAL_DP2CREATEVERTEXSHADER, dwDeclSize));
            obj.declaration = tokens(rec.subspan(sizeof(D3DHAL_DP2CREATEVERTEXSHADER), decl));
            obj.code = tokens(rec.subspan(sizeof(D3DHAL_DP2CREATEVERTEXSHADER) + decl));
            s.vertex_shaders[handle] = std::move(obj);
            break;
          }
          case D3DDP2OP_CREATEPIXELSHADER:
            obj.code = tokens(rec.subspan(sizeof(D3DHAL_DP2CREATEPIXELSHADER)));
            s.pixel_shaders[handle] = std::move(obj);
            break;
          case D3DDP2OP_CREATEVERTEXSHADERFUNC:
            obj.code = tokens(rec.subspan(sizeof(D3DHAL_DP2CREATEVERTEXSHADERFUNC)));
            s.vertex_funcs[handle] = std::move(obj);
            break;
          default: {
            const auto elems = rec.subspan(sizeof(D3DHAL_DP2CREATEVERTEXSHADERDECL));
            obj.elements.resize(elems.size() / sizeof(D3DVERTEXELEMENT9));
            if (!obj.elements.empty()) std::memcpy(obj.elements.data(), elems.data(), elems.size());
            s.vertex_decls[handle] = std::move(obj);
            break;
          }
        }
      });
      not_rendered(cmd);
      return D3D_OK;
    }
    case D3DDP2OP_DELETEVERTEXSHADER:
    case D3DDP2OP_DELETEPIXELSHADER:
    case D3DDP2OP_DELETEVERTEXSHADERDECL:
    case D3DDP2OP_DELETEVERTEXSHADERFUNC: {
      auto& table = cmd.op == D3DDP2OP_DELETEVERTEXSHADER       ? s.vertex_shaders
                    : cmd.op == D3DDP2OP_DELETEPIXELSHADER      ? s.pixel_shaders
                    : cmd.op == D3DDP2OP_DELETEVERTEXSHADERDECL ? s.vertex_decls
                                                                : s.vertex_funcs;
      const auto recs = cmd.records<D3DHAL_DP2VERTEXSHADER>();
      for (std::size_t i = 0; i < recs.size(); ++i) table.erase(recs[i].dwHandle);
      return D3D_OK;
    }
    case D3DDP2OP_SETVERTEXSHADERCONST:
    case D3DDP2OP_SETPIXELSHADERCONST:
    case D3DDP2OP_SETVERTEXSHADERCONSTI:
    case D3DDP2OP_SETPIXELSHADERCONSTI:
    case D3DDP2OP_SETVERTEXSHADERCONSTB:
    case D3DDP2OP_SETPIXELSHADERCONSTB: {
      CommandResult result = D3D_OK;
      for_each_variable_record(cmd, [&](std::span<const std::byte> rec) {
        const auto head = *ByteReader(rec).read<D3DHAL_DP2SETVERTEXSHADERCONST>(0);
        const auto values = rec.subspan(sizeof(D3DHAL_DP2SETVERTEXSHADERCONST));
        CommandResult r = D3D_OK;
        switch (cmd.op) {
          case D3DDP2OP_SETVERTEXSHADERCONST: r = store_constants(s.vs_const_f, head.dwRegister, head.dwCount, values); break;
          case D3DDP2OP_SETPIXELSHADERCONST: r = store_constants(s.ps_const_f, head.dwRegister, head.dwCount, values); break;
          case D3DDP2OP_SETVERTEXSHADERCONSTI: r = store_constants(s.vs_const_i, head.dwRegister, head.dwCount, values); break;
          case D3DDP2OP_SETPIXELSHADERCONSTI: r = store_constants(s.ps_const_i, head.dwRegister, head.dwCount, values); break;
          case D3DDP2OP_SETVERTEXSHADERCONSTB: r = store_constants(s.vs_const_b, head.dwRegister, head.dwCount, values); break;
          default: r = store_constants(s.ps_const_b, head.dwRegister, head.dwCount, values); break;
        }
        if (r != D3D_OK) result = r;
      });
      not_rendered(cmd);
      return result;
    }
    case D3DDP2OP_CREATEQUERY: {
      const auto recs = cmd.records<D3DHAL_DP2CREATEQUERY>();
      for (std::size_t i = 0; i < recs.size(); ++i) s.queries[recs[i].dwQueryID] = {recs.dword_at(i, offsetof(D3DHAL_DP2CREATEQUERY, QueryType)), 0};
      not_rendered(cmd);
      return D3D_OK;
    }
    case D3DDP2OP_DELETEQUERY: {
      const auto recs = cmd.records<D3DHAL_DP2DELETEQUERY>();
      for (std::size_t i = 0; i < recs.size(); ++i) s.queries.erase(recs[i].dwQueryID);
      return D3D_OK;
    }
    case D3DDP2OP_ISSUEQUERY: {
      const auto recs = cmd.records<D3DHAL_DP2ISSUEQUERY>();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const auto it = s.queries.find(recs[i].dwQueryID);
        if (it == s.queries.end()) return D3DERR_COMMAND_UNPARSED;  // a query never created
        it->second.last_issue_flags = recs[i].dwFlags;
      }
      not_rendered(cmd);
      return D3D_OK;
    }
    case D3DDP2OP_TEXBLT:
    case D3DDP2OP_BLT:
    case D3DDP2OP_SURFACEBLT:
    case D3DDP2OP_VOLUMEBLT:
    case D3DDP2OP_BUFFERBLT:
    case D3DDP2OP_COLORFILL:
    case D3DDP2OP_GENERATEMIPSUBLEVELS:
    case D3DDP2OP_COMPOSERECTS: {
      // Kept whole, one record each, for the back end to perform in stream order.
      const std::size_t size = cmd.info->item_size;
      for (std::size_t i = 0; i < cmd.count; ++i) {
        gpu::CopyRecord c;
        c.source_op = cmd.op;
        c.source_offset = static_cast<std::uint32_t>(data_.dwCommandOffset + cmd.offset);
        if (!ctx.commands.append_bytes(cmd.body.subspan(i * size, size), c.payload)) return DDERR_OUTOFMEMORY;
        ctx.commands.add(c);
      }
      not_rendered(cmd);
      return D3D_OK;
    }
    case D3DDP2OP_ADDDIRTYRECT:
    case D3DDP2OP_ADDDIRTYBOX:
      return D3D_OK;  // hints for a driver that caches managed textures: dp2 reads surfaces directly
    case D3DDP2OP_EXT:
    case D3DDP2OP_DRAWRECTPATCH:
    case D3DDP2OP_DRAWTRIPATCH:
    case D3DDP2OP_SETCONVOLUTIONKERNELMONO:
      not_rendered(cmd);
      return D3D_OK;
    default:
      return D3DERR_COMMAND_UNPARSED;
  }
}

void Dp2Call::record_into_state_set(const Command& cmd) {
  // Each record becomes its own one-record command, so CAPTURE can refresh it alone.
  detail::StateSet& set = env_.context.recording;
  if (cmd.info->shape == PayloadShape::kVariable) {
    for_each_variable_record(cmd, [&](std::span<const std::byte> rec) {
      set.push_back({cmd.op, std::vector<std::byte>(rec.begin(), rec.end())});
    });
    return;
  }
  const std::size_t size = cmd.info->item_size;
  for (std::size_t i = 0; i < cmd.count; ++i) {
    const auto rec = cmd.body.subspan(i * size, size);
    set.push_back({cmd.op, std::vector<std::byte>(rec.begin(), rec.end())});
  }
}

CommandResult Dp2Call::state_set(const Command& cmd) {
  detail::Context& ctx = env_.context;
  const auto recs = cmd.records<D3DHAL_DP2STATESET>();
  for (std::size_t i = 0; i < recs.size(); ++i) {
    const auto r = recs[i];
    switch (r.dwOperation) {
      case D3DHAL_STATESETBEGIN:
        ctx.recording_state_set = true;
        ctx.recording_handle = r.dwParam;
        ctx.recording.clear();
        break;
      case D3DHAL_STATESETEND:
        if (!ctx.recording_state_set) return D3DERR_COMMAND_UNPARSED;
        ctx.state_sets[ctx.recording_handle] = std::move(ctx.recording);
        ctx.recording = {};
        ctx.recording_state_set = false;
        break;
      case D3DHAL_STATESETDELETE:
        ctx.state_sets.erase(r.dwParam);
        break;
      case D3DHAL_STATESETEXECUTE: {
        const auto it = ctx.state_sets.find(r.dwParam);
        if (it == ctx.state_sets.end()) return D3DERR_COMMAND_UNPARSED;
        for (const detail::StateSetEntry& e : it->second) {
          Command one;
          one.op = e.op;
          one.count = 1;
          one.info = find_opcode(e.op);
          one.payload = one.body = e.payload;
          if (CommandResult res = state_command(one); res != D3D_OK) return res;
        }
        break;
      }
      case D3DHAL_STATESETCAPTURE: {
        // Refresh each recorded value from the current state (render and stage states,
        // viewport, W and Z ranges, material, transforms, clip planes).
        const auto it = ctx.state_sets.find(r.dwParam);
        if (it == ctx.state_sets.end()) return D3DERR_COMMAND_UNPARSED;
        const state::StateBlock& s = ctx.state;
        for (detail::StateSetEntry& e : it->second) {
          std::byte* p = e.payload.data();
          auto put = [&](const auto& value, std::size_t at = 0) { std::memcpy(p + at, &value, sizeof value); };
          switch (e.op) {
            case D3DDP2OP_RENDERSTATE: {
              DWORD state;
              std::memcpy(&state, p, sizeof state);
              put(s.render_state(state), offsetof(D3DHAL_DP2RENDERSTATE, dwState));
              break;
            }
            case D3DDP2OP_TEXTURESTAGESTATE: {
              D3DHAL_DP2TEXTURESTAGESTATE t;
              std::memcpy(&t, p, sizeof t);
              t.dwValue = s.texture_stage_state(t.wStage, t.TSState);
              put(t);
              break;
            }
            case D3DDP2OP_VIEWPORTINFO:
              put(D3DHAL_DP2VIEWPORTINFO{s.viewport.x, s.viewport.y, s.viewport.width, s.viewport.height});
              break;
            case D3DDP2OP_WINFO: put(s.winfo); break;
            case D3DDP2OP_ZRANGE: put(s.zrange); break;
            case D3DDP2OP_SETMATERIAL: put(s.material); break;
            case D3DDP2OP_SETTRANSFORM: {
              DWORD type;
              std::memcpy(&type, p, sizeof type);
              put(s.transform_or_identity(type), offsetof(D3DHAL_DP2SETTRANSFORM, matrix));
              break;
            }
            case D3DDP2OP_SETCLIPPLANE: {
              DWORD index;
              std::memcpy(&index, p, sizeof index);
              if (index < state::kMaxClipPlanes) put(s.clip_planes[index], offsetof(D3DHAL_DP2SETCLIPPLANE, plane));
              break;
            }
            default:
              break;  // lights keep their recorded data
          }
        }
        break;
      }
      case D3DHAL_STATESETCREATE:
        // DX8 pure devices: create a set of a predefined type (sbType). dp2 keeps an
        // empty set under the handle; capturing predefined groups is not done yet.
        ctx.state_sets[r.dwParam] = {};
        not_rendered(cmd);
        break;
      default:
        return D3DERR_COMMAND_UNPARSED;
    }
  }
  return D3D_OK;
}

}  // namespace

bool is_primitive(std::uint8_t op) noexcept {
  switch (op) {
    case D3DDP2OP_POINTS: case D3DDP2OP_INDEXEDLINELIST: case D3DDP2OP_INDEXEDTRIANGLELIST:
    case D3DDP2OP_LINELIST: case D3DDP2OP_LINESTRIP: case D3DDP2OP_INDEXEDLINESTRIP:
    case D3DDP2OP_TRIANGLELIST: case D3DDP2OP_TRIANGLESTRIP: case D3DDP2OP_INDEXEDTRIANGLESTRIP:
    case D3DDP2OP_TRIANGLEFAN: case D3DDP2OP_INDEXEDTRIANGLEFAN: case D3DDP2OP_TRIANGLEFAN_IMM:
    case D3DDP2OP_LINELIST_IMM: case D3DDP2OP_INDEXEDTRIANGLELIST2: case D3DDP2OP_INDEXEDLINELIST2:
    case D3DDP2OP_DRAWPRIMITIVE: case D3DDP2OP_DRAWINDEXEDPRIMITIVE: case D3DDP2OP_CLIPPEDTRIANGLEFAN:
    case D3DDP2OP_DRAWPRIMITIVE2: case D3DDP2OP_DRAWINDEXEDPRIMITIVE2:
      return true;
    default:
      return false;
  }
}

void execute_draw_primitives2(D3DHAL_DRAWPRIMITIVES2DATA& data, ExecutorEnv& env) {
  Dp2Call call(data, env);
  call.run();
}

}  // namespace dp2::ddi
