// Per-tile rasterization: coverage of triangles (integer edge functions, top-left rule),
// lines and points, attribute interpolation, and clears. Called per tile on a worker
// thread; a tile touches only its own pixels.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "coverage.h"
#include "dp2raster/formats.h"
#include "pixel.h"
#include "scene.h"

namespace dp2::raster {
namespace {

Rect tile_rect(std::int32_t tx, std::int32_t ty) {
  return {tx * kTileSize, ty * kTileSize, (tx + 1) * kTileSize, (ty + 1) * kTileSize};
}

// Pixel x of row y, and the bytes per pixel.
std::byte* pixel_at(const ImageView& image, std::int32_t y, std::int32_t x, std::uint32_t& bytes) {
  bytes = format_info(image.format).bits_per_pixel / 8u;
  return image.data + static_cast<std::size_t>(y) * image.pitch + static_cast<std::size_t>(x) * bytes;
}

// Clears rewrite 16 bytes of pixels at a time as one GCC/Clang vector of 32-bit lanes (an
// SSE2 register on baseline x86-64, where this file is built; 32 bytes went through the
// stack there), then the rest one by one. One pixel at a time, the colour fill and the
// depth-only mask of a 640×480 frame were about 6% of the demo scene's time. Integer
// stores and and/or only: the bytes are those of the pixel loop.
typedef std::uint32_t ClearVector __attribute__((vector_size(16)));

// A pixel value repeated over a 32-bit lane: a 16-bit pixel fills both halves (a run of
// pixels starts on a pixel, so each lane holds two whole ones).
template <class T>
std::uint32_t lane_pattern(T v) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4);
  return sizeof(T) == 2 ? std::uint32_t{v} * 0x00010001u : std::uint32_t{v};
}

// n pixels of type T from `row` become (pixel & keep) | value; with kKeep false, value
// (no pixel is read).
template <class T, bool kKeep>
void rewrite_pixels(std::byte* row, std::size_t n, T keep, T value) {
  constexpr std::size_t kPerVector = sizeof(ClearVector) / sizeof(T);
  const ClearVector k = lane_pattern(keep) - ClearVector{}, v = lane_pattern(value) - ClearVector{};
  std::size_t i = 0;
  for (; i + kPerVector <= n; i += kPerVector) {
    ClearVector p = v;
    if constexpr (kKeep) {
      std::memcpy(&p, row + i * sizeof(T), sizeof p);
      p = (p & k) | v;
    }
    std::memcpy(row + i * sizeof(T), &p, sizeof p);
  }
  for (; i < n; ++i) {
    T p = value;
    if constexpr (kKeep) {
      std::memcpy(&p, row + i * sizeof(T), sizeof(T));
      p = static_cast<T>((p & keep) | value);
    }
    std::memcpy(row + i * sizeof(T), &p, sizeof(T));
  }
}

// Fills [x0, x1) of row y of `image` with the raw value `raw` (1, 2 or 4 bytes a pixel),
// or returns false for another size.
bool fill_row(const ImageView& image, std::int32_t y, std::int32_t x0, std::int32_t x1, std::uint32_t raw) {
  std::uint32_t bytes = 0;
  std::byte* row = pixel_at(image, y, x0, bytes);
  const std::size_t n = static_cast<std::size_t>(x1 - x0);
  switch (bytes) {
    case 1: std::memset(row, static_cast<int>(raw & 0xFFu), n); return true;
    case 2: rewrite_pixels<std::uint16_t, false>(row, n, 0, static_cast<std::uint16_t>(raw)); return true;
    case 4: rewrite_pixels<std::uint32_t, false>(row, n, 0, raw); return true;
    default: return false;
  }
}

// Pixels x0 ≤ x < x1 of row y become (raw & keep) | value, for 16- and 32-bit formats;
// returns false (nothing written) for other sizes.
bool mask_row(const ImageView& image, std::int32_t y, std::int32_t x0, std::int32_t x1, std::uint32_t keep,
              std::uint32_t value) {
  std::uint32_t bytes = 0;
  std::byte* row = pixel_at(image, y, x0, bytes);
  const std::size_t n = static_cast<std::size_t>(x1 - x0);
  switch (bytes) {
    case 2:
      rewrite_pixels<std::uint16_t, true>(row, n, static_cast<std::uint16_t>(keep), static_cast<std::uint16_t>(value));
      return true;
    case 4: rewrite_pixels<std::uint32_t, true>(row, n, keep, value); return true;
    default: return false;
  }
}

// A clear inside one tile. Whole pixels (the colour, or depth and stencil together) are
// written as the raw value the format functions give for the first pixel, row by row.
// Clearing depth or stencil alone keeps the other per pixel (and zeroes X bits, as
// write_depth_stencil does): each pixel keeps the raw bits of the field not cleared and
// takes the cleared field's bits, both found through the format functions on the first
// pixel — the same bytes as reading and rewriting every pixel.
void run_clear(const ClearCommand& c, const Rect& tile) {
  const Rect r = intersect(c.rect, tile);
  if (r.empty()) return;
  auto inside = [](const ImageView& v, const Rect& rr) {
    return rr.right <= static_cast<std::int32_t>(v.width) && rr.bottom <= static_cast<std::int32_t>(v.height);
  };
  const auto ux = static_cast<std::uint32_t>(r.left), uy = static_cast<std::uint32_t>(r.top);
  bool color = c.clear_color, depth = c.clear_depth || c.clear_stencil;
  if (color && inside(c.color, r)) {
    write_raw(c.color, ux, uy, c.color_raw);
    const std::uint32_t raw = read_raw(c.color, ux, uy);
    color = false;
    for (std::int32_t y = r.top; y < r.bottom && !color; ++y) color = !fill_row(c.color, y, r.left, r.right, raw);
  }
  const bool whole_depth = (c.clear_depth || format_info(c.depth.format).stencil_bits == 0) &&
                           (c.clear_stencil || format_info(c.depth.format).stencil_bits == 0);
  if (depth && whole_depth && c.clear_depth && inside(c.depth, r)) {
    write_depth_stencil(c.depth, ux, uy, c.depth_value, c.stencil_value);
    const std::uint32_t raw = read_raw(c.depth, ux, uy);
    depth = false;
    for (std::int32_t y = r.top; y < r.bottom && !depth; ++y) depth = !fill_row(c.depth, y, r.left, r.right, raw);
  } else if (depth && inside(c.depth, r)) {
    const std::uint32_t old = read_raw(c.depth, ux, uy);
    // keep: the bits of the field not cleared (all ones written into it, zero into the other).
    write_depth_stencil(c.depth, ux, uy, c.clear_depth ? 0u : ~0u, c.clear_stencil ? 0u : ~0u);
    const std::uint32_t keep = read_raw(c.depth, ux, uy);
    write_depth_stencil(c.depth, ux, uy, c.clear_depth ? c.depth_value : 0u, c.clear_stencil ? c.stencil_value : 0u);
    const std::uint32_t value = read_raw(c.depth, ux, uy) & ~keep;
    write_raw(c.depth, ux, uy, old);
    depth = false;
    for (std::int32_t y = r.top; y < r.bottom && !depth; ++y)
      depth = !mask_row(c.depth, y, r.left, r.right, keep, value);
  }
  if (!color && !depth) return;
  for (std::int32_t y = r.top; y < r.bottom; ++y)
    for (std::int32_t x = r.left; x < r.right; ++x) {
      const auto px = static_cast<std::uint32_t>(x), py = static_cast<std::uint32_t>(y);
      if (color && px < c.color.width && py < c.color.height) write_raw(c.color, px, py, c.color_raw);
      if (depth && px < c.depth.width && py < c.depth.height) {
        const std::uint32_t d = c.clear_depth ? c.depth_value : read_depth(c.depth, px, py);
        const std::uint32_t st = c.clear_stencil ? c.stencil_value : read_stencil(c.depth, px, py);
        write_depth_stencil(c.depth, px, py, d, st);
      }
    }
}

// Attribute interpolation at a point given barycentric weights (b0, b1, b2) that sum to 1.
// Colours and texture coordinates are perspective-correct: each is interpolated as a/w
// (a × rhw) and divided by the interpolated rhw. z is linear in screen space, as D3D's z.
// Triangles, lines and points share these functions, so they round alike.

// The weights for a/w attributes, and eye w (1 / interpolated rhw). With a non-positive or
// non-finite rhw there is no meaningful perspective: the screen-space weights are used as
// they are and w stays 1.
struct PerspectiveWeights {
  double p[3];
  float w;
};

PerspectiveWeights perspective_weights(const VertexAttributes (&v)[3], double b0, double b1, double b2) {
  PerspectiveWeights out{{b0, b1, b2}, 1.0f};
  const double q = b0 * v[0].rhw + b1 * v[1].rhw + b2 * v[2].rhw;
  if (q > 0.0 && std::isfinite(q)) {
    out.p[0] = b0 * v[0].rhw / q;
    out.p[1] = b1 * v[1].rhw / q;
    out.p[2] = b2 * v[2].rhw / q;
    out.w = static_cast<float>(1.0 / q);
  }
  return out;
}

float mix(const PerspectiveWeights& pw, float a0, float a1, float a2) {
  return static_cast<float>(pw.p[0] * a0 + pw.p[1] * a1 + pw.p[2] * a2);
}

// Texture coordinates of the sets in `sets` only (no stage samples the others, which keep
// whatever f holds — zero). `tex` lists, for each set in `sets` in ascending order, the
// coordinates of vertex 0, 1 and 2 (the layout of Scene::texcoords).
void interpolate_texcoords(Fragment& f, const PerspectiveWeights& pw, std::uint8_t sets,
                           const std::array<float, 4>* tex) {
  for (std::size_t s = 0; s < kMaxTextureCoordSets; ++s)
    if (sets & (1u << s)) {
      for (std::size_t c = 0; c < 4; ++c) f.tex[s][c] = mix(pw, tex[0][c], tex[1][c], tex[2][c]);
      tex += 3;
    }
}

// z, w and the colours.
void interpolate_attributes(Fragment& f, const VertexAttributes (&v)[3], double b0, double b1, double b2,
                            const PerspectiveWeights& pw, const Color& flat_diffuse, const Color& flat_specular,
                            Shade shade) {
  f.z = static_cast<float>(b0 * v[0].z + b1 * v[1].z + b2 * v[2].z);
  f.w = pw.w;
  auto mix_color = [&](const Color& c0, const Color& c1, const Color& c2) {
    return Color{mix(pw, c0.r, c1.r, c2.r), mix(pw, c0.g, c1.g, c2.g), mix(pw, c0.b, c1.b, c2.b),
                 mix(pw, c0.a, c1.a, c2.a)};
  };
  if (shade == Shade::kFlat) {
    f.diffuse = flat_diffuse;
    // Flat shading flattens the specular colour but not the fog factor in its alpha.
    f.specular = flat_specular;
    f.specular.a = mix(pw, v[0].specular.a, v[1].specular.a, v[2].specular.a);
  } else {
    f.diffuse = mix_color(v[0].diffuse, v[1].diffuse, v[2].diffuse);
    f.specular = mix_color(v[0].specular, v[1].specular, v[2].specular);
  }
}

// Whether some active stage samples a mipmappable texture, so a quad needs its LOD (and
// the texture coordinates of its uncovered "helper" pixels 0–2).
bool needs_lod(const DrawState& s) {
  for (std::uint32_t i = 0; i < s.stage_count; ++i)
    if (s.stages[i].texture && s.stages[i].texture->levels != 0) return true;
  return false;
}

// A triangle pixel's texture coordinates (u, v of the sampled sets; the others stay as f
// holds them) from the planes (scene.h). `w` is the pixel's eye w when perspective.
void texcoords_from_planes(Fragment& f, const TrianglePrim& t, const Plane* planes, std::uint8_t sets, float fx,
                           float fy, float w) {
  for (std::size_t s = 0; s < kMaxTextureCoordSets; ++s)
    if (sets & (1u << s)) {
      for (std::size_t c = 0; c < 2; ++c) {
        const float a = planes[c].at(fx, fy);
        f.tex[s][c] = t.perspective ? a * w : a;
      }
      planes += 2;
    }
}

// A triangle pixel's eye w, z and colours from the planes (`planes`: the triangle's in
// Chunk::planes). Specular is 0 when no step reads it (no planes were set up).
void attributes_from_planes(Fragment& f, const TrianglePrim& t, const Plane* planes, float fx, float fy, float w) {
  f.z = t.z.at(fx, fy);
  f.w = w;
  float c[kColorPlanes] = {};
  const int channels = t.specular == TrianglePrim::kNoSpecular ? kDiffusePlanes : kColorPlanes;
  for (int i = 0; i < channels; ++i) {
    const Plane& p = i < kDiffusePlanes ? t.diffuse[i] : planes[t.specular + i - kDiffusePlanes];
    const float a = p.at(fx, fy);
    c[i] = t.perspective && !((t.flat_mask >> i) & 1u) ? a * w : a;
  }
  f.diffuse = {c[0], c[1], c[2], c[3]};
  f.specular = {c[4], c[5], c[6], c[7]};
}

// Eye w at a pixel: 1 / q for a perspective triangle, the triangle's constant otherwise.
float eye_w(const TrianglePrim& t, float fx, float fy) { return t.perspective ? 1.0f / t.q.at(fx, fy) : t.w; }

// The three edge functions of a triangle at pixel centres, exact in int64 (scene.h bounds
// the products): E_e(px, py) = dx·(py·256 − y_e) − dy·(px·256 − x_e) + bias_e, and a pixel
// is covered when all three are ≥ 0. Edge e runs from vertex e to e + 1; with the
// positive orientation the inside is where every edge function is ≥ 0. Top-left rule
// (y down): an edge is "top" when it is horizontal and runs in +x, "left" when it runs in
// −y; centres exactly on any other edge are outside (bias −1), so each centre on a shared
// edge belongs to one triangle.
struct Edges {
  std::int64_t dx[3], dy[3], x0[3], y0[3], bias[3];
  explicit Edges(const TrianglePrim& t) {
    constexpr int kNext[3] = {1, 2, 0};
    for (int e = 0; e < 3; ++e) {
      const int b = kNext[e];
      dx[e] = std::int64_t{t.x[b]} - t.x[e];
      dy[e] = std::int64_t{t.y[b]} - t.y[e];
      x0[e] = t.x[e];
      y0[e] = t.y[e];
      bias[e] = top_left_bias(dx[e], dy[e]);
    }
  }
  std::int64_t at(int e, std::int32_t px, std::int32_t py) const {
    return dx[e] * ((std::int64_t{py} << kSubpixelBits) - y0[e]) - dy[e] * ((std::int64_t{px} << kSubpixelBits) - x0[e]) +
           bias[e];
  }
  // Whether the pixel rectangle [x, x + w) × [y, y + h) is wholly inside (+1), wholly
  // outside (−1) or cut by an edge (0): each edge function is linear, so its extremes over
  // the rectangle sit at corners.
  int classify(std::int32_t x, std::int32_t y, std::int32_t w, std::int32_t h) const {
    bool inside = true;
    for (int e = 0; e < 3; ++e) {
      const std::int64_t c = at(e, x, y);
      const LinearRange range = linear_range(-dy[e] * kSubpixelOne, dx[e] * kSubpixelOne, w, h);
      if (c + range.hi < 0) return -1;
      inside = inside && c + range.lo >= 0;
    }
    return inside ? 1 : 0;
  }
};

// The SIMD path (span.h): coverage of 4×2 blocks, then one block-kernel call for the lot.
// The blocks r touches: masks[row][col] is the block at (bx0 + 4·col, by0 + 2·row).
constexpr std::int32_t kBlockW = 4, kBlockH = 2;
constexpr std::int32_t kMaxCols = BlockGrid::kMaxCols, kMaxRows = BlockGrid::kMaxRows;
static_assert(kMaxCols * kBlockW == kTileSize && kMaxRows * kBlockH == kTileSize);
using BlockMasks = std::uint8_t[kMaxRows][kMaxCols];

// Clears the lanes of the border blocks that lie outside r. Lane i is at (i % 4, i / 4) in
// its block. The first column keeps the lanes from r.left − bx0 (0–3) on, the last those
// before r.right − its x (1–4), in both rows; the first row keeps the second row only when
// r.top is odd, the last row the first only when r.bottom is.
void trim_to_rect(BlockMasks& masks, const Rect& r, std::int32_t bx0, std::int32_t by0, std::int32_t rows,
                  std::int32_t cols) {
  const int skip_x = r.left - bx0, keep_x = r.right - (bx0 + (cols - 1) * kBlockW);
  const auto col_first = static_cast<std::uint8_t>(((0xF << skip_x) & 0xF) * 0x11);
  const auto col_last = static_cast<std::uint8_t>(((1 << keep_x) - 1) * 0x11);
  const std::uint8_t row_first = r.top - by0 == 0 ? 0xFF : 0xF0;
  const std::uint8_t row_last = r.bottom - (by0 + (rows - 1) * kBlockH) == kBlockH ? 0xFF : 0x0F;
  for (std::int32_t row = 0; row < rows; ++row) {
    masks[row][0] &= col_first;
    masks[row][cols - 1] &= col_last;
  }
  for (std::int32_t col = 0; col < cols; ++col) {
    masks[0][col] &= row_first;
    masks[rows - 1][col] &= row_last;
  }
}

// Any triangle, in exact int64 where needed, by hierarchical descent — the tile's part of
// the triangle, then 16×16 squares, then blocks, each wholly in, wholly out or split. A
// small grid (`small_grid`: at most kSmallBlocks blocks) skips the square level. Where a run of blocks' edge functions fit
// in int32 (coverage.h: GridEdges), four lanes are tested per add and the sign bits give
// the masks; elsewhere, inside a square, the int64 edge functions step from block to
// block by adds (exact, as everywhere), and only split blocks look at their pixels.
// Blocks found wholly inside keep every lane, so the caller trims the masks to r. Returns
// false when the triangle misses r.
bool cover_blocks_exact(const TrianglePrim& t, const Rect& r, std::int32_t bx0, std::int32_t by0, std::int32_t rows,
                        std::int32_t cols, bool small_grid, BlockMasks& masks) {
  constexpr std::int32_t kSquare = 16;
  static_assert(kTileSize % kSquare == 0 && kSquare % kBlockW == 0 && kSquare % kBlockH == 0);
  const Edges edges(t);
  // A small grid goes straight to its blocks; a larger one first asks whether the
  // triangle reaches r at all, or covers it whole.
  const int r_class = small_grid ? 0 : edges.classify(r.left, r.top, r.right - r.left, r.bottom - r.top);
  if (r_class < 0) return false;  // the triangle's bounds reach this tile, the triangle does not
  if (r_class == 1) {
    for (std::int32_t row = 0; row < rows; ++row) std::memset(masks[row], 0xFF, static_cast<std::size_t>(cols));
    return true;
  }
  // Per edge: the step one pixel right and down, and the block's extremes relative to its
  // origin.
  std::int64_t sx[3], sy[3], lo_off[3], hi_off[3];
  for (int e = 0; e < 3; ++e) {
    sx[e] = -edges.dy[e] * kSubpixelOne;
    sy[e] = edges.dx[e] * kSubpixelOne;
    const LinearRange block = linear_range(sx[e], sy[e], kBlockW, kBlockH);
    lo_off[e] = block.lo;
    hi_off[e] = block.hi;
  }
  // Each lane's offset from its block's origin, for the int64 split-block test; set up the
  // first time a run of blocks does not fit in int32.
  std::int64_t lane[3][8];
  bool lanes_set = false;
  // Blocks [c0, c1) × [w0, w1) (in block units of masks); `whole` says a square already
  // found them all inside.
  auto cover = [&](std::int32_t w0, std::int32_t w1, std::int32_t c0, std::int32_t c1, bool whole) {
    if (whole) {
      for (std::int32_t row = w0; row < w1; ++row) std::memset(&masks[row][c0], 0xFF, static_cast<std::size_t>(c1 - c0));
      return;
    }
    const std::int32_t x = bx0 + c0 * kBlockW, y = by0 + w0 * kBlockH;
    std::int64_t row0 = edges.at(0, x, y), row1 = edges.at(1, x, y), row2 = edges.at(2, x, y);
    GridEdges grid;
    if (grid_edges_fit({row0, row1, row2}, sx, sy, w1 - w0, c1 - c0, grid)) {
      grid_block_masks(grid, w1 - w0, c1 - c0, &masks[w0][c0], kMaxCols);
      return;
    }
    if (!lanes_set) {
      for (int e = 0; e < 3; ++e)
        for (int i = 0; i < 4; ++i) {  // adds: AVX2 has no 64-bit multiply
          lane[e][i] = i == 0 ? 0 : lane[e][i - 1] + sx[e];
          lane[e][i + 4] = lane[e][i] + sy[e];
        }
      lanes_set = true;
    }
    for (std::int32_t row = w0; row < w1; ++row) {
      std::int64_t e0 = row0, e1 = row1, e2 = row2;
      for (std::int32_t col = c0; col < c1; ++col) {
        int m = 0;
        if (e0 + hi_off[0] >= 0 && e1 + hi_off[1] >= 0 && e2 + hi_off[2] >= 0) {  // not wholly outside
          if (e0 + lo_off[0] >= 0 && e1 + lo_off[1] >= 0 && e2 + lo_off[2] >= 0) {
            m = 0xFF;
          } else {
            m = split_block_mask(e0, e1, e2, lane);
          }
        }
        masks[row][col] = static_cast<std::uint8_t>(m);
        e0 += kBlockW * sx[0];
        e1 += kBlockW * sx[1];
        e2 += kBlockW * sx[2];
      }
      row0 += kBlockH * sy[0];
      row1 += kBlockH * sy[1];
      row2 += kBlockH * sy[2];
    }
  };
  if (small_grid) {
    cover(0, rows, 0, cols, false);
    return true;
  }
  // Squares of kSquare pixels aligned in the tile; rows and columns in block units.
  constexpr std::int32_t kSqCols = kSquare / kBlockW, kSqRows = kSquare / kBlockH;
  const std::int32_t col_base = (bx0 & (kSquare - 1)) / kBlockW, row_base = (by0 & (kSquare - 1)) / kBlockH;
  for (std::int32_t w0 = 0; w0 < rows; w0 = (w0 + row_base) / kSqRows * kSqRows + kSqRows - row_base) {
    const std::int32_t w1 = std::min(rows, (w0 + row_base) / kSqRows * kSqRows + kSqRows - row_base);
    for (std::int32_t c0 = 0; c0 < cols; c0 = (c0 + col_base) / kSqCols * kSqCols + kSqCols - col_base) {
      const std::int32_t c1 = std::min(cols, (c0 + col_base) / kSqCols * kSqCols + kSqCols - col_base);
      const Rect sq = intersect({bx0 + c0 * kBlockW, by0 + w0 * kBlockH, bx0 + c1 * kBlockW, by0 + w1 * kBlockH}, r);
      const int sq_class = edges.classify(sq.left, sq.top, sq.right - sq.left, sq.bottom - sq.top);
      if (sq_class < 0) {
        for (std::int32_t row = w0; row < w1; ++row)
          for (std::int32_t col = c0; col < c1; ++col) masks[row][col] = 0;
        continue;
      }
      cover(w0, w1, c0, c1, sq_class == 1);
    }
  }
  return true;
}

void raster_triangle_blocks(const Chunk& chunk, const FastDraw& fast, const TrianglePrim& t, const Rect& r,
                            TileCounters& counters) {
  // Up to this many blocks (4,096 pixels, 32×32 for one), testing every block beats
  // classifying squares first: the int32 grid masks cost a few instructions a block,
  // while a square's int64 classification pays off only where a triangle holds or misses
  // whole 16×16 squares, which one this small seldom does. W5's ~200-pixel triangles
  // (about 70 blocks) gained 9% at 2 threads and 16% at 1 over a limit of 16.
  constexpr std::int32_t kSmallBlocks = 128;
  const std::int32_t bx0 = r.left & ~(kBlockW - 1), by0 = r.top & ~(kBlockH - 1);
  const std::int32_t cols = ((r.right - 1) & ~(kBlockW - 1)) / kBlockW - bx0 / kBlockW + 1;
  const std::int32_t rows = ((r.bottom - 1) & ~(kBlockH - 1)) / kBlockH - by0 / kBlockH + 1;
  const bool small_grid = rows * cols <= kSmallBlocks;
  BlockMasks masks;
  if (small_grid && t.small) {
    // A small triangle (every W4 and W5 one): its edge functions in int32 straight from
    // its vertices (the grid lies within coverage.h's reach: its pixels are at most 3
    // columns or 1 row outside the bounds), every lane tested. No lane outside the
    // vertices' pixel box passes, and blocks never cross a tile's edge, so only a clipped
    // triangle's masks need trimming; an unclipped one's the kernel finds itself.
    const GridEdges edges = small_triangle_edges<kSubpixelBits>(t.x, t.y, bx0, by0);
    if (!t.clipped) return fast.kernel(fast, t, chunk.planes.data() + t.planes, {bx0, by0, rows, cols, nullptr, &edges},
                                       counters);
    if (grid_block_masks(edges, rows, cols, &masks[0][0], kMaxCols) == 0) return;  // no centre covered
    trim_to_rect(masks, r, bx0, by0, rows, cols);
  } else {
    if (!cover_blocks_exact(t, r, bx0, by0, rows, cols, small_grid, masks)) return;
    trim_to_rect(masks, r, bx0, by0, rows, cols);
    if (small_grid) {  // the test classify would have made: is any pixel covered at all?
      std::uint8_t any = 0;
      for (std::int32_t row = 0; row < rows; ++row)
        for (std::int32_t col = 0; col < cols; ++col) any |= masks[row][col];
      if (any == 0) return;
    }
  }
  fast.kernel(fast, t, chunk.planes.data() + t.planes, {bx0, by0, rows, cols, masks, nullptr}, counters);
}

void raster_triangle(const Chunk& chunk, const TrianglePrim& t, const Rect& tile, TileCounters& counters) {
  const Rect r = intersect(t.bounds, tile);
  if (r.empty()) return;
  const ChunkDraw& draw = chunk.draws[t.draw];
  if (draw.fast) return raster_triangle_blocks(chunk, *draw.fast, t, r, counters);
  // Edge i runs from vertex i to vertex i+1; with the positive orientation the inside is
  // where every edge function is ≥ 0. Top-left rule (y down): an edge is "top" when it is
  // horizontal and runs in +x, "left" when it runs in −y; pixel centres exactly on any
  // other edge are outside, so each centre on a shared edge belongs to one triangle.
  //
  // The edge functions are exact int64 (scene.h bounds the products), so stepping them by
  // adds — `step_x` per pixel right, `step_y` per pixel down — gives the very values
  // evaluating them at each pixel would.
  std::int64_t bias[3], step_x[3], step_y[3], row[3];
  const std::int32_t qx0 = r.left & ~1, qy0 = r.top & ~1;
  for (int e = 0; e < 3; ++e) {
    const int b = (e + 1) % 3;
    const std::int64_t dx = std::int64_t{t.x[b]} - t.x[e], dy = std::int64_t{t.y[b]} - t.y[e];
    bias[e] = top_left_bias(dx, dy);
    step_x[e] = -dy * kSubpixelOne;
    step_y[e] = dx * kSubpixelOne;
    const std::int64_t sx = std::int64_t{qx0} << kSubpixelBits, sy = std::int64_t{qy0} << kSubpixelBits;
    row[e] = dx * (sy - t.y[e]) - dy * (sx - t.x[e]);
  }
  const DrawState& s = *draw.state;
  const bool lod_needed = needs_lod(s);
  const std::uint8_t sets = sampled_texcoord_sets(s);  // the layout setup stored them in
  const Plane* planes = chunk.planes.data() + t.planes;  // texture coordinates first
  // Reused for every quad: each field the kernel reads is rewritten per pixel, and the
  // texture coordinate sets no stage samples stay zero.
  Fragment frag[4];
  for (Fragment& f : frag) f.back_facing = t.back_facing;
  // Walk 2×2 quads aligned to even coordinates, so derivatives (and so LOD) do not depend
  // on where a triangle starts.
  for (std::int32_t qy = qy0; qy < r.bottom; qy += 2, row[0] += 2 * step_y[0], row[1] += 2 * step_y[1],
                    row[2] += 2 * step_y[2]) {
    std::int64_t quad[3] = {row[0], row[1], row[2]};
    for (std::int32_t qx = qx0; qx < r.right; qx += 2, quad[0] += 2 * step_x[0], quad[1] += 2 * step_x[1],
                      quad[2] += 2 * step_x[2]) {
      bool covered[4];
      bool any = false;
      for (int i = 0; i < 4; ++i) {
        const std::int32_t px = qx + (i & 1), py = qy + (i >> 1);
        bool inside = px >= r.left && px < r.right && py >= r.top && py < r.bottom;
        for (int e = 0; e < 3; ++e)
          inside = inside && quad[e] + (i & 1) * step_x[e] + (i >> 1) * step_y[e] + bias[e] >= 0;
        covered[i] = inside;
        any = any || inside;
      }
      if (!any) continue;
      for (int i = 0; i < 4; ++i) {
        // Helper pixels (uncovered, 0–2) need only their texture coordinates, for the LOD.
        const bool helper = !covered[i] && lod_needed && i < 3;
        if (!covered[i] && !helper) continue;
        const float fx = static_cast<float>(qx + (i & 1) - t.ox()), fy = static_cast<float>(qy + (i >> 1) - t.oy());
        const float w = eye_w(t, fx, fy);
        texcoords_from_planes(frag[i], t, planes, sets, fx, fy, w);
        if (helper) continue;
        attributes_from_planes(frag[i], t, planes, fx, fy, w);
        frag[i].x = qx + (i & 1);
        frag[i].y = qy + (i >> 1);
      }
      std::array<float, kMaxTextureStages> lod{};
      if (lod_needed) {
        const std::array<std::array<float, 4>, kMaxTextureCoordSets>* coords[3] = {&frag[0].tex, &frag[1].tex,
                                                                                   &frag[2].tex};
        quad_lods(s, coords, lod);
      }
      for (int i = 0; i < 4; ++i)
        if (covered[i]) {
          frag[i].lod = lod;
          counters.pixels += draw.kernel(s, frag[i]) ? 1 : 0;
        }
    }
  }
}

// Texture coordinates of (a, b, c) in the layout interpolate_texcoords reads.
struct TexcoordTriple {
  std::array<std::array<float, 4>, 3 * kMaxTextureCoordSets> coords;
  TexcoordTriple(std::uint8_t sets, const Vertex& a, const Vertex& b, const Vertex& c) {
    std::size_t n = 0;
    for (std::size_t s = 0; s < kMaxTextureCoordSets; ++s)
      if (sets & (1u << s)) {
        coords[n++] = a.tex[s];
        coords[n++] = b.tex[s];
        coords[n++] = c.tex[s];
      }
  }
};

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
  const VertexAttributes tri[3] = {attributes_of(l.a), attributes_of(l.b), attributes_of(l.b)};
  const TexcoordTriple tex(s.texcoord_sets, l.a, l.b, l.b);
  // Only the steps whose major coordinate lies in this tile, in the line's order: a line
  // is walked in every tile its bounds touch, and walking all of it in each made one
  // across the guard band take seconds.
  const std::int32_t tile_low = x_major ? r.left : r.top, tile_high = (x_major ? r.right : r.bottom) - 1;
  const std::int32_t low = std::max(step > 0 ? first : stop + 1, tile_low);
  const std::int32_t high = std::min(step > 0 ? stop - 1 : first, tile_high);
  for (std::int32_t k = 0; k <= high - low; ++k) {
    const std::int32_t m = step > 0 ? low + k : high - k;
    const float t = major_len == 0.0f ? 0.0f : std::clamp((static_cast<float>(m) - start) / major_len, 0.0f, 1.0f);
    const float minor = x_major ? l.a.y + t * dy : l.a.x + t * dx;
    const std::int32_t n = static_cast<std::int32_t>(std::floor(minor + 0.5f));
    const std::int32_t px = x_major ? m : n, py = x_major ? n : m;
    if (px < r.left || px >= r.right || py < r.top || py >= r.bottom) continue;
    Fragment f;
    const PerspectiveWeights pw = perspective_weights(tri, 1.0 - t, t, 0.0);
    interpolate_texcoords(f, pw, s.texcoord_sets, tex.coords.data());
    interpolate_attributes(f, tri, 1.0 - t, t, 0.0, pw, l.flat_diffuse, l.flat_specular, s.shade);
    f.x = px;
    f.y = py;
    counters.pixels += l.kernel(s, f) ? 1 : 0;  // lines sample at LOD 0
  }
}

void raster_point(const PointPrim& p, const Rect& tile, TileCounters& counters) {
  const Rect r = intersect(p.bounds, tile);
  const DrawState& s = *p.state;
  const VertexAttributes tri[3] = {attributes_of(p.v), attributes_of(p.v), attributes_of(p.v)};
  const TexcoordTriple tex(s.texcoord_sets, p.v, p.v, p.v);
  for (std::int32_t y = r.top; y < r.bottom; ++y)
    for (std::int32_t x = r.left; x < r.right; ++x) {
      Fragment f;
      const PerspectiveWeights pw = perspective_weights(tri, 1.0, 0.0, 0.0);
      interpolate_texcoords(f, pw, s.texcoord_sets, tex.coords.data());
      interpolate_attributes(f, tri, 1.0, 0.0, 0.0, pw, p.v.diffuse, p.v.specular, s.shade);
      f.x = x;
      f.y = y;
      counters.pixels += p.kernel(s, f) ? 1 : 0;
    }
}

}  // namespace

// How many bin entries ahead a tile prefetches triangle records.
constexpr std::uint32_t kPrefetchDistance = 4;

void rasterize_tile(const Renderer::Scene& scene, std::int32_t tx, std::int32_t ty, TileCounters& counters) {
  const Rect tile = tile_rect(tx, ty);
  for (std::size_t c = 0; c < scene.used; ++c) {
    const Chunk& chunk = *scene.chunks[c];
    if (tx >= chunk.tiles_x || ty >= chunk.tiles_y) continue;  // the grid grew after it closed
    const std::size_t t = static_cast<std::size_t>(ty) * chunk.tiles_x + tx;
    const std::uint32_t end = chunk.offsets[t + 1];
    for (std::uint32_t k = chunk.offsets[t]; k < end; ++k) {
      const BinEntry& e = chunk.entries[k];
      // A tile reads its triangles scattered through the chunk: fetch the records a few
      // entries ahead so their cache misses overlap with this one's work.
      if (k + kPrefetchDistance < end) {
        const BinEntry& ahead = chunk.entries[k + kPrefetchDistance];
        if (ahead.kind == BinEntry::Kind::kTriangle) {
          const auto* p = reinterpret_cast<const char*>(&chunk.triangles[ahead.index]);
          for (std::size_t line = 0; line < sizeof(TrianglePrim); line += kCacheLine) __builtin_prefetch(p + line);
        }
      }
      ++counters.entries;
      switch (e.kind) {
        case BinEntry::Kind::kClear: run_clear(chunk.clears[e.index], tile); break;
        case BinEntry::Kind::kTriangle: raster_triangle(chunk, chunk.triangles[e.index], tile, counters); break;
        case BinEntry::Kind::kLine: raster_line(chunk.lines[e.index], tile, counters); break;
        case BinEntry::Kind::kPoint: raster_point(chunk.points[e.index], tile, counters); break;
      }
    }
  }
}

}  // namespace dp2::raster
