// The rasterizer's C++ API given states and primitives no device makes: each either draws
// by the rule its header states or is refused and counted (renderer.h:
// RendererStats::commands_rejected), never reading or writing outside the caller's buffers
// (the ASan build runs these too) and never walking work it does not need.
#include <doctest/doctest.h>

#include <climits>
#include <limits>
#include <cstdint>
#include <vector>

#include "dp2raster/renderer.h"
#include "support/raster_state.h"

using namespace dp2::raster;

namespace {

constexpr std::uint32_t kSize = 128;  // two tiles each way

struct Target {
  explicit Target(std::uint32_t fill = 0u) : pixels(kSize * kSize, fill) {}
  std::vector<std::uint32_t> pixels;
  std::uint32_t rgb(std::uint32_t x, std::uint32_t y) const { return pixels[y * kSize + x] & 0xFFFFFFu; }
  std::size_t lit() const {
    std::size_t n = 0;
    for (std::uint32_t p : pixels) n += (p & 0xFFFFFFu) != 0;
    return n;
  }
};

// Diffuse colour straight to an X8R8G8B8 target, no depth, nothing culled.
DrawState state_for(Target& target) {
  DrawState s;
  s.color = {Format::kX8R8G8B8, kSize, kSize, kSize * 4, reinterpret_cast<std::byte*>(target.pixels.data())};
  s.clip = {0, 0, static_cast<std::int32_t>(kSize), static_cast<std::int32_t>(kSize)};
  s.cull = Cull::kNone;
  dp2::test::select_only(s, kArgDiffuse);
  return s;
}

Vertex at(float x, float y) {
  Vertex v;
  v.x = x;
  v.y = y;
  return v;  // white
}

// A triangle over most of the target.
std::vector<Vertex> big_triangle() { return {at(1, 1), at(120, 1), at(1, 120)}; }

}  // namespace

TEST_CASE("raster bad state: more stages than kMaxTextureStages are refused, not read past the array") {
  for (std::uint32_t stages : {kMaxTextureStages + 1, 200u}) {
    CAPTURE(stages);
    Target target;
    DrawState s = state_for(target);
    s.stage_count = stages;
    Renderer r(1);
    r.draw(s, Topology::kTriangleList, 1, big_triangle(), {});
    r.flush();
    CHECK(r.stats().commands_rejected == 1);
    CHECK(target.lit() == 0);
  }
}

TEST_CASE("raster bad state: a clip or clear rect past kMaxSurfaceDimension is refused") {
  // Such a rect would size the tile grid (its arithmetic overflowed at INT_MAX, and 2^28
  // asked for terabytes); renderer.h: it draws or clears nothing.
  for (std::int32_t edge : {INT_MAX, 1 << 28, static_cast<std::int32_t>(kMaxSurfaceDimension) + 1}) {
    CAPTURE(edge);
    Target target;
    DrawState s = state_for(target);
    s.clip = {0, 0, edge, edge};
    Renderer r(2);
    r.draw(s, Topology::kTriangleList, 1, big_triangle(), {});
    ClearCommand clear;
    clear.color = s.color;
    clear.rect = {0, 0, edge, 64};
    clear.clear_color = true;
    clear.color_raw = 0x00FF00FFu;
    r.clear(clear);
    r.flush();
    CHECK(r.stats().commands_rejected == 2);  // the draw and the clear
    CHECK(target.lit() == 0);
  }
  // The limit itself is a valid clip: the triangle draws (its pixels lie in the target).
  Target target;
  DrawState s = state_for(target);
  s.clip.right = s.clip.bottom = static_cast<std::int32_t>(kMaxSurfaceDimension);
  Renderer r(1);
  r.draw(s, Topology::kTriangleList, 1, big_triangle(), {});
  r.flush();
  CHECK(r.stats().commands_rejected == 0);
  CHECK(target.lit() > 0);
}

TEST_CASE("raster bad state: a texture level whose pitch is shorter than a row of the texture's format is refused") {
  // An 8×8 A8R8G8B8 texture needs 32 bytes a row; a level described with pitch 8 (an L8
  // row) would be read 4 bytes a texel past its buffer. A packed L8 texture of width 3
  // (pitch 3, no DWORD padding) is fine.
  std::vector<std::uint8_t> texels(8 * 8, 0xFF);
  for (bool short_pitch : {true, false}) {
    CAPTURE(short_pitch);
    TextureView texture;
    texture.format = short_pitch ? Format::kA8R8G8B8 : Format::kL8;
    texture.levels = 1;
    const std::uint32_t width = short_pitch ? 8 : 3;
    texture.level[0] = {Format::kL8, width, 8, width, reinterpret_cast<std::byte*>(texels.data())};
    Target target;
    DrawState s = state_for(target);
    s.stages[0].color_arg[1] = kArgTexture;
    s.stages[0].texture = &texture;
    s.texcoord_sets = 1;
    Renderer r(1);
    r.draw(s, Topology::kTriangleList, 1, big_triangle(), {});
    r.flush();
    CHECK(r.stats().commands_rejected == (short_pitch ? 1u : 0u));
    CHECK((target.lit() == 0) == short_pitch);  // an L8 0xFF texel is white
  }
}

TEST_CASE("raster bad state: the colour key compares a texel's bits in the texture's format") {
  // DDCKEY_SRCBLT: a texel whose raw value equals the key is transparent black. The key
  // is 0xFF102030, an A8R8G8B8 texel; the level's own format field says L8 (formats.h:
  // texels are read in texture.format), so the bits compared are the 4-byte texel, and
  // with COLORKEYENABLE the whole 1×1 texture samples as transparent black over the
  // diffuse white: the stage selects the texture, so the pixels are black. Read as L8
  // (1 byte, 0x30) the key would never match and the pixels would be 0x102030.
  std::uint32_t texel = 0xFF102030u;
  TextureView texture = dp2::test::one_texel(texel, Format::kL8);
  texture.has_color_key = true;
  texture.color_key = 0xFF102030u;
  for (bool keyed : {true, false}) {
    CAPTURE(keyed);
    Target target(0x00ABCDEFu);  // neither expected colour: a dropped draw shows
    DrawState s = state_for(target);
    s.stages[0].color_arg[1] = kArgTexture;
    s.stages[0].texture = &texture;
    s.stages[0].sampler.color_key = keyed;
    s.texcoord_sets = 1;
    Renderer r(1);
    r.draw(s, Topology::kTriangleList, 1, big_triangle(), {});
    r.flush();
    CHECK(r.stats().commands_rejected == 0);
    CHECK(target.rgb(10, 10) == (keyed ? 0u : 0x102030u));
  }
}

TEST_CASE("raster bad state: a fan's edge word has 32 flags, edges past bit 31 are not drawn") {
  // D3DHAL_DP2TRIANGLEFAN: bit i is edge V[i]–V[i+1], bit n+1 the closing V[n+1]–V[0];
  // a fan of 40 triangles closes at bit 41, which the 32-bit word does not have. The page
  // does not say what such an edge does; dp2's rule: no flag, not drawn. With every bit
  // set, the first edge V0–V1 (bit 0) and the outer edges up to V31–V32 are drawn, the
  // outer edges from V32–V33 on and the closing one are not. (Read modulo 32, as the
  // shift did on x86, they were all drawn.) Inner edges never are.
  // V0 = (2, 2); V1 = (100, 2) ... V41 = (2, 100) on the line x + y = 102.
  constexpr std::uint32_t kTriangles = 40;
  std::vector<Vertex> fan{at(2, 2)};
  for (std::uint32_t i = 0; i <= kTriangles; ++i) {
    const float t = static_cast<float>(i) / kTriangles;
    fan.push_back(at(100 - 98 * t, 2 + 98 * t));
  }
  Target target;
  DrawState s = state_for(target);
  s.fill = Fill::kWireframe;
  const std::uint32_t all_edges[1] = {~0u};
  Renderer r(1);
  r.draw(s, Topology::kTriangleFan, kTriangles, fan, {}, all_edges);
  r.flush();
  CHECK(target.rgb(50, 2) == 0xFFFFFFu);  // V0–V1, the row y = 2
  CHECK(target.rgb(2, 50) == 0u);         // V41–V0, the column x = 2: no flag
  // On x + y = 102, V_k is at x = 100 − 98(k − 1)/40: the middle of V10–V11 (bit 10) lies
  // near x = 76, of V35–V36 (bit 35) near x = 15. Each x-major pixel there is in the row
  // floor(y + 0.5) of the line, y = 102 − x.
  std::size_t early = 0, late = 0;
  for (std::uint32_t x = 74; x <= 78; ++x) early += target.rgb(x, 102 - x) != 0;
  for (std::uint32_t x = 13; x <= 17; ++x) late += target.rgb(x, 102 - x) != 0;
  CHECK(early == 5);
  CHECK(late == 0);
}

TEST_CASE("raster bad state: a line across the guard band lights the pixels of its path in each tile, both ways") {
  // The diagonal from (−10^6, −10^6) to (10^6, 10^6): x-major (|dx| = |dy|), one pixel
  // per column, in the row nearest the line, floor(y + 0.5) = x (tile.cpp's line rule).
  // Each tile walks only its own columns of the two-million-pixel line; this checks the
  // pixels of that clamped walk at the tiles' edges, not how long it takes.
  for (bool reversed : {false, true}) {
    CAPTURE(reversed);
    Target target;
    DrawState s = state_for(target);
    const Vertex a = at(-1.0e6f, -1.0e6f), b = at(1.0e6f, 1.0e6f);
    const std::vector<Vertex> line = reversed ? std::vector<Vertex>{b, a} : std::vector<Vertex>{a, b};
    Renderer r(2);
    r.draw(s, Topology::kLineList, 1, line, {});
    r.flush();
    CHECK(target.lit() == kSize);
    for (std::uint32_t i = 0; i < kSize; ++i) {
      CAPTURE(i);
      CHECK(target.rgb(i, i) == 0xFFFFFFu);
    }
  }
}

TEST_CASE("raster bad state: a clear or draw into a target without memory, or with a short pitch, is refused") {
  // The pixel code writes whole rows of the target's format at data + y·pitch.
  for (int fault = 0; fault < 2; ++fault) {
    CAPTURE(fault);
    Target target;
    DrawState s = state_for(target);
    if (fault == 0) s.color.data = nullptr;
    else s.color.pitch = kSize * 4 - 1;  // a byte short of a row of X8R8G8B8
    Renderer r(1);
    ClearCommand clear;
    clear.color = s.color;
    clear.rect = s.clip;
    clear.clear_color = true;
    clear.color_raw = 0x00FF00FFu;
    r.clear(clear);
    r.draw(s, Topology::kTriangleList, 1, big_triangle(), {});
    r.flush();
    CHECK(r.stats().commands_rejected == 2);
    CHECK(target.lit() == 0);
  }
}

TEST_CASE("raster bad state: point sizes and limits of any value give a square inside the guard band") {
  // POINTSIZE clamped to [POINTSIZE_MIN, _MAX], the minimum at least 1; a maximum below
  // the minimum gives the minimum; a non-finite limit is no limit (dp2's rules, setup.cpp).
  // A point at (64.5, 64.5) of size s covers the centres within s/2 of it.
  struct Case {
    float size, min, max;
    std::size_t lit;
  };
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const Case cases[] = {
      {4, 1, 64, 16},        // 4×4
      {1e30f, 1, inf, kSize * kSize},  // no maximum: the whole target
      {1e30f, 1, 1e30f, kSize * kSize},
      {4, 6, 2, 36},         // maximum below the minimum: 6×6
      {4, nan, nan, 16},     // NaN limits: none
      {nan, 1, 64, 1},       // a NaN size is 1
  };
  for (const Case& c : cases) {
    CAPTURE(c.size);
    CAPTURE(c.min);
    CAPTURE(c.max);
    Target target;
    DrawState s = state_for(target);
    s.point_size = c.size;
    s.point_size_min = c.min;
    s.point_size_max = c.max;
    Renderer r(1);
    r.draw(s, Topology::kPointList, 1, std::vector<Vertex>{at(64.5f, 64.5f)}, {});
    r.flush();
    CHECK(target.lit() == c.lit);
  }
}

TEST_CASE("raster bad state: a topology outside Topology is refused, whatever its primitive count") {
  // D3DPRIMITIVETYPE has no such value: the runtime fails such a call (D3DERR_INVALIDCALL)
  // and nothing is drawn. renderer.h: the draw is refused and counted. Unrefused, it had
  // no stream (stream_range gave it none), so any count passed the vertices-cover-the-
  // primitives check and setup walked every primitive: with 2^32 − 1 of them, a chunk per
  // 16384 that was never flushed (dp2_fuzz_raster: out of memory). A million walks
  // quickly, drawing nothing, and was not counted.
  const auto past_fan = static_cast<Topology>(static_cast<unsigned>(Topology::kTriangleFan) + 1);
  for (const Topology topology : {past_fan, static_cast<Topology>(0xFF)}) {
    CAPTURE(static_cast<unsigned>(topology));
    Target target;
    DrawState s = state_for(target);
    Renderer r(1);
    r.draw(s, topology, 1'000'000, big_triangle(), {});
    r.flush();
    CHECK(r.stats().commands_rejected == 1);
    CHECK(target.lit() == 0);
  }
  // The last valid one still draws.
  Target target;
  DrawState s = state_for(target);
  Renderer r(1);
  r.draw(s, Topology::kTriangleFan, 1, big_triangle(), {});
  r.flush();
  CHECK(r.stats().commands_rejected == 0);
  CHECK(target.lit() > 0);
}

TEST_CASE("raster bad state: a NaN colour reads as 0 in the alpha test, on both kernel paths") {
  // combiner.h: clamping maps NaN to 0 (formats.h's encode_color: "NaN reads as 0"). A
  // NaN diffuse alpha with no texture stage reaches the alpha test unchanged by any op;
  // read as alpha 0, GREATEREQUAL 0 passes and GREATER 0 fails, on the scalar pipeline
  // (generic kernels) as on the block kernels. The scalar clamp let the NaN through to
  // a float-to-integer conversion, undefined behaviour (UBSan stops the ASan build here).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const bool generic : {true, false})
    for (const Compare func : {Compare::kGreaterEqual, Compare::kGreater}) {
      CAPTURE(generic);
      CAPTURE(static_cast<int>(func));
      Target target;
      DrawState s = state_for(target);
      s.stage_count = 0;
      s.alpha_test = true;
      s.alpha_func = func;
      s.alpha_ref = 0;
      std::vector<Vertex> triangle = big_triangle();
      for (Vertex& v : triangle) v.diffuse.a = nan;
      Renderer r(1);
      r.set_generic_kernels(generic);
      r.draw(s, Topology::kTriangleList, 1, triangle, {});
      r.flush();
      CHECK(r.stats().commands_rejected == 0);
      CHECK((target.lit() > 0) == (func == Compare::kGreaterEqual));
    }
}

TEST_CASE("raster bad state: a clip wider than the colour target draws only the target's pixels, on every path") {
  // DrawState::clip is the caller's (renderer.h refuses only a negative one or one past
  // kMaxSurfaceDimension); a pixel outside the target does not exist, so nothing is
  // written there. The target is the top-left 64×64 of a 128×128 buffer (its pitch a
  // whole buffer row) under a 128×128 clip: the buffer's other pixels must stay 0. The
  // block kernels wrote every covered lane of the clip (the scalar pipeline checks each
  // pixel against the target).
  constexpr std::uint32_t kTarget = kSize / 2;
  for (const bool generic : {false, true})
    for (const Isa isa : {Isa::kScalar, Isa::kAuto}) {
      CAPTURE(generic);
      CAPTURE(isa_name(isa));
      Target target;
      DrawState s = state_for(target);
      s.color.width = s.color.height = kTarget;  // pitch and clip stay those of the buffer
      Renderer r(1);
      r.set_generic_kernels(generic);
      r.set_isa(isa);
      r.draw(s, Topology::kTriangleList, 1, big_triangle(), {});
      r.flush();
      CHECK(r.stats().commands_rejected == 0);
      std::size_t outside = 0;
      for (std::uint32_t y = 0; y < kSize; ++y)
        for (std::uint32_t x = 0; x < kSize; ++x) outside += (x >= kTarget || y >= kTarget) && target.rgb(x, y) != 0;
      CHECK(outside == 0);
      CHECK(target.rgb(10, 10) == 0xFFFFFFu);  // inside both the triangle and the target
    }
}
