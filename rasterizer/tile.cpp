// Per-tile rasterization: coverage of triangles (integer edge functions, top-left rule),
// lines and points, attribute interpolation, and clears. Called per tile on a worker
// thread; a tile touches only its own pixels.
#include <algorithm>
#include <cmath>

#include "dp2raster/formats.h"
#include "pixel.h"
#include "scene.h"

namespace dp2::raster {
namespace {

Rect tile_rect(std::int32_t tx, std::int32_t ty) {
  return {tx * kTileSize, ty * kTileSize, (tx + 1) * kTileSize, (ty + 1) * kTileSize};
}

void run_clear(const ClearCommand& c, const Rect& tile) {
  const Rect r = intersect(c.rect, tile);
  for (std::int32_t y = r.top; y < r.bottom; ++y)
    for (std::int32_t x = r.left; x < r.right; ++x) {
      const auto ux = static_cast<std::uint32_t>(x), uy = static_cast<std::uint32_t>(y);
      if (c.clear_color && ux < c.color.width && uy < c.color.height) write_raw(c.color, ux, uy, c.color_raw);
      if ((c.clear_depth || c.clear_stencil) && ux < c.depth.width && uy < c.depth.height) {
        const std::uint32_t d = c.clear_depth ? c.depth_value : read_depth(c.depth, ux, uy);
        const std::uint32_t s = c.clear_stencil ? c.stencil_value : read_stencil(c.depth, ux, uy);
        write_depth_stencil(c.depth, ux, uy, d, s);
      }
    }
}

// Interpolated attributes at a point given barycentric weights (b0, b1, b2) that sum to 1.
// Colours and texture coordinates are perspective-correct: each is interpolated as a/w
// (a × rhw) and divided by the interpolated rhw. z is linear in screen space, as D3D's z.
Fragment interpolate(const Vertex (&v)[3], double b0, double b1, double b2, const Color& flat_diffuse,
                     const Color& flat_specular, Shade shade, std::uint8_t texcoord_sets) {
  Fragment f;
  f.z = static_cast<float>(b0 * v[0].z + b1 * v[1].z + b2 * v[2].z);
  const double q = b0 * v[0].rhw + b1 * v[1].rhw + b2 * v[2].rhw;
  // Weights for a/w interpolation; with a non-positive or non-finite rhw there is no
  // meaningful perspective, and the screen-space weights are used as they are.
  double p0 = b0, p1 = b1, p2 = b2;
  if (q > 0.0 && std::isfinite(q)) {
    p0 = b0 * v[0].rhw / q;
    p1 = b1 * v[1].rhw / q;
    p2 = b2 * v[2].rhw / q;
    f.w = static_cast<float>(1.0 / q);
  }
  auto mix = [&](float a0, float a1, float a2) { return static_cast<float>(p0 * a0 + p1 * a1 + p2 * a2); };
  auto mix_color = [&](const Color& c0, const Color& c1, const Color& c2) {
    return Color{mix(c0.r, c1.r, c2.r), mix(c0.g, c1.g, c2.g), mix(c0.b, c1.b, c2.b), mix(c0.a, c1.a, c2.a)};
  };
  if (shade == Shade::kFlat) {
    f.diffuse = flat_diffuse;
    // Flat shading flattens the specular colour but not the fog factor in its alpha.
    f.specular = flat_specular;
    f.specular.a = mix(v[0].specular.a, v[1].specular.a, v[2].specular.a);
  } else {
    f.diffuse = mix_color(v[0].diffuse, v[1].diffuse, v[2].diffuse);
    f.specular = mix_color(v[0].specular, v[1].specular, v[2].specular);
  }
  for (std::size_t s = 0; s < kMaxTextureCoordSets; ++s)
    if (texcoord_sets & (1u << s))
      for (std::size_t c = 0; c < 4; ++c) f.tex[s][c] = mix(v[0].tex[s][c], v[1].tex[s][c], v[2].tex[s][c]);
  return f;
}

void raster_triangle(const TrianglePrim& t, const Rect& tile, TileCounters& counters) {
  const Rect r = intersect(t.bounds, tile);
  if (r.empty()) return;
  // Edge i runs from vertex i to vertex i+1; with the positive orientation the inside is
  // where every edge function is ≥ 0. Top-left rule (y down): an edge is "top" when it is
  // horizontal and runs in +x, "left" when it runs in −y; pixel centres exactly on any
  // other edge are outside, so each centre on a shared edge belongs to one triangle.
  std::int64_t bias[3];
  for (int e = 0; e < 3; ++e) {
    const std::int64_t dx = t.x[(e + 1) % 3] - t.x[e], dy = t.y[(e + 1) % 3] - t.y[e];
    const bool top_left = dy < 0 || (dy == 0 && dx > 0);
    bias[e] = top_left ? 0 : -1;
  }
  auto edge = [&](int e, std::int64_t px, std::int64_t py) {
    const int a = e, b = (e + 1) % 3;
    return (t.x[b] - t.x[a]) * (py - t.y[a]) - (t.y[b] - t.y[a]) * (px - t.x[a]);
  };
  const double inv_area = 1.0 / static_cast<double>(t.area);
  const DrawState& s = *t.state;
  // Walk 2×2 quads aligned to even coordinates, so derivatives (and so LOD) do not depend
  // on where a triangle starts.
  const std::int32_t qx0 = r.left & ~1, qy0 = r.top & ~1;
  for (std::int32_t qy = qy0; qy < r.bottom; qy += 2)
    for (std::int32_t qx = qx0; qx < r.right; qx += 2) {
      Fragment frag[4];
      bool covered[4];
      bool any = false;
      for (int i = 0; i < 4; ++i) {
        const std::int32_t px = qx + (i & 1), py = qy + (i >> 1);
        const std::int64_t sx = std::int64_t{px} << kSubpixelBits, sy = std::int64_t{py} << kSubpixelBits;
        // e_k: edge functions; the weight of vertex i is the edge opposite it.
        const std::int64_t e0 = edge(0, sx, sy), e1 = edge(1, sx, sy), e2 = edge(2, sx, sy);
        covered[i] = e0 + bias[0] >= 0 && e1 + bias[1] >= 0 && e2 + bias[2] >= 0 && px >= r.left && px < r.right &&
                     py >= r.top && py < r.bottom;
        any = any || covered[i];
        const double w0 = static_cast<double>(e1) * inv_area;  // opposite vertex 0: edge v1→v2
        const double w1 = static_cast<double>(e2) * inv_area;  // opposite vertex 1: edge v2→v0
        const double w2 = 1.0 - w0 - w1;
        frag[i] = interpolate(t.v, w0, w1, w2, t.flat_diffuse, t.flat_specular, s.shade, s.texcoord_sets);
        frag[i].x = px;
        frag[i].y = py;
        frag[i].back_facing = t.back_facing;
      }
      if (!any) continue;
      std::array<float, kMaxTextureStages> lod{};
      const std::array<std::array<float, 4>, kMaxTextureCoordSets>* quad[3] = {&frag[0].tex, &frag[1].tex, &frag[2].tex};
      quad_lods(s, quad, lod);
      for (int i = 0; i < 4; ++i)
        if (covered[i]) {
          frag[i].lod = lod;
          counters.pixels += t.kernel(s, frag[i]) ? 1 : 0;
        }
    }
}

// Lines: a pixel is lit per step of the major axis, in the row (or column) whose centre is
// nearest the line (floor(c + 0.5)); the first pixel is floor(start + 0.5) on the major
// axis, the last one is drawn only when include_last. This is dp2's reading of D3D's
// diamond-exit rule for aliased, one-pixel-wide lines.
void raster_line(const LinePrim& l, const Rect& tile, TileCounters& counters) {
  const Rect r = intersect(l.bounds, tile);
  if (r.empty()) return;
  const DrawState& s = *l.state;
  const float dx = l.b.x - l.a.x, dy = l.b.y - l.a.y;
  const bool x_major = std::fabs(dx) >= std::fabs(dy);
  const float start = x_major ? l.a.x : l.a.y, end = x_major ? l.b.x : l.b.y;
  const std::int32_t first = static_cast<std::int32_t>(std::floor(start + 0.5f));
  const std::int32_t last = static_cast<std::int32_t>(std::floor(end + 0.5f));
  const std::int32_t step = last >= first ? 1 : -1;
  const std::int32_t stop = l.include_last ? last + step : last;
  const float major_len = end - start;
  const Vertex tri[3] = {l.a, l.b, l.b};
  for (std::int32_t m = first; m != stop; m += step) {
    const float t = major_len == 0.0f ? 0.0f : std::clamp((static_cast<float>(m) - start) / major_len, 0.0f, 1.0f);
    const float minor = x_major ? l.a.y + t * dy : l.a.x + t * dx;
    const std::int32_t n = static_cast<std::int32_t>(std::floor(minor + 0.5f));
    const std::int32_t px = x_major ? m : n, py = x_major ? n : m;
    if (px < r.left || px >= r.right || py < r.top || py >= r.bottom) continue;
    Fragment f = interpolate(tri, 1.0 - t, t, 0.0, l.flat_diffuse, l.flat_specular, s.shade, s.texcoord_sets);
    f.x = px;
    f.y = py;
    counters.pixels += l.kernel(s, f) ? 1 : 0;  // lines sample at LOD 0
  }
}

void raster_point(const PointPrim& p, const Rect& tile, TileCounters& counters) {
  const Rect r = intersect(p.bounds, tile);
  const DrawState& s = *p.state;
  for (std::int32_t y = r.top; y < r.bottom; ++y)
    for (std::int32_t x = r.left; x < r.right; ++x) {
      const Vertex tri[3] = {p.v, p.v, p.v};
      Fragment f = interpolate(tri, 1.0, 0.0, 0.0, p.v.diffuse, p.v.specular, s.shade, s.texcoord_sets);
      f.x = x;
      f.y = y;
      counters.pixels += p.kernel(s, f) ? 1 : 0;
    }
}

}  // namespace

void rasterize_tile(const Renderer::Scene& scene, std::int32_t tx, std::int32_t ty, TileCounters& counters) {
  const Rect tile = tile_rect(tx, ty);
  for (const BinEntry& e : scene.bins[static_cast<std::size_t>(ty) * scene.tiles_x + tx]) {
    switch (e.kind) {
      case BinEntry::Kind::kClear: run_clear(scene.clears[e.index], tile); break;
      case BinEntry::Kind::kTriangle: raster_triangle(scene.triangles[e.index], tile, counters); break;
      case BinEntry::Kind::kLine: raster_line(scene.lines[e.index], tile, counters); break;
      case BinEntry::Kind::kPoint: raster_point(scene.points[e.index], tile, counters); break;
    }
  }
}

}  // namespace dp2::raster
