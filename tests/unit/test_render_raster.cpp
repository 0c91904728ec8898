// Golden rendering tests through the public API: rasterization rules (fill rule, culling,
// interpolation, points, lines, fill modes, determinism). Every expected pixel is derived
// from the Direct3D rule written beside the check, never from dp2 output.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "dp2/device.h"
#include "dp2/png.h"
#include "dp2/stream_writer.h"

#include "support/float_env.h"
#include "support/render_fixture.h"
namespace {

// Additive state: every covered pixel gets + kInc on each channel, so a pixel hit twice
// reads 2·kInc. Blend ONE/ONE, colour from diffuse.
constexpr D3DCOLOR kInc = 0x00101010u;
StreamWriter& additive(StreamWriter& s) {
  diffuse_only(s);
  return s.render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .render_state(D3DRS_ALPHABLENDENABLE, TRUE)
      .render_state(D3DRS_SRCBLEND, D3DBLEND_ONE)
      .render_state(D3DRS_DESTBLEND, D3DBLEND_ONE)
      .end_merge();
}

// Pixels as an ASCII picture: '#' where rgb == lit, '.' where 0, '2' where 2·lit, '?' else.
std::string picture(Scene& sc, std::uint32_t lit) {
  std::string out;
  for (std::uint32_t y = 0; y < sc.h; ++y) {
    for (std::uint32_t x = 0; x < sc.w; ++x) {
      const std::uint32_t p = sc.rgb(x, y);
      out += p == lit ? '#' : p == 0 ? '.' : p == 2 * lit ? '2' : '?';
    }
    out += '\n';
  }
  return out;
}

// The Direct3D fill rule, evaluated independently of dp2 on a convex polygon given
// clockwise on screen (y down), coordinates in 1/256 pixel: a centre is inside when every
// edge function is > 0, or == 0 on a top edge (horizontal, running +x) or a left edge
// (running −y).
struct Pt {
  std::int64_t x, y;
};
Pt fx(double x, double y) { return {std::llround(x * 256.0), std::llround(y * 256.0)}; }
bool inside_top_left(const std::vector<Pt>& poly, std::int64_t px, std::int64_t py) {
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const Pt a = poly[i], b = poly[(i + 1) % poly.size()];
    const std::int64_t e = (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x);
    const bool top_left = (b.y - a.y) < 0 || ((b.y == a.y) && (b.x - a.x) > 0);
    if (e < 0 || (e == 0 && !top_left)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("render fill rule: an edge-sharing mesh and a fan hit every inner pixel exactly once") {
  Scene sc(96, 80);
  StreamWriter s;
  s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  additive(s);

  // Grid: 6×5 cells over (10.25, 7)–(70.5, 50.75). Interior vertices alternate between
  // exact pixel centres and fractional positions; boundary vertices slide along the
  // boundary only, so the outer outline stays the rectangle.
  const double X0 = 10.25, Y0 = 7.0, X1 = 70.5, Y1 = 50.75;
  const int NX = 6, NY = 5;
  VertexWriter v(kFvfC);
  auto id = [&](int i, int j) { return static_cast<WORD>(j * (NX + 1) + i); };
  for (int j = 0; j <= NY; ++j)
    for (int i = 0; i <= NX; ++i) {
      double x = X0 + (X1 - X0) * i / NX, y = Y0 + (Y1 - Y0) * j / NY;
      const bool xin = i > 0 && i < NX, yin = j > 0 && j < NY;
      if ((i + j) % 2 == 0) {  // snap to a pixel centre along the free axes
        if (xin) x = std::round(x);
        if (yin) y = std::round(y);
      } else {
        if (xin) x += 0.37 * ((i % 3) - 1) + 0.13;
        if (yin) y -= 0.29 * ((j % 3) - 1) + 0.11;
      }
      v.tl(static_cast<float>(x), static_cast<float>(y), 0.5f, 1.0f, kInc);
    }
  std::vector<WORD> tris;
  for (int j = 0; j < NY; ++j)
    for (int i = 0; i < NX; ++i) {
      const WORD a = id(i, j), b = id(i + 1, j), c = id(i, j + 1), d = id(i + 1, j + 1);
      if ((i + j) % 2 == 0) tris.insert(tris.end(), {a, b, d, a, d, c});
      else tris.insert(tris.end(), {a, b, c, b, d, c});
    }
  s.indexed_triangle_list2(0, tris);

  // Fan around an integer hub (83, 66); spokes up, right and along a 45° diagonal run
  // exactly through pixel centres. Rim clockwise on screen.
  const double rim[8][2] = {{83, 56}, {91, 58}, {93, 66}, {91.5, 74.25}, {83, 77}, {75.75, 73}, {73, 66}, {75, 58.5}};
  const WORD fan_start = static_cast<WORD>(v.vertex_count());
  v.tl(83, 66, 0.5f, 1.0f, kInc);
  for (int k = 0; k <= 8; ++k) v.tl(float(rim[k % 8][0]), float(rim[k % 8][1]), 0.5f, 1.0f, kInc);
  s.triangle_fan(fan_start, 8);
  sc.run(s, v);

  std::vector<Pt> rect = {fx(X0, Y0), fx(X1, Y0), fx(X1, Y1), fx(X0, Y1)};
  std::vector<Pt> octagon;
  for (auto& p : rim) octagon.push_back(fx(p[0], p[1]));
  // the test's own data must be a convex clockwise outline
  for (std::size_t i = 0; i < octagon.size(); ++i) {
    const Pt a = octagon[i], b = octagon[(i + 1) % 8], c = octagon[(i + 2) % 8];
    REQUIRE((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y) > 0);
  }
  int wrong = 0, twice = 0, missed = 0, outside = 0;
  for (std::uint32_t y = 0; y < sc.h; ++y)
    for (std::uint32_t x = 0; x < sc.w; ++x) {
      const std::int64_t px = std::int64_t{x} * 256, py = std::int64_t{y} * 256;
      const bool in = inside_top_left(rect, px, py) || inside_top_left(octagon, px, py);
      const std::uint32_t got = sc.rgb(x, y), want = in ? kInc : 0;
      if (got != want) {
        ++wrong;
        if (got == 2 * kInc) ++twice;
        else if (in && got == 0) ++missed;
        else if (!in) ++outside;
        if (wrong <= 8) MESSAGE("pixel (" << x << ", " << y << ") = 0x" << std::hex << got << " want 0x" << want);
      }
    }
  CHECK(wrong == 0);
  CHECK(twice == 0);
  CHECK(missed == 0);
  CHECK(outside == 0);
}

TEST_CASE("render fill rule: centres exactly on edges of single triangles (worked by hand)") {
  // A: (2,2) (10,2) (2,10). Top edge y = 2 and left edge x = 2 include their centres, the
  // hypotenuse x + y = 12 (a right edge) excludes them: i ≥ 2, j ≥ 2, i + j < 12.
  const char* want_a =
      "............\n"
      "............\n"
      "..########..\n"
      "..#######...\n"
      "..######....\n"
      "..#####.....\n"
      "..####......\n"
      "..###.......\n"
      "..##........\n"
      "..#.........\n"
      "............\n"
      "............\n";
  // B: (5,1) (9,9) (1,9). Left edge x = 1 + (9 − y)/2 is in (centres (4,3) (3,5) (2,7) lie
  // on it), right edge x = 5 + (y − 1)/2 is out ((6,3) (7,5) (8,7)), the bottom edge y = 9
  // is out, and the apex (5,1) is on both slanted edges: out.
  const char* want_b =
      "............\n"
      "............\n"
      ".....#......\n"
      "....##......\n"
      "....###.....\n"
      "...####.....\n"
      "...#####....\n"
      "..######....\n"
      "..#######...\n"
      "............\n"
      "............\n"
      "............\n";
  struct Case {
    const char* name;
    float p[3][2];
    const char* want;
  } cases[] = {
      {"A clockwise", {{2, 2}, {10, 2}, {2, 10}}, want_a},
      {"A counter-clockwise", {{2, 2}, {2, 10}, {10, 2}}, want_a},
      {"B clockwise", {{5, 1}, {9, 9}, {1, 9}}, want_b},
      {"B counter-clockwise", {{1, 9}, {9, 9}, {5, 1}}, want_b},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Scene sc(12, 12);
    StreamWriter s;
    s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    additive(s);
    VertexWriter v(kFvfC);
    for (auto& p : c.p) v.tl(p[0], p[1], 0.5f, 1.0f, kInc);
    s.triangle_list(0, 1);
    sc.run(s, v);
    CHECK(picture(sc, kInc) == std::string(c.want));
  }
}

TEST_CASE("render culling: CULLMODE against clockwise and counter-clockwise triangles") {
  // On screen (y down) (2,2) → (10,2) → (2,10) turns clockwise. D3DCULL_CW removes
  // clockwise triangles, D3DCULL_CCW (the default) counter-clockwise ones, NONE neither.
  struct Case {
    DWORD mode;
    bool cw_drawn, ccw_drawn;
  } cases[] = {{D3DCULL_NONE, true, true}, {D3DCULL_CW, false, true}, {D3DCULL_CCW, true, false}};
  for (const Case& c : cases) {
    CAPTURE(c.mode);
    Scene sc(32, 16);
    StreamWriter s;
    s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    diffuse_only(s).render_state(D3DRS_CULLMODE, c.mode);
    VertexWriter v(kFvfC);
    v.tl(2, 2, 0.5f, 1, 0xFFFF0000).tl(10, 2, 0.5f, 1, 0xFFFF0000).tl(2, 10, 0.5f, 1, 0xFFFF0000);      // CW
    v.tl(18, 2, 0.5f, 1, 0xFF00FF00).tl(18, 10, 0.5f, 1, 0xFF00FF00).tl(26, 2, 0.5f, 1, 0xFF00FF00);  // CCW
    s.triangle_list(0, 2);
    sc.run(s, v);
    CHECK(sc.rgb(4, 4) == (c.cw_drawn ? 0xFF0000u : 0u));
    CHECK(sc.rgb(20, 4) == (c.ccw_drawn ? 0x00FF00u : 0u));
  }
}

TEST_CASE("render interpolation: Gouraud is linear in screen space with equal rhw") {
  // Red 0 at x = 0, 255 at x = 17, constant in y: at centre i, red = 255·i/17 = 15·i.
  Scene sc(20, 4);
  StreamWriter s;
  s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  diffuse_only(s).render_state(D3DRS_CULLMODE, D3DCULL_NONE).render_state(D3DRS_SHADEMODE, D3DSHADE_GOURAUD);
  VertexWriter v(kFvfC);
  const D3DCOLOR l = 0xFF0000FFu, r = 0xFFFF0000u;  // blue → red
  v.tl(0, 0, 0.5f, 1, l).tl(17, 0, 0.5f, 1, r).tl(0, 4, 0.5f, 1, l);
  v.tl(17, 0, 0.5f, 1, r).tl(17, 4, 0.5f, 1, r).tl(0, 4, 0.5f, 1, l);
  s.triangle_list(0, 2);
  sc.run(s, v);
  for (std::uint32_t y = 0; y < 4; ++y)
    for (std::uint32_t x = 0; x < 17; ++x) {
      CAPTURE(x);
      CAPTURE(y);
      CHECK(sc.rgb(x, y) == ((15u * x) << 16 | (255u - 15u * x)));
    }
}

TEST_CASE("render interpolation: FLAT takes the first vertex of each triangle (list, strip, fan)") {
  const D3DCOLOR c[5] = {0xFFFF0000u, 0xFF00FF00u, 0xFF0000FFu, 0xFFFFFF00u, 0xFF00FFFFu};
  auto setup = [](StreamWriter& s) {
    s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    diffuse_only(s).render_state(D3DRS_CULLMODE, D3DCULL_NONE).render_state(D3DRS_SHADEMODE, D3DSHADE_FLAT);
  };
  SUBCASE("list: every pixel has v0's colour") {
    Scene sc(16, 16);
    StreamWriter s;
    setup(s);
    VertexWriter v(kFvfC);
    v.tl(0, 0, 0.5f, 1, c[0]).tl(16, 0, 0.5f, 1, c[1]).tl(0, 16, 0.5f, 1, c[2]);
    s.triangle_list(0, 1);
    sc.run(s, v);
    for (auto [x, y] : {std::pair{1u, 1u}, {13u, 1u}, {1u, 13u}, {6u, 6u}}) CHECK(sc.rgb(x, y) == (c[0] & 0xFFFFFFu));
  }
  SUBCASE("strip: triangle i takes v[i]") {
    Scene sc(16, 16);
    StreamWriter s;
    setup(s);
    VertexWriter v(kFvfC);
    v.tl(0, 0, 0.5f, 1, c[0]).tl(16, 0, 0.5f, 1, c[1]).tl(0, 16, 0.5f, 1, c[2]).tl(16, 16, 0.5f, 1, c[3]);
    s.triangle_strip(0, 2);
    sc.run(s, v);
    CHECK(sc.rgb(3, 3) == (c[0] & 0xFFFFFFu));    // (v0 v1 v2)
    CHECK(sc.rgb(12, 12) == (c[1] & 0xFFFFFFu));  // (v1 v2 v3)
  }
  SUBCASE("fan: triangle i is (v[i+1], v[i+2], v[0]) and takes v[i+1]") {
    Scene sc(16, 16);
    StreamWriter s;
    setup(s);
    VertexWriter v(kFvfC);
    v.tl(8, 8, 0.5f, 1, c[0]).tl(0, 0, 0.5f, 1, c[1]).tl(16, 0, 0.5f, 1, c[2]).tl(16, 16, 0.5f, 1, c[3]).tl(0, 16, 0.5f, 1, c[4]);
    s.triangle_fan(0, 3);
    sc.run(s, v);
    CHECK(sc.rgb(8, 3) == (c[1] & 0xFFFFFFu));   // top: (v1 v2 v0)
    CHECK(sc.rgb(13, 8) == (c[2] & 0xFFFFFFu));  // right: (v2 v3 v0)
    CHECK(sc.rgb(8, 13) == (c[3] & 0xFFFFFFu));  // bottom: (v3 v4 v0)
    CHECK(sc.rgb(3, 8) == 0u);                   // left: not drawn
  }
}

TEST_CASE("render interpolation: perspective-correct colour between vertices of different rhw") {
  // Left edge rhw0 = 1, right edge rhw1 = 0.25, red 0 → 255, blue 255 → 0; at screen
  // parameter t = i/17: c = (c0·rhw0·(1−t) + c1·rhw1·t) / (rhw0·(1−t) + rhw1·t).
  Scene sc(20, 4);
  StreamWriter s;
  s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  diffuse_only(s).render_state(D3DRS_CULLMODE, D3DCULL_NONE);
  const float r0 = 1.0f, r1 = 0.25f;
  VertexWriter v(kFvfC);
  const D3DCOLOR l = 0xFF0000FFu, r = 0xFFFF0000u;
  v.tl(0, 0, 0.5f, r0, l).tl(17, 0, 0.5f, r1, r).tl(0, 4, 0.5f, r0, l);
  v.tl(17, 0, 0.5f, r1, r).tl(17, 4, 0.5f, r1, r).tl(0, 4, 0.5f, r0, l);
  s.triangle_list(0, 2);
  sc.run(s, v);
  for (std::uint32_t x = 0; x < 17; ++x) {
    const double t = x / 17.0;
    auto persp = [&](double c0, double c1) { return (c0 * r0 * (1 - t) + c1 * r1 * t) / (r0 * (1 - t) + r1 * t); };
    const double red = persp(0, 255), blue = persp(255, 0);
    const auto got = sc.rgb(x, 2);
    CAPTURE(x);
    CHECK(std::fabs(double(got >> 16) - red) <= 1.0);
    CHECK(std::fabs(double(got & 0xFF) - blue) <= 1.0);
  }
  // and it is not the screen-linear value (15·i) in the middle
  CHECK((sc.rgb(8, 2) >> 16) < 15u * 8u - 40u);
}

TEST_CASE("render points: the top-left rule on the point's 1×1 square") {
  // Square [x − ½, x + ½) × [y − ½, y + ½): (5,5) → (5,5); (10.5,5.5) → [10,11)×[5,6) →
  // (10,5); (15.3,5.7) → [14.8,15.8)×[5.2,6.2) → (15,6).
  Scene sc(24, 12);
  StreamWriter s;
  s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  additive(s);
  VertexWriter v(kFvfC);
  v.tl(5, 5, 0.5f, 1, kInc).tl(10.5f, 5.5f, 0.5f, 1, kInc).tl(15.3f, 5.7f, 0.5f, 1, kInc);
  const D3DHAL_DP2POINTS run{3, 0};
  s.points(std::span(&run, 1));
  sc.run(s, v);
  int lit = 0;
  for (std::uint32_t y = 0; y < sc.h; ++y)
    for (std::uint32_t x = 0; x < sc.w; ++x) lit += sc.rgb(x, y) != 0;
  CHECK(sc.rgb(5, 5) == kInc);
  CHECK(sc.rgb(10, 5) == kInc);
  CHECK(sc.rgb(15, 6) == kInc);
  CHECK(lit == 3);
}

namespace {
// Lit pixel coordinates of a line picture, as "x,y " in raster order.
std::string lit_list(Scene& sc) {
  std::string out;
  for (std::uint32_t y = 0; y < sc.h; ++y)
    for (std::uint32_t x = 0; x < sc.w; ++x) {
      const auto p = sc.rgb(x, y);
      if (p) out += std::to_string(x) + "," + std::to_string(y) + (p == kInc ? " " : "(x2) ");
    }
  return out;
}
std::string draw_lines(bool last_pixel, std::initializer_list<std::array<float, 4>> lines, bool strip = false) {
  Scene sc(16, 16);
  StreamWriter s;
  s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  additive(s).render_state(D3DRS_LASTPIXEL, last_pixel ? TRUE : FALSE);
  VertexWriter v(kFvfC);
  for (const auto& l : lines) {
    v.tl(l[0], l[1], 0.5f, 1, kInc);
    if (!strip) v.tl(l[2], l[3], 0.5f, 1, kInc);
  }
  if (strip) {
    const auto& back = *(lines.end() - 1);
    v.tl(back[2], back[3], 0.5f, 1, kInc);
    s.line_strip(0, static_cast<WORD>(lines.size()));
  } else {
    s.line_list(0, static_cast<WORD>(lines.size()));
  }
  sc.run(s, v);
  return lit_list(sc);
}
}  // namespace

TEST_CASE("render lines: dp2's stated rule (tile.cpp) — one pixel per major step, nearest minor") {
  // Horizontal (2,5)–(8,5): x = 2..7, and 8 too with LASTPIXEL TRUE.
  CHECK(draw_lines(false, {{2, 5, 8, 5}}) == "2,5 3,5 4,5 5,5 6,5 7,5 ");
  CHECK(draw_lines(true, {{2, 5, 8, 5}}) == "2,5 3,5 4,5 5,5 6,5 7,5 8,5 ");
  // Vertical (5,2)–(5,8): y = 2..7.
  CHECK(draw_lines(false, {{5, 2, 5, 8}}) == "5,2 5,3 5,4 5,5 5,6 5,7 ");
  // First pixel floor(start + ½): 2.4 → 2, 2.6 → 3.
  CHECK(draw_lines(false, {{2.4f, 5, 8, 5}}) == "2,5 3,5 4,5 5,5 6,5 7,5 ");
  CHECK(draw_lines(false, {{2.6f, 5, 8, 5}}) == "3,5 4,5 5,5 6,5 7,5 ");
  // X-major (2,2)–(9,4): y = 2 + 2(x−2)/7 rounded: 2 2 2.57→3 2.86→3 3.14→3 3.43→3 3.71→4.
  CHECK(draw_lines(false, {{2, 2, 9, 4}}) == "2,2 3,2 4,3 5,3 6,3 7,3 8,4 ");
  // Y-major (3,1)–(5,8): x = 3 + 2(y−1)/7 rounded: 3 3.29→3 3.57→4 3.86→4 4.14→4 4.43→4 4.71→5.
  CHECK(draw_lines(false, {{3, 1, 5, 8}}) == "3,1 3,2 4,3 4,4 4,5 4,6 5,7 ");
  // Right to left: (8,5)–(2,5) lights 8..3.
  CHECK(draw_lines(false, {{8, 5, 2, 5}}) == "3,5 4,5 5,5 6,5 7,5 8,5 ");
  // A strip (2,10)–(8,10)–(8,14): the joint (8,10) once, the last pixel per LASTPIXEL.
  CHECK(draw_lines(false, {{2, 10, 8, 10}, {8, 10, 8, 14}}, true) ==
        "2,10 3,10 4,10 5,10 6,10 7,10 8,10 8,11 8,12 8,13 ");
  CHECK(draw_lines(true, {{2, 10, 8, 10}, {8, 10, 8, 14}}, true) ==
        "2,10 3,10 4,10 5,10 6,10 7,10 8,10 8,11 8,12 8,13 8,14 ");
}

TEST_CASE("render fill modes: POINT lights the vertices, WIREFRAME the enabled edges") {
  auto draw = [](DWORD fill, WORD flags, Scene& sc) {
    StreamWriter s;
    s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    additive(s).render_state(D3DRS_FILLMODE, fill).render_state(D3DRS_LASTPIXEL, FALSE);
    VertexWriter v(kFvfC);
    v.tl(2, 2, 0.5f, 1, kInc).tl(12, 2, 0.5f, 1, kInc).tl(2, 12, 0.5f, 1, kInc);
    D3DHAL_DP2INDEXEDTRIANGLELIST t{};
    t.wV1 = 0;
    t.wV2 = 1;
    t.wV3 = 2;
    t.wFlags = flags;
    s.indexed_triangle_list(std::span(&t, 1));
    sc.run(s, v);
  };
  SUBCASE("POINT") {
    Scene sc(16, 16);
    draw(D3DFILL_POINT, D3DTRIFLAG_EDGEENABLETRIANGLE, sc);
    CHECK(lit_list(sc) == "2,2 12,2 2,12 ");
  }
  SUBCASE("WIREFRAME, all edges") {
    Scene sc(16, 16);
    draw(D3DFILL_WIREFRAME, D3DTRIFLAG_EDGEENABLETRIANGLE, sc);
    for (std::uint32_t x = 3; x <= 11; ++x) CHECK(sc.rgb(x, 2) == kInc);       // v1–v2, y = 2
    for (std::uint32_t k = 4; k <= 10; ++k) CHECK(sc.rgb(k, 14 - k) == kInc);  // v2–v3, x + y = 14
    for (std::uint32_t y = 3; y <= 11; ++y) CHECK(sc.rgb(2, y) == kInc);       // v3–v1, x = 2
    CHECK(sc.rgb(5, 5) == 0u);  // not filled
    CHECK(lit_list(sc).find("(x2)") == std::string::npos);
  }
  SUBCASE("WIREFRAME, only EDGEENABLE1 (v1–v2)") {
    Scene sc(16, 16);
    draw(D3DFILL_WIREFRAME, D3DTRIFLAG_EDGEENABLE1, sc);
    for (std::uint32_t x = 3; x <= 11; ++x) CHECK(sc.rgb(x, 2) == kInc);
    for (std::uint32_t k = 4; k <= 10; ++k) CHECK(sc.rgb(k, 14 - k) == 0u);
    for (std::uint32_t y = 3; y <= 11; ++y) CHECK(sc.rgb(2, y) == 0u);
  }
  SUBCASE("WIREFRAME, only EDGEENABLE3 (v3–v1)") {
    Scene sc(16, 16);
    draw(D3DFILL_WIREFRAME, D3DTRIFLAG_EDGEENABLE3, sc);
    for (std::uint32_t x = 3; x <= 11; ++x) CHECK(sc.rgb(x, 2) == 0u);
    for (std::uint32_t y = 3; y <= 11; ++y) CHECK(sc.rgb(2, y) == kInc);
  }
}

// The tiles run on TBB in a DP2_WITH_TBB build and on dp2's own thread pool in a build
// without it (`make notbb` runs this too).
TEST_CASE("render determinism: 1, 2, 3 and 4 render threads give identical bytes") {
  auto render = [](unsigned threads) {
    Scene sc(256, 200, D3DFMT_A8R8G8B8, D3DFMT_D24S8, threads);
    std::vector<std::uint32_t> texels(16);
    for (std::uint32_t i = 0; i < 16; ++i) texels[i] = 0x80000000u | (i * 0x0F0B07u + 0x203040u);
    sc.texture(kTex, 4, 4, texels);
    StreamWriter s;
    s.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL, 0xFF102030u, 1.0f, 0);
    s.render_state(D3DRS_CULLMODE, D3DCULL_NONE)
        .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
        .render_state(D3DRS_ALPHABLENDENABLE, TRUE)
        .render_state(D3DRS_SRCBLEND, D3DBLEND_SRCALPHA)
        .render_state(D3DRS_DESTBLEND, D3DBLEND_INVSRCALPHA)
        .render_state(D3DRS_STENCILENABLE, TRUE)
        .render_state(D3DRS_STENCILPASS, D3DSTENCILOP_INCR)
        .render_state(D3DRS_DITHERENABLE, TRUE)
        .end_merge();
    s.texture_stage_state(0, D3DTSS_TEXTUREMAP, kTex)
        .texture_stage_state(0, D3DTSS_MAGFILTER, D3DTEXF_LINEAR)
        .texture_stage_state(0, D3DTSS_MINFILTER, D3DTEXF_LINEAR)
        .end_merge();
    VertexWriter v(D3DFVF_TLVERTEX);
    std::uint32_t seed = 12345;
    auto rnd = [&](float lo, float hi) {
      seed = seed * 1664525u + 1013904223u;
      return lo + (hi - lo) * static_cast<float>(seed >> 8) / 16777216.0f;
    };
    const int n = 300;
    for (int i = 0; i < n * 3; ++i) {
      seed = seed * 1664525u + 1013904223u;
      const D3DCOLOR c = seed | 0x20000000u;
      v.tl(rnd(-20, 276), rnd(-20, 220), rnd(0, 1), rnd(0.2f, 2), c, 0, rnd(-1, 2), rnd(-1, 2));
    }
    s.triangle_list(0, n);
    sc.run(s, v);
    auto rt = sc.dev.surface_bytes(kRT);
    auto zs = sc.dev.surface_bytes(kZS);
    std::vector<std::byte> out(rt.begin(), rt.end());
    out.insert(out.end(), zs.begin(), zs.end());
    return out;
  };
  const auto one = render(1), two = render(2), three = render(3), four = render(4);
  CHECK(one == two);
  CHECK(one == three);
  CHECK(one == four);
  // and the scene is not trivially empty
  CHECK(std::count(one.begin(), one.end(), std::byte{0}) < static_cast<std::ptrdiff_t>(one.size() / 2));
}

TEST_CASE("render culling: odd strip triangles keep the strip's winding") {
  // Strip (0,0) (10,0) (0,10) (10,10): triangle 0 is clockwise on screen; triangle 1 is
  // (v1 v2 v3) with its order reversed by the strip rule, so it is clockwise too.
  for (DWORD mode : {D3DCULL_CCW, D3DCULL_CW}) {
    CAPTURE(mode);
    Scene sc(12, 12);
    StreamWriter s;
    s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    diffuse_only(s).render_state(D3DRS_CULLMODE, mode);
    VertexWriter v(kFvfC);
    v.tl(0, 0, 0.5f, 1, 0xFFFFFFFFu).tl(10, 0, 0.5f, 1, 0xFFFFFFFFu).tl(0, 10, 0.5f, 1, 0xFFFFFFFFu).tl(10, 10, 0.5f, 1, 0xFFFFFFFFu);
    s.triangle_strip(0, 2);
    sc.run(s, v);
    const std::uint32_t want = mode == D3DCULL_CCW ? 0xFFFFFFu : 0u;
    CHECK(sc.rgb(2, 2) == want);
    CHECK(sc.rgb(8, 8) == want);
  }
}

TEST_CASE("render viewport: nothing is drawn outside the viewport") {
  Scene sc(16, 16);
  StreamWriter s;
  s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  s.viewport(4, 3, 8, 6);
  diffuse_only(s).render_state(D3DRS_CULLMODE, D3DCULL_NONE);
  VertexWriter v(kFvfC);
  quad(v, -10, -10, 30, 30, 0.5f, 0xFFFFFFFFu);
  s.triangle_list(0, 2);
  sc.run(s, v);
  int bad = 0;
  for (std::uint32_t y = 0; y < 16; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) {
      const bool in = x >= 4 && x < 12 && y >= 3 && y < 9;
      bad += sc.rgb(x, y) != (in ? 0xFFFFFFu : 0u);
    }
  CHECK(bad == 0);
}

TEST_CASE("render points: size from D3DRS_POINTSIZE or the vertex PSIZE") {
  // A size-3 point at (5,5) covers [3.5, 6.5)² → centres 4..6 in x and y (9 pixels).
  // D3D9: D3DRS_POINTSIZE applies when the vertex carries no point size.
  SUBCASE("D3DRS_POINTSIZE") {
    Scene sc(12, 12);
    StreamWriter s;
    s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    additive(s).render_state_f(D3DRS_POINTSIZE, 3.0f);
    VertexWriter v(kFvfC);
    v.tl(5, 5, 0.5f, 1, kInc);
    const D3DHAL_DP2POINTS run{1, 0};
    s.points(std::span(&run, 1));
    sc.run(s, v);
    CHECK(lit_list(sc) == "4,4 5,4 6,4 4,5 5,5 6,5 4,6 5,6 6,6 ");
  }
  SUBCASE("D3DFVF_PSIZE") {
    Scene sc(12, 12);
    StreamWriter s;
    s.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    additive(s);
    VertexWriter v(D3DFVF_XYZRHW | D3DFVF_PSIZE | D3DFVF_DIFFUSE);
    v.f(5).f(5).f(0.5f).f(1).f(3.0f).dword(kInc).end_vertex();
    const D3DHAL_DP2POINTS run{1, 0};
    s.points(std::span(&run, 1));
    sc.run(s, v);
    CHECK(lit_list(sc) == "4,4 5,4 6,4 4,5 5,5 6,5 4,6 5,6 6,6 ");
  }
}

TEST_CASE("render: a device made and driven from a thread with another rounding mode renders the same bytes") {
  // The device's GPU worker and render threads start from the thread that makes the
  // device and inherit its floating-point environment; DrawPrimitives2 runs on the caller's.
  // dp2 computes in the default one whatever the host's (rasterizer float_env.h), so a
  // host that rounds toward zero and flushes denormals gets the default's bytes: clears
  // to colours and depths that convert with rounding (the GPU worker's own arithmetic),
  // perspective-correct Gouraud triangles with a depth test at coordinates that are not
  // multiples of 1/256 (setup's snap, the planes, the colours), on 32- and 16-bit
  // surfaces, and the PNG of the result.
  // The stream is built once, in the default environment: its own float arithmetic would
  // round differently in the other and change the input.
  StreamWriter w;
  w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xFF000000u, 1.0f, 0);
  for (int k = 0; k < 32; ++k) {  // 32 strips, each its own colour and depth
    const RECT strip{2 * k, 0, 2 * k + 2, 48};
    w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xFF000000u | static_cast<D3DCOLOR>(k * 0x070B0D),
            0.013f + 0.0297f * static_cast<float>(k), 0, std::span(&strip, 1));
  }
  w.render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
      .render_state(D3DRS_ZFUNC, D3DCMP_LESS)
      .render_state(D3DRS_SHADEMODE, D3DSHADE_GOURAUD);
  VertexWriter v(kFvfC);
  for (int i = 0; i < 40; ++i) {
    const float x = 3.1f * static_cast<float>(i % 8) + 0.3337f, y = 4.7f * static_cast<float>(i / 8) + 0.2113f;
    const float z = 0.1f + 0.0213f * static_cast<float>(i);
    v.tl(x, y, z, 0.7f + 0.01f * static_cast<float>(i), 0xFF102030u * static_cast<D3DCOLOR>(i + 1))
        .tl(x + 37.77f, y + 3.31f, 1.0f - z, 1.9f, 0xFF7F3F1Fu)
        .tl(x + 11.13f, y + 29.9f, z * 0.5f, 0.33f, 0xFF00FF80u ^ static_cast<D3DCOLOR>(i * 0x010305));
  }
  w.triangle_list(0, 40);
  // Colour and depth of every pixel after the frame, then the PNG of the target.
  auto frame = [](Scene& sc) {
    sc.dev.wait_idle();
    std::vector<std::uint32_t> out;
    for (std::uint32_t y = 0; y < sc.h; ++y)
      for (std::uint32_t x = 0; x < sc.w; ++x) {
        out.push_back(sc.raw(x, y));
        out.push_back(sc.zraw(x, y));
      }
    const std::span<const std::byte> rt = sc.dev.surface_bytes(kRT);
    const std::uint32_t pitch = (sc.w * bytes_per_pixel(sc.fmt) + 3) & ~3u;
    for (const std::byte b : dp2::encode_png({sc.fmt, sc.w, sc.h, pitch, rt.data(), nullptr, false}, false))
      out.push_back(std::to_integer<std::uint32_t>(b));
    return out;
  };
  struct Formats {
    D3DFORMAT color, depth;
  };
  for (const Formats f : {Formats{D3DFMT_X8R8G8B8, D3DFMT_D24S8}, Formats{D3DFMT_R5G6B5, D3DFMT_D16}}) {
    for (const unsigned threads : {1u, 2u}) {
      CAPTURE(f.color);
      CAPTURE(threads);
      Scene expected(70, 48, f.color, f.depth, threads);
      expected.run(w, v);
      const std::vector<std::uint32_t> want = frame(expected);
      std::vector<std::uint32_t> got;
      {
        const dp2::test::HostileFloatEnvironment hostile;
        Scene sc(70, 48, f.color, f.depth, threads);
        sc.run(w, v);
        got = frame(sc);
        CHECK(dp2::test::HostileFloatEnvironment::in_effect());
      }
      CHECK(got == want);
    }
  }
}
