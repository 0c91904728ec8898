// dp2demo — the first program to read: build a D3D DrawPrimitives2 command stream the
// way a runtime would (dp2::StreamWriter), list it (dp2::disassemble), and hand it to a
// dp2::Device as one D3dDrawPrimitives2 call (dp2::Dp2Call).
//
// The stream mixes the legacy DX6/DX7 primitive tokens (vertex-buffer and inline _IMM
// forms) with a DX8 stream draw, as a DX8/9 driver receives both.
#include <cstdio>
#include <iostream>
#include <vector>

#include "dp2/device.h"
#include "dp2/disasm.h"
#include "dp2/stream_writer.h"

namespace {

constexpr DWORD kRenderTarget = 1;
constexpr DWORD kFvf = D3DFVF_TLVERTEX;  // x, y, z, rhw, diffuse, specular, tu, tv

}  // namespace

int main() {
  // --- vertices: pre-transformed (screen-space) TL vertices in a vertex buffer ---------
  dp2::VertexWriter vb(kFvf);
  vb.tl(100, 100, 0.5f, 1, 0xFFFF0000u)  // 0..2: a red/green/blue triangle
      .tl(300, 100, 0.5f, 1, 0xFF00FF00u)
      .tl(200, 300, 0.5f, 1, 0xFF0000FFu)
      .tl(400, 100, 0.5f, 1, 0xFFFFFF00u)  // 3..6: a quad for the indexed list
      .tl(600, 100, 0.5f, 1, 0xFFFFFF00u)
      .tl(600, 300, 0.5f, 1, 0xFF00FFFFu)
      .tl(400, 300, 0.5f, 1, 0xFF00FFFFu);

  // Inline vertices for TRIANGLEFAN_IMM: a fan of 2 triangles (4 vertices).
  dp2::VertexWriter fan(kFvf);
  fan.tl(100, 350, 0.25f, 1, 0xFFFFFFFFu)
      .tl(200, 350, 0.25f, 1, 0xFFFF00FFu)
      .tl(200, 450, 0.25f, 1, 0xFFFF00FFu)
      .tl(100, 450, 0.25f, 1, 0xFFFFFFFFu);

  // --- the command stream -------------------------------------------------------------
  dp2::Dp2CallDesc desc;  // command surface 0x7C00, vertex surface 0x7C01
  desc.vertex_type = kFvf;

  const WORD quad[] = {0, 1, 2, 0, 2, 3};  // biased by wVStart = 3
  const RECT whole[] = {{0, 0, 640, 480}};
  dp2::StreamWriter w;
  w.render_state(D3DRS_ZENABLE, D3DZB_FALSE)  // consecutive states merge into one command
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .render_state(D3DRS_SHADEMODE, D3DSHADE_GOURAUD)
      .render_state(D3DRS_ALPHABLENDENABLE, FALSE)
      .render_state_f(D3DRS_FOGSTART, 0.25f)
      .texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_SELECTARG1)
      .texture_stage_state(0, D3DTSS_COLORARG1, D3DTA_DIFFUSE)
      .viewport(0, 0, 640, 480)
      .winfo(0.0f, 1.0f)
      .clear(D3DCLEAR_TARGET, 0xFF202040u, 1.0f, 0, whole)
      .triangle_list(0, 1)
      .indexed_triangle_list2(3, quad)
      .line_strip(0, 2)
      .triangle_fan_imm(0x0F, fan.bytes(), fan.stride())
      // DX8 form: declare the FVF, bind the vertex buffer as stream 0, draw.
      .set_vertex_shader(kFvf)
      .set_stream_source(0, desc.vertex_surface, vb.stride())
      .draw_primitive(D3DPT_TRIANGLELIST, 0, 1);

  dp2::DisasmOptions listing;
  listing.fvf = kFvf;
  std::cout << "dp2demo: " << w.command_count() << " commands, " << w.size() << " bytes, " << vb.vertex_count()
            << " vertices\n\n"
            << dp2::disassemble(w.bytes(), listing) << "\n";

  // --- a device, a render target, a context, one DrawPrimitives2 call -----------------
  dp2::Device device;
  dp2::SurfaceDesc rt;
  rt.kind = dp2::SurfaceKind::kRenderTarget;
  rt.format = D3DFMT_X8R8G8B8;
  rt.width = 640;
  rt.height = 480;
  ULONG_PTR context = 0;
  dp2::ContextDesc ctx;
  ctx.interface_version = 5;  // a DX9 runtime: legacy tokens and DX8 stream tokens
  ctx.render_target = kRenderTarget;
  if (device.create_surface(kRenderTarget, rt) != D3D_OK || device.create_context(ctx, context) != D3D_OK) {
    std::cerr << "dp2demo: could not create the render target or the context\n";
    return 1;
  }
  dp2::Dp2Call call(w, vb.bytes(), desc);
  if (HRESULT hr = call.upload(device, context); hr != D3D_OK) {
    std::cerr << "dp2demo: could not create the command / vertex surfaces\n";
    return 1;
  }
  const DWORD handled = call.run(device);
  const HRESULT ddrval = call.data.ddrval;
  char code[16];
  std::snprintf(code, sizeof code, "0x%08x", static_cast<unsigned>(ddrval));
  const std::string_view name = dp2::hresult_name(ddrval);
  std::cout << "DrawPrimitives2: " << (handled == DDHAL_DRIVER_HANDLED ? "DDHAL_DRIVER_HANDLED" : "not handled")
            << ", ddrval " << code << " (" << (name.empty() ? "?" : name) << "), dwErrorOffset "
            << call.data.dwErrorOffset << "\n";
  for (const std::string& line : device.diagnostics().not_rendered()) std::cout << "  not rendered yet: " << line << "\n";
  return handled == DDHAL_DRIVER_HANDLED && ddrval == D3D_OK ? 0 : 1;
}
