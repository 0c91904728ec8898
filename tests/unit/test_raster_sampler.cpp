// dp2::raster sampler: LOD, point / linear filtering, address modes, mip selection,
// LOD bias, border colour and colour keying. Textures are A8R8G8B8 built here; expected
// colours come from the rules written in sampler.h (the formula sits next to each check).
// Channel values are 0x00 / 0xFF (exactly 0 and 1) wherever weights are checked, and
// sample positions are dyadic, so filtered results are exact.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "dp2raster/sampler.h"

namespace {

using dp2::raster::Address;
using dp2::raster::Color;
using dp2::raster::Filter;
using dp2::raster::Format;
using dp2::raster::SamplerState;
using dp2::raster::TextureView;

// 0xAARRGGBB → the colour decode_raw documents for A8R8G8B8 (channel / 255).
Color argb(std::uint32_t v) {
  return {static_cast<float>((v >> 16) & 0xFFu) / 255.0f, static_cast<float>((v >> 8) & 0xFFu) / 255.0f,
          static_cast<float>(v & 0xFFu) / 255.0f, static_cast<float>(v >> 24) / 255.0f};
}

// A mip chain of A8R8G8B8 levels, each from a width × height texel list (row-major).
struct Texture {
  std::vector<std::vector<std::uint32_t>> storage;
  TextureView view;

  void add_level(std::uint32_t w, std::uint32_t h, std::vector<std::uint32_t> texels) {
    REQUIRE(texels.size() == std::size_t{w} * h);
    storage.push_back(std::move(texels));
    // Re-point every level: push_back may move the vectors' owners, not their buffers.
    view.format = Format::kA8R8G8B8;
    view.levels = static_cast<std::uint32_t>(storage.size());
    auto& level = view.level[storage.size() - 1];
    level.format = Format::kA8R8G8B8;
    level.width = w;
    level.height = h;
    level.pitch = w * 4;
    level.data = reinterpret_cast<std::byte*>(storage.back().data());
  }
  void add_solid(std::uint32_t w, std::uint32_t h, std::uint32_t v) {
    add_level(w, h, std::vector<std::uint32_t>(std::size_t{w} * h, v));
  }
};

void check_color(const Color& got, const Color& want) {
  CHECK(got.r == doctest::Approx(want.r).epsilon(1e-6));
  CHECK(got.g == doctest::Approx(want.g).epsilon(1e-6));
  CHECK(got.b == doctest::Approx(want.b).epsilon(1e-6));
  CHECK(got.a == doctest::Approx(want.a).epsilon(1e-6));
}

Color mix(const Color& a, const Color& b, float t) {  // a·(1 − t) + b·t
  return {a.r * (1 - t) + b.r * t, a.g * (1 - t) + b.g * t, a.b * (1 - t) + b.b * t, a.a * (1 - t) + b.a * t};
}

// 2×2: t00 red, t10 green, t01 blue, t11 white with alpha 0.
constexpr std::uint32_t kRed = 0xFFFF0000u, kGreen = 0xFF00FF00u, kBlue = 0xFF0000FFu, kClearWhite = 0x00FFFFFFu;
Texture two_by_two() {
  Texture t;
  t.add_level(2, 2, {kRed, kGreen, kBlue, kClearWhite});
  return t;
}

// Bilinear result for weights fx, fy over the 2×2 above (same layout):
// w00 = (1−fx)(1−fy), w10 = fx(1−fy), w01 = (1−fx)fy, w11 = fx·fy;
// r = w00 + w11, g = w10 + w11, b = w01 + w11, a = 1 − w11.
Color bilinear_2x2(float fx, float fy) {
  const float w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy;
  return {w00 + w11, w10 + w11, w01 + w11, w00 + w10 + w01};
}

SamplerState point_state() {
  SamplerState s;
  s.mag = s.min = Filter::kPoint;
  s.mip = Filter::kNone;
  return s;
}
SamplerState linear_state() {
  SamplerState s;
  s.mag = s.min = Filter::kLinear;
  s.mip = Filter::kNone;
  return s;
}

}  // namespace

TEST_CASE("raster sampler: compute_lod is log2 of the longer derivative vector") {
  using dp2::raster::compute_lod;
  CHECK(compute_lod(2, 0, 0, 1) == 1.0f);        // log2(max(2, 1)) = 1
  CHECK(compute_lod(0, 4, 3, 0) == 2.0f);        // log2(max(4, 3)) = 2
  CHECK(compute_lod(3, 4, 0, 1) == doctest::Approx(std::log2(5.0)));  // |(3,4)| = 5
  CHECK(compute_lod(1, 1, 0, 0) == doctest::Approx(0.5));            // log2(√2) = 0.5
  CHECK(compute_lod(0.5f, 0, 0, 0.25f) == -1.0f);                    // log2(0.5) = −1
  CHECK(compute_lod(0, 0, 0, 0) == -std::numeric_limits<float>::infinity());
}

TEST_CASE("raster sampler: point sampling reads texel floor(u·w)") {
  Texture t = two_by_two();
  const SamplerState s = point_state();
  // Texel centres (i + 0.5)/2.
  check_color(sample(t.view, s, 0.25f, 0.25f, 0), argb(kRed));
  check_color(sample(t.view, s, 0.75f, 0.25f, 0), argb(kGreen));
  check_color(sample(t.view, s, 0.25f, 0.75f, 0), argb(kBlue));
  check_color(sample(t.view, s, 0.75f, 0.75f, 0), argb(kClearWhite));
  // Texel i covers [i/w, (i+1)/w): u = 0.5 is the first point of texel 1, u just below is texel 0.
  check_color(sample(t.view, s, 0.5f, 0.0f, 0), argb(kGreen));
  check_color(sample(t.view, s, 0.4999f, 0.0f, 0), argb(kRed));
}

TEST_CASE("raster sampler: linear sampling at texel centres and midpoints") {
  Texture t = two_by_two();
  SamplerState s = linear_state();
  s.address_u = s.address_v = Address::kClamp;
  // At a texel centre u·w − 0.5 is an integer: fx = fy = 0, the texel itself.
  check_color(sample(t.view, s, 0.25f, 0.25f, 0), argb(kRed));
  check_color(sample(t.view, s, 0.75f, 0.75f, 0), argb(kClearWhite));
  // u = 0.5: x = 0.5·2 − 0.5 = 0.5 → fx = 0.5; v = 0.25 → fy = 0.
  check_color(sample(t.view, s, 0.5f, 0.25f, 0), bilinear_2x2(0.5f, 0.0f));
  // Centre of the texture: every texel weighs 0.25.
  check_color(sample(t.view, s, 0.5f, 0.5f, 0), bilinear_2x2(0.5f, 0.5f));
  // u = 0.375: x = 0.25 → fx = 0.25; v = 0.625: y = 0.75 → fy = 0.75.
  check_color(sample(t.view, s, 0.375f, 0.625f, 0), bilinear_2x2(0.25f, 0.75f));
  // Clamp at the edge: u = 0 → x = −0.5, texels −1 and 0 both clamp to 0.
  check_color(sample(t.view, s, 0.0f, 0.25f, 0), argb(kRed));
  // Wrap at the edge: texel −1 wraps to 1, so u = 0 blends texel 1 (weight 0.5) and 0 (0.5).
  s.address_u = Address::kWrap;
  check_color(sample(t.view, s, 0.0f, 0.25f, 0), bilinear_2x2(0.5f, 0.0f));
}

namespace {
// 4×4 texture whose texel (x, y) is r = 0x40·x, g = 0x40·y, b = 0, a = 0xFF, so a point
// sample tells which texel indices the address modes produced.
Texture index_texture() {
  Texture t;
  std::vector<std::uint32_t> texels;
  for (std::uint32_t y = 0; y < 4; ++y)
    for (std::uint32_t x = 0; x < 4; ++x) texels.push_back(0xFF000000u | (0x40u * x) << 16 | (0x40u * y) << 8);
  t.add_level(4, 4, texels);
  return t;
}
Color index_color(std::uint32_t x, std::uint32_t y) { return argb(0xFF000000u | (0x40u * x) << 16 | (0x40u * y) << 8); }

struct AddressCase {
  float coord;  // u·4 lands in texel floor(coord·4)
  int wrap, mirror, clamp, border, mirror_once;  // expected texel index, −1 = border
};
// i = floor(coord·4); wrap: i mod 4; mirror: m = i mod 8, m < 4 ? m : 7 − m;
// clamp: clamp(i, 0, 3); border: i in [0, 4) else border; mirror-once: clamp(i < 0 ? −i − 1 : i, 0, 3).
constexpr AddressCase kAddressCases[] = {
    {-0.125f, 3, 0, 0, -1, 0},   // i = −1
    {1.125f, 0, 3, 3, -1, 3},    // i = 4
    {-1.375f, 2, 2, 0, -1, 3},   // i = −6
    {2.375f, 1, 1, 3, -1, 3},    // i = 9
    {1.625f, 2, 1, 3, -1, 3},    // i = 6
    {-0.625f, 1, 2, 0, -1, 2},   // i = −3
    {0.625f, 2, 2, 2, 2, 2},     // i = 2, inside
};
}  // namespace

TEST_CASE("raster sampler: address modes outside [0, 1], on u and on v") {
  Texture t = index_texture();
  const Color border{0.25f, 0.5f, 0.75f, 1.0f};
  for (const AddressCase& c : kAddressCases) {
    const std::pair<Address, int> modes[] = {{Address::kWrap, c.wrap},
                                             {Address::kMirror, c.mirror},
                                             {Address::kClamp, c.clamp},
                                             {Address::kBorder, c.border},
                                             {Address::kMirrorOnce, c.mirror_once}};
    for (const auto& entry : modes) {
      const Address mode = entry.first;
      const int want = entry.second;
      const float coord = c.coord;
      const int mode_value = static_cast<int>(mode);
      CAPTURE(coord);
      CAPTURE(mode_value);
      SamplerState s = point_state();
      s.border = border;
      s.address_u = mode;
      s.address_v = Address::kClamp;
      // u varies, v = 0.375 → row 1.
      const Color got_u = sample(t.view, s, c.coord, 0.375f, 0);
      check_color(got_u, want < 0 ? border : index_color(static_cast<std::uint32_t>(want), 1));
      s.address_u = Address::kClamp;
      s.address_v = mode;
      // v varies, u = 0.875 → column 3.
      const Color got_v = sample(t.view, s, 0.875f, c.coord, 0);
      check_color(got_v, want < 0 ? border : index_color(3, static_cast<std::uint32_t>(want)));
    }
  }
}

TEST_CASE("raster sampler: linear filtering blends the border colour") {
  Texture t = two_by_two();
  SamplerState s = linear_state();
  s.address_u = s.address_v = Address::kBorder;
  s.border = {0.0f, 0.0f, 0.0f, 0.0f};
  // u = 0, v = 0.25: x = −0.5 → texels −1 (border, weight 0.5) and 0 (red, 0.5).
  check_color(sample(t.view, s, 0.0f, 0.25f, 0), {0.5f, 0.0f, 0.0f, 0.5f});
  // u = v = 0: four texels, only t00 inside, weight 0.25.
  check_color(sample(t.view, s, 0.0f, 0.0f, 0), {0.25f, 0.0f, 0.0f, 0.25f});
  s.border = {1.0f, 1.0f, 1.0f, 1.0f};
  // 0.75·border + 0.25·red = (1, 0.75, 0.75, 1).
  check_color(sample(t.view, s, 0.0f, 0.0f, 0), {1.0f, 0.75f, 0.75f, 1.0f});
}

namespace {
// Four solid levels 8×8, 4×4, 2×2, 1×1: L0 red, L1 green, L2 blue, L3 white with alpha 0.
Texture mip_texture() {
  Texture t;
  t.add_solid(8, 8, kRed);
  t.add_solid(4, 4, kGreen);
  t.add_solid(2, 2, kBlue);
  t.add_solid(1, 1, kClearWhite);
  return t;
}
const Color kL[4] = {argb(kRed), argb(kGreen), argb(kBlue), argb(kClearWhite)};
}  // namespace

TEST_CASE("raster sampler: MIPFILTER POINT picks level clamp(floor(λ + 0.5), maxmip, levels − 1)") {
  Texture t = mip_texture();
  SamplerState s = point_state();
  s.mip = Filter::kPoint;
  check_color(sample(t.view, s, 0.3f, 0.3f, -1.0f), kL[0]);  // floor(−0.5) = −1 → 0
  check_color(sample(t.view, s, 0.3f, 0.3f, 0.0f), kL[0]);   // floor(0.5) = 0
  check_color(sample(t.view, s, 0.3f, 0.3f, 0.4f), kL[0]);   // floor(0.9) = 0
  check_color(sample(t.view, s, 0.3f, 0.3f, 0.6f), kL[1]);   // floor(1.1) = 1
  check_color(sample(t.view, s, 0.3f, 0.3f, 1.0f), kL[1]);   // floor(1.5) = 1
  check_color(sample(t.view, s, 0.3f, 0.3f, 2.3f), kL[2]);   // floor(2.8) = 2
  check_color(sample(t.view, s, 0.3f, 0.3f, 9.0f), kL[3]);   // clamp to levels − 1 = 3
  s.max_mip_level = 1;                                       // most detailed allowed: 1
  check_color(sample(t.view, s, 0.3f, 0.3f, -1.0f), kL[1]);
  check_color(sample(t.view, s, 0.3f, 0.3f, 0.4f), kL[1]);
  check_color(sample(t.view, s, 0.3f, 0.3f, 2.3f), kL[2]);
  s.max_mip_level = 10;                                      // beyond the chain → level 3
  check_color(sample(t.view, s, 0.3f, 0.3f, 0.0f), kL[3]);
}

TEST_CASE("raster sampler: MIPFILTER LINEAR blends floor(ℓ) and floor(ℓ) + 1 by the fraction") {
  Texture t = mip_texture();
  SamplerState s = point_state();
  s.mip = Filter::kLinear;
  // ℓ = clamp(λ, maxmip, 3); colour = L[i]·(1 − f) + L[i+1]·f, i = floor(ℓ), f = ℓ − i.
  check_color(sample(t.view, s, 0.3f, 0.3f, -1.0f), kL[0]);                         // ℓ = 0
  check_color(sample(t.view, s, 0.3f, 0.3f, 0.0f), kL[0]);                          // ℓ = 0
  check_color(sample(t.view, s, 0.3f, 0.3f, 0.4f), mix(kL[0], kL[1], 0.4f));        // f = 0.4
  check_color(sample(t.view, s, 0.3f, 0.3f, 0.6f), mix(kL[0], kL[1], 0.6f));        // f = 0.6
  check_color(sample(t.view, s, 0.3f, 0.3f, 1.0f), kL[1]);                          // f = 0
  check_color(sample(t.view, s, 0.3f, 0.3f, 2.3f), mix(kL[2], kL[3], 2.3f - 2.0f)); // f = 0.3
  check_color(sample(t.view, s, 0.3f, 0.3f, 3.5f), kL[3]);                          // ℓ = 3
  s.max_mip_level = 1;
  check_color(sample(t.view, s, 0.3f, 0.3f, 0.4f), kL[1]);                          // ℓ = 1
  check_color(sample(t.view, s, 0.3f, 0.3f, 1.5f), mix(kL[1], kL[2], 0.5f));
}

TEST_CASE("raster sampler: MIPFILTER NONE uses the most detailed allowed level") {
  Texture t = mip_texture();
  SamplerState s = point_state();
  check_color(sample(t.view, s, 0.3f, 0.3f, 2.3f), kL[0]);
  s.max_mip_level = 2;
  check_color(sample(t.view, s, 0.3f, 0.3f, -1.0f), kL[2]);
  check_color(sample(t.view, s, 0.3f, 0.3f, 0.6f), kL[2]);
}

TEST_CASE("raster sampler: LOD bias shifts level selection") {
  Texture t = mip_texture();
  SamplerState s = point_state();
  s.mip = Filter::kPoint;
  s.lod_bias = 0.25f;
  check_color(sample(t.view, s, 0.3f, 0.3f, 0.4f), kL[1]);  // 0.65 → floor(1.15) = 1
  s.lod_bias = -1.5f;
  check_color(sample(t.view, s, 0.3f, 0.3f, 2.3f), kL[1]);  // 0.8 → floor(1.3) = 1
  s.mip = Filter::kLinear;
  s.lod_bias = 0.5f;
  check_color(sample(t.view, s, 0.3f, 0.3f, 0.75f), mix(kL[1], kL[2], 0.25f));  // 1.25
}

TEST_CASE("raster sampler: MAG filter for λ' ≤ 0, MIN filter above (bias included)") {
  Texture t = two_by_two();
  SamplerState s;
  s.mag = Filter::kPoint;
  s.min = Filter::kLinear;
  s.mip = Filter::kNone;
  s.address_u = s.address_v = Address::kClamp;
  // (0.5, 0.5): point reads texel (1, 1); linear averages all four.
  check_color(sample(t.view, s, 0.5f, 0.5f, -0.5f), argb(kClearWhite));
  check_color(sample(t.view, s, 0.5f, 0.5f, 0.0f), argb(kClearWhite));  // λ' = 0 → MAG
  check_color(sample(t.view, s, 0.5f, 0.5f, 0.5f), bilinear_2x2(0.5f, 0.5f));
  s.lod_bias = 1.0f;  // −0.5 + 1 = 0.5 → MIN
  check_color(sample(t.view, s, 0.5f, 0.5f, -0.5f), bilinear_2x2(0.5f, 0.5f));
  s.min = Filter::kAnisotropic;  // treated as linear
  check_color(sample(t.view, s, 0.5f, 0.5f, -0.5f), bilinear_2x2(0.5f, 0.5f));
}

TEST_CASE("raster sampler: colour key is an exact match on the raw texel bits") {
  Texture t = two_by_two();  // t00 = 0xFFFF0000
  t.view.has_color_key = true;
  t.view.color_key = kRed;
  SamplerState s = point_state();
  s.color_key = true;
  bool keyed = false;
  check_color(sample(t.view, s, 0.25f, 0.25f, 0, &keyed), {0, 0, 0, 0});
  CHECK(keyed);
  check_color(sample(t.view, s, 0.75f, 0.25f, 0, &keyed), argb(kGreen));
  CHECK_FALSE(keyed);

  t.view.color_key = kRed ^ 1u;  // one bit off: no match
  check_color(sample(t.view, s, 0.25f, 0.25f, 0, &keyed), argb(kRed));
  CHECK_FALSE(keyed);
  t.view.color_key = kRed;

  s.color_key = false;  // D3DRS_COLORKEYENABLE off
  check_color(sample(t.view, s, 0.25f, 0.25f, 0, &keyed), argb(kRed));
  CHECK_FALSE(keyed);
  s.color_key = true;
  t.view.has_color_key = false;  // no key on the surface
  check_color(sample(t.view, s, 0.25f, 0.25f, 0, &keyed), argb(kRed));
  CHECK_FALSE(keyed);
  t.view.has_color_key = true;

  // Linear: keyed texels contribute (0, 0, 0, 0). Midpoint of red (keyed) and green:
  // 0.5·(0,0,0,0) + 0.5·green; not every contributor keyed.
  s.mag = s.min = Filter::kLinear;
  s.address_u = s.address_v = Address::kClamp;
  check_color(sample(t.view, s, 0.5f, 0.25f, 0, &keyed), {0.0f, 0.5f, 0.0f, 0.5f});
  CHECK_FALSE(keyed);
  // At the keyed texel's centre the neighbours have weight 0: only the keyed one contributes.
  check_color(sample(t.view, s, 0.25f, 0.25f, 0, &keyed), {0, 0, 0, 0});
  CHECK(keyed);
}

TEST_CASE("raster sampler: every contributing texel keyed sets keyed") {
  Texture t;
  t.add_solid(2, 2, 0x80102030u);
  t.view.has_color_key = true;
  t.view.color_key = 0x80102030u;
  SamplerState s = linear_state();
  s.color_key = true;
  bool keyed = false;
  check_color(sample(t.view, s, 0.5f, 0.5f, 0, &keyed), {0, 0, 0, 0});
  CHECK(keyed);
  // Border texels are never keyed: half border → not keyed.
  s.address_u = Address::kBorder;
  s.border = {1, 1, 1, 1};
  check_color(sample(t.view, s, 0.0f, 0.5f, 0, &keyed), {0.5f, 0.5f, 0.5f, 0.5f});
  CHECK_FALSE(keyed);
}

TEST_CASE("raster sampler: degenerate inputs do not crash") {
  TextureView empty;
  bool keyed = true;
  check_color(sample(empty, point_state(), 0.5f, 0.5f, 0, &keyed), {0, 0, 0, 0});
  CHECK_FALSE(keyed);
  Texture t = two_by_two();
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (Address a : {Address::kWrap, Address::kMirror, Address::kClamp, Address::kBorder, Address::kMirrorOnce}) {
    SamplerState s = linear_state();
    s.mip = Filter::kLinear;
    s.address_u = s.address_v = a;
    (void)sample(t.view, s, nan, inf, nan);
    (void)sample(t.view, s, -inf, 1e30f, -inf);
    (void)sample(t.view, s, 3e9f, -3e9f, inf);
  }
  // NaN coordinates read as 0 (point: texel 0).
  check_color(sample(t.view, point_state(), nan, nan, 0), argb(kRed));
}
