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

// ---- shared harness (copied from test_render_*.cpp, extended with texture / depth helpers) ----
namespace {

using dp2::StreamWriter;
using dp2::VertexWriter;

constexpr DWORD kRT = 1, kZS = 2, kTex = 3, kTex2 = 4, kTex3 = 5;
constexpr DWORD kFvfC = D3DFVF_XYZRHW | D3DFVF_DIFFUSE;
constexpr DWORD kFvfCS = D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_SPECULAR;
constexpr DWORD kFvfT = D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_SPECULAR | D3DFVF_TEX1;

[[maybe_unused]] std::uint32_t bytes_per_pixel(D3DFORMAT f) {
  switch (f) {
    case D3DFMT_A8R8G8B8: case D3DFMT_X8R8G8B8: case D3DFMT_D24S8: case D3DFMT_D24X8: case D3DFMT_D24X4S4:
    case D3DFMT_D32:
      return 4;
    case D3DFMT_R8G8B8: return 3;
    case D3DFMT_R3G3B2: case D3DFMT_P8: case D3DFMT_L8: case D3DFMT_A8: return 1;
    default: return 2;
  }
}

struct Scene {
  dp2::Device dev;
  ULONG_PTR ctx = 0;
  std::uint32_t w, h;
  D3DFORMAT fmt, zfmt;

  Scene(std::uint32_t width, std::uint32_t height, D3DFORMAT format = D3DFMT_X8R8G8B8,
        D3DFORMAT zformat = D3DFMT_UNKNOWN, unsigned threads = 1, std::uint32_t version = 5)
      : w(width), h(height), fmt(format), zfmt(zformat) {
    dev.set_render_threads(threads);
    dp2::SurfaceDesc rt;
    rt.kind = dp2::SurfaceKind::kRenderTarget;
    rt.format = format;
    rt.width = width;
    rt.height = height;
    REQUIRE(dev.create_surface(kRT, rt) == D3D_OK);
    if (zformat != D3DFMT_UNKNOWN) {
      dp2::SurfaceDesc zs = rt;
      zs.kind = dp2::SurfaceKind::kDepthStencil;
      zs.format = zformat;
      REQUIRE(dev.create_surface(kZS, zs) == D3D_OK);
    }
    dp2::ContextDesc cd;
    cd.interface_version = version;
    cd.render_target = kRT;
    cd.depth_stencil = zformat != D3DFMT_UNKNOWN ? kZS : 0;
    REQUIRE(dev.create_context(cd, ctx) == D3D_OK);
  }

  void run(const StreamWriter& s, std::span<const std::byte> vertices, DWORD fvf) {
    dp2::Dp2CallDesc d;
    d.vertex_type = fvf;
    dp2::Dp2Call call(s, vertices, d);
    REQUIRE(call.upload(dev, ctx) == D3D_OK);
    call.run(dev);
    CHECK(call.data.ddrval == D3D_OK);
    dev.destroy_surface(d.command_surface);
    dev.destroy_surface(d.vertex_surface);
  }
  void run(const StreamWriter& s, const VertexWriter& v) { run(s, v.bytes(), v.fvf()); }
  void run(const StreamWriter& s) { run(s, {}, kFvfC); }

  static std::uint32_t read(std::span<const std::byte> mem, D3DFORMAT f, std::uint32_t width, std::uint32_t x,
                            std::uint32_t y) {
    const std::uint32_t bpp = bytes_per_pixel(f);
    const std::size_t pitch = (std::size_t{width} * bpp + 3) & ~std::size_t{3};
    const std::size_t at = y * pitch + std::size_t{x} * bpp;
    std::uint32_t v = 0;
    for (std::uint32_t i = 0; i < bpp; ++i) v |= std::to_integer<std::uint32_t>(mem[at + i]) << (8 * i);
    return v;
  }
  std::uint32_t raw(std::uint32_t x, std::uint32_t y) { return read(dev.surface_bytes(kRT), fmt, w, x, y); }
  std::uint32_t rgb(std::uint32_t x, std::uint32_t y) { return raw(x, y) & 0x00FFFFFFu; }
  std::uint32_t zraw(std::uint32_t x, std::uint32_t y) { return read(dev.surface_bytes(kZS), zfmt, w, x, y); }
  std::uint32_t depth(std::uint32_t x, std::uint32_t y) { return zraw(x, y) >> 8; }  // D24S8 / D24X8 / D24X4S4
  std::uint32_t stencil(std::uint32_t x, std::uint32_t y) { return zraw(x, y) & 0xFFu; }

  // A texture of any uncompressed format with `levels` mip levels; texel(level, x, y)
  // gives the raw bits. Each level's pitch is DWORD-aligned, levels follow each other.
  template <class F>
  void texture_fmt(DWORD handle, D3DFORMAT f, std::uint32_t tw, std::uint32_t th, std::uint32_t levels, F texel,
                   bool has_key = false, DWORD key = 0) {
    dp2::SurfaceDesc t;
    t.kind = dp2::SurfaceKind::kTexture;
    t.format = f;
    t.width = tw;
    t.height = th;
    t.mip_levels = levels;
    t.has_color_key = has_key;
    t.color_key = key;
    REQUIRE(dev.create_surface(handle, t) == D3D_OK);
    auto mem = dev.surface_bytes(handle);
    const std::uint32_t bpp = bytes_per_pixel(f);
    std::size_t offset = 0;
    for (std::uint32_t l = 0; l < levels; ++l) {
      const std::size_t pitch = (std::size_t{tw} * bpp + 3) & ~std::size_t{3};
      REQUIRE(mem.size() >= offset + pitch * th);
      for (std::uint32_t y = 0; y < th; ++y)
        for (std::uint32_t x = 0; x < tw; ++x) {
          const std::uint32_t v = texel(l, x, y);
          for (std::uint32_t i = 0; i < bpp; ++i)
            mem[offset + y * pitch + x * bpp + i] = static_cast<std::byte>((v >> (8 * i)) & 0xFFu);
        }
      offset += pitch * th;
      tw = std::max(tw / 2, 1u);
      th = std::max(th / 2, 1u);
    }
  }
  // An A8R8G8B8 texture from 0xAARRGGBB texels, rows top to bottom.
  void texture(DWORD handle, std::uint32_t tw, std::uint32_t th, const std::vector<std::uint32_t>& texels) {
    texture_fmt(handle, D3DFMT_A8R8G8B8, tw, th, 1, [&](std::uint32_t, std::uint32_t x, std::uint32_t y) {
      return texels[y * tw + x];
    });
  }
  // A 1×1 A8R8G8B8 texture: samples as one flat colour whatever the coordinates.
  void flat(DWORD handle, std::uint32_t argb) { texture(handle, 1, 1, {argb}); }
};

[[maybe_unused]] StreamWriter& diffuse_only(StreamWriter& s) {
  return s.texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_SELECTARG1)
      .texture_stage_state(0, D3DTSS_COLORARG1, D3DTA_DIFFUSE)
      .texture_stage_state(0, D3DTSS_ALPHAOP, D3DTOP_SELECTARG1)
      .texture_stage_state(0, D3DTSS_ALPHAARG1, D3DTA_DIFFUSE)
      .end_merge();
}

// Stage `st` outputs its texture (colour and alpha), point sampled, no mipmapping.
[[maybe_unused]] StreamWriter& texture_only(StreamWriter& s, DWORD handle, WORD st = 0) {
  return s.texture_stage_state(st, D3DTSS_TEXTUREMAP, handle)
      .texture_stage_state(st, D3DTSS_COLOROP, D3DTOP_SELECTARG1)
      .texture_stage_state(st, D3DTSS_COLORARG1, D3DTA_TEXTURE)
      .texture_stage_state(st, D3DTSS_ALPHAOP, D3DTOP_SELECTARG1)
      .texture_stage_state(st, D3DTSS_ALPHAARG1, D3DTA_TEXTURE)
      .texture_stage_state(st, D3DTSS_MAGFILTER, D3DTEXF_POINT)
      .texture_stage_state(st, D3DTSS_MINFILTER, D3DTEXF_POINT)
      .texture_stage_state(st, D3DTSS_MIPFILTER, D3DTEXF_NONE)
      .end_merge();
}

// Axis-aligned rectangle as two clockwise triangles: covers pixel centres x0 ≤ i < x1,
// y0 ≤ j < y1.
[[maybe_unused]] void quad(VertexWriter& v, float x0, float y0, float x1, float y1, float z, D3DCOLOR c,
                           D3DCOLOR spec = 0, float rhw = 1.0f) {
  v.tl(x0, y0, z, rhw, c, spec).tl(x1, y0, z, rhw, c, spec).tl(x0, y1, z, rhw, c, spec);
  v.tl(x1, y0, z, rhw, c, spec).tl(x1, y1, z, rhw, c, spec).tl(x0, y1, z, rhw, c, spec);
}
// The same with texture coordinates (u0, v0) at the top-left corner and (u1, v1) at the
// bottom-right one (kFvfT vertices).
[[maybe_unused]] void tquad(VertexWriter& v, float x0, float y0, float x1, float y1, float u0, float v0, float u1,
                            float v1, D3DCOLOR c = 0xFFFFFFFFu, D3DCOLOR spec = 0, float z = 0.5f) {
  v.tl(x0, y0, z, 1, c, spec, u0, v0).tl(x1, y0, z, 1, c, spec, u1, v0).tl(x0, y1, z, 1, c, spec, u0, v1);
  v.tl(x1, y0, z, 1, c, spec, u1, v0).tl(x1, y1, z, 1, c, spec, u1, v1).tl(x0, y1, z, 1, c, spec, u0, v1);
}

[[maybe_unused]] std::uint32_t q(double c, int bits) {
  const double m = double((1ull << bits) - 1);
  return static_cast<std::uint32_t>(std::floor(std::clamp(c, 0.0, 1.0) * m + 0.5));
}
[[maybe_unused]] double ch(std::uint32_t argb, int shift) { return double((argb >> shift) & 0xFFu) / 255.0; }
// An 8-bit channel that rounds from x (within half an LSB, plus float slack).
[[maybe_unused]] bool rounds_from(std::uint32_t got, double x, double slack = 0.002) {
  return std::fabs(double(got) - x) <= 0.5 + slack;
}
// Every 8-bit channel of `got` (ARGB) against the expected doubles in [0, 1] (r, g, b, a).
[[maybe_unused]] bool channels_near(std::uint32_t got, const double (&want)[4], bool alpha = true,
                                    double slack = 0.002) {
  const int shifts[4] = {16, 8, 0, 24};
  for (int k = 0; k < (alpha ? 4 : 3); ++k)
    if (!rounds_from((got >> shifts[k]) & 0xFFu, std::clamp(want[k], 0.0, 1.0) * 255.0, slack)) return false;
  return true;
}

}  // namespace
// ---- end of shared harness ------------------------------------------------------------------

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

TEST_CASE("render more stages: a DISABLE stage ends the cascade; later stages are ignored") {
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
