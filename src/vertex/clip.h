// Clipping of transformed primitives in homogeneous clip space, the viewport transform,
// and process(): an untransformed draw → screen-space vertices the rasterizer draws.
//
// Planes: the view frustum as Direct3D defines it, −w ≤ x ≤ w, −w ≤ y ≤ w, 0 ≤ z ≤ w, and
// the user clip planes enabled by D3DRS_CLIPPLANEENABLE (bits 0–5). User planes are in
// WORLD space: the D3D9 SetClipPlane page says so for the fixed-function pipeline ("the
// plane equation is in world space"), and the DX7 runtime hands them to a TnL driver as
// the application set them. Each vertex carries its distance to each enabled plane
// (transform.cpp); a distance is linear in the world position and so in the clip-space
// position, which lets the clipper interpolate it like any attribute — no matrix needs
// inverting, so a singular view or projection still clips correctly.
//
// Attributes are interpolated linearly in clip space. A triangle clipped to a polygon is
// emitted as a fan of triangles starting at its first surviving original vertex (so flat
// shading keeps that vertex's colour when it survives). With D3DRS_CLIPPING off nothing
// is clipped: vertices outside the guard band are rejected by the rasterizer as for
// pre-transformed vertices.
//
// Bad input: a vertex whose clip position (or user-plane distance) is NaN or infinite, or
// whose screen position is not finite, drops every primitive that uses it.
//
// Thread: the GPU worker, while it executes a command buffer.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "dp2raster/pipeline.h"
#include "vertex/tnl_state.h"
#include "vertex/transform.h"

namespace dp2::vertex {

inline constexpr std::uint32_t kFrustumPlanes = 6;

struct ScreenViewport {
  float x = 0, y = 0, width = 0, height = 0, min_z = 0, max_z = 1;
};
// The TnlState's viewport; a width or height of 0 (never set) takes the target's size.
ScreenViewport viewport_of(const TnlState& s, std::uint32_t target_width, std::uint32_t target_height);

// x' = X + (x/w + 1)·W/2, y' = Y + (1 − y/w)·H/2, z' = MinZ + (z/w)·(MaxZ − MinZ), rhw = 1/w.
raster::Vertex to_screen(const ClipVertex& v, const ScreenViewport& vp);

// Scratch the back end keeps between draws (no heap traffic in steady state).
struct TnlScratch {
  std::vector<ClipVertex> clip;
  std::vector<std::uint32_t> flags;     // per vertex: outside bits, kBadVertex
  std::vector<ClipVertex> polygon[2];
};

struct ProcessedDraw {
  raster::Topology topology = raster::Topology::kTriangleList;
  std::uint32_t primitive_count = 0;
  bool same_primitives = false;  // nothing was clipped: the draw's own topology, indices (and edge flags)
};

// Transforms, lights, clips and maps one draw. `indices` empty = vertices in order.
// Output: screen vertices and (unless same_primitives with no indices) indices into them.
// False when the vertices cannot be read as an untransformed FVF.
bool process(const TnlState& s, const TnlPrepared& prepared, const ScreenViewport& vp, DWORD fvf, std::uint32_t stride,
             std::span<const std::byte> bytes, std::uint32_t vertex_count, raster::Topology topology,
             std::uint32_t primitive_count, std::span<const std::uint32_t> indices, std::uint8_t stage_mask,
             TnlScratch& scratch, std::vector<raster::Vertex>& out_vertices, std::vector<std::uint32_t>& out_indices,
             ProcessedDraw& result);

// Clips one triangle (clip-space vertices) against the planes in `plane_mask` (bits 0–5
// frustum: −x, +x, −y, +y, near z = 0, far z = w; bits 6–11 user planes 0–5). Returns the
// polygon (0 or ≥ 3 vertices); exposed for the tests.
void clip_polygon(std::uint32_t plane_mask, std::vector<ClipVertex>& polygon, std::vector<ClipVertex>& scratch);

// What the back end keeps for TnL while it executes one buffer.
struct TnlWork {
  bool valid = false;  // a SET_TRANSFORM_LIGHTING came earlier in this buffer
  TnlState state;
  std::vector<D3DMATRIX> worlds;
  TnlPrepared prepared;
  TnlScratch scratch;
  std::vector<std::uint32_t> indices;  // process()'s output indices
  // The draw state with stage i reading coordinate set i (TnL writes stage i's
  // coordinates to tex[i]), made from `source` and alive until the buffer's flush.
  const raster::DrawState* source = nullptr;
  const raster::DrawState* remapped = nullptr;
  void reset() noexcept {
    valid = false;
    source = remapped = nullptr;
  }
};

}  // namespace dp2::vertex
