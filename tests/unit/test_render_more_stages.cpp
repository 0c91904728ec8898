// Golden rendering tests through the public API: multi-stage texture cascades (RESULTARG
// TEMP, TFACTOR, argument modifiers, DISABLE ending the cascade, BLENDTEXTUREALPHA,
// DOTPRODUCT3, MULTIPLYADD / LERP, BUMPENVMAP) and bad input that must be counted, never
// crash. Every expected value is derived from the Direct3D rule written beside the check,
// never from dp2 output. Multi-stage results allow one LSB: hardware may round between
// stages.
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

struct C4 {
  double r, g, b, a;
};
C4 c4(std::uint32_t argb) { return {ch(argb, 16), ch(argb, 8), ch(argb, 0), ch(argb, 24)}; }
double sat(double x) { return std::clamp(x, 0.0, 1.0); }
bool near1(std::uint32_t got, const C4& want, bool alpha = true) {
  const double w[4] = {want.r, want.g, want.b, want.a};
  return channels_near(got, w, alpha, 0.5);  // within one LSB
}

constexpr D3DCOLOR kDiffuse = 0xC0A06020u, kSpecular = 0x50406080u, kTFactor = 0x30205070u;
constexpr std::uint32_t kT0 = 0x9060A0C0u, kT1 = 0x70C03050u;

// One 2×2 quad, diffuse kDiffuse, specular kSpecular, TFACTOR kTFactor, flat textures kT0
// in kTex and kT1 in kTex2; `stages` writes the stage states. Returns pixel (1, 1) raw
// (A8R8G8B8 target).
template <class F>
std::uint32_t cascade(F stages, std::uint32_t version = 5) {
  Scene sc(2, 2, D3DFMT_A8R8G8B8, D3DFMT_UNKNOWN, 1, version);
  sc.flat(kTex, kT0);
  sc.flat(kTex2, kT1);
  StreamWriter w;
  w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  w.render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .render_state(D3DRS_TEXTUREFACTOR, kTFactor)
      .render_state(D3DRS_SPECULARENABLE, FALSE)
      .end_merge();
  stages(w);
  VertexWriter v(kFvfT);
  tquad(v, 0, 0, 2, 2, 0, 0, 1, 1, kDiffuse, kSpecular);
  w.triangle_list(0, 2);
  sc.run(w, v);
  return sc.raw(1, 1);
}

StreamWriter& op(StreamWriter& w, WORD st, DWORD cop, DWORD c1, DWORD c2, DWORD aop, DWORD a1, DWORD a2) {
  return w.texture_stage_state(st, D3DTSS_COLOROP, cop)
      .texture_stage_state(st, D3DTSS_COLORARG1, c1)
      .texture_stage_state(st, D3DTSS_COLORARG2, c2)
      .texture_stage_state(st, D3DTSS_ALPHAOP, aop)
      .texture_stage_state(st, D3DTSS_ALPHAARG1, a1)
      .texture_stage_state(st, D3DTSS_ALPHAARG2, a2);
}

}  // namespace

// ---- 3. cascades ---------------------------------------------------------------------------------

TEST_CASE("render more stages: RESULTARG TEMP, TFACTOR and a third stage adding CURRENT + TEMP") {
  // Stage 0 writes t0·d to TEMP (CURRENT stays the diffuse colour); stage 1 sets CURRENT to
  // TFACTOR; stage 2 outputs CURRENT + TEMP. Alpha: TEMP.a = t0.a; stage 1 alpha = tf.a;
  // stage 2 alpha = TEMP.a.
  const std::uint32_t got = cascade([](StreamWriter& w) {
    op(w, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE)
        .texture_stage_state(0, D3DTSS_TEXTUREMAP, kTex)
        .texture_stage_state(0, D3DTSS_RESULTARG, D3DTA_TEMP);
    op(w, 1, D3DTOP_SELECTARG1, D3DTA_TFACTOR, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TFACTOR, D3DTA_CURRENT);
    op(w, 2, D3DTOP_ADD, D3DTA_CURRENT, D3DTA_TEMP, D3DTOP_SELECTARG2, D3DTA_CURRENT, D3DTA_TEMP);
  });
  const C4 t = c4(kT0), d = c4(kDiffuse), f = c4(kTFactor);
  CHECK(near1(got, {sat(f.r + t.r * d.r), sat(f.g + t.g * d.g), sat(f.b + t.b * d.b), t.a}));
}

TEST_CASE("render more stages: COMPLEMENT and ALPHAREPLICATE on DIFFUSE / SPECULAR arguments") {
  // D3DTA_COMPLEMENT: 1 − x; D3DTA_ALPHAREPLICATE: the alpha copied to r, g, b.
  // MODULATE(DIFFUSE | COMPLEMENT, SPECULAR | ALPHAREPLICATE) = (1 − d)·s.a per channel;
  // alpha MODULATE(SPECULAR, DIFFUSE | COMPLEMENT) = s.a·(1 − d.a).
  const std::uint32_t got = cascade([](StreamWriter& w) {
    op(w, 0, D3DTOP_MODULATE, D3DTA_DIFFUSE | D3DTA_COMPLEMENT, D3DTA_SPECULAR | D3DTA_ALPHAREPLICATE, D3DTOP_MODULATE,
       D3DTA_SPECULAR, D3DTA_DIFFUSE | D3DTA_COMPLEMENT);
  });
  const C4 d = c4(kDiffuse), s = c4(kSpecular);
  CHECK(near1(got, {(1 - d.r) * s.a, (1 - d.g) * s.a, (1 - d.b) * s.a, s.a * (1 - d.a)}));
}

TEST_CASE("render more stages: a DISABLE stage ends the cascade, later stages are ignored") {
  // "D3DTOP_DISABLE: disables output from this texture stage and all stages with a higher
  // index." Stage 0 selects the diffuse colour, stage 1 DISABLE, stage 2 would select TFACTOR.
  const std::uint32_t got = cascade([](StreamWriter& w) {
    op(w, 0, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT);
    op(w, 1, D3DTOP_DISABLE, D3DTA_TFACTOR, D3DTA_CURRENT, D3DTOP_DISABLE, D3DTA_TFACTOR, D3DTA_CURRENT);
    op(w, 2, D3DTOP_SELECTARG1, D3DTA_TFACTOR, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TFACTOR, D3DTA_CURRENT);
  });
  CHECK(got == kDiffuse);
}

TEST_CASE("render more stages: BLENDTEXTUREALPHA, BLENDDIFFUSEALPHA, BLENDFACTORALPHA") {
  // BLEND*ALPHA: arg1·α + arg2·(1 − α) with α from the texture / diffuse / TFACTOR.
  const C4 t = c4(kT0), d = c4(kDiffuse), f = c4(kTFactor);
  const struct {
    DWORD op;
    double alpha;
  } cases[] = {{D3DTOP_BLENDTEXTUREALPHA, t.a}, {D3DTOP_BLENDDIFFUSEALPHA, d.a}, {D3DTOP_BLENDFACTORALPHA, f.a}};
  for (const auto& c : cases) {
    CAPTURE(c.op);
    const std::uint32_t got = cascade([&](StreamWriter& w) {
      op(w, 0, c.op, D3DTA_TEXTURE, D3DTA_DIFFUSE, c.op, D3DTA_TEXTURE, D3DTA_DIFFUSE)
          .texture_stage_state(0, D3DTSS_TEXTUREMAP, kTex);
    });
    const double a = c.alpha;
    CHECK(near1(got, {t.r * a + d.r * (1 - a), t.g * a + d.g * (1 - a), t.b * a + d.b * (1 - a), t.a * a + d.a * (1 - a)}));
  }
}

TEST_CASE("render more stages: DOTPRODUCT3 replicates the signed dot product to all channels, alpha included") {
  // D3DTOP_DOTPRODUCT3: each argument's channels read as signed (2x − 1); the sum of
  // products, saturated, goes to r, g, b and a. Equivalently 4·Σ(x1 − ½)(x2 − ½).
  const std::uint32_t t = 0xFFE0C0A0u, d = 0x10C0A090u;
  Scene sc(2, 2, D3DFMT_A8R8G8B8);
  sc.flat(kTex, t);
  StreamWriter w;
  w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  w.render_state(D3DRS_CULLMODE, D3DCULL_NONE);
  op(w, 0, D3DTOP_DOTPRODUCT3, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_SELECTARG2, D3DTA_TEXTURE, D3DTA_DIFFUSE)
      .texture_stage_state(0, D3DTSS_TEXTUREMAP, kTex);
  VertexWriter v(kFvfT);
  tquad(v, 0, 0, 2, 2, 0, 0, 1, 1, d);
  w.triangle_list(0, 2);
  sc.run(w, v);
  double dot = 0;
  for (int s : {16, 8, 0}) dot += (2 * ch(t, s) - 1) * (2 * ch(d, s) - 1);
  dot = sat(dot);
  REQUIRE(dot > 0.05);
  REQUIRE(dot < 0.95);
  CHECK(near1(sc.raw(1, 1), {dot, dot, dot, dot}));
}

TEST_CASE("render more stages: MULTIPLYADD and LERP read COLORARG0 / ALPHAARG0") {
  // MULTIPLYADD: arg0 + arg1·arg2; LERP: arg0·arg1 + (1 − arg0)·arg2 (D3DTEXTUREOP).
  // arg0 = TFACTOR, arg1 = TEXTURE, arg2 = DIFFUSE.
  const C4 t = c4(kT0), d = c4(kDiffuse), f = c4(kTFactor);
  for (DWORD o : {DWORD{D3DTOP_MULTIPLYADD}, DWORD{D3DTOP_LERP}}) {
    CAPTURE(o);
    const std::uint32_t got = cascade([&](StreamWriter& w) {
      op(w, 0, o, D3DTA_TEXTURE, D3DTA_DIFFUSE, o, D3DTA_TEXTURE, D3DTA_DIFFUSE)
          .texture_stage_state(0, D3DTSS_COLORARG0, D3DTA_TFACTOR)
          .texture_stage_state(0, D3DTSS_ALPHAARG0, D3DTA_TFACTOR)
          .texture_stage_state(0, D3DTSS_TEXTUREMAP, kTex);
    });
    auto f1 = [&](double a0, double a1, double a2) {
      return o == D3DTOP_MULTIPLYADD ? sat(a0 + a1 * a2) : a0 * a1 + (1 - a0) * a2;
    };
    CHECK(near1(got, {f1(f.r, t.r, d.r), f1(f.g, t.g, d.g), f1(f.b, t.b, d.b), f1(f.a, t.a, d.a)}));
  }
}

TEST_CASE("render more stages: BUMPENVMAP offsets stage 1's coordinates by the matrix times (du, dv)") {
  // Stage 0: BUMPENVMAP with a flat bump texel; dp2's unsigned bump rule (combiner.h):
  // du = 2r − 1, dv = 2g − 1. r = 0xFF → du = 1, g = 0x80 → dv = 1/255. BUMPENVMAT00 = ¼,
  // 11 = ¼, 01 = 10 = 0: du' = ¼, dv' ≈ 0.001. Stage 1 samples a 4×1 texture (point,
  // wrap) at (u + du', v + dv'): a pixel that read texel i now reads texel i + 1 (mod 4).
  // Without the bump stage (stage 0 DISABLEd... instead stage 0 SELECTARG1 CURRENT) it reads i.
  const std::uint32_t t4[4] = {0xFF110000u, 0xFF220000u, 0xFF330000u, 0xFF440000u};
  for (bool bump : {false, true}) {
    CAPTURE(bump);
    Scene sc(4, 1, D3DFMT_X8R8G8B8);
    sc.flat(kTex, 0xFFFF8000u);
    sc.texture(kTex2, 4, 1, {t4[0], t4[1], t4[2], t4[3]});
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    w.render_state(D3DRS_CULLMODE, D3DCULL_NONE);
    if (bump) {
      op(w, 0, D3DTOP_BUMPENVMAP, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
    } else {
      op(w, 0, D3DTOP_SELECTARG1, D3DTA_CURRENT, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_CURRENT, D3DTA_CURRENT);
    }
    w.texture_stage_state(0, D3DTSS_TEXTUREMAP, kTex)
        .texture_stage_state_f(0, D3DTSS_BUMPENVMAT00, 0.25f)
        .texture_stage_state_f(0, D3DTSS_BUMPENVMAT01, 0.0f)
        .texture_stage_state_f(0, D3DTSS_BUMPENVMAT10, 0.0f)
        .texture_stage_state_f(0, D3DTSS_BUMPENVMAT11, 0.25f);
    texture_only(w, kTex2, 1).texture_stage_state(1, D3DTSS_TEXCOORDINDEX, 0);  // default is 1
    VertexWriter v(kFvfT);
    tquad(v, -0.5f, -0.5f, 3.5f, 0.5f, 0, 0.5f, 1, 0.5f);
    w.triangle_list(0, 2);
    sc.run(w, v);
    for (std::uint32_t x = 0; x < 4; ++x) {
      CAPTURE(x);
      CHECK(sc.rgb(x, 0) == (t4[bump ? (x + 1) % 4 : x] & 0xFFFFFFu));
    }
  }
}

// ---- 9. bad input ----------------------------------------------------------------------------------

TEST_CASE("render more bad input: a missing texture handle is counted and samples as no texture") {
  // The stage names handle 0x777, which the surface table does not have: counted in
  // missing_textures; the stage behaves as with no texture bound (handle 0).
  auto draw = [](DWORD handle, std::uint64_t& missing) {
    Scene sc(2, 2, D3DFMT_A8R8G8B8);
    const auto before = sc.dev.diagnostics().missing_textures;
    StreamWriter w;
    w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
    w.render_state(D3DRS_CULLMODE, D3DCULL_NONE);
    op(w, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_DIFFUSE)
        .texture_stage_state(0, D3DTSS_TEXTUREMAP, handle);
    VertexWriter v(kFvfT);
    tquad(v, 0, 0, 2, 2, 0, 0, 1, 1, kDiffuse);
    w.triangle_list(0, 2);
    sc.run(w, v);
    missing = sc.dev.diagnostics().missing_textures - before;
    return sc.raw(1, 1);
  };
  std::uint64_t missing_none = 0, missing_bad = 0;
  const std::uint32_t none = draw(0, missing_none), bad = draw(0x777, missing_bad);
  CHECK(missing_none == 0);
  CHECK(missing_bad >= 1);
  CHECK(none != 0u);  // the draw rendered (the target was cleared to 0)
  CHECK(bad == none);
}

TEST_CASE("render more bad input: a COLOROP out of range is counted and the stage keeps its default") {
  // D3DTOP values are 1..26; 99 is out of range. Diagnostics: "an enum state outside its
  // values: default used". Stage 0's default COLOROP is MODULATE (TEXTURE × CURRENT; with
  // the default args TEXTURE, CURRENT = diffuse at stage 0).
  Scene sc(2, 2, D3DFMT_A8R8G8B8);
  sc.flat(kTex, kT0);
  const auto before = sc.dev.diagnostics().state_values_out_of_range;
  StreamWriter w;
  w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  w.render_state(D3DRS_CULLMODE, D3DCULL_NONE);
  w.texture_stage_state(0, D3DTSS_TEXTUREMAP, kTex)
      .texture_stage_state(0, D3DTSS_COLORARG1, D3DTA_TEXTURE)
      .texture_stage_state(0, D3DTSS_COLORARG2, D3DTA_DIFFUSE)
      .texture_stage_state(0, D3DTSS_ALPHAOP, D3DTOP_SELECTARG2)
      .texture_stage_state(0, D3DTSS_ALPHAARG2, D3DTA_DIFFUSE)
      .texture_stage_state(0, D3DTSS_COLOROP, 99);
  VertexWriter v(kFvfT);
  tquad(v, 0, 0, 2, 2, 0, 0, 1, 1, kDiffuse);
  w.triangle_list(0, 2);
  sc.run(w, v);
  CHECK(sc.dev.diagnostics().state_values_out_of_range - before >= 1);
  const C4 t = c4(kT0), d = c4(kDiffuse);
  CAPTURE(sc.raw(1, 1));
  CHECK(near1(sc.raw(1, 1), {t.r * d.r, t.g * d.g, t.b * d.b, d.a}));
}

TEST_CASE("render more bad input: a texture format the rasterizer cannot sample counts as missing") {
  // D3DFMT_V8U8 (signed bump format): the surface may be created; binding it must not
  // crash, and the stage counts as missing (samples as no texture).
  Scene sc(2, 2, D3DFMT_A8R8G8B8);
  dp2::SurfaceDesc t;
  t.kind = dp2::SurfaceKind::kTexture;
  t.format = D3DFMT_V8U8;
  t.width = 4;
  t.height = 4;
  const HRESULT hr = sc.dev.create_surface(kTex, t);
  if (hr != D3D_OK) {
    MESSAGE("V8U8 texture creation refused: " << hr);
    return;
  }
  const auto before = sc.dev.diagnostics().missing_textures;
  StreamWriter w;
  w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  w.render_state(D3DRS_CULLMODE, D3DCULL_NONE);
  op(w, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_SELECTARG2, D3DTA_TEXTURE, D3DTA_DIFFUSE)
      .texture_stage_state(0, D3DTSS_TEXTUREMAP, kTex);
  VertexWriter v(kFvfT);
  tquad(v, 0, 0, 2, 2, 0, 0, 1, 1, kDiffuse);
  w.triangle_list(0, 2);
  sc.run(w, v);
  CHECK(sc.dev.diagnostics().missing_textures - before >= 1);
  // Same pixel as a draw with no texture bound at all.
  Scene ref(2, 2, D3DFMT_A8R8G8B8);
  StreamWriter w2;
  w2.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  w2.render_state(D3DRS_CULLMODE, D3DCULL_NONE);
  op(w2, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_SELECTARG2, D3DTA_TEXTURE, D3DTA_DIFFUSE);
  w2.triangle_list(0, 2);
  ref.run(w2, v);
  CHECK(sc.raw(1, 1) == ref.raw(1, 1));
}

TEST_CASE("render more bad input: a texture stage above 7 on a DX7 context is counted, nothing else changes") {
  // D3DHAL_DP2TEXTURESTAGESTATE wStage is 0..7 (D3DHAL_TSS_MAXSTAGES = 8).
  Scene sc(2, 2, D3DFMT_A8R8G8B8, D3DFMT_UNKNOWN, 1, 3);
  const auto before = sc.dev.diagnostics().bad_texture_stages;
  StreamWriter w;
  w.clear(D3DCLEAR_TARGET, 0, 1.0f, 0);
  diffuse_only(w).render_state(D3DRS_CULLMODE, D3DCULL_NONE);
  w.texture_stage_state(8, D3DTSS_COLOROP, D3DTOP_SELECTARG1).texture_stage_state(8, D3DTSS_COLORARG1, D3DTA_TFACTOR);
  w.texture_stage_state(200, D3DTSS_COLOROP, D3DTOP_ADD);
  VertexWriter v(kFvfC);
  quad(v, 0, 0, 2, 2, 0.5f, kDiffuse);
  w.triangle_list(0, 2);
  sc.run(w, v);
  CHECK(sc.dev.diagnostics().bad_texture_stages - before == 3);
  CHECK(sc.raw(1, 1) == kDiffuse);
}
