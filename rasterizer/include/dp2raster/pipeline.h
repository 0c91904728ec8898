// Everything the rasterizer needs to draw: the vertices it receives (post-transform,
// screen space) and the per-draw state, in the rasterizer's own types. src/gpu translates
// the front end's PipelineKey / DrawUniforms into a DrawState; enum values that mirror a
// D3D enum say which.
#pragma once

#include <array>
#include <cstdint>

#include "dp2raster/combiner.h"
#include "dp2raster/limits.h"
#include "dp2raster/sampler.h"
#include "dp2raster/types.h"

namespace dp2::raster {

// A screen-space vertex: D3D pixel centres are at integer coordinates.
struct Vertex {
  float x = 0, y = 0, z = 0, rhw = 1;
  Color diffuse{1, 1, 1, 1};
  Color specular{0, 0, 0, 1};  // alpha = vertex fog factor (1 = no fog)
  float point_size = 0.0f;     // D3DFVF_PSIZE; 0 = the draw's D3DRS_POINTSIZE
  std::array<std::array<float, 4>, kMaxTextureCoordSets> tex{};
};

enum class Topology : std::uint8_t { kPointList, kLineList, kLineStrip, kTriangleList, kTriangleStrip, kTriangleFan };
inline constexpr std::uint32_t kTopologyCount = static_cast<std::uint32_t>(Topology::kTriangleFan) + 1;

// Mirror D3DCMPFUNC, D3DSTENCILOP, D3DBLEND, D3DBLENDOP, D3DCULL, D3DFILLMODE, D3DSHADEMODE.
enum class Compare : std::uint8_t { kNever = 1, kLess, kEqual, kLessEqual, kGreater, kNotEqual, kGreaterEqual, kAlways };
enum class StencilOp : std::uint8_t { kKeep = 1, kZero, kReplace, kIncrSat, kDecrSat, kInvert, kIncr, kDecr };
enum class Blend : std::uint8_t {
  kZero = 1, kOne, kSrcColor, kInvSrcColor, kSrcAlpha, kInvSrcAlpha, kDestAlpha, kInvDestAlpha, kDestColor,
  kInvDestColor, kSrcAlphaSat, kBothSrcAlpha, kBothInvSrcAlpha, kBlendFactor, kInvBlendFactor,
};
enum class BlendOp : std::uint8_t { kAdd = 1, kSubtract, kRevSubtract, kMin, kMax };
enum class Cull : std::uint8_t { kNone = 1, kCW, kCCW };
enum class Fill : std::uint8_t { kPoint = 1, kWireframe, kSolid };
enum class Shade : std::uint8_t { kFlat = 1, kGouraud, kPhong };
enum class DepthMode : std::uint8_t { kOff = 0, kZ = 1, kW = 2 };

struct Rect {
  std::int32_t left = 0, top = 0, right = 0, bottom = 0;  // right/bottom exclusive
  bool empty() const noexcept { return right <= left || bottom <= top; }
  bool operator==(const Rect&) const = default;
};
inline Rect intersect(const Rect& a, const Rect& b) noexcept {
  return {a.left > b.left ? a.left : b.left, a.top > b.top ? a.top : b.top, a.right < b.right ? a.right : b.right,
          a.bottom < b.bottom ? a.bottom : b.bottom};
}

struct StencilState {
  Compare func = Compare::kAlways;
  StencilOp fail = StencilOp::kKeep, zfail = StencilOp::kKeep, pass = StencilOp::kKeep;
};

struct StageState {
  TextureOp color_op = TextureOp::kDisable, alpha_op = TextureOp::kDisable;
  std::array<std::uint8_t, 3> color_arg{}, alpha_arg{};  // [0] = ARG0, [1] = ARG1, [2] = ARG2
  std::uint8_t result_arg = kArgCurrent;                  // CURRENT or TEMP
  std::uint8_t texcoord_set = 0;
  const TextureView* texture = nullptr;  // nullptr = no texture bound (reads as opaque white? see pixel.cpp)
  SamplerState sampler;
  BumpEnv bump{};
};

// D3DRS_WRAPn: per coordinate set, which components interpolate the short way around.
struct WrapFlags {
  std::uint8_t set_mask[kMaxTextureCoordSets] = {};  // bit 0 u, 1 v, 2 w, 3 q
};

struct DrawState {
  // targets
  ImageView color;  // format kUnknown = none
  ImageView depth;
  const std::uint32_t* color_palette = nullptr;  // for a P8 target
  Rect clip;  // viewport ∩ render target (∩ scissor)
  float min_z = 0.0f, max_z = 1.0f;  // viewport z range; interpolated z is clamped to it
  // raster
  Fill fill = Fill::kSolid;
  Shade shade = Shade::kGouraud;
  Cull cull = Cull::kCCW;
  bool last_pixel = true;
  float point_size = 1.0f, point_size_min = 1.0f, point_size_max = 64.0f;  // D3DRS_POINTSIZE(_MIN/_MAX)
  // per pixel
  DepthMode depth_mode = DepthMode::kOff;
  Compare depth_func = Compare::kLessEqual;
  bool depth_write = true;
  float w_near = 0.0f, w_far = 1.0f;  // W buffering range (WINFO)
  std::uint32_t depth_bias = 0;       // D3DRS_ZBIAS, 0–16
  bool stencil = false, two_sided_stencil = false;
  StencilState stencil_cw, stencil_ccw;
  std::uint32_t stencil_ref = 0, stencil_mask = 0xFFFFFFFFu, stencil_write_mask = 0xFFFFFFFFu;
  bool alpha_test = false;
  Compare alpha_func = Compare::kAlways;
  std::uint32_t alpha_ref = 0;  // 0–255
  bool blend = false;
  Blend src_blend = Blend::kOne, dst_blend = Blend::kZero;
  BlendOp blend_op = BlendOp::kAdd;
  bool separate_alpha = false;  // D3DRS_SEPARATEALPHABLENDENABLE: alpha uses the *ALPHA factors / op
  Blend src_blend_alpha = Blend::kOne, dst_blend_alpha = Blend::kZero;
  BlendOp blend_op_alpha = BlendOp::kAdd;
  Color blend_factor{1, 1, 1, 1};
  std::uint8_t color_write_mask = 0xF;  // bit 0 red, 1 green, 2 blue, 3 alpha
  bool dither = false;
  // shading
  std::uint32_t stage_count = 0;  // stages before the first DISABLE
  std::uint8_t texcoord_sets = 0;  // bit i: some active stage reads coordinate set i (others are not interpolated)
  std::array<StageState, kMaxTextureStages> stages{};
  Color texture_factor{1, 1, 1, 1};
  bool specular = false;
  bool color_key_kill = false;  // D3DRENDERSTATE_COLORKEYENABLE without COLORKEYBLENDENABLE
  WrapFlags wrap;
  // fog: vertex fog reads specular alpha; table fog computes the factor per pixel
  bool fog = false;
  FogMode fog_table = FogMode::kNone;
  bool fog_on_w = false;  // table fog on eye distance W (WINFO perspective) instead of Z
  float fog_start = 0, fog_end = 1, fog_density = 1;
  Color fog_color{};
};

}  // namespace dp2::raster
