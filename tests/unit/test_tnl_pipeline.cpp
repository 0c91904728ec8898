// Fixed-function transform and lighting (issue 4). Every expected value is computed here,
// in double, from the documented formula written beside it (D3D9 "Mathematics of
// Lighting", "Attenuation and Spotlight Factor", D3DFOGMODE, "Point Sprites", the
// viewport mapping of clip.h) — never taken from dp2's own output.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "ddi/fvf.h"
#include "state/state_block.h"
#include "vertex/clip.h"
#include "vertex/tnl_state.h"
#include "vertex/transform.h"

using namespace dp2;

namespace {

constexpr double kTol = 1e-4;

D3DMATRIX identity() {
  D3DMATRIX m{};
  m._11 = m._22 = m._33 = m._44 = 1.0f;
  return m;
}
D3DMATRIX translation(float x, float y, float z) {
  D3DMATRIX m = identity();
  m._41 = x, m._42 = y, m._43 = z;
  return m;
}
D3DMATRIX scaling(float x, float y, float z) {
  D3DMATRIX m = identity();
  m._11 = x, m._22 = y, m._33 = z;
  return m;
}
// D3DXMatrixPerspectiveFovLH: ys = cot(fov/2), xs = ys/aspect, _33 = zf/(zf−zn), _34 = 1,
// _43 = −zn·zf/(zf−zn), _44 = 0.
D3DMATRIX perspective(double fov, double aspect, double zn, double zf) {
  D3DMATRIX m{};
  const double ys = 1.0 / std::tan(fov / 2);
  m._11 = static_cast<float>(ys / aspect);
  m._22 = static_cast<float>(ys);
  m._33 = static_cast<float>(zf / (zf - zn));
  m._34 = 1.0f;
  m._43 = static_cast<float>(-zn * zf / (zf - zn));
  return m;
}

// Row vector · matrix, in double.
std::array<double, 4> mul(const std::array<double, 4>& v, const D3DMATRIX& m) {
  const float* f = &m._11;
  std::array<double, 4> r{};
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 4; ++k) r[j] += v[k] * f[k * 4 + j];
  return r;
}

D3DCOLORVALUE cv(float r, float g, float b, float a = 1.0f) { return {r, g, b, a}; }

// Vertex bytes builder.
struct Vb {
  std::vector<std::byte> bytes;
  Vb& f(float v) {
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    bytes.insert(bytes.end(), p, p + 4);
    return *this;
  }
  Vb& u(DWORD v) {
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    bytes.insert(bytes.end(), p, p + 4);
    return *this;
  }
};

// The TnL state of a fresh device with identity matrices, lighting off, clipping on.
vertex::TnlState base_state() {
  vertex::TnlState s;
  s.view = s.projection = identity();
  for (auto& t : s.texture) t = identity();
  s.lighting = FALSE;
  s.viewport_width = 100;
  s.viewport_height = 100;
  return s;
}

std::vector<vertex::ClipVertex> run(const vertex::TnlState& s, DWORD fvf, const Vb& vb, std::uint32_t count,
                                    std::vector<D3DMATRIX> worlds = {identity()}, std::uint8_t stage_mask = 0) {
  vertex::TnlPrepared p;
  vertex::prepare(s, worlds, p);
  std::vector<vertex::ClipVertex> out;
  REQUIRE(vertex::transform_vertices(s, p, fvf, ddi::fvf_stride(fvf), vb.bytes, count, stage_mask, out));
  return out;
}

}  // namespace

TEST_CASE("tnl: world · view · projection and the viewport transform") {
  vertex::TnlState s = base_state();
  const D3DMATRIX world = translation(1, 0, 0), view = translation(0, 0, 4);
  s.view = view;
  s.projection = perspective(3.14159265358979 / 2, 1.0, 1.0, 101.0);
  Vb vb;
  vb.f(0.5f).f(0.5f).f(1.0f);
  const auto out = run(s, D3DFVF_XYZ, vb, 1, {world});
  // Expected: v · World · View · Proj (row vectors).
  const auto clip = mul(mul(mul({0.5, 0.5, 1.0, 1.0}, world), view), s.projection);
  for (int c = 0; c < 4; ++c) CHECK(out[0].pos[c] == doctest::Approx(clip[c]).epsilon(kTol));
  // x' = X + (x/w + 1)·W/2, y' = Y + (1 − y/w)·H/2, z' = MinZ + z/w·(MaxZ − MinZ), rhw = 1/w.
  const vertex::ScreenViewport vp{10, 20, 200, 100, 0.2f, 0.8f};
  const raster::Vertex sv = vertex::to_screen(out[0], vp);
  CHECK(sv.x == doctest::Approx(10 + (clip[0] / clip[3] + 1) * 100).epsilon(kTol));
  CHECK(sv.y == doctest::Approx(20 + (1 - clip[1] / clip[3]) * 50).epsilon(kTol));
  CHECK(sv.z == doctest::Approx(0.2 + clip[2] / clip[3] * 0.6).epsilon(kTol));
  CHECK(sv.rhw == doctest::Approx(1 / clip[3]).epsilon(kTol));
}

TEST_CASE("tnl: DX7 and DX8 world ids and indexed-blend matrices reach the encoded state") {
  state::StateBlock sb;
  sb.interface_version = 3;  // DX7: world is id 1
  sb.transforms[D3DTRANSFORMSTATE_WORLD_DX7] = translation(1, 2, 3);
  sb.transforms[256] = translation(9, 9, 9);  // DX8 id: the DX7 context prefers id 1
  std::vector<std::byte> blob;
  vertex::encode_tnl_state(sb, D3DFVF_XYZ, blob);
  vertex::TnlState t;
  std::vector<D3DMATRIX> worlds;
  REQUIRE(vertex::decode_tnl_state(blob, t, worlds));
  REQUIRE(worlds.size() == 1);
  CHECK(worlds[0]._41 == 1.0f);
  sb.interface_version = 5;
  vertex::encode_tnl_state(sb, D3DFVF_XYZ, blob);
  REQUIRE(vertex::decode_tnl_state(blob, t, worlds));
  CHECK(worlds[0]._41 == 9.0f);
  // Indexed blending encodes up to the highest world matrix set.
  sb.transforms[256 + 7] = translation(7, 0, 0);
  sb.set_render_state(D3DRS_VERTEXBLEND, D3DVBF_1WEIGHTS);
  sb.set_render_state(D3DRS_INDEXEDVERTEXBLENDENABLE, TRUE);
  vertex::encode_tnl_state(sb, D3DFVF_XYZB2 | D3DFVF_LASTBETA_UBYTE4, blob);
  REQUIRE(vertex::decode_tnl_state(blob, t, worlds));
  CHECK(worlds.size() == 8);
  CHECK(blob.size() == vertex::tnl_encoded_size(8));
}

TEST_CASE("tnl: directional light, ambient and emissive") {
  vertex::TnlState s = base_state();
  s.lighting = TRUE;
  s.ambient = 0xFF204060;  // Ga = (0x20, 0x40, 0x60)/255
  s.material.diffuse = cv(0.8f, 0.6f, 0.4f, 0.5f);
  s.material.ambient = cv(0.5f, 0.5f, 0.5f);
  s.material.emissive = cv(0.05f, 0.0f, 0.1f);
  s.light_count = 1;
  s.lights[0].dltType = D3DLIGHT_DIRECTIONAL;
  s.lights[0].dcvDiffuse = cv(1.0f, 0.5f, 0.25f);
  s.lights[0].dcvAmbient = cv(0.1f, 0.2f, 0.3f);
  s.lights[0].dvDirection = {0.0f, -1.0f, 1.0f};  // normalized by the pipeline
  Vb vb;
  vb.f(0).f(0).f(0).f(0).f(1).f(0);  // normal +y
  const auto out = run(s, D3DFVF_XYZ | D3DFVF_NORMAL, vb, 1);
  // colour = Ce + Ca·(Ga + La) + Cd·Ld·max(0, N·Ldir), Ldir = −norm(direction).
  const double ndotl = 1.0 / std::sqrt(2.0);
  const double ga[3] = {0x20 / 255.0, 0x40 / 255.0, 0x60 / 255.0};
  const double expected[3] = {0.05 + 0.5 * (ga[0] + 0.1) + 0.8 * 1.0 * ndotl, 0.0 + 0.5 * (ga[1] + 0.2) + 0.6 * 0.5 * ndotl,
                              0.1 + 0.5 * (ga[2] + 0.3) + 0.4 * 0.25 * ndotl};
  CHECK(out[0].diffuse.r == doctest::Approx(std::min(expected[0], 1.0)).epsilon(kTol));
  CHECK(out[0].diffuse.g == doctest::Approx(expected[1]).epsilon(kTol));
  CHECK(out[0].diffuse.b == doctest::Approx(expected[2]).epsilon(kTol));
  CHECK(out[0].diffuse.a == doctest::Approx(0.5));  // the diffuse source's alpha
  CHECK(out[0].specular.r == 0.0f);                 // SPECULARENABLE off
}

TEST_CASE("tnl: point light attenuation and range") {
  vertex::TnlState s = base_state();
  s.lighting = TRUE;
  s.material.diffuse = cv(1, 1, 1);
  s.light_count = 1;
  D3DLIGHT7& l = s.lights[0];
  l.dltType = D3DLIGHT_POINT;
  l.dcvDiffuse = cv(1, 1, 1);
  l.dvPosition = {0, 3, 0};
  l.dvRange = 10;
  l.dvAttenuation0 = 0.5f, l.dvAttenuation1 = 0.25f, l.dvAttenuation2 = 0.125f;
  Vb vb;
  vb.f(0).f(0).f(0).f(0).f(1).f(0);    // d = 3, N·L = 1
  vb.f(0).f(-8).f(0).f(0).f(1).f(0);   // d = 11 > range: unlit
  vb.f(4).f(0).f(0).f(0).f(1).f(0);    // d = 5, N·L = 3/5
  const auto out = run(s, D3DFVF_XYZ | D3DFVF_NORMAL, vb, 3);
  auto atten = [](double d) { return 1.0 / (0.5 + 0.25 * d + 0.125 * d * d); };
  CHECK(out[0].diffuse.r == doctest::Approx(atten(3)).epsilon(kTol));
  CHECK(out[1].diffuse.r == doctest::Approx(0.0));
  CHECK(out[2].diffuse.g == doctest::Approx(atten(5) * 0.6).epsilon(kTol));
}

TEST_CASE("tnl: spotlight factor between theta and phi") {
  vertex::TnlState s = base_state();
  s.lighting = TRUE;
  s.material.diffuse = cv(1, 1, 1);
  s.light_count = 1;
  D3DLIGHT7& l = s.lights[0];
  l.dltType = D3DLIGHT_SPOT;
  l.dcvDiffuse = cv(1, 1, 1);
  l.dvPosition = {0, 10, 0};
  l.dvDirection = {0, -1, 0};
  l.dvRange = 100;
  l.dvAttenuation0 = 1;
  l.dvTheta = 0.4f, l.dvPhi = 1.2f, l.dvFalloff = 2.0f;
  // Vertices on the plane y = 0 with normal +y at x = 0 (inside θ/2), x = 3 (between),
  // x = 20 (outside φ/2).
  Vb vb;
  for (float x : {0.0f, 3.0f, 20.0f}) vb.f(x).f(0).f(0).f(0).f(1).f(0);
  const auto out = run(s, D3DFVF_XYZ | D3DFVF_NORMAL, vb, 3);
  auto expected = [](double x) {
    const double d = std::sqrt(x * x + 100), rho = 10 / d;  // ρ = −dir · Ldir
    const double ct = std::cos(0.2), cp = std::cos(0.6);
    const double spot = rho > ct ? 1.0 : rho <= cp ? 0.0 : std::pow((rho - cp) / (ct - cp), 2.0);
    return spot * (10 / d);  // N·Ldir = 10/d, Atten = 1
  };
  CHECK(out[0].diffuse.r == doctest::Approx(expected(0)).epsilon(kTol));
  CHECK(expected(3) > 0.0);
  CHECK(expected(3) < 10 / std::sqrt(109.0));  // really in the falloff band
  CHECK(out[1].diffuse.r == doctest::Approx(expected(3)).epsilon(kTol));
  CHECK(out[2].diffuse.r == doctest::Approx(0.0));
}

TEST_CASE("tnl: material sources COLOR1 / COLOR2 / MATERIAL and COLORVERTEX") {
  vertex::TnlState s = base_state();
  s.lighting = TRUE;
  s.ambient = 0xFFFFFFFF;  // Ga = 1: the ambient colour shows directly
  s.material.diffuse = cv(0.1f, 0.1f, 0.1f);
  s.material.ambient = cv(0.2f, 0.2f, 0.2f);
  s.material.emissive = cv(0, 0, 0);
  s.diffuse_source = D3DMCS_MATERIAL;
  s.ambient_source = D3DMCS_COLOR2;   // the vertex specular colour
  s.emissive_source = D3DMCS_COLOR1;  // the vertex diffuse colour
  const DWORD fvf = D3DFVF_XYZ | D3DFVF_DIFFUSE | D3DFVF_SPECULAR;
  Vb vb;
  vb.f(0).f(0).f(0).u(0xFF330000).u(0xFF000066);
  auto out = run(s, fvf, vb, 1);
  // colour = Ce + Ca·Ga (no lights, no normal) = (0x33, 0, 0)/255 + (0, 0, 0x66)/255.
  CHECK(out[0].diffuse.r == doctest::Approx(0x33 / 255.0).epsilon(kTol));
  CHECK(out[0].diffuse.b == doctest::Approx(0x66 / 255.0).epsilon(kTol));
  CHECK(out[0].diffuse.a == doctest::Approx(1.0));  // material diffuse alpha
  // COLORVERTEX off: every source is the material: Ce + Ca·Ga = 0 + 0.2.
  s.color_vertex = FALSE;
  out = run(s, fvf, vb, 1);
  CHECK(out[0].diffuse.r == doctest::Approx(0.2).epsilon(kTol));
  CHECK(out[0].diffuse.b == doctest::Approx(0.2).epsilon(kTol));
  // Lighting off: the vertex colours pass through.
  s.lighting = FALSE;
  out = run(s, fvf, vb, 1);
  CHECK(out[0].diffuse.r == doctest::Approx(0x33 / 255.0).epsilon(kTol));
  CHECK(out[0].specular.b == doctest::Approx(0x66 / 255.0).epsilon(kTol));
}

TEST_CASE("tnl: specular with and without LOCALVIEWER") {
  vertex::TnlState s = base_state();
  s.lighting = TRUE;
  s.specular_enable = TRUE;
  s.material.specular = cv(1, 1, 1);
  s.material.power = 8.0f;
  s.light_count = 1;
  s.lights[0].dltType = D3DLIGHT_DIRECTIONAL;
  s.lights[0].dcvSpecular = cv(1, 1, 1);
  s.lights[0].dvDirection = {0, 0, 1};  // Ldir = (0, 0, −1): toward the viewer
  Vb vb;
  // A vertex at (2, 0, 4) with normal norm(−1, 0, −2)·(unnormalized) — keep it unit.
  const double nx = -0.3, nz = -std::sqrt(1 - 0.09);
  vb.f(2).f(0).f(4).f(static_cast<float>(nx)).f(0).f(static_cast<float>(nz));
  auto spec = [&](std::array<double, 3> to_eye) {
    // H = norm(E + Ldir); (N·H)^P.
    std::array<double, 3> h{to_eye[0], to_eye[1], to_eye[2] - 1};
    const double len = std::sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    const double ndoth = (nx * h[0] + nz * h[2]) / len;
    return std::pow(ndoth, 8.0);
  };
  s.local_viewer = TRUE;  // E = norm(camera − vertex) = norm(−2, 0, −4)
  auto out = run(s, D3DFVF_XYZ | D3DFVF_NORMAL, vb, 1);
  const double l = std::sqrt(20.0);
  CHECK(out[0].specular.r == doctest::Approx(spec({-2 / l, 0, -4 / l})).epsilon(kTol));
  s.local_viewer = FALSE;  // E = (0, 0, −1)
  out = run(s, D3DFVF_XYZ | D3DFVF_NORMAL, vb, 1);
  CHECK(out[0].specular.r == doctest::Approx(spec({0, 0, -1})).epsilon(kTol));
  CHECK(spec({0, 0, -1}) != doctest::Approx(spec({-2 / l, 0, -4 / l})));
}

TEST_CASE("tnl: non-uniform world scale transforms normals by the inverse-transpose") {
  vertex::TnlState s = base_state();
  s.lighting = TRUE;
  s.normalize_normals = TRUE;
  s.material.diffuse = cv(1, 1, 1);
  s.light_count = 1;
  s.lights[0].dltType = D3DLIGHT_DIRECTIONAL;
  s.lights[0].dcvDiffuse = cv(1, 1, 1);
  s.lights[0].dvDirection = {0, -1, 0};
  Vb vb;
  vb.f(0).f(0).f(0).f(1).f(1).f(0);
  const auto out = run(s, D3DFVF_XYZ | D3DFVF_NORMAL, vb, 1, {scaling(4, 1, 1)});
  // n' = n · (S⁻¹)ᵀ = (1/4, 1, 0), normalized; N·Ldir = n'.y.
  const double expected = 1.0 / std::sqrt(1.0 / 16 + 1);
  CHECK(out[0].diffuse.r == doctest::Approx(expected).epsilon(kTol));
}

TEST_CASE("tnl: vertex fog linear / exp / exp2 and range fog") {
  vertex::TnlState s = base_state();
  s.fog_enable = TRUE;
  s.fog_start = 2, s.fog_end = 12, s.fog_density = 0.1f;
  Vb vb;
  vb.f(3).f(4).f(5);  // eye z = 5, range √50
  const double z = 5, range = std::sqrt(50.0);
  s.fog_vertex_mode = D3DFOG_LINEAR;
  CHECK(run(s, D3DFVF_XYZ, vb, 1)[0].specular.a == doctest::Approx((12 - z) / 10).epsilon(kTol));
  s.range_fog = TRUE;
  CHECK(run(s, D3DFVF_XYZ, vb, 1)[0].specular.a == doctest::Approx((12 - range) / 10).epsilon(kTol));
  s.range_fog = FALSE;
  s.fog_vertex_mode = D3DFOG_EXP;
  CHECK(run(s, D3DFVF_XYZ, vb, 1)[0].specular.a == doctest::Approx(std::exp(-z * 0.1)).epsilon(kTol));
  s.fog_vertex_mode = D3DFOG_EXP2;
  CHECK(run(s, D3DFVF_XYZ, vb, 1)[0].specular.a == doctest::Approx(std::exp(-(z * 0.1) * (z * 0.1))).epsilon(kTol));
  // Table fog takes precedence: no vertex fog factor.
  s.fog_table_mode = D3DFOG_LINEAR;
  CHECK(run(s, D3DFVF_XYZ, vb, 1)[0].specular.a == 1.0f);
}

TEST_CASE("tnl: texture coordinate generation and texture transforms") {
  vertex::TnlState s = base_state();
  s.view = translation(0, 0, 2);
  const DWORD fvf = D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1 | D3DFVF_TEXCOORDSIZE3(0);
  Vb vb;
  vb.f(1).f(2).f(3).f(0).f(0).f(-1).f(0.25f).f(0.5f).f(2.0f);
  s.texcoord_index[0] = D3DTSS_TCI_CAMERASPACEPOSITION;
  s.texcoord_index[1] = D3DTSS_TCI_CAMERASPACENORMAL;
  s.texcoord_index[2] = D3DTSS_TCI_CAMERASPACEREFLECTIONVECTOR;
  s.texcoord_index[3] = 0;  // passthru set 0, COUNT2 with a translation in _31/_32
  s.texture_transform_flags[3] = D3DTTFF_COUNT2;
  s.texture[3] = identity();
  s.texture[3]._31 = 0.5f, s.texture[3]._32 = -0.25f;
  s.texcoord_index[4] = 0;  // COUNT3 | PROJECTED: (u/q, v/q) with q the third
  s.texture_transform_flags[4] = D3DTTFF_COUNT3 | D3DTTFF_PROJECTED;
  s.local_viewer = TRUE;
  const auto out = run(s, fvf, vb, 1, {identity()}, 0x1F);
  CHECK(out[0].tex[0][0] == doctest::Approx(1));
  CHECK(out[0].tex[0][1] == doctest::Approx(2));
  CHECK(out[0].tex[0][2] == doctest::Approx(5));
  CHECK(out[0].tex[1][2] == doctest::Approx(-1));
  // R = U − 2(N·U)N, U = norm(1, 2, 5), N = (0, 0, −1).
  const double l = std::sqrt(30.0), ux = 1 / l, uy = 2 / l, uz = 5 / l, ndotu = -uz;
  CHECK(out[0].tex[2][0] == doctest::Approx(ux).epsilon(kTol));
  CHECK(out[0].tex[2][1] == doctest::Approx(uy).epsilon(kTol));
  CHECK(out[0].tex[2][2] == doctest::Approx(uz - 2 * ndotu * -1).epsilon(kTol));
  // A 3-float set is (u, v, w, 1); (u, v, w, 1)·T with T = identity + _31/_32 gives
  // u' = u + w·0.5, v' = v − w·0.25.
  CHECK(out[0].tex[3][0] == doctest::Approx(0.25 + 2.0 * 0.5).epsilon(kTol));
  CHECK(out[0].tex[3][1] == doctest::Approx(0.5 - 2.0 * 0.25).epsilon(kTol));
  CHECK(out[0].tex[4][0] == doctest::Approx(0.25 / 2.0).epsilon(kTol));
  CHECK(out[0].tex[4][1] == doctest::Approx(0.5 / 2.0).epsilon(kTol));

  // A 2-float set is padded (u, v, 1, 0): the translation row of a 2D texture matrix is _31/_32.
  Vb vb2;
  vb2.f(0).f(0).f(0).f(0.25f).f(0.5f);
  vertex::TnlState s2 = base_state();
  s2.texture_transform_flags[0] = D3DTTFF_COUNT2;
  s2.texture[0] = identity();
  s2.texture[0]._31 = 0.5f;
  s2.texture[0]._41 = 100.0f;  // multiplied by 0: no effect
  const auto out2 = run(s2, D3DFVF_XYZ | D3DFVF_TEX1, vb2, 1, {identity()}, 1);
  CHECK(out2[0].tex[0][0] == doctest::Approx(0.75));
  CHECK(out2[0].tex[0][1] == doctest::Approx(0.5));
}

TEST_CASE("tnl: vertex blending with one weight") {
  vertex::TnlState s = base_state();
  s.vertex_blend = D3DVBF_1WEIGHTS;
  Vb vb;
  vb.f(1).f(1).f(1).f(0.25f);  // XYZB1: weight 0.25 on world 0, 0.75 on world 1
  const D3DMATRIX w0 = translation(4, 0, 0), w1 = translation(0, 8, 0);
  const auto out = run(s, D3DFVF_XYZB1, vb, 1, {w0, w1});
  const auto a = mul({1, 1, 1, 1}, w0), b = mul({1, 1, 1, 1}, w1);
  for (int c = 0; c < 3; ++c) CHECK(out[0].pos[c] == doctest::Approx(0.25 * a[c] + 0.75 * b[c]).epsilon(kTol));
  // Indexed: the UBYTE4 picks matrices 1 and 0 in that order.
  s.indexed_vertex_blend = TRUE;
  Vb vbi;
  vbi.f(1).f(1).f(1).f(0.25f).u(0x00000001u);
  const auto outi = run(s, D3DFVF_XYZB2 | D3DFVF_LASTBETA_UBYTE4, vbi, 1, {w0, w1});
  for (int c = 0; c < 3; ++c) CHECK(outi[0].pos[c] == doctest::Approx(0.25 * b[c] + 0.75 * a[c]).epsilon(kTol));
}

TEST_CASE("tnl: point size and point scale") {
  vertex::TnlState s = base_state();
  s.point_size = 4;
  s.point_scale_enable = TRUE;
  s.point_scale_a = 1, s.point_scale_b = 0.5f, s.point_scale_c = 0.25f;
  s.point_size_min = 0, s.point_size_max = 1000;
  s.viewport_height = 200;
  Vb vb;
  vb.f(0).f(3).f(4);  // De = 5
  const auto out = run(s, D3DFVF_XYZ, vb, 1);
  // Ss = Vh · Si · sqrt(1 / (A + B·De + C·De²)).
  CHECK(out[0].point_size == doctest::Approx(200 * 4 * std::sqrt(1 / (1 + 2.5 + 6.25))).epsilon(kTol));
  s.point_size_max = 10;
  CHECK(run(s, D3DFVF_XYZ, vb, 1)[0].point_size == doctest::Approx(10));
}

namespace {

struct Processed {
  std::vector<raster::Vertex> vertices;
  std::vector<std::uint32_t> indices;
  vertex::ProcessedDraw draw;
};

Processed process(const vertex::TnlState& s, DWORD fvf, const Vb& vb, std::uint32_t count, raster::Topology topology,
                  std::uint32_t primitives, std::vector<D3DMATRIX> worlds = {identity()}) {
  vertex::TnlPrepared p;
  vertex::prepare(s, worlds, p);
  vertex::TnlScratch scratch;
  Processed r;
  REQUIRE(vertex::process(s, p, vertex::viewport_of(s, 0, 0), fvf, ddi::fvf_stride(fvf), vb.bytes, count, topology,
                          primitives, {}, 0, scratch, r.vertices, r.indices, r.draw));
  return r;
}

}  // namespace

TEST_CASE("tnl: a user clip plane splits a triangle into two") {
  vertex::TnlState s = base_state();
  s.clip_plane_enable = 1;
  // World-space plane x ≥ 0.2 after the world moves everything by −0.3 in x: 1·x − 0.2 ≥ 0.
  s.clip_planes[0][0] = 1, s.clip_planes[0][3] = -0.2f;
  Vb vb;
  vb.f(0.0f).f(0.0f).f(0.5f).f(1.0f).f(0.0f).f(0.5f).f(1.0f).f(0.5f).f(0.5f);
  const auto r = process(s, D3DFVF_XYZ, vb, 3, raster::Topology::kTriangleList, 1, {translation(-0.3f, 0, 0)});
  // World x: −0.3, 0.7, 0.7 → one vertex outside; the polygon is a quad = 2 triangles.
  REQUIRE(r.draw.primitive_count == 2);
  CHECK_FALSE(r.draw.same_primitives);
  // The new vertices lie on world x = 0.2, i.e. clip x = 0.2 → screen x = (0.2 + 1)·50 = 60.
  int on_plane = 0;
  for (std::uint32_t i : r.indices)
    if (std::fabs(r.vertices[i].x - 60.0f) < 1e-3f) ++on_plane;
  CHECK(on_plane >= 2);
  // Edge v0→v1 (world (−0.3,0) → (0.7,0)) meets the plane at t = 0.5: clip y = 0 → screen 50.
  // Edge v2→v0 ((0.7,0.5) → (−0.3,0)) at t = 0.5: clip y = 0.25 → screen y = (1 − 0.25)·50 = 37.5.
  bool found_a = false, found_b = false;
  for (const auto& v : r.vertices) {
    if (std::fabs(v.x - 60) < 1e-3f && std::fabs(v.y - 50) < 1e-3f) found_a = true;
    if (std::fabs(v.x - 60) < 1e-3f && std::fabs(v.y - 37.5f) < 1e-3f) found_b = true;
  }
  CHECK(found_a);
  CHECK(found_b);
}

TEST_CASE("tnl: two vertices outside a plane leave one triangle, all outside leave none") {
  vertex::TnlState s = base_state();
  s.clip_plane_enable = 1u << 3;  // plane 3
  s.clip_planes[3][1] = -1, s.clip_planes[3][3] = 0.5f;  // y ≤ 0.5
  Vb vb;
  vb.f(0).f(0).f(0.5f).f(0.5f).f(1).f(0.5f).f(-0.5f).f(1).f(0.5f);
  auto r = process(s, D3DFVF_XYZ, vb, 3, raster::Topology::kTriangleList, 1);
  CHECK(r.draw.primitive_count == 1);
  s.clip_planes[3][3] = -2.0f;  // y ≤ −2: everything outside
  r = process(s, D3DFVF_XYZ, vb, 3, raster::Topology::kTriangleList, 1);
  CHECK(r.draw.primitive_count == 0);
  // CLIPPING off: no clipping at all.
  s.clipping = FALSE;
  r = process(s, D3DFVF_XYZ, vb, 3, raster::Topology::kTriangleList, 1);
  CHECK(r.draw.primitive_count == 1);
  CHECK(r.draw.same_primitives);
}

TEST_CASE("tnl: near-plane clipping in homogeneous space") {
  vertex::TnlState s = base_state();
  s.projection = perspective(3.14159265358979 / 2, 1.0, 1.0, 101.0);
  // One vertex in front of the near plane (z = 0.5 < zn = 1): a quad after clipping.
  Vb vb;
  vb.f(0).f(0).f(0.5f).f(1).f(0).f(5).f(-1).f(0).f(5);
  const auto r = process(s, D3DFVF_XYZ, vb, 3, raster::Topology::kTriangleList, 1);
  REQUIRE(r.draw.primitive_count == 2);
  // The new vertices have clip z = 0 → screen z = MinZ = 0, and w = eye z = zn = 1.
  int near_count = 0;
  for (std::uint32_t i : r.indices)
    if (std::fabs(r.vertices[i].z) < 1e-5f) {
      ++near_count;
      CHECK(r.vertices[i].rhw == doctest::Approx(1.0).epsilon(kTol));
    }
  CHECK(near_count >= 2);
  // Clip lines too: a segment crossing the near plane keeps its visible part.
  const auto line = process(s, D3DFVF_XYZ, vb, 2, raster::Topology::kLineList, 1);
  REQUIRE(line.draw.primitive_count == 1);
  CHECK(line.vertices[line.indices[0]].z == doctest::Approx(0.0).epsilon(kTol));
}

TEST_CASE("tnl: bad input does not crash") {
  vertex::TnlState s = base_state();
  s.lighting = TRUE;
  s.normalize_normals = TRUE;
  s.material.diffuse = cv(1, 1, 1);
  s.light_count = 2;
  s.lights[0].dltType = D3DLIGHT_DIRECTIONAL;
  s.lights[0].dcvDiffuse = cv(1, 1, 1);
  s.lights[0].dvDirection = {0, -1, 0};
  s.lights[1].dltType = D3DLIGHT_POINT;  // range 0: affects nothing
  s.lights[1].dcvDiffuse = cv(1, 1, 1);
  s.lights[1].dcvAmbient = cv(1, 1, 1);
  s.lights[1].dvAttenuation0 = 1;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Vb vb;
  vb.f(0).f(0).f(0.5f).f(0).f(0).f(0);      // zero normal: no diffuse
  vb.f(nan).f(0).f(0.5f).f(0).f(1).f(0);    // NaN position: its triangle is dropped
  vb.f(1).f(inf).f(0.5f).f(0).f(1).f(0);
  const DWORD fvf = D3DFVF_XYZ | D3DFVF_NORMAL;
  const auto lit = run(s, fvf, vb, 1);
  CHECK(lit[0].diffuse.r == 0.0f);  // zero normal, range-0 point light: black
  auto r = process(s, fvf, vb, 3, raster::Topology::kTriangleList, 1);
  CHECK(r.draw.primitive_count == 0);
  // A singular world matrix (scale 0 in z): used as is; its normal matrix is itself.
  r = process(s, fvf, vb, 1, raster::Topology::kPointList, 1, {scaling(1, 1, 0)});
  CHECK(r.draw.primitive_count == 1);
  const D3DMATRIX n = vertex::normal_matrix(scaling(1, 1, 0));
  CHECK(n._33 == 0.0f);
  CHECK(n._11 == 1.0f);
  // A singular projection (all zero): w = 0 everywhere → every primitive dropped.
  s.projection = D3DMATRIX{};
  r = process(s, fvf, vb, 1, raster::Topology::kPointList, 1);
  CHECK(r.draw.primitive_count == 0);
  s.clipping = FALSE;
  r = process(s, fvf, vb, 1, raster::Topology::kPointList, 1);
  CHECK(r.draw.primitive_count == 0);
}

#include "dp2/gpu_commands.h"
#include "gpu/validate.h"

TEST_CASE("tnl: SET_TRANSFORM_LIGHTING is validated by exact size") {
  auto buffer = [](std::uint32_t world_count, std::size_t payload) {
    std::vector<std::byte> b(sizeof(DP2GPU_HEADER) + payload);
    const DP2GPU_HEADER h{DP2GPU_OP_SET_TRANSFORM_LIGHTING, static_cast<std::uint32_t>(b.size())};
    std::memcpy(b.data(), &h, sizeof h);
    vertex::TnlState t;
    t.world_count = world_count;
    if (payload >= sizeof t) std::memcpy(b.data() + sizeof h, &t, sizeof t);
    return b;
  };
  auto check = [](const std::vector<std::byte>& b) {
    return gpu::validate_submission(b, {}, {}, [](std::uint32_t) { return true; });
  };
  CHECK(check(buffer(1, vertex::tnl_encoded_size(1))) == S_OK);
  CHECK(check(buffer(3, vertex::tnl_encoded_size(3))) == S_OK);
  CHECK(check(buffer(3, vertex::tnl_encoded_size(2))) == D3DDDIERR_INVALIDUSERBUFFER);
  CHECK(check(buffer(1, vertex::tnl_encoded_size(1) + 8)) == D3DDDIERR_INVALIDUSERBUFFER);
  CHECK(check(buffer(0, vertex::tnl_encoded_size(0))) == D3DDDIERR_INVALIDINSTRUCTION);
  CHECK(check(buffer(257, vertex::tnl_encoded_size(257))) == D3DDDIERR_INVALIDINSTRUCTION);
  CHECK(check(buffer(1, 8)) == D3DDDIERR_INVALIDUSERBUFFER);
}
