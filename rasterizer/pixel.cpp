// The fixed-function pixel pipeline, in Direct3D's order:
//   texture stages → specular add → fog → colour key → alpha test → stencil / depth →
//   blend → dither → colour write mask → write.
// Called per covered pixel on a worker thread (see pixel.h).
#include "pixel.h"

#include <algorithm>
#include <cmath>

#include "dp2raster/formats.h"

namespace dp2::raster {

// 4×4 ordered-dither (Bayer) matrix. A pixel's offset is (m + 0.5)/16 − 0.5 of the
// target's least significant bit: zero on average, at most half an LSB either way.
constexpr std::uint8_t kBayer4[4][4] = {{0, 8, 2, 10}, {12, 4, 14, 6}, {3, 11, 1, 9}, {15, 7, 13, 5}};

float dither_offset(std::int32_t x, std::int32_t y) {
  return (static_cast<float>(kBayer4[y & 3][x & 3]) + 0.5f) / 16.0f - 0.5f;
}

// Dithering applies where a channel has fewer than 8 bits (D3DRS_DITHERENABLE targets
// 16-bit and smaller formats; 8-bit channels have nothing to dither into).
bool dithers(Format f) {
  switch (f) {
    case Format::kR5G6B5: case Format::kX1R5G5B5: case Format::kA1R5G5B5: case Format::kA4R4G4B4:
    case Format::kX4R4G4B4: case Format::kR3G3B2: case Format::kA8R3G3B2:
      return true;
    default:
      return false;
  }
}

// Channel masks of a render-target format's raw bits, for D3DRS_COLORWRITEENABLE.
std::uint32_t write_mask_bits(Format f, std::uint8_t mask) {
  struct Layout { std::uint32_t r, g, b, a; };
  Layout l{};
  switch (f) {
    case Format::kA8R8G8B8: case Format::kX8R8G8B8: l = {0x00FF0000u, 0x0000FF00u, 0x000000FFu, 0xFF000000u}; break;
    case Format::kR8G8B8: l = {0xFF0000u, 0x00FF00u, 0x0000FFu, 0}; break;
    case Format::kR5G6B5: l = {0xF800u, 0x07E0u, 0x001Fu, 0}; break;
    case Format::kX1R5G5B5: case Format::kA1R5G5B5: l = {0x7C00u, 0x03E0u, 0x001Fu, 0x8000u}; break;
    case Format::kA4R4G4B4: case Format::kX4R4G4B4: l = {0x0F00u, 0x00F0u, 0x000Fu, 0xF000u}; break;
    case Format::kR3G3B2: l = {0xE0u, 0x1Cu, 0x03u, 0}; break;
    case Format::kA8R3G3B2: l = {0x00E0u, 0x001Cu, 0x0003u, 0xFF00u}; break;
    default: return (mask & 7u) ? 0xFFFFFFFFu : 0u;  // P8: an index has no channels; all or nothing
  }
  return ((mask & 1) ? l.r : 0) | ((mask & 2) ? l.g : 0) | ((mask & 4) ? l.b : 0) | ((mask & 8) ? l.a : 0);
}

namespace {

bool compare(Compare func, std::uint32_t a, std::uint32_t b) {
  switch (func) {
    case Compare::kNever: return false;
    case Compare::kLess: return a < b;
    case Compare::kEqual: return a == b;
    case Compare::kLessEqual: return a <= b;
    case Compare::kGreater: return a > b;
    case Compare::kNotEqual: return a != b;
    case Compare::kGreaterEqual: return a >= b;
    case Compare::kAlways: return true;
  }
  return true;
}

std::uint32_t stencil_op(StencilOp op, std::uint32_t value, std::uint32_t ref, std::uint32_t max) {
  switch (op) {
    case StencilOp::kKeep: return value;
    case StencilOp::kZero: return 0;
    case StencilOp::kReplace: return ref & max;
    case StencilOp::kIncrSat: return value < max ? value + 1 : max;
    case StencilOp::kDecrSat: return value > 0 ? value - 1 : 0;
    case StencilOp::kInvert: return ~value & max;
    case StencilOp::kIncr: return (value + 1) & max;
    case StencilOp::kDecr: return (value - 1) & max;
  }
  return value;
}

// The blend factor for `f` (D3DBLEND page). `source` selects which side a BOTH* factor is
// being evaluated for: BOTHSRCALPHA is (As, As, As, As) for the source and
// (1−As, ...) for the destination; BOTHINVSRCALPHA the reverse.
Color blend_factor(Blend f, const Color& src, const Color& dst, const Color& constant, bool source) {
  const auto splat = [](float v) { return Color{v, v, v, v}; };
  switch (f) {
    case Blend::kZero: return splat(0.0f);
    case Blend::kOne: return splat(1.0f);
    case Blend::kSrcColor: return src;
    case Blend::kInvSrcColor: return {1 - src.r, 1 - src.g, 1 - src.b, 1 - src.a};
    case Blend::kSrcAlpha: return splat(src.a);
    case Blend::kInvSrcAlpha: return splat(1 - src.a);
    case Blend::kDestAlpha: return splat(dst.a);
    case Blend::kInvDestAlpha: return splat(1 - dst.a);
    case Blend::kDestColor: return dst;
    case Blend::kInvDestColor: return {1 - dst.r, 1 - dst.g, 1 - dst.b, 1 - dst.a};
    case Blend::kSrcAlphaSat: {
      const float v = std::min(src.a, 1 - dst.a);
      return {v, v, v, 1.0f};
    }
    case Blend::kBothSrcAlpha: return splat(source ? src.a : 1 - src.a);
    case Blend::kBothInvSrcAlpha: return splat(source ? 1 - src.a : src.a);
    case Blend::kBlendFactor: return constant;
    case Blend::kInvBlendFactor: return {1 - constant.r, 1 - constant.g, 1 - constant.b, 1 - constant.a};
  }
  return splat(1.0f);
}

float blend_channel(BlendOp op, float s, float sf, float d, float df) {
  switch (op) {
    case BlendOp::kAdd: return s * sf + d * df;
    case BlendOp::kSubtract: return s * sf - d * df;
    case BlendOp::kRevSubtract: return d * df - s * sf;
    case BlendOp::kMin: return std::min(s, d);  // factors are ignored for MIN / MAX
    case BlendOp::kMax: return std::max(s, d);
  }
  return s;
}

// Source and destination factors for one (src, dst) pair of D3DBLEND values.
// BOTHSRCALPHA / BOTHINVSRCALPHA as the source factor override the destination factor.
void factors(Blend src_blend, Blend dst_blend, const Color& src, const Color& dst, const Color& constant, Color& sf,
             Color& df) {
  const bool both = src_blend == Blend::kBothSrcAlpha || src_blend == Blend::kBothInvSrcAlpha;
  sf = blend_factor(src_blend, src, dst, constant, true);
  df = blend_factor(both ? src_blend : dst_blend, src, dst, constant, false);
}

Color blend(const DrawState& s, const Color& src, const Color& dst) {
  Color sf, df;
  factors(s.src_blend, s.dst_blend, src, dst, s.blend_factor, sf, df);
  Color out{blend_channel(s.blend_op, src.r, sf.r, dst.r, df.r), blend_channel(s.blend_op, src.g, sf.g, dst.g, df.g),
            blend_channel(s.blend_op, src.b, sf.b, dst.b, df.b), blend_channel(s.blend_op, src.a, sf.a, dst.a, df.a)};
  if (s.separate_alpha) {
    Color saf, daf;
    factors(s.src_blend_alpha, s.dst_blend_alpha, src, dst, s.blend_factor, saf, daf);
    out.a = blend_channel(s.blend_op_alpha, src.a, saf.a, dst.a, daf.a);
  }
  return clamp01(out);
}

std::uint8_t to_u8(float v) { return static_cast<std::uint8_t>(std::floor(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f)); }

Color color_from_argb(std::uint32_t argb) {
  return {static_cast<float>((argb >> 16) & 0xFF) / 255.0f, static_cast<float>((argb >> 8) & 0xFF) / 255.0f,
          static_cast<float>(argb & 0xFF) / 255.0f, static_cast<float>(argb >> 24) / 255.0f};
}

// Whether `op` reads ARG0 (D3DTA_ in D3DTSS_COLORARG0 / ALPHAARG0): only the DX9
// three-argument ops do.
bool reads_arg0(TextureOp op) { return op == TextureOp::kMultiplyAdd || op == TextureOp::kLerp; }

// The cascade: current starts as the diffuse colour; each active stage samples its
// texture, selects its arguments and writes CURRENT or TEMP (D3DTSS_RESULTARG).
// Returns false when colour keying discards the pixel.
bool run_stages(const DrawState& s, const Fragment& f, Color& out) {
  StageInputs in;
  in.diffuse = f.diffuse;
  in.specular = f.specular;
  in.current = f.diffuse;
  in.tfactor = s.texture_factor;
  in.temp = Color{0, 0, 0, 0};
  float du = 0.0f, dv = 0.0f, luminance = 1.0f;
  bool bumped = false, all_keyed = s.stage_count > 0, any_texture = false;
  for (std::uint32_t i = 0; i < s.stage_count; ++i) {
    const StageState& st = s.stages[i];
    const auto& coords = f.tex[st.texcoord_set & 7u];
    float u = coords[0], v = coords[1];
    if (bumped) {
      u += du;
      v += dv;
    }
    // A stage without a texture reads D3DTA_TEXTURE as opaque white (dp2's choice; the
    // reference rasterizer does the same for a NULL texture).
    in.texture = Color{1, 1, 1, 1};
    if (st.texture) {
      bool keyed = false;
      in.texture = sample(*st.texture, st.sampler, u, v, f.lod[i], &keyed);
      any_texture = true;
      all_keyed = all_keyed && keyed;
    }
    if (bumped && st.texture && s.stages[i - 1].color_op == TextureOp::kBumpEnvMapLuminance) {
      in.texture.r *= luminance;
      in.texture.g *= luminance;
      in.texture.b *= luminance;
    }
    bumped = false;
    // PREMODULATE on the previous stage: this stage's CURRENT is multiplied by this
    // stage's texture (D3DTEXTUREOP page).
    if (i > 0 && s.stages[i - 1].color_op == TextureOp::kPremodulate) in.current = premodulate_current(in.current, in.texture);
    if (st.color_op == TextureOp::kBumpEnvMap || st.color_op == TextureOp::kBumpEnvMapLuminance) {
      bump_offset(st.bump, in.texture, du, dv, luminance);
      bumped = true;
      continue;  // a bump stage perturbs the next stage; it does not change CURRENT
    }
    // Selecting an argument has no side effects, so only the ones the op reads are
    // selected: ARG0 belongs to the three-argument ops, and the alpha arguments are unread
    // when the alpha op is DISABLE or DOTPRODUCT3 replaces alpha too.
    const Color c0 = reads_arg0(st.color_op) ? select_arg(st.color_arg[0], in) : Color{};
    const Color c1 = select_arg(st.color_arg[1], in), c2 = select_arg(st.color_arg[2], in);
    Color result = apply_color_op(st.color_op, c0, c1, c2, in);
    // An ALPHAOP of DISABLE passes the current alpha through (stage 0: the diffuse alpha).
    // DOTPRODUCT3 writes its result to every channel, alpha included (D3DTEXTUREOP page).
    if (st.color_op != TextureOp::kDotProduct3) {
      if (st.alpha_op == TextureOp::kDisable) {
        result.a = in.current.a;
      } else {
        const float a0 = reads_arg0(st.alpha_op) ? select_arg(st.alpha_arg[0], in).a : 0.0f;
        result.a = apply_alpha_op(st.alpha_op, a0, select_arg(st.alpha_arg[1], in).a,
                                  select_arg(st.alpha_arg[2], in).a, in);
      }
    }
    if (st.result_arg == kArgTemp) in.temp = result;
    else in.current = result;
  }
  out = in.current;
  return !(s.color_key_kill && any_texture && all_keyed);
}

}  // namespace

std::uint8_t sampled_texcoord_sets(const DrawState& state) {
  std::uint32_t sampled = 0;
  for (std::uint32_t i = 0; i < state.stage_count; ++i)
    if (state.stages[i].texture) sampled |= 1u << (state.stages[i].texcoord_set & 7u);
  return static_cast<std::uint8_t>(state.texcoord_sets & sampled);
}

void quad_lods(const DrawState& state, const std::array<std::array<float, 4>, kMaxTextureCoordSets>* tex[3],
               std::array<float, kMaxTextureStages>& lod) {
  for (std::uint32_t i = 0; i < state.stage_count; ++i) {
    const StageState& st = state.stages[i];
    if (!st.texture || st.texture->levels == 0) continue;
    const std::size_t set = st.texcoord_set & 7u;
    const float w = static_cast<float>(st.texture->level[0].width), h = static_cast<float>(st.texture->level[0].height);
    const float dudx = ((*tex[1])[set][0] - (*tex[0])[set][0]) * w, dvdx = ((*tex[1])[set][1] - (*tex[0])[set][1]) * h;
    const float dudy = ((*tex[2])[set][0] - (*tex[0])[set][0]) * w, dvdy = ((*tex[2])[set][1] - (*tex[0])[set][1]) * h;
    lod[i] = compute_lod(dudx, dvdx, dudy, dvdy);
  }
}

namespace {

template <bool kDepthStencil, bool kBlend, bool kFog>
bool shade(const DrawState& s, const Fragment& f) {
  const auto x = static_cast<std::uint32_t>(f.x), y = static_cast<std::uint32_t>(f.y);
  Color color;
  if (!run_stages(s, f, color)) return false;
  if (s.specular) {
    color.r = std::min(color.r + f.specular.r, 1.0f);
    color.g = std::min(color.g + f.specular.g, 1.0f);
    color.b = std::min(color.b + f.specular.b, 1.0f);
  }
  if (kFog && s.fog) {
    // Table fog from depth (z, or eye w when WINFO says the projection is perspective);
    // otherwise vertex fog, whose factor arrives in the specular alpha.
    const float factor = s.fog_table != FogMode::kNone
                             ? fog_factor(s.fog_table, s.fog_on_w ? f.w : f.z, s.fog_start, s.fog_end, s.fog_density)
                             : std::clamp(f.specular.a, 0.0f, 1.0f);
    color = apply_fog(color, s.fog_color, factor);
  }
  color = clamp01(color);

  if (s.alpha_test && !compare(s.alpha_func, to_u8(color.a), s.alpha_ref & 0xFFu)) return false;

  const bool has_depth = s.depth.format != Format::kUnknown && x < s.depth.width && y < s.depth.height;
  if (kDepthStencil && has_depth && (s.depth_mode != DepthMode::kOff || s.stencil)) {
    const FormatInfo& info = format_info(s.depth.format);
    const std::uint32_t old_depth = read_depth(s.depth, x, y);
    std::uint32_t stencil = read_stencil(s.depth, x, y);
    const std::uint32_t smax = info.stencil_bits ? (1u << info.stencil_bits) - 1 : 0;
    const StencilState& ss = (s.two_sided_stencil && f.back_facing) ? s.stencil_ccw : s.stencil_cw;
    const bool use_stencil = s.stencil && info.stencil_bits > 0;
    auto update_stencil = [&](StencilOp op) {
      const std::uint32_t next = stencil_op(op, stencil, s.stencil_ref, smax);
      const std::uint32_t wm = s.stencil_write_mask & smax;
      stencil = (stencil & ~wm) | (next & wm);
    };
    if (use_stencil &&
        !compare(ss.func, s.stencil_ref & s.stencil_mask & smax, stencil & s.stencil_mask & smax)) {
      update_stencil(ss.fail);
      write_depth_stencil(s.depth, x, y, old_depth, stencil);
      return false;
    }
    std::uint32_t depth = old_depth;
    bool depth_pass = true;
    if (s.depth_mode != DepthMode::kOff) {
      // z is clamped to the viewport's [MinZ, MaxZ] for the test; W buffering stores eye w
      // normalised by the WINFO range.
      float d = std::clamp(f.z, s.min_z, s.max_z);
      if (s.depth_mode == DepthMode::kW && s.w_far > s.w_near) d = (f.w - s.w_near) / (s.w_far - s.w_near);
      std::uint32_t value = depth_from_float(s.depth.format, d);
      // D3DRS_ZBIAS (0–16) pulls the surface toward the viewer by that many depth units
      // (dp2's reading of a hardware-defined bias).
      value = value > s.depth_bias ? value - s.depth_bias : 0;
      depth_pass = compare(s.depth_func, value, old_depth);
      if (depth_pass && s.depth_write) depth = value;
    }
    if (use_stencil) update_stencil(depth_pass ? ss.pass : ss.zfail);
    write_depth_stencil(s.depth, x, y, depth, stencil);
    if (!depth_pass) return false;
  }

  if (s.color.format == Format::kUnknown || x >= s.color.width || y >= s.color.height) return true;
  const std::uint32_t old_raw = read_raw(s.color, x, y);
  if (kBlend && s.blend) {
    Color dst = decode_raw(s.color.format, old_raw);
    if (s.color.format == Format::kP8 && s.color_palette) dst = color_from_argb(s.color_palette[old_raw & 0xFFu]);
    color = blend(s, color, dst);
  }
  std::uint32_t raw = 0;
  if (s.color.format == Format::kP8) {
    raw = s.color_palette ? nearest_palette_index(s.color_palette, color) : to_u8(color.r);
  } else {
    raw = encode_color(s.color.format, color, s.dither && dithers(s.color.format) ? dither_offset(f.x, f.y) : 0.0f);
  }
  const std::uint32_t keep = write_mask_bits(s.color.format, s.color_write_mask);
  write_raw(s.color, x, y, (raw & keep) | (old_raw & ~keep));
  return true;
}

}  // namespace

bool shade_fragment(const DrawState& s, const Fragment& f) { return shade<true, true, true>(s, f); }

FragmentKernel choose_fragment_kernel(const DrawState& s) {
  // Indexed by (depth/stencil, blend, fog); each feature compiled out only when the state
  // has it off, so a chosen kernel and the generic one agree byte for byte.
  static constexpr FragmentKernel kKernels[8] = {
      shade<false, false, false>, shade<false, false, true>, shade<false, true, false>, shade<false, true, true>,
      shade<true, false, false>,  shade<true, false, true>,  shade<true, true, false>,  shade<true, true, true>,
  };
  const bool depth_stencil = s.depth.format != Format::kUnknown && (s.depth_mode != DepthMode::kOff || s.stencil);
  return kKernels[(depth_stencil ? 4 : 0) | (s.blend ? 2 : 0) | (s.fog ? 1 : 0)];
}

}  // namespace dp2::raster
