// Primitive assembly, triangle setup and binning, with the vertex fetch that feeds them.
// A small draw runs on the thread that calls Renderer::draw (the device's), a large one
// in chunks on the workers, before draw() returns; the tiles run later, in flush().
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "coverage.h"
#include "dp2raster/float_env.h"
#include "dp2raster/formats.h"
#include "scene.h"

namespace dp2::raster {

namespace {

bool usable(const Vertex& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::fabs(v.x) <= kGuardBand && std::fabs(v.y) <= kGuardBand;
}

// c·256 rounded half to even, as std::nearbyint in the default rounding mode, without its
// library call: adding and taking away 1.5·2^52 leaves no fraction bits, so the FPU
// rounds there, exactly for |c·256| < 2^51 (usable() bounds it by 2^28). Only where
// doubles are evaluated as doubles: x87 code (FLT_EVAL_METHOD 2) keeps 64-bit mantissas
// and would carry the fraction through, so it calls nearbyint.
std::int64_t snap(float c) {
  const double scaled = double{c} * double(kSubpixelOne);
  if constexpr (FLT_EVAL_METHOD == 0) {
    constexpr double kRoundingShift = 6755399441055744.0;  // 1.5 · 2^52
    return static_cast<std::int64_t>((scaled + kRoundingShift) - kRoundingShift);
  } else {
    return static_cast<std::int64_t>(std::nearbyint(scaled));
  }
}

// The pixels whose centres lie in the snapped box [x_lo, x_hi] × [y_lo, y_hi]: from the
// smallest whose centre is ≥ the low side to the largest ≤ the high one. A triangle covers
// no centre outside the box of its vertices, so this bounds it before clipping; whether
// clipping cut it (TrianglePrim::clipped) tells the tiles whether its blocks need trimming.
Rect pixel_bounds(std::int64_t x_lo, std::int64_t y_lo, std::int64_t x_hi, std::int64_t y_hi) {
  auto ceil_pixel = [](std::int64_t s) { return static_cast<std::int32_t>((s + kSubpixelOne - 1) >> kSubpixelBits); };
  auto floor_pixel = [](std::int64_t s) { return static_cast<std::int32_t>(s >> kSubpixelBits); };
  return {ceil_pixel(x_lo), ceil_pixel(y_lo), floor_pixel(x_hi) + 1, floor_pixel(y_hi) + 1};
}

// What Renderer::draw and ::clear require beyond the types (renderer.h). They run on the
// thread that calls the Renderer. Such states come only from callers of the C++ API (the
// device never makes one); a fuzzing pass over it found each one reading or writing
// outside a buffer, or overflowing.

// Not negative and no larger than any surface: a rect past kMaxSurfaceDimension would size
// the tile grid, and its arithmetic, beyond any target.
bool rect_in_limits(const Rect& r) {
  constexpr auto kLimit = static_cast<std::int32_t>(kMaxSurfaceDimension);
  return r.left >= 0 && r.top >= 0 && r.right <= kLimit && r.bottom <= kLimit;
}

// Whether an image's pitch holds a row of `format` pixels: the pixel code reads and writes
// rows of the format it is given, so a smaller pitch (say, a level described in a smaller
// format than its texture's) would reach past the buffer.
bool rows_fit(const ImageView& image, Format format) { return image.pitch >= format_row_bytes(format, image.width); }

// A texture level: one without memory reads as nothing (the sampler skips it).
bool level_fits(const ImageView& level, Format format) { return level.data == nullptr || rows_fit(level, format); }

// A target the pixel code writes: with a format and pixels, it must have the memory.
bool target_fits(const ImageView& target) {
  if (target.format == Format::kUnknown || target.width == 0 || target.height == 0) return true;
  return target.data != nullptr && rows_fit(target, target.format);
}

bool drawable(const DrawState& s) {
  if (s.stage_count > kMaxTextureStages || !rect_in_limits(s.clip)) return false;
  if (!target_fits(s.color) || !target_fits(s.depth)) return false;
  for (std::uint32_t i = 0; i < s.stage_count; ++i) {
    const TextureView* t = s.stages[i].texture;
    if (t == nullptr) continue;
    for (std::uint32_t l = 0; l < std::min(t->levels, kMaxMipLevels); ++l)
      if (!level_fits(t->level[l], t->format)) return false;
  }
  return true;
}

bool clearable(const ClearCommand& c) { return rect_in_limits(c.rect) && target_fits(c.color) && target_fits(c.depth); }

}  // namespace

void Renderer::clear(const ClearCommand& clear) {
  if (clear.rect.empty()) return;
  if (!clearable(clear)) {
    ++scene_->stats.commands_rejected;
    return;
  }
  scene_->ensure_grid(clear.rect.right, clear.rect.bottom);
  Chunk& chunk = scene_->open_chunk();
  chunk.clears.push_back(clear);
  chunk.bin(clear.rect, {BinEntry::Kind::kClear, static_cast<std::uint32_t>(chunk.clears.size() - 1)});
}

namespace {

// Line setup shared by line lists, strips and wireframe edges. The pixels a line lights
// are decided per tile (tile.cpp); here only its bounds.
void add_line(Chunk& scene, const DrawState& state, FragmentKernel kernel, const Vertex& a, const Vertex& b,
              bool include_last, const Vertex& provoking) {
  if (!usable(a) || !usable(b)) {
    ++scene.stats.primitives_rejected;
    return;
  }
  LinePrim line{&state, kernel, a, b, include_last, provoking.diffuse, provoking.specular, {}};
  const float x0 = std::min(a.x, b.x), x1 = std::max(a.x, b.x), y0 = std::min(a.y, b.y), y1 = std::max(a.y, b.y);
  // Pixels whose centre rounds from the segment (floor(c + 0.5)), one pixel of margin.
  const Rect r{static_cast<std::int32_t>(std::floor(x0 + 0.5f)) - 1, static_cast<std::int32_t>(std::floor(y0 + 0.5f)) - 1,
               static_cast<std::int32_t>(std::floor(x1 + 0.5f)) + 2, static_cast<std::int32_t>(std::floor(y1 + 0.5f)) + 2};
  line.bounds = intersect(r, state.clip);
  if (line.bounds.empty()) return;
  scene.lines.push_back(line);
  scene.bin(line.bounds, {BinEntry::Kind::kLine, static_cast<std::uint32_t>(scene.lines.size() - 1)});
}

void add_point(Chunk& scene, const DrawState& state, FragmentKernel kernel, const Vertex& v) {
  if (!usable(v)) {
    ++scene.stats.primitives_rejected;
    return;
  }
  // A point of size s covers the pixel centres (i, j) with x − s/2 ≤ i < x + s/2 (and the
  // same in y): the top-left rule applied to the point's square.
  // D3DFVF_PSIZE wins over D3DRS_POINTSIZE; either is clamped to [POINTSIZE_MIN, _MAX],
  // the minimum at least 1 pixel. A maximum below the minimum gives the minimum (dp2's
  // reading; the states' page leaves it open), a non-finite limit is no limit, and
  // neither reaches past the guard band, so the square's corners stay within int32.
  const auto finite_or = [](float f, float fallback) { return std::isfinite(f) ? f : fallback; };
  const float size = v.point_size > 0.0f ? v.point_size : state.point_size;
  const float lo = std::clamp(finite_or(state.point_size_min, 1.0f), 1.0f, kGuardBand);
  const float hi = std::clamp(finite_or(state.point_size_max, kGuardBand), lo, kGuardBand);
  const float half = std::clamp(finite_or(size, 1.0f), lo, hi) * 0.5f;
  const Rect r{static_cast<std::int32_t>(std::ceil(v.x - half)), static_cast<std::int32_t>(std::ceil(v.y - half)),
               static_cast<std::int32_t>(std::ceil(v.x + half)), static_cast<std::int32_t>(std::ceil(v.y + half))};
  PointPrim p{&state, kernel, v, intersect(r, state.clip)};
  if (p.bounds.empty()) return;
  scene.points.push_back(p);
  scene.bin(p.bounds, {BinEntry::Kind::kPoint, static_cast<std::uint32_t>(scene.points.size() - 1)});
}

bool wraps(const DrawState& state) {
  return std::any_of(std::begin(state.wrap.set_mask), std::end(state.wrap.set_mask), [](std::uint8_t m) { return m != 0; });
}

// D3DRS_WRAPn: a wrapped coordinate interpolates the short way around the unit cylinder,
// so each vertex's value is moved by whole units to lie within 0.5 of the first vertex's.
void apply_wrap(const DrawState& state, Vertex& a, Vertex& b, Vertex& c) {
  for (std::size_t set = 0; set < kMaxTextureCoordSets; ++set) {
    const std::uint8_t mask = state.wrap.set_mask[set];
    if (mask == 0) continue;
    for (std::size_t k = 0; k < 4; ++k) {
      if (!(mask & (1u << k))) continue;
      const float origin = a.tex[set][k];
      for (Vertex* v : {&b, &c}) {
        float& t = v->tex[set][k];
        if (!std::isfinite(t) || !std::isfinite(origin)) continue;
        t -= std::round(t - origin);  // now |t − origin| ≤ 0.5
      }
    }
  }
}

// The plane through (X_i, Y_i, a_i) for the snapped positions of a set-up triangle, in
// double, rounded to float once (scene.h: Plane). det is twice the area in pixels².
class PlaneBuilder {
 public:
  // area: twice the triangle's area in subpixel² units, > 0.
  PlaneBuilder(const TrianglePrim& t, std::int64_t area) {
    for (int i = 0; i < 3; ++i) {
      px_[i] = static_cast<double>(t.x[i]) / static_cast<double>(kSubpixelOne);
      py_[i] = static_cast<double>(t.y[i]) / static_cast<double>(kSubpixelOne);
    }
    inv_det_ = static_cast<double>(kSubpixelOne) * static_cast<double>(kSubpixelOne) / static_cast<double>(area);
    ox_ = t.ox();
    oy_ = t.oy();
  }
  Plane operator()(double a0, double a1, double a2) const noexcept {
    const double ex1 = px_[1] - px_[0], ey1 = py_[1] - py_[0], ex2 = px_[2] - px_[0], ey2 = py_[2] - py_[0];
    const double da1 = a1 - a0, da2 = a2 - a0;
    const double dx = (da1 * ey2 - da2 * ey1) * inv_det_;
    const double dy = (da2 * ex1 - da1 * ex2) * inv_det_;
    const double ref = a0 + dx * (ox_ - px_[0]) + dy * (oy_ - py_[0]);
    return {static_cast<float>(ref), static_cast<float>(dx), static_cast<float>(dy)};
  }
  static Plane constant(float a) noexcept { return {a, 0.0f, 0.0f}; }

 private:
  double px_[3], py_[3], inv_det_ = 0;
  double ox_ = 0, oy_ = 0;
};

// Whether a pixel step reads the specular colour: the specular add, vertex fog (its
// factor is specular alpha), or a stage argument D3DTA_SPECULAR.
bool reads_specular(const DrawState& s) {
  if (s.specular || (s.fog && s.fog_table == FogMode::kNone)) return true;
  for (std::uint32_t i = 0; i < s.stage_count; ++i) {
    const StageState& st = s.stages[i];
    for (int a = 0; a < 3; ++a)
      if ((st.color_arg[a] & kArgSelectMask) == kArgSpecular || (st.alpha_arg[a] & kArgSelectMask) == kArgSpecular)
        return true;
  }
  return false;
}

// What one draw's primitive setup needs, for the calling thread or a worker.
struct DrawJob {
  const DrawState* state;
  FragmentKernel kernel;
  const FastDraw* fast;
  std::size_t key;
  Topology topology;
  std::size_t count;  // primitives in the whole draw
  VertexFetch vertices;
  std::span<const std::uint32_t> indices, edge_flags;
  std::uint8_t sampled_sets;  // sampled_texcoord_sets(*state): the u, v planes set up
  bool specular_planes;       // some pixel step reads the specular colour
  bool wraps;                 // some D3DRS_WRAPn is set (apply_wrap)
  // Some pixel step reads the diffuse alpha: always on the scalar path; on the block
  // kernels only when they compute alpha (FastDraw::need_alpha).
  bool diffuse_alpha;
};

// Interpolation planes of z, rhw, the colours and the sampled texture coordinates
// (scene.h says how they are evaluated). `v` is in the triangle's oriented order; `area`
// is twice its area in subpixel² units.
void set_up_planes(TrianglePrim& t, std::int64_t area, const DrawJob& job, const Vertex* const (&v)[3],
                   std::vector<Plane>& planes) {
  const DrawState& state = *job.state;
  const PlaneBuilder plane(t, area);
  const float r0 = v[0]->rhw, r1 = v[1]->rhw, r2 = v[2]->rhw;
  const bool valid = std::isfinite(r0) && std::isfinite(r1) && std::isfinite(r2) && r0 > 0 && r1 > 0 && r2 > 0;
  t.perspective = valid && !(r0 == r1 && r1 == r2);
  t.w = valid && !t.perspective ? 1.0f / r0 : 1.0f;
  t.z = plane(v[0]->z, v[1]->z, v[2]->z);
  // An attribute's plane: of a·rhw when perspective-correct, of a itself otherwise.
  const auto attribute = [&](float a0, float a1, float a2) {
    if (!t.perspective) return plane(a0, a1, a2);
    return plane(double{a0} * r0, double{a1} * r1, double{a2} * r2);
  };
  t.q = t.perspective ? plane(r0, r1, r2) : Plane{};
  const bool flat = state.shade == Shade::kFlat;
  // FLAT shading takes the provoking vertex's diffuse and specular colour, but the fog
  // factor in specular alpha stays interpolated.
  t.flat_mask = flat ? 0x7F : 0;
  // The r, g, b, a planes of one vertex colour (Vertex::diffuse or ::specular); channel k
  // is the first vertex's constant where bit k of flat_bits is set. Written per channel,
  // not through a per-plane call: W4 sets up a million triangles a frame.
  // `channels`: r, g, b and (4) alpha, or (3) not alpha, which stays unset.
  const auto color_planes = [&](Color Vertex::*colour, unsigned flat_bits, int channels, Plane (&out)[4]) {
    const Color &c0 = v[0]->*colour, &c1 = v[1]->*colour, &c2 = v[2]->*colour;
    const float a0[4] = {c0.r, c0.g, c0.b, c0.a}, a1[4] = {c1.r, c1.g, c1.b, c1.a}, a2[4] = {c2.r, c2.g, c2.b, c2.a};
    for (int k = 0; k < channels; ++k)
      out[k] = (flat_bits >> k) & 1u ? PlaneBuilder::constant(a0[k]) : attribute(a0[k], a1[k], a2[k]);
  };
  static_assert(kDiffusePlanes == 4 && kColorPlanes == 8);
  // A draw that never reads the diffuse alpha skips its plane (W4: one plane in five); it
  // is left a constant 0, not unset.
  color_planes(&Vertex::diffuse, t.flat_mask & 0xFu, job.diffuse_alpha ? 4 : 3, t.diffuse);
  if (!job.diffuse_alpha) t.diffuse[3] = PlaneBuilder::constant(0.0f);
  t.planes = static_cast<std::uint32_t>(planes.size());
  // The sampled sets' bits only, lowest first: an untextured draw (W4) skips the loop
  // instead of testing eight bits per triangle.
  for (unsigned sets = job.sampled_sets; sets != 0; sets &= sets - 1) {
    const auto set = static_cast<std::size_t>(__builtin_ctz(sets));
    for (std::size_t k = 0; k < 2; ++k)  // the sampler reads u and v only
      planes.push_back(attribute(v[0]->tex[set][k], v[1]->tex[set][k], v[2]->tex[set][k]));
  }
  // Specular planes only when something reads them.
  t.specular = TrianglePrim::kNoSpecular;
  if (job.specular_planes) {
    t.specular = static_cast<std::uint8_t>(planes.size() - t.planes);  // ≤ 16: 8 sets of u, v
    Plane specular[4];
    color_planes(&Vertex::specular, t.flat_mask >> 4, 4, specular);
    planes.insert(planes.end(), std::begin(specular), std::end(specular));
  }
}

// Sets up one triangle from its vertices in stream order. Edge visibility bits for
// wireframe: bit 0 = v0v1, bit 1 = v1v2, bit 2 = v2v0.
void set_up_triangle(Chunk& scene, const DrawJob& job, const Vertex& a, const Vertex& b, const Vertex& c,
                     std::uint32_t edges) {
  const DrawState& state = *job.state;
  const FragmentKernel kernel = job.kernel;
  if (!usable(a) || !usable(b) || !usable(c)) {
    ++scene.stats.primitives_rejected;
    return;
  }
  const Vertex* in[3] = {&a, &b, &c};
  std::int64_t x[3], y[3];
  for (int i = 0; i < 3; ++i) {
    x[i] = snap(in[i]->x);
    y[i] = snap(in[i]->y);
  }
  // Twice the signed area, y down: positive = clockwise on screen.
  const std::int64_t area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
  // D3DCULL_CW culls clockwise triangles, D3DCULL_CCW counter-clockwise ones; a zero-area
  // triangle covers no pixel centre and is dropped whatever the mode.
  if (area == 0 || (state.cull == Cull::kCW && area > 0) || (state.cull == Cull::kCCW && area < 0)) {
    ++scene.stats.triangles_culled;
    return;
  }

  if (state.fill != Fill::kSolid) {
    if (state.fill == Fill::kPoint) {
      for (const Vertex* v : in) add_point(scene, state, kernel, *v);
      return;
    }
    // Wireframe: each visible edge from its start, without its end pixel, so a closed
    // outline lights each vertex pixel once.
    for (int e = 0; e < 3; ++e)
      if (edges & (1u << e)) add_line(scene, state, kernel, *in[e], *in[(e + 1) % 3], false, a);
    return;
  }

  const std::int64_t xmin = std::min({x[0], x[1], x[2]}), xmax = std::max({x[0], x[1], x[2]});
  const std::int64_t ymin = std::min({y[0], y[1], y[2]}), ymax = std::max({y[0], y[1], y[2]});
  const Rect box = pixel_bounds(xmin, ymin, xmax, ymax);
  const Rect bounds = intersect(box, state.clip);
  if (bounds.empty()) return;
  // Written in place: its planes are left uninitialised by construction (scene.h), and
  // set_up_planes writes every one.
  // The records a few triangles on are fetched for writing now: a scene's triangles
  // outgrow the caches, so each record's first store would otherwise wait on memory.
  // Past the vector's capacity the prefetch is a harmless no-op (it never faults); the
  // address is formed as an integer, not by pointer arithmetic past the array.
  constexpr std::size_t kWriteAhead = 4;
  const std::uintptr_t ahead = reinterpret_cast<std::uintptr_t>(scene.triangles.data() + scene.triangles.size()) +
                               kWriteAhead * sizeof(TrianglePrim);
  for (std::size_t line = 0; line < sizeof(TrianglePrim); line += 64)
    __builtin_prefetch(reinterpret_cast<const void*>(ahead + line), 1);
  TrianglePrim& t = scene.triangles.emplace_back();
  t.draw = static_cast<std::uint32_t>(scene.draws.size() - 1);  // set_up_range added it
  t.back_facing = area < 0;
  // Orient to positive area. The first vertex stays first: FLAT takes its colours.
  const int order[3] = {0, area > 0 ? 1 : 2, area > 0 ? 2 : 1};
  const Vertex* v[3];
  for (int i = 0; i < 3; ++i) {
    t.x[i] = static_cast<std::int32_t>(x[order[i]]);  // |x| ≤ 2^28: usable() checked the guard band
    t.y[i] = static_cast<std::int32_t>(y[order[i]]);
    v[i] = in[order[i]];
  }
  t.bounds = bounds;
  t.small = small_triangle(xmin, ymin, xmax, ymax);
  t.clipped = bounds != box;
  set_up_planes(t, area > 0 ? area : -area, job, v, scene.planes);
  ++scene.stats.triangles_binned;
  ++scene.stats.kernel_triangles[job.key];
  scene.bin(t.bounds, {BinEntry::Kind::kTriangle, static_cast<std::uint32_t>(scene.triangles.size() - 1)});
}

void add_triangle(Chunk& scene, const DrawJob& job, const Vertex& a, const Vertex& b, const Vertex& c,
                  std::uint32_t edges) {
  if (!job.wraps) return set_up_triangle(scene, job, a, b, c, edges);
  // D3DRS_WRAPn moves coordinates per triangle, so on copies of the shared vertices.
  Vertex wa = a, wb = b, wc = c;
  apply_wrap(*job.state, wa, wb, wc);
  set_up_triangle(scene, job, wa, wb, wc, edges);
}

// The primitive stream positions primitives [first, last) read: [begin, end). A fan's
// triangles also read position 0, its centre.
struct StreamRange {
  std::uint64_t begin, end;  // 64-bit: three times a 32-bit count overflows a 32-bit size_t
};
StreamRange stream_range(Topology topology, std::uint64_t first, std::uint64_t last) {
  switch (topology) {
    case Topology::kPointList: return {first, last};
    case Topology::kLineList: return {2 * first, 2 * last};
    case Topology::kLineStrip: return {first, last + 1};
    case Topology::kTriangleList: return {3 * first, 3 * last};
    case Topology::kTriangleStrip: return {first, last + 2};
    case Topology::kTriangleFan: return {first + 1, last + 2};
  }
  return {first, first};
}

// Primitives whose vertices are fetched at once: their batch (at most 3 × 128 vertices,
// ~70 KB) stays in the core's L2 between fetch and setup, where converting a whole
// draw first wrote and read back every vertex through memory (W4: 540 MB a frame).
constexpr std::size_t kBatchPrimitives = 128;
constexpr std::size_t kBatchVertices = 3 * kBatchPrimitives;

// Stream positions [begin, begin + count) into out: through the indices, one call per run
// of consecutive indices, or else in one call.
void fetch_stream(const DrawJob& job, std::size_t begin, std::size_t count, Vertex* out) {
  const VertexFetch& f = job.vertices;
  if (job.indices.empty()) {
    f.fetch(f.context, static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(count), out);
    return;
  }
  const std::uint32_t* index = job.indices.data() + begin;
  for (std::size_t k = 0; k < count;) {
    std::size_t run = 1;
    while (k + run < count && index[k + run] == index[k] + run) ++run;
    f.fetch(f.context, index[k], static_cast<std::uint32_t>(run), out + k);
    k += run;
  }
}

// Sets up primitives [first, last) of one batch, whose stream positions [begin, …) are
// batch[0, …) (a fan's centre is `centre`).
void set_up_batch(Chunk& chunk, const DrawJob& job, std::size_t first, std::size_t last, std::size_t begin,
                  const Vertex* batch, const Vertex& centre) {
  const DrawState& state = *job.state;
  const FragmentKernel kernel = job.kernel;
  auto vertex = [&](std::size_t k) -> const Vertex& { return batch[k - begin]; };
  const std::size_t n = job.count;
  switch (job.topology) {
    case Topology::kPointList:
      for (std::size_t i = first; i < last; ++i) add_point(chunk, state, kernel, vertex(i));
      break;
    case Topology::kLineList:
      for (std::size_t i = first; i < last; ++i)
        add_line(chunk, state, kernel, vertex(2 * i), vertex(2 * i + 1), state.last_pixel, vertex(2 * i));
      break;
    case Topology::kLineStrip:
      // Inner joints are drawn once, as the start of the next segment; the strip's very
      // last pixel follows D3DRS_LASTPIXEL.
      for (std::size_t i = first; i < last; ++i)
        add_line(chunk, state, kernel, vertex(i), vertex(i + 1), i + 1 == n && state.last_pixel, vertex(i));
      break;
    case Topology::kTriangleList:
      for (std::size_t i = first; i < last; ++i) {
        const std::uint32_t edges = i < job.edge_flags.size() ? job.edge_flags[i] & 7u : 7u;
        add_triangle(chunk, job, vertex(3 * i), vertex(3 * i + 1), vertex(3 * i + 2), edges);
      }
      break;
    case Topology::kTriangleStrip:
      // Odd triangles swap their last two vertices to keep the winding: (i, i+2, i+1).
      for (std::size_t i = first; i < last; ++i) {
        if (i % 2 == 0) add_triangle(chunk, job, vertex(i), vertex(i + 1), vertex(i + 2), 7u);
        else add_triangle(chunk, job, vertex(i), vertex(i + 2), vertex(i + 1), 7u);
      }
      break;
    case Topology::kTriangleFan: {
      // Triangle i is (v[i+1], v[i+2], v[0]) (D3DHAL_DP2TRIANGLEFAN page). The fan's edge
      // word has bit i for edge V[i]–V[i+1] and bit n+1 for V[n+1]–V[0]; an inner edge is
      // never drawn.
      // The word has 32 bits: an edge past bit 31 (a fan of more than 30 triangles) has no
      // flag and is not drawn.
      const bool has_flags = !job.edge_flags.empty();
      const std::uint32_t f = has_flags ? job.edge_flags[0] : 0;
      const auto flag = [f](std::size_t bit) { return bit < 32 ? (f >> bit) & 1u : 0u; };
      for (std::size_t i = first; i < last; ++i) {
        std::uint32_t edges = 7u;
        if (has_flags) {
          edges = flag(i + 1)                             // v[i+1]v[i+2]
                  | ((i + 1 == n ? flag(n + 1) : 0u) << 1)  // v[i+2]v[0]
                  | ((i == 0 ? flag(0) : 0u) << 2);         // v[0]v[i+1]
        }
        add_triangle(chunk, job, vertex(i + 1), vertex(i + 2), centre, edges);
      }
      break;
    }
  }
}

// The fetch writes vertices [0, length) of the batch but leaves their texture coordinate
// sets from `sets` on alone (VertexFetch::sets), which must then be zero: clear the ones
// an earlier fetch wrote there. Vertex by vertex, so a small draw after a larger one
// clears only its own vertices.
void clear_unfetched_sets(Chunk& chunk, std::size_t length, std::uint8_t sets) {
  std::uint8_t* const written = chunk.batch_sets.data();
  // Vertex by vertex only when some fetch wrote more sets than this one (never in W4).
  if (chunk.batch_sets_most > sets) {
    for (std::size_t i = 0; i < length; ++i) {
      auto& tex = chunk.vertex_batch[i].tex;
      if (written[i] > sets) std::fill(tex.begin() + sets, tex.begin() + written[i], std::array<float, 4>{});
    }
  }
  std::fill_n(written, length, sets);  // once fetched: [0, sets) written, the rest zero
  chunk.batch_sets_most = std::max(chunk.batch_sets_most, sets);
}

// Sets up primitives [first, last) of the draw into `chunk`, fetching their vertices a
// batch at a time. Any thread: reads only the job and writes only the chunk.
void set_up_range(Chunk& chunk, const DrawJob& job, std::size_t first, std::size_t last) {
  chunk.draws.push_back({job.state, job.kernel, job.fast});
  Vertex centre;
  if (job.topology == Topology::kTriangleFan) fetch_stream(job, 0, 1, &centre);
  if (chunk.vertex_batch.size() < kBatchVertices) {
    chunk.vertex_batch.resize(kBatchVertices);  // new ones zero
    chunk.batch_sets.resize(kBatchVertices);
  }
  const auto sets = static_cast<std::uint8_t>(std::min(job.vertices.sets, kMaxTextureCoordSets));
  for (std::size_t b = first; b < last; b += kBatchPrimitives) {
    const std::size_t e = std::min(b + kBatchPrimitives, last);
    const StreamRange r = stream_range(job.topology, b, e);
    const auto begin = static_cast<std::size_t>(r.begin), length = static_cast<std::size_t>(r.end - r.begin);  // one batch
    clear_unfetched_sets(chunk, length, sets);
    fetch_stream(job, begin, length, chunk.vertex_batch.data());
    set_up_batch(chunk, job, b, e, begin, chunk.vertex_batch.data(), centre);
  }
}

// Primitives per parallel setup chunk: large enough that a chunk's fixed costs (its
// counting sort over the tile grid, a task) vanish, small enough that a million-triangle
// draw splits into dozens of chunks for the workers to balance.
constexpr std::size_t kChunkPrimitives = 16384;
// Chunks set up per parallel round at most; between rounds the scene may flush when it
// holds more than its primitive budget.
constexpr std::size_t kChunksPerRound = 16;

struct SetupRound {
  const DrawJob* job;
  Chunk* chunks[kChunksPerRound];
  std::size_t first;  // primitive index of chunks[0]
  std::int32_t grid_x, grid_y;
};

// Runs on a worker: one chunk of a parallel round.
void run_setup(void* context, std::size_t i) {
  auto* round = static_cast<SetupRound*>(context);
  const std::size_t first = round->first + i * kChunkPrimitives;
  const std::size_t last = std::min(first + kChunkPrimitives, round->job->count);
  set_up_range(*round->chunks[i], *round->job, first, last);
  round->chunks[i]->close(round->grid_x, round->grid_y);
}

}  // namespace

namespace {
// VertexFetch over vertices already converted: a copy.
void copy_vertices(const void* context, std::uint32_t first, std::uint32_t count, Vertex* out) {
  const auto& vertices = *static_cast<const std::span<const Vertex>*>(context);
  std::copy_n(vertices.data() + first, count, out);
}
}  // namespace

void Renderer::draw(const DrawState& state, Topology topology, std::uint32_t primitive_count,
                    std::span<const Vertex> vertices, std::span<const std::uint32_t> indices,
                    std::span<const std::uint32_t> edge_flags) {
  constexpr std::size_t kMaxCount = std::numeric_limits<std::uint32_t>::max();
  const VertexFetch fetch{&vertices, copy_vertices, static_cast<std::uint32_t>(std::min(vertices.size(), kMaxCount))};
  draw(state, topology, primitive_count, fetch, indices, edge_flags);
}

void Renderer::draw(const DrawState& state, Topology topology, std::uint32_t primitive_count,
                    const VertexFetch& vertices, std::span<const std::uint32_t> indices,
                    std::span<const std::uint32_t> edge_flags) {
  const DefaultFloatEnvironment fp;  // setup, and a flush past the budget, on this thread
  Scene& scene = *scene_;
  if (state.clip.empty() || primitive_count == 0) return;
  // A topology outside the enum has no stream (stream_range gives it none), so the check
  // below would pass any count and setup would walk every one of its primitives, drawing
  // nothing: 2^32 of them took a chunk per 16384, never flushed, until out of memory
  // (dp2_fuzz_raster). Refused here, on the calling thread, before any chunk is taken.
  if (static_cast<std::uint32_t>(topology) >= kTopologyCount) {
    ++scene.stats.commands_rejected;
    return;
  }
  // A stream longer than the vertices (or indices) that feed it draws nothing.
  const std::uint64_t stream = stream_range(topology, 0, primitive_count).end;
  const std::uint64_t available = indices.empty() ? vertices.count : indices.size();
  if (vertices.fetch == nullptr || available < stream) return;
  // Once per draw state, on the calling thread: whether it can be drawn at all, and the
  // SIMD block kernel (nothing else may read a state drawable() refuses).
  if (scene.fast_state != &state) {
    scene.fast_state = &state;
    scene.fast_state_drawable = drawable(state);
    scene.fast_key = kKernelGeneric;
    scene.fast_draw = nullptr;
    if (scene.fast_state_drawable && !scene.generic_kernels) {
      FastDraw& fast = scene.fast_draws.emplace_back();
      scene.fast_key = prepare_fast_draw(state, fast);
      if (scene.fast_key != kKernelGeneric) {
        fast.kernel = block_kernels(scene.isa)[scene.fast_key];
        scene.fast_draw = &fast;
      }
    }
  }
  if (!scene.fast_state_drawable) {
    ++scene.stats.commands_rejected;
    return;
  }
  const FragmentKernel kernel = scene.generic_kernels ? shade_fragment : choose_fragment_kernel(state);
  // Every primitive's bounds lie inside the clip rectangle: the grid is final before any
  // worker bins.
  scene.ensure_grid(state.clip.right, state.clip.bottom);
  const bool diffuse_alpha = scene.fast_draw == nullptr || scene.fast_draw->need_alpha;
  const DrawJob job{&state,          kernel,   scene.fast_draw, scene.fast_key, topology,
                    primitive_count, vertices, indices,         edge_flags,     sampled_texcoord_sets(state),
                    reads_specular(state), wraps(state), diffuse_alpha};
  if (job.count <= kChunkPrimitives) {
    set_up_range(scene.open_chunk(), job, 0, job.count);
    if (scene.primitives + scene.open->primitives() > scene.primitive_budget) scene.render();
    return;
  }
  // A large draw: rounds of chunks set up in parallel, in primitive order.
  scene.close_open();
  // A round fits the budget where it can, so the scene flushes between rounds.
  const std::size_t per_round = std::clamp<std::size_t>(scene.primitive_budget / kChunkPrimitives, 1, kChunksPerRound);
  for (std::size_t first = 0; first < job.count; first += per_round * kChunkPrimitives) {
    SetupRound round{&job, {}, first, scene.tiles_x, scene.tiles_y};
    const std::size_t chunks = std::min(per_round, (job.count - first + kChunkPrimitives - 1) / kChunkPrimitives);
    for (std::size_t i = 0; i < chunks; ++i) round.chunks[i] = &scene.acquire();
    scene.executor.for_each_tile(chunks, run_setup, &round);
    for (std::size_t i = 0; i < chunks; ++i) scene.primitives += round.chunks[i]->primitives();
    if (scene.primitives > scene.primitive_budget) scene.render();
  }
}

}  // namespace dp2::raster
