// Golden rendering tests through the public API: what reaches memory (render-target
// formats, dithering, texturing through the stages, fog, specular). Every expected value is
// derived from the Direct3D rule written beside the check, never from dp2 output.
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

TEST_CASE("render target formats: a flat colour read back as the format's raw bits") {
  // Colour A=180 R=200 G=100 B=37 (8-bit, /255). Each channel n bits wide stores
  // q = floor(c·(2^n − 1) + 0.5); X bits are undefined and not compared.
  const D3DCOLOR c = 0xB4C86425u;
  const double a = ch(c, 24), r = ch(c, 16), g = ch(c, 8), b = ch(c, 0);
  struct Case {
    D3DFORMAT format;
    const char* name;
    std::uint32_t want, defined;
  } cases[] = {
      {D3DFMT_X8R8G8B8, "X8R8G8B8", q(r, 8) << 16 | q(g, 8) << 8 | q(b, 8), 0x00FFFFFFu},
      {D3DFMT_A8R8G8B8, "A8R8G8B8", q(a, 8) << 24 | q(r, 8) << 16 | q(g, 8) << 8 | q(b, 8), 0xFFFFFFFFu},
      {D3DFMT_R8G8B8, "R8G8B8", q(r, 8) << 16 | q(g, 8) << 8 | q(b, 8), 0x00FFFFFFu},
      {D3DFMT_R5G6B5, "R5G6B5", q(r, 5) << 11 | q(g, 6) << 5 | q(b, 5), 0xFFFFu},
      {D3DFMT_X1R5G5B5, "X1R5G5B5", q(r, 5) << 10 | q(g, 5) << 5 | q(b, 5), 0x7FFFu},
      {D3DFMT_A1R5G5B5, "A1R5G5B5", q(a, 1) << 15 | q(r, 5) << 10 | q(g, 5) << 5 | q(b, 5), 0xFFFFu},
      {D3DFMT_A4R4G4B4, "A4R4G4B4", q(a, 4) << 12 | q(r, 4) << 8 | q(g, 4) << 4 | q(b, 4), 0xFFFFu},
      {D3DFMT_X4R4G4B4, "X4R4G4B4", q(r, 4) << 8 | q(g, 4) << 4 | q(b, 4), 0x0FFFu},
      {D3DFMT_R3G3B2, "R3G3B2", q(r, 3) << 5 | q(g, 3) << 2 | q(b, 2), 0xFFu},
      {D3DFMT_A8R3G3B2, "A8R3G3B2", q(a, 8) << 8 | q(r, 3) << 5 | q(g, 3) << 2 | q(b, 2), 0xFFFFu},
  };
  // worked by hand for two of them, as a check on q():
  CHECK(cases[3].want == (24u << 11 | 25u << 5 | 4u));  // 200·31/255 = 24.31, 100·63/255 = 24.71, 37·31/255 = 4.498
  CHECK(cases[8].want == (5u << 5 | 3u << 2 | 0u));     // 200·7/255 = 5.49, 100·7/255 = 2.75, 37·3/255 = 0.435
  for (const Case& k : cases) {
    CAPTURE(k.name);
    Scene sc(5, 3, k.format);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    diffuse_only(w).render_state(D3DRS_CULLMODE, D3DCULL_NONE);
    VertexWriter v(kFvfC);
    quad(v, 0, 0, 5, 3, 0.5f, c);
    w.triangle_list(0, 2);
    sc.run(w, v);
    for (std::uint32_t y = 0; y < 3; ++y)
      for (std::uint32_t x = 0; x < 5; ++x) CHECK((sc.raw(x, y) & k.defined) == k.want);
  }
}

TEST_CASE("render dithering into R5G6B5: a 4×4 pattern averaging to the colour, off = rounded") {
  // R=100 G=50 B=201: 12.16, 12.35, 24.44 LSBs (R5, G6, B5) — none representable.
  const D3DCOLOR c = 0xFF6432C9u;
  const double lsb[3] = {ch(c, 16) * 31, ch(c, 8) * 63, ch(c, 0) * 31};
  auto draw = [&](bool dither) {
    auto sc = std::make_unique<Scene>(8, 8, D3DFMT_R5G6B5);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    diffuse_only(w).render_state(D3DRS_CULLMODE, D3DCULL_NONE).render_state(D3DRS_DITHERENABLE, dither ? TRUE : FALSE);
    VertexWriter v(kFvfC);
    quad(v, 0, 0, 8, 8, 0.5f, c);
    w.triangle_list(0, 2);
    sc->run(w, v);
    return sc;
  };
  auto split = [](std::uint32_t p) { return std::array<std::uint32_t, 3>{p >> 11, (p >> 5) & 63, p & 31}; };
  SUBCASE("DITHERENABLE TRUE") {
    auto sc = draw(true);
    double sum[3] = {};
    bool varies = false;
    for (std::uint32_t y = 0; y < 8; ++y)
      for (std::uint32_t x = 0; x < 8; ++x) {
        CAPTURE(x);
        CAPTURE(y);
        const auto p = split(sc->raw(x, y));
        CHECK(sc->raw(x, y) == sc->raw(x % 4, y % 4));  // period 4 in x and y
        for (int k = 0; k < 3; ++k) {
          CHECK((p[k] == std::uint32_t(std::floor(lsb[k])) || p[k] == std::uint32_t(std::ceil(lsb[k]))));
          if (x < 4 && y < 4) sum[k] += p[k];
        }
        varies = varies || sc->raw(x, y) != sc->raw(0, 0);
      }
    CHECK(varies);
    for (int k = 0; k < 3; ++k) {
      CAPTURE(k);
      CHECK(std::fabs(sum[k] / 16.0 - lsb[k]) <= 0.5);
    }
  }
  SUBCASE("DITHERENABLE FALSE") {
    auto sc = draw(false);
    const std::uint32_t want = q(ch(c, 16), 5) << 11 | q(ch(c, 8), 6) << 5 | q(ch(c, 0), 5);
    for (std::uint32_t y = 0; y < 8; ++y)
      for (std::uint32_t x = 0; x < 8; ++x) CHECK(sc->raw(x, y) == want);
  }
}

namespace {

constexpr DWORD kFvfTex = D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1;

// 4×4 texels, each channel distinct, alpha varying.
std::uint32_t texel(std::uint32_t i, std::uint32_t j) {
  return (0x30u + 0x2Du * i + 0x07u * j) << 24 | (20u + 50u * i) << 16 | (30u + 60u * j) << 8 | (230u - 25u * (i + j));
}

// Texture mapped 1:1: the quad (1.5, 1.5)–(5.5, 5.5) with uv 0..1 puts texel centre
// ((i + ½)/4, (j + ½)/4) on pixel centre (i + 2, j + 2); point sampling picks texel (i, j).
std::unique_ptr<Scene> textured(DWORD color_op, DWORD color_arg1, DWORD color_arg2, D3DCOLOR diffuse) {
  auto sc = std::make_unique<Scene>(8, 8, D3DFMT_A8R8G8B8);
  std::vector<std::uint32_t> texels;
  for (std::uint32_t j = 0; j < 4; ++j)
    for (std::uint32_t i = 0; i < 4; ++i) texels.push_back(texel(i, j));
  sc->texture(kTex, 4, 4, texels);
  StreamWriter w;
  w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  w.render_state(D3DRS_CULLMODE, D3DCULL_NONE);
  w.texture_stage_state(0, D3DTSS_TEXTUREMAP, kTex)
      .texture_stage_state(0, D3DTSS_MAGFILTER, D3DTEXF_POINT)
      .texture_stage_state(0, D3DTSS_MINFILTER, D3DTEXF_POINT)
      .texture_stage_state(0, D3DTSS_MIPFILTER, D3DTEXF_NONE)
      .texture_stage_state(0, D3DTSS_COLOROP, color_op)
      .texture_stage_state(0, D3DTSS_COLORARG1, color_arg1)
      .texture_stage_state(0, D3DTSS_COLORARG2, color_arg2)
      .texture_stage_state(0, D3DTSS_ALPHAOP, color_op)
      .texture_stage_state(0, D3DTSS_ALPHAARG1, color_arg1)
      .texture_stage_state(0, D3DTSS_ALPHAARG2, color_arg2);
  VertexWriter v(kFvfTex);
  const float x0 = 1.5f, x1 = 5.5f;
  v.tl(x0, x0, 0.5f, 1, diffuse, 0, 0, 0).tl(x1, x0, 0.5f, 1, diffuse, 0, 1, 0).tl(x0, x1, 0.5f, 1, diffuse, 0, 0, 1);
  v.tl(x1, x0, 0.5f, 1, diffuse, 0, 1, 0).tl(x1, x1, 0.5f, 1, diffuse, 0, 1, 1).tl(x0, x1, 0.5f, 1, diffuse, 0, 0, 1);
  w.triangle_list(0, 2);
  sc->run(w, v);
  return sc;
}

}  // namespace

TEST_CASE("render texturing: point-sampled 4×4 texture through SELECTARG1/2, MODULATE, ADD") {
  const D3DCOLOR diffuse = 0xC0806040u;
  SUBCASE("SELECTARG1 = TEXTURE: texel (i, j) at pixel (i + 2, j + 2); nothing outside") {
    auto sc = textured(D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE, diffuse);
    for (std::uint32_t y = 0; y < 8; ++y)
      for (std::uint32_t x = 0; x < 8; ++x) {
        CAPTURE(x);
        CAPTURE(y);
        const bool in = x >= 2 && x < 6 && y >= 2 && y < 6;
        CHECK(sc->raw(x, y) == (in ? texel(x - 2, y - 2) : 0u));
      }
  }
  SUBCASE("SELECTARG2 = DIFFUSE") {
    auto sc = textured(D3DTOP_SELECTARG2, D3DTA_TEXTURE, D3DTA_DIFFUSE, diffuse);
    for (std::uint32_t j = 0; j < 4; ++j)
      for (std::uint32_t i = 0; i < 4; ++i) CHECK(sc->raw(i + 2, j + 2) == diffuse);
  }
  SUBCASE("MODULATE: t·d per channel") {
    auto sc = textured(D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_DIFFUSE, diffuse);
    for (std::uint32_t j = 0; j < 4; ++j)
      for (std::uint32_t i = 0; i < 4; ++i) {
        CAPTURE(i);
        CAPTURE(j);
        const std::uint32_t got = sc->raw(i + 2, j + 2);
        for (int s : {24, 16, 8, 0}) CHECK(rounds_from((got >> s) & 0xFF, ch(texel(i, j), s) * ch(diffuse, s) * 255.0));
      }
  }
  SUBCASE("ADD: min(t + d, 1) per channel") {
    auto sc = textured(D3DTOP_ADD, D3DTA_TEXTURE, D3DTA_DIFFUSE, diffuse);
    for (std::uint32_t j = 0; j < 4; ++j)
      for (std::uint32_t i = 0; i < 4; ++i) {
        CAPTURE(i);
        CAPTURE(j);
        const std::uint32_t got = sc->raw(i + 2, j + 2);
        for (int s : {24, 16, 8, 0}) {
          const std::uint32_t sum = ((texel(i, j) >> s) & 0xFF) + ((diffuse >> s) & 0xFF);
          CHECK(((got >> s) & 0xFF) == std::min(sum, 255u));
        }
      }
  }
}

namespace {
// One quad per column i at depth z[i] with colour `c`; fog and specular states by the caller.
std::unique_ptr<Scene> fog_scene(StreamWriter& w, std::span<const float> z, D3DCOLOR c, D3DCOLOR spec) {
  auto sc = std::make_unique<Scene>(static_cast<std::uint32_t>(z.size()), 1, D3DFMT_X8R8G8B8);
  VertexWriter v(kFvfCS);
  for (std::size_t i = 0; i < z.size(); ++i) quad(v, float(i), 0, float(i + 1), 1, z[i], c, spec);
  w.triangle_list(0, static_cast<WORD>(2 * z.size()));
  sc->run(w, v);
  return sc;
}
}  // namespace

TEST_CASE("render fog: table fog LINEAR / EXP / EXP2 on z, vertex fog from specular alpha") {
  // colour = f·c + (1 − f)·fogcolor; LINEAR f = (end − z)/(end − start) clamped,
  // EXP f = e^(−density·z), EXP2 f = e^(−(density·z)²).
  const D3DCOLOR c = 0xFF0AC85Au, fog = 0x00FA28AAu;  // c = (10, 200, 90), fog = (250, 40, 170)
  const float zs[5] = {0.1f, 0.3f, 0.5f, 0.7f, 0.9f};
  const float start = 0.2f, end = 0.8f, density = 2.0f;
  auto check = [&](Scene& sc, auto f_of) {
    for (std::uint32_t i = 0; i < 5; ++i) {
      const double f = std::clamp(f_of(double(zs[i])), 0.0, 1.0);
      CAPTURE(i);
      CAPTURE(f);
      const std::uint32_t got = sc.rgb(i, 0);
      for (int s : {16, 8, 0}) {
        CAPTURE(s);
        CHECK(rounds_from((got >> s) & 0xFF, (f * ch(c, s) + (1 - f) * ch(fog, s)) * 255.0));
      }
    }
  };
  for (DWORD mode : {D3DFOG_LINEAR, D3DFOG_EXP, D3DFOG_EXP2}) {
    CAPTURE(mode);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    diffuse_only(w)
        .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
        .render_state(D3DRS_FOGENABLE, TRUE)
        .render_state(D3DRS_FOGTABLEMODE, mode)
        .render_state(D3DRS_FOGCOLOR, fog)
        .render_state_f(D3DRS_FOGSTART, start)
        .render_state_f(D3DRS_FOGEND, end)
        .render_state_f(D3DRS_FOGDENSITY, density);
    auto sc = fog_scene(w, zs, c, 0xFF000000u);
    if (mode == D3DFOG_LINEAR) check(*sc, [&](double z) { return (double(end) - z) / (double(end) - double(start)); });
    if (mode == D3DFOG_EXP) check(*sc, [&](double z) { return std::exp(-density * z); });
    if (mode == D3DFOG_EXP2) check(*sc, [&](double z) { return std::exp(-(density * z) * (density * z)); });
  }
  SUBCASE("vertex fog: f = specular alpha; specular colour not added with SPECULARENABLE off") {
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    diffuse_only(w)
        .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
        .render_state(D3DRS_FOGENABLE, TRUE)
        .render_state(D3DRS_FOGTABLEMODE, D3DFOG_NONE)
        .render_state(D3DRS_SPECULARENABLE, FALSE)
        .render_state(D3DRS_FOGCOLOR, fog);
    const float z1[1] = {0.5f};
    auto sc = fog_scene(w, z1, c, 0x40203040u);  // f = 0x40/255
    const double f = 64.0 / 255.0;
    const std::uint32_t got = sc->rgb(0, 0);
    for (int s : {16, 8, 0}) CHECK(rounds_from((got >> s) & 0xFF, (f * ch(c, s) + (1 - f) * ch(fog, s)) * 255.0));
  }
}

TEST_CASE("render specular: SPECULARENABLE adds the specular colour, clamped") {
  // diffuse (100, 200, 30) + specular (50, 100, 40) = (150, 255 (300 clamped), 70).
  for (DWORD on : {TRUE, FALSE}) {
    CAPTURE(on);
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    diffuse_only(w).render_state(D3DRS_CULLMODE, D3DCULL_NONE).render_state(D3DRS_SPECULARENABLE, on);
    const float z1[1] = {0.5f};
    auto sc = fog_scene(w, z1, 0xFF64C81Eu, 0xFF326428u);
    CHECK(sc->rgb(0, 0) == (on ? 0x96FF46u : 0x64C81Eu));
  }
}

TEST_CASE("render fog: applied after the specular add") {
  // Vertex fog f = 0x40/255 on (diffuse + specular) = (150, 255, 70) toward fog (250, 40, 170).
  StreamWriter w;
  const D3DCOLOR fog = 0x00FA28AAu;
  w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  diffuse_only(w)
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .render_state(D3DRS_SPECULARENABLE, TRUE)
      .render_state(D3DRS_FOGENABLE, TRUE)
      .render_state(D3DRS_FOGTABLEMODE, D3DFOG_NONE)
      .render_state(D3DRS_FOGCOLOR, fog);
  const float z1[1] = {0.5f};
  auto sc = fog_scene(w, z1, 0xFF64C81Eu, 0x40326428u);
  const double f = 64.0 / 255.0, lit[3] = {150 / 255.0, 1.0, 70 / 255.0};
  const std::uint32_t got = sc->rgb(0, 0);
  int k = 0;
  for (int s : {16, 8, 0}) {
    CAPTURE(s);
    CHECK(rounds_from((got >> s) & 0xFF, (f * lit[k] + (1 - f) * ch(fog, s)) * 255.0));
    ++k;
  }
}
