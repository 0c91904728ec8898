// Choosing the block kernels (span.h): which draw states they cover, and which compiled
// instruction set runs them. Called on the thread that calls Renderer::draw, once per
// draw state.
#include "span.h"

#include <algorithm>

#include "dp2raster/formats.h"
#include "pixel.h"

namespace dp2::raster {
namespace {

bool is_argb8888(Format f) { return f == Format::kA8R8G8B8 || f == Format::kX8R8G8B8; }
bool is_rgb16(Format f) { return f == Format::kR5G6B5 || f == Format::kX1R5G5B5 || f == Format::kA1R5G5B5; }

// A 16-bit target's channel from its bits in the pixel (write_mask_bits, one channel).
FastDraw::Channel16 channel16(std::uint32_t mask) {
  const int shift = __builtin_ctz(mask), bits = __builtin_popcount(mask);
  return {static_cast<std::int32_t>(mask), 1.0f / static_cast<float>(1u << shift), static_cast<float>(1u << shift),
          static_cast<float>((1u << bits) - 1u)};
}

// D3DTA selectors a block kernel reads at stage 0: no modifiers, CURRENT = DIFFUSE there.
bool simple_arg(std::uint8_t arg) {
  return arg == kArgDiffuse || arg == kArgCurrent || arg == kArgTexture || arg == kArgTFactor;
}

bool simple_op(TextureOp op) {
  switch (op) {
    case TextureOp::kSelectArg1: case TextureOp::kSelectArg2: case TextureOp::kModulate:
    case TextureOp::kModulate2x: case TextureOp::kModulate4x: case TextureOp::kAdd:
      return true;
    default:
      return false;
  }
}

// Factors that are per channel without looking across channels or at both sides.
bool simple_factor(Blend f) {
  return f != Blend::kSrcAlphaSat && f != Blend::kBothSrcAlpha && f != Blend::kBothInvSrcAlpha;
}

bool power_of_two(std::uint32_t n) { return n != 0 && (n & (n - 1)) == 0; }

// Whether every pixel of the clip exists in `image`. The kernels read and write each
// covered lane, while the scalar path checks each pixel against each target: a state
// whose clip reaches past a target stays there (DrawState::clip is the caller's; a clip
// wider than the colour target wrote past it, dp2_fuzz_raster).
bool covers_clip(const ImageView& image, const Rect& clip) {
  return image.width >= static_cast<std::uint32_t>(clip.right) && image.height >= static_cast<std::uint32_t>(clip.bottom);
}

// The first stage's texture, when the kernels can sample it: 32-bit ARGB, no colour key,
// WRAP on power-of-two levels or CLAMP, every level it may read present, and all of them
// addressable as int32 texel offsets from level 0.
bool prepare_texture(const StageState& st, FastDraw& out) {
  const TextureView* tex = st.texture;
  if (tex == nullptr) return true;  // reads opaque white
  const SamplerState& smp = st.sampler;
  if (!is_argb8888(tex->format) || tex->levels == 0) return false;
  if (smp.color_key && tex->has_color_key) return false;
  const std::uint32_t count = std::min(tex->levels, kMaxMipLevels);
  const std::uint32_t most_detailed = std::min(smp.max_mip_level, count - 1);
  const auto base = reinterpret_cast<std::uintptr_t>(tex->level[0].data);
  // Texel offsets and indices stay below 2^31 (the kernels' gathers are int32).
  constexpr std::uintptr_t kMaxTexelOffset = std::uintptr_t{1} << 30;
  constexpr std::uint32_t kMaxLevelSize = 1u << 15;
  auto mode = [](Address a, std::uint32_t n, bool& wrap) {
    if (a == Address::kClamp) return !(wrap = false);
    if (a == Address::kWrap && power_of_two(n)) return (wrap = true);
    return false;
  };
  for (std::uint32_t l = 0; l < count; ++l) {
    const ImageView& img = tex->level[l];
    if (l < most_detailed) continue;  // never read
    const auto at = reinterpret_cast<std::uintptr_t>(img.data);
    if (img.data == nullptr || img.width == 0 || img.height == 0 || img.pitch % 4 != 0 || base == 0 || at < base ||
        (at - base) % 4 != 0 || img.width > kMaxLevelSize || img.height > kMaxLevelSize ||
        at - base + std::uintptr_t{img.pitch} * img.height > kMaxTexelOffset)
      return false;
    if (!mode(smp.address_u, img.width, out.wrap_u) || !mode(smp.address_v, img.height, out.wrap_v)) return false;
    out.levels[l] = {static_cast<std::int32_t>(img.width), static_cast<std::int32_t>(img.height),
                     static_cast<std::int32_t>(img.pitch / 4), static_cast<std::int32_t>((at - base) / 4)};
  }
  const bool mag_linear = smp.mag == Filter::kLinear || smp.mag == Filter::kAnisotropic;
  const bool min_linear = smp.min == Filter::kLinear || smp.min == Filter::kAnisotropic;
  out.mip_lod = mag_linear != min_linear || smp.mip != Filter::kNone;
  out.tex_linear = mag_linear;
  out.level = most_detailed;  // what MIP NONE reads (sampler.h)
  out.texels = reinterpret_cast<const std::uint32_t*>(tex->level[0].data);
  out.tex_alpha = tex->format == Format::kA8R8G8B8;
  out.texture = tex;
  out.sampler = &smp;
  return true;
}

}  // namespace

#if !DP2_HAVE_SSE41
const BlockKernelTable* block_kernels_sse41() { return nullptr; }
#endif
#if !DP2_HAVE_AVX2
const BlockKernelTable* block_kernels_avx2() { return nullptr; }
#endif
#if !DP2_HAVE_AVX512
const BlockKernelTable* block_kernels_avx512() { return nullptr; }
#endif
#if !DP2_HAVE_NEON
const BlockKernelTable* block_kernels_neon() { return nullptr; }
#endif

std::size_t prepare_fast_draw(const DrawState& s, FastDraw& out) {
  out = FastDraw{};
  // Triangles only reach the kernels (setup.cpp); these are the pipeline features the
  // kernels implement. Everything else stays on the scalar pipeline.
  const bool color16 = is_rgb16(s.color.format);
  if (!(is_argb8888(s.color.format) || color16) || s.color.pitch % (color16 ? 2 : 4) != 0) return kKernelGeneric;
  if (!covers_clip(s.color, s.clip)) return kKernelGeneric;
  if (s.fill != Fill::kSolid || s.color_key_kill) return kKernelGeneric;
  out.specular = s.specular;
  if (s.fog) {
    out.fog = s.fog_table != FogMode::kNone ? FastDraw::Fog::kTable : FastDraw::Fog::kVertex;
    out.fog_table = s.fog_table;
    out.fog_on_w = s.fog_on_w;
    out.fog_start = s.fog_start;
    out.fog_end = s.fog_end;
    out.fog_density = s.fog_density;
    out.fog_color = s.fog_color;
  }
  out.alpha_test = s.alpha_test;
  out.alpha_func = s.alpha_func;
  out.alpha_ref = static_cast<std::int32_t>(s.alpha_ref & 0xFFu);
  out.color = s.color.data;
  out.color_pitch = s.color.pitch;
  out.color_alpha = s.color.format == Format::kA8R8G8B8 || s.color.format == Format::kA1R5G5B5;
  out.write_keep = write_mask_bits(s.color.format, s.color_write_mask);
  out.write_all = out.write_keep == (color16 ? 0xFFFFu : 0xFFFFFFFFu);
  out.color16 = color16;
  if (color16) {
    FastDraw::Layout16& l = out.layout16;
    l.r = channel16(write_mask_bits(s.color.format, 1));
    l.g = channel16(write_mask_bits(s.color.format, 2));
    l.b = channel16(write_mask_bits(s.color.format, 4));
    l.a = out.color_alpha ? channel16(write_mask_bits(s.color.format, 8)) : FastDraw::Channel16{};
    // What encode_color writes for black with zero alpha: only the bits no channel owns.
    l.fixed = static_cast<std::int32_t>(encode_color(s.color.format, Color{0, 0, 0, 0}, 0.0f));
  }
  // 8-bit channels never dither (pixel.cpp: dithers()); 16-bit ones do when the state
  // asks, with the offsets the scalar pipeline adds.
  out.dither = s.dither && dithers(s.color.format);
  if (out.dither)
    for (int row = 0; row < 2; ++row)
      for (int lane = 0; lane < 8; ++lane) out.dither_rows[row][lane] = dither_offset(lane % 4, 2 * row + lane / 4);
  out.width = static_cast<std::int32_t>(s.color.width);
  out.height = static_cast<std::int32_t>(s.color.height);

  const bool has_depth = s.depth.format != Format::kUnknown;
  if (has_depth && s.stencil) return kKernelGeneric;
  const bool depth = has_depth && s.depth_mode != DepthMode::kOff;
  if (depth) {
    const Format f = s.depth.format;
    const bool depth16 = f == Format::kD16;
    if (s.depth_mode != DepthMode::kZ ||
        (f != Format::kD24S8 && f != Format::kD24X8 && f != Format::kD24X4S4 && !depth16))
      return kKernelGeneric;
    // Every pixel a triangle may cover must have a depth value (the scalar path skips the
    // test outside a smaller depth surface).
    out.depth16 = depth16;
    if (s.depth.pitch % (depth16 ? 2 : 4) != 0 || !covers_clip(s.depth, s.clip)) return kKernelGeneric;
    out.depth = s.depth.data;
    out.depth_pitch = s.depth.pitch;
    out.depth_keep = (1u << format_info(f).stencil_bits) - 1u;
    out.depth_func = s.depth_func;
    out.depth_write = s.depth_write;
    out.depth_bias = static_cast<std::int32_t>(s.depth_bias);
    out.min_z = s.min_z;
    out.max_z = s.max_z;
    out.width = std::min(out.width, static_cast<std::int32_t>(s.depth.width));
    out.height = std::min(out.height, static_cast<std::int32_t>(s.depth.height));
  }

  if (s.stage_count > 1) return kKernelGeneric;
  if (s.stage_count == 1) {
    const StageState& st = s.stages[0];
    if (!simple_op(st.color_op) || !simple_arg(st.color_arg[1]) || !simple_arg(st.color_arg[2])) return kKernelGeneric;
    if (st.alpha_op != TextureOp::kDisable &&
        (!simple_op(st.alpha_op) || !simple_arg(st.alpha_arg[1]) || !simple_arg(st.alpha_arg[2])))
      return kKernelGeneric;
    if (st.result_arg != kArgCurrent) return kKernelGeneric;
    if (!prepare_texture(st, out)) return kKernelGeneric;
    // The kernels read the stage's coordinates from planes, which setup makes only for the
    // sets the state interpolates (DrawState::texcoord_sets). A stage sampling a set
    // outside them (no device state does; a direct caller can) reads it as 0 on the
    // generic path, as the scalar pipeline does.
    const std::uint8_t sets = sampled_texcoord_sets(s);
    const std::uint32_t set = st.texcoord_set & 7u;
    if (st.texture != nullptr && ((sets >> set) & 1u) == 0) return kKernelGeneric;
    // A stage that selects CURRENT or DIFFUSE for colour and alpha (or disables alpha)
    // leaves the pixel as it was: SELECTARG clamps, and the pipeline clamps again after
    // the stages, so dropping it changes no bit and spares the kernel the stage — unless
    // the specular add or fog sees the colour between the two clamps.
    const auto passes_diffuse = [](TextureOp op, const std::array<std::uint8_t, 3>& arg) {
      const std::uint8_t selected = op == TextureOp::kSelectArg1 ? arg[1] : op == TextureOp::kSelectArg2 ? arg[2] : 0xFF;
      return selected == kArgDiffuse || selected == kArgCurrent;
    };
    const bool identity = !s.specular && !s.fog && passes_diffuse(st.color_op, st.color_arg) &&
                          (st.alpha_op == TextureOp::kDisable || passes_diffuse(st.alpha_op, st.alpha_arg));
    out.stage = !identity;
    out.color_op = st.color_op;
    out.alpha_op = st.alpha_op;
    out.color_arg1 = st.color_arg[1] == kArgCurrent ? kArgDiffuse : st.color_arg[1];
    out.color_arg2 = st.color_arg[2] == kArgCurrent ? kArgDiffuse : st.color_arg[2];
    out.alpha_arg1 = st.alpha_arg[1] == kArgCurrent ? kArgDiffuse : st.alpha_arg[1];
    out.alpha_arg2 = st.alpha_arg[2] == kArgCurrent ? kArgDiffuse : st.alpha_arg[2];
    out.tfactor = s.texture_factor;
    // The u plane of the stage's set: sets are stored in ascending order, u then v.
    out.texcoord_plane = static_cast<std::uint8_t>(2 * __builtin_popcount(sets & ((1u << set) - 1u)));
  }

  if (s.blend) {
    if (s.separate_alpha || !simple_factor(s.src_blend) || !simple_factor(s.dst_blend)) return kKernelGeneric;
    out.blend = {s.src_blend, s.dst_blend, s.blend_op, s.blend_factor,
                 s.blend_op == BlendOp::kAdd && s.src_blend == Blend::kSrcAlpha && s.dst_blend == Blend::kInvSrcAlpha};
  }
  // Decided here once per state, not per triangle: clamp_std(z, MinZ, MaxZ) then [0, 1] is
  // min(max(z, 0), MaxZ) when MinZ = 0 ≤ MaxZ ≤ 1 (a NaN z reads 0 both ways), and a
  // state without alpha test, specular, fog or depth bias and with that clamp takes the
  // kernels' lean copy for its affine triangles.
  out.z_clamp_plain = out.min_z == 0.0f && out.max_z >= 0.0f && out.max_z <= 1.0f;
  out.lean = !out.alpha_test && !out.specular && out.fog == FastDraw::Fog::kNone && out.depth_bias == 0 &&
             out.z_clamp_plain;
  out.need_alpha = s.blend || out.alpha_test || out.color_alpha;
  const auto texture_times_diffuse = [](TextureOp op, std::uint8_t a1, std::uint8_t a2) {
    return op == TextureOp::kModulate &&
           ((a1 == kArgTexture && a2 == kArgDiffuse) || (a1 == kArgDiffuse && a2 == kArgTexture));
  };
  out.modulate = out.stage && out.texels != nullptr && out.need_alpha == s.blend && out.write_all &&
                 texture_times_diffuse(out.color_op, out.color_arg1, out.color_arg2) &&
                 (!out.need_alpha || out.alpha_op == TextureOp::kDisable ||
                  texture_times_diffuse(out.alpha_op, out.alpha_arg1, out.alpha_arg2));
  return (depth ? 1u : 0u) | (out.stage ? 2u : 0u) | (s.blend ? 4u : 0u);
}

namespace {
// Whether this build has `isa`'s kernels and this CPU runs them. NEON is part of every
// AArch64 CPU, so a build that has its kernels may run them.
bool runs(Isa isa) noexcept {
  switch (isa) {
    case Isa::kScalar: return true;
#if defined(__x86_64__) || defined(__i386__)
    case Isa::kSse41: return block_kernels_sse41() && __builtin_cpu_supports("sse4.1");
    case Isa::kAvx2: return block_kernels_avx2() && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Isa::kAvx512:
      return block_kernels_avx512() && runs(Isa::kAvx2) && __builtin_cpu_supports("avx512f") &&
             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq");
#endif
    case Isa::kNeon: return block_kernels_neon() != nullptr;
    default: return false;
  }
}
}  // namespace

// kAuto, or a target this build or CPU lacks (AVX2 on an SSE4.1 CPU, SSE4.1 on Arm):
// the best it has.
Isa resolve_isa(Isa requested) noexcept { return requested != Isa::kAuto && runs(requested) ? requested : best_isa(); }

const BlockKernelTable& block_kernels(Isa isa) {
  switch (resolve_isa(isa)) {
    case Isa::kNeon: return *block_kernels_neon();
    case Isa::kAvx512: return *block_kernels_avx512();
    case Isa::kAvx2: return *block_kernels_avx2();
    case Isa::kSse41: return *block_kernels_sse41();
    default: return *block_kernels_scalar();
  }
}

Isa best_isa() noexcept {
  for (const Isa isa : {Isa::kNeon, Isa::kAvx512, Isa::kAvx2, Isa::kSse41})
    if (runs(isa)) return isa;
  return Isa::kScalar;
}

const char* isa_name(Isa isa) noexcept {
  switch (isa) {
    case Isa::kScalar: return "scalar";
    case Isa::kSse41: return "sse41";
    case Isa::kAvx2: return "avx2";
    case Isa::kAvx512: return "avx512";
    case Isa::kNeon: return "neon";
    case Isa::kAuto: break;
  }
  return "auto";
}

const char* kernel_key_name(std::size_t key) noexcept {
  static constexpr const char* kNames[kKernelKeyCount] = {
      "simd:color",         "simd:depth+color",       "simd:texture",       "simd:depth+texture",
      "simd:color+blend",   "simd:depth+color+blend", "simd:texture+blend", "simd:depth+texture+blend",
      "scalar:generic",
  };
  return key < kKernelKeyCount ? kNames[key] : "unknown";
}

}  // namespace dp2::raster
