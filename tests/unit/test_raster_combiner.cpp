// dp2::raster combiner: D3DTA argument selection and modifiers, every D3DTEXTUREOP as a
// colour and as an alpha op, PREMODULATE, bump offsets, fog curves. Inputs are dyadic
// fractions with few bits (0.125, 0.25, ...), so every formula below is exact in float
// whatever the order and results compare with ==; the formula sits next to each check.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "dp2raster/combiner.h"

namespace {

using dp2::raster::BumpEnv;
using dp2::raster::Color;
using dp2::raster::FogMode;
using dp2::raster::StageInputs;
using dp2::raster::TextureOp;
namespace r = dp2::raster;

float sat(float x) { return x < 0 ? 0 : (x > 1 ? 1 : x); }

void check_exact(const Color& got, const Color& want) {
  CHECK(got.r == want.r);
  CHECK(got.g == want.g);
  CHECK(got.b == want.b);
  CHECK(got.a == want.a);
}

StageInputs inputs() {
  StageInputs in;
  in.diffuse = {0.125f, 0.25f, 0.375f, 0.25f};
  in.specular = {0.5f, 0.625f, 0.75f, 0.875f};
  in.current = {0.0625f, 0.1875f, 0.3125f, 0.125f};
  in.texture = {0.9375f, 0.8125f, 0.6875f, 0.75f};
  in.tfactor = {0.25f, 0.5f, 0.75f, 0.5f};
  in.temp = {0.375f, 0.125f, 0.875f, 0.625f};
  in.constant = {0.5f, 0.25f, 0.125f, 0.0625f};
  return in;
}

// The arguments every op test uses.
const Color kA0{0.25f, 0.5f, 0.75f, 0.25f};
const Color kA1{0.75f, 0.5f, 0.25f, 0.5f};
const Color kA2{0.5f, 0.25f, 0.125f, 0.75f};

// Applies `f(a0, a1, a2)` per channel and saturates: the expected value of a
// channel-by-channel op.
template <class F>
Color per_channel(F f) {
  return {sat(f(kA0.r, kA1.r, kA2.r)), sat(f(kA0.g, kA1.g, kA2.g)), sat(f(kA0.b, kA1.b, kA2.b)),
          sat(f(kA0.a, kA1.a, kA2.a))};
}

}  // namespace

TEST_CASE("raster combiner: select_arg sources") {
  const StageInputs in = inputs();
  check_exact(r::select_arg(r::kArgDiffuse, in), in.diffuse);
  check_exact(r::select_arg(r::kArgCurrent, in), in.current);
  check_exact(r::select_arg(r::kArgTexture, in), in.texture);
  check_exact(r::select_arg(r::kArgTFactor, in), in.tfactor);
  check_exact(r::select_arg(r::kArgSpecular, in), in.specular);
  check_exact(r::select_arg(r::kArgTemp, in), in.temp);
  check_exact(r::select_arg(r::kArgConstant, in), in.constant);
  check_exact(r::select_arg(7, in), {0, 0, 0, 0});  // no D3DTA_ source: transparent black
  CHECK(StageInputs{}.constant == Color{1, 1, 1, 1});  // D3DTSS_CONSTANT default 0xFFFFFFFF
}

TEST_CASE("raster combiner: select_arg modifiers") {
  const StageInputs in = inputs();
  const Color t = in.texture;
  // COMPLEMENT: 1 − x on all four channels.
  check_exact(r::select_arg(r::kArgTexture | r::kArgComplement, in), {1 - t.r, 1 - t.g, 1 - t.b, 1 - t.a});
  // ALPHAREPLICATE: (a, a, a, a).
  check_exact(r::select_arg(r::kArgTexture | r::kArgAlphaReplicate, in), {t.a, t.a, t.a, t.a});
  // Both: (1 − a) everywhere (the two modifiers commute).
  check_exact(r::select_arg(r::kArgTexture | r::kArgComplement | r::kArgAlphaReplicate, in),
              {1 - t.a, 1 - t.a, 1 - t.a, 1 - t.a});
  // Modifiers on every source.
  for (std::uint8_t src = r::kArgDiffuse; src <= r::kArgConstant; ++src) {
    const Color c = r::select_arg(src, in);
    check_exact(r::select_arg(static_cast<std::uint8_t>(src | r::kArgComplement), in),
                {1 - c.r, 1 - c.g, 1 - c.b, 1 - c.a});
    check_exact(r::select_arg(static_cast<std::uint8_t>(src | r::kArgAlphaReplicate), in), {c.a, c.a, c.a, c.a});
  }
}

TEST_CASE("raster combiner: channel-by-channel colour ops") {
  const StageInputs in = inputs();
  auto op = [&](TextureOp o) { return r::apply_color_op(o, kA0, kA1, kA2, in); };
  check_exact(op(TextureOp::kSelectArg1), kA1);                                           // arg1
  check_exact(op(TextureOp::kSelectArg2), kA2);                                           // arg2
  check_exact(op(TextureOp::kModulate), per_channel([](float, float a, float b) { return a * b; }));
  check_exact(op(TextureOp::kModulate2x), per_channel([](float, float a, float b) { return a * b * 2; }));
  check_exact(op(TextureOp::kModulate4x), per_channel([](float, float a, float b) { return a * b * 4; }));
  check_exact(op(TextureOp::kAdd), per_channel([](float, float a, float b) { return a + b; }));
  check_exact(op(TextureOp::kAddSigned), per_channel([](float, float a, float b) { return a + b - 0.5f; }));
  check_exact(op(TextureOp::kAddSigned2x),
              per_channel([](float, float a, float b) { return (a + b - 0.5f) * 2; }));
  check_exact(op(TextureOp::kSubtract), per_channel([](float, float a, float b) { return a - b; }));
  check_exact(op(TextureOp::kAddSmooth), per_channel([](float, float a, float b) { return a + b - a * b; }));
  // BLEND*ALPHA: arg1·α + arg2·(1 − α), α from diffuse / texture / tfactor / current.
  const auto blend = [](float alpha) {
    return per_channel([alpha](float, float a, float b) { return a * alpha + b * (1 - alpha); });
  };
  check_exact(op(TextureOp::kBlendDiffuseAlpha), blend(in.diffuse.a));
  check_exact(op(TextureOp::kBlendTextureAlpha), blend(in.texture.a));
  check_exact(op(TextureOp::kBlendFactorAlpha), blend(in.tfactor.a));
  check_exact(op(TextureOp::kBlendCurrentAlpha), blend(in.current.a));
  // BLENDTEXTUREALPHAPM: arg1 + arg2·(1 − α_texture).
  const float at = in.texture.a;
  check_exact(op(TextureOp::kBlendTextureAlphaPM), per_channel([at](float, float a, float b) { return a + b * (1 - at); }));
  check_exact(op(TextureOp::kMultiplyAdd), per_channel([](float z, float a, float b) { return z + a * b; }));
  check_exact(op(TextureOp::kLerp), per_channel([](float z, float a, float b) { return z * a + (1 - z) * b; }));
  // PREMODULATE outputs arg1 (the next stage premultiplies its CURRENT).
  check_exact(op(TextureOp::kPremodulate), kA1);
  // DISABLE, BUMPENVMAP, BUMPENVMAPLUMINANCE pass the current colour through.
  check_exact(op(TextureOp::kDisable), in.current);
  check_exact(op(TextureOp::kBumpEnvMap), in.current);
  check_exact(op(TextureOp::kBumpEnvMapLuminance), in.current);
}

TEST_CASE("raster combiner: results clamp to [0, 1]") {
  const StageInputs in = inputs();
  const Color big{1, 1, 1, 1}, none{0, 0, 0, 0};
  check_exact(r::apply_color_op(TextureOp::kAdd, none, big, big, in), {1, 1, 1, 1});           // 2 → 1
  check_exact(r::apply_color_op(TextureOp::kSubtract, none, none, big, in), {0, 0, 0, 0});     // −1 → 0
  check_exact(r::apply_color_op(TextureOp::kAddSigned, none, none, none, in), {0, 0, 0, 0});   // −0.5 → 0
  check_exact(r::apply_color_op(TextureOp::kModulate4x, none, big, big, in), {1, 1, 1, 1});    // 4 → 1
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(r::apply_alpha_op(TextureOp::kSelectArg1, 0, nan, 0, in) == 0.0f);                     // NaN → 0
}

TEST_CASE("raster combiner: colour-only ops") {
  const StageInputs in = inputs();
  auto op = [&](TextureOp o) { return r::apply_color_op(o, kA0, kA1, kA2, in); };
  const Color a1 = kA1, a2 = kA2;
  // MODULATEALPHA_ADDCOLOR: arg1.rgb + arg1.a·arg2.rgb; a = arg1.a (SELECTARG1).
  check_exact(op(TextureOp::kModulateAlphaAddColor),
              {sat(a1.r + a1.a * a2.r), sat(a1.g + a1.a * a2.g), sat(a1.b + a1.a * a2.b), a1.a});
  // MODULATECOLOR_ADDALPHA: arg1.rgb·arg2.rgb + arg1.a.
  check_exact(op(TextureOp::kModulateColorAddAlpha),
              {sat(a1.r * a2.r + a1.a), sat(a1.g * a2.g + a1.a), sat(a1.b * a2.b + a1.a), a1.a});
  // MODULATEINVALPHA_ADDCOLOR: (1 − arg1.a)·arg2.rgb + arg1.rgb.
  check_exact(op(TextureOp::kModulateInvAlphaAddColor),
              {sat((1 - a1.a) * a2.r + a1.r), sat((1 - a1.a) * a2.g + a1.g), sat((1 - a1.a) * a2.b + a1.b), a1.a});
  // MODULATEINVCOLOR_ADDALPHA: (1 − arg1.rgb)·arg2.rgb + arg1.a.
  check_exact(op(TextureOp::kModulateInvColorAddAlpha),
              {sat((1 - a1.r) * a2.r + a1.a), sat((1 - a1.g) * a2.g + a1.a), sat((1 - a1.b) * a2.b + a1.a), a1.a});
}

TEST_CASE("raster combiner: DOTPRODUCT3") {
  const StageInputs in = inputs();
  // 4·((r1 − .5)(r2 − .5) + (g1 − .5)(g2 − .5) + (b1 − .5)(b2 − .5)), to all four channels.
  const Color p{1.0f, 0.75f, 0.5f, 0.0f}, q{1.0f, 0.25f, 0.5f, 1.0f};
  const float d = 4 * (0.5f * 0.5f + 0.25f * -0.25f + 0.0f * 0.0f);  // 0.75
  check_exact(r::apply_color_op(TextureOp::kDotProduct3, {}, p, q, in), {d, d, d, d});
  // Negative sums clamp to 0, large ones to 1.
  const Color m{0.0f, 0.0f, 0.0f, 1.0f};
  check_exact(r::apply_color_op(TextureOp::kDotProduct3, {}, m, Color{1, 1, 1, 1}, in), {0, 0, 0, 0});  // −0.75·4
  check_exact(r::apply_color_op(TextureOp::kDotProduct3, {}, m, m, in), {1, 1, 1, 1});                  // 0.75·4
  // As an alpha op: the grey vector (a, a, a): 4·3·(a1 − .5)(a2 − .5).
  CHECK(r::apply_alpha_op(TextureOp::kDotProduct3, 0, 0.75f, 0.625f, in) == sat(4 * 3 * (0.25f * 0.125f)));
  CHECK(r::apply_alpha_op(TextureOp::kDotProduct3, 0, 0.75f, 0.25f, in) == 0.0f);
}

TEST_CASE("raster combiner: alpha ops") {
  const StageInputs in = inputs();
  const float z = kA0.a, a = kA1.a, b = kA2.a;
  auto op = [&](TextureOp o) { return r::apply_alpha_op(o, z, a, b, in); };
  CHECK(op(TextureOp::kSelectArg1) == a);
  CHECK(op(TextureOp::kSelectArg2) == b);
  CHECK(op(TextureOp::kModulate) == sat(a * b));
  CHECK(op(TextureOp::kModulate2x) == sat(a * b * 2));
  CHECK(op(TextureOp::kModulate4x) == sat(a * b * 4));
  CHECK(op(TextureOp::kAdd) == sat(a + b));
  CHECK(op(TextureOp::kAddSigned) == sat(a + b - 0.5f));
  CHECK(op(TextureOp::kAddSigned2x) == sat((a + b - 0.5f) * 2));
  CHECK(op(TextureOp::kSubtract) == sat(a - b));
  CHECK(op(TextureOp::kAddSmooth) == sat(a + b - a * b));
  CHECK(op(TextureOp::kBlendDiffuseAlpha) == sat(a * in.diffuse.a + b * (1 - in.diffuse.a)));
  CHECK(op(TextureOp::kBlendTextureAlpha) == sat(a * in.texture.a + b * (1 - in.texture.a)));
  CHECK(op(TextureOp::kBlendFactorAlpha) == sat(a * in.tfactor.a + b * (1 - in.tfactor.a)));
  CHECK(op(TextureOp::kBlendCurrentAlpha) == sat(a * in.current.a + b * (1 - in.current.a)));
  CHECK(op(TextureOp::kBlendTextureAlphaPM) == sat(a + b * (1 - in.texture.a)));
  CHECK(op(TextureOp::kPremodulate) == a);
  CHECK(op(TextureOp::kMultiplyAdd) == sat(z + a * b));
  CHECK(op(TextureOp::kLerp) == sat(z * a + (1 - z) * b));
  // Colour-only ops act as SELECTARG1.
  CHECK(op(TextureOp::kModulateAlphaAddColor) == a);
  CHECK(op(TextureOp::kModulateColorAddAlpha) == a);
  CHECK(op(TextureOp::kModulateInvAlphaAddColor) == a);
  CHECK(op(TextureOp::kModulateInvColorAddAlpha) == a);
  // Pass-through ops keep the current alpha.
  CHECK(op(TextureOp::kDisable) == in.current.a);
  CHECK(op(TextureOp::kBumpEnvMap) == in.current.a);
  CHECK(op(TextureOp::kBumpEnvMapLuminance) == in.current.a);
}

TEST_CASE("raster combiner: premodulate_current multiplies by the next stage's texture") {
  const StageInputs in = inputs();
  const Color c = in.current, t = in.texture;
  check_exact(r::premodulate_current(c, t), {c.r * t.r, c.g * t.g, c.b * t.b, c.a * t.a});
}

TEST_CASE("raster combiner: bump offsets") {
  BumpEnv env;
  env.m00 = 0.5f;
  env.m01 = 0.25f;
  env.m10 = -0.25f;
  env.m11 = 1.0f;
  env.lscale = 0.5f;
  env.loffset = 0.125f;
  float du = 0, dv = 0, l = 0;
  // Texel (0.75, 0.25, 0.5): du = 2·0.75 − 1 = 0.5, dv = 2·0.25 − 1 = −0.5, L = 0.5.
  r::bump_offset(env, {0.75f, 0.25f, 0.5f, 1.0f}, du, dv, l);
  CHECK(du == 0.5f * 0.5f + -0.5f * -0.25f);  // du·M00 + dv·M10 = 0.375
  CHECK(dv == 0.5f * 0.25f + -0.5f * 1.0f);   // du·M01 + dv·M11 = −0.375
  CHECK(l == 0.5f * 0.5f + 0.125f);           // L·lscale + loffset = 0.375
  // Luminance clamps to [0, 1].
  env.loffset = 2.0f;
  r::bump_offset(env, {0.5f, 0.5f, 0.5f, 1.0f}, du, dv, l);
  CHECK(l == 1.0f);
  CHECK(du == 0.0f);  // (0.5, 0.5) is the zero offset
  CHECK(dv == 0.0f);
  env.loffset = -2.0f;
  r::bump_offset_signed(env, -1.0f, 1.0f, 0.5f, du, dv, l);
  CHECK(l == 0.0f);
  CHECK(du == -1.0f * 0.5f + 1.0f * -0.25f);  // −0.75
  CHECK(dv == -1.0f * 0.25f + 1.0f * 1.0f);   // 0.75
}

TEST_CASE("raster combiner: LINEAR fog f = (end − d)/(end − start), clamped") {
  const float start = 10, end = 20;
  CHECK(r::fog_factor(FogMode::kLinear, 5, start, end, 0) == 1.0f);      // 1.5 → 1
  CHECK(r::fog_factor(FogMode::kLinear, 10, start, end, 0) == 1.0f);     // 10/10
  CHECK(r::fog_factor(FogMode::kLinear, 12.5f, start, end, 0) == 0.75f); // 7.5/10
  CHECK(r::fog_factor(FogMode::kLinear, 15, start, end, 0) == 0.5f);     // 5/10
  CHECK(r::fog_factor(FogMode::kLinear, 20, start, end, 0) == 0.0f);     // 0/10
  CHECK(r::fog_factor(FogMode::kLinear, 25, start, end, 0) == 0.0f);     // −0.5 → 0
  // end == start: a step, 1 for d ≤ start, 0 beyond.
  CHECK(r::fog_factor(FogMode::kLinear, 9, 10, 10, 0) == 1.0f);
  CHECK(r::fog_factor(FogMode::kLinear, 10, 10, 10, 0) == 1.0f);
  CHECK(r::fog_factor(FogMode::kLinear, 11, 10, 10, 0) == 0.0f);
  CHECK(r::fog_factor(FogMode::kNone, 100, 10, 20, 1) == 1.0f);
}

TEST_CASE("raster combiner: EXP and EXP2 fog") {
  const float density = 0.5f;
  for (float d : {0.0f, 1.0f, 2.0f, 4.0f, 10.0f}) {
    CAPTURE(d);
    // EXP: e^(−density·d); EXP2: e^(−(density·d)²).
    CHECK(r::fog_factor(FogMode::kExp, d, 0, 0, density) == doctest::Approx(std::exp(-0.5 * d)).epsilon(1e-6));
    CHECK(r::fog_factor(FogMode::kExp2, d, 0, 0, density) ==
          doctest::Approx(std::exp(-(0.5 * d) * (0.5 * d))).epsilon(1e-6));
  }
  CHECK(r::fog_factor(FogMode::kExp, 0, 0, 0, density) == 1.0f);
  CHECK(r::fog_factor(FogMode::kExp, -4, 0, 0, density) == 1.0f);  // e^2 clamps to 1
}

TEST_CASE("raster combiner: apply_fog blends rgb, keeps alpha") {
  const Color c{1.0f, 0.5f, 0.0f, 0.25f}, fog{0.0f, 0.25f, 1.0f, 1.0f};
  const float f = 0.25f;
  // f·color + (1 − f)·fog.
  check_exact(r::apply_fog(c, fog, f), {f * c.r + (1 - f) * fog.r, f * c.g + (1 - f) * fog.g,
                                        f * c.b + (1 - f) * fog.b, c.a});
  check_exact(r::apply_fog(c, fog, 1.0f), {c.r, c.g, c.b, c.a});
  check_exact(r::apply_fog(c, fog, 0.0f), {fog.r, fog.g, fog.b, c.a});
}
