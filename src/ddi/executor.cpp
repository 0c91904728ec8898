// D3dDrawPrimitives2, step by step as its page prescribes (after the device's context
// and flip checks): locate the stream, check the FVF, execute each command in order.
// State opcodes update the StateBlock; primitive opcodes go to PrimitiveRecorder; copies
// and clears become records; what the back end cannot honour yet is kept and counted in
// Diagnostics::commands_not_rendered, never dropped silently.
//
// Thread: the DrawPrimitives2 caller's.
#include "ddi/executor.h"
#include "ddi/dp2_call.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "ddi/fvf.h"
#include "state/legacy_states.h"

namespace dp2::ddi {

void Dp2Call::run() {
  detail::Context& ctx = env_.context;
  data_.dwErrorOffset = 0;

  // The first command is dwCommandOffset bytes into the command buffer; the stream is
  // dwCommandLength bytes from there, and every read stays inside it.
  const detail::Surface* commands = nullptr;
  if (data_.lpDDCommands <= std::numeric_limits<DWORD>::max())
    commands = env_.surfaces.find(static_cast<DWORD>(data_.lpDDCommands));
  const ByteReader whole(commands ? std::span<const std::byte>(env_.surfaces.bytes(*commands)) : std::span<const std::byte>{});
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

// D3DHALDP2_SWAP*BUFFER: "the driver can swap the buffer ... with a new [one]"; with the
// REQ*BUFSIZE flags the new one must be at least that large (command buffer: larger by
// that much). The surface keeps its handle and gets fresh storage of the required size.
// Called after the call's records were submitted: a draw that left its vertices in the
// vertex buffer reads the old storage, freed once the GPU is done with it. So the vertex
// buffer is swapped whenever queued draws still read it, even without a larger size
// asked for: "If the driver renames the buffer, then the driver does not stall", and the
// caller's next Lock does not wait for them.
void swap_buffers(const D3DHAL_DRAWPRIMITIVES2DATA& data, detail::SurfaceTable& surfaces) {
  const DWORD flags = data.dwFlags;
  if ((flags & D3DHALDP2_SWAPCOMMANDBUFFER) && (flags & D3DHALDP2_REQCOMMANDBUFSIZE)) {
    const DWORD handle = static_cast<DWORD>(data.lpDDCommands);
    if (const detail::Surface* s = surfaces.find(handle)) surfaces.grow(handle, s->desc.size_bytes + data.dwReqCommandBufSize);
  }
  if ((flags & D3DHALDP2_SWAPVERTEXBUFFER) && !(flags & D3DHALDP2_USERMEMVERTICES) &&
      data.lpDDVertex <= std::numeric_limits<DWORD>::max()) {
    const std::size_t asked = (flags & D3DHALDP2_REQVERTEXBUFSIZE) ? data.dwReqVertexBufSize : 0;
    surfaces.grow(static_cast<DWORD>(data.lpDDVertex), asked, true);
  }
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
