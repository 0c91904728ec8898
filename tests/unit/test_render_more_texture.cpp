// Golden rendering tests through the public API: colour keying, palettized textures and
// targets, sampling through the pipeline (bilinear, mip selection, LOD bias, MAXMIPLEVEL,
// SETTEXLOD, address modes, WRAP0), perspective-correct texture coordinates and the DX5
// legacy texture states. Every expected value is derived from the Direct3D rule written
// beside the check, never from dp2 output.
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

// ---- 1. colour keying ------------------------------------------------------------------------

namespace {
// R5G6B5 4×1 texture: texel 0 = the key (magenta 0xF81F), texel 1 = the key with its lowest
// bit cleared (0xF81E), texels 2, 3 other colours. Mapped 1:1 onto pixels (0..3, 0).
constexpr DWORD kKey = 0xF81Fu;
constexpr std::uint32_t kKeyTexels[4] = {0xF81Fu, 0xF81Eu, 0x07E0u, 0x001Fu};
// R5G6B5 → 0x00RRGGBB with each channel scaled c·255/(2^n − 1), rounded.
std::uint32_t rgb565(std::uint32_t p) {
  return q(double(p >> 11) / 31.0, 8) << 16 | q(double((p >> 5) & 63) / 63.0, 8) << 8 | q(double(p & 31) / 31.0, 8);
}
std::unique_ptr<Scene> keyed_scene(DWORD enable, DWORD blend_enable, DWORD src_blend, DWORD dst_blend) {
  auto sc = std::make_unique<Scene>(4, 1, D3DFMT_X8R8G8B8, D3DFMT_D24S8);
  sc->texture_fmt(kTex, D3DFMT_R5G6B5, 4, 1, 1, [](std::uint32_t, std::uint32_t x, std::uint32_t) { return kKeyTexels[x]; },
                  true, kKey);
  StreamWriter w;
  w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xFF405060u, 1.0f, 0);
  texture_only(w, kTex)
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
      .render_state(D3DRS_ZFUNC, D3DCMP_LESSEQUAL)
      .render_state(D3DRENDERSTATE_COLORKEYENABLE, enable)
      .render_state(D3DRENDERSTATE_COLORKEYBLENDENABLE, blend_enable)
      .render_state(D3DRS_ALPHABLENDENABLE, src_blend != 0)
      .render_state(D3DRS_SRCBLEND, src_blend ? src_blend : DWORD{D3DBLEND_ONE})
      .render_state(D3DRS_DESTBLEND, dst_blend ? dst_blend : DWORD{D3DBLEND_ZERO});
  VertexWriter v(kFvfT);
  tquad(v, -0.5f, -0.5f, 3.5f, 0.5f, 0, 0, 1, 1, 0xFFFFFFFFu, 0, 0.25f);
  w.triangle_list(0, 2);
  sc->run(w, v);
  return sc;
}
}  // namespace

TEST_CASE("render more colour key: COLORKEYENABLE kills texels equal to the key's raw bits only") {
  // D3DRENDERSTATE_COLORKEYENABLE: a texel whose bits equal the texture's source colour
  // key exactly is transparent; the pixel is not written (colour nor depth). A texel one
  // bit away is an ordinary texel.
  auto sc = keyed_scene(TRUE, FALSE, 0, 0);
  CHECK(sc->rgb(0, 0) == 0x405060u);
  CHECK(sc->depth(0, 0) == q(1.0, 24));
  CHECK(sc->rgb(1, 0) == rgb565(0xF81Eu));
  CHECK(sc->depth(1, 0) == q(0.25, 24));
  CHECK(sc->rgb(2, 0) == rgb565(0x07E0u));
  CHECK(sc->rgb(3, 0) == rgb565(0x001Fu));
  SUBCASE("COLORKEYENABLE FALSE: the key colour is drawn like any texel") {
    auto off = keyed_scene(FALSE, FALSE, 0, 0);
    CHECK(off->rgb(0, 0) == rgb565(kKey));
    CHECK(off->rgb(1, 0) == rgb565(0xF81Eu));
  }
}

TEST_CASE("render more colour key: COLORKEYBLENDENABLE turns keyed texels into transparent black that blends") {
  // With COLORKEYBLENDENABLE the keyed texel reads (0, 0, 0, 0) and goes on through the
  // pipeline: the pixel is not discarded, so blending decides (and depth is written).
  SUBCASE("SRCALPHA / INVSRCALPHA: 0·0 + dst·1 = dst") {
    auto sc = keyed_scene(TRUE, TRUE, D3DBLEND_SRCALPHA, D3DBLEND_INVSRCALPHA);
    CHECK(sc->rgb(0, 0) == 0x405060u);
    CHECK(sc->depth(0, 0) == q(0.25, 24));  // not killed: depth written
    CHECK(sc->rgb(1, 0) == rgb565(0xF81Eu));  // alpha 1 (no alpha channel): src
  }
  SUBCASE("ONE / ZERO: the transparent black itself is written") {
    auto sc = keyed_scene(TRUE, TRUE, D3DBLEND_ONE, D3DBLEND_ZERO);
    CHECK(sc->rgb(0, 0) == 0u);
    CHECK(sc->rgb(2, 0) == rgb565(0x07E0u));
  }
}

// ---- 2. palettes ------------------------------------------------------------------------------

TEST_CASE("render more palette: P8 texture through SETPALETTE / UPDATEPALETTE, alpha only with DDRAWIPAL_ALPHA") {
  // A P8 texel is an index into the palette bound to the texture (SETPALETTE); entries are
  // ARGB 8:8:8:8 (DP2-OPCODES.md row 31); the entry's alpha is the texel alpha only when the
  // palette was created with DDRAWIPAL_ALPHA, else the texel is opaque.
  const std::uint8_t idx[4] = {3, 7, 200, 255};
  const DWORD entries[4] = {0x40112233u, 0x80A0B0C0u, 0xC0FF0080u, 0x10FEDCBAu};
  for (DWORD flags : {DWORD{0}, DWORD{DDRAWIPAL_ALPHA}}) {
    CAPTURE(flags);
    Scene sc(4, 1, D3DFMT_A8R8G8B8);
    sc.texture_fmt(kTex, D3DFMT_P8, 4, 1, 1, [&](std::uint32_t, std::uint32_t x, std::uint32_t) { return idx[x]; });
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    w.set_palette(9, flags, kTex);
    for (int i = 0; i < 4; ++i) w.update_palette(9, idx[i], std::span(&entries[i], 1));
    texture_only(w, kTex).render_state(D3DRS_CULLMODE, D3DCULL_NONE);
    VertexWriter v(kFvfT);
    tquad(v, -0.5f, -0.5f, 3.5f, 0.5f, 0, 0, 1, 1);
    w.triangle_list(0, 2);
    sc.run(w, v);
    for (std::uint32_t x = 0; x < 4; ++x) {
      CAPTURE(x);
      const std::uint32_t want = (entries[x] & 0xFFFFFFu) | (flags ? entries[x] & 0xFF000000u : 0xFF000000u);
      CHECK(sc.raw(x, 0) == want);
    }
  }
}

TEST_CASE("render more palette: a P8 render target stores the nearest palette entry's index") {
  // Clearing or drawing into a P8 target converts the colour to the index of the palette
  // entry nearest to it (D3DHAL_DP2CLEAR: "drivers must convert input color values").
  const DWORD pal[4] = {0xFF000000u, 0xFFFF0000u, 0xFF00FF00u, 0xFF2040C0u};
  Scene sc(4, 2, D3DFMT_P8);
  StreamWriter w;
  w.set_palette(5, 0, kRT);
  // Fill all 256 entries with far-away white-ish copies, then the four we test.
  std::vector<DWORD> all(256, 0xFFFFFFFFu);
  w.update_palette(5, 0, all);
  w.update_palette(5, 10, pal);  // indices 10..13
  w.clear(D3DCLEAR_TARGET, 0xFF1E44B8u, 1.0f, 0);  // nearest to 0x2040C0 → index 13
  diffuse_only(w).render_state(D3DRS_CULLMODE, D3DCULL_NONE);
  VertexWriter v(kFvfC);
  quad(v, 0, 0, 2, 1, 0.5f, 0xFFF01010u);  // nearest to red → index 11
  quad(v, 2, 0, 4, 1, 0.5f, 0xFF10E020u);  // nearest to green → index 12
  w.triangle_list(0, 4);
  sc.run(w, v);
  CHECK(sc.raw(0, 0) == 11u);
  CHECK(sc.raw(3, 0) == 12u);
  CHECK(sc.raw(0, 1) == 13u);
  CHECK(sc.raw(3, 1) == 13u);
}

// ---- 4. sampling -----------------------------------------------------------------------------

TEST_CASE("render more sampling: bilinear weights at known pixel centres") {
  // A 2×2 texture over an 8×8 quad with (u, v) = (x/8, y/8) at pixel centre (x, y).
  // LINEAR reads texels around (u·2 − ½, v·2 − ½) with weights from its fraction; CLAMP.
  const std::uint32_t t[4] = {0xFF000000u, 0xFFFF0000u, 0xFF0000FFu, 0xFFFFFFFFu};
  Scene sc(8, 8, D3DFMT_X8R8G8B8);
  sc.texture(kTex, 2, 2, {t[0], t[1], t[2], t[3]});
  StreamWriter w;
  w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  texture_only(w, kTex)
      .texture_stage_state(0, D3DTSS_MAGFILTER, D3DTEXF_LINEAR)
      .texture_stage_state(0, D3DTSS_MINFILTER, D3DTEXF_LINEAR)
      .texture_stage_state(0, D3DTSS_ADDRESSU, D3DTADDRESS_CLAMP)
      .texture_stage_state(0, D3DTSS_ADDRESSV, D3DTADDRESS_CLAMP)
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE);
  VertexWriter v(kFvfT);
  tquad(v, 0, 0, 8, 8, 0, 0, 1, 1);
  w.triangle_list(0, 2);
  sc.run(w, v);
  for (std::uint32_t y = 0; y < 8; ++y)
    for (std::uint32_t x = 0; x < 8; ++x) {
      CAPTURE(x);
      CAPTURE(y);
      const double fx = std::clamp(x / 8.0 * 2 - 0.5, 0.0, 1.0), fy = std::clamp(y / 8.0 * 2 - 0.5, 0.0, 1.0);
      double want[4];
      const int sh[4] = {16, 8, 0, 24};
      for (int k = 0; k < 4; ++k)
        want[k] = (ch(t[0], sh[k]) * (1 - fx) + ch(t[1], sh[k]) * fx) * (1 - fy) +
                  (ch(t[2], sh[k]) * (1 - fx) + ch(t[3], sh[k]) * fx) * fy;
      CHECK(channels_near(sc.raw(x, y), want, false));
    }
}

namespace {
// 16×16 texture, 5 levels, each level one flat colour.
constexpr std::uint32_t kLevelColor[5] = {0xFFFF0000u, 0xFF00FF00u, 0xFF0000FFu, 0xFFFFFFFFu, 0xFF808080u};
// A 4×4-pixel quad showing the whole 16×16 texture: 4 texels per pixel → λ = log2 4 = 2.
std::uint32_t mip_pixel(std::uint32_t version, DWORD mip_filter, float bias, DWORD max_mip, DWORD texlod = ~0u) {
  Scene sc(4, 4, D3DFMT_X8R8G8B8, D3DFMT_UNKNOWN, 1, version);
  sc.texture_fmt(kTex, D3DFMT_A8R8G8B8, 16, 16, 5, [](std::uint32_t l, std::uint32_t, std::uint32_t) { return kLevelColor[l]; });
  StreamWriter w;
  w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  texture_only(w, kTex)
      .texture_stage_state(0, D3DTSS_MIPFILTER, mip_filter)
      .texture_stage_state_f(0, D3DTSS_MIPMAPLODBIAS, bias)
      .texture_stage_state(0, D3DTSS_MAXMIPLEVEL, max_mip)
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE);
  if (texlod != ~0u) w.set_texlod(kTex, texlod);
  VertexWriter v(kFvfT);
  tquad(v, -0.5f, -0.5f, 3.5f, 3.5f, 0, 0, 1, 1);
  w.triangle_list(0, 2);
  sc.run(w, v);
  const std::uint32_t p = sc.raw(1, 1);
  for (std::uint32_t y = 0; y < 4; ++y)
    for (std::uint32_t x = 0; x < 4; ++x) CHECK(sc.raw(x, y) == p);  // affine: one LOD everywhere
  return p & 0xFFFFFFu;
}
std::uint32_t level(int l) { return kLevelColor[l] & 0xFFFFFFu; }
bool mix_of(std::uint32_t got, int l, double t) {  // (1 − t)·level l + t·level l + 1
  double want[4];
  const int sh[3] = {16, 8, 0};
  for (int k = 0; k < 3; ++k) want[k] = ch(kLevelColor[l], sh[k]) * (1 - t) + ch(kLevelColor[l + 1], sh[k]) * t;
  want[3] = 1;
  return channels_near(got, want, false);
}
}  // namespace

TEST_CASE("render more sampling: mip level from the minification, MIPFILTER, bias, MAXMIPLEVEL, SETTEXLOD") {
  // λ = log2(texels per pixel) = 2; λ' = λ + MIPMAPLODBIAS. MIPFILTER NONE uses the most
  // detailed allowed level; POINT the nearest level round(λ'); LINEAR blends floor(λ') and
  // the next by the fraction. MAXMIPLEVEL (and SETTEXLOD) name the most detailed level
  // allowed; λ' is clamped to [that, last level].
  SUBCASE("DX9 numbering (D3DTEXF: NONE 0, POINT 1, LINEAR 2)") {
    CHECK(mip_pixel(5, D3DTEXF_NONE, 0, 0) == level(0));
    CHECK(mip_pixel(5, D3DTEXF_POINT, 0, 0) == level(2));
    CHECK(mip_pixel(5, D3DTEXF_LINEAR, 0, 0) == level(2));
    CHECK(mip_pixel(5, D3DTEXF_POINT, 0.25f, 0) == level(2));
    CHECK(mip_pixel(5, D3DTEXF_POINT, 0.75f, 0) == level(3));
    CHECK(mip_pixel(5, D3DTEXF_POINT, -1.0f, 0) == level(1));
    CHECK(mip_pixel(5, D3DTEXF_POINT, 5.0f, 0) == level(4));
    CHECK(mix_of(mip_pixel(5, D3DTEXF_LINEAR, 0.25f, 0), 2, 0.25));
    CHECK(mix_of(mip_pixel(5, D3DTEXF_LINEAR, -0.75f, 0), 1, 0.25));
  }
  SUBCASE("DX7 numbering (D3DTFP: NONE 1, POINT 2, LINEAR 3)") {
    CHECK(mip_pixel(3, D3DTFP_NONE, 0.25f, 0) == level(0));
    CHECK(mip_pixel(3, D3DTFP_POINT, 0.25f, 0) == level(2));
    CHECK(mix_of(mip_pixel(3, D3DTFP_LINEAR, 0.25f, 0), 2, 0.25));
  }
  SUBCASE("MAXMIPLEVEL") {
    CHECK(mip_pixel(5, D3DTEXF_POINT, 0, 3) == level(3));  // λ 2 clamped up to 3
    CHECK(mip_pixel(5, D3DTEXF_POINT, 0, 1) == level(2));  // 1 allows level 2
    CHECK(mip_pixel(5, D3DTEXF_NONE, 0, 2) == level(2));   // no mipmapping: the largest allowed map
    CHECK(mip_pixel(5, D3DTEXF_POINT, 0, 9) == level(4));  // beyond the chain: the last level
  }
  SUBCASE("SETTEXLOD") {
    CHECK(mip_pixel(5, D3DTEXF_POINT, 0, 0, 3) == level(3));
    CHECK(mip_pixel(5, D3DTEXF_POINT, 0, 0, 1) == level(2));
    CHECK(mip_pixel(3, D3DTFP_POINT, 0, 0, 4) == level(4));
  }
}

namespace {
// 4×1 texture A B C D; pixel centre x (0..15) reads u = −2 + (x + ½)/4, so point sampling
// asks for texel index i = x − 8 (−8..7) before addressing.
constexpr std::uint32_t kAddrTexels[4] = {0xFF100000u, 0xFF200000u, 0xFF300000u, 0xFF400000u};
constexpr std::uint32_t kBorder = 0xFF0000EEu;
std::int64_t address_rule(DWORD mode, std::int64_t i, std::int64_t n) {
  switch (mode) {
    case D3DTADDRESS_WRAP: return ((i % n) + n) % n;
    case D3DTADDRESS_MIRROR: {  // tile flipped at every integer u boundary
      const std::int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case D3DTADDRESS_CLAMP: return std::clamp<std::int64_t>(i, 0, n - 1);
    case D3DTADDRESS_BORDER: return (i < 0 || i >= n) ? -1 : i;
    case D3DTADDRESS_MIRRORONCE: return std::min<std::int64_t>(i < 0 ? -i - 1 : i, n - 1);  // |u| then clamp
  }
  return -2;
}
}  // namespace

TEST_CASE("render more sampling: address modes WRAP / MIRROR / CLAMP / BORDER / MIRRORONCE outside [0, 1]") {
  for (DWORD mode : {D3DTADDRESS_WRAP, D3DTADDRESS_MIRROR, D3DTADDRESS_CLAMP, D3DTADDRESS_BORDER,
                     D3DTADDRESS_MIRRORONCE}) {
    CAPTURE(mode);
    Scene sc(16, 1, D3DFMT_X8R8G8B8);
    sc.texture(kTex, 4, 1, {kAddrTexels[0], kAddrTexels[1], kAddrTexels[2], kAddrTexels[3]});
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    texture_only(w, kTex)
        .texture_stage_state(0, D3DTSS_ADDRESSU, mode)
        .texture_stage_state(0, D3DTSS_ADDRESSV, mode)
        .texture_stage_state(0, D3DTSS_BORDERCOLOR, kBorder)
        .render_state(D3DRS_CULLMODE, D3DCULL_NONE);
    VertexWriter v(kFvfT);
    tquad(v, -0.5f, -0.5f, 15.5f, 0.5f, -2.0f, 0.5f, 2.0f, 0.5f);
    w.triangle_list(0, 2);
    sc.run(w, v);
    for (std::uint32_t x = 0; x < 16; ++x) {
      CAPTURE(x);
      const std::int64_t i = address_rule(mode, std::int64_t(x) - 8, 4);
      CHECK(sc.rgb(x, 0) == ((i < 0 ? kBorder : kAddrTexels[i]) & 0xFFFFFFu));
    }
  }
}

TEST_CASE("render more sampling: D3DRS_WRAP0 interpolates u the short way round (0.9 → 0.1 through 1.0)") {
  // 8×1 texture, texel i = i·0x10 red. Quad (−½..7½) with u = 0.9 on the left, 0.1 on the
  // right. WRAP0 U: u runs 0.9 → 1.1 (≡ 0.1), so pixel x reads u = 0.9 + 0.2·(x + ½)/8 and
  // texel floor(8u) mod 8: 7, 7, 7, 7, 0, 0, 0, 0. Without it u runs down 0.9 → 0.1:
  // u = 0.9 − 0.8·(x + ½)/8 → texel floor(8u).
  std::vector<std::uint32_t> t;
  for (std::uint32_t i = 0; i < 8; ++i) t.push_back(0xFF000000u | (0x10u * (i + 1)) << 16);
  for (DWORD wrap : {DWORD{0}, DWORD{D3DWRAP_U}}) {
    CAPTURE(wrap);
    Scene sc(8, 1, D3DFMT_X8R8G8B8);
    sc.texture(kTex, 8, 1, t);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    texture_only(w, kTex).render_state(D3DRS_CULLMODE, D3DCULL_NONE).render_state(D3DRS_WRAP0, wrap);
    VertexWriter v(kFvfT);
    tquad(v, -0.5f, -0.5f, 7.5f, 0.5f, 0.9f, 0.5f, 0.1f, 0.5f);
    w.triangle_list(0, 2);
    sc.run(w, v);
    for (std::uint32_t x = 0; x < 8; ++x) {
      CAPTURE(x);
      const double s = (x + 0.5) / 8.0;
      const double u = wrap ? 0.9 + 0.2 * s : 0.9 - 0.8 * s;
      const double tx = u * 8.0;
      if (std::fabs(tx - std::round(tx)) < 1e-3) continue;  // too close to a texel edge to call
      const auto i = static_cast<std::uint32_t>(((static_cast<std::int64_t>(std::floor(tx)) % 8) + 8) % 8);
      CHECK(sc.rgb(x, 0) == (t[i] & 0xFFFFFFu));
    }
  }
}

// ---- 5. perspective ----------------------------------------------------------------------------

TEST_CASE("render more perspective: texture coordinates are perspective-correct between rhw 1 and ¼") {
  // u/w and 1/w are linear in screen space: at screen fraction s across the quad,
  // u = (s·u1·rhw1 + (1 − s)·u0·rhw0) / (s·rhw1 + (1 − s)·rhw0). 16×1 texture, point
  // sampling reads texel floor(16u). Left edge rhw 1 (u 0), right edge rhw ¼ (u 1).
  std::vector<std::uint32_t> t;
  for (std::uint32_t i = 0; i < 16; ++i) t.push_back(0xFF000000u | (0x08u + 0x0Fu * i) << 8);
  Scene sc(16, 2, D3DFMT_X8R8G8B8);
  sc.texture(kTex, 16, 1, t);
  StreamWriter w;
  w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  texture_only(w, kTex).render_state(D3DRS_CULLMODE, D3DCULL_NONE);
  VertexWriter v(kFvfT);
  const float r0 = 1.0f, r1 = 0.25f;
  v.tl(-0.5f, -0.5f, 0.5f, r0, ~0u, 0, 0, 0).tl(15.5f, -0.5f, 0.5f, r1, ~0u, 0, 1, 0).tl(-0.5f, 1.5f, 0.5f, r0, ~0u, 0, 0, 1);
  v.tl(15.5f, -0.5f, 0.5f, r1, ~0u, 0, 1, 0).tl(15.5f, 1.5f, 0.5f, r1, ~0u, 0, 1, 1).tl(-0.5f, 1.5f, 0.5f, r0, ~0u, 0, 0, 1);
  w.triangle_list(0, 2);
  sc.run(w, v);
  int checked = 0;
  for (std::uint32_t y = 0; y < 2; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) {
      CAPTURE(x);
      const double s = (x + 0.5) / 16.0;
      const double u = s * 1.0 * r1 / (s * r1 + (1 - s) * r0);
      const double tx = u * 16.0;
      if (std::fabs(tx - std::round(tx)) < 1e-3) continue;
      ++checked;
      CHECK(sc.rgb(x, y) == (t[std::min<std::uint32_t>(static_cast<std::uint32_t>(tx), 15)] & 0xFFFFFFu));
    }
  CHECK(checked >= 28);
  // Screen-linear u would read texel x at pixel x; the middle pixel proves it is not linear.
  CHECK(sc.rgb(8, 0) != (t[8] & 0xFFFFFFu));
}

// ---- 8. DX5 legacy texture states ---------------------------------------------------------------

namespace {
// DX7 context, stage 0 driven only by TEXTUREHANDLE / TEXTUREMAPBLEND / TEXTUREMAG / MIN.
std::uint32_t legacy_pixel(DWORD blend, D3DFORMAT tex_format, std::uint32_t texel_raw, D3DCOLOR diffuse) {
  Scene sc(2, 2, D3DFMT_A8R8G8B8, D3DFMT_UNKNOWN, 1, 3);
  sc.texture_fmt(kTex, tex_format, 1, 1, 1, [&](std::uint32_t, std::uint32_t, std::uint32_t) { return texel_raw; });
  StreamWriter w;
  w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  w.render_state(D3DRENDERSTATE_TEXTUREHANDLE, kTex)
      .render_state(D3DRENDERSTATE_TEXTUREMAPBLEND, blend)
      .render_state(D3DRENDERSTATE_TEXTUREMAG, D3DFILTER_NEAREST)
      .render_state(D3DRENDERSTATE_TEXTUREMIN, D3DFILTER_NEAREST)
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE);
  VertexWriter v(kFvfT);
  tquad(v, 0, 0, 2, 2, 0, 0, 1, 1, diffuse);
  w.triangle_list(0, 2);
  sc.run(w, v);
  return sc.raw(1, 1);
}
}  // namespace

TEST_CASE("render more legacy: TEXTUREHANDLE + TEXTUREMAPBLEND MODULATE / DECAL / MODULATEALPHA / ADD") {
  // D3DTEXTUREBLEND (DX5): MODULATE colour = t·d, alpha = the texture's alpha if the format
  // has alpha, else the diffuse alpha; DECAL colour and alpha = texture; MODULATEALPHA
  // colour = t·d, alpha = ta·da; ADD colour = t + d (saturated), alpha = diffuse alpha.
  const D3DCOLOR d = 0x60C08040u;
  const std::uint32_t t = 0xA0408020u;  // A8R8G8B8 texel
  auto mul = [&](std::uint32_t a, std::uint32_t b, bool alpha_from_a, bool alpha_from_b) {
    double want[4];
    const int sh[3] = {16, 8, 0};
    for (int k = 0; k < 3; ++k) want[k] = ch(a, sh[k]) * ch(b, sh[k]);
    want[3] = (alpha_from_a ? ch(a, 24) : 1.0) * (alpha_from_b ? ch(b, 24) : 1.0);
    return std::array<double, 4>{want[0], want[1], want[2], want[3]};
  };
  auto near = [](std::uint32_t got, std::array<double, 4> w4) {
    const double w[4] = {w4[0], w4[1], w4[2], w4[3]};
    return channels_near(got, w);
  };
  SUBCASE("MODULATE, texture without alpha (R5G6B5 white-ish 0xFFFF → 1,1,1): diffuse alpha kept") {
    const std::uint32_t got = legacy_pixel(D3DTBLEND_MODULATE, D3DFMT_R5G6B5, 0xFFFFu, d);
    CHECK(near(got, mul(0xFFFFFFFFu, d, false, true)));
  }
  SUBCASE("MODULATE, X8R8G8B8 texture (no alpha): diffuse alpha kept") {
    const std::uint32_t got = legacy_pixel(D3DTBLEND_MODULATE, D3DFMT_X8R8G8B8, 0x00408020u, d);
    CHECK(near(got, mul(0xFF408020u, d, false, true)));
  }
  SUBCASE("MODULATE, texture with alpha: texture alpha") {
    const std::uint32_t got = legacy_pixel(D3DTBLEND_MODULATE, D3DFMT_A8R8G8B8, t, d);
    CHECK(near(got, mul(t, d, true, false)));
  }
  SUBCASE("DECAL: the texel") { CHECK(legacy_pixel(D3DTBLEND_DECAL, D3DFMT_A8R8G8B8, t, d) == t); }
  SUBCASE("MODULATEALPHA: colour and alpha multiplied") {
    CHECK(near(legacy_pixel(D3DTBLEND_MODULATEALPHA, D3DFMT_A8R8G8B8, t, d), mul(t, d, true, true)));
  }
  SUBCASE("ADD: colour added (saturated), diffuse alpha") {
    const std::uint32_t got = legacy_pixel(D3DTBLEND_ADD, D3DFMT_A8R8G8B8, t, d);
    const double want[4] = {std::min(ch(t, 16) + ch(d, 16), 1.0), std::min(ch(t, 8) + ch(d, 8), 1.0),
                            std::min(ch(t, 0) + ch(d, 0), 1.0), ch(d, 24)};
    CHECK(channels_near(got, want));
  }
}

// ---- texture coordinate sets the FVF lacks ---------------------------------------------------

TEST_CASE("render more texcoords: a stage reading a set its FVF lacks reads 0, after a draw whose FVF had it") {
  // dp2's rule: a texture coordinate set the vertices lack reads (0, 0) (vertex/fetch.cpp;
  // the device's fetch tells the rasterizer how many sets it writes, VertexFetch::sets,
  // and the rasterizer keeps the rest zero in its reused vertex batch). Stage 0 samples a
  // 2×1 texture (red, green; point) through TEXCOORDINDEX 1. The first call's TEX2
  // vertices carry set 1 = (0.75, 0.25): texel floor(0.75·2) = 1, green, over the left
  // half. The second call's TEX1 vertices lack set 1 (their set 0 is 0.75 too, so reading
  // it by mistake shows): texel 0, red, over the right half.
  Scene sc(8, 2);
  sc.texture(kTex, 2, 1, {0xFFFF0000u, 0xFF00FF00u});
  auto stage = [](StreamWriter& w) {
    texture_only(w, kTex).render_state(D3DRS_CULLMODE, D3DCULL_NONE).texture_stage_state(0, D3DTSS_TEXCOORDINDEX, 1);
  };
  {
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    stage(w);
    VertexWriter v(D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX2);
    const float xs[6] = {0, 4, 0, 4, 4, 0}, ys[6] = {0, 0, 2, 0, 2, 2};
    for (int i = 0; i < 6; ++i)
      v.f(xs[i]).f(ys[i]).f(0.5f).f(1.0f).dword(0xFFFFFFFFu).f(0).f(0).f(0.75f).f(0.25f).end_vertex();
    w.triangle_list(0, 2);
    sc.run(w, v);
  }
  {
    StreamWriter w;
    stage(w);
    VertexWriter v(kFvfT);
    tquad(v, 4, 0, 8, 2, 0.75f, 0.25f, 0.75f, 0.25f);
    w.triangle_list(0, 2);
    sc.run(w, v);
  }
  for (std::uint32_t x = 0; x < 8; ++x) {
    CAPTURE(x);
    CHECK(sc.rgb(x, 1) == (x < 4 ? 0x00FF00u : 0xFF0000u));
  }
}
