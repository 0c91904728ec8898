// Every specialised fragment kernel gives the bytes of the generic one. Each feature
// combination the selector distinguishes (depth/stencil, blend, fog) is drawn twice — once
// through the chosen kernel, once with the debug switch forcing the generic kernel — and
// the targets must match byte for byte.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "dp2raster/formats.h"
#include "dp2raster/renderer.h"
#include "support/raster_state.h"

using namespace dp2::raster;

namespace {

struct Target {
  std::vector<std::byte> color, depth;
  DrawState state;
};

// Returns the triangles the scalar pipeline drew (all of them, or the comparison would
// not be between fragment kernels).
std::uint64_t render(Target& t, bool generic, int features) {
  constexpr std::uint32_t kSize = 48;
  t.color.assign(kSize * kSize * 4, std::byte{0x40});
  t.depth.assign(kSize * kSize * 4, std::byte{0});
  DrawState& s = t.state;
  s = DrawState{};
  // A4R4G4B4 dithers and stays on the scalar pipeline (the block kernels take R5G6B5).
  s.color = {Format::kA4R4G4B4, kSize, kSize, kSize * 4, t.color.data()};
  s.clip = {0, 0, kSize, kSize};
  s.cull = Cull::kNone;
  s.dither = true;
  if (features & 4) {
    s.depth = {Format::kD24S8, kSize, kSize, kSize * 4, t.depth.data()};
    // Depth cleared to 0.5: the near triangle passes, the far one fails.
    for (std::uint32_t y = 0; y < kSize; ++y)
      for (std::uint32_t x = 0; x < kSize; ++x) write_depth_stencil(s.depth, x, y, depth_from_float(Format::kD24S8, 0.5f), 3);
    s.depth_mode = DepthMode::kZ;
    s.depth_func = Compare::kLess;
    s.stencil = true;
    s.stencil_cw.pass = StencilOp::kIncr;
  }
  if (features & 2) {
    s.blend = true;
    s.src_blend = Blend::kSrcAlpha;
    s.dst_blend = Blend::kInvSrcAlpha;
  }
  if (features & 1) {
    s.fog = true;
    s.fog_table = FogMode::kLinear;
    s.fog_start = 0.0f;
    s.fog_end = 1.0f;
    s.fog_color = {0.2f, 0.9f, 0.1f, 1.0f};
  }
  dp2::test::select_only(s, kArgDiffuse);
  Vertex v[6];
  const float xy[6][2] = {{2, 3}, {45, 10}, {9, 44}, {40, 40}, {4, 20}, {30, 2}};
  for (int i = 0; i < 6; ++i) {
    v[i].x = xy[i][0];
    v[i].y = xy[i][1];
    v[i].z = i < 3 ? 0.25f : 0.75f;
    v[i].diffuse = {0.1f * i, 1.0f - 0.15f * i, 0.5f, 0.3f + 0.1f * i};
  }
  Renderer r(1);
  r.set_generic_kernels(generic);
  r.draw(s, Topology::kTriangleList, 2, v, {});
  r.flush();
  return r.stats().kernel_triangles[kKernelKeyCount - 1];
}

}  // namespace

TEST_CASE("raster kernels: each specialisation matches the generic kernel") {
  for (int features = 0; features < 8; ++features) {
    CAPTURE(features);
    Target chosen, generic;
    CHECK(render(chosen, false, features) == 2);
    CHECK(render(generic, true, features) == 2);
    CHECK(chosen.color == generic.color);
    CHECK(chosen.depth == generic.depth);
  }
}
