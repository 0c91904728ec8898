// The scene: primitives set up on the submitting thread and binned into 64×64 tiles.
// Internal to the rasterizer room.
//
// Fixed point: vertex positions are snapped to 1/256 pixel (kSubpixelBits = 8). Eight bits
// is the sub-pixel precision D3D10 hardware must have and what D3D9-class hardware offered;
// it makes shared edges exact (both triangles see the same snapped vertices) while keeping
// the edge-function products inside int64: with |coordinate| ≤ kGuardBand = 2^20 pixels,
// snapped values are ≤ 2^28, deltas ≤ 2^29, products ≤ 2^58 < 2^63.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "dp2raster/executor.h"
#include "dp2raster/pipeline.h"
#include "dp2raster/renderer.h"
#include "pixel.h"
#include "span.h"

namespace dp2::raster {

inline constexpr int kSubpixelBits = 8;
inline constexpr std::int64_t kSubpixelOne = std::int64_t{1} << kSubpixelBits;
inline constexpr float kGuardBand = 1048576.0f;  // 2^20 pixels either side of the origin

// The per-vertex inputs of attribute interpolation other than texture coordinates (lines
// and points interpolate from these; triangles from planes).
struct VertexAttributes {
  float z = 0, rhw = 1;
  Color diffuse, specular;
};
inline VertexAttributes attributes_of(const Vertex& v) { return {v.z, v.rhw, v.diffuse, v.specular}; }

// An attribute as a plane over the triangle, relative to its reference pixel (ox, oy):
//   value(x, y) = (ref + dx·fx) + dy·fy,   fx = float(x − ox), fy = float(y − oy),
// evaluated in float in exactly that order (no FMA: -ffp-contract=off) by the scalar path
// and by every SIMD kernel, so both give the same bits. The coefficients come from the
// snapped vertex positions in double (setup.cpp) and are rounded to float once.
// Trivial, so a TrianglePrim's planes cost nothing until set up: `Plane{}` is zero.
struct Plane {
  float ref, dx, dy;
  float at(float fx, float fy) const noexcept { return (ref + dx * fx) + dy * fy; }
};

// Which interpolation a triangle uses. Perspective-correct attributes are planes of a·rhw,
// divided per pixel by the plane of rhw (w = 1 / q, value = plane · w). When the three rhw
// are equal (every pre-transformed 2D draw) that quotient is the affine plane of a itself,
// so the triangle stores that and skips the division; eye w is then the constant 1 / rhw.
// A triangle with a non-positive or non-finite rhw has no meaningful perspective: affine,
// w = 1.
inline constexpr int kColorPlanes = 8;  // diffuse r, g, b, a, specular r, g, b, a
inline constexpr int kDiffusePlanes = 4;

// The cache line size the records are laid out and prefetched by (x86 and most Arm cores).
inline constexpr std::size_t kCacheLine = 64;

// A triangle keeps only what the raster reads (a full Vertex is ~180 bytes, mostly eight
// texture coordinate sets no stage may read): W4's million triangles must fit in memory.
//
// What it shares with the rest of its draw is one index into its chunk's draws
// (ChunkDraw), and its planes' reference pixel is its bounds' top-left corner, so the
// record is 2 cache lines, not 3: W4 writes, reorders and reads back a million a frame.
// Aligned to a cache line: a tile fetches exactly its lines (tile.cpp prefetches them),
// never a third one it straddles into.
struct alignas(kCacheLine) TrianglePrim {
  // User-provided, so a new triangle (emplace_back) is not zeroed first: its planes stay
  // uninitialised until set_up_planes writes every one (setup.cpp).
  TrianglePrim() noexcept {}

  std::uint32_t draw = 0;             // its draw in Chunk::draws
  // Snapped, oriented so the signed area is positive. |value| ≤ 2^28 (see above), so they
  // are stored in 32 bits; edge arithmetic widens them to int64 first, or works modulo
  // 2^32 where coverage.h shows every value it needs fits in int32 (`small`).
  std::int32_t x[3] = {}, y[3] = {};
  // One byte of flags (the record has no room for more).
  bool back_facing : 1 = false;       // counter-clockwise on screen (for two-sided stencil)
  bool perspective : 1 = false;       // planes hold a·rhw; divide by the q plane per pixel
  bool small : 1 = false;             // coverage.h's small_triangle(): int32 edge functions
  bool clipped : 1 = false;           // bounds are less than the vertices' pixel box
  // Colour channels that are constant (FLAT shading: the provoking vertex's diffuse and
  // specular rgb, never multiplied by w). Bit i = colour channel i (diffuse r, g, b, a,
  // then specular r, g, b, a).
  std::uint8_t flat_mask = 0;
  // Where the specular r, g, b, a planes start among the triangle's planes in
  // Chunk::planes; kNoSpecular when no pixel step reads the specular colour (it is 0).
  static constexpr std::uint8_t kNoSpecular = 0xFF;
  std::uint8_t specular = kNoSpecular;
  float w = 1.0f;                     // eye w when !perspective
  Plane z, q;                         // q: rhw (perspective only)
  Plane diffuse[kDiffusePlanes];      // r, g, b, a
  // The triangle's planes in Chunk::planes from index `planes`: u and v of each set in
  // sampled_texcoord_sets(*state), in ascending order, then the specular planes when
  // read. Out of line, so a triangle is 2 cache lines, not 4–5, for the tiles to fetch.
  std::uint32_t planes = 0;
  Rect bounds;                        // pixels, clipped to the draw's clip rect
  // The planes' reference pixel.
  std::int32_t ox() const noexcept { return bounds.left; }
  std::int32_t oy() const noexcept { return bounds.top; }
};
static_assert(sizeof(TrianglePrim) == 2 * kCacheLine, "a triangle record is two cache lines");

// What the triangles of one draw in one chunk share (TrianglePrim::draw indexes them).
struct ChunkDraw {
  const DrawState* state = nullptr;
  FragmentKernel kernel = nullptr;
  const FastDraw* fast = nullptr;  // the SIMD block kernel's view of the state, or none
};

struct LinePrim {
  const DrawState* state = nullptr;
  FragmentKernel kernel = nullptr;
  Vertex a, b;
  bool include_last = false;
  Color flat_diffuse, flat_specular;
  Rect bounds;
};

struct PointPrim {
  const DrawState* state = nullptr;
  FragmentKernel kernel = nullptr;
  Vertex v;
  Rect bounds;
};

// What one tile's rasterization counted (one per tile, written by the thread that owns
// the tile).
struct TileCounters {
  std::uint64_t pixels = 0;
  std::uint64_t entries = 0;  // bin entries run
};

struct BinEntry {
  enum class Kind : std::uint8_t { kClear, kTriangle, kLine, kPoint } kind;
  std::uint32_t index;  // into the chunk's array of that kind
};

// One producer's share of a scene: the primitives it set up, binned per tile, in
// submission order. The calling thread fills the "open" chunk with clears, lines, points
// and small draws; a large draw is split into ranges that workers set up in parallel,
// each into its own chunk. Tiles walk the chunks in order, so the per-tile order is the
// submission order whatever thread set a primitive up.
//
// Chunks are kept across flushes and their vectors keep their capacity: in steady state a
// draw allocates nothing (the scene's arena).
struct Chunk {
  std::vector<ClearCommand> clears;
  std::vector<ChunkDraw> draws;  // one per draw set up into this chunk
  std::vector<TrianglePrim> triangles;
  std::vector<Plane> planes;  // TrianglePrim::planes indexes this
  std::vector<LinePrim> lines;
  std::vector<PointPrim> points;
  // While filling: one row per (tile, entry). close() sorts them by tile (stably) into
  // `entries`, with tile t's entries at [offsets[t], offsets[t + 1]) of a grid `tiles_x`
  // wide and `tiles_y` high (the scene's grid when the chunk closed).
  struct Pending {
    std::uint16_t tx, ty;
    BinEntry entry;
  };
  std::vector<Pending> pending;
  std::vector<BinEntry> entries;
  std::vector<std::uint32_t> offsets;
  std::int32_t tiles_x = 0, tiles_y = 0;
  RendererStats stats;  // this chunk's setup counters; the scene sums them at flush
  // The batch of vertices setup fetched last (setup.cpp). Its capacity outlives a batch,
  // and so do its texture coordinate sets: vertex i's are zero from batch_sets[i] on, as
  // VertexFetch requires of the sets it does not write; batch_sets_most is at least the
  // largest batch_sets[i]. reset() leaves all three.
  std::vector<Vertex> vertex_batch;
  std::vector<std::uint8_t> batch_sets;
  std::uint8_t batch_sets_most = 0;
  // Scratch of close(), which moves `triangles` and their `planes` into tile order
  // (scene.cpp). The planes' copy keeps its capacity like the rest: with it a chunk holds
  // its planes twice at their peak: 24 bytes a triangle per sampled texture coordinate set
  // and 48 with specular (12-byte planes), beside the 128-byte records.
  std::vector<std::uint32_t> moved_to, comes_from;
  std::vector<Plane> planes_in_tile_order;

  // Adds `entry` to each tile `bounds` (inside the clip rect, so not negative) touches.
  // Inline for the common case of one tile (W4: nearly every triangle), where the
  // out-of-line call and its two loops cost more than the row they add; forced, as GCC
  // kept it out of line in setup. Unsigned, so the divisions are shifts.
  [[gnu::always_inline]] void bin(const Rect& bounds, BinEntry entry) {
    if (bounds.empty()) return;
    constexpr auto kSize = static_cast<std::uint32_t>(kTileSize);
    const auto left = static_cast<std::uint32_t>(bounds.left), top = static_cast<std::uint32_t>(bounds.top);
    const std::uint32_t tx = left / kSize, ty = top / kSize;
    if ((static_cast<std::uint32_t>(bounds.right) - 1) / kSize == tx &&
        (static_cast<std::uint32_t>(bounds.bottom) - 1) / kSize == ty)
      pending.push_back({static_cast<std::uint16_t>(tx), static_cast<std::uint16_t>(ty), entry});
    else
      bin_tiles(bounds, entry);
  }
  void bin_tiles(const Rect& bounds, BinEntry entry);
  void close(std::int32_t grid_x, std::int32_t grid_y);
  void order_triangles_by_tile();
  void order_planes_by_tile();
  void reset();
  std::size_t primitives() const noexcept { return triangles.size() + lines.size() + points.size() + clears.size(); }
};

struct Renderer::Scene {
  Scene(unsigned thread_count, HostExecutor host_executor) : executor(thread_count, host_executor) {}

  // Runs the tiles at flush and a large draw's setup rounds: the host's executor, TBB or
  // dp2's own pool, or the calling thread alone (executor.h).
  TileExecutor executor;
  bool generic_kernels = false;
  Isa isa = Isa::kAuto;
  // The block kernels' view of each draw state seen since the last flush (span.h), and
  // the last state looked up, since consecutive draws usually share one: whether it can
  // be drawn (setup.cpp: drawable), its kernel key and view.
  std::deque<FastDraw> fast_draws;
  const DrawState* fast_state = nullptr;
  bool fast_state_drawable = false;
  const FastDraw* fast_draw = nullptr;
  std::size_t fast_key = kKernelGeneric;
  // chunks[0, used) hold this scene, in submission order; `open` is the one the calling
  // thread appends to (nullptr: none yet).
  std::vector<std::unique_ptr<Chunk>> chunks;
  std::size_t used = 0;
  Chunk* open = nullptr;
  std::size_t primitives = 0;  // in closed chunks
  std::size_t primitive_budget = Renderer::kDefaultScenePrimitiveBudget;
  // The tile grid covers every target drawn since the last flush.
  std::int32_t tiles_x = 0, tiles_y = 0;
  RendererStats stats;
  std::vector<TileCounters> tile_counters;  // per tile, reused across flushes

  void ensure_grid(std::int32_t width, std::int32_t height);
  Chunk& acquire();
  Chunk& open_chunk();
  void close_open();
  // Rasterizes every chunk, tiles in parallel, and empties the scene (the per-state
  // kernel lookups stay: a draw may call this midway, scene.cpp).
  void render();
};

// Tile work, called per tile on a worker thread (tile.cpp).
void rasterize_tile(const Renderer::Scene& scene, std::int32_t tx, std::int32_t ty, TileCounters& counters);

}  // namespace dp2::raster
