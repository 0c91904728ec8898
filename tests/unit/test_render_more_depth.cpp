// Golden rendering tests through the public API: W buffering (D3DZB_USEW with WINFO), table
// fog on W, ZBIAS, the scissor test, D3DCLEAR_COMPUTERECTS, the depth formats D16, D15S1,
// D24X8, D24X4S4, D32, and DX8/DX9 stream draws against the rule for the pixels they cover.
// Every expected value is derived from the Direct3D rule written beside the check, never
// from dp2 output.
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
#include "dp2/stream_writer.h"

#include "support/render_fixture.h"

// ---- 6. W buffer, fog on W, ZBIAS, scissor, COMPUTERECTS, depth formats -------------------------

TEST_CASE("render more depth: W buffering stores (w − WNear)/(WFar − WNear) and compares on it") {
  // D3DZB_USEW: the depth value is eye w = 1/rhw normalised by WINFO; z is ignored.
  // WINFO (1, 9): w = 3 → ¼, w = 7 → ¾. Cleared to 0.5; LESSEQUAL: w = 3 passes, w = 7
  // fails, although their z (0.9, 0.1) would decide the other way.
  Scene sc(2, 1, D3DFMT_X8R8G8B8, D3DFMT_D24S8);
  StreamWriter w;
  w.winfo(1.0f, 9.0f);
  w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0, 0.5f, 0);
  diffuse_only(w)
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .render_state(D3DRS_ZENABLE, D3DZB_USEW)
      .render_state(D3DRS_ZFUNC, D3DCMP_LESSEQUAL)
      .render_state(D3DRS_ZWRITEENABLE, TRUE);
  VertexWriter v(kFvfC);
  quad(v, 0, 0, 1, 1, 0.9f, 0xFFFFFFFFu, 0, 1.0f / 3.0f);
  quad(v, 1, 0, 2, 1, 0.1f, 0xFFFFFFFFu, 0, 1.0f / 7.0f);
  w.triangle_list(0, 4);
  sc.run(w, v);
  CHECK(sc.rgb(0, 0) == 0xFFFFFFu);
  CHECK(sc.depth(0, 0) == q(0.25, 24));
  CHECK(sc.rgb(1, 0) == 0u);
  CHECK(sc.depth(1, 0) == q(0.5, 24));
  SUBCASE("a second draw compares against the stored w") {
    StreamWriter w2;
    diffuse_only(w2).render_state(D3DRS_ZENABLE, D3DZB_USEW).render_state(D3DRS_ZFUNC, D3DCMP_LESS);
    VertexWriter v2(kFvfC);
    quad(v2, 0, 0, 1, 1, 0.0f, 0xFF102030u, 0, 1.0f / 5.0f);  // w 5 → ½ > ¼: fails
    quad(v2, 1, 0, 2, 1, 1.0f, 0xFF405060u, 0, 1.0f / 2.0f);  // w 2 → ⅛ < ½: passes
    w2.triangle_list(0, 4);
    sc.run(w2, v2);
    CHECK(sc.rgb(0, 0) == 0xFFFFFFu);
    CHECK(sc.rgb(1, 0) == 0x405060u);
    CHECK(sc.depth(1, 0) == q(0.125, 24));
  }
}

TEST_CASE("render more fog: table fog runs on eye w when WINFO describes a perspective projection") {
  // LINEAR table fog, f = (end − d)/(end − start), with d = w (1/rhw) when WFar > WNear.
  // start 2, end 8; w = 3 → f = 5/6, w = 7 → f = 1/6. Both at z = 0.5, where fog on z
  // would give f = 1 (0.5 < start).
  const D3DCOLOR c = 0xFF0AC85Au, fog = 0x00FA28AAu;
  Scene sc(2, 1, D3DFMT_X8R8G8B8);
  StreamWriter w;
  w.winfo(1.0f, 9.0f);
  w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  diffuse_only(w)
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .render_state(D3DRS_FOGENABLE, TRUE)
      .render_state(D3DRS_FOGTABLEMODE, D3DFOG_LINEAR)
      .render_state(D3DRS_FOGCOLOR, fog)
      .render_state_f(D3DRS_FOGSTART, 2.0f)
      .render_state_f(D3DRS_FOGEND, 8.0f);
  VertexWriter v(kFvfC);
  quad(v, 0, 0, 1, 1, 0.5f, c, 0, 1.0f / 3.0f);
  quad(v, 1, 0, 2, 1, 0.5f, c, 0, 1.0f / 7.0f);
  w.triangle_list(0, 4);
  sc.run(w, v);
  for (std::uint32_t i = 0; i < 2; ++i) {
    CAPTURE(i);
    const double f = i == 0 ? 5.0 / 6.0 : 1.0 / 6.0;
    const double want[4] = {f * ch(c, 16) + (1 - f) * ch(fog, 16), f * ch(c, 8) + (1 - f) * ch(fog, 8),
                            f * ch(c, 0) + (1 - f) * ch(fog, 0), 1};
    CHECK(channels_near(sc.raw(i, 0), want, false));
  }
}

TEST_CASE("render more depth: ZBIAS pulls coplanar polygons toward the viewer") {
  // D3DRS_ZBIAS 0..16: "polygons with a high z-bias value appear in front of polygons with
  // a low value" for coplanar polygons. A z = 0.5 quad at bias 0, then the same quad at
  // bias 1 with ZFUNC LESS: the second one wins. dp2's stated reading (backend): the stored
  // value is q(z) − bias.
  Scene sc(2, 1, D3DFMT_X8R8G8B8, D3DFMT_D24S8);
  StreamWriter w;
  w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0, 1.0f, 0);
  diffuse_only(w)
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
      .render_state(D3DRS_ZFUNC, D3DCMP_LESS)
      .render_state(D3DRS_ZBIAS, 0);
  VertexWriter v(kFvfC);
  quad(v, 0, 0, 2, 1, 0.5f, 0xFF112233u);
  quad(v, 0, 0, 1, 1, 0.5f, 0xFF445566u);  // bias 1: in front
  quad(v, 1, 0, 2, 1, 0.5f, 0xFF778899u);  // bias 0 again: coplanar, LESS fails
  w.triangle_list(0, 2);
  w.render_state(D3DRS_ZBIAS, 1).triangle_list(6, 2);
  w.render_state(D3DRS_ZBIAS, 0).triangle_list(12, 2);
  sc.run(w, v);
  CHECK(sc.rgb(0, 0) == 0x445566u);
  CHECK(sc.rgb(1, 0) == 0x112233u);
  CHECK(sc.depth(0, 0) == q(0.5, 24) - 1);
  CHECK(sc.depth(1, 0) == q(0.5, 24));
}

TEST_CASE("render more scissor: SCISSORTESTENABLE limits drawing to the scissor rectangle") {
  // D3DRS_SCISSORTESTENABLE with SETSCISSORRECT (left, top, right, bottom; right/bottom
  // exclusive): pixels outside are not drawn; with the test off the rectangle is ignored.
  for (DWORD on : {TRUE, FALSE}) {
    CAPTURE(on);
    Scene sc(8, 8);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    const RECT r{2, 3, 6, 5};
    w.raw(D3DDP2OP_SETSCISSORRECT, 1, std::as_bytes(std::span(&r, 1)));
    diffuse_only(w).render_state(D3DRS_CULLMODE, D3DCULL_NONE).render_state(D3DRS_SCISSORTESTENABLE, on);
    VertexWriter v(kFvfC);
    quad(v, 0, 0, 8, 8, 0.5f, 0xFFFFFFFFu);
    w.triangle_list(0, 2);
    sc.run(w, v);
    int bad = 0;
    for (std::uint32_t y = 0; y < 8; ++y)
      for (std::uint32_t x = 0; x < 8; ++x) {
        const bool in = !on || (x >= 2 && x < 6 && y >= 3 && y < 5);
        bad += sc.rgb(x, y) != (in ? 0xFFFFFFu : 0u);
      }
    CHECK(bad == 0);
  }
}

TEST_CASE("render more clear: D3DCLEAR_COMPUTERECTS clips the rectangles to the viewport") {
  // Without COMPUTERECTS a rectangle is clipped only to the target; with it, also to the
  // viewport (2, 2)–(6, 6).
  for (DWORD compute : {DWORD{0}, DWORD{D3DCLEAR_COMPUTERECTS}}) {
    CAPTURE(compute);
    Scene sc(8, 8);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    const RECT r{0, 0, 4, 8};
    w.viewport(2, 2, 4, 4).clear(D3DCLEAR_TARGET | compute, 0xFFABCDEFu, 1.0f, 0, std::span(&r, 1));
    sc.run(w);
    int bad = 0;
    for (std::uint32_t y = 0; y < 8; ++y)
      for (std::uint32_t x = 0; x < 8; ++x) {
        bool in = x < 4;
        if (compute) in = in && x >= 2 && y >= 2 && y < 6;
        bad += sc.rgb(x, y) != (in ? 0xABCDEFu : 0u);
      }
    CHECK(bad == 0);
  }
}

namespace {
struct DepthFormat {
  D3DFORMAT f;
  int depth_bits, depth_shift, stencil_bits;  // depth is the high (first-named) field
};
constexpr DepthFormat kDepthFormats[] = {
    {D3DFMT_D16, 16, 0, 0},  {D3DFMT_D15S1, 15, 1, 1}, {D3DFMT_D24X8, 24, 8, 0},
    {D3DFMT_D24X4S4, 24, 8, 4}, {D3DFMT_D32, 32, 0, 0}, {D3DFMT_D24S8, 24, 8, 8},
};
std::uint32_t field(std::uint32_t raw, int shift, int bits) {
  return bits == 32 ? raw : (raw >> shift) & ((1u << bits) - 1);
}
}  // namespace

TEST_CASE("render more depth formats: clear, depth test and stencil in D16, D15S1, D24X8, D24X4S4, D32") {
  // Depth d stored as floor(d·(2^n − 1) + ½) in the n-bit depth field (the high bits);
  // stencil in the low bits where the format has them, values masked to their width.
  for (const DepthFormat& df : kDepthFormats) {
    CAPTURE(df.f);
    Scene sc(3, 1, D3DFMT_X8R8G8B8, df.f);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL, 0, 0.25f, 0xFF);
    // Column 0: z 0.5 (LESS fails); column 1: z 0.125 (passes); column 2: untouched.
    diffuse_only(w)
        .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
        .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
        .render_state(D3DRS_ZFUNC, D3DCMP_LESS)
        .render_state(D3DRS_STENCILENABLE, TRUE)
        .render_state(D3DRS_STENCILFUNC, D3DCMP_ALWAYS)
        .render_state(D3DRS_STENCILZFAIL, D3DSTENCILOP_ZERO)
        .render_state(D3DRS_STENCILPASS, D3DSTENCILOP_INCR);
    VertexWriter v(kFvfC);
    quad(v, 0, 0, 1, 1, 0.5f, 0xFFFFFFFFu);
    quad(v, 1, 0, 2, 1, 0.125f, 0xFFFFFFFFu);
    w.triangle_list(0, 4);
    sc.run(w, v);
    const std::uint32_t smax = df.stencil_bits ? (1u << df.stencil_bits) - 1 : 0;
    CHECK(sc.rgb(0, 0) == 0u);
    CHECK(sc.rgb(1, 0) == 0xFFFFFFu);
    CHECK(field(sc.zraw(0, 0), df.depth_shift, df.depth_bits) == q(0.25, df.depth_bits));
    CHECK(field(sc.zraw(1, 0), df.depth_shift, df.depth_bits) == q(0.125, df.depth_bits));
    CHECK(field(sc.zraw(2, 0), df.depth_shift, df.depth_bits) == q(0.25, df.depth_bits));
    if (df.stencil_bits) {
      CHECK(field(sc.zraw(2, 0), 0, df.stencil_bits) == smax);  // 0xFF masked to the width
      CHECK(field(sc.zraw(0, 0), 0, df.stencil_bits) == 0u);    // z fail → ZERO
      CHECK(field(sc.zraw(1, 0), 0, df.stencil_bits) == 0u);    // pass → INCR wraps smax + 1 → 0
    }
  }
}

TEST_CASE("render more clear: ZBUFFER alone keeps each pixel's stencil, STENCIL alone each pixel's depth") {
  // D3DDP2OP_CLEAR: D3DCLEAR_ZBUFFER writes the depth value, D3DCLEAR_STENCIL the stencil
  // value; a field whose flag is absent keeps what the pixel held. Every pixel starts with
  // its own bits, so a clear that rewrote one pixel's fields everywhere would show. (X bits
  // hold nothing D3D defines, so they are not checked.)
  for (const DepthFormat& df : kDepthFormats) {
    if (df.stencil_bits == 0) continue;
    CAPTURE(df.f);
    const std::uint32_t bpp = df.depth_bits + df.depth_shift > 16 ? 4 : 2;
    for (const DWORD flag : {DWORD{D3DCLEAR_ZBUFFER}, DWORD{D3DCLEAR_STENCIL}}) {
      CAPTURE(flag);
      Scene sc(70, 5, D3DFMT_X8R8G8B8, df.f);  // wider than a 64-pixel tile
      auto pattern = [](std::uint32_t x, std::uint32_t y) { return (x * 2654435761u) ^ (y * 40503u) ^ 0x5A5A5A5Au; };
      std::span<std::byte> mem = sc.dev.surface_bytes(kZS);
      const std::size_t pitch = (std::size_t{sc.w} * bpp + 3) & ~std::size_t{3};
      for (std::uint32_t y = 0; y < sc.h; ++y)
        for (std::uint32_t x = 0; x < sc.w; ++x)
          for (std::uint32_t i = 0; i < bpp; ++i)
            mem[y * pitch + x * bpp + i] = static_cast<std::byte>((pattern(x, y) >> (8 * i)) & 0xFFu);
      StreamWriter w;
      w.clear(flag, 0, 0.25f, 0x1B3);
      sc.run(w);
      for (std::uint32_t y = 0; y < sc.h; ++y)
        for (std::uint32_t x = 0; x < sc.w; ++x) {
          const std::uint32_t was = pattern(x, y), now = sc.zraw(x, y);
          const std::uint32_t want_depth = flag == D3DCLEAR_ZBUFFER ? q(0.25, df.depth_bits)
                                                                    : field(was, df.depth_shift, df.depth_bits);
          // The stencil value masked to the field's width.
          const std::uint32_t want_stencil =
              flag == D3DCLEAR_STENCIL ? field(0x1B3, 0, df.stencil_bits) : field(was, 0, df.stencil_bits);
          CHECK(field(now, df.depth_shift, df.depth_bits) == want_depth);
          CHECK(field(now, 0, df.stencil_bits) == want_stencil);
        }
    }
  }
}

// ---- 7. DX8/DX9 stream draws ------------------------------------------------------------------------

namespace {
// Two triangles (six list vertices, or four indexed) covering pixel centres (1..4, 1..3)
// with colour 0xFF3366CC; the rest stays cleared to 0.
constexpr D3DCOLOR kStreamColor = 0xFF3366CCu;
bool covers_rect(Scene& sc) {
  for (std::uint32_t y = 0; y < sc.h; ++y)
    for (std::uint32_t x = 0; x < sc.w; ++x) {
      const bool in = x >= 1 && x < 5 && y >= 1 && y < 4;
      if (sc.rgb(x, y) != (in ? (kStreamColor & 0xFFFFFFu) : 0u)) return false;
    }
  return true;
}
void make_buffer(Scene& sc, DWORD handle, dp2::SurfaceKind kind, std::span<const std::byte> bytes) {
  dp2::SurfaceDesc d;
  d.kind = kind;
  d.size_bytes = bytes.size();
  REQUIRE(sc.dev.create_surface(handle, d) == D3D_OK);
  auto mem = sc.dev.surface_bytes(handle);
  REQUIRE(mem.size() >= bytes.size());
  std::memcpy(mem.data(), bytes.data(), bytes.size());
}
StreamWriter& stream_states(StreamWriter& w) {
  w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  return diffuse_only(w).render_state(D3DRS_CULLMODE, D3DCULL_NONE).end_merge();
}
}  // namespace

TEST_CASE("render more streams: DRAWPRIMITIVE / DRAWINDEXEDPRIMITIVE (16- and 32-bit) / DRAWPRIMITIVE2 render") {
  // Each form names the same two triangles; each must light exactly the rectangle's pixel
  // centres (top-left rule), like the legacy TRIANGLELIST.
  VertexWriter list(kFvfC);
  quad(list, 1, 1, 5, 4, 0.5f, kStreamColor);
  VertexWriter four(kFvfC);  // corners TL, TR, BL, BR
  four.tl(1, 1, 0.5f, 1, kStreamColor).tl(5, 1, 0.5f, 1, kStreamColor).tl(1, 4, 0.5f, 1, kStreamColor).tl(5, 4, 0.5f, 1, kStreamColor);
  SUBCASE("legacy TRIANGLELIST") {
    Scene sc(6, 5);
    StreamWriter w;
    stream_states(w).triangle_list(0, 2);
    sc.run(w, list);
    CHECK(covers_rect(sc));
  }
  SUBCASE("SETVERTEXSHADER(FVF) + SETSTREAMSOURCE + DRAWPRIMITIVE") {
    Scene sc(6, 5);
    // Two leading dummy vertices: VStart 2 skips them.
    VertexWriter vb(kFvfC);
    vb.tl(0, 0, 0.5f, 1, 0xFFFF0000u).tl(0, 0, 0.5f, 1, 0xFFFF0000u);
    quad(vb, 1, 1, 5, 4, 0.5f, kStreamColor);
    make_buffer(sc, 20, dp2::SurfaceKind::kVertexBuffer, vb.bytes());
    StreamWriter w;
    stream_states(w).set_vertex_shader(kFvfC).set_stream_source(0, 20, vb.stride()).draw_primitive(D3DPT_TRIANGLELIST, 2, 2);
    sc.run(w);
    CHECK(covers_rect(sc));
  }
  SUBCASE("SETINDICES + DRAWINDEXEDPRIMITIVE, 16- and 32-bit indices") {
    for (DWORD isize : {DWORD{2}, DWORD{4}}) {
      CAPTURE(isize);
      Scene sc(6, 5);
      make_buffer(sc, 20, dp2::SurfaceKind::kVertexBuffer, four.bytes());
      // Index data: two junk indices, then TL TR BL, TR BR BL (StartIndex 2).
      const std::uint32_t idx[8] = {3, 3, 0, 1, 2, 1, 3, 2};
      std::vector<std::byte> ib;
      for (std::uint32_t i : idx)
        for (DWORD b = 0; b < isize; ++b) ib.push_back(static_cast<std::byte>((i >> (8 * b)) & 0xFFu));
      make_buffer(sc, 21, dp2::SurfaceKind::kIndexBuffer, ib);
      StreamWriter w;
      stream_states(w)
          .set_vertex_shader(kFvfC)
          .set_stream_source(0, 20, four.stride())
          .set_indices(21, isize)
          .draw_indexed_primitive(D3DPT_TRIANGLELIST, 0, 0, 4, 2, 2);
      sc.run(w);
      CHECK(covers_rect(sc));
    }
  }
  SUBCASE("DRAWPRIMITIVE2 (byte offset)") {
    Scene sc(6, 5);
    VertexWriter vb(kFvfC);
    vb.tl(0, 0, 0.5f, 1, 0xFFFF0000u);
    quad(vb, 1, 1, 5, 4, 0.5f, kStreamColor);
    make_buffer(sc, 20, dp2::SurfaceKind::kVertexBuffer, vb.bytes());
    StreamWriter w;
    stream_states(w).set_vertex_shader(kFvfC).set_stream_source(0, 20, vb.stride()).draw_primitive2(D3DPT_TRIANGLELIST, vb.stride(), 2);
    sc.run(w);
    CHECK(covers_rect(sc));
  }
}
