// The demo scene of `make demo`, shared with the test that probes its frames
// (tests/unit/test_demo_scene.cpp): a 640×480 frame of a few hundred textured, fogged,
// alpha-blended, depth-tested triangles, built the way a runtime would build them.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "dp2/device.h"
#include "dp2/stream_writer.h"

namespace demo {

inline constexpr DWORD kTarget = 1, kDepth = 2, kTexture = 3, kCommands = 0x7C00, kVertices = 0x7C01;
inline constexpr std::uint32_t kWidth = 640, kHeight = 480, kTextureSize = 64, kTextureLevels = 7;
inline constexpr DWORD kFvf = D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_SPECULAR | D3DFVF_TEX1;
inline constexpr DWORD kClearColor = 0xFF3060A0;  // the sky
inline constexpr DWORD kFogColor = 0xFF8090A0;
inline constexpr DWORD kMarkerColor = 0xFFFF0000;   // opaque, untextured, unfogged
inline constexpr DWORD kOverlayColor = 0x800000FF;  // blue at alpha 128/255 over the marker
// Probe rectangles (pixels): the marker square, and the part of it the overlay covers.
inline constexpr int kMarkerLeft = 580, kMarkerTop = 20, kMarkerSize = 40;
inline constexpr int kOverlayLeft = 600;

// A checkerboard texture with a full mip chain (each level the box-filtered previous one).
inline void upload_texture(dp2::Device& device) {
  std::span<std::byte> bytes = device.surface_bytes(kTexture);
  std::size_t at = 0;
  for (std::uint32_t level = 0, size = kTextureSize; level < kTextureLevels; ++level, size /= 2) {
    for (std::uint32_t y = 0; y < size; ++y)
      for (std::uint32_t x = 0; x < size; ++x) {
        // Level 0: 8×8-texel checks of white and orange; smaller levels average them.
        const std::uint32_t check = kTextureSize / 8 >> level;
        const bool white = check == 0 ? false : ((x / check) + (y / check)) % 2 == 0;
        const std::uint32_t texel = check == 0 ? 0xFFFFC080u : white ? 0xFFFFFFFFu : 0xFFFF8000u;
        std::memcpy(bytes.data() + at, &texel, 4);
        at += 4;
      }
  }
}

inline bool create(dp2::Device& device, ULONG_PTR& context) {
  dp2::SurfaceDesc rt{dp2::SurfaceKind::kRenderTarget, D3DFMT_X8R8G8B8, kWidth, kHeight};
  dp2::SurfaceDesc z{dp2::SurfaceKind::kDepthStencil, D3DFMT_D24S8, kWidth, kHeight};
  dp2::SurfaceDesc tex{dp2::SurfaceKind::kTexture, D3DFMT_A8R8G8B8, kTextureSize, kTextureSize, kTextureLevels};
  if (device.create_surface(kTarget, rt) != D3D_OK || device.create_surface(kDepth, z) != D3D_OK ||
      device.create_surface(kTexture, tex) != D3D_OK)
    return false;
  upload_texture(device);
  return device.create_context({.interface_version = 3, .render_target = kTarget, .depth_stencil = kDepth}, context) ==
         D3D_OK;
}

// Frame `frame`'s stream and vertices.
struct Frame {
  dp2::StreamWriter stream;
  dp2::VertexWriter vertices{kFvf};
};

inline void build(Frame& f, int frame) {
  dp2::StreamWriter& w = f.stream;
  dp2::VertexWriter& v = f.vertices;
  const float t = static_cast<float>(frame) * 0.15f;

  w.viewport(0, 0, kWidth, kHeight)
      .zrange(0.0f, 1.0f)
      .clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kClearColor, 1.0f, 0, {})
      .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
      .render_state(D3DRS_ZFUNC, D3DCMP_LESSEQUAL)
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .render_state(D3DRS_FOGENABLE, TRUE)
      .render_state(D3DRS_FOGTABLEMODE, D3DFOG_LINEAR)
      .render_state(D3DRS_FOGCOLOR, kFogColor)
      .render_state_f(D3DRS_FOGSTART, 0.6f)
      .render_state_f(D3DRS_FOGEND, 1.0f)
      .texture_stage_state(0, D3DTSS_TEXTUREMAP, kTexture)
      .texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_MODULATE)
      .texture_stage_state(0, D3DTSS_ALPHAOP, D3DTOP_MODULATE)
      .texture_stage_state(0, D3DTSS_MAGFILTER, D3DTFG_LINEAR)
      .texture_stage_state(0, D3DTSS_MINFILTER, D3DTFN_LINEAR)
      .texture_stage_state(0, D3DTSS_MIPFILTER, D3DTFP_LINEAR);

  // The floor: a perspective grid of 16×8 textured quads receding to a horizon at y = 200.
  const WORD floor_start = static_cast<WORD>(v.vertex_count());
  constexpr int kCols = 16, kRows = 8;
  for (int r = 0; r <= kRows; ++r) {
    const float depth = 1.0f + 15.0f * static_cast<float>(kRows - r) / kRows;  // eye distance
    const float rhw = 1.0f / depth, y = 200.0f + 280.0f / depth;
    for (int c = 0; c <= kCols; ++c) {
      const float wx = (static_cast<float>(c) / kCols - 0.5f) * 40.0f;
      v.tl(320.0f + 320.0f * wx / depth, y, 1.0f - 1.0f / depth, rhw, 0xFFFFFFFFu, 0, wx * 0.5f + t, depth * 0.5f);
    }
  }
  std::vector<WORD> floor;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      const WORD a = static_cast<WORD>(r * (kCols + 1) + c), b = static_cast<WORD>(a + 1),
                 d = static_cast<WORD>(a + kCols + 1), e = static_cast<WORD>(d + 1);
      floor.insert(floor.end(), {a, b, e, a, e, d});
    }
  w.indexed_triangle_list2(floor_start, floor);

  // Confetti: 300 small textured triangles, alpha-blended, at depths 0.2–0.9.
  w.render_state(D3DRS_ALPHABLENDENABLE, TRUE)
      .render_state(D3DRS_SRCBLEND, D3DBLEND_SRCALPHA)
      .render_state(D3DRS_DESTBLEND, D3DBLEND_INVSRCALPHA);
  const WORD confetti_start = static_cast<WORD>(v.vertex_count());
  constexpr int kConfetti = 300;
  std::uint32_t seed = 12345;
  auto rnd = [&seed] {  // a fixed LCG: the same scene on every machine
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) / 16777216.0f;
  };
  for (int i = 0; i < kConfetti; ++i) {
    const float cx = 40 + rnd() * 500, cy = 40 + rnd() * 380, z = 0.2f + rnd() * 0.7f;
    const float angle = rnd() * 6.2832f + t * (1.0f + rnd()), size = 10 + rnd() * 18;
    const DWORD color = 0x90000000u | (static_cast<DWORD>(rnd() * 0xFFFFFF) & 0xFFFFFFu);
    for (int k = 0; k < 3; ++k) {
      const float a = angle + static_cast<float>(k) * 2.0944f;
      v.tl(cx + size * std::cos(a), cy + size * std::sin(a), z, 1.0f, color, 0, 0.5f + 0.5f * std::cos(a),
           0.5f + 0.5f * std::sin(a));
    }
  }
  w.triangle_list(confetti_start, kConfetti);

  // Probe markers: an opaque red square, then a half-transparent blue one over its right
  // half, both in front of everything, untextured and unfogged.
  w.render_state(D3DRS_FOGENABLE, FALSE)
      .render_state(D3DRS_ALPHABLENDENABLE, FALSE)
      .texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_SELECTARG2)
      .texture_stage_state(0, D3DTSS_ALPHAOP, D3DTOP_SELECTARG2);
  auto square = [&](float left, float top, float right, float bottom, DWORD color) {
    const WORD start = static_cast<WORD>(v.vertex_count());
    v.tl(left, top, 0.05f, 1, color).tl(right, top, 0.05f, 1, color).tl(right, bottom, 0.05f, 1, color)
        .tl(left, bottom, 0.05f, 1, color);
    w.triangle_fan(start, 2);
  };
  square(kMarkerLeft, kMarkerTop, kMarkerLeft + kMarkerSize, kMarkerTop + kMarkerSize, kMarkerColor);
  w.render_state(D3DRS_ALPHABLENDENABLE, TRUE).render_state(D3DRS_ZFUNC, D3DCMP_ALWAYS);
  square(kOverlayLeft, kMarkerTop, kMarkerLeft + kMarkerSize, kMarkerTop + kMarkerSize, kOverlayColor);
}

// Renders one frame through one DrawPrimitives2 call; returns ddrval.
inline HRESULT render(dp2::Device& device, ULONG_PTR context, int frame) {
  Frame f;
  build(f, frame);
  dp2::Dp2CallDesc desc;
  desc.vertex_type = kFvf;
  desc.command_surface = kCommands;
  desc.vertex_surface = kVertices;
  device.destroy_surface(kCommands);
  device.destroy_surface(kVertices);
  dp2::Dp2Call call(f.stream, f.vertices.bytes(), desc);
  if (HRESULT hr = call.upload(device, context); hr != D3D_OK) return hr;
  call.run(device);
  return call.data.ddrval;
}

}  // namespace demo
