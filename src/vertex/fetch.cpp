#include "vertex/fetch.h"

#include <cstring>

#include "ddi/fvf.h"

namespace dp2::vertex {
namespace {

float load_float(const std::byte* p) {
  float f;
  std::memcpy(&f, p, sizeof f);
  return f;
}

raster::Color load_color(const std::byte* p) {
  DWORD c;
  std::memcpy(&c, p, sizeof c);  // D3DCOLOR: 0xAARRGGBB
  return {static_cast<float>((c >> 16) & 0xFFu) / 255.0f, static_cast<float>((c >> 8) & 0xFFu) / 255.0f,
          static_cast<float>(c & 0xFFu) / 255.0f, static_cast<float>(c >> 24) / 255.0f};
}

}  // namespace

bool fetch_pretransformed(DWORD fvf, std::uint32_t stride, std::span<const std::byte> bytes, std::uint32_t count,
                          std::vector<raster::Vertex>& out) {
  if ((fvf & 0x400Eu) != D3DFVF_XYZRHW || stride == 0 || ddi::fvf_stride(fvf) > stride) return false;
  if (bytes.size() / stride < count) return false;
  // Field offsets in the order of STATES.md §10: position, normal, point size, diffuse,
  // specular, fog (DDI-only), texture coordinate sets.
  std::uint32_t at = 16;
  if (fvf & D3DFVF_NORMAL) at += 12;
  const std::uint32_t psize = at;
  if (fvf & D3DFVF_PSIZE) at += 4;
  const std::uint32_t diffuse = at;
  if (fvf & D3DFVF_DIFFUSE) at += 4;
  const std::uint32_t specular = at;
  if (fvf & D3DFVF_SPECULAR) at += 4;
  const std::uint32_t fog = at;
  if (fvf & D3DFVF_FOG) at += 4;
  const std::uint32_t sets = ddi::fvf_texcoord_count(fvf);
  std::uint32_t tex_at[8] = {};
  for (std::uint32_t i = 0; i < sets && i < 8; ++i) {
    tex_at[i] = at;
    at += 4 * ddi::fvf_texcoord_size(fvf, i);
  }

  out.resize(count);
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::byte* v = bytes.data() + std::size_t{k} * stride;
    raster::Vertex& o = out[k];
    o = raster::Vertex{};
    o.x = load_float(v);
    o.y = load_float(v + 4);
    o.z = load_float(v + 8);
    o.rhw = load_float(v + 12);
    if (fvf & D3DFVF_PSIZE) o.point_size = load_float(v + psize);
    // Without a diffuse colour, D3D uses opaque white; without a specular colour, black
    // with a fog factor of 1 (no fog).
    if (fvf & D3DFVF_DIFFUSE) o.diffuse = load_color(v + diffuse);
    if (fvf & D3DFVF_SPECULAR) o.specular = load_color(v + specular);
    if (fvf & D3DFVF_FOG) o.specular.a = load_float(v + fog);
    for (std::uint32_t i = 0; i < sets && i < 8; ++i) {
      // Missing components read as (u, v, 0, 1).
      o.tex[i] = {0.0f, 0.0f, 0.0f, 1.0f};
      const std::uint32_t n = ddi::fvf_texcoord_size(fvf, i);
      for (std::uint32_t c = 0; c < n; ++c) o.tex[i][c] = load_float(v + tex_at[i] + 4 * c);
    }
  }
  return true;
}

}  // namespace dp2::vertex
