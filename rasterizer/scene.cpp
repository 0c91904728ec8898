// The scene's bookkeeping: chunks (scene.h), the tile grid, and the flush that rasterizes
// the tiles in parallel. Called on the thread that calls the Renderer, except
// Chunk::bin / close, which also run on the setup workers (each on its own chunk).
#include <algorithm>

#include "dp2raster/float_env.h"
#include "scene.h"

namespace dp2::raster {

void Chunk::bin_tiles(const Rect& bounds, BinEntry entry) {
  const std::int32_t x0 = bounds.left / kTileSize, x1 = (bounds.right - 1) / kTileSize;
  const std::int32_t y0 = bounds.top / kTileSize, y1 = (bounds.bottom - 1) / kTileSize;
  for (std::int32_t ty = y0; ty <= y1; ++ty)
    for (std::int32_t tx = x0; tx <= x1; ++tx)
      pending.push_back({static_cast<std::uint16_t>(tx), static_cast<std::uint16_t>(ty), entry});
}

// A stable counting sort of the pending rows by tile.
void Chunk::close(std::int32_t grid_x, std::int32_t grid_y) {
  tiles_x = grid_x;
  tiles_y = grid_y;
  const std::size_t tiles = static_cast<std::size_t>(grid_x) * static_cast<std::size_t>(grid_y);
  offsets.assign(tiles + 1, 0);
  for (const Pending& p : pending) ++offsets[static_cast<std::size_t>(p.ty) * grid_x + p.tx + 1];
  for (std::size_t t = 0; t < tiles; ++t) offsets[t + 1] += offsets[t];
  entries.resize(pending.size());
  // offsets[t] doubles as tile t's write cursor, then is restored by the shift below.
  for (const Pending& p : pending) entries[offsets[static_cast<std::size_t>(p.ty) * grid_x + p.tx]++] = p.entry;
  for (std::size_t t = tiles; t > 0; --t) offsets[t] = offsets[t - 1];
  offsets[0] = 0;
  pending.clear();
  order_triangles_by_tile();
}

// Each triangle moves to the position of its first entry in tile order, so a tile reads
// the triangles only it holds (W4: almost all) from consecutive memory instead of a cache
// miss, often a TLB miss too, per triangle scattered through the chunk.
void Chunk::order_triangles_by_tile() {
  constexpr std::uint32_t kUnplaced = ~std::uint32_t{0};
  const auto n = static_cast<std::uint32_t>(triangles.size());
  if (n < 2) return;
  // moved_to: old index → new; comes_from: new index → old. Everything that may allocate
  // comes before the entries are rewritten, so a failed allocation leaves the chunk whole.
  moved_to.assign(n, kUnplaced);
  comes_from.resize(n);
  planes_in_tile_order.reserve(planes.size());
  std::uint32_t next = 0;
  for (BinEntry& e : entries) {
    if (e.kind != BinEntry::Kind::kTriangle) continue;
    std::uint32_t& to = moved_to[e.index];
    if (to == kUnplaced) {
      comes_from[next] = e.index;
      to = next++;
    }
    e.index = to;
  }
  for (std::uint32_t i = 0; i < n; ++i)
    if (moved_to[i] == kUnplaced) comes_from[next++] = i;  // binned nowhere (none today): kept, at the end
  order_planes_by_tile();
  // In place, one cycle at a time, one copy per record: a second array would double the
  // scene's largest part. A position is done once comes_from names itself.
  // A cycle reads its records at random places in the chunk, each read waiting on the one
  // before. The chain is known in advance, so a cursor kFollowAhead steps ahead fetches
  // the record the loop will read then (W4: this function's share of the samples 8.8% →
  // 6.4% in perf; the frame rate moved within the VM's noise). Past the cycle's end the
  // cursor reaches `start`, which then names itself, and stays there (a cycle shorter than
  // that goes round once more first: prefetches of records already read, harmless).
  constexpr std::uint32_t kFollowAhead = 8;
  const auto fetch_record = [&](std::uint32_t i) {
    const auto* p = reinterpret_cast<const char*>(&triangles[i]);
    for (std::size_t line = 0; line < sizeof(TrianglePrim); line += kCacheLine) __builtin_prefetch(p + line);
  };
  for (std::uint32_t start = 0; start < n; ++start) {
    if (comes_from[start] == start) continue;
    std::uint32_t ahead = start;
    for (std::uint32_t k = 0; k < kFollowAhead; ++k) fetch_record(ahead = comes_from[ahead]);
    const TrianglePrim first = triangles[start];
    std::uint32_t at = start;
    for (;;) {
      fetch_record(ahead = comes_from[ahead]);
      const std::uint32_t from = comes_from[at];
      comes_from[at] = at;
      if (from == start) {
        triangles[at] = first;
        break;
      }
      triangles[at] = triangles[from];
      at = from;
    }
  }
}

// The triangles' out-of-line planes (texture coordinates, specular) follow them into tile
// order, so a tile reads them from consecutive memory too: left in setup order, each
// textured triangle's first plane read was a cache miss (W5: 12% of the block kernel's
// time on that one load). Setup appends each triangle's planes after the previous
// triangle's (set_up_planes, right after the record is made), so triangle i's run ends
// where triangle i + 1's begins. Called between finding the order and moving the
// records: `comes_from` holds it and `moved_to` is free for the new offsets; the copy's
// capacity was reserved before the entries changed.
void Chunk::order_planes_by_tile() {
  if (planes.empty()) return;
  const auto n = static_cast<std::uint32_t>(triangles.size());
  planes_in_tile_order.clear();
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t old = comes_from[i];
    // Clamped, so a broken ordering of the runs would misdraw, never read out of bounds.
    const std::size_t end = std::min<std::size_t>(old + 1 < n ? triangles[old + 1].planes : planes.size(), planes.size());
    const std::size_t begin = std::min<std::size_t>(triangles[old].planes, end);
    moved_to[old] = static_cast<std::uint32_t>(planes_in_tile_order.size());
    planes_in_tile_order.insert(planes_in_tile_order.end(), planes.begin() + static_cast<std::ptrdiff_t>(begin),
                                planes.begin() + static_cast<std::ptrdiff_t>(end));
  }
  for (std::uint32_t i = 0; i < n; ++i) triangles[i].planes = moved_to[i];
  planes.swap(planes_in_tile_order);
}

void Chunk::reset() {
  clears.clear();
  draws.clear();
  triangles.clear();
  planes.clear();
  lines.clear();
  points.clear();
  pending.clear();
  entries.clear();
  offsets.clear();
  tiles_x = tiles_y = 0;
  stats = {};
}

void Renderer::Scene::ensure_grid(std::int32_t width, std::int32_t height) {
  tiles_x = std::max(tiles_x, (width + kTileSize - 1) / kTileSize);
  tiles_y = std::max(tiles_y, (height + kTileSize - 1) / kTileSize);
}

Chunk& Renderer::Scene::acquire() {
  if (used == chunks.size()) chunks.push_back(std::make_unique<Chunk>());
  Chunk& c = *chunks[used++];
  c.reset();
  return c;
}

Chunk& Renderer::Scene::open_chunk() {
  if (open == nullptr) open = &acquire();
  return *open;
}

void Renderer::Scene::close_open() {
  if (open == nullptr) return;
  open->close(tiles_x, tiles_y);
  primitives += open->primitives();
  open = nullptr;
}

namespace {
struct FlushContext {
  const Renderer::Scene* scene;
  std::vector<TileCounters>* counters;
};
// Runs on a worker: every chunk's entries for tile i, in chunk order.
void run_tile(void* ctx, std::size_t i) {
  auto* c = static_cast<FlushContext*>(ctx);
  const std::int32_t tx = static_cast<std::int32_t>(i % c->scene->tiles_x);
  const std::int32_t ty = static_cast<std::int32_t>(i / c->scene->tiles_x);
  rasterize_tile(*c->scene, tx, ty, (*c->counters)[i]);
}
}  // namespace

void Renderer::Scene::render() {
  close_open();
  const std::size_t tiles = static_cast<std::size_t>(tiles_x) * static_cast<std::size_t>(tiles_y);
  if (used > 0 && tiles > 0) {
    tile_counters.assign(tiles, TileCounters{});
    FlushContext ctx{this, &tile_counters};
    executor.for_each_tile(tiles, run_tile, &ctx);
    for (const TileCounters& c : tile_counters) {
      stats.pixels_shaded += c.pixels;
      stats.tiles_rasterized += c.entries ? 1 : 0;
    }
  }
  for (std::size_t i = 0; i < used; ++i) {
    const RendererStats& s = chunks[i]->stats;
    stats.triangles_binned += s.triangles_binned;
    stats.triangles_culled += s.triangles_culled;
    stats.primitives_rejected += s.primitives_rejected;
    for (std::size_t k = 0; k < kKernelKeyCount; ++k) stats.kernel_triangles[k] += s.kernel_triangles[k];
    chunks[i]->reset();
  }
  used = 0;
  primitives = 0;
}

Renderer::Renderer(unsigned threads, HostExecutor host) : scene_(std::make_unique<Scene>(threads, host)) {}
Renderer::~Renderer() = default;

const RendererStats& Renderer::stats() const noexcept { return scene_->stats; }

// Both invalidate the per-state kernel lookup, so the next draw picks the new choice.
void Renderer::set_generic_kernels(bool generic) noexcept {
  scene_->generic_kernels = generic;
  scene_->fast_state = nullptr;
}
void Renderer::set_isa(Isa isa) noexcept {
  scene_->isa = isa;
  scene_->fast_state = nullptr;
}
Isa Renderer::isa() const noexcept { return scene_->isa; }
void Renderer::set_scene_primitive_budget(std::size_t primitives) noexcept {
  scene_->primitive_budget = std::max<std::size_t>(primitives, 1);
}

void Renderer::flush() {
  const DefaultFloatEnvironment fp;  // the tiles that run on this thread
  Scene& scene = *scene_;
  scene.render();
  // The draw states die after the flush (renderer.h): forget what was looked up about them.
  scene.fast_draws.clear();
  scene.fast_state = nullptr;
  scene.fast_draw = nullptr;
}

}  // namespace dp2::raster
