#include "gpu/backend.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "dp2raster/formats.h"
#include "gpu/format_map.h"
#include "vertex/fetch.h"

namespace dp2::gpu {
namespace {

raster::Color color_from_argb(DWORD c) {
  return {static_cast<float>((c >> 16) & 0xFFu) / 255.0f, static_cast<float>((c >> 8) & 0xFFu) / 255.0f,
          static_cast<float>(c & 0xFFu) / 255.0f, static_cast<float>(c >> 24) / 255.0f};
}

raster::Topology to_raster(Topology t) {
  switch (t) {
    case Topology::kPointList: return raster::Topology::kPointList;
    case Topology::kLineList: return raster::Topology::kLineList;
    case Topology::kLineStrip: return raster::Topology::kLineStrip;
    case Topology::kTriangleList: return raster::Topology::kTriangleList;
    case Topology::kTriangleStrip: return raster::Topology::kTriangleStrip;
    case Topology::kTriangleFan: return raster::Topology::kTriangleFan;
  }
  return raster::Topology::kTriangleList;
}

// An enum value from the stream, or `fallback` when it is out of the enum's range: a
// state value out of range is ignored as a driver would (the default applies) and counted
// in Diagnostics::state_values_out_of_range.
template <class E>
E checked(std::uint32_t v, std::uint32_t lo, std::uint32_t hi, E fallback, std::uint64_t& out_of_range) {
  if (v >= lo && v <= hi) return static_cast<E>(v);
  ++out_of_range;
  return fallback;
}

// Texture filters: DX7 and older applications use D3DTFG_/D3DTFN_/D3DTFP_ numbering in the
// same slots (STATES.md §3); cubic and anisotropic filters sample as linear.
raster::Filter mag_filter(DWORD v, bool dx7) {
  if (dx7) return v == D3DTFG_POINT ? raster::Filter::kPoint : raster::Filter::kLinear;
  return v <= D3DTEXF_POINT ? raster::Filter::kPoint : raster::Filter::kLinear;
}
raster::Filter min_filter(DWORD v, bool dx7) {
  if (dx7) return v == D3DTFN_POINT ? raster::Filter::kPoint : raster::Filter::kLinear;
  return v <= D3DTEXF_POINT ? raster::Filter::kPoint : raster::Filter::kLinear;
}
raster::Filter mip_filter(DWORD v, bool dx7) {
  if (dx7) return v == D3DTFP_POINT ? raster::Filter::kPoint : v == D3DTFP_LINEAR ? raster::Filter::kLinear : raster::Filter::kNone;
  return v == D3DTEXF_NONE ? raster::Filter::kNone : v == D3DTEXF_POINT ? raster::Filter::kPoint : raster::Filter::kLinear;
}

raster::ImageView image_view(detail::Surface& s, std::uint32_t level = 0) {
  const auto format = to_raster_format(s.desc.format);
  raster::ImageView view;
  if (!format) return view;
  std::uint32_t w = s.desc.width, h = s.desc.height;
  std::size_t offset = 0;
  for (std::uint32_t l = 0; l < level; ++l) {
    offset += detail::level_layout(s.desc.format, w, h)->size;
    w = std::max(w / 2, 1u);
    h = std::max(h / 2, 1u);
  }
  const auto layout = detail::level_layout(s.desc.format, w, h);
  view.format = *format;
  view.width = w;
  view.height = h;
  view.pitch = static_cast<std::uint32_t>(layout->pitch);
  view.data = s.bytes.data() + offset;
  return view;
}

}  // namespace

Backend::Backend(unsigned threads) : renderer_(std::make_unique<raster::Renderer>(threads)) {}

void Backend::set_threads(unsigned threads) { renderer_ = std::make_unique<raster::Renderer>(threads); }

const raster::DrawState* Backend::draw_state(const CommandBuffer& commands, std::uint32_t snapshot, BackendEnv& env) {
  if (snapshot < by_snapshot_.size() && by_snapshot_[snapshot]) return by_snapshot_[snapshot];
  const StateSnapshot& snap = commands.states()[snapshot];
  const state::PipelineKey& k = snap.key;
  const state::DrawUniforms& u = snap.uniforms;
  const state::StateBlock& st = env.state;
  const bool dx7 = env.interface_version <= 3;
  std::uint64_t& bad = env.diagnostics.state_values_out_of_range;
  raster::DrawState& ds = states_.emplace_back();

  detail::Surface* rt = env.surfaces.find(snap.render_target);
  detail::Surface* zb = env.surfaces.find(snap.depth_stencil);
  if (rt) {
    ds.color = image_view(*rt);
    if (rt->desc.format == D3DFMT_P8) {
      const auto p = st.surface_palette.find(snap.render_target);
      if (p != st.surface_palette.end())
        if (const auto pal = st.palettes.find(p->second); pal != st.palettes.end()) ds.color_palette = pal->second.entries.data();
    }
  }
  if (zb) ds.depth = image_view(*zb);
  // Clip: the viewport (the whole target when none was set) ∩ the render target, ∩ the
  // scissor rectangle when the scissor test is on. Pixels outside are never touched, so
  // pre-transformed vertices need no geometric clipping inside the guard band.
  raster::Rect target{0, 0, static_cast<std::int32_t>(ds.color.width), static_cast<std::int32_t>(ds.color.height)};
  if (ds.color.format == raster::Format::kUnknown && zb) target = {0, 0, std::int32_t(ds.depth.width), std::int32_t(ds.depth.height)};
  ds.clip = target;
  if (u.viewport.width != 0 && u.viewport.height != 0) {
    const auto x = static_cast<std::int64_t>(u.viewport.x), y = static_cast<std::int64_t>(u.viewport.y);
    const raster::Rect vp{static_cast<std::int32_t>(std::min<std::int64_t>(x, INT32_MAX)),
                          static_cast<std::int32_t>(std::min<std::int64_t>(y, INT32_MAX)),
                          static_cast<std::int32_t>(std::min<std::int64_t>(x + u.viewport.width, INT32_MAX)),
                          static_cast<std::int32_t>(std::min<std::int64_t>(y + u.viewport.height, INT32_MAX))};
    ds.clip = raster::intersect(ds.clip, vp);
  }
  if (k.scissor) ds.clip = raster::intersect(ds.clip, {u.scissor.left, u.scissor.top, u.scissor.right, u.scissor.bottom});
  ds.min_z = u.zrange.dvMinZ;
  ds.max_z = u.zrange.dvMaxZ;
  if (!(ds.min_z <= ds.max_z)) std::swap(ds.min_z, ds.max_z);

  ds.fill = checked<raster::Fill>(k.fill_mode, 1, 3, raster::Fill::kSolid, bad);
  ds.shade = checked<raster::Shade>(k.shade_mode, 1, 3, raster::Shade::kGouraud, bad);
  ds.cull = checked<raster::Cull>(k.cull_mode, 1, 3, raster::Cull::kCCW, bad);
  ds.last_pixel = k.last_pixel != 0;
  ds.point_size = u.point_size;
  ds.point_size_min = u.point_size_min;
  ds.point_size_max = u.point_size_max;
  ds.depth_mode = zb ? checked<raster::DepthMode>(k.z_mode, 0, 2, raster::DepthMode::kZ, bad) : raster::DepthMode::kOff;
  ds.depth_func = checked<raster::Compare>(k.z_func, 1, 8, raster::Compare::kLessEqual, bad);
  ds.depth_write = k.z_write != 0;
  ds.w_near = u.winfo.dvWNear;
  ds.w_far = u.winfo.dvWFar;
  ds.depth_bias = std::min<DWORD>(u.z_bias, 16);  // D3DRS_ZBIAS is 0–16
  ds.stencil = k.stencil != 0;
  ds.two_sided_stencil = k.two_sided_stencil != 0;
  auto stencil = [&bad](const std::array<DWORD, 4>& ops) {
    return raster::StencilState{checked<raster::Compare>(ops[3], 1, 8, raster::Compare::kAlways, bad),
                                checked<raster::StencilOp>(ops[0], 1, 8, raster::StencilOp::kKeep, bad),
                                checked<raster::StencilOp>(ops[1], 1, 8, raster::StencilOp::kKeep, bad),
                                checked<raster::StencilOp>(ops[2], 1, 8, raster::StencilOp::kKeep, bad)};
  };
  ds.stencil_cw = stencil(u.stencil_ops);
  ds.stencil_ccw = stencil(u.ccw_stencil_ops);
  ds.stencil_ref = u.stencil_ref;
  ds.stencil_mask = u.stencil_mask;
  ds.stencil_write_mask = u.stencil_write_mask;
  ds.alpha_test = k.alpha_test != 0;
  ds.alpha_func = checked<raster::Compare>(k.alpha_func, 1, 8, raster::Compare::kAlways, bad);
  ds.alpha_ref = u.alpha_ref & 0xFFu;
  ds.blend = k.blend != 0;
  ds.src_blend = checked<raster::Blend>(k.src_blend, 1, 15, raster::Blend::kOne, bad);
  ds.dst_blend = checked<raster::Blend>(k.dst_blend, 1, 15, raster::Blend::kZero, bad);
  ds.blend_op = checked<raster::BlendOp>(k.blend_op, 1, 5, raster::BlendOp::kAdd, bad);
  ds.separate_alpha = k.separate_alpha != 0;
  ds.src_blend_alpha = checked<raster::Blend>(k.src_blend_alpha, 1, 15, raster::Blend::kOne, bad);
  ds.dst_blend_alpha = checked<raster::Blend>(k.dst_blend_alpha, 1, 15, raster::Blend::kZero, bad);
  ds.blend_op_alpha = checked<raster::BlendOp>(k.blend_op_alpha, 1, 5, raster::BlendOp::kAdd, bad);
  ds.blend_factor = color_from_argb(u.blend_factor);
  ds.color_write_mask = k.color_write;
  ds.dither = k.dither != 0;
  ds.texture_factor = color_from_argb(u.texture_factor);
  ds.specular = k.specular != 0;
  // COLORKEYENABLE keys texels out; with COLORKEYBLENDENABLE they blend as transparent
  // black instead of discarding the pixel (D3DRENDERSTATETYPE page).
  ds.color_key_kill = k.color_key && !k.color_key_blend;
  for (std::uint32_t i = 0; i < 8; ++i) ds.wrap.set_mask[i] = static_cast<std::uint8_t>(u.wrap[i] & 0xFu);
  ds.fog = k.fog != 0;
  ds.fog_table = checked<raster::FogMode>(k.fog_table_mode, 0, 3, raster::FogMode::kNone, bad);
  // Table fog runs on eye-space w when WINFO describes a perspective projection (an
  // affine one has w = 1 everywhere: WNear = WFar).
  ds.fog_on_w = u.winfo.dvWFar > u.winfo.dvWNear;
  ds.fog_start = u.fog_start;
  ds.fog_end = u.fog_end;
  ds.fog_density = u.fog_density;
  ds.fog_color = color_from_argb(u.fog_color);

  ds.stage_count = std::min<std::uint32_t>(k.active_stages, raster::kMaxTextureStages);
  for (std::uint32_t i = 0; i < ds.stage_count; ++i) {
    const state::StageKey& sk = k.stages[i];
    raster::StageState& s = ds.stages[i];
    // Out of range: the stage's D3D default — MODULATE / SELECTARG1 on stage 0, DISABLE above.
    s.color_op = checked<raster::TextureOp>(sk.color_op, 1, 26, i == 0 ? raster::TextureOp::kModulate : raster::TextureOp::kDisable, bad);
    s.alpha_op = checked<raster::TextureOp>(sk.alpha_op, 1, 26, i == 0 ? raster::TextureOp::kSelectArg1 : raster::TextureOp::kDisable, bad);
    s.color_arg = {sk.color_arg0, sk.color_arg1, sk.color_arg2};
    s.alpha_arg = {sk.alpha_arg0, sk.alpha_arg1, sk.alpha_arg2};
    s.result_arg = sk.result_arg == raster::kArgTemp ? raster::kArgTemp : raster::kArgCurrent;
    s.texcoord_set = sk.texcoord_index;
    ds.texcoord_sets = static_cast<std::uint8_t>(ds.texcoord_sets | (1u << (sk.texcoord_index & 7u)));
    s.bump = {std::bit_cast<float>(st.texture_stage_state(i, D3DTSS_BUMPENVMAT00)),
              std::bit_cast<float>(st.texture_stage_state(i, D3DTSS_BUMPENVMAT01)),
              std::bit_cast<float>(st.texture_stage_state(i, D3DTSS_BUMPENVMAT10)),
              std::bit_cast<float>(st.texture_stage_state(i, D3DTSS_BUMPENVMAT11)),
              std::bit_cast<float>(st.texture_stage_state(i, D3DTSS_BUMPENVLSCALE)),
              std::bit_cast<float>(st.texture_stage_state(i, D3DTSS_BUMPENVLOFFSET))};
    raster::SamplerState& smp = s.sampler;
    smp.mag = mag_filter(sk.mag_filter, dx7);
    smp.min = min_filter(sk.min_filter, dx7);
    smp.mip = mip_filter(sk.mip_filter, dx7);
    smp.address_u = checked<raster::Address>(sk.address_u, 1, 5, raster::Address::kWrap, bad);
    smp.address_v = checked<raster::Address>(sk.address_v, 1, 5, raster::Address::kWrap, bad);
    smp.address_w = checked<raster::Address>(sk.address_w, 1, 5, raster::Address::kWrap, bad);
    smp.border = color_from_argb(u.border_colors[i]);
    smp.lod_bias = u.lod_bias[i];
    smp.max_mip_level = u.max_mip_level[i];
    smp.color_key = k.color_key != 0;

    const DWORD handle = u.textures[i];
    if (handle == 0) continue;
    detail::Surface* tex = env.surfaces.find(handle);
    const auto format = tex ? to_raster_format(tex->desc.format) : std::nullopt;
    if (!tex || !format || tex->desc.kind == SurfaceKind::kVertexBuffer || tex->desc.kind == SurfaceKind::kIndexBuffer ||
        tex->desc.kind == SurfaceKind::kCommandBuffer) {
      // A missing texture handle: the stage samples as if no texture were bound, and the
      // caller can see it counted.
      ++env.diagnostics.missing_textures;
      continue;
    }
    raster::TextureView& view = textures_.emplace_back();
    view.format = *format;
    view.levels = std::min(tex->desc.mip_levels, raster::kMaxMipLevels);
    for (std::uint32_t l = 0; l < view.levels; ++l) view.level[l] = image_view(*tex, l);
    if (tex->desc.format == D3DFMT_P8) {
      if (const auto p = st.surface_palette.find(handle); p != st.surface_palette.end())
        if (const auto pal = st.palettes.find(p->second); pal != st.palettes.end()) {
          view.palette = pal->second.entries.data();
          view.palette_alpha = (pal->second.flags & DDRAWIPAL_ALPHA) != 0;
        }
    }
    view.has_color_key = tex->desc.has_color_key;
    view.color_key = tex->desc.color_key;
    // SETTEXLOD: the most detailed level the texture may use.
    if (const auto lod = st.texture_lod.find(handle); lod != st.texture_lod.end())
      smp.max_mip_level = std::max<std::uint32_t>(smp.max_mip_level, lod->second);
    s.texture = &view;
    // Legacy D3DTBLEND_MODULATE: a texture without alpha leaves the diffuse alpha.
    if (i == 0 && st.legacy_modulate && !raster::format_info(view.format).has_alpha)
      s.alpha_op = raster::TextureOp::kSelectArg2;
  }

  if (by_snapshot_.size() <= snapshot) by_snapshot_.resize(snapshot + 1, nullptr);
  by_snapshot_[snapshot] = &ds;
  return &ds;
}

void Backend::clear(const CommandBuffer& commands, const ClearRecord& c, BackendEnv& env) {
  const raster::DrawState& ds = *draw_state(commands, c.state, env);
  raster::ClearCommand cmd;
  cmd.color = ds.color;
  cmd.depth = ds.depth;
  cmd.clear_color = (c.flags & D3DCLEAR_TARGET) && ds.color.format != raster::Format::kUnknown;
  const raster::FormatInfo* zinfo = ds.depth.format != raster::Format::kUnknown ? &raster::format_info(ds.depth.format) : nullptr;
  cmd.clear_depth = (c.flags & D3DCLEAR_ZBUFFER) && zinfo;
  cmd.clear_stencil = (c.flags & D3DCLEAR_STENCIL) && zinfo && zinfo->stencil_bits > 0;
  if (cmd.clear_color) {
    // dwFillColor is a D3DCOLOR; "display drivers must convert input color values" to the
    // target's format (D3DHAL_DP2CLEAR page). A P8 target takes the palette's nearest entry.
    const raster::Color color = color_from_argb(c.color);
    cmd.color_raw = ds.color.format == raster::Format::kP8
                        ? (ds.color_palette ? raster::nearest_palette_index(ds.color_palette, color) : c.color & 0xFFu)
                        : raster::encode_color(ds.color.format, color);
  }
  if (cmd.clear_depth) cmd.depth_value = raster::depth_from_float(ds.depth.format, c.depth);
  if (cmd.clear_stencil) cmd.stencil_value = c.stencil & ((1u << zinfo->stencil_bits) - 1);
  // Rectangles are clipped to the target; with D3DCLEAR_COMPUTERECTS also to the viewport.
  // No rectangles: the viewport.
  const std::int32_t w = static_cast<std::int32_t>(std::max(ds.color.width, ds.depth.width));
  const std::int32_t h = static_cast<std::int32_t>(std::max(ds.color.height, ds.depth.height));
  const raster::Rect target{0, 0, w, h};
  const auto rects = commands.bytes(c.rects);
  if (rects.empty()) {
    cmd.rect = ds.clip;
    renderer_->clear(cmd);
    return;
  }
  for (std::size_t at = 0; at + sizeof(RECT) <= rects.size(); at += sizeof(RECT)) {
    RECT r;
    std::memcpy(&r, rects.data() + at, sizeof r);
    cmd.rect = raster::intersect(target, {r.left, r.top, r.right, r.bottom});
    if (c.flags & D3DCLEAR_COMPUTERECTS) cmd.rect = raster::intersect(cmd.rect, ds.clip);
    renderer_->clear(cmd);
  }
}

void Backend::draw(const CommandBuffer& commands, const DrawRecord& d, BackendEnv& env) {
  const raster::DrawState& ds = *draw_state(commands, d.state, env);
  if ((ds.color.format == raster::Format::kUnknown && ds.depth.format == raster::Format::kUnknown) ||
      !vertex::fetch_pretransformed(d.fvf, d.stride, commands.bytes(d.vertices), d.vertex_count, vertices_)) {
    ++env.diagnostics.draws_skipped;
    return;
  }
  indices_ = commands.indices(d);
  std::vector<std::uint32_t> edges(d.edge_flags.size / sizeof(std::uint32_t));
  if (!edges.empty()) std::memcpy(edges.data(), commands.bytes(d.edge_flags).data(), d.edge_flags.size);
  renderer_->draw(ds, to_raster(d.topology), d.primitive_count, vertices_, indices_, edges);
}

void Backend::execute(const CommandBuffer& commands, BackendEnv& env) {
  by_snapshot_.assign(commands.states().size(), nullptr);
  const std::uint64_t rejected_before = renderer_->stats().primitives_rejected;
  for (const Record& r : commands.records()) {
    if (const auto* d = std::get_if<DrawRecord>(&r)) draw(commands, *d, env);
    else if (const auto* c = std::get_if<ClearRecord>(&r)) clear(commands, *c, env);
    // CopyRecords (blts, colour fills, mip generation) are counted as not rendered by the
    // front end; the back end does not perform them yet.
  }
  renderer_->flush();
  env.diagnostics.primitives_rejected += renderer_->stats().primitives_rejected - rejected_before;
  states_.clear();
  textures_.clear();
}

}  // namespace dp2::gpu
