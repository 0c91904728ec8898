// Scaffolding shared by the rendering golden tests (tests/unit/test_render*_*.cpp): a device
// with a target and depth buffer, stream helpers, texture / mip-level / depth helpers, and
// pixel read-back.
#pragma once

#include <doctest/doctest.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>
#include "dp2/device.h"
#include "dp2/stream_writer.h"

namespace {

using dp2::StreamWriter;
using dp2::VertexWriter;

constexpr DWORD kRT = 1, kZS = 2, kTex = 3, kTex2 = 4, kTex3 = 5;
constexpr DWORD kFvfC = D3DFVF_XYZRHW | D3DFVF_DIFFUSE;
constexpr DWORD kFvfCS = D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_SPECULAR;
constexpr DWORD kFvfT = D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_SPECULAR | D3DFVF_TEX1;

[[maybe_unused]] std::uint32_t bytes_per_pixel(D3DFORMAT f) {
  switch (f) {
    case D3DFMT_A8R8G8B8: case D3DFMT_X8R8G8B8: case D3DFMT_D24S8: case D3DFMT_D24X8: case D3DFMT_D24X4S4:
    case D3DFMT_D32:
      return 4;
    case D3DFMT_R8G8B8: return 3;
    case D3DFMT_R3G3B2: case D3DFMT_P8: case D3DFMT_L8: case D3DFMT_A8: return 1;
    default: return 2;
  }
}

struct Scene {
  dp2::Device dev;
  ULONG_PTR ctx = 0;
  std::uint32_t w, h;
  D3DFORMAT fmt, zfmt;

  Scene(std::uint32_t width, std::uint32_t height, D3DFORMAT format = D3DFMT_X8R8G8B8,
        D3DFORMAT zformat = D3DFMT_UNKNOWN, unsigned threads = 1, std::uint32_t version = 5)
      : w(width), h(height), fmt(format), zfmt(zformat) {
    dev.set_render_threads(threads);
    dp2::SurfaceDesc rt;
    rt.kind = dp2::SurfaceKind::kRenderTarget;
    rt.format = format;
    rt.width = width;
    rt.height = height;
    REQUIRE(dev.create_surface(kRT, rt) == D3D_OK);
    if (zformat != D3DFMT_UNKNOWN) {
      dp2::SurfaceDesc zs = rt;
      zs.kind = dp2::SurfaceKind::kDepthStencil;
      zs.format = zformat;
      REQUIRE(dev.create_surface(kZS, zs) == D3D_OK);
    }
    dp2::ContextDesc cd;
    cd.interface_version = version;
    cd.render_target = kRT;
    cd.depth_stencil = zformat != D3DFMT_UNKNOWN ? kZS : 0;
    REQUIRE(dev.create_context(cd, ctx) == D3D_OK);
  }

  void run(const StreamWriter& s, std::span<const std::byte> vertices, DWORD fvf) {
    dp2::Dp2CallDesc d;
    d.vertex_type = fvf;
    dp2::Dp2Call call(s, vertices, d);
    REQUIRE(call.upload(dev, ctx) == D3D_OK);
    call.run(dev);
    CHECK(call.data.ddrval == D3D_OK);
    dev.destroy_surface(d.command_surface);
    dev.destroy_surface(d.vertex_surface);
  }
  void run(const StreamWriter& s, const VertexWriter& v) { run(s, v.bytes(), v.fvf()); }
  void run(const StreamWriter& s) { run(s, {}, kFvfC); }

  static std::uint32_t read(std::span<const std::byte> mem, D3DFORMAT f, std::uint32_t width, std::uint32_t x,
                            std::uint32_t y) {
    const std::uint32_t bpp = bytes_per_pixel(f);
    const std::size_t pitch = (std::size_t{width} * bpp + 3) & ~std::size_t{3};
    const std::size_t at = y * pitch + std::size_t{x} * bpp;
    std::uint32_t v = 0;
    for (std::uint32_t i = 0; i < bpp; ++i) v |= std::to_integer<std::uint32_t>(mem[at + i]) << (8 * i);
    return v;
  }
  std::uint32_t raw(std::uint32_t x, std::uint32_t y) { return read(dev.surface_bytes(kRT), fmt, w, x, y); }
  std::uint32_t rgb(std::uint32_t x, std::uint32_t y) { return raw(x, y) & 0x00FFFFFFu; }
  std::uint32_t zraw(std::uint32_t x, std::uint32_t y) { return read(dev.surface_bytes(kZS), zfmt, w, x, y); }
  std::uint32_t depth(std::uint32_t x, std::uint32_t y) { return zraw(x, y) >> 8; }  // D24S8 / D24X8 / D24X4S4
  std::uint32_t stencil(std::uint32_t x, std::uint32_t y) { return zraw(x, y) & 0xFFu; }

  // A texture of any uncompressed format with `levels` mip levels; texel(level, x, y)
  // gives the raw bits. Each level's pitch is DWORD-aligned, levels follow each other.
  template <class F>
  void texture_fmt(DWORD handle, D3DFORMAT f, std::uint32_t tw, std::uint32_t th, std::uint32_t levels, F texel,
                   bool has_key = false, DWORD key = 0) {
    dp2::SurfaceDesc t;
    t.kind = dp2::SurfaceKind::kTexture;
    t.format = f;
    t.width = tw;
    t.height = th;
    t.mip_levels = levels;
    t.has_color_key = has_key;
    t.color_key = key;
    REQUIRE(dev.create_surface(handle, t) == D3D_OK);
    auto mem = dev.surface_bytes(handle);
    const std::uint32_t bpp = bytes_per_pixel(f);
    std::size_t offset = 0;
    for (std::uint32_t l = 0; l < levels; ++l) {
      const std::size_t pitch = (std::size_t{tw} * bpp + 3) & ~std::size_t{3};
      REQUIRE(mem.size() >= offset + pitch * th);
      for (std::uint32_t y = 0; y < th; ++y)
        for (std::uint32_t x = 0; x < tw; ++x) {
          const std::uint32_t v = texel(l, x, y);
          for (std::uint32_t i = 0; i < bpp; ++i)
            mem[offset + y * pitch + x * bpp + i] = static_cast<std::byte>((v >> (8 * i)) & 0xFFu);
        }
      offset += pitch * th;
      tw = std::max(tw / 2, 1u);
      th = std::max(th / 2, 1u);
    }
  }
  // An A8R8G8B8 texture from 0xAARRGGBB texels, rows top to bottom.
  void texture(DWORD handle, std::uint32_t tw, std::uint32_t th, const std::vector<std::uint32_t>& texels) {
    texture_fmt(handle, D3DFMT_A8R8G8B8, tw, th, 1, [&](std::uint32_t, std::uint32_t x, std::uint32_t y) {
      return texels[y * tw + x];
    });
  }
  // A 1×1 A8R8G8B8 texture: samples as one flat colour whatever the coordinates.
  void flat(DWORD handle, std::uint32_t argb) { texture(handle, 1, 1, {argb}); }
};

[[maybe_unused]] StreamWriter& diffuse_only(StreamWriter& s) {
  return s.texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_SELECTARG1)
      .texture_stage_state(0, D3DTSS_COLORARG1, D3DTA_DIFFUSE)
      .texture_stage_state(0, D3DTSS_ALPHAOP, D3DTOP_SELECTARG1)
      .texture_stage_state(0, D3DTSS_ALPHAARG1, D3DTA_DIFFUSE)
      .end_merge();
}

// Stage `st` outputs its texture (colour and alpha), point sampled, no mipmapping.
[[maybe_unused]] StreamWriter& texture_only(StreamWriter& s, DWORD handle, WORD st = 0) {
  return s.texture_stage_state(st, D3DTSS_TEXTUREMAP, handle)
      .texture_stage_state(st, D3DTSS_COLOROP, D3DTOP_SELECTARG1)
      .texture_stage_state(st, D3DTSS_COLORARG1, D3DTA_TEXTURE)
      .texture_stage_state(st, D3DTSS_ALPHAOP, D3DTOP_SELECTARG1)
      .texture_stage_state(st, D3DTSS_ALPHAARG1, D3DTA_TEXTURE)
      .texture_stage_state(st, D3DTSS_MAGFILTER, D3DTEXF_POINT)
      .texture_stage_state(st, D3DTSS_MINFILTER, D3DTEXF_POINT)
      .texture_stage_state(st, D3DTSS_MIPFILTER, D3DTEXF_NONE)
      .end_merge();
}

// Axis-aligned rectangle as two clockwise triangles: covers pixel centres x0 ≤ i < x1,
// y0 ≤ j < y1.
[[maybe_unused]] void quad(VertexWriter& v, float x0, float y0, float x1, float y1, float z, D3DCOLOR c,
                           D3DCOLOR spec = 0, float rhw = 1.0f) {
  v.tl(x0, y0, z, rhw, c, spec).tl(x1, y0, z, rhw, c, spec).tl(x0, y1, z, rhw, c, spec);
  v.tl(x1, y0, z, rhw, c, spec).tl(x1, y1, z, rhw, c, spec).tl(x0, y1, z, rhw, c, spec);
}
// The same with texture coordinates (u0, v0) at the top-left corner and (u1, v1) at the
// bottom-right one (kFvfT vertices).
[[maybe_unused]] void tquad(VertexWriter& v, float x0, float y0, float x1, float y1, float u0, float v0, float u1,
                            float v1, D3DCOLOR c = 0xFFFFFFFFu, D3DCOLOR spec = 0, float z = 0.5f) {
  v.tl(x0, y0, z, 1, c, spec, u0, v0).tl(x1, y0, z, 1, c, spec, u1, v0).tl(x0, y1, z, 1, c, spec, u0, v1);
  v.tl(x1, y0, z, 1, c, spec, u1, v0).tl(x1, y1, z, 1, c, spec, u1, v1).tl(x0, y1, z, 1, c, spec, u0, v1);
}

[[maybe_unused]] std::uint32_t q(double c, int bits) {
  const double m = double((1ull << bits) - 1);
  return static_cast<std::uint32_t>(std::floor(std::clamp(c, 0.0, 1.0) * m + 0.5));
}
[[maybe_unused]] double ch(std::uint32_t argb, int shift) { return double((argb >> shift) & 0xFFu) / 255.0; }
// An 8-bit channel that rounds from x (within half an LSB, plus float slack).
[[maybe_unused]] bool rounds_from(std::uint32_t got, double x, double slack = 0.002) {
  return std::fabs(double(got) - x) <= 0.5 + slack;
}
// Every 8-bit channel of `got` (ARGB) against the expected doubles in [0, 1] (r, g, b, a).
[[maybe_unused]] bool channels_near(std::uint32_t got, const double (&want)[4], bool alpha = true,
                                    double slack = 0.002) {
  const int shifts[4] = {16, 8, 0, 24};
  for (int k = 0; k < (alpha ? 4 : 3); ++k)
    if (!rounds_from((got >> shifts[k]) & 0xFFu, std::clamp(want[k], 0.0, 1.0) * 255.0, slack)) return false;
  return true;
}

}  // namespace
