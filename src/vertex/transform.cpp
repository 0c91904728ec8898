#include "vertex/transform.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ddi/fvf.h"
#include "vertex/vertex_bytes.h"

namespace dp2::vertex {
namespace {

using Vec3 = std::array<float, 3>;
using Vec4 = std::array<float, 4>;
using Mat = std::array<std::array<float, 4>, 4>;

constexpr DWORD kPositionMask = 0x400Eu;      // D3DFVF_POSITION_MASK (DX9)
constexpr DWORD kTexCoordIndexMask = 0xFFFFu;  // D3DTSS_TEXCOORDINDEX: low word = set, high word = generation
constexpr DWORD kTexGenMask = 0xFFFF0000u;
constexpr DWORD kTextureCountMask = 0xFFu;     // D3DTSS_TEXTURETRANSFORMFLAGS: COUNT1–4 in the low byte
constexpr DWORD kMaxIndexedBlendMatrices = 4;  // a UBYTE4 carries four matrix indices

Mat to_mat(const D3DMATRIX& m) {
  Mat r;
  std::memcpy(r.data(), &m, sizeof m);
  return r;
}
D3DMATRIX from_mat(const Mat& m) {
  D3DMATRIX r;
  std::memcpy(&r, m.data(), sizeof r);
  return r;
}

float dot3(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3 sub3(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 add3(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec3 scale3(const Vec3& a, float s) { return {a[0] * s, a[1] * s, a[2] * s}; }
float length3(const Vec3& a) { return std::sqrt(dot3(a, a)); }
// A zero-length (or non-finite) vector stays as it is: it then adds nothing to a dot
// product (the "zero-length normal" rule of the issue).
Vec3 normalize3(const Vec3& a) {
  const float len = length3(a);
  return len > 0.0f && std::isfinite(len) ? scale3(a, 1.0f / len) : a;
}
// v · m for a direction (w = 0), using the upper 3×3.
Vec3 transform_dir(const Vec3& v, const Mat& m) {
  return {v[0] * m[0][0] + v[1] * m[1][0] + v[2] * m[2][0], v[0] * m[0][1] + v[1] * m[1][1] + v[2] * m[2][1],
          v[0] * m[0][2] + v[1] * m[1][2] + v[2] * m[2][2]};
}

D3DMATRIX identity() {
  Mat m{};
  for (int i = 0; i < 4; ++i) m[i][i] = 1.0f;
  return from_mat(m);
}

raster::Color color_from_value(const D3DCOLORVALUE& c) { return {c.r, c.g, c.b, c.a}; }
float saturate(float v) { return std::isnan(v) ? 0.0f : std::clamp(v, 0.0f, 1.0f); }

// Byte offsets of an FVF's fields (ddi::fvf_offsets), and how its position reads.
struct Layout : ddi::FvfOffsets {
  std::uint32_t betas = 0;  // floats after XYZ (XYZB1–5)
  bool has_w = false;       // D3DFVF_XYZW
};

Layout layout_of(DWORD fvf) {
  Layout l;
  static_cast<ddi::FvfOffsets&>(l) = ddi::fvf_offsets(fvf);
  l.has_w = (fvf & kPositionMask) == D3DFVF_XYZW;
  const DWORD p = fvf & 0x000Eu;
  l.betas = !l.has_w && p >= D3DFVF_XYZB1 ? (p - D3DFVF_XYZB1) / 2 + 1 : 0;
  return l;
}

// The colour a *MATERIALSOURCE state selects (D3DMATERIALCOLORSOURCE page): a vertex colour
// only with COLORVERTEX on and when the vertex has that colour, else the material's.
raster::Color material_source(DWORD source, const D3DCOLORVALUE& material, bool color_vertex, bool has_diffuse,
                              const raster::Color& diffuse, bool has_specular, const raster::Color& specular) {
  if (color_vertex && source == D3DMCS_COLOR1 && has_diffuse) return diffuse;
  if (color_vertex && source == D3DMCS_COLOR2 && has_specular) return specular;
  return color_from_value(material);
}

// The vertex fog factor (D3DFOGMODE page): LINEAR (end − d)/(end − start), EXP e^(−d·density),
// EXP2 e^(−(d·density)²), clamped to [0, 1].
float fog_factor(DWORD mode, float d, float start, float end, float density) {
  switch (mode) {
    case D3DFOG_LINEAR:
      // start == end: the formula divides by zero; dp2 chooses a step at `end` (no fog
      // before it, full fog from it).
      if (end == start) return d < end ? 1.0f : 0.0f;
      return saturate((end - d) / (end - start));
    case D3DFOG_EXP: return saturate(std::exp(-d * density));
    case D3DFOG_EXP2: return saturate(std::exp(-(d * density) * (d * density)));
    default: return 1.0f;
  }
}

}  // namespace

D3DMATRIX matrix_multiply(const D3DMATRIX& a, const D3DMATRIX& b) noexcept {
  const Mat x = to_mat(a), y = to_mat(b);
  Mat r{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < 4; ++k) sum += x[i][k] * y[k][j];
      r[i][j] = sum;
    }
  return from_mat(r);
}

std::array<float, 4> transform_point(const std::array<float, 4>& v, const D3DMATRIX& matrix) noexcept {
  const Mat m = to_mat(matrix);
  Vec4 r{};
  for (int j = 0; j < 4; ++j) r[j] = v[0] * m[0][j] + v[1] * m[1][j] + v[2] * m[2][j] + v[3] * m[3][j];
  return r;
}

D3DMATRIX normal_matrix(const D3DMATRIX& matrix) noexcept {
  // Normals transform by the inverse-transpose of the 3×3 part. A singular 3×3 (a scale
  // of 0 on some axis) has no inverse: D3D never inverts the world matrix except for
  // normals, and dp2 then uses the matrix itself, so the transform still runs and the
  // normals are merely distorted (no crash, no NaN from a division by 0).
  const Mat m = to_mat(matrix);
  const float a = m[0][0], b = m[0][1], c = m[0][2], d = m[1][0], e = m[1][1], f = m[1][2], g = m[2][0], h = m[2][1],
              i = m[2][2];
  const float c00 = e * i - f * h, c01 = f * g - d * i, c02 = d * h - e * g;
  const float det = a * c00 + b * c01 + c * c02;
  Mat r{};
  r[3][3] = 1.0f;
  if (det == 0.0f || !std::isfinite(det)) {
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x) r[y][x] = m[y][x];
    return from_mat(r);
  }
  const float inv = 1.0f / det;
  // inverse-transpose = cofactor matrix / det.
  r[0] = {c00 * inv, c01 * inv, c02 * inv, 0};
  r[1] = {(c * h - b * i) * inv, (a * i - c * g) * inv, (b * g - a * h) * inv, 0};
  r[2] = {(b * f - c * e) * inv, (c * d - a * f) * inv, (a * e - b * d) * inv, 0};
  return from_mat(r);
}

void prepare(const TnlState& s, std::span<const D3DMATRIX> worlds, TnlPrepared& out) {
  out.view = s.view;
  out.projection = s.projection;
  // One more entry than the worlds: identity · view, for blend indices beyond the matrices
  // the state carries (unset world matrices are identity in D3D).
  out.world.resize(worlds.size() + 1);
  out.world_view.resize(worlds.size() + 1);
  out.normal.resize(worlds.size() + 1);
  for (std::size_t i = 0; i <= worlds.size(); ++i) {
    out.world[i] = i < worlds.size() ? worlds[i] : identity();
    out.world_view[i] = i < worlds.size() ? matrix_multiply(worlds[i], s.view) : s.view;
    out.normal[i] = normal_matrix(out.world_view[i]);
  }
  // Lights are given in world space; lighting runs in camera space.
  const Mat view = to_mat(s.view);
  out.lights.clear();
  for (std::uint32_t i = 0; i < s.light_count && i < kMaxActiveLights; ++i) {
    const D3DLIGHT7& l = s.lights[i];
    TnlPrepared::Light p;
    p.type = static_cast<DWORD>(l.dltType);
    p.diffuse = color_from_value(l.dcvDiffuse);
    p.specular = color_from_value(l.dcvSpecular);
    p.ambient = color_from_value(l.dcvAmbient);
    const Vec4 pos = transform_point({l.dvPosition.x, l.dvPosition.y, l.dvPosition.z, 1.0f}, s.view);
    p.position = {pos[0], pos[1], pos[2]};
    p.direction = normalize3(transform_dir({l.dvDirection.x, l.dvDirection.y, l.dvDirection.z}, view));
    p.range = l.dvRange;
    p.falloff = l.dvFalloff;
    p.att0 = l.dvAttenuation0;
    p.att1 = l.dvAttenuation1;
    p.att2 = l.dvAttenuation2;
    p.cos_half_theta = std::cos(l.dvTheta * 0.5f);
    p.cos_half_phi = std::cos(l.dvPhi * 0.5f);
    out.lights.push_back(p);
  }
}

bool transform_vertices(const TnlState& s, const TnlPrepared& p, DWORD fvf, std::uint32_t stride,
                        std::span<const std::byte> bytes, std::uint32_t count, std::uint8_t stage_mask,
                        std::vector<ClipVertex>& out) {
  if ((fvf & kPositionMask) == D3DFVF_XYZRHW || ddi::fvf_position_size(fvf) == 0 || stride == 0 ||
      ddi::fvf_stride(fvf) > stride || bytes.size() / stride < count || p.world_view.empty())
    return false;
  const Layout l = layout_of(fvf);
  const bool has_normal = (fvf & D3DFVF_NORMAL) != 0, has_diffuse = (fvf & D3DFVF_DIFFUSE) != 0,
             has_specular = (fvf & D3DFVF_SPECULAR) != 0;

  // Vertex blending (D3DVERTEXBLENDFLAGS page): VERTEXBLEND n uses n weights from the
  // vertex and n + 1 matrices, the last weight being 1 − Σ the others. Indexed blending
  // takes the matrix numbers from the last beta (LASTBETA_UBYTE4 bytes 0–3, or
  // LASTBETA_D3DCOLOR read as a colour's r, g, b, a = bytes 2, 1, 0, 3). Weights the FVF
  // does not carry are not used. D3DVBF_TWEENING needs a second position stream, which
  // an FVF cannot carry: it draws unblended (world 0), as does DISABLE.
  const bool indexed = s.indexed_vertex_blend != FALSE && l.betas > 0 &&
                       (fvf & (D3DFVF_LASTBETA_UBYTE4 | D3DFVF_LASTBETA_D3DCOLOR)) != 0;
  const std::uint32_t weight_floats = l.betas - (indexed ? 1u : 0u);
  std::uint32_t weights = 0;
  bool blending = false;
  if (s.vertex_blend >= D3DVBF_1WEIGHTS && s.vertex_blend <= D3DVBF_3WEIGHTS) {
    weights = std::min<std::uint32_t>(s.vertex_blend, weight_floats);
    blending = true;
  } else if (s.vertex_blend == D3DVBF_0WEIGHTS) {
    blending = true;  // one matrix, weight 1 (chosen by index when indexed)
  }
  const std::uint32_t identity_slot = static_cast<std::uint32_t>(p.world_view.size() - 1);
  const std::uint32_t world_count = identity_slot;

  const bool lighting = s.lighting != FALSE;
  const bool color_vertex = s.color_vertex != FALSE;
  const bool specular_on = s.specular_enable != FALSE;
  const bool normalize = s.normalize_normals != FALSE;
  const bool local_viewer = s.local_viewer != FALSE;
  const raster::Color global_ambient = color_from_argb(s.ambient);
  // Vertex fog runs when fog is on and table fog is off (D3DRS_FOGVERTEXMODE page: table
  // fog takes precedence).
  const bool vertex_fog = s.fog_enable != FALSE && s.fog_table_mode == D3DFOG_NONE && s.fog_vertex_mode != D3DFOG_NONE;
  const bool need_normal = lighting || (stage_mask != 0);
  const float viewport_height = static_cast<float>(s.viewport_height);

  out.resize(count);
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::byte* v = bytes.data() + std::size_t{k} * stride;
    ClipVertex& o = out[k];
    o = ClipVertex{};
    const Vec4 position{load_float(v), load_float(v + 4), load_float(v + 8), l.has_w ? load_float(v + 12) : 1.0f};
    const Vec3 normal_in = has_normal ? Vec3{load_float(v + l.normal), load_float(v + l.normal + 4), load_float(v + l.normal + 8)}
                                      : Vec3{0, 0, 0};

    // Blend: camera-space position and normal.
    std::uint32_t matrix[kMaxIndexedBlendMatrices] = {0, 1, 2, 3};
    if (indexed) {
      const std::byte* ib = v + 12 + 4 * (l.betas - 1);
      std::uint8_t b[4];
      std::memcpy(b, ib, 4);
      const bool color = (fvf & D3DFVF_LASTBETA_D3DCOLOR) != 0;
      const std::uint8_t order[4] = {color ? b[2] : b[0], color ? b[1] : b[1], color ? b[0] : b[2], b[3]};
      for (std::uint32_t i = 0; i < 4; ++i) matrix[i] = order[i];
    }
    float weight[kMaxIndexedBlendMatrices] = {1, 0, 0, 0};
    std::uint32_t used = 1;
    if (blending) {
      float sum = 0.0f;
      for (std::uint32_t i = 0; i < weights; ++i) {
        weight[i] = load_float(v + 12 + 4 * i);
        sum += weight[i];
      }
      weight[weights] = 1.0f - sum;
      used = weights + 1;
    }
    Vec4 eye{};
    Vec3 normal{};
    for (std::uint32_t i = 0; i < used; ++i) {
      std::uint32_t slot = blending ? matrix[i] : 0;
      if (slot >= world_count) slot = identity_slot;
      const Vec4 pe = transform_point(position, p.world_view[slot]);
      for (int c = 0; c < 4; ++c) eye[c] += weight[i] * pe[c];
      if (need_normal && has_normal) {
        const Vec3 ne = transform_dir(normal_in, to_mat(p.normal[slot]));
        for (int c = 0; c < 3; ++c) normal[c] += weight[i] * ne[c];
      }
    }
    // NORMALIZENORMALS renormalizes after the transform; a zero-length normal stays zero
    // and so gets no diffuse or specular light.
    if (normalize) normal = normalize3(normal);
    // Camera space with w divided out (w is 1 for XYZ; XYZW may carry another).
    const float inv_w = eye[3] != 0.0f ? 1.0f / eye[3] : 1.0f;
    const Vec3 pc{eye[0] * inv_w, eye[1] * inv_w, eye[2] * inv_w};
    o.pos = transform_point(eye, p.projection);

    // User clip distances: fixed-function user clip planes are in world space (clip.h),
    // so each enabled plane is evaluated on the blended world position Σ wᵢ·(v·Worldᵢ).
    if (s.clipping != FALSE && s.clip_plane_enable != 0) {
      Vec4 world{};
      for (std::uint32_t i = 0; i < used; ++i) {
        std::uint32_t slot = blending ? matrix[i] : 0;
        if (slot >= world_count) slot = identity_slot;
        const Vec4 pw = transform_point(position, p.world[slot]);
        for (int c = 0; c < 4; ++c) world[c] += weight[i] * pw[c];
      }
      for (std::uint32_t i = 0; i < kMaxUserClipPlanes; ++i)
        if (s.clip_plane_enable & (1u << i))
          o.user_distance[i] = s.clip_planes[i][0] * world[0] + s.clip_planes[i][1] * world[1] +
                               s.clip_planes[i][2] * world[2] + s.clip_planes[i][3] * world[3];
    }

    // Colours.
    const raster::Color vd = has_diffuse ? color_from_argb(load_dword(v + l.diffuse)) : raster::Color{1, 1, 1, 1};
    const raster::Color vs = has_specular ? color_from_argb(load_dword(v + l.specular)) : raster::Color{0, 0, 0, 0};
    if (lighting) {
      // D3D9 "Mathematics of Lighting":
      //   Ambient  = Ca · [Ga + Σ Attenᵢ·Spotᵢ·Laᵢ]
      //   Diffuse  = Cd · Σ Ldᵢ·(N·Ldirᵢ)·Attenᵢ·Spotᵢ
      //   Specular = Cs · Σ Lsᵢ·(N·Hᵢ)^P·Attenᵢ·Spotᵢ
      //   colour   = Emissive + Ambient + Diffuse, clamped; alpha = Cd's alpha.
      // A vertex without a normal is lit with N·L = 0 (D3DRS_LIGHTING page: "vertices
      // that do not contain a normal employ a dot product of 0").
      const raster::Color cd = material_source(s.diffuse_source, s.material.diffuse, color_vertex, has_diffuse, vd, has_specular, vs);
      const raster::Color ca = material_source(s.ambient_source, s.material.ambient, color_vertex, has_diffuse, vd, has_specular, vs);
      const raster::Color cs = material_source(s.specular_source, s.material.specular, color_vertex, has_diffuse, vd, has_specular, vs);
      const raster::Color ce = material_source(s.emissive_source, s.material.emissive, color_vertex, has_diffuse, vd, has_specular, vs);
      Vec3 amb{global_ambient.r, global_ambient.g, global_ambient.b}, diff{}, spec{};
      for (const TnlPrepared::Light& light : p.lights) {
        Vec3 ldir;
        float atten = 1.0f, spot = 1.0f;
        if (light.type == D3DLIGHT_DIRECTIONAL) {
          ldir = scale3(light.direction, -1.0f);
        } else if (light.type == D3DLIGHT_POINT || light.type == D3DLIGHT_SPOT) {
          // Range: beyond it, or a range of 0 (or NaN), the light affects nothing.
          const Vec3 to_light = sub3(light.position, pc);
          const float d = length3(to_light);
          if (!(light.range > 0.0f) || !(d <= light.range)) continue;
          // Atten = 1 / (a0 + a1·d + a2·d²). A denominator ≤ 0 (all three 0, which the
          // runtime refuses) or NaN: dp2 chooses "the light affects nothing".
          const float denominator = light.att0 + light.att1 * d + light.att2 * d * d;
          if (!(denominator > 0.0f) || !std::isfinite(denominator)) continue;
          atten = 1.0f / denominator;
          // A vertex exactly at the light has no direction to it: Ldir = 0 (ambient only).
          ldir = d > 0.0f ? scale3(to_light, 1.0f / d) : Vec3{0, 0, 0};
          if (light.type == D3DLIGHT_SPOT) {
            // ρ = norm(−light direction) · Ldir; 1 inside θ/2, 0 outside φ/2, else
            // ((ρ − cos(φ/2)) / (cos(θ/2) − cos(φ/2)))^falloff.
            const float rho = -dot3(light.direction, ldir);
            if (rho > light.cos_half_theta) spot = 1.0f;
            else if (rho <= light.cos_half_phi) spot = 0.0f;
            else spot = std::pow((rho - light.cos_half_phi) / (light.cos_half_theta - light.cos_half_phi), light.falloff);
            if (!std::isfinite(spot)) spot = 0.0f;
          }
        } else {
          continue;  // PARALLELPOINT (DX7) and unknown types: not lit
        }
        const float factor = atten * spot;
        amb = add3(amb, scale3({light.ambient.r, light.ambient.g, light.ambient.b}, factor));
        const float n_dot_l = has_normal ? dot3(normal, ldir) : 0.0f;
        if (!(n_dot_l > 0.0f)) continue;  // no diffuse, and (dp2's choice) no specular, from behind
        diff = add3(diff, scale3({light.diffuse.r, light.diffuse.g, light.diffuse.b}, n_dot_l * factor));
        if (specular_on) {
          // H = norm(norm(Cp − Vp) + Ldir) with LOCALVIEWER (camera at the origin), else
          // norm((0, 0, −1) + Ldir): the DirectX 8 "Specular Formula" page; the D3D9 page
          // prints (0, 0, 1), but the direction to a distant viewer looking down +z in
          // D3D's left-handed camera space is (0, 0, −1), as LOCALVIEWER's own vector is.
          const Vec3 to_eye = local_viewer ? normalize3(scale3(pc, -1.0f)) : Vec3{0, 0, -1};
          const Vec3 h = normalize3(add3(to_eye, ldir));
          const float n_dot_h = dot3(normal, h);
          if (n_dot_h > 0.0f) {
            const float sp = std::pow(n_dot_h, s.material.power) * factor;
            if (std::isfinite(sp)) spec = add3(spec, scale3({light.specular.r, light.specular.g, light.specular.b}, sp));
          }
        }
      }
      o.diffuse = {saturate(ce.r + ca.r * amb[0] + cd.r * diff[0]), saturate(ce.g + ca.g * amb[1] + cd.g * diff[1]),
                   saturate(ce.b + ca.b * amb[2] + cd.b * diff[2]), saturate(cd.a)};
      o.specular = specular_on ? raster::Color{saturate(cs.r * spec[0]), saturate(cs.g * spec[1]), saturate(cs.b * spec[2]), 1.0f}
                               : raster::Color{0, 0, 0, 1.0f};
    } else {
      // Unlit: the vertex colours pass through (white / black without them).
      o.diffuse = vd;
      o.specular = has_specular ? vs : raster::Color{0, 0, 0, 1.0f};
    }

    // Fog factor into specular alpha. Without vertex fog it is the vertex's specular alpha
    // unlit (a fog value supplied by the application), else 1 (no fog).
    if (vertex_fog) {
      const float d = s.range_fog != FALSE ? length3(pc) : std::fabs(pc[2]);
      o.specular.a = fog_factor(s.fog_vertex_mode, d, s.fog_start, s.fog_end, s.fog_density);
    } else if (lighting || !has_specular) {
      o.specular.a = 1.0f;
    }

    // Point size: the vertex's PSIZE, else POINTSIZE; with POINTSCALEENABLE,
    // Ss = Vh · Si · sqrt(1 / (A + B·De + C·De²)) with De the eye distance ("Point
    // Sprites"); clamped to [POINTSIZE_MIN, POINTSIZE_MAX]. A non-positive or NaN
    // denominator leaves the size unscaled (dp2's choice).
    float size = (fvf & D3DFVF_PSIZE) ? load_float(v + l.psize) : s.point_size;
    if (s.point_scale_enable != FALSE) {
      const float de = length3(pc);
      const float denominator = s.point_scale_a + s.point_scale_b * de + s.point_scale_c * de * de;
      if (denominator > 0.0f && std::isfinite(denominator)) size = viewport_height * size * std::sqrt(1.0f / denominator);
    }
    if (std::isfinite(size)) size = std::clamp(size, std::min(s.point_size_min, s.point_size_max), s.point_size_max);
    o.point_size = std::isfinite(size) && size > 0.0f ? size : 0.0f;

    // Texture coordinates, per stage (D3DTSS_TEXCOORDINDEX, D3DTSS_TEXTURETRANSFORMFLAGS).
    for (std::uint32_t stage = 0; stage < kTnlTextureStages; ++stage) {
      if (!(stage_mask & (1u << stage))) continue;
      const DWORD tci = s.texcoord_index[stage];
      Vec4 in{0, 0, 0, 0};
      std::uint32_t components = 0;
      switch (tci & kTexGenMask) {
        case D3DTSS_TCI_CAMERASPACENORMAL:
          in = {normal[0], normal[1], normal[2], 1.0f};
          components = 3;
          break;
        case D3DTSS_TCI_CAMERASPACEPOSITION:
          in = {pc[0], pc[1], pc[2], 1.0f};
          components = 3;
          break;
        case D3DTSS_TCI_CAMERASPACEREFLECTIONVECTOR:
        case D3DTSS_TCI_SPHEREMAP: {
          // R = U − 2(N·U)N with U the unit vector from the eye to the vertex (LOCALVIEWER),
          // else (0, 0, 1), the viewing direction.
          const Vec3 u = local_viewer ? normalize3(pc) : Vec3{0, 0, 1};
          const Vec3 r = sub3(u, scale3(normal, 2.0f * dot3(normal, u)));
          if ((tci & kTexGenMask) == D3DTSS_TCI_SPHEREMAP) {
            // The classic sphere map: m = 2·sqrt(Rx² + Ry² + (Rz − 1)²) for a viewer
            // looking down +z; (Rx/m + ½, −Ry/m + ½). A guess at the D3D9-only mode.
            const float m = 2.0f * std::sqrt(r[0] * r[0] + r[1] * r[1] + (r[2] - 1.0f) * (r[2] - 1.0f));
            in = m > 0.0f ? Vec4{r[0] / m + 0.5f, -r[1] / m + 0.5f, 1.0f, 0.0f} : Vec4{0.5f, 0.5f, 1.0f, 0.0f};
            components = 2;
          } else {
            in = {r[0], r[1], r[2], 1.0f};
            components = 3;
          }
          break;
        }
        default: {
          // PASSTHRU: the set the low word names. Missing components are padded as D3D
          // does — the one after the last given is 1, the rest 0 — so a 2D coordinate is
          // (u, v, 1, 0) and its texture-matrix translation sits in _31/_32 (the rule
          // Wine's wined3d documents for Direct3D texture matrices).
          const std::uint32_t set = tci & kTexCoordIndexMask;
          if (set < l.sets) {
            components = l.tex_size[set];
            for (std::uint32_t c = 0; c < components; ++c) in[c] = load_float(v + l.tex_at[set] + 4 * c);
            if (components < 4) in[components] = 1.0f;
          }
          break;
        }
      }
      const DWORD flags = s.texture_transform_flags[stage];
      const std::uint32_t out_count = flags & kTextureCountMask;
      Vec4 t = in;
      if (out_count >= D3DTTFF_COUNT1 && out_count <= D3DTTFF_COUNT4) {
        t = transform_point(in, s.texture[stage]);
        for (std::uint32_t c = out_count; c < 4; ++c) t[c] = 0.0f;
        if (flags & D3DTTFF_PROJECTED) {
          // Divided per vertex: the rasterizer has no per-pixel q division yet, so this
          // is exact only when q is constant across the primitive. q = 0 (or NaN):
          // left undivided (dp2's choice).
          const float q = t[out_count - 1];
          if (q != 0.0f && std::isfinite(q))
            for (std::uint32_t c = 0; c + 1 < out_count; ++c) t[c] /= q;
        }
      } else if (components == 0) {
        t = {0, 0, 0, 0};
      }
      o.tex[stage] = t;
    }
  }
  return true;
}

}  // namespace dp2::vertex
