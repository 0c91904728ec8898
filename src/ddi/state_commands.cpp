// State, target, clear and palette commands of D3dDrawPrimitives2 (see dp2_call.h).
#include <algorithm>
#include <cstring>

#include "ddi/dp2_call.h"
#include "ddi/fvf.h"

namespace dp2::ddi {

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
      vertex_state(cmd);
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
      vertex_state(cmd);
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
      vertex_state(cmd);
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
      vertex_state(cmd);
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
      c.state = ctx.commands.snapshot(s, ctx.key, ctx.uniforms, true);
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
    default:
      return resource_command(cmd);
  }
}

}  // namespace dp2::ddi
