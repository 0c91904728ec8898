// Fixed-function vertex processing of untransformed vertices (D3DFVF_XYZ, XYZB1–5, XYZW):
// FVF decode, vertex blending, world → view → projection (Direct3D's row-vector convention,
// v' = v · M), lighting, vertex fog, texture coordinate generation and texture transforms.
// The result is a clip-space vertex; clip.h clips it and maps it to the viewport.
//
// The formulas are those of the D3D9 SDK pages "Mathematics of Lighting", "Attenuation and
// Spotlight Factor", "Fog Formulas" (D3DFOGMODE), "Texture Coordinate Processing" and
// "Point Sprites"; each is quoted where it is used in transform.cpp.
//
// Thread: the GPU worker, while it executes a command buffer.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "dp2/ddi.h"
#include "dp2raster/pipeline.h"
#include "vertex/tnl_state.h"

namespace dp2::vertex {

// A vertex after transform and lighting, before clipping.
struct ClipVertex {
  std::array<float, 4> pos{};                           // clip space (x, y, z, w)
  std::array<float, kMaxUserClipPlanes> user_distance{};  // enabled user planes · world position
  raster::Color diffuse{1, 1, 1, 1};
  raster::Color specular{0, 0, 0, 1};  // alpha = fog factor
  float point_size = 0.0f;             // pixels; 0 = the draw's POINTSIZE
  std::array<std::array<float, 4>, raster::kMaxTextureCoordSets> tex{};  // tex[i]: stage i's coordinates
};

// Everything derived from a TnlState once per state (not per vertex).
struct TnlPrepared {
  std::vector<D3DMATRIX> world;         // the draw's world matrices, then identity
  std::vector<D3DMATRIX> world_view;    // world[i] · view
  std::vector<D3DMATRIX> normal;        // inverse-transpose of world_view[i]'s 3×3 (in a 4×4)
  D3DMATRIX projection{};
  D3DMATRIX view{};
  struct Light {
    DWORD type = 0;
    raster::Color diffuse, specular, ambient;
    std::array<float, 3> position{}, direction{};  // camera space; direction normalized
    float range = 0, falloff = 0, att0 = 0, att1 = 0, att2 = 0;
    float cos_half_theta = 0, cos_half_phi = 0;
  };
  std::vector<Light> lights;
};

void prepare(const TnlState& s, std::span<const D3DMATRIX> worlds, TnlPrepared& out);

// Transforms, lights and fogs `count` vertices of `fvf` (stride bytes each). Texture
// coordinates are produced for the stages in `stage_mask` (bit i: stage i), into tex[i].
// False when the FVF has no untransformed position or the bytes are short.
bool transform_vertices(const TnlState& s, const TnlPrepared& p, DWORD fvf, std::uint32_t stride,
                        std::span<const std::byte> bytes, std::uint32_t count, std::uint8_t stage_mask,
                        std::vector<ClipVertex>& out);

// Matrix helpers (row vectors), exposed for the tests.
D3DMATRIX matrix_multiply(const D3DMATRIX& a, const D3DMATRIX& b) noexcept;  // a · b
std::array<float, 4> transform_point(const std::array<float, 4>& v, const D3DMATRIX& m) noexcept;  // v · m
// The inverse-transpose of m's upper 3×3 (normals transform by it); when the 3×3 is
// singular, m itself (see transform.cpp).
D3DMATRIX normal_matrix(const D3DMATRIX& m) noexcept;

}  // namespace dp2::vertex
