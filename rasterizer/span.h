// The SIMD triangle path: 8-wide block kernels for the pipeline keys that dominate real
// frames, compiled once per instruction set (span_kernel.cpp) and chosen when a draw's
// state is set up — never per triangle or pixel. A draw whose state the kernels do not
// cover keeps the scalar fragment pipeline (pixel.cpp); the two give the same bytes
// wherever both apply (tests force each ISA and the generic path and compare images).
//
// A block is 4×2 pixels at (x, y) with x % 4 == 0 and y % 2 == 0 — two 2×2 quads side by
// side. Lane i is pixel (x + i % 4, y + i / 4). Internal to the rasterizer room.
#pragma once

#include <array>
#include <cstdint>

#include "dp2raster/pipeline.h"
#include "dp2raster/renderer.h"

namespace dp2::raster {

// Tiles are kTileSize pixels square; a tile's pixels belong to one worker at a time.
inline constexpr std::int32_t kTileSize = 64;

struct TrianglePrim;
struct Plane;
struct TileCounters;
struct FastDraw;
struct GridEdges;

// The blocks of one triangle inside one tile: masks[row][col] covers the block at
// (x0 + 4·col, y0 + 2·row), bit i = lane i covered; rows ≤ kMaxRows, cols ≤ kMaxCols.
// Without masks, `edges` (coverage.h: the edge functions in int32 from the grid's first
// pixel centre) gives them, and the kernel finds each block's lanes in its own vectors
// (simd/block_masks.h): a small triangle's masks cost fewer instructions there than in
// the baseline SSE2 of tile.cpp.
struct BlockGrid {
  static constexpr std::int32_t kMaxCols = kTileSize / 4, kMaxRows = kTileSize / 2;
  std::int32_t x0 = 0, y0 = 0, rows = 0, cols = 0;
  const std::uint8_t (*masks)[kMaxCols] = nullptr;
  const GridEdges* edges = nullptr;  // when masks is null
};

// Shades the covered blocks of one triangle inside one tile, row pair by row pair.
// tri_planes: the triangle's planes in Chunk::planes (texture coordinates, specular).
using BlockKernel = void (*)(const FastDraw& draw, const TrianglePrim& t, const Plane* tri_planes, const BlockGrid& grid,
                             TileCounters& counters);

// The draw state as the block kernels read it: everything decided once per draw.
struct FastDraw {
  BlockKernel kernel = nullptr;        // the variant for this state, of the chosen ISA
  // colour target: A8R8G8B8 or X8R8G8B8, or (color16) R5G6B5, X1R5G5B5 or A1R5G5B5
  std::byte* color = nullptr;
  std::uint32_t color_pitch = 0;
  bool color_alpha = false;            // the target stores alpha (else it reads 1)
  std::uint32_t write_keep = 0;        // raw bits D3DRS_COLORWRITEENABLE lets through
  bool write_all = false;              // write_keep is every bit of the pixel
  bool color16 = false;
  // A 16-bit target's channels: `mask` its bits in the pixel, `down` and `up` 2^−shift and
  // 2^shift (a product that moves an integer below 2^24 is exact, so no variable shifts
  // are needed), `max` 2^bits − 1; alpha's max is 0 when the format has none. `fixed`
  // are the bits written whatever the colour (X1R5G5B5's X bit).
  struct Channel16 {
    std::int32_t mask = 0;
    float down = 1, up = 1, max = 0;
  };
  struct Layout16 {
    Channel16 r, g, b, a;
    std::int32_t fixed = 0;
  };
  Layout16 layout16;
  // D3DRS_DITHERENABLE on a target that dithers: each lane's offset (pixel.cpp:
  // dither_offset) for a block whose y % 4 is 0 (row 0) or 2 (row 1).
  bool dither = false;
  std::array<std::array<float, 8>, 2> dither_rows{};
  // depth: D24S8, D24X8, D24X4S4 or (depth16) D16, Z buffering, no stencil test
  std::byte* depth = nullptr;
  std::uint32_t depth_pitch = 0;
  std::uint32_t depth_keep = 0;        // the stencil bits a depth write preserves
  bool depth16 = false;
  Compare depth_func = Compare::kAlways;
  bool depth_write = false;
  std::int32_t depth_bias = 0;
  float min_z = 0, max_z = 1;
  bool z_clamp_plain = false;          // MinZ = 0 ≤ MaxZ ≤ 1: the z clamp is min(max(z, 0), MaxZ)
  // stage 0 (stage_count 0 or 1); arguments are D3DTA selectors without modifiers
  bool stage = false;
  TextureOp color_op = TextureOp::kSelectArg1, alpha_op = TextureOp::kSelectArg1;
  std::uint8_t color_arg1 = 0, color_arg2 = 0, alpha_arg1 = 0, alpha_arg2 = 0;
  Color tfactor;
  // The stage is MODULATE of a bound texture and the diffuse colour (in either order),
  // its alpha is the same, DISABLE or not needed, alpha is needed only for blending, and
  // COLORWRITEENABLE writes every channel (write_all): the lean 32-bit kernels have a
  // copy with that stage written out and those flags constant, without a switch on op and
  // arguments in every block; every other copy (not lean, 16-bit, and the scalar and
  // SSE4.1 ones) takes the same written-out stage behind this flag.
  bool modulate = false;
  // its texture: 32-bit ARGB, no colour key, WRAP on powers of two or CLAMP; its levels
  // addressed as texel offsets from `texels` (level 0's first texel)
  const std::uint32_t* texels = nullptr;  // nullptr: the stage reads opaque white
  struct Level {
    std::int32_t width = 0, height = 0, pitch = 0, offset = 0;  // pitch and offset in texels
  };
  std::array<Level, kMaxMipLevels> levels{};
  bool tex_alpha = false, wrap_u = false, wrap_v = false;
  // Without per-quad LOD (no mip filter, MAG = MIN): every pixel reads `level` with
  // `tex_linear`. With it, the kernel asks choose_mip() per 2×2 quad.
  bool mip_lod = false, tex_linear = false;
  std::uint32_t level = 0;
  const TextureView* texture = nullptr;
  const SamplerState* sampler = nullptr;
  std::uint8_t texcoord_plane = 0;        // index of its u plane among the triangle's
  // after the stages: specular add, fog, alpha test (pixel.cpp: shade())
  bool specular = false;
  enum class Fog : std::uint8_t { kNone, kVertex, kTable } fog = Fog::kNone;
  FogMode fog_table = FogMode::kNone;
  bool fog_on_w = false;
  float fog_start = 0, fog_end = 1, fog_density = 1;
  Color fog_color;
  bool alpha_test = false;
  Compare alpha_func = Compare::kAlways;
  std::int32_t alpha_ref = 0;
  // Blending, one factor pair for all four channels. `src_alpha_over`: ADD of SRCALPHA
  // and INVSRCALPHA, the usual transparency, decided here once per state; the kernel
  // then computes 1 − αs once for the channels.
  struct BlendMode {
    Blend src = Blend::kOne, dst = Blend::kZero;
    BlendOp op = BlendOp::kAdd;
    Color constant;
    bool src_alpha_over = false;
  };
  BlendMode blend;
  // the surfaces' common extent: blocks reaching past it take the lane-by-lane path
  std::int32_t width = 0, height = 0;
  // no alpha test, specular, fog or depth bias, and z_clamp_plain: affine triangles take
  // the kernels' lean copy
  bool lean = false;
  // Alpha reaches the pixel (blending, the alpha test or a target that stores it):
  // otherwise the kernels compute none, and setup leaves the diffuse alpha plane out.
  bool need_alpha = true;
};

// Kernel variants, the template parameters of span_kernel.cpp: bit 0 depth, 1 texture
// stage, 2 blend. Index kKernelGeneric counts draws on the scalar pipeline.
inline constexpr std::size_t kBlockKernelVariants = 8;
inline constexpr std::size_t kKernelGeneric = kBlockKernelVariants;
static_assert(kKernelKeyCount == kBlockKernelVariants + 1);
using BlockKernelTable = std::array<BlockKernel, kBlockKernelVariants>;

// The tables of each compiled target (span_kernel.cpp); nullptr when the build lacks it.
const BlockKernelTable* block_kernels_scalar();
const BlockKernelTable* block_kernels_sse41();
const BlockKernelTable* block_kernels_avx2();
const BlockKernelTable* block_kernels_avx512();
const BlockKernelTable* block_kernels_neon();

// The table for `isa` (kAuto: the best this CPU runs); falls back to the best available.
const BlockKernelTable& block_kernels(Isa isa);

// Fills `out` and returns the variant index when the block kernels cover `state`; returns
// kKernelGeneric otherwise.
std::size_t prepare_fast_draw(const DrawState& state, FastDraw& out);

}  // namespace dp2::raster
