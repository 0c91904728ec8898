// Stream, index, shader, constant, query and copy commands of D3dDrawPrimitives2
// (see dp2_call.h).
#include <algorithm>
#include <cstring>

#include "ddi/dp2_call.h"
#include "ddi/fvf.h"

namespace dp2::ddi {

template <class T>
CommandResult Dp2Call::store_constants(std::vector<T>& file, DWORD first, DWORD count,
                                       std::span<const std::byte> payload) {
  if (first >= kMaxShaderConstants || count > kMaxShaderConstants - first) return D3DERR_COMMAND_UNPARSED;
  if (count == 0) return D3D_OK;
  if (file.size() < first + count) file.resize(first + count);
  std::memcpy(file.data() + first, payload.data(), std::size_t{count} * sizeof(T));
  return D3D_OK;
}

CommandResult Dp2Call::resource_command(const Command& cmd) {
  detail::Context& ctx = env_.context;
  state::StateBlock& s = ctx.state;
  switch (cmd.op) {
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


}  // namespace dp2::ddi
