// Vertex fetch inside setup: a draw's setup chunks fetch their own vertices, a batch of
// 128 primitives at a time, through the indices when there are some. Whatever the batch,
// chunk and index-run boundaries, a draw must render the primitives of its stream — the
// primitive list the D3D topology rules make of it (D3DPRIMITIVETYPE page: list, strip,
// fan; odd strip triangles keep their winding) — in stream order, so its bytes must equal
// those of the same primitives drawn one draw each from vertices listed in full.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "dp2raster/renderer.h"
#include "support/raster_state.h"

using namespace dp2::raster;

namespace {

constexpr std::uint32_t kSize = 96;

struct Lcg {
  std::uint32_t s;
  std::uint32_t next() { return s = s * 1664525u + 1013904223u; }
  float unit() { return static_cast<float>(next() >> 8) / 16777216.0f; }
};

DrawState state_for(std::vector<std::byte>& color) {
  color.assign(kSize * kSize * 4, std::byte{0});
  DrawState s;
  s.color = {Format::kX8R8G8B8, kSize, kSize, kSize * 4, color.data()};
  s.clip = {0, 0, static_cast<std::int32_t>(kSize), static_cast<std::int32_t>(kSize)};
  s.cull = Cull::kCCW;       // windings must survive the strip's odd-triangle swap
  s.last_pixel = false;      // a strip's joints: each the start of the next segment
  dp2::test::select_only(s, kArgDiffuse);
  return s;
}

// The stream positions of primitive i (D3DPRIMITIVETYPE rules; a fan's triangle i is
// (i+1, i+2, 0), the D3DHAL_DP2TRIANGLEFAN page's order).
std::vector<std::size_t> primitive_positions(Topology t, std::size_t i) {
  switch (t) {
    case Topology::kPointList: return {i};
    case Topology::kLineList: return {2 * i, 2 * i + 1};
    case Topology::kLineStrip: return {i, i + 1};
    case Topology::kTriangleList: return {3 * i, 3 * i + 1, 3 * i + 2};
    case Topology::kTriangleStrip: return i % 2 == 0 ? std::vector<std::size_t>{i, i + 1, i + 2}
                                                    : std::vector<std::size_t>{i, i + 2, i + 1};
    case Topology::kTriangleFan: return {i + 1, i + 2, 0};
  }
  return {};
}

Topology single_of(Topology t) {
  switch (t) {
    case Topology::kPointList: return Topology::kPointList;
    case Topology::kLineList:
    case Topology::kLineStrip: return Topology::kLineList;
    default: return Topology::kTriangleList;
  }
}

std::size_t stream_length(Topology t, std::size_t n) {
  switch (t) {
    case Topology::kPointList: return n;
    case Topology::kLineList: return 2 * n;
    case Topology::kLineStrip: return n + 1;
    case Topology::kTriangleList: return 3 * n;
    case Topology::kTriangleStrip:
    case Topology::kTriangleFan: return n + 2;
  }
  return 0;
}

// Small primitives scattered over the target, each vertex its own colour.
std::vector<Vertex> scattered(std::size_t count, std::uint32_t seed) {
  Lcg rng{seed};
  std::vector<Vertex> v(count);
  for (Vertex& x : v) {
    x.x = rng.unit() * kSize;
    x.y = rng.unit() * kSize;
    x.diffuse = {rng.unit(), rng.unit(), rng.unit(), 1.0f};
  }
  return v;
}

// The same draw as `stream` (through `indices` into `buffer` when indexed), one primitive
// per draw from vertices listed in full.
std::vector<std::byte> one_draw_each(Topology t, std::size_t n, const std::vector<Vertex>& buffer,
                                     const std::vector<std::uint32_t>& indices) {
  std::vector<std::byte> color;
  const DrawState s = state_for(color);
  Renderer r(1);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<Vertex> listed;
    for (std::size_t p : primitive_positions(t, i)) listed.push_back(buffer[indices.empty() ? p : indices[p]]);
    r.draw(s, single_of(t), 1, listed, {});
  }
  r.flush();
  return color;
}

std::size_t lit(const std::vector<std::byte>& color) {
  std::size_t n = 0;
  for (std::byte b : color) n += b != std::byte{0};
  return n;
}

}  // namespace

TEST_CASE("raster fetch: every topology, indexed or not, across fetch batches and setup chunks, draws its stream") {
  const Topology topologies[] = {Topology::kPointList,    Topology::kLineList,      Topology::kLineStrip,
                                 Topology::kTriangleList, Topology::kTriangleStrip, Topology::kTriangleFan};
  // 300: three fetch batches on the calling thread; 40000: three 16K setup chunks, run by
  // two threads.
  for (std::size_t n : {std::size_t{300}, std::size_t{40000}}) {
    for (Topology t : topologies) {
      for (bool indexed : {false, true}) {
        CAPTURE(n);
        CAPTURE(static_cast<int>(t));
        CAPTURE(indexed);
        const std::size_t length = stream_length(t, n);
        std::vector<Vertex> buffer = scattered(length + 7, static_cast<std::uint32_t>(n) * 31u + static_cast<std::uint32_t>(t));
        std::vector<std::uint32_t> indices;
        if (indexed) {
          // Runs of consecutive indices (fetched in one call) between shuffled ones.
          indices.resize(length);
          std::iota(indices.begin(), indices.end(), 5u);
          Lcg rng{static_cast<std::uint32_t>(length)};
          for (std::size_t k = 0; k < length; k += 1 + rng.next() % 40)
            std::swap(indices[k], indices[rng.next() % length]);
        }
        std::vector<std::byte> color;
        const DrawState s = state_for(color);
        Renderer r(2);
        r.draw(s, t, static_cast<std::uint32_t>(n), buffer, indices);
        r.flush();
        const std::vector<std::byte> expected = one_draw_each(t, n, buffer, indices);
        // The comparison is not of two empty targets (a point lights one pixel, three bytes).
        CHECK(lit(expected) > std::min<std::size_t>(n, kSize * kSize / 4));
        CHECK(color == expected);
      }
    }
  }
}

TEST_CASE("raster fetch: a stream longer than its vertices or indices draws nothing") {
  std::vector<Vertex> v = scattered(8, 7);
  for (Vertex& x : v) x.diffuse = {1, 1, 1, 1};
  std::vector<std::byte> color;
  const DrawState s = state_for(color);
  Renderer r(1);
  // A list of three triangles needs nine vertices; a strip of seven, nine; the indices of
  // a two-triangle list, six.
  r.draw(s, Topology::kTriangleList, 3, v, {});
  r.draw(s, Topology::kTriangleStrip, 7, v, {});
  const std::vector<std::uint32_t> five = {0, 1, 2, 3, 4};
  r.draw(s, Topology::kTriangleList, 2, v, five);
  r.flush();
  CHECK(lit(color) == 0);
  // The strip with six triangles needs the eight vertices there are: it draws.
  r.draw(s, Topology::kTriangleStrip, 6, v, {});
  r.flush();
  CHECK(lit(color) > 0);
}

namespace {

// VertexFetch over whole vertices that writes only their first set of texture
// coordinates, as a driver's fetch does for an FVF with one set (VertexFetch::sets = 1).
void fetch_first_set(const void* context, std::uint32_t first, std::uint32_t count, Vertex* out) {
  const auto& all = *static_cast<const std::vector<Vertex>*>(context);
  for (std::uint32_t k = 0; k < count; ++k) {
    const Vertex& v = all[first + k];
    Vertex& o = out[k];
    o.x = v.x, o.y = v.y, o.z = v.z, o.rhw = v.rhw;
    o.diffuse = v.diffuse, o.specular = v.specular, o.point_size = v.point_size;
    o.tex[0] = v.tex[0];
  }
}

// A 2×1 A8R8G8B8 texture: texel 0 red, texel 1 green.
struct RedGreen {
  std::uint32_t texels[2] = {0xFFFF0000u, 0xFF00FF00u};
  TextureView view;
  RedGreen() {
    view.format = Format::kA8R8G8B8;
    view.levels = 1;
    view.level[0] = {Format::kA8R8G8B8, 2, 1, 8, reinterpret_cast<std::byte*>(texels)};
  }
  RedGreen(const RedGreen&) = delete;
};

// Stage 0 outputs `texture` sampled (point) at coordinate set 1; nothing culled.
DrawState sampling_set_1(std::vector<std::byte>& color, const TextureView& texture) {
  DrawState s = state_for(color);
  s.cull = Cull::kNone;
  dp2::test::select_only(s, kArgTexture);
  s.stages[0].texture = &texture;
  s.stages[0].texcoord_set = 1;
  return s;
}

// Two triangles covering [x0, x1) × [0, kSize), every vertex with texture coordinates `uv`
// in sets 0 and 1.
std::vector<Vertex> band(float x0, float x1, float u, float v) {
  std::vector<Vertex> out(6);
  const float xs[6] = {x0, x1, x0, x1, x1, x0}, ys[6] = {0, 0, kSize, 0, kSize, kSize};
  for (std::size_t i = 0; i < 6; ++i) {
    out[i].x = xs[i];
    out[i].y = ys[i];
    out[i].tex[0] = out[i].tex[1] = {u, v, 0.0f, 1.0f};
  }
  return out;
}

}  // namespace

TEST_CASE("raster fetch: the texture coordinate sets a fetch leaves alone read zero, whatever a draw before fetched") {
  // dp2's rule for a set the vertices lack (fetch.cpp, VertexFetch::sets): its coordinates
  // are 0. Stage 0 samples set 1 of a 2×1 texture, point filtered: u = 0.75 reads texel
  // floor(0.75·2) = 1 (green), u = 0 texel 0 (red). The first draw's vertices carry set 1
  // = (0.75, 0.25); the second's fetch writes set 0 only (also 0.75, so reading it by
  // mistake shows too), and both draws go through the same chunk's vertex batch, in one
  // scene or across a flush (the chunk and its batch are kept): the second must read
  // set 1 as (0, 0), not what the first left there. On the block kernels and the scalar
  // pipeline alike.
  RedGreen texture;
  std::vector<std::byte> color;
  const std::vector<Vertex> left = band(0, kSize / 2, 0.75f, 0.25f), right = band(kSize / 2, kSize, 0.75f, 0.25f);
  for (int variant = 0; variant < 4; ++variant) {
    const bool flush_between = variant & 1, generic = variant & 2;
    CAPTURE(flush_between);
    CAPTURE(generic);
    DrawState s = sampling_set_1(color, texture.view);  // a cleared target each time
    s.texcoord_sets = 0b10;
    Renderer r(1);
    r.set_generic_kernels(generic);
    r.draw(s, Topology::kTriangleList, 2, left, {});
    if (flush_between) r.flush();
    r.draw(s, Topology::kTriangleList, 2, VertexFetch{&right, fetch_first_set, 6, 1}, {}, {});
    r.flush();
    auto pixel = [&](std::size_t x, std::size_t y) {
      std::uint32_t p;
      std::memcpy(&p, color.data() + (y * kSize + x) * 4, 4);
      return p & 0xFFFFFFu;
    };
    CHECK(pixel(10, 10) == 0x00FF00u);
    CHECK(pixel(kSize - 10, kSize - 10) == 0xFF0000u);
  }
}

TEST_CASE("raster fetch: a stage sampling a set the state does not interpolate reads it as 0") {
  // DrawState::texcoord_sets names the sets interpolated; the others read 0 (Fragment's
  // coordinates start at 0 and only those sets are written). A state that samples set 1
  // without naming it (the device never makes one; a direct caller can) reads u = 0:
  // texel 0 (red) of the 2×1 texture, where set 1's u = 0.75 would read texel 1. The
  // block kernels and the scalar pipeline give that; the block kernels once crashed on
  // it, reading planes setup had not made.
  RedGreen texture;
  std::vector<std::byte> color;
  for (int variant = 0; variant < 4; ++variant) {
    const std::uint8_t named = variant & 1 ? 0b01 : 0;
    const bool generic = variant & 2;
    CAPTURE(static_cast<int>(named));
    CAPTURE(generic);
    DrawState s = sampling_set_1(color, texture.view);  // a cleared target each time
    s.texcoord_sets = named;
    Renderer r(1);
    r.set_generic_kernels(generic);
    r.draw(s, Topology::kTriangleList, 2, band(0, kSize, 0.75f, 0.25f), {});
    r.flush();
    std::uint32_t p;
    std::memcpy(&p, color.data() + (10 * kSize + 10) * 4, 4);
    CHECK((p & 0xFFFFFFu) == 0xFF0000u);
  }
}
