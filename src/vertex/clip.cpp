#include "vertex/clip.h"

#include <algorithm>
#include <cmath>

namespace dp2::vertex {
namespace {

constexpr std::uint32_t kUserPlaneShift = kFrustumPlanes;  // user plane i is bit 6 + i
constexpr std::uint32_t kFrustumMask = (1u << kFrustumPlanes) - 1;
constexpr std::uint32_t kBadVertex = 1u << 31;  // NaN / infinite: drops its primitives

// Signed distance of v to plane `plane` (inside ≥ 0).
float distance(const ClipVertex& v, std::uint32_t plane) {
  const auto& p = v.pos;
  switch (plane) {
    case 0: return p[3] + p[0];  // x ≥ −w
    case 1: return p[3] - p[0];  // x ≤ w
    case 2: return p[3] + p[1];  // y ≥ −w
    case 3: return p[3] - p[1];  // y ≤ w
    case 4: return p[2];         // z ≥ 0 (D3D's near plane)
    case 5: return p[3] - p[2];  // z ≤ w
    default: return v.user_distance[plane - kUserPlaneShift];
  }
}

float lerp(float a, float b, float t) { return a + (b - a) * t; }

ClipVertex interpolate(const ClipVertex& a, const ClipVertex& b, float t) {
  ClipVertex r;
  for (int c = 0; c < 4; ++c) r.pos[c] = lerp(a.pos[c], b.pos[c], t);
  for (std::uint32_t i = 0; i < kMaxUserClipPlanes; ++i) r.user_distance[i] = lerp(a.user_distance[i], b.user_distance[i], t);
  r.diffuse = {lerp(a.diffuse.r, b.diffuse.r, t), lerp(a.diffuse.g, b.diffuse.g, t), lerp(a.diffuse.b, b.diffuse.b, t),
               lerp(a.diffuse.a, b.diffuse.a, t)};
  r.specular = {lerp(a.specular.r, b.specular.r, t), lerp(a.specular.g, b.specular.g, t),
                lerp(a.specular.b, b.specular.b, t), lerp(a.specular.a, b.specular.a, t)};
  r.point_size = lerp(a.point_size, b.point_size, t);
  for (std::size_t s = 0; s < r.tex.size(); ++s)
    for (int c = 0; c < 4; ++c) r.tex[s][c] = lerp(a.tex[s][c], b.tex[s][c], t);
  return r;
}

bool finite_vertex(const raster::Vertex& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) && std::isfinite(v.rhw);
}

// The planes a vertex is outside of, or kBadVertex.
std::uint32_t classify(const ClipVertex& v, std::uint32_t planes) {
  for (float c : v.pos)
    if (!std::isfinite(c)) return kBadVertex;
  std::uint32_t out = 0;
  for (std::uint32_t plane = 0; plane < kFrustumPlanes + kMaxUserClipPlanes; ++plane) {
    if (!(planes & (1u << plane))) continue;
    const float d = distance(v, plane);
    if (std::isnan(d)) return kBadVertex;
    if (d < 0.0f) out |= 1u << plane;
  }
  return out;
}

}  // namespace

ScreenViewport viewport_of(const TnlState& s, std::uint32_t target_width, std::uint32_t target_height) {
  ScreenViewport vp;
  const bool unset = s.viewport_width == 0 || s.viewport_height == 0;
  vp.x = unset ? 0.0f : static_cast<float>(s.viewport_x);
  vp.y = unset ? 0.0f : static_cast<float>(s.viewport_y);
  vp.width = static_cast<float>(unset ? target_width : s.viewport_width);
  vp.height = static_cast<float>(unset ? target_height : s.viewport_height);
  vp.min_z = s.min_z;
  vp.max_z = s.max_z;
  return vp;
}

raster::Vertex to_screen(const ClipVertex& v, const ScreenViewport& vp) {
  raster::Vertex o;
  const float rhw = 1.0f / v.pos[3];
  o.x = vp.x + (v.pos[0] * rhw + 1.0f) * vp.width * 0.5f;
  o.y = vp.y + (1.0f - v.pos[1] * rhw) * vp.height * 0.5f;
  o.z = vp.min_z + v.pos[2] * rhw * (vp.max_z - vp.min_z);
  o.rhw = rhw;
  o.diffuse = v.diffuse;
  o.specular = v.specular;
  o.point_size = v.point_size;
  o.tex = v.tex;
  return o;
}

void clip_polygon(std::uint32_t plane_mask, std::vector<ClipVertex>& polygon, std::vector<ClipVertex>& scratch) {
  // Sutherland–Hodgman, one plane at a time. The intersection parameter t = d0 / (d0 − d1)
  // is computed from the inside end so a vertex exactly on the plane is kept as is.
  for (std::uint32_t plane = 0; plane < kFrustumPlanes + kMaxUserClipPlanes && polygon.size() >= 3; ++plane) {
    if (!(plane_mask & (1u << plane))) continue;
    scratch.clear();
    for (std::size_t i = 0; i < polygon.size(); ++i) {
      const ClipVertex& a = polygon[i];
      const ClipVertex& b = polygon[(i + 1) % polygon.size()];
      const float da = distance(a, plane), db = distance(b, plane);
      if (da >= 0.0f) scratch.push_back(a);
      if ((da >= 0.0f) != (db >= 0.0f)) {
        scratch.push_back(da >= 0.0f ? interpolate(a, b, da / (da - db)) : interpolate(b, a, db / (db - da)));
      }
    }
    polygon.swap(scratch);
  }
  if (polygon.size() < 3) polygon.clear();
}

bool process(const TnlState& s, const TnlPrepared& prepared, const ScreenViewport& vp, DWORD fvf, std::uint32_t stride,
             std::span<const std::byte> bytes, std::uint32_t vertex_count, raster::Topology topology,
             std::uint32_t primitive_count, std::span<const std::uint32_t> indices, std::uint8_t stage_mask,
             TnlScratch& scratch, std::vector<raster::Vertex>& out_vertices, std::vector<std::uint32_t>& out_indices,
             ProcessedDraw& result) {
  if (!transform_vertices(s, prepared, fvf, stride, bytes, vertex_count, stage_mask, scratch.clip)) return false;
  const bool clipping = s.clipping != FALSE;
  const std::uint32_t planes = clipping ? kFrustumMask | (s.clip_plane_enable << kUserPlaneShift) : 0;
  const std::vector<ClipVertex>& cv = scratch.clip;

  // Classify every vertex and map it to the screen.
  scratch.flags.resize(vertex_count);
  out_vertices.resize(vertex_count);
  std::uint32_t any = 0;
  for (std::uint32_t i = 0; i < vertex_count; ++i) {
    std::uint32_t f = classify(cv[i], planes);
    if (f == 0) {
      out_vertices[i] = to_screen(cv[i], vp);
      if (!finite_vertex(out_vertices[i])) f = kBadVertex;  // e.g. w = 0 with clipping off
    }
    scratch.flags[i] = f;
    any |= f;
  }
  auto vertex_at = [&](std::size_t i) -> std::uint32_t { return indices.empty() ? static_cast<std::uint32_t>(i) : indices[i]; };

  // Trivial accept: every vertex inside every plane → the draw as it came.
  if (any == 0) {
    result = {topology, primitive_count, true};
    out_indices.assign(indices.begin(), indices.end());
    return true;
  }

  // Otherwise rebuild as lists: original vertices keep their slots in out_vertices (only
  // the ones inside are referenced), new ones from clipping are appended.
  out_indices.clear();
  auto push_new = [&](const ClipVertex& v) -> bool {
    const raster::Vertex sv = to_screen(v, vp);
    if (!finite_vertex(sv)) return false;
    out_indices.push_back(static_cast<std::uint32_t>(out_vertices.size()));
    out_vertices.push_back(sv);
    return true;
  };
  const std::uint32_t n = primitive_count;
  switch (topology) {
    case raster::Topology::kPointList: {
      // A point is clipped by its centre (D3D clips points, not sprites' extents).
      result.topology = raster::Topology::kPointList;
      for (std::uint32_t i = 0; i < n; ++i)
        if (scratch.flags[vertex_at(i)] == 0) out_indices.push_back(vertex_at(i));
      result.primitive_count = static_cast<std::uint32_t>(out_indices.size());
      break;
    }
    case raster::Topology::kLineList:
    case raster::Topology::kLineStrip: {
      result.topology = raster::Topology::kLineList;
      const bool strip = topology == raster::Topology::kLineStrip;
      for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t a = vertex_at(strip ? i : 2 * i), b = vertex_at(strip ? i + 1 : 2 * i + 1);
        const std::uint32_t fa = scratch.flags[a], fb = scratch.flags[b];
        if ((fa | fb) & kBadVertex || (fa & fb) != 0) continue;  // bad, or both outside one plane
        if ((fa | fb) == 0) {
          out_indices.insert(out_indices.end(), {a, b});
          continue;
        }
        // Parametric clip of the segment against each plane either end is outside of.
        float t0 = 0.0f, t1 = 1.0f;
        for (std::uint32_t plane = 0; plane < kFrustumPlanes + kMaxUserClipPlanes; ++plane) {
          if (!((fa | fb) & (1u << plane))) continue;
          const float da = distance(cv[a], plane), db = distance(cv[b], plane);
          const float t = da / (da - db);
          if (da < 0.0f) t0 = std::max(t0, t);
          else t1 = std::min(t1, t);
        }
        if (!(t0 < t1)) continue;
        const std::size_t mark = out_indices.size();
        const bool ok_a = fa == 0 ? (out_indices.push_back(a), true) : push_new(interpolate(cv[a], cv[b], t0));
        const bool ok_b = fb == 0 ? (out_indices.push_back(b), true) : push_new(interpolate(cv[a], cv[b], t1));
        if (!ok_a || !ok_b) out_indices.resize(mark);
      }
      result.primitive_count = static_cast<std::uint32_t>(out_indices.size() / 2);
      break;
    }
    default: {
      result.topology = raster::Topology::kTriangleList;
      for (std::uint32_t i = 0; i < n; ++i) {
        // The rasterizer's vertex order (setup.cpp): strips swap the last two of odd
        // triangles; fan triangle i is (v[i+1], v[i+2], v[0]).
        std::uint32_t t[3];
        if (topology == raster::Topology::kTriangleList) t[0] = vertex_at(3 * i), t[1] = vertex_at(3 * i + 1), t[2] = vertex_at(3 * i + 2);
        else if (topology == raster::Topology::kTriangleStrip)
          i % 2 == 0 ? (t[0] = vertex_at(i), t[1] = vertex_at(i + 1), t[2] = vertex_at(i + 2))
                     : (t[0] = vertex_at(i), t[1] = vertex_at(i + 2), t[2] = vertex_at(i + 1));
        else t[0] = vertex_at(i + 1), t[1] = vertex_at(i + 2), t[2] = vertex_at(0);
        const std::uint32_t f0 = scratch.flags[t[0]], f1 = scratch.flags[t[1]], f2 = scratch.flags[t[2]];
        if ((f0 | f1 | f2) & kBadVertex || (f0 & f1 & f2) != 0) continue;
        if ((f0 | f1 | f2) == 0) {
          out_indices.insert(out_indices.end(), {t[0], t[1], t[2]});
          continue;
        }
        std::vector<ClipVertex>& poly = scratch.polygon[0];
        poly.assign({cv[t[0]], cv[t[1]], cv[t[2]]});
        clip_polygon(f0 | f1 | f2, poly, scratch.polygon[1]);
        if (poly.empty()) continue;
        // Start the fan at the first original corner that survived (its colour is the
        // flat-shading colour); an unchanged corner is recognised by its position.
        std::size_t first = 0;
        for (std::uint32_t corner = 0; corner < 3 && first == 0; ++corner) {
          if (scratch.flags[t[corner]] != 0) continue;
          for (std::size_t k = 0; k < poly.size(); ++k)
            if (poly[k].pos == cv[t[corner]].pos) {
              first = k;
              break;
            }
          break;
        }
        std::rotate(poly.begin(), poly.begin() + static_cast<std::ptrdiff_t>(first), poly.end());
        const std::size_t base = out_vertices.size();
        bool ok = true;
        for (const ClipVertex& v : poly) {
          const raster::Vertex sv = to_screen(v, vp);
          ok = ok && finite_vertex(sv);
          out_vertices.push_back(sv);
        }
        if (!ok) {
          out_vertices.resize(base);
          continue;
        }
        for (std::size_t k = 1; k + 1 < poly.size(); ++k)
          out_indices.insert(out_indices.end(), {static_cast<std::uint32_t>(base), static_cast<std::uint32_t>(base + k),
                                                 static_cast<std::uint32_t>(base + k + 1)});
      }
      result.primitive_count = static_cast<std::uint32_t>(out_indices.size() / 3);
      break;
    }
  }
  result.same_primitives = false;
  return true;
}

}  // namespace dp2::vertex
