// The SIMD block kernels and the parallel setup.
//
// 1. Every instruction set gives the bytes of the scalar fragment pipeline (the debug
//    switch), whose own pixels the golden tests check against the D3D rules: random
//    triangles under every state the block kernels take — each depth format, compare
//    function, texture op and argument, filter, mip filter, LOD bias and address mode,
//    specular, vertex and table fog, alpha test, blend factor and op, write mask, flat and
//    Gouraud, affine and perspective — on a target whose size is not
//    a multiple of the 4×2 block, with a clip rectangle that cuts blocks. The kernel-key
//    counters prove the block kernels ran (the test cannot pass by comparing the scalar
//    pipeline with itself). DP2_SIMD_SEED=n runs another random set; DP2_DEBUG_SIMD=1
//    prints the first differing pixel and the configuration.
// 2. Chunked, parallel setup keeps submission order: many one-pixel triangles overwrite
//    each other, and D3D draws primitives in order, so each pixel ends with the colour of
//    the last triangle that covers it — whatever the thread count, chunking or mid-draw
//    flushes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "dp2raster/formats.h"
#include "dp2raster/renderer.h"
#include "span.h"
#include "support/float_env.h"
#include "support/raster_state.h"

using namespace dp2::raster;

namespace {

constexpr std::uint32_t kWidth = 61, kHeight = 37;  // not multiples of the 4×2 block

struct Images {
  std::vector<std::byte> color, depth;
  std::vector<std::uint32_t> texture;
};

// One random configuration of a state the block kernels take (span.cpp:
// prepare_fast_draw), drawn as `count` random triangles.
struct Config {
  Format color = Format::kX8R8G8B8, depth = Format::kUnknown;
  Compare depth_func = Compare::kLess;
  bool depth_write = true;
  std::uint32_t depth_bias = 0;
  bool stage = false, textured = false, tex_alpha = true, linear = true;
  Address address_u = Address::kWrap, address_v = Address::kWrap;
  std::uint32_t tex_w = 16, tex_h = 8;
  TextureOp color_op = TextureOp::kModulate, alpha_op = TextureOp::kModulate;
  std::uint8_t color_args[2] = {kArgTexture, kArgDiffuse}, alpha_args[2] = {kArgTexture, kArgDiffuse};
  bool blend = false;
  Blend src = Blend::kSrcAlpha, dst = Blend::kInvSrcAlpha;
  BlendOp op = BlendOp::kAdd;
  std::uint8_t write_mask = 0xF;
  bool dither = false;  // D3DRS_DITHERENABLE: the 16-bit targets dither, the 32-bit ones do not
  // The viewport's depth range. MinZ = 0 ≤ MaxZ ≤ 1 lets affine triangles of a lean state
  // take the kernels' lean copies (span.cpp: z_clamp_plain); other ranges do not.
  float min_z = 0.125f, max_z = 0.875f;
  bool flat = false, perspective = false;
  Filter mag = Filter::kLinear, min = Filter::kLinear, mip = Filter::kNone;
  std::uint32_t levels = 1, max_mip_level = 0;
  float lod_bias = 0.0f;
  bool specular = false, fog = false, fog_on_w = false, alpha_test = false;
  FogMode fog_table = FogMode::kNone;
  float fog_start = 0.2f, fog_end = 0.9f;
  Compare alpha_func = Compare::kGreater;
  std::uint32_t alpha_ref = 128;
  Rect clip{0, 0, static_cast<std::int32_t>(kWidth), static_cast<std::int32_t>(kHeight)};
};

Config random_config(std::mt19937& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  Config c;
  const Format colors[] = {Format::kA8R8G8B8, Format::kX8R8G8B8, Format::kR5G6B5, Format::kX1R5G5B5,
                           Format::kA1R5G5B5};
  c.color = colors[pick(5)];
  c.dither = pick(2) != 0;
  const Format depths[] = {Format::kUnknown, Format::kD24S8, Format::kD24X8, Format::kD24X4S4, Format::kD16};
  c.depth = depths[pick(5)];
  if (pick(2)) {
    c.min_z = 0.0f;
    c.max_z = pick(2) ? 1.0f : 0.75f;
  }
  c.depth_func = static_cast<Compare>(1 + pick(8));
  c.depth_write = pick(4) != 0;
  c.depth_bias = pick(3) == 0 ? static_cast<std::uint32_t>(pick(17)) : 0;
  c.stage = pick(4) != 0;
  c.textured = pick(3) != 0;
  c.tex_alpha = pick(2) != 0;
  c.linear = pick(2) != 0;
  const Address modes[] = {Address::kWrap, Address::kClamp};
  c.address_u = modes[pick(2)];
  c.address_v = modes[pick(2)];
  const std::uint32_t sizes[] = {1, 2, 8, 16, 64};
  c.tex_w = sizes[pick(5)];
  c.tex_h = sizes[pick(5)];
  const TextureOp ops[] = {TextureOp::kSelectArg1, TextureOp::kSelectArg2, TextureOp::kModulate,
                           TextureOp::kModulate2x, TextureOp::kModulate4x, TextureOp::kAdd};
  c.color_op = ops[pick(6)];
  c.alpha_op = pick(5) == 0 ? TextureOp::kDisable : ops[pick(6)];
  const std::uint8_t args[] = {kArgDiffuse, kArgCurrent, kArgTexture, kArgTFactor};
  for (auto& a : c.color_args) a = args[pick(4)];
  for (auto& a : c.alpha_args) a = args[pick(4)];
  c.blend = pick(2) != 0;
  const Blend factors[] = {Blend::kZero,         Blend::kOne,          Blend::kSrcColor,    Blend::kInvSrcColor,
                           Blend::kSrcAlpha,     Blend::kInvSrcAlpha,  Blend::kDestAlpha,   Blend::kInvDestAlpha,
                           Blend::kDestColor,    Blend::kInvDestColor, Blend::kBlendFactor, Blend::kInvBlendFactor};
  c.src = factors[pick(12)];
  c.dst = factors[pick(12)];
  c.op = static_cast<BlendOp>(1 + pick(5));
  c.write_mask = pick(3) == 0 ? static_cast<std::uint8_t>(pick(16)) : 0xF;
  c.flat = pick(4) == 0;
  c.perspective = pick(2) != 0;
  if (pick(2)) c.clip = {3 + pick(5), 1 + pick(5), 40 + pick(21), 20 + pick(17)};
  const Filter filters[] = {Filter::kPoint, Filter::kLinear, Filter::kAnisotropic};
  c.mag = c.linear ? Filter::kLinear : Filter::kPoint;
  c.min = pick(3) == 0 ? filters[pick(3)] : c.mag;
  c.mip = pick(2) ? Filter::kNone : pick(2) ? Filter::kPoint : Filter::kLinear;
  c.levels = 1 + static_cast<std::uint32_t>(pick(7));
  c.max_mip_level = pick(4) == 0 ? static_cast<std::uint32_t>(pick(3)) : 0;
  c.lod_bias = pick(3) == 0 ? -1.5f + 0.5f * static_cast<float>(pick(7)) : 0.0f;
  c.specular = pick(3) == 0;
  c.fog = pick(3) == 0;
  c.fog_table = static_cast<FogMode>(pick(4));
  c.fog_on_w = pick(2) != 0;
  if (pick(5) == 0) c.fog_end = c.fog_start;  // the step case
  c.alpha_test = pick(3) == 0;
  c.alpha_func = static_cast<Compare>(1 + pick(8));
  c.alpha_ref = static_cast<std::uint32_t>(pick(256));
  return c;
}

std::vector<Vertex> random_triangles(std::mt19937& rng, const Config& c, int count) {
  std::uniform_real_distribution<float> px(-8.0f, kWidth + 8.0f), py(-8.0f, kHeight + 8.0f), unit(0.0f, 1.0f),
      wide(-0.25f, 1.25f), tex(-2.0f, 3.0f), rhw(0.2f, 4.0f);
  std::vector<Vertex> v(static_cast<std::size_t>(count) * 3);
  for (Vertex& x : v) {
    x.x = px(rng);
    x.y = py(rng);
    x.z = wide(rng);  // outside [0, 1] too: the clamp and the quantiser's limits
    x.rhw = c.perspective ? rhw(rng) : 1.0f;
    x.diffuse = {wide(rng), unit(rng), unit(rng), wide(rng)};
    x.specular = {unit(rng), unit(rng), unit(rng), unit(rng)};
    x.tex[0] = {tex(rng), tex(rng), 0.0f, 1.0f};
    x.tex[1] = {tex(rng), tex(rng), 0.0f, 1.0f};
  }
  return v;
}

// Renders `vertices` under `c` from the same starting images; returns the images and the
// renderer's counters.
RendererStats render(const Config& c, const std::vector<Vertex>& vertices, bool generic, Isa isa, Images& out,
                     unsigned threads = 1) {
  std::mt19937 fill(7);  // the same starting contents every time
  // Rows as tight as the format allows (a 16-bit row's pitch is not a multiple of 4), and
  // buffers no larger than the surfaces, so the sanitizers see any read past them.
  const std::uint32_t color_bytes = format_info(c.color).bits_per_pixel / 8;
  const std::uint32_t depth_bytes = c.depth != Format::kUnknown ? format_info(c.depth).bits_per_pixel / 8 : 4;
  out.color.resize(std::size_t{kWidth} * kHeight * color_bytes);
  out.depth.resize(std::size_t{kWidth} * kHeight * depth_bytes);
  for (auto& b : out.color) b = static_cast<std::byte>(fill());
  for (auto& b : out.depth) b = static_cast<std::byte>(fill());
  // The mip chain in one block, level after level, as the back end lays surfaces out.
  TextureView texture;
  texture.format = c.tex_alpha ? Format::kA8R8G8B8 : Format::kX8R8G8B8;
  texture.levels = c.levels;
  std::size_t texels = 0;
  for (std::uint32_t l = 0, w = c.tex_w, h = c.tex_h; l < c.levels; ++l, w = std::max(w / 2, 1u), h = std::max(h / 2, 1u))
    texels += std::size_t{w} * h;
  out.texture.resize(texels);
  for (auto& t : out.texture) t = fill();
  std::size_t at = 0;
  for (std::uint32_t l = 0, w = c.tex_w, h = c.tex_h; l < c.levels; ++l, w = std::max(w / 2, 1u), h = std::max(h / 2, 1u)) {
    texture.level[l] = {texture.format, w, h, w * 4, reinterpret_cast<std::byte*>(out.texture.data() + at)};
    at += std::size_t{w} * h;
  }

  DrawState s;
  s.color = {c.color, kWidth, kHeight, kWidth * color_bytes, out.color.data()};
  s.dither = c.dither;
  if (c.depth != Format::kUnknown) {
    s.depth = {c.depth, kWidth, kHeight, kWidth * depth_bytes, out.depth.data()};
    s.depth_mode = DepthMode::kZ;
  }
  s.clip = c.clip;
  s.min_z = c.min_z;
  s.max_z = c.max_z;
  s.cull = Cull::kNone;
  s.shade = c.flat ? Shade::kFlat : Shade::kGouraud;
  s.depth_func = c.depth_func;
  s.depth_write = c.depth_write;
  s.depth_bias = c.depth_bias;
  s.blend = c.blend;
  s.src_blend = c.src;
  s.dst_blend = c.dst;
  s.blend_op = c.op;
  s.blend_factor = {0.25f, 0.5f, 0.75f, 0.375f};
  s.color_write_mask = c.write_mask;
  s.texture_factor = {0.9f, 0.2f, 0.6f, 0.7f};
  s.specular = c.specular;
  s.fog = c.fog;
  s.fog_table = c.fog_table;
  s.fog_on_w = c.fog_on_w;
  s.fog_start = c.fog_start;
  s.fog_end = c.fog_end;
  s.fog_density = 1.7f;
  s.fog_color = {0.3f, 0.6f, 0.9f, 1.0f};
  s.alpha_test = c.alpha_test;
  s.alpha_func = c.alpha_func;
  s.alpha_ref = c.alpha_ref;
  if (c.stage) {
    s.stage_count = 1;
    StageState& st = s.stages[0];
    st.color_op = c.color_op;
    st.alpha_op = c.alpha_op;
    st.color_arg = {kArgCurrent, c.color_args[0], c.color_args[1]};
    st.alpha_arg = {kArgCurrent, c.alpha_args[0], c.alpha_args[1]};
    st.texcoord_set = 1;
    s.texcoord_sets = 0x3;
    if (c.textured) st.texture = &texture;
    st.sampler.mag = c.mag;
    st.sampler.min = c.min;
    st.sampler.mip = c.mip;
    st.sampler.max_mip_level = c.max_mip_level;
    st.sampler.lod_bias = c.lod_bias;
    st.sampler.address_u = c.address_u;
    st.sampler.address_v = c.address_v;
  }
  Renderer r(threads);
  r.set_generic_kernels(generic);
  r.set_isa(isa);
  r.draw(s, Topology::kTriangleList, static_cast<std::uint32_t>(vertices.size() / 3), vertices, {});
  r.flush();
  return r.stats();
}

// Every target this build and CPU run (x86: scalar, SSE4.1, AVX2, AVX-512; AArch64:
// scalar, NEON).
std::vector<Isa> runnable_isas() {
  std::vector<Isa> out;
  for (const Isa isa : {Isa::kScalar, Isa::kSse41, Isa::kAvx2, Isa::kNeon, Isa::kAvx512})
    if (resolve_isa(isa) == isa) out.push_back(isa);
  return out;
}

// Draws `v` under `c` through the scalar pipeline, then through each runnable target's
// block kernels, and checks every target gives the scalar pipeline's colour and depth
// bytes. Returns each target's counters, in runnable_isas() order.
std::vector<RendererStats> check_against_scalar(const Config& c, const std::vector<Vertex>& v) {
  Images reference;
  render(c, v, true, Isa::kScalar, reference);
  std::vector<RendererStats> all;
  for (const Isa isa : runnable_isas()) {
    const std::string isa_text = isa_name(isa);
    CAPTURE(isa_text);
    Images out;
    all.push_back(render(c, v, false, isa, out));
    CHECK(out.color == reference.color);
    CHECK(out.depth == reference.depth);
  }
  return all;
}

}  // namespace

TEST_CASE("raster simd: this build runs more than the scalar kernels") {
  // x86 builds compile the SSE4.1, AVX2 and AVX-512 kernels, AArch64 builds the NEON ones
  // (every AArch64 CPU runs them). A build that lost them would leave the comparisons
  // below comparing the scalar kernels with themselves.
  const std::vector<Isa> isas = runnable_isas();
  for (const Isa isa : isas) MESSAGE("compared: ", std::string(isa_name(isa)));
#if defined(__x86_64__) || defined(__i386__)
  if (__builtin_cpu_supports("sse4.1")) CHECK(isas.size() >= 2);
  const bool avx512 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
  CHECK((std::find(isas.begin(), isas.end(), Isa::kAvx512) != isas.end()) == avx512);
  // kAuto takes the widest the CPU runs.
  if (avx512) CHECK(best_isa() == Isa::kAvx512);
#elif defined(__aarch64__)
  CHECK(isas == std::vector<Isa>{Isa::kScalar, Isa::kNeon});
#endif
}

TEST_CASE("raster simd: every instruction set gives the scalar pipeline's bytes") {
  std::mt19937 rng(getenv("DP2_SIMD_SEED") ? static_cast<unsigned>(std::atoi(getenv("DP2_SIMD_SEED"))) : 2026u);
  std::uint64_t simd_triangles = 0, simd16_triangles = 0, d16_triangles = 0, dithered_triangles = 0;
  for (int round = 0; round < 400; ++round) {
    CAPTURE(round);
    const Config c = random_config(rng);
    const std::vector<Vertex> v = random_triangles(rng, c, 12);
    Images reference;
    const RendererStats ref_stats = render(c, v, true, Isa::kScalar, reference);
    CHECK(ref_stats.kernel_triangles[kKernelKeyCount - 1] == ref_stats.triangles_binned);
    for (const Isa isa : runnable_isas()) {
      const std::string isa_text = isa_name(isa);
      CAPTURE(isa_text);
      Images out;
      const RendererStats stats = render(c, v, false, isa, out);
      CHECK(out.color == reference.color);
      if (out.color != reference.color && getenv("DP2_DEBUG_SIMD")) {
        for (std::size_t i = 0; i < out.color.size(); i += 4)
          if (std::memcmp(&out.color[i], &reference.color[i], 4) != 0) {
            std::uint32_t a, b;
            std::memcpy(&a, &out.color[i], 4);
            std::memcpy(&b, &reference.color[i], 4);
            MESSAGE("pixel ", (i / 4) % kWidth, ",", (i / 4) / kWidth, " simd ", a, " scalar ", b);
            break;
          }
        MESSAGE("depth ", int(c.depth), " stage ", c.stage, " tex ", c.textured, " ops ", int(c.color_op), "/",
                int(c.alpha_op), " blend ", c.blend, " spec ", c.specular, " fog ", c.fog, " table ", int(c.fog_table),
                " onw ", c.fog_on_w, " alpha ", c.alpha_test, " mag/min/mip ", int(c.mag), int(c.min), int(c.mip),
                " levels ", c.levels, " persp ", c.perspective, " flat ", c.flat, " mask ", int(c.write_mask));
      }
      CHECK(out.depth == reference.depth);
      CHECK(stats.pixels_shaded == ref_stats.pixels_shaded);
      const std::uint64_t simd = stats.triangles_binned - stats.kernel_triangles[kKernelKeyCount - 1];
      simd_triangles += simd;
      const bool color16 = format_info(c.color).bits_per_pixel == 16;
      if (color16) simd16_triangles += simd;
      if (color16 && c.dither) dithered_triangles += simd;
      if (c.depth == Format::kD16) d16_triangles += simd;
    }
  }
  // Every configuration above is one the block kernels take; each new target format did.
  CHECK(simd_triangles > 0);
  CHECK(simd16_triangles > 0);
  CHECK(dithered_triangles > 0);
  CHECK(d16_triangles > 0);
}

TEST_CASE("raster simd: the kernels' MODULATE(texture, diffuse) copy gives the scalar pipeline's bytes") {
  // span.h: FastDraw::modulate. Every order of the two arguments (CURRENT is the diffuse
  // colour at stage 0), each alpha form, with and without blending, on a target with and
  // without alpha, lean and not (the alpha test), under random geometry, filters, mips,
  // address modes and projection: the states that take the copy and their neighbours
  // that do not.
  std::mt19937 rng(77);
  const std::uint8_t orders[4][2] = {
      {kArgTexture, kArgDiffuse}, {kArgDiffuse, kArgTexture}, {kArgTexture, kArgCurrent}, {kArgCurrent, kArgTexture}};
  const TextureOp alpha_ops[4] = {TextureOp::kModulate, TextureOp::kModulate, TextureOp::kDisable,
                                  TextureOp::kSelectArg1};
  std::uint64_t simd_triangles = 0;
  for (int order = 0; order < 4; ++order)
    for (int alpha = 0; alpha < 4; ++alpha)
      for (int variant = 0; variant < 8; ++variant) {
        CAPTURE(order);
        CAPTURE(alpha);
        CAPTURE(variant);
        Config c;
        c.depth = Format::kD24S8;
        c.min_z = 0.0f;
        c.max_z = 1.0f;
        c.stage = c.textured = true;
        c.color_op = TextureOp::kModulate;
        c.color_args[0] = orders[order][0];
        c.color_args[1] = orders[order][1];
        c.alpha_op = alpha_ops[alpha];
        c.alpha_args[0] = orders[alpha == 1 ? 1 : 0][0];
        c.alpha_args[1] = orders[alpha == 1 ? 1 : 0][1];
        c.color = variant & 1 ? Format::kA8R8G8B8 : Format::kX8R8G8B8;
        c.blend = (variant & 2) != 0;
        c.alpha_test = (variant & 4) != 0;
        c.perspective = rng() % 2 != 0;
        c.linear = rng() % 2 != 0;
        c.mag = c.min = c.linear ? Filter::kLinear : Filter::kPoint;
        c.mip = rng() % 2 ? Filter::kNone : Filter::kLinear;
        c.levels = c.mip == Filter::kNone ? 1 : 4;
        c.tex_w = 16;
        c.tex_h = 64;
        c.address_u = rng() % 2 ? Address::kWrap : Address::kClamp;
        c.address_v = rng() % 2 ? Address::kWrap : Address::kClamp;
        for (const RendererStats& stats : check_against_scalar(c, random_triangles(rng, c, 12)))
          simd_triangles += stats.triangles_binned - stats.kernel_triangles[kKernelKeyCount - 1];
      }
  CHECK(simd_triangles > 0);
}

TEST_CASE("raster simd: which states take the kernels' MODULATE(texture, diffuse) copy") {
  // The rule of FastDraw::modulate (span.h): colour MODULATE of the texture and the
  // diffuse colour in either order; alpha the same, DISABLE, or not needed; alpha needed
  // only for blending; a texture bound; every channel written.
  std::uint32_t texel = 0xFF808080u;
  const TextureView texture = dp2::test::one_texel(texel, Format::kA8R8G8B8);
  std::uint32_t pixel = 0;
  auto modulate = [&](auto&& change) {
    DrawState s;
    s.color = {Format::kX8R8G8B8, 1, 1, 4, reinterpret_cast<std::byte*>(&pixel)};
    s.clip = {0, 0, 1, 1};
    s.stage_count = 1;
    s.texcoord_sets = 1;
    StageState& st = s.stages[0];
    st.texture = &texture;
    st.color_op = st.alpha_op = TextureOp::kModulate;
    st.color_arg = st.alpha_arg = {kArgCurrent, kArgTexture, kArgDiffuse};
    change(s, st);
    FastDraw d;
    REQUIRE(prepare_fast_draw(s, d) != kKernelGeneric);
    return d.modulate;
  };
  CHECK(modulate([](DrawState&, StageState&) {}));
  CHECK(modulate([](DrawState&, StageState& st) { st.color_arg = {kArgCurrent, kArgCurrent, kArgTexture}; }));
  // Alpha is not needed on X8R8G8B8 without blending or an alpha test: its op is free.
  CHECK(modulate([](DrawState&, StageState& st) { st.alpha_op = TextureOp::kAdd; }));
  CHECK_FALSE(modulate([](DrawState&, StageState& st) { st.color_op = TextureOp::kModulate2x; }));
  CHECK_FALSE(modulate([](DrawState&, StageState& st) { st.color_arg = {kArgCurrent, kArgTexture, kArgTFactor}; }));
  CHECK_FALSE(modulate([](DrawState&, StageState& st) { st.texture = nullptr; }));
  CHECK_FALSE(modulate([](DrawState& s, StageState&) { s.color_write_mask = 0x7; }));  // COLORWRITEENABLE: no blue
  // A8R8G8B8 stores alpha: needed without blending, so not this copy.
  CHECK_FALSE(modulate([&](DrawState& s, StageState&) { s.color.format = Format::kA8R8G8B8; }));
  const auto blend = [](DrawState& s) {
    s.blend = true;
    s.src_blend = Blend::kSrcAlpha;
    s.dst_blend = Blend::kInvSrcAlpha;
  };
  CHECK(modulate([&](DrawState& s, StageState&) { blend(s); }));
  CHECK(modulate([&](DrawState& s, StageState& st) {
    blend(s);
    st.alpha_op = TextureOp::kDisable;
  }));
  CHECK_FALSE(modulate([&](DrawState& s, StageState& st) {
    blend(s);
    st.alpha_op = TextureOp::kSelectArg1;
  }));
}

TEST_CASE("raster simd: texture coordinates past the sampler's clamp, on affine triangles, as the scalar pipeline") {
  // The kernels skip finite_coord() (NaN → 0, then ±2^30 texels) for an affine triangle
  // whose coordinates stay far inside that range; these do not — huge, infinite and NaN
  // coordinates next to ordinary ones — so the check must send them through it, and every
  // target must still give the scalar pipeline's bytes.
  std::mt19937 rng(77);
  const float wild[] = {3.0e9f, -3.0e9f, 1.0e30f, std::numeric_limits<float>::infinity(),
                        std::numeric_limits<float>::quiet_NaN(), 0.25f, 1.0e7f};
  for (int round = 0; round < 24; ++round) {
    CAPTURE(round);
    Config c;
    c.depth = Format::kD24S8;
    c.stage = true;
    c.textured = true;
    c.color_op = TextureOp::kSelectArg1;
    c.color_args[0] = kArgTexture;
    c.linear = round % 2 == 0;
    c.mag = c.min = c.linear ? Filter::kLinear : Filter::kPoint;
    c.address_u = round % 3 == 0 ? Address::kClamp : Address::kWrap;
    c.address_v = round % 4 == 0 ? Address::kClamp : Address::kWrap;
    c.tex_w = 64;
    c.tex_h = 16;
    std::vector<Vertex> v = random_triangles(rng, c, 8);
    for (std::size_t i = 0; i < v.size(); ++i) {
      v[i].rhw = 1.0f;  // affine
      // render() points the stage at coordinate set 1.
      if ((i + static_cast<std::size_t>(round)) % 3 == 0) v[i].tex[1][0] = wild[(i + round) % std::size(wild)];
      if ((i + static_cast<std::size_t>(round)) % 5 == 0) v[i].tex[1][1] = wild[(i * 3 + round) % std::size(wild)];
    }
    for (const RendererStats& stats : check_against_scalar(c, v)) {
      CHECK(stats.triangles_binned > 0);
      CHECK(stats.kernel_triangles[kKernelKeyCount - 1] == 0);  // every triangle took a block kernel
    }
  }
}

TEST_CASE("raster simd: long-edged triangles with a small part in the target, as the scalar pipeline") {
  // One vertex thousands of pixels away: the triangle's part of the 61 × 37 target is a
  // grid of at most 128 blocks, which takes the block-by-block path without 16×16
  // squares, but its edge functions there overflow int32, so the int64 walk decides the
  // masks instead of the int32 grid. Every target must still give the scalar pipeline's
  // bytes, and cover the same pixels.
  std::mt19937 rng(4242);
  std::uniform_real_distribution<float> far(2000.0f, 4000.0f), near(0.0f, 30.0f);
  std::uint64_t pixels = 0;
  for (int round = 0; round < 40; ++round) {
    CAPTURE(round);
    const Config c = random_config(rng);
    std::vector<Vertex> v = random_triangles(rng, c, 8);
    for (std::size_t t = 0; t + 2 < v.size(); t += 3) {
      const bool left = rng() % 2 == 0;
      v[t].x = left ? -far(rng) : static_cast<float>(kWidth) + far(rng);
      v[t].y = near(rng);
      // The other two within a corner region of about 30 × 30 pixels.
      for (std::size_t k = 1; k < 3; ++k) {
        v[t + k].x = left ? near(rng) : static_cast<float>(kWidth) - near(rng);
        v[t + k].y = near(rng);
      }
    }
    Images reference;
    const RendererStats ref_stats = render(c, v, true, Isa::kScalar, reference);
    pixels += ref_stats.pixels_shaded;
    for (const Isa isa : runnable_isas()) {
      const std::string isa_text = isa_name(isa);
      CAPTURE(isa_text);
      Images out;
      const RendererStats stats = render(c, v, false, isa, out);
      CHECK(stats.kernel_triangles[kKernelKeyCount - 1] == 0);  // every triangle took a block kernel
      CHECK(stats.pixels_shaded == ref_stats.pixels_shaded);
      CHECK(out.color == reference.color);
      CHECK(out.depth == reference.depth);
    }
  }
  CHECK(pixels > 1000);  // the triangles reached the target
}

TEST_CASE("raster simd: 16-bit targets: D16 is round(z·65535) exactly, R5G6B5 dithers by the 4×4 matrix") {
  // A triangle over the whole target at a constant z (its plane is flat, so every pixel
  // reads z itself) with one colour. Each z below is a float whose product z·65535 rounds,
  // in float, across a half: D16 = floor(z·(2^16 − 1) + 0.5) taken exactly (as
  // formats.cpp: depth_from_float does, in double) is one less than a float-lane kernel
  // would store.
  const float zs[] = {0x1.0005p-3f, 0x1.7a1d7ap-3f, 0x1.6e4b6ep-2f, 0x1.627262p-1f};
  // pixel.cpp's ordered dither: offset (m + 0.5)/16 − 0.5 of an LSB at (x % 4, y % 4).
  constexpr int kBayer[4][4] = {{0, 8, 2, 10}, {12, 4, 14, 6}, {3, 11, 1, 9}, {15, 7, 13, 5}};
  // Channel values whose c·max + 0.5 has fraction 0.6875 (R) or 0.0625 (G, B): R steps up
  // where the matrix holds 13–15, G and B step down where it holds 0–6. Neither set is
  // symmetric under transposing the matrix or moving it by two rows or columns, so a wrong
  // row or lane order of the offsets shows. All are exact in float.
  const double rgb[3] = {0.8125, 0.4375, 0.4375};
  for (const float z : zs) {
    CAPTURE(z);
    const double exact = std::floor(static_cast<double>(z) * 65535.0 + 0.5);
    REQUIRE(std::floor(static_cast<double>(z * 65535.0f) + 0.5) == exact + 1);  // the float trap is real
    Config c;
    c.color = Format::kR5G6B5;
    c.dither = true;
    c.depth = Format::kD16;
    c.depth_func = Compare::kAlways;
    std::vector<Vertex> v(3);
    const float corners[3][2] = {{-4.0f, -4.0f}, {200.0f, -4.0f}, {-4.0f, 200.0f}};
    for (int i = 0; i < 3; ++i) {
      v[i].x = corners[i][0];
      v[i].y = corners[i][1];
      v[i].z = z;
      v[i].diffuse = {static_cast<float>(rgb[0]), static_cast<float>(rgb[1]), static_cast<float>(rgb[2]), 1.0f};
    }
    for (const Isa isa : runnable_isas()) {
      const std::string isa_text = isa_name(isa);
      CAPTURE(isa_text);
      Images out;
      const RendererStats stats = render(c, v, false, isa, out);
      CHECK(stats.kernel_triangles[kKernelKeyCount - 1] == 0);  // the block kernels drew it
      int wrong_depth = 0, wrong_color = 0;
      for (std::uint32_t y = 0; y < kHeight; ++y)
        for (std::uint32_t x = 0; x < kWidth; ++x) {
          std::uint16_t depth, color;
          std::memcpy(&depth, &out.depth[(y * kWidth + x) * 2], 2);
          std::memcpy(&color, &out.color[(y * kWidth + x) * 2], 2);
          wrong_depth += depth != exact ? 1 : 0;
          // q = floor(c·max + 0.5 + dither), clamped to [0, max]; R 5 bits, G 6, B 5.
          const double d = (kBayer[y % 4][x % 4] + 0.5) / 16.0 - 0.5;
          auto q = [&](double ch, double max) { return std::clamp(std::floor(ch * max + 0.5 + d), 0.0, max); };
          const auto want = static_cast<std::uint16_t>(static_cast<int>(q(rgb[0], 31)) << 11 |
                                                       static_cast<int>(q(rgb[1], 63)) << 5 | static_cast<int>(q(rgb[2], 31)));
          wrong_color += color != want ? 1 : 0;
        }
      CHECK(wrong_depth == 0);
      CHECK(wrong_color == 0);
    }
  }
}

TEST_CASE("raster simd: a state outside the block kernels takes the scalar pipeline") {
  std::mt19937 rng(5);
  Config c;
  c.depth = Format::kD24S8;
  const std::vector<Vertex> v = random_triangles(rng, c, 4);
  Images out;
  const RendererStats fast = render(c, v, false, Isa::kAuto, out);
  CHECK(fast.kernel_triangles[1] == fast.triangles_binned);  // depth + colour
  c.color = Format::kA4R4G4B4;  // 4-bit channels stay on the scalar pipeline
  const RendererStats slow = render(c, v, false, Isa::kAuto, out);
  CHECK(slow.kernel_triangles[kKernelKeyCount - 1] == slow.triangles_binned);
  CHECK(std::string(kernel_key_name(1)) == "simd:depth+color");
}

namespace {

// Triangle i covers exactly the pixel centre (i mod W, (i / W) mod H) — its vertices sit
// around the centre, no other centre inside — with colour i in its 24 low bits.
constexpr std::uint32_t kGridW = 96, kGridH = 80;  // 2 × 2 tiles, partly

std::vector<Vertex> one_pixel_triangles(std::uint32_t count) {
  std::vector<Vertex> v(std::size_t{count} * 3);
  for (std::uint32_t i = 0; i < count; ++i) {
    const float x = static_cast<float>(i % kGridW), y = static_cast<float>((i / kGridW) % kGridH);
    const Color c{static_cast<float>((i >> 16) & 0xFF) / 255.0f, static_cast<float>((i >> 8) & 0xFF) / 255.0f,
                  static_cast<float>(i & 0xFF) / 255.0f, 1.0f};
    const float corner[3][2] = {{-0.5f, -0.5f}, {0.6f, -0.5f}, {-0.5f, 0.6f}};
    for (int k = 0; k < 3; ++k) {
      Vertex& p = v[std::size_t{i} * 3 + k];
      p.x = x + corner[k][0];
      p.y = y + corner[k][1];
      p.diffuse = c;
    }
  }
  return v;
}

std::vector<std::uint32_t> draw_in_order(const std::vector<Vertex>& v, unsigned threads, std::size_t budget,
                                         std::uint32_t draws, RendererStats& stats) {
  std::vector<std::uint32_t> color(kGridW * kGridH, 0);
  DrawState s;
  s.color = {Format::kX8R8G8B8, kGridW, kGridH, kGridW * 4, reinterpret_cast<std::byte*>(color.data())};
  s.clip = {0, 0, kGridW, kGridH};
  s.cull = Cull::kNone;
  Renderer r(threads);
  r.set_scene_primitive_budget(budget);
  const std::size_t triangles = v.size() / 3, per_draw = triangles / draws;
  for (std::uint32_t d = 0; d < draws; ++d) {
    const std::size_t first = d * per_draw, count = d + 1 == draws ? triangles - first : per_draw;
    r.draw(s, Topology::kTriangleList, static_cast<std::uint32_t>(count),
           std::span<const Vertex>(v).subspan(first * 3, count * 3), {});
  }
  r.flush();
  stats = r.stats();
  return color;
}

}  // namespace

TEST_CASE("raster setup: chunks and mid-draw flushes keep submission order") {
  constexpr std::uint32_t kTriangles = 70000;  // > 4 setup chunks of 16384
  const std::vector<Vertex> v = one_pixel_triangles(kTriangles);
  // The D3D rule: the last triangle drawn over a pixel decides it (no depth, no blend).
  std::vector<std::uint32_t> expected(kGridW * kGridH, 0);
  for (std::uint32_t i = 0; i < kTriangles; ++i)
    expected[(i / kGridW) % kGridH * kGridW + i % kGridW] = 0xFF000000u | (i & 0xFFFFFFu);
  struct Case {
    unsigned threads;
    std::size_t budget;
    std::uint32_t draws;
  };
  for (const Case& k : {Case{1, Renderer::kDefaultScenePrimitiveBudget, 1}, Case{2, Renderer::kDefaultScenePrimitiveBudget, 1},
                        Case{4, 20000, 1}, Case{2, 5000, 40}, Case{3, 1, 7}}) {
    CAPTURE(k.threads);
    CAPTURE(k.budget);
    CAPTURE(k.draws);
    RendererStats stats;
    const std::vector<std::uint32_t> got = draw_in_order(v, k.threads, k.budget, k.draws, stats);
    CHECK(stats.triangles_binned == kTriangles);
    CHECK(stats.pixels_shaded == kTriangles);  // each covers exactly one pixel centre
    CHECK(got == expected);
  }
}

TEST_CASE("raster setup: textured and specular triangles keep their own planes in tile order") {
  // close() moves a chunk's triangles, and their out-of-line planes, into tile order. On
  // the 96 × 80 grid (2 × 2 tiles) a row of triangles alternates between tiles, so tile
  // order is not submission order; the first draw stores 2 planes a triangle (u, v), the
  // second 6 (u, v and specular rgba), so the runs moved differ in length.
  //
  // The D3D rule for the expected pixel: triangle i has one texture coordinate at all
  // three vertices, the centre of texel (i mod 16, (i / 16) mod 16) of a 16 × 16 texture;
  // POINT filtering reads that texel (floor(u·16) = i mod 16), and SELECTARG1 (TEXTURE)
  // writes its 8-bit channels unchanged (q / 255 quantises back to q). The second draw adds
  // specular (1, 0, 0) on even triangles, which saturates red to 255, and (0, 0, 0) on odd
  // ones.
  constexpr std::uint32_t kTriangles = kGridW * kGridH, kTexSize = 16;
  auto texel = [](std::uint32_t tx, std::uint32_t ty) {
    return 0xFF000000u | (tx * 16 + 1) << 16 | (ty * 16 + 2) << 8 | ((tx ^ ty) * 9 + 3);
  };
  std::vector<std::uint32_t> texels(kTexSize * kTexSize);
  for (std::uint32_t y = 0; y < kTexSize; ++y)
    for (std::uint32_t x = 0; x < kTexSize; ++x) texels[y * kTexSize + x] = texel(x, y);
  TextureView texture;
  texture.format = Format::kX8R8G8B8;
  texture.levels = 1;
  texture.level[0] = {Format::kX8R8G8B8, kTexSize, kTexSize, kTexSize * 4, reinterpret_cast<std::byte*>(texels.data())};

  std::vector<Vertex> v = one_pixel_triangles(kTriangles);
  std::vector<std::uint32_t> expected(kTriangles);
  for (std::uint32_t i = 0; i < kTriangles; ++i) {
    const std::uint32_t tx = i % kTexSize, ty = (i / kTexSize) % kTexSize;
    const bool red = i >= kTriangles / 2 && i % 2 == 0;
    for (int k = 0; k < 3; ++k) {
      Vertex& p = v[std::size_t{i} * 3 + k];
      p.tex[0] = {(static_cast<float>(tx) + 0.5f) / kTexSize, (static_cast<float>(ty) + 0.5f) / kTexSize, 0.0f, 1.0f};
      p.specular = {red ? 1.0f : 0.0f, 0.0f, 0.0f, 0.0f};
    }
    expected[(i / kGridW) % kGridH * kGridW + i % kGridW] = red ? texel(tx, ty) | 0x00FF0000u : texel(tx, ty);
  }
  for (const bool generic : {false, true}) {
    CAPTURE(generic);
    std::vector<std::uint32_t> color(kGridW * kGridH, 0);
    DrawState s;
    s.color = {Format::kX8R8G8B8, kGridW, kGridH, kGridW * 4, reinterpret_cast<std::byte*>(color.data())};
    s.clip = {0, 0, kGridW, kGridH};
    s.cull = Cull::kNone;
    s.stage_count = 1;
    s.texcoord_sets = 0x1;
    StageState& st = s.stages[0];
    st.color_op = TextureOp::kSelectArg1;
    st.alpha_op = TextureOp::kSelectArg1;
    st.color_arg = {kArgCurrent, kArgTexture, kArgDiffuse};
    st.alpha_arg = {kArgCurrent, kArgTexture, kArgDiffuse};
    st.texcoord_set = 0;
    st.texture = &texture;
    st.sampler.mag = st.sampler.min = Filter::kPoint;
    st.sampler.mip = Filter::kNone;
    DrawState with_specular = s;
    with_specular.specular = true;
    Renderer r(1);
    r.set_generic_kernels(generic);
    const std::span<const Vertex> all(v);
    r.draw(s, Topology::kTriangleList, kTriangles / 2, all.first(kTriangles / 2 * 3), {});
    r.draw(with_specular, Topology::kTriangleList, kTriangles / 2, all.subspan(kTriangles / 2 * 3), {});
    r.flush();
    CHECK(r.stats().triangles_binned == kTriangles);
    if (!generic) CHECK(r.stats().kernel_triangles[kKernelKeyCount - 1] == 0);  // the block kernels ran
    CHECK(color == expected);
  }
}

TEST_CASE("raster: the caller's rounding mode and flush-to-zero do not change a pixel") {
  // dp2's arithmetic is IEEE round-to-nearest without flushing (the scalar pipeline's
  // rules, setup's snap to 1/256 pixel, the kernels' exact q / 255): a Renderer driven from
  // a thread that changed its floating-point environment must give the bytes of the
  // default one, and leave the thread's environment as it was. (The executor's tasks on
  // other threads: test_thread_pool.cpp; a device's threads: test_render_raster.cpp.)
  std::mt19937 rng(31337);
  for (int round = 0; round < 24; ++round) {
    CAPTURE(round);
    const Config c = random_config(rng);
    const std::vector<Vertex> v = random_triangles(rng, c, 12);
    Images expected, got;
    render(c, v, false, Isa::kAuto, expected);
    {
      const dp2::test::HostileFloatEnvironment hostile;
      render(c, v, false, Isa::kAuto, got);
      CHECK(dp2::test::HostileFloatEnvironment::in_effect());
    }
    CHECK(got.color == expected.color);
    CHECK(got.depth == expected.depth);
  }
}

TEST_CASE("raster simd: SRCALPHA / INVSRCALPHA blending of [0, 1] channels stays in [0, 1] for every alpha") {
  // span_kernel.cpp's blend() leaves out this case's clamp01 on that bound. The sum
  // s·αs + d·(1 − αs) grows with s and d (rounding is monotonic, every term ≥ +0), so
  // s = d = 1 is the largest; here for every float αs in [0, 1], in the kernels' order
  // (products, then their sum; -ffp-contract=off keeps them unfused, and 1·x = x exactly).
  std::uint64_t above = 0;
  for (std::uint32_t bits = 0; bits <= 0x3F800000u; ++bits) {
    float sa;
    std::memcpy(&sa, &bits, sizeof sa);
    const float s = 1.0f, d = 1.0f;
    const float inv = 1.0f - sa;
    const float sum = s * sa + d * inv;
    above += !(sum >= 0.0f && sum <= 1.0f);
  }
  CHECK(above == 0);
}
