// Golden rendering tests through the public API: per-pixel operations (blending, colour
// write mask, alpha test, depth, stencil, clears). Every expected value is derived from the
// Direct3D rule written beside the check, never from dp2 output.
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
namespace {

const char* const kBlendNames[] = {"", "ZERO", "ONE", "SRCCOLOR", "INVSRCCOLOR", "SRCALPHA", "INVSRCALPHA",
                                   "DESTALPHA", "INVDESTALPHA", "DESTCOLOR", "INVDESTCOLOR", "SRCALPHASAT",
                                   "BOTHSRCALPHA", "BOTHINVSRCALPHA", "BLENDFACTOR", "INVBLENDFACTOR"};

// One channel of a D3DBLEND factor (D3DBLEND page), channel k = 0..3 for r, g, b, a.
// SRCALPHASAT is (f, f, f, 1) with f = min(As, 1 − Ad). BOTHSRCALPHA as the source
// factor means source (As) and destination (1 − As); BOTHINVSRCALPHA the reverse.
double factor(DWORD f, const double (&s)[4], const double (&d)[4], const double (&k)[4], int c, bool src_side) {
  switch (f) {
    case D3DBLEND_ZERO: return 0;
    case D3DBLEND_ONE: return 1;
    case D3DBLEND_SRCCOLOR: return s[c];
    case D3DBLEND_INVSRCCOLOR: return 1 - s[c];
    case D3DBLEND_SRCALPHA: return s[3];
    case D3DBLEND_INVSRCALPHA: return 1 - s[3];
    case D3DBLEND_DESTALPHA: return d[3];
    case D3DBLEND_INVDESTALPHA: return 1 - d[3];
    case D3DBLEND_DESTCOLOR: return d[c];
    case D3DBLEND_INVDESTCOLOR: return 1 - d[c];
    case D3DBLEND_SRCALPHASAT: return c == 3 ? 1.0 : std::min(s[3], 1 - d[3]);
    case D3DBLEND_BOTHSRCALPHA: return src_side ? s[3] : 1 - s[3];
    case D3DBLEND_BOTHINVSRCALPHA: return src_side ? 1 - s[3] : s[3];
    case D3DBLEND_BLENDFACTOR: return k[c];
    case D3DBLEND_INVBLENDFACTOR: return 1 - k[c];
  }
  return -1;
}

void split(D3DCOLOR c, double (&out)[4]) {
  out[0] = ch(c, 16);
  out[1] = ch(c, 8);
  out[2] = ch(c, 0);
  out[3] = ch(c, 24);
}

}  // namespace

TEST_CASE("render blend: every D3DBLEND factor pair and every BLENDOP on an A8R8G8B8 target") {
  // Source (diffuse) A=0xB4 R=200 G=60 B=130 over destination A=0x50 R=40 G=220 B=100,
  // BLENDFACTOR A=0x66 R=0x33 G=0xCC B=0x99. Expected per channel:
  // round(clamp(s·sf op d·df)·255), computed in double from the 8-bit inputs; MIN / MAX
  // ignore the factors. Pairs whose exact result sits within 0.002 of a rounding tie are
  // skipped (none with these colours, checked below).
  const D3DCOLOR src = 0xB4C83C82u, dst = 0x5028DC64u, konst = 0x6633CC99u;
  double s[4], d[4], k[4];
  split(src, s);
  split(dst, d);
  split(konst, k);
  Scene sc(2, 2, D3DFMT_A8R8G8B8);
  int checked = 0, ties = 0, failures = 0;
  for (DWORD op = D3DBLENDOP_ADD; op <= D3DBLENDOP_MAX; ++op)
    for (DWORD sb = D3DBLEND_ZERO; sb <= D3DBLEND_INVBLENDFACTOR; ++sb)
      for (DWORD db = D3DBLEND_ZERO; db <= D3DBLEND_INVBLENDFACTOR; ++db) {
        // BOTH* are source-only factors (they override DESTBLEND); MIN/MAX ignore factors.
        if (db == D3DBLEND_BOTHSRCALPHA || db == D3DBLEND_BOTHINVSRCALPHA) continue;
        if (op >= D3DBLENDOP_MIN && (sb != D3DBLEND_ONE || db != D3DBLEND_ONE) &&
            !(sb == D3DBLEND_ZERO && db == D3DBLEND_ZERO))
          continue;
        const bool both = sb == D3DBLEND_BOTHSRCALPHA || sb == D3DBLEND_BOTHINVSRCALPHA;
        std::uint32_t want = 0;
        bool tie = false;
        for (int c = 0; c < 4; ++c) {
          const double sf = factor(sb, s, d, k, c, true), df = factor(both ? sb : db, s, d, k, c, false);
          double r = 0;
          switch (op) {
            case D3DBLENDOP_ADD: r = s[c] * sf + d[c] * df; break;
            case D3DBLENDOP_SUBTRACT: r = s[c] * sf - d[c] * df; break;
            case D3DBLENDOP_REVSUBTRACT: r = d[c] * df - s[c] * sf; break;
            case D3DBLENDOP_MIN: r = std::min(s[c], d[c]); break;
            case D3DBLENDOP_MAX: r = std::max(s[c], d[c]); break;
          }
          r = std::clamp(r, 0.0, 1.0) * 255.0;
          tie = tie || std::fabs(r - std::floor(r) - 0.5) < 0.002;
          const int shift = c == 3 ? 24 : 16 - 8 * c;
          want |= static_cast<std::uint32_t>(std::floor(r + 0.5)) << shift;
        }
        if (tie) {
          ++ties;
          continue;
        }
        StreamWriter w;
        w.clear(D3DCLEAR_TARGET, dst, 1.0f, 0);
        diffuse_only(w)
            .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
            .render_state(D3DRS_ALPHABLENDENABLE, TRUE)
            .render_state(D3DRS_SRCBLEND, sb)
            .render_state(D3DRS_DESTBLEND, db)
            .render_state(D3DRS_BLENDOP, op)
            .render_state(D3DRS_BLENDFACTOR, konst);
        VertexWriter v(kFvfC);
        quad(v, 0, 0, 2, 2, 0.5f, src);
        w.triangle_list(0, 2);
        sc.run(w, v);
        const std::uint32_t got = sc.raw(1, 1);
        ++checked;
        if (got != want) {
          ++failures;
          MESSAGE("BLENDOP " << op << " " << kBlendNames[sb] << "/" << kBlendNames[db] << ": got 0x" << std::hex
                             << got << " want 0x" << want);
        }
      }
  CHECK(failures == 0);
  CHECK(ties == 0);
  CHECK(checked == 3 * 15 * 13 + 2 * 2);
}

TEST_CASE("render blend: COLORWRITEENABLE keeps the masked-out channels of the destination") {
  const D3DCOLOR src = 0xB4C83C82u, dst = 0x5028DC64u;
  Scene sc(2, 2, D3DFMT_A8R8G8B8);
  for (DWORD mask = 0; mask < 16; ++mask) {
    CAPTURE(mask);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, dst, 1.0f, 0);
    diffuse_only(w).render_state(D3DRS_CULLMODE, D3DCULL_NONE).render_state(D3DRS_COLORWRITEENABLE, mask);
    VertexWriter v(kFvfC);
    quad(v, 0, 0, 2, 2, 0.5f, src);
    w.triangle_list(0, 2);
    sc.run(w, v);
    // RED = bit 0 (bits 23..16), GREEN = bit 1, BLUE = bit 2, ALPHA = bit 3 (bits 31..24).
    std::uint32_t keep = 0;
    if (mask & D3DCOLORWRITEENABLE_RED) keep |= 0x00FF0000u;
    if (mask & D3DCOLORWRITEENABLE_GREEN) keep |= 0x0000FF00u;
    if (mask & D3DCOLORWRITEENABLE_BLUE) keep |= 0x000000FFu;
    if (mask & D3DCOLORWRITEENABLE_ALPHA) keep |= 0xFF000000u;
    CHECK(sc.raw(0, 0) == ((src & keep) | (dst & ~keep)));
  }
}

namespace {
bool cmp(DWORD func, std::uint32_t a, std::uint32_t b) {
  switch (func) {
    case D3DCMP_NEVER: return false;
    case D3DCMP_LESS: return a < b;
    case D3DCMP_EQUAL: return a == b;
    case D3DCMP_LESSEQUAL: return a <= b;
    case D3DCMP_GREATER: return a > b;
    case D3DCMP_NOTEQUAL: return a != b;
    case D3DCMP_GREATEREQUAL: return a >= b;
    case D3DCMP_ALWAYS: return true;
  }
  return false;
}
}  // namespace

TEST_CASE("render alpha test: every ALPHAFUNC around ALPHAREF") {
  // The pixel is written when (pixel alpha) ALPHAFUNC (ALPHAREF); alphas 0x7F, 0x80, 0x81
  // in columns 0, 1, 2 against ALPHAREF 0x80.
  const std::uint32_t ref = 0x80, alphas[3] = {0x7F, 0x80, 0x81};
  Scene sc(4, 1, D3DFMT_X8R8G8B8);
  for (DWORD func = D3DCMP_NEVER; func <= D3DCMP_ALWAYS; ++func) {
    CAPTURE(func);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    diffuse_only(w)
        .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
        .render_state(D3DRS_ALPHATESTENABLE, TRUE)
        .render_state(D3DRS_ALPHAFUNC, func)
        .render_state(D3DRS_ALPHAREF, ref);
    VertexWriter v(kFvfC);
    for (int i = 0; i < 3; ++i) quad(v, float(i), 0, float(i + 1), 1, 0.5f, (alphas[i] << 24) | 0x00FFFFFFu);
    w.triangle_list(0, 6);
    sc.run(w, v);
    for (std::uint32_t i = 0; i < 3; ++i) {
      CAPTURE(i);
      CHECK(sc.rgb(i, 0) == (cmp(func, alphas[i], ref) ? 0xFFFFFFu : 0u));
    }
  }
}

namespace {
std::uint32_t d24(double z) { return q(z, 24); }
}  // namespace

TEST_CASE("render depth: every ZFUNC, ZWRITEENABLE and the ZRANGE clamp on D24S8") {
  // Depth cleared to 0.5; columns 0, 1, 2 draw z = 0.25, 0.5, 0.75. A pixel passes when
  // (new z) ZFUNC (stored z); stored values are round(z·(2^24 − 1)).
  const float zs[3] = {0.25f, 0.5f, 0.75f};
  for (DWORD func = D3DCMP_NEVER; func <= D3DCMP_ALWAYS; ++func)
    for (DWORD write : {TRUE, FALSE}) {
      CAPTURE(func);
      CAPTURE(write);
      Scene sc(4, 1, D3DFMT_X8R8G8B8, D3DFMT_D24S8);
      StreamWriter w;
      w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0, 0.5f, 0);
      diffuse_only(w)
          .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
          .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
          .render_state(D3DRS_ZFUNC, func)
          .render_state(D3DRS_ZWRITEENABLE, write);
      VertexWriter v(kFvfC);
      for (int i = 0; i < 3; ++i) quad(v, float(i), 0, float(i + 1), 1, zs[i], 0xFFFFFFFFu);
      w.triangle_list(0, 6);
      sc.run(w, v);
      for (std::uint32_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        const bool pass = cmp(func, d24(zs[i]), d24(0.5));
        CHECK(sc.rgb(i, 0) == (pass ? 0xFFFFFFu : 0u));
        CHECK(sc.depth(i, 0) == (pass && write ? d24(zs[i]) : d24(0.5)));
      }
      CHECK(sc.depth(3, 0) == d24(0.5));
    }
  SUBCASE("z is clamped to [MinZ, MaxZ] of ZRANGE") {
    Scene sc(4, 1, D3DFMT_X8R8G8B8, D3DFMT_D24S8);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0, 0.5f, 0);
    diffuse_only(w)
        .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
        .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
        .render_state(D3DRS_ZFUNC, D3DCMP_ALWAYS)
        .zrange(0.25f, 0.75f);
    VertexWriter v(kFvfC);
    quad(v, 0, 0, 1, 1, 0.9f, 0xFFFFFFFFu);
    quad(v, 1, 0, 2, 1, 0.1f, 0xFFFFFFFFu);
    quad(v, 2, 0, 3, 1, 0.5f, 0xFFFFFFFFu);
    w.triangle_list(0, 6);
    sc.run(w, v);
    CHECK(sc.depth(0, 0) == d24(0.75));
    CHECK(sc.depth(1, 0) == d24(0.25));
    CHECK(sc.depth(2, 0) == d24(0.5));
  }
}

namespace {
std::uint32_t stencil_after(DWORD op, std::uint32_t v, std::uint32_t ref) {
  switch (op) {
    case D3DSTENCILOP_KEEP: return v;
    case D3DSTENCILOP_ZERO: return 0;
    case D3DSTENCILOP_REPLACE: return ref;
    case D3DSTENCILOP_INCRSAT: return std::min(v + 1, 255u);
    case D3DSTENCILOP_DECRSAT: return v ? v - 1 : 0;
    case D3DSTENCILOP_INVERT: return ~v & 0xFFu;
    case D3DSTENCILOP_INCR: return (v + 1) & 0xFFu;
    case D3DSTENCILOP_DECR: return (v - 1) & 0xFFu;
  }
  return 999;
}

// Per-pixel stencil start values through stencil-only clears of 1×1 rectangles.
void seed_stencil(StreamWriter& w, std::span<const std::uint32_t> values) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const RECT r{LONG(i), 0, LONG(i + 1), 1};
    w.clear(D3DCLEAR_STENCIL, 0, 0, values[i], std::span(&r, 1));
  }
}
}  // namespace

TEST_CASE("render stencil: every op on the fail, zfail and pass paths") {
  // Stencil-fail path: STENCILFUNC NEVER; z-fail path: ALWAYS with ZFUNC NEVER; pass path:
  // both ALWAYS. Start values 0x00, 0x7E, 0xFF; STENCILREF 0x5A.
  const std::uint32_t start[3] = {0x00, 0x7E, 0xFF}, ref = 0x5A;
  const D3DRENDERSTATETYPE path_state[3] = {D3DRS_STENCILFAIL, D3DRS_STENCILZFAIL, D3DRS_STENCILPASS};
  for (int path = 0; path < 3; ++path)
    for (DWORD op = D3DSTENCILOP_KEEP; op <= D3DSTENCILOP_DECR; ++op) {
      CAPTURE(path);
      CAPTURE(op);
      Scene sc(4, 1, D3DFMT_X8R8G8B8, D3DFMT_D24S8);
      StreamWriter w;
      w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0, 0.5f, 0);
      seed_stencil(w, start);
      diffuse_only(w)
          .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
          .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
          .render_state(D3DRS_ZFUNC, path == 1 ? D3DCMP_NEVER : D3DCMP_ALWAYS)
          .render_state(D3DRS_STENCILENABLE, TRUE)
          .render_state(D3DRS_STENCILFUNC, path == 0 ? D3DCMP_NEVER : D3DCMP_ALWAYS)
          .render_state(D3DRS_STENCILREF, ref)
          .render_state(path_state[path], op);
      VertexWriter v(kFvfC);
      quad(v, 0, 0, 3, 1, 0.25f, 0xFFFFFFFFu);
      w.triangle_list(0, 2);
      sc.run(w, v);
      for (std::uint32_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        CHECK(sc.stencil(i, 0) == stencil_after(op, start[i], ref));
        CHECK(sc.rgb(i, 0) == (path == 2 ? 0xFFFFFFu : 0u));
        CHECK(sc.depth(i, 0) == (path == 2 ? d24(0.25) : d24(0.5)));  // stencil fail / z fail write no depth
      }
      CHECK(sc.stencil(3, 0) == 0u);
    }
}

TEST_CASE("render stencil: every STENCILFUNC, STENCILMASK, STENCILWRITEMASK") {
  SUBCASE("functions compare (ref & mask) FUNC (stored & mask)") {
    const std::uint32_t stored[3] = {0x3F, 0x40, 0x41}, ref = 0x40;
    for (DWORD func = D3DCMP_NEVER; func <= D3DCMP_ALWAYS; ++func) {
      CAPTURE(func);
      Scene sc(4, 1, D3DFMT_X8R8G8B8, D3DFMT_D24S8);
      StreamWriter w;
      w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0, 0.5f, 0);
      seed_stencil(w, stored);
      diffuse_only(w)
          .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
          .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
          .render_state(D3DRS_ZFUNC, D3DCMP_ALWAYS)
          .render_state(D3DRS_STENCILENABLE, TRUE)
          .render_state(D3DRS_STENCILFUNC, func)
          .render_state(D3DRS_STENCILREF, ref);
      VertexWriter v(kFvfC);
      quad(v, 0, 0, 3, 1, 0.25f, 0xFFFFFFFFu);
      w.triangle_list(0, 2);
      sc.run(w, v);
      for (std::uint32_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        CHECK(sc.rgb(i, 0) == (cmp(func, ref, stored[i]) ? 0xFFFFFFu : 0u));
      }
    }
  }
  SUBCASE("STENCILMASK masks both sides; STENCILWRITEMASK limits the bits written") {
    // mask 0x0F, ref 0x35: stored 0xA5 → 5 == 5 passes, stored 0xA6 → 5 ≠ 6 fails.
    // Pass op INVERT, fail op INVERT, write mask 0xF0: new = (old & 0x0F) | (~old & 0xF0).
    const std::uint32_t stored[2] = {0xA5, 0xA6};
    Scene sc(4, 1, D3DFMT_X8R8G8B8, D3DFMT_D24S8);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0, 0.5f, 0);
    seed_stencil(w, stored);
    diffuse_only(w)
        .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
        .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
        .render_state(D3DRS_ZFUNC, D3DCMP_ALWAYS)
        .render_state(D3DRS_STENCILENABLE, TRUE)
        .render_state(D3DRS_STENCILFUNC, D3DCMP_EQUAL)
        .render_state(D3DRS_STENCILREF, 0x35)
        .render_state(D3DRS_STENCILMASK, 0x0F)
        .render_state(D3DRS_STENCILWRITEMASK, 0xF0)
        .render_state(D3DRS_STENCILPASS, D3DSTENCILOP_INVERT)
        .render_state(D3DRS_STENCILFAIL, D3DSTENCILOP_INVERT);
    VertexWriter v(kFvfC);
    quad(v, 0, 0, 2, 1, 0.25f, 0xFFFFFFFFu);
    w.triangle_list(0, 2);
    sc.run(w, v);
    CHECK(sc.rgb(0, 0) == 0xFFFFFFu);
    CHECK(sc.rgb(1, 0) == 0u);
    CHECK(sc.stencil(0, 0) == 0x55u);  // (0xA5 & 0x0F) | (0x5A & 0xF0)
    CHECK(sc.stencil(1, 0) == 0x56u);  // (0xA6 & 0x0F) | (0x59 & 0xF0)
  }
}

TEST_CASE("render stencil: TWOSIDEDSTENCILMODE uses the CCW_ states for counter-clockwise triangles") {
  // Clockwise triangle over pixel (1,1), counter-clockwise over (9,1); start 0x10.
  // STENCILPASS INCR, CCW_STENCILPASS DECR. Two-sided off: both use the CW states.
  for (DWORD two_sided : {TRUE, FALSE}) {
    CAPTURE(two_sided);
    Scene sc(12, 4, D3DFMT_X8R8G8B8, D3DFMT_D24S8);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL, 0, 0.5f, 0x10);
    diffuse_only(w)
        .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
        .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
        .render_state(D3DRS_ZFUNC, D3DCMP_ALWAYS)
        .render_state(D3DRS_STENCILENABLE, TRUE)
        .render_state(D3DRS_TWOSIDEDSTENCILMODE, two_sided)
        .render_state(D3DRS_STENCILPASS, D3DSTENCILOP_INCR)
        .render_state(D3DRS_CCW_STENCILPASS, D3DSTENCILOP_DECR)
        .render_state(D3DRS_CCW_STENCILFUNC, D3DCMP_ALWAYS);
    VertexWriter v(kFvfC);
    v.tl(0, 0, 0.25f, 1).tl(4, 0, 0.25f, 1).tl(0, 4, 0.25f, 1);  // clockwise
    v.tl(8, 0, 0.25f, 1).tl(8, 4, 0.25f, 1).tl(12, 0, 0.25f, 1);  // counter-clockwise
    w.triangle_list(0, 2);
    sc.run(w, v);
    CHECK(sc.stencil(1, 1) == 0x11u);
    CHECK(sc.stencil(9, 1) == (two_sided ? 0x0Fu : 0x11u));
  }
  SUBCASE("CCW_STENCILFUNC / CCW_STENCILFAIL") {
    Scene sc(12, 4, D3DFMT_X8R8G8B8, D3DFMT_D24S8);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL, 0, 0.5f, 0x10);
    diffuse_only(w)
        .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
        .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
        .render_state(D3DRS_ZFUNC, D3DCMP_ALWAYS)
        .render_state(D3DRS_STENCILENABLE, TRUE)
        .render_state(D3DRS_TWOSIDEDSTENCILMODE, TRUE)
        .render_state(D3DRS_CCW_STENCILFUNC, D3DCMP_NEVER)
        .render_state(D3DRS_CCW_STENCILFAIL, D3DSTENCILOP_ZERO);
    VertexWriter v(kFvfC);
    v.tl(0, 0, 0.25f, 1).tl(4, 0, 0.25f, 1).tl(0, 4, 0.25f, 1);
    v.tl(8, 0, 0.25f, 1).tl(8, 4, 0.25f, 1).tl(12, 0, 0.25f, 1);
    w.triangle_list(0, 2);
    sc.run(w, v);
    CHECK(sc.rgb(1, 1) == 0xFFFFFFu);
    CHECK(sc.stencil(1, 1) == 0x10u);
    CHECK(sc.rgb(9, 1) == 0u);
    CHECK(sc.stencil(9, 1) == 0u);
  }
}

TEST_CASE("render clear: rectangles at any offset and width fill exactly their pixels, 16- and 32-bit") {
  // D3DDP2OP_CLEAR with D3DCLEAR_TARGET writes the colour, converted to the target's
  // format, into every pixel of each rectangle and nowhere else. The rectangles start at
  // every x from 0 to 4 and end past or before a 64-pixel tile edge, so each position in
  // a run of pixels is someone's first, last or middle pixel. Green 0xFF00FF00 in
  // R5G6B5 is g = 0xFF >> 2 = 63 in bits 5–10: 0x07E0; in X8R8G8B8 rgb 0x00FF00.
  const RECT rects[] = {{1, 0, 74, 1}, {3, 1, 12, 2}, {0, 2, 9, 3}, {4, 3, 5, 4}, {2, 4, 67, 5}, {0, 5, 75, 6}};
  for (D3DFORMAT f : {D3DFMT_X8R8G8B8, D3DFMT_R5G6B5}) {
    CAPTURE(f);
    Scene sc(75, 6, f);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0xFF000000u, 1.0f, 0);
    w.clear(D3DCLEAR_TARGET, 0xFF00FF00u, 1.0f, 0, rects);
    sc.run(w);
    const std::uint32_t green = f == D3DFMT_R5G6B5 ? 0x07E0u : 0x00FF00u;
    const std::uint32_t mask = f == D3DFMT_R5G6B5 ? 0xFFFFu : 0xFFFFFFu;
    int bad = 0;
    for (std::uint32_t y = 0; y < sc.h; ++y)
      for (std::uint32_t x = 0; x < sc.w; ++x) {
        const RECT& r = rects[y];
        const bool in = static_cast<LONG>(x) >= r.left && static_cast<LONG>(x) < r.right;
        if ((sc.raw(x, y) & mask) != (in ? green : 0u)) ++bad;
      }
    CHECK(bad == 0);
  }
}

TEST_CASE("render clear: rectangles clipped to the target, outside ones ignored, none = viewport") {
  auto count_in = [](Scene& sc, auto pred) {
    int bad = 0;
    for (std::uint32_t y = 0; y < sc.h; ++y)
      for (std::uint32_t x = 0; x < sc.w; ++x)
        if (!pred(x, y)) ++bad;
    return bad;
  };
  SUBCASE("target rectangles") {
    Scene sc(16, 16);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0xFF000000u, 1.0f, 0);
    const RECT rects[] = {{2, 2, 5, 5}, {10, 12, 30, 40}, {20, 20, 25, 25}, {-5, -5, 2, 1}};
    w.clear(D3DCLEAR_TARGET, 0xFF123456u, 1.0f, 0, rects);
    sc.run(w);
    CHECK(count_in(sc, [&](std::uint32_t x, std::uint32_t y) {
            const bool in = (x >= 2 && x < 5 && y >= 2 && y < 5) || (x >= 10 && y >= 12) || (x < 2 && y < 1);
            return sc.rgb(x, y) == (in ? 0x123456u : 0u);
          }) == 0);
  }
  SUBCASE("z and stencil rectangles are independent") {
    Scene sc(8, 8, D3DFMT_X8R8G8B8, D3DFMT_D24S8);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL, 0, 1.0f, 0x11);
    const RECT rz{0, 0, 4, 8}, rs{2, 0, 8, 3};
    w.clear(D3DCLEAR_ZBUFFER, 0xFFFFFFFFu, 0.25f, 0x99, std::span(&rz, 1));
    w.clear(D3DCLEAR_STENCIL, 0xFFFFFFFFu, 0.75f, 0xA7, std::span(&rs, 1));
    sc.run(w);
    CHECK(count_in(sc, [&](std::uint32_t x, std::uint32_t y) {
            return sc.depth(x, y) == (x < 4 ? d24(0.25) : d24(1.0)) &&
                   sc.stencil(x, y) == ((x >= 2 && y < 3) ? 0xA7u : 0x11u) && sc.rgb(x, y) == 0u;
          }) == 0);
  }
  SUBCASE("no rectangles: the viewport") {
    Scene sc(16, 16, D3DFMT_X8R8G8B8, D3DFMT_D24S8);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL, 0, 1.0f, 0);
    w.viewport(4, 4, 8, 6).clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL, 0xFFABCDEFu, 0.5f, 7);
    sc.run(w);
    CHECK(count_in(sc, [&](std::uint32_t x, std::uint32_t y) {
            const bool in = x >= 4 && x < 12 && y >= 4 && y < 10;
            return sc.rgb(x, y) == (in ? 0xABCDEFu : 0u) && sc.depth(x, y) == (in ? d24(0.5) : d24(1.0)) &&
                   sc.stencil(x, y) == (in ? 7u : 0u);
          }) == 0);
  }
}

TEST_CASE("render blend: SEPARATEALPHABLENDENABLE blends alpha with SRCBLENDALPHA / DESTBLENDALPHA / BLENDOPALPHA") {
  // D3D9: with SEPARATEALPHABLENDENABLE TRUE the colour channels use SRCBLEND / DESTBLEND /
  // BLENDOP and the alpha channel SRCBLENDALPHA / DESTBLENDALPHA / BLENDOPALPHA.
  // Colour ONE/ZERO ADD → rgb = source; alpha ZERO/ONE ADD → alpha = destination (0x50).
  // Alpha SRCALPHA/INVSRCALPHA REVSUBTRACT → Ad·(1 − As) − As·As clamped to 0.
  const D3DCOLOR src = 0xB4C83C82u, dst = 0x5028DC64u;
  struct Case {
    DWORD sba, dba, opa;
    std::uint32_t want_alpha;
  } cases[] = {
      {D3DBLEND_ZERO, D3DBLEND_ONE, D3DBLENDOP_ADD, 0x50},
      {D3DBLEND_ONE, D3DBLEND_ONE, D3DBLENDOP_ADD, 0xFF},  // 0xB4 + 0x50 clamped
      {D3DBLEND_SRCALPHA, D3DBLEND_INVSRCALPHA, D3DBLENDOP_REVSUBTRACT, 0x00},
      // ONE/ONE SUBTRACT: 0xB4 − 0x50 = 0x64
      {D3DBLEND_ONE, D3DBLEND_ONE, D3DBLENDOP_SUBTRACT, 0x64},
  };
  for (const Case& c : cases) {
    CAPTURE(c.sba);
    CAPTURE(c.dba);
    CAPTURE(c.opa);
    Scene sc(2, 2, D3DFMT_A8R8G8B8);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, dst, 1.0f, 0);
    diffuse_only(w)
        .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
        .render_state(D3DRS_ALPHABLENDENABLE, TRUE)
        .render_state(D3DRS_SRCBLEND, D3DBLEND_ONE)
        .render_state(D3DRS_DESTBLEND, D3DBLEND_ZERO)
        .render_state(D3DRS_BLENDOP, D3DBLENDOP_ADD)
        .render_state(D3DRS_SEPARATEALPHABLENDENABLE, TRUE)
        .render_state(D3DRS_SRCBLENDALPHA, c.sba)
        .render_state(D3DRS_DESTBLENDALPHA, c.dba)
        .render_state(D3DRS_BLENDOPALPHA, c.opa);
    VertexWriter v(kFvfC);
    quad(v, 0, 0, 2, 2, 0.5f, src);
    w.triangle_list(0, 2);
    sc.run(w, v);
    CHECK(sc.rgb(0, 0) == (src & 0xFFFFFFu));
    CHECK((sc.raw(0, 0) >> 24) == c.want_alpha);
  }
}

TEST_CASE("render blend: a target without alpha reads destination alpha as 1") {
  // DESTALPHA on X8R8G8B8 / R5G6B5: Ad = 1, so ONE·s + DESTALPHA·d... use
  // SRCBLEND ZERO, DESTBLEND DESTALPHA: result = d·1 = d; INVDESTALPHA: result = 0.
  for (D3DFORMAT f : {D3DFMT_X8R8G8B8, D3DFMT_R5G6B5}) {
    for (DWORD db : {D3DBLEND_DESTALPHA, D3DBLEND_INVDESTALPHA}) {
      CAPTURE(f);
      CAPTURE(db);
      Scene sc(2, 2, f);
      StreamWriter w;
      w.clear(D3DCLEAR_TARGET, 0xFFFFFFFFu, 1.0f, 0);  // white: exact in both formats
      diffuse_only(w)
          .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
          .render_state(D3DRS_ALPHABLENDENABLE, TRUE)
          .render_state(D3DRS_SRCBLEND, D3DBLEND_ZERO)
          .render_state(D3DRS_DESTBLEND, db);
      VertexWriter v(kFvfC);
      quad(v, 0, 0, 2, 2, 0.5f, 0x80123456u);
      w.triangle_list(0, 2);
      sc.run(w, v);
      const std::uint32_t white = f == D3DFMT_R5G6B5 ? 0xFFFFu : 0xFFFFFFu;
      const std::uint32_t mask = f == D3DFMT_R5G6B5 ? 0xFFFFu : 0xFFFFFFu;
      CHECK((sc.raw(1, 1) & mask) == (db == D3DBLEND_DESTALPHA ? white : 0u));
    }
  }
}
