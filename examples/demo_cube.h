// A rotating, lit, textured cube for `make demo` (issue 4): untransformed vertices
// (D3DFVF_XYZ | NORMAL | TEX1) sent the way a DX7 runtime talks to a hardware-TnL driver —
// SETTRANSFORM for world / view / projection, SETMATERIAL, CREATELIGHT + SETLIGHT for one
// directional light, the lighting render states — and drawn by dp2's own transform,
// lighting and clipping. Needs a device created with DeviceDesc::transform_and_lighting.
//
//   dp2::Device device({.transform_and_lighting = true});
//   ULONG_PTR context = 0;
//   demo_cube::create(device, context);
//   demo_cube::render(device, context, frame);   // then write_png(demo_cube::kTarget, ...)
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "dp2/device.h"
#include "dp2/stream_writer.h"

namespace demo_cube {

inline constexpr DWORD kTarget = 0x4101, kDepth = 0x4102, kTexture = 0x4103, kCommands = 0x4C00, kVertices = 0x4C01;
inline constexpr std::uint32_t kWidth = 320, kHeight = 240, kTextureSize = 32;
inline constexpr DWORD kFvf = D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1;
inline constexpr DWORD kClearColor = 0xFF202830;
inline constexpr float kPi = 3.14159265f;
inline constexpr float kRadiansPerFrame = 0.05f;  // about 3° a frame
inline constexpr float kCameraDistance = 4.0f;

inline D3DMATRIX identity() {
  D3DMATRIX m{};
  m._11 = m._22 = m._33 = m._44 = 1.0f;
  return m;
}

// Rotation about y by a, then about x by b (row vectors: v · Ry · Rx).
inline D3DMATRIX rotation(float a, float b) {
  const float ca = std::cos(a), sa = std::sin(a), cb = std::cos(b), sb = std::sin(b);
  D3DMATRIX m = identity();
  // Ry = [ca 0 −sa; 0 1 0; sa 0 ca], Rx = [1 0 0; 0 cb sb; 0 −sb cb]; Ry · Rx:
  m._11 = ca, m._12 = sa * sb, m._13 = -sa * cb;
  m._21 = 0, m._22 = cb, m._23 = sb;
  m._31 = sa, m._32 = -ca * sb, m._33 = ca * cb;
  return m;
}

// D3DXMatrixPerspectiveFovLH.
inline D3DMATRIX perspective(float fov, float aspect, float zn, float zf) {
  D3DMATRIX m{};
  const float ys = 1.0f / std::tan(fov * 0.5f);
  m._11 = ys / aspect;
  m._22 = ys;
  m._33 = zf / (zf - zn);
  m._34 = 1.0f;
  m._43 = -zn * zf / (zf - zn);
  return m;
}

// A 4×4 checker of white and teal.
inline void upload_texture(dp2::Device& device) {
  std::span<std::byte> bytes = device.surface_bytes(kTexture);
  for (std::uint32_t y = 0; y < kTextureSize; ++y)
    for (std::uint32_t x = 0; x < kTextureSize; ++x) {
      const bool white = ((x / 8) + (y / 8)) % 2 == 0;
      const std::uint32_t texel = white ? 0xFFFFFFFFu : 0xFF30A0A0u;
      std::memcpy(bytes.data() + 4 * (std::size_t{y} * kTextureSize + x), &texel, 4);
    }
}

inline bool create(dp2::Device& device, ULONG_PTR& context) {
  dp2::SurfaceDesc rt{dp2::SurfaceKind::kRenderTarget, D3DFMT_X8R8G8B8, kWidth, kHeight};
  dp2::SurfaceDesc z{dp2::SurfaceKind::kDepthStencil, D3DFMT_D24S8, kWidth, kHeight};
  dp2::SurfaceDesc tex{dp2::SurfaceKind::kTexture, D3DFMT_A8R8G8B8, kTextureSize, kTextureSize, 1};
  if (device.create_surface(kTarget, rt) != D3D_OK || device.create_surface(kDepth, z) != D3D_OK ||
      device.create_surface(kTexture, tex) != D3D_OK)
    return false;
  upload_texture(device);
  return device.create_context({.interface_version = 3, .render_target = kTarget, .depth_stencil = kDepth}, context) ==
         D3D_OK;
}

// The cube's 24 vertices (4 per face, each face its own normal) and 12 triangles.
inline void cube(dp2::VertexWriter& v, std::vector<WORD>& indices) {
  const float n[6][3] = {{0, 0, -1}, {0, 0, 1}, {-1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
  for (int f = 0; f < 6; ++f) {
    const float nx = n[f][0], ny = n[f][1], nz = n[f][2];
    // Two axes spanning the face (v = n × u). Culling is off and the depth test hides
    // the back faces, so the winding does not matter.
    const float ux = ny != 0 ? 1.0f : -nz, uy = 0, uz = ny != 0 ? 0.0f : nx;
    const float vx = ny * uz - nz * uy, vy = nz * ux - nx * uz, vz = nx * uy - ny * ux;
    const WORD base = static_cast<WORD>(v.vertex_count());
    const float corners[4][2] = {{-1, 1}, {1, 1}, {1, -1}, {-1, -1}};
    for (const auto& c : corners) {
      v.f(nx + c[0] * ux + c[1] * vx).f(ny + c[0] * uy + c[1] * vy).f(nz + c[0] * uz + c[1] * vz);
      v.f(nx).f(ny).f(nz);
      v.f((c[0] + 1) * 0.5f).f((1 - c[1]) * 0.5f);
      v.end_vertex();
    }
    indices.insert(indices.end(), {base, static_cast<WORD>(base + 1), static_cast<WORD>(base + 2), base,
                                   static_cast<WORD>(base + 2), static_cast<WORD>(base + 3)});
  }
}

inline void build(dp2::StreamWriter& w, dp2::VertexWriter& v, int frame) {
  const float t = static_cast<float>(frame) * kRadiansPerFrame;
  D3DMATERIAL7 material{};
  material.diffuse = {1.0f, 1.0f, 1.0f, 1.0f};
  material.ambient = {1.0f, 1.0f, 1.0f, 1.0f};
  material.specular = {0.6f, 0.6f, 0.6f, 1.0f};
  material.power = 20.0f;
  D3DLIGHT7 light{};
  light.dltType = D3DLIGHT_DIRECTIONAL;
  light.dcvDiffuse = {1.0f, 0.95f, 0.85f, 1.0f};
  light.dcvSpecular = {1.0f, 1.0f, 1.0f, 1.0f};
  light.dvDirection = {-0.4f, -0.6f, 0.7f};  // from upper left, into the screen
  D3DMATRIX view = identity();
  view._43 = kCameraDistance;  // the camera kCameraDistance units in front of the cube

  w.viewport(0, 0, kWidth, kHeight)
      .zrange(0.0f, 1.0f)
      .clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kClearColor, 1.0f, 0, {})
      .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .render_state(D3DRS_LIGHTING, TRUE)
      .render_state(D3DRS_SPECULARENABLE, TRUE)
      .render_state(D3DRS_AMBIENT, 0xFF303030)
      .set_transform(D3DTRANSFORMSTATE_WORLD_DX7, rotation(t, t * 0.6f))
      .set_transform(D3DTS_VIEW, view)
      .set_transform(D3DTS_PROJECTION, perspective(kPi / 3, static_cast<float>(kWidth) / kHeight, 1.0f, 100.0f))
      .set_material(material)
      .create_light(0)
      .set_light_data(0, light)
      .enable_light(0, true)
      .texture_stage_state(0, D3DTSS_TEXTUREMAP, kTexture)
      .texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_MODULATE)
      .texture_stage_state(0, D3DTSS_COLORARG1, D3DTA_TEXTURE)
      .texture_stage_state(0, D3DTSS_COLORARG2, D3DTA_DIFFUSE)
      .texture_stage_state(0, D3DTSS_MAGFILTER, D3DTFG_LINEAR)
      .texture_stage_state(0, D3DTSS_MINFILTER, D3DTFN_LINEAR);
  std::vector<WORD> indices;
  cube(v, indices);
  w.indexed_triangle_list2(0, indices);
}

// Renders frame `frame` through one DrawPrimitives2 call; returns ddrval.
inline HRESULT render(dp2::Device& device, ULONG_PTR context, int frame) {
  dp2::StreamWriter w;
  dp2::VertexWriter v{kFvf};
  build(w, v, frame);
  dp2::Dp2CallDesc desc;
  desc.vertex_type = kFvf;
  desc.command_surface = kCommands;
  desc.vertex_surface = kVertices;
  device.destroy_surface(kCommands);
  device.destroy_surface(kVertices);
  dp2::Dp2Call call(w, v.bytes(), desc);
  if (HRESULT hr = call.upload(device, context); hr != D3D_OK) return hr;
  call.run(device);
  return call.data.ddrval;
}

}  // namespace demo_cube
