// The 8-wide block kernels (span.h), one source compiled per instruction set: CMake builds
// this file with DP2_SIMD_TARGET = 0 (scalar), 1 (SSE4.1), 2 (AVX2), 3 (NEON) and 4
// (AVX-512: the AVX2 code with 32 registers, simd.h), each into its own namespace. Called on a worker thread, inside the tile that owns the pixels.
//
// Each step repeats the scalar pipeline's arithmetic in the same order (pixel.cpp,
// combiner.cpp, sampler.cpp, formats.cpp: -ffp-contract=off, float), so a pixel gets the
// same bits here as there. The comments name the scalar function each step mirrors.
//
// This TU calls no inline function of a shared header: a copy compiled for AVX2 could
// otherwise be the one the linker keeps for everyone (simd.h explains the namespaces).
#include <math.h>

#include <cstring>
#include <type_traits>

#include "scene.h"
#include "dp2raster/sampler.h"
#include "mip_select.h"
#include "simd/block_masks.h"
#include "simd/simd.h"
#include "span.h"

// The helpers below are always inlined into the kernels: each is a few instructions on
// eight lanes, and a call per block would cost more than the work.
#define DP2_INLINE [[gnu::always_inline]] inline
// The same for the kernels' local lambdas: GCC otherwise keeps one called twice (the depth
// test, before or after the alpha test) out of line, a call per block that reloads every
// captured plane from memory.
#define DP2_LAMBDA_INLINE __attribute__((always_inline))

namespace dp2::raster {
namespace DP2_SIMD_NS {
namespace {

// Lane i of a block is pixel (x + i % 4, y + i / 4).
constexpr std::int32_t kLaneX[8] = {0, 1, 2, 3, 0, 1, 2, 3};
constexpr std::int32_t kLaneY[8] = {0, 0, 0, 0, 1, 1, 1, 1};
constexpr std::int32_t kLaneBit[8] = {1, 2, 4, 8, 16, 32, 64, 128};
// Lanes of the block's left 2×2 quad (the right quad is the rest).
constexpr std::int32_t kQuadA[8] = {-1, -1, 0, 0, -1, -1, 0, 0};
// 8-bit channels: unorm8 = q / 255 and quantize = floor(c·255 + 0.5) (formats.cpp).
constexpr float kUnorm8Max = 255.0f;
// q / 255 without the division: 1/255 = 2^-8 · 1.00000001 00000001 ..., split into a
// head of 17 bits and a small tail. q·head is exact (q < 2^8, so at most 24 bits), and
// q·head + q·tail rounds to the float nearest q / 255 for every q, which the
// static_assert below checks at compile time (mul and add only: -ffp-contract=off keeps
// them apart). On AVX2 two multiplies and an add cost less than the division (W2 +9%).
constexpr float kInv255Head = 0x1.0101p-8f;
constexpr float kInv255Tail = 0x1.010102p-32f;
constexpr bool inv255_split_is_exact() {
  for (int q = 0; q < 256; ++q) {
    const float f = static_cast<float>(q);
    if (f * kInv255Head + f * kInv255Tail != f / kUnorm8Max) return false;
  }
  return true;
}
static_assert(inv255_split_is_exact(), "q·head + q·tail must equal q / 255 for every 8-bit q");
constexpr float kRoundHalf = 0.5f;
// Texel coordinates are clamped to ±2^30 before the integer conversion (sampler.cpp).
constexpr float kMaxTexelCoord = 1073741824.0f;
// D3D9 texel centres: bilinear reads around u·n − 0.5 (sampler.cpp).
constexpr float kTexelCentre = 0.5f;

struct Color8 {
  F8 r, g, b, a;
};

// std::clamp(v, lo, hi) = v < lo ? lo : (hi < v ? hi : v); NaN passes through.
DP2_INLINE F8 clamp_std(F8 v, F8 lo, F8 hi) {
  const F8 t = select(cmp_lt(v, lo), lo, v);
  return select(cmp_lt(hi, t), hi, t);
}

// A 4×2 block of 32-bit pixels at (x, y), or of 16-bit ones (`half`), each lane holding
// one pixel's raw bits. Inside the surfaces' common extent the rows load whole; at the
// edge only covered lanes are read and written (the rest may not exist).
struct Block {
  std::byte* row0;
  std::byte* row1;
  bool whole;
  bool half;
};

// Row y's pixel x, the first of a row pair's blocks.
DP2_INLINE std::byte* row_start(std::byte* base, std::uint32_t pitch, std::int32_t x, std::int32_t y, bool half) {
  return base + static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x) * (half ? 2 : 4);
}
// Block k of the row pair that starts at `row` (row_start()).
DP2_INLINE Block block_at(std::byte* row, std::uint32_t pitch, std::int32_t k, bool whole, bool half) {
  std::byte* r0 = row + static_cast<std::size_t>(k) * (half ? 8 : 16);
  return {r0, r0 + pitch, whole, half};
}

DP2_INLINE I8 load_block(const Block& b, int covered) {
  if (b.whole) return b.half ? load_rows16(b.row0, b.row1) : load_rows(b.row0, b.row1);
  const std::size_t bytes = b.half ? 2 : 4;
  alignas(32) std::uint32_t v[8] = {};
  {
    for (int i = 0; i < 8; ++i)
      if (covered & (1 << i)) std::memcpy(v + i, (i < 4 ? b.row0 : b.row1) + (i & 3) * bytes, bytes);
  }
  return load_i(v);
}

DP2_INLINE void store_block(const Block& b, int covered, I8 value) {
  if (b.whole) return b.half ? store_rows16(b.row0, b.row1, value) : store_rows(b.row0, b.row1, value);
  const std::size_t bytes = b.half ? 2 : 4;
  alignas(32) std::uint32_t v[8];
  store_i(v, value);
  {
    for (int i = 0; i < 8; ++i)
      if (covered & (1 << i)) std::memcpy((i < 4 ? b.row0 : b.row1) + (i & 3) * bytes, v + i, bytes);
  }
}

// compare() of pixel.cpp on values below 2^31.
DP2_INLINE I8 compare(Compare func, I8 a, I8 b) {
  // The usual depth tests first, so they take no jump through the switch's table.
  if (func == Compare::kLess) [[likely]]
    return cmp_gt(b, a);
  if (func == Compare::kLessEqual) return ~cmp_gt(a, b);
  switch (func) {
    case Compare::kNever: return splat_i(0);
    case Compare::kEqual: return cmp_eq(a, b);
    case Compare::kGreater: return cmp_gt(a, b);
    case Compare::kNotEqual: return ~cmp_eq(a, b);
    case Compare::kGreaterEqual: return ~cmp_gt(b, a);
    case Compare::kLess:       // answered above
    case Compare::kLessEqual:  // answered above
    case Compare::kAlways: break;
  }
  return splat_i(-1);
}

template <int kShift>
DP2_INLINE F8 unorm8(I8 raw) {
  const F8 f = to_float(byte_at<kShift / 8>(raw));
  // f·head is exact, so the sum rounds once whether or not the product is fused.
  return exact_product_plus(f, splat(kInv255Head), f * splat(kInv255Tail));
}

// decode_raw for A8R8G8B8 / X8R8G8B8.
DP2_INLINE Color8 decode_argb(I8 raw, bool alpha) {
  return {unorm8<16>(raw), unorm8<8>(raw), unorm8<0>(raw), alpha ? unorm8<24>(raw) : splat(1.0f)};
}

// quantize() of a channel already in [0, 1] (formats.cpp): floor(c·255 + 0.5 + dither)
// with dither 0. Adding +0 changes no value here (x ≥ 0.5), and for x ≥ 0 truncation is
// floor, so one conversion does it.
DP2_INLINE I8 quantize8(F8 c) { return truncate(c * splat(kUnorm8Max) + splat(kRoundHalf)); }

// encode_color for A8R8G8B8 / X8R8G8B8 without dither, of a colour already in [0, 1]
// (put() clamps again; clamping twice changes nothing).
DP2_INLINE I8 encode_argb(const Color8& c, bool alpha) {
  const I8 rgb = shl<16>(quantize8(c.r)) | shl<8>(quantize8(c.g)) | quantize8(c.b);
  return rgb | (alpha ? shl<24>(quantize8(c.a)) : splat_i(static_cast<std::int32_t>(0xFF000000u)));
}

// decode_raw for the 16-bit targets: each channel's q / max as a float division, as
// unorm() does; q·2^shift converts exactly and times 2^−shift is q.
DP2_INLINE F8 unorm16(I8 raw, const FastDraw::Channel16& c) {
  return to_float(raw & splat_i(c.mask)) * splat(c.down) / splat(c.max);
}
DP2_INLINE Color8 decode16(const FastDraw::Layout16& l, I8 raw) {
  return {unorm16(raw, l.r), unorm16(raw, l.g), unorm16(raw, l.b), l.a.max != 0 ? unorm16(raw, l.a) : splat(1.0f)};
}

// quantize() of a channel already in [0, 1] with this lane's dither offset (formats.cpp:
// floor(c·max + 0.5 + dither), clamped to [0, max]), moved to its bits. The offset is 0
// where nothing dithers, as in the scalar pipeline: adding +0 changes no value here
// (c·max + 0.5 ≥ 0.5).
DP2_INLINE I8 put16(F8 c, const FastDraw::Channel16& ch, F8 dither) {
  const F8 t = c * splat(ch.max) + splat(kRoundHalf) + dither;
  const F8 q = min(max(floor(t), splat(0.0f)), splat(ch.max));
  return truncate(q * splat(ch.up));
}
// encode_color for the 16-bit targets, of a colour already in [0, 1]; alpha never dithers.
DP2_INLINE I8 encode16(const FastDraw::Layout16& l, const Color8& c, F8 dither) {
  const I8 rgb = put16(c.r, l.r, dither) | put16(c.g, l.g, dither) | put16(c.b, l.b, dither) | splat_i(l.fixed);
  return l.a.max != 0 ? rgb | put16(c.a, l.a, splat(0.0f)) : rgb;
}

// sampler.cpp: finite_coord(x) — NaN reads 0, then clamped to ±2^30.
DP2_INLINE F8 finite_coord(F8 x) {
  x = select(is_nan(x), splat(0.0f), x);
  return clamp_std(x, splat(-kMaxTexelCoord), splat(kMaxTexelCoord));
}

// One level per lane: its size, the largest index, and where its texels start.
struct LevelParams {
  F8 fw, fh;
  I8 wmax, hmax, pitch, offset;
};

DP2_INLINE LevelParams level_params(const FastDraw::Level& l) {
  return {splat(static_cast<float>(l.width)), splat(static_cast<float>(l.height)), splat_i(l.width - 1),
          splat_i(l.height - 1), splat_i(l.pitch), splat_i(l.offset)};
}

// Quad A's level on its lanes (0, 1, 4, 5), quad B's on the others.
DP2_INLINE LevelParams level_params(const FastDraw::Level& a, const FastDraw::Level& b, I8 quad_a) {
  const LevelParams pa = level_params(a), pb = level_params(b);
  return {select(quad_a, pa.fw, pb.fw),       select(quad_a, pa.fh, pb.fh),
          select(quad_a, pa.wmax, pb.wmax),   select(quad_a, pa.hmax, pb.hmax),
          select(quad_a, pa.pitch, pb.pitch), select(quad_a, pa.offset, pb.offset)};
}

// Quad A's level `a` on its lanes, quad B's `b` on the others: one level's parameters when
// the two are the same (all but 0.1% of the demo scene's mipmapped blocks).
DP2_INLINE LevelParams quad_levels(const FastDraw& d, std::uint32_t a, std::uint32_t b, I8 quad_a) {
  return a == b ? level_params(d.levels[a]) : level_params(d.levels[a], d.levels[b], quad_a);
}

// The draw's texture as the sampler reads it per block, copied once per grid: the pixel
// stores go through std::byte*, which may alias the FastDraw, so read from it these were
// reloaded in every block and the level's parameters rebuilt (W2: ~25 instructions a block).
struct Texturing {
  const std::uint32_t* texels;
  bool wrap_u, wrap_v, alpha, linear, mip;
  LevelParams level;  // d.levels[d.level], read when !mip
};

DP2_INLINE Texturing texturing(const FastDraw& d) {
  return {d.texels, d.wrap_u, d.wrap_v, d.tex_alpha, d.tex_linear, d.mip_lod, level_params(d.levels[d.level])};
}

// address(): WRAP on a power of two is a mask, CLAMP a clamp.
DP2_INLINE I8 address(I8 i, I8 max_index, bool wrap) {
  return wrap ? i & max_index : min(max(i, splat_i(0)), max_index);
}

DP2_INLINE F8 lerp(F8 a, F8 b, F8 t) { return a * (splat(1.0f) - t) + b * t; }
// Texel colours, with or without their alpha: kAlpha false when nothing downstream reads
// the texture's alpha (its lanes are then left as they are, unspecified).
template <bool kAlpha>
DP2_INLINE Color8 lerp(const Color8& a, const Color8& b, F8 t) {
  return {lerp(a.r, b.r, t), lerp(a.g, b.g, t), lerp(a.b, b.b, t), kAlpha ? lerp(a.a, b.a, t) : a.a};
}

template <bool kAlpha>
DP2_INLINE Color8 fetch(const Texturing& s, const LevelParams& l, I8 x, I8 y) {
  return decode_argb(gather(s.texels, l.offset + mul_lo(y, l.pitch) + x), kAlpha && s.alpha);
}

// sample_level() of sampler.cpp on each lane's level: POINT or (bi)LINEAR.
// kInRange: every lane's texel coordinate is finite and well inside ±2^30, where
// finite_coord() is the identity (in_range_coords() below decides it per grid).
template <bool kInRange>
DP2_INLINE F8 coord(F8 x) {
  return kInRange ? x : finite_coord(x);
}

template <bool kAlpha, bool kInRange>
DP2_INLINE Color8 sample_level(const Texturing& s, const LevelParams& l, F8 u, F8 v, bool linear) {
  if (!linear) {
    const I8 ix = truncate(floor(coord<kInRange>(u * l.fw))), iy = truncate(floor(coord<kInRange>(v * l.fh)));
    return fetch<kAlpha>(s, l, address(ix, l.wmax, s.wrap_u), address(iy, l.hmax, s.wrap_v));
  }
  const F8 x = coord<kInRange>(u * l.fw - splat(kTexelCentre)), y = coord<kInRange>(v * l.fh - splat(kTexelCentre));
  const F8 x0f = floor(x), y0f = floor(y);
  const F8 fx = x - x0f, fy = y - y0f;
  const I8 x0 = truncate(x0f), y0 = truncate(y0f);
  const I8 ax0 = address(x0, l.wmax, s.wrap_u), ax1 = address(x0 + splat_i(1), l.wmax, s.wrap_u);
  const I8 ay0 = address(y0, l.hmax, s.wrap_v), ay1 = address(y0 + splat_i(1), l.hmax, s.wrap_v);
  const I8 row0 = l.offset + mul_lo(ay0, l.pitch), row1 = l.offset + mul_lo(ay1, l.pitch);
  I8 r00, r10, r01, r11;
  if (bits(cmp_eq(ax1, ax0 + splat_i(1))) == 0xFF) {
    // Every lane's two columns are neighbours in memory (not wrapped or clamped at the
    // edge): one load per lane and row.
    gather_pair(s.texels, row0 + ax0, r00, r10);
    gather_pair(s.texels, row1 + ax0, r01, r11);
  } else {
    r00 = gather(s.texels, row0 + ax0);
    r10 = gather(s.texels, row0 + ax1);
    r01 = gather(s.texels, row1 + ax0);
    r11 = gather(s.texels, row1 + ax1);
  }
  const bool alpha = kAlpha && s.alpha;
  const Color8 t00 = decode_argb(r00, alpha), t10 = decode_argb(r10, alpha), t01 = decode_argb(r01, alpha),
               t11 = decode_argb(r11, alpha);
  return lerp<kAlpha>(lerp<kAlpha>(t00, t10, fx), lerp<kAlpha>(t01, t11, fx), fy);
}

DP2_INLINE Color8 select(I8 m, const Color8& a, const Color8& b) {
  return {select(m, a.r, b.r), select(m, a.g, b.g), select(m, a.b, b.b), select(m, a.a, b.a)};
}

// Each lane's level with its quad's filter: one pass when both quads filter alike.
template <bool kAlpha, bool kInRange>
DP2_INLINE Color8 sample_levels(const Texturing& s, const LevelParams& l, F8 u, F8 v, bool linear_a, bool linear_b,
                                I8 quad_a) {
  if (linear_a == linear_b) return sample_level<kAlpha, kInRange>(s, l, u, v, linear_a);
  return select(quad_a, sample_level<kAlpha, kInRange>(s, l, u, v, linear_a),
                sample_level<kAlpha, kInRange>(s, l, u, v, linear_b));
}

// sample() for the block with per-quad LOD: each 2×2 quad computes its LOD from its
// pixels 0, 1, 2 (quad_lods() in pixel.cpp) and chooses its level(s) and filter
// (choose_mip(), shared with the scalar sampler, inlined from mip_select.h).
template <bool kAlpha, bool kInRange>
[[gnu::noinline]] Color8 sample_mip(const FastDraw& d, const Texturing& s, F8 u, F8 v) {
  alignas(32) float us[8], vs[8];
  store(us, u);
  store(vs, v);
  const ImageView& base = d.texture->level[0];
  const float w0 = static_cast<float>(base.width), h0 = static_cast<float>(base.height);
  MipChoice mip[2];
  for (int q = 0; q < 2; ++q) {
    const int p0 = 2 * q, p1 = p0 + 1, p2 = p0 + 4;  // the quad's pixels (0,0), (1,0), (0,1)
    const float dudx = (us[p1] - us[p0]) * w0, dvdx = (vs[p1] - vs[p0]) * h0;
    const float dudy = (us[p2] - us[p0]) * w0, dvdy = (vs[p2] - vs[p0]) * h0;
    mip[q] = select_mip_from_derivatives(*d.texture, *d.sampler, dudx, dvdx, dudy, dvdy);
  }
  const I8 quad_a = load_i(kQuadA);
  const Color8 c0 = sample_levels<kAlpha, kInRange>(s, quad_levels(d, mip[0].level0, mip[1].level0, quad_a), u, v,
                                                    mip[0].linear, mip[1].linear, quad_a);
  if (!(mip[0].fraction > 0.0f) && !(mip[1].fraction > 0.0f)) return c0;
  // The next level where a quad blends two; a quad with fraction 0 reads its own level
  // again and lerp(c, c, 0) = c exactly (c is finite and ≥ 0).
  const std::uint32_t next_a = mip[0].fraction > 0.0f ? mip[0].level0 + 1 : mip[0].level0;
  const std::uint32_t next_b = mip[1].fraction > 0.0f ? mip[1].level0 + 1 : mip[1].level0;
  const Color8 c1 = sample_levels<kAlpha, kInRange>(s, quad_levels(d, next_a, next_b, quad_a), u, v, mip[0].linear,
                                                    mip[1].linear, quad_a);
  return lerp<kAlpha>(c0, c1, select(quad_a, splat(mip[0].fraction), splat(mip[1].fraction)));
}

// The single-level case inline in the block body of the AVX2 and AVX-512 copies: a call passes the
// coordinates and returns the 128-byte colour through memory (W2 +5%). The scalar and
// SSE4.1 copies keep the call: inlined into every kernel it makes them much slower to
// compile, in each of CI's builds, and only CPUs without AVX2 run them.
#if DP2_SIMD_AVX2_CODE
#define DP2_SAMPLE_INLINE DP2_INLINE
#else
#define DP2_SAMPLE_INLINE [[gnu::noinline]]
#endif
template <bool kAlpha, bool kInRange>
DP2_SAMPLE_INLINE Color8 sample(const FastDraw& d, const Texturing& s, F8 u, F8 v) {
  if (s.mip) return sample_mip<kAlpha, kInRange>(d, s, u, v);
  return sample_level<kAlpha, kInRange>(s, s.level, u, v, s.linear);
}

// select_arg() for the selectors prepare_fast_draw admits (no modifiers).
// By value: returning a reference made the kernel keep the three colours in memory and
// read the chosen one back, in every block.
DP2_INLINE Color8 argument(std::uint8_t arg, const Color8& diffuse, const Color8& texture, const Color8& tfactor) {
  switch (arg) {
    case kArgTexture: return texture;
    case kArgTFactor: return tfactor;
    default: return diffuse;  // DIFFUSE, or CURRENT at stage 0
  }
}

// channel_op() + clamp01 for the ops prepare_fast_draw admits.
DP2_INLINE F8 op(TextureOp o, F8 a1, F8 a2) {
  switch (o) {
    case TextureOp::kSelectArg1: return clamp01(a1);
    case TextureOp::kSelectArg2: return clamp01(a2);
    case TextureOp::kModulate2x: return clamp01((a1 * a2) * splat(2.0f));
    case TextureOp::kModulate4x: return clamp01((a1 * a2) * splat(4.0f));
    case TextureOp::kAdd: return clamp01(a1 + a2);
    case TextureOp::kModulate:
    default: return clamp01(a1 * a2);
  }
}

// blend_factor() of pixel.cpp for the factors prepare_fast_draw admits (not SRCALPHASAT
// or the BOTH* pair), one channel at a time: `own` is the channel of src or dst it
// multiplies.
DP2_INLINE F8 factor(Blend f, F8 src_c, F8 src_a, F8 dst_c, F8 dst_a, float constant) {
  switch (f) {
    case Blend::kZero: return splat(0.0f);
    case Blend::kSrcColor: return src_c;
    case Blend::kInvSrcColor: return splat(1.0f) - src_c;
    case Blend::kSrcAlpha: return src_a;
    case Blend::kInvSrcAlpha: return splat(1.0f) - src_a;
    case Blend::kDestAlpha: return dst_a;
    case Blend::kInvDestAlpha: return splat(1.0f) - dst_a;
    case Blend::kDestColor: return dst_c;
    case Blend::kInvDestColor: return splat(1.0f) - dst_c;
    case Blend::kBlendFactor: return splat(constant);
    case Blend::kInvBlendFactor: return splat(1.0f - constant);
    case Blend::kOne:
    default: return splat(1.0f);
  }
}

// blend_channel() of pixel.cpp.
DP2_INLINE F8 blend_channel(BlendOp o, F8 s, F8 sf, F8 d, F8 df) {
  switch (o) {
    case BlendOp::kSubtract: return s * sf - d * df;
    case BlendOp::kRevSubtract: return d * df - s * sf;
    case BlendOp::kMin: return min(s, d);
    case BlendOp::kMax: return max(s, d);
    case BlendOp::kAdd:
    default: return s * sf + d * df;
  }
}

DP2_INLINE F8 blend_one(const FastDraw::BlendMode& b, F8 s, F8 sa, F8 dc, F8 da, float constant) {
  return clamp01(blend_channel(b.op, s, factor(b.src, s, sa, dc, da, constant), dc, factor(b.dst, s, sa, dc, da, constant)));
}

// blend_one() on every channel (alpha only where the target stores it), of a source and a
// destination colour whose channels are all in [0, 1] (clamp01's output and a decoded
// target). The src_alpha_over case is blend_one's s·sf + d·df with sf = αs and
// df = 1 − αs, the same operations in the same order, computing 1 − αs once; its clamp01
// is left out, as it changes no value there: every term is ≥ +0, and rounding is
// monotonic, so s·αs + d·inv ≤ αs + inv, where inv = fl(1 − αs) is within 2^-25 of 1 − αs
// and fl(αs + inv) ≤ fl(1 + 2^-25) = 1.
DP2_INLINE Color8 blend(const FastDraw::BlendMode& b, const Color8& src, const Color8& dst, bool color_alpha) {
  const F8 sa = src.a;
  if (b.src_alpha_over) {
    const F8 inv = splat(1.0f) - sa;
    const auto over = [&](F8 s, F8 dc) DP2_LAMBDA_INLINE { return s * sa + dc * inv; };
    return {over(src.r, dst.r), over(src.g, dst.g), over(src.b, dst.b), color_alpha ? over(sa, dst.a) : sa};
  }
  const Color& k = b.constant;
  return {blend_one(b, src.r, sa, dst.r, dst.a, k.r), blend_one(b, src.g, sa, dst.g, dst.a, k.g),
          blend_one(b, src.b, sa, dst.b, dst.a, k.b), color_alpha ? blend_one(b, sa, sa, dst.a, dst.a, k.a) : sa};
}

// The planes a block reads, each evaluated as Plane::at does it, (ref + dx·fx) + dy·fy,
// in the same order: ref + dx·fx is kept per block column (every row pair of the grid
// shares it) and dy·fy is computed once per row pair.
struct GridPlane {
  F8 column[BlockGrid::kMaxCols];
  F8 dy, dyfy;
  // fx[k]: column k's lanes' fx (fx0 + 4k + lane_x as floats), shared by every plane.
  DP2_INLINE void init(const Plane& p, const F8* fx, std::int32_t cols) {
    const F8 ref = splat(p.ref), dx = splat(p.dx);
    for (std::int32_t k = 0; k < cols; ++k) column[k] = ref + dx * fx[k];
    dy = splat(p.dy);
  }
  DP2_INLINE void row(F8 fy) { dyfy = dy * fy; }
  DP2_INLINE F8 at(std::int32_t k) const { return column[k] + dyfy; }
};

// Slots of the grid planes.
enum : int { kPlaneZ, kPlaneQ, kPlaneU, kPlaneV, kPlaneColor0, kGridPlanes = kPlaneColor0 + kColorPlanes };

// std::min(x, 1.0f) as pixel.cpp's specular add spells it: 1 < x ? 1 : x (NaN stays).
DP2_INLINE F8 min_std_one(F8 x) { return select(cmp_lt(splat(1.0f), x), splat(1.0f), x); }

// fog_factor() of combiner.cpp for the table modes; EXP and EXP2 call the same std::exp
// per lane as the scalar pipeline.
DP2_INLINE F8 table_fog(const FastDraw& d, F8 dist) {
  switch (d.fog_table) {
    case FogMode::kLinear:
      if (d.fog_end == d.fog_start) return select(cmp_le(dist, splat(d.fog_start)), splat(1.0f), splat(0.0f));
      return clamp01((splat(d.fog_end) - dist) / (splat(d.fog_end) - splat(d.fog_start)));
    case FogMode::kExp:
    case FogMode::kExp2: {
      alignas(32) float v[8];
      store(v, dist);
      for (float& x : v) {
        const float t = d.fog_density * x;
        // libm's expf, which std::exp(float) calls in the scalar pipeline (the libstdc++
        // inline wrapper is avoided here: an AVX2 copy of it must not reach other TUs).
        x = ::expf(-(d.fog_table == FogMode::kExp ? t : t * t));
      }
      return clamp01(load(v));
    }
    case FogMode::kNone:
    default:
      return splat(1.0f);
  }
}

// Whether an affine triangle's texture coordinates, on every lane of the grid (covered or
// not), stay finite and below 2^29 texels of level 0 (the largest): then finite_coord()
// changes none of them. A plane's extremes over the grid's pixel rectangle are at its
// corners; the bound is taken in double with room for the float evaluation's rounding,
// and a NaN or infinite plane fails it.
bool in_range_coords(const FastDraw& d, const TrianglePrim& t, const Plane* tri_planes, const BlockGrid& g) {
  constexpr double kLimit = 536870912.0;  // 2^29, half finite_coord's clamp
  constexpr double kRoundingRoom = 1.001;  // float evaluation error, far below 0.1%
  const double fx0 = g.x0 - t.ox(), fx1 = fx0 + 4.0 * g.cols - 1.0;
  const double fy0 = g.y0 - t.oy(), fy1 = fy0 + 2.0 * g.rows - 1.0;
  // fabs from math.h and a plain ternary: no inline function of a shared header here.
  auto larger = [](double a, double b) { return a > b ? a : b; };
  auto extent = [&](const Plane& p) {
    const double dx = p.dx, dy = p.dy;
    return fabs(double{p.ref}) + larger(fabs(dx * fx0), fabs(dx * fx1)) + larger(fabs(dy * fy0), fabs(dy * fy1));
  };
  const ImageView& base = d.texture->level[0];
  const double u = extent(tri_planes[d.texcoord_plane]) * base.width * kRoundingRoom + kTexelCentre;
  const double v = extent(tri_planes[d.texcoord_plane + 1]) * base.height * kRoundingRoom + kTexelCentre;
  return u < kLimit && v < kLimit;
}

// Whether a triangle takes the lean copy of its kernel: its state is lean (decided per
// state, span.cpp) and the triangle is affine.
DP2_INLINE bool lean(const FastDraw& d, const TrianglePrim& t) { return d.lean && !t.perspective; }

// A triangle's blocks in one tile: the scalar pipeline's shade<>() on eight pixels at a
// time. kLean: lean(d, t) holds. k16: the colour or depth target may be 16-bit (without
// it, the 32-bit copies carry none of those tests). kModulate: FastDraw::modulate holds.
template <bool kDepth, bool kTexture, bool kBlend, bool kLean, bool k16, bool kModulate = false>
void block_grid(const FastDraw& d, const TrianglePrim& t, const Plane* tri_planes, const BlockGrid& g,
                TileCounters& counters) {
  const I8 lane_x = load_i(kLaneX), lane_y = load_i(kLaneY), lane_bit = load_i(kLaneBit);
  // The draw's fields read per block, copied: the pixel stores go through std::byte*, which
  // may alias `d`, so the compiler would otherwise reload every one of them per block.
  std::byte* const color_base = d.color;
  std::byte* const depth_base = d.depth;
  const std::uint32_t color_pitch = d.color_pitch, depth_pitch = d.depth_pitch;
  const std::int32_t width = d.width, height = d.height;
  const Compare depth_func = d.depth_func, alpha_func = d.alpha_func;
  const bool depth_write = d.depth_write, alpha_test = !kLean && d.alpha_test, specular = !kLean && d.specular;
  // FastDraw::modulate without blending: alpha is not needed, so the target stores none.
  const bool color_alpha = !(kModulate && !kBlend) && d.color_alpha;
  const bool alpha_op_disabled = d.alpha_op == TextureOp::kDisable;
  const TextureOp color_op = d.color_op, alpha_op = d.alpha_op;
  const std::uint8_t color_arg1 = d.color_arg1, color_arg2 = d.color_arg2;
  const std::uint8_t alpha_arg1 = d.alpha_arg1, alpha_arg2 = d.alpha_arg2;
  const FastDraw::Fog fog = kLean ? FastDraw::Fog::kNone : d.fog;
  const bool perspective = !kLean && t.perspective;
  const std::uint8_t flat_mask = t.flat_mask;
  // A stage without a texture has no coordinate planes (setup stores sampled sets only).
  const bool sampled = kTexture && (kModulate || d.texels != nullptr);
  const Texturing tex = sampled ? texturing(d) : Texturing{};
  // Alpha reaches the pixel only through the alpha test, blending or an ARGB target;
  // otherwise it is not computed at all (and setup gave it no plane).
  const bool need_alpha = kBlend || (!kModulate && d.need_alpha);
  // COLORWRITEENABLE lets every bit through: a fully passing block needs no old colour.
  const bool write_all = kModulate || d.write_all;  // FastDraw::modulate implies it
  // FastDraw::modulate's stage written out: in the kModulate copy, and behind this one
  // per-draw flag in every other copy (the demo scene's perspective, fogged triangles
  // take it), in place of a switch per channel and argument per block. Where the flag
  // holds, need_alpha is kBlend here too: prepare_fast_draw sets it only when
  // d.need_alpha equals the state's blend flag, which is the kernel key's kBlend.
  const bool modulate = kModulate || (kTexture && d.modulate);
  const bool color16 = k16 && d.color16, depth16 = k16 && d.depth16, dither_on = k16 && d.dither;
  const FastDraw::Layout16 layout16 = d.layout16;  // a copy, for the same reason as the fields above
  const bool depth_bias_on = !kLean && d.depth_bias != 0;
  // The stage's op() clamps its channels (alpha where ALPHAOP runs), and clamp01 of
  // clamp01's output is the same value (never NaN, in [0, 1]): the final clamp is needed
  // only after a specular add or fog, or without a texture stage.
  const bool rgb_clamped = kTexture && !specular && fog == FastDraw::Fog::kNone;
  const bool alpha_clamped = kTexture && !alpha_op_disabled;
  // FastDraw::z_clamp_plain: the two clamps are one min/max pair.
  const bool z_clamp_simple = kLean || d.z_clamp_plain;
  const F8 constant_w = splat(t.w);
  const F8 min_z = splat(d.min_z), max_z = splat(d.max_z);
  const I8 depth_keep = splat_i(static_cast<std::int32_t>(d.depth_keep)), depth_bias = splat_i(d.depth_bias);
  const I8 write_keep = splat_i(static_cast<std::int32_t>(d.write_keep));
  const FastDraw::BlendMode blend_mode = d.blend;  // a copy, for the same reason as the fields above
  const Color8 tfactor{splat(d.tfactor.r), splat(d.tfactor.g), splat(d.tfactor.b), splat(d.tfactor.a)};
  const Color8 white{splat(1.0f), splat(1.0f), splat(1.0f), splat(1.0f)};

  // The planes this state reads, each set up for the grid's columns. One list, walked
  // for the set-up and at each row: straight-line tests of loop-invariant flags, where an
  // index list of the used slots cost a dependent load and store per plane and row.
  GridPlane planes[kGridPlanes];
  const std::int32_t fx0 = g.x0 - t.ox();
  const bool z_plane = kDepth || (fog == FastDraw::Fog::kTable && !d.fog_on_w);
  auto for_each_plane = [&](auto&& f) DP2_LAMBDA_INLINE {
    if (z_plane) f(kPlaneZ, t.z);
    if (perspective) f(kPlaneQ, t.q);
    if (sampled) {
      f(kPlaneU, tri_planes[d.texcoord_plane]);
      f(kPlaneV, tri_planes[d.texcoord_plane + 1]);
    }
    for (int i = 0; i < 3; ++i) f(kPlaneColor0 + i, t.diffuse[i]);
    if (need_alpha) f(kPlaneColor0 + 3, t.diffuse[3]);
    // The specular add and vertex fog read specular, so setup stored its planes.
    if (specular)
      for (int i = 0; i < 3; ++i) f(kPlaneColor0 + 4 + i, tri_planes[t.specular + i]);
    if (fog == FastDraw::Fog::kVertex) f(kPlaneColor0 + 7, tri_planes[t.specular + 3]);
  };
  F8 fx[BlockGrid::kMaxCols];
  for (std::int32_t k = 0; k < g.cols; ++k) fx[k] = to_float(splat_i(fx0 + 4 * k) + lane_x);
  for_each_plane([&](int slot, const Plane& p) DP2_LAMBDA_INLINE { planes[slot].init(p, fx, g.cols); });
  const GridPlane& z = planes[kPlaneZ];
  const bool in_range = sampled && !perspective && in_range_coords(d, t, tri_planes, g);

  std::uint64_t written = 0;
  // Bit k: block k lies inside the surfaces' width (x + 4 <= width). Set once per grid, as
  // a mask like row_masks()'s, so a row's whole and full blocks are two ANDs.
  const std::int32_t inside = width - g.x0 < 4 ? 0 : (width - g.x0) / 4;
  const std::uint32_t inside_bits = inside < BlockGrid::kMaxCols ? (1u << inside) - 1u : (1u << BlockGrid::kMaxCols) - 1u;
  static_assert(BlockGrid::kMaxCols == 16, "row_masks() reads a row of 16 block masks");
  for (std::int32_t row = 0; row < g.rows; ++row) {
    const auto& masks = g.masks[row];
    // The row's blocks are visited by their bits: an empty block costs nothing, and a full
    // one is known without reading its mask (W1's rows are all full, W4's mostly empty).
    const RowMasks row_bits = row_masks(masks, g.cols);
    if (row_bits.covered == 0) continue;
    const std::int32_t y = g.y0 + 2 * row;
    // ... and is whole when the row pair lies inside their height too.
    const std::uint32_t whole_bits = y + 2 <= height ? inside_bits : 0;
    // Blocks whose eight lanes are covered and inside the surfaces.
    const std::uint32_t full_blocks = row_bits.full & whole_bits;
    std::byte* const color_row = row_start(color_base, color_pitch, g.x0, y, color16);
    std::byte* const depth_row = kDepth ? row_start(depth_base, depth_pitch, g.x0, y, depth16) : nullptr;
    const F8 fy = to_float(splat_i(y - t.oy()) + lane_y);
    // This row pair's dither offsets (y % 4 is 0 or 2); 0 where nothing dithers.
    const F8 dither = dither_on ? load(d.dither_rows[(y >> 1) & 1].data()) : splat(0.0f);
    for_each_plane([&](int slot, const Plane&) DP2_LAMBDA_INLINE { planes[slot].row(fy); });
    for (std::uint32_t left = row_bits.covered; left != 0; left &= left - 1) {
      const auto k = static_cast<std::int32_t>(__builtin_ctz(left));
      const bool full_block = (full_blocks >> k) & 1u;
      const int covered = full_block ? 0xFF : masks[k];
      const bool whole = (whole_bits >> k) & 1u;
      // One block; `full` (std::true_type) when all 8 lanes are covered and inside the
      // surfaces, where the masks fold away.
      auto shade_block = [&](auto full) DP2_LAMBDA_INLINE {
        constexpr bool kFull = decltype(full)::value;
        const I8 cover = kFull ? splat_i(-1) : ~cmp_eq(splat_i(covered) & lane_bit, splat_i(0));
        // eye_w(): 1 / q, or the triangle's constant.
        const F8 w = perspective ? splat(1.0f) / planes[kPlaneQ].at(k) : constant_w;
        // attributes_from_planes(): colour channel i, times w unless flat or affine.
        auto channel = [&](int i) DP2_LAMBDA_INLINE {
          const F8 a = planes[kPlaneColor0 + i].at(k);
          return perspective && !((flat_mask >> i) & 1u) ? a * w : a;
        };
        // shade()'s depth step on the lanes in `live`: z clamped to [MinZ, MaxZ],
        // depth_from_float, ZBIAS, the test, the write (which also rewrites the stencil bits
        // it read, and zeroes X bits). Returns the lanes that pass.
        auto depth_test = [&](I8 live, int live_bits) DP2_LAMBDA_INLINE {
          const Block zb = block_at(depth_row, depth_pitch, k, kFull || whole, depth16);
          const I8 old_raw = load_block(zb, live_bits);
          const I8 old_depth = depth16 ? old_raw : shr<8>(old_raw);
          F8 zc;
          if (z_clamp_simple) {
            zc = min(max(z.at(k), splat(0.0f)), max_z);
          } else {
            zc = clamp_std(z.at(k), min_z, max_z);
            zc = min(max(zc, splat(0.0f)), splat(1.0f));
          }
          I8 value = depth16 ? quantize_unorm16(zc) : quantize_unorm24(zc);
          // depth_from_float() gives ≥ 0, so a zero bias changes nothing.
          if (depth_bias_on) value = select(cmp_gt(value, depth_bias), value - depth_bias, splat_i(0));
          // A full block without an alpha test: every lane is live.
          const bool all_live = kFull && !alpha_test;
          const I8 pass = all_live ? compare(depth_func, value, old_depth) : live & compare(depth_func, value, old_depth);
          const I8 depth = __builtin_expect(depth_write, 1) ? select(pass, value, old_depth) : old_depth;
          const I8 raw = depth16 ? depth : shl<8>(depth) | (old_raw & depth_keep);
          store_block(zb, live_bits, all_live ? raw : select(live, raw, old_raw));
          return pass;
        };
        // The branch hints below (__builtin_expect, [[likely]], [[unlikely]]), and compare()'s
        // tests before its switch, name the usual case: depth writes on, LESS or LESSEQUAL,
        // no alpha where blending does not need it, a block that passes whole.
        // Without them GCC laid those cases out of line, and every taken jump ends the
        // group of instructions the core dispatches in a cycle: W1's block took seven taken
        // jumps, and now takes two (W1 +7% at 1 thread, +9% at 2, alternating runs).
        I8 pass = cover;
        // Without an alpha test nothing before the depth test discards a pixel: test first
        // and shade only the survivors.
        if (kDepth && !alpha_test) {
          pass = depth_test(cover, covered);
          if (bits(pass) == 0) [[unlikely]]
            return;
        }
        // run_stages(): CURRENT starts as the diffuse colour. Unneeded alpha stays 1.
        const Color8 diffuse{channel(0), channel(1), channel(2),
                             __builtin_expect(need_alpha, kBlend) ? channel(3) : splat(1.0f)};
        Color8 color = diffuse;
        if constexpr (kTexture) {
          Color8 texel = white;
          if (sampled) {
            const F8 u = planes[kPlaneU].at(k), v = planes[kPlaneV].at(k);
            const F8 tu = perspective ? u * w : u, tv = perspective ? v * w : v;
            texel = need_alpha ? (in_range ? sample<true, true>(d, tex, tu, tv) : sample<true, false>(d, tex, tu, tv))
                               : (in_range ? sample<false, true>(d, tex, tu, tv) : sample<false, false>(d, tex, tu, tv));
          }
          if (modulate) {
            // op(kModulate, texture, diffuse) with the switches resolved; a product is the
            // same float in either order, so the arguments' order does not matter.
            color.r = clamp01(texel.r * diffuse.r);
            color.g = clamp01(texel.g * diffuse.g);
            color.b = clamp01(texel.b * diffuse.b);
            if (need_alpha && !alpha_op_disabled) color.a = clamp01(texel.a * diffuse.a);
          } else {
            const Color8 c1 = argument(color_arg1, diffuse, texel, tfactor);
            const Color8 c2 = argument(color_arg2, diffuse, texel, tfactor);
            color.r = op(color_op, c1.r, c2.r);
            color.g = op(color_op, c1.g, c2.g);
            color.b = op(color_op, c1.b, c2.b);
            // ALPHAOP DISABLE passes the current (diffuse) alpha through.
            if (need_alpha && !alpha_op_disabled)
              color.a = op(alpha_op, argument(alpha_arg1, diffuse, texel, tfactor).a,
                           argument(alpha_arg2, diffuse, texel, tfactor).a);
          }
        }
        if (specular) {
          color.r = min_std_one(color.r + channel(4));
          color.g = min_std_one(color.g + channel(5));
          color.b = min_std_one(color.b + channel(6));
        }
        if (fog != FastDraw::Fog::kNone) {
          // Table fog from z (or eye w); vertex fog from specular alpha, clamped as std::clamp.
          const F8 f = fog == FastDraw::Fog::kTable ? table_fog(d, d.fog_on_w ? w : z.at(k))
                                                     : clamp_std(channel(7), splat(0.0f), splat(1.0f));
          const F8 g1 = splat(1.0f) - f;
          const Color& fc = d.fog_color;
          color = {f * color.r + g1 * splat(fc.r), f * color.g + g1 * splat(fc.g), f * color.b + g1 * splat(fc.b),
                   color.a};
        }
        const auto clamp_unless = [](bool clamped, F8 c) DP2_LAMBDA_INLINE { return clamped ? c : clamp01(c); };
        color = {clamp_unless(rgb_clamped, color.r), clamp_unless(rgb_clamped, color.g),
                 clamp_unless(rgb_clamped, color.b),
                 __builtin_expect(need_alpha, kBlend) ? clamp_unless(alpha_clamped, color.a) : color.a};
        if (alpha_test) {
          pass = cover & compare(alpha_func, quantize8(color.a), splat_i(d.alpha_ref));
          const int alive = bits(pass);
          if (alive == 0) return;
          if constexpr (kDepth) pass = depth_test(pass, alive);
        }
        const int pass_bits = bits(pass);
        if (pass_bits == 0) return;
        const Block cb = block_at(color_row, color_pitch, k, kFull || whole, color16);
        // encode_color and decode_raw of the target's format.
        auto encode = [&](const Color8& c) DP2_LAMBDA_INLINE {
          return color16 ? encode16(layout16, c, dither) : encode_argb(c, color_alpha);
        };
        auto decode = [&](I8 raw) DP2_LAMBDA_INLINE {
          return color16 ? decode16(layout16, raw) : decode_argb(raw, color_alpha);
        };
        written += static_cast<std::uint64_t>(__builtin_popcount(static_cast<unsigned>(pass_bits)));
        if (!kBlend && write_all && (kFull || whole) && pass_bits == 0xFF) [[likely]] {
          store_block(cb, 0xFF, encode(color));
          return;
        }
        const I8 old = load_block(cb, pass_bits);
        if constexpr (kBlend) {
          // A target without alpha (X8R8G8B8, R5G6B5, X1R5G5B5) stores none, so its blend is
          // skipped.
          color = blend(blend_mode, color, decode(old), color_alpha);
        }
        const I8 raw = (encode(color) & write_keep) | andnot(write_keep, old);
        store_block(cb, pass_bits, select(pass, raw, old));
      };
      if (full_block) shade_block(std::true_type{});
      else shade_block(std::false_type{});
    }
  }
  counters.pixels += written;
}

template <bool kDepth, bool kTexture, bool kBlend>
void shade_grid(const FastDraw& d, const TrianglePrim& t, const Plane* tri_planes, const BlockGrid& g,
                TileCounters& counters) {
  // The AVX2, AVX-512 and NEON copies compile the 16-bit tests out of their 32-bit copies. The
  // scalar and SSE4.1 copies keep one set, with those tests as per-draw branches: a second
  // set would double their compile time, in every one of CI's builds, and only CPUs
  // without AVX2 run them.
  constexpr bool kSplit16 = DP2_SIMD_AVX2_CODE || DP2_SIMD_TARGET == 3;
  if constexpr (kSplit16) {
    if (!d.color16 && !d.depth16) {
      // The usual textured stage has its own lean copy (W2, W3, W5); the others take the
      // same stage behind d.modulate, and switch on op and arguments otherwise.
      if constexpr (kTexture)
        if (d.modulate && lean(d, t))
          return block_grid<kDepth, kTexture, kBlend, true, false, true>(d, t, tri_planes, g, counters);
      if (lean(d, t)) return block_grid<kDepth, kTexture, kBlend, true, false>(d, t, tri_planes, g, counters);
      return block_grid<kDepth, kTexture, kBlend, false, false>(d, t, tri_planes, g, counters);
    }
  }
  if (lean(d, t)) return block_grid<kDepth, kTexture, kBlend, true, true>(d, t, tri_planes, g, counters);
  block_grid<kDepth, kTexture, kBlend, false, true>(d, t, tri_planes, g, counters);
}

template <bool kDepth, bool kTexture, bool kBlend>
void block_kernel(const FastDraw& d, const TrianglePrim& t, const Plane* tri_planes, const BlockGrid& g,
                  TileCounters& counters) {
  if (g.masks != nullptr) return shade_grid<kDepth, kTexture, kBlend>(d, t, tri_planes, g, counters);
  std::uint8_t masks[BlockGrid::kMaxRows][BlockGrid::kMaxCols];
  if (block_masks(*g.edges, g.rows, g.cols, &masks[0][0], BlockGrid::kMaxCols) == 0) return;  // no centre covered
  shade_grid<kDepth, kTexture, kBlend>(d, t, tri_planes, {g.x0, g.y0, g.rows, g.cols, masks, nullptr}, counters);
}

constexpr BlockKernelTable kTable = {
    block_kernel<false, false, false>, block_kernel<true, false, false>, block_kernel<false, true, false>,
    block_kernel<true, true, false>,   block_kernel<false, false, true>, block_kernel<true, false, true>,
    block_kernel<false, true, true>,   block_kernel<true, true, true>,
};

}  // namespace
}  // namespace DP2_SIMD_NS

#if DP2_SIMD_TARGET == 0
const BlockKernelTable* block_kernels_scalar() { return &DP2_SIMD_NS::kTable; }
#elif DP2_SIMD_TARGET == 1
const BlockKernelTable* block_kernels_sse41() { return &DP2_SIMD_NS::kTable; }
#elif DP2_SIMD_TARGET == 2
const BlockKernelTable* block_kernels_avx2() { return &DP2_SIMD_NS::kTable; }
#elif DP2_SIMD_TARGET == 4
const BlockKernelTable* block_kernels_avx512() { return &DP2_SIMD_NS::kTable; }
#else
const BlockKernelTable* block_kernels_neon() { return &DP2_SIMD_NS::kTable; }
#endif

}  // namespace dp2::raster
