#include "gpu/backend.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "dp2raster/formats.h"
#include "dp2/gpu_commands.h"
#include "gpu/format_map.h"
#include "gpu/validate.h"
#include "state/pipeline_key.h"
#include "vertex/fetch.h"

namespace dp2::gpu {
namespace {

raster::Color color_from_argb(DWORD c) {
  return {static_cast<float>((c >> 16) & 0xFFu) / 255.0f, static_cast<float>((c >> 8) & 0xFFu) / 255.0f,
          static_cast<float>(c & 0xFFu) / 255.0f, static_cast<float>(c >> 24) / 255.0f};
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

// A SURFACE record's image views: its mip chain, resolved from the patched address. An
// unresolvable or unknown-format surface gives no views (count 0).
std::uint32_t resolve_surface(const DP2GPU_SURFACE& s, memory::VideoMemory& memory,
                              std::array<raster::ImageView, raster::kMaxMipLevels>& views) {
  const auto d3d = static_cast<D3DFORMAT>(s.format);
  const auto format = to_raster_format(d3d);
  const auto total = chain_size(d3d, s.width, s.height, s.levels);
  if (s.address == 0 || !format || !total) return 0;
  const std::span<std::byte> bytes = memory.resolve(s.address, *total);
  if (bytes.empty()) return 0;
  std::uint32_t w = s.width, h = s.height;
  std::size_t offset = 0;
  const std::uint32_t levels = std::min(s.levels, raster::kMaxMipLevels);
  for (std::uint32_t l = 0; l < levels; ++l) {
    const auto layout = level_layout(d3d, w, h);
    views[l] = {*format, w, h, static_cast<std::uint32_t>(layout->pitch), bytes.data() + offset};
    offset += layout->size;
    w = std::max(w / 2, 1u);
    h = std::max(h / 2, 1u);
  }
  return levels;
}

}  // namespace

Backend::Backend(unsigned threads, raster::HostExecutor host, raster::Isa isa)
    : host_(host), isa_(isa), renderer_(std::make_unique<raster::Renderer>(threads, host)) {
  renderer_->set_isa(isa_);
  state::StateBlock defaults;
  state::update_derived(defaults, default_key_, default_uniforms_);
}

void Backend::set_threads(unsigned threads) {
  renderer_ = std::make_unique<raster::Renderer>(threads, host_);
  renderer_->set_isa(isa_);
}

void Backend::set_state(std::span<const std::byte> p, memory::VideoMemory& memory, BackendCounters& counters) {
  DP2GPU_SET_STATE st;
  std::memcpy(&st, p.data(), sizeof st);
  // A size of 0 selects Direct3D's default state (a fresh StateBlock's derivation).
  state::PipelineKey k = default_key_;
  state::DrawUniforms u = default_uniforms_;
  if (st.key_size) std::memcpy(&k, p.data() + sizeof st, sizeof k);
  if (st.uniforms_size) std::memcpy(&u, p.data() + sizeof st + st.key_size, sizeof u);
  // Palettes follow in slot order, one per bit of the mask.
  std::array<const std::uint32_t*, 9> palette{};
  std::size_t at = sizeof st + st.key_size + st.uniforms_size;
  for (std::uint32_t slot = 0; slot < 9; ++slot)
    if (st.palette_mask & (1u << slot)) {
      std::array<std::uint32_t, 256>& entries = palettes_.take();
      std::memcpy(entries.data(), p.data() + at, 1024);
      palette[slot] = entries.data();
      at += 1024;
    }
  std::uint64_t bad = 0;
  raster::DrawState& ds = states_.take();
  current_ = &ds;

  std::array<raster::ImageView, raster::kMaxMipLevels> views{};
  if (resolve_surface(st.color, memory, views)) ds.color = views[0];
  if (resolve_surface(st.depth, memory, views)) ds.depth = views[0];
  ds.color_palette = palette[8];
  const bool has_depth = ds.depth.format != raster::Format::kUnknown;
  // Clip: the viewport (the whole target when none was set) ∩ the render target, ∩ the
  // scissor rectangle when the scissor test is on. Pixels outside are never touched, so
  // pre-transformed vertices need no geometric clipping inside the guard band.
  raster::Rect target{0, 0, static_cast<std::int32_t>(ds.color.width), static_cast<std::int32_t>(ds.color.height)};
  if (ds.color.format == raster::Format::kUnknown && has_depth)
    target = {0, 0, static_cast<std::int32_t>(ds.depth.width), static_cast<std::int32_t>(ds.depth.height)};
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
  ds.depth_mode = has_depth ? checked<raster::DepthMode>(k.z_mode, 0, 2, raster::DepthMode::kZ, bad) : raster::DepthMode::kOff;
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
    s.bump = {u.bump[i][0], u.bump[i][1], u.bump[i][2], u.bump[i][3], u.bump[i][4], u.bump[i][5]};
    raster::SamplerState& smp = s.sampler;
    smp.mag = mag_filter(sk.mag_filter, k.dx7_filters);
    smp.min = min_filter(sk.min_filter, k.dx7_filters);
    smp.mip = mip_filter(sk.mip_filter, k.dx7_filters);
    smp.address_u = checked<raster::Address>(sk.address_u, 1, 5, raster::Address::kWrap, bad);
    smp.address_v = checked<raster::Address>(sk.address_v, 1, 5, raster::Address::kWrap, bad);
    smp.address_w = checked<raster::Address>(sk.address_w, 1, 5, raster::Address::kWrap, bad);
    smp.border = color_from_argb(u.border_colors[i]);
    smp.lod_bias = u.lod_bias[i];
    smp.max_mip_level = u.max_mip_level[i];
    smp.color_key = k.color_key != 0;

    const DP2GPU_SURFACE& surface = st.textures[i];
    if (surface.address == 0 && surface.width == 0) continue;  // no texture bound
    raster::TextureView& view = textures_.take();
    view.levels = resolve_surface(surface, memory, view.level);
    if (view.levels == 0) {
      // A surface that cannot be sampled (a format the rasterizer lacks, or memory that
      // did not resolve): the stage samples as if no texture were bound, and it is counted.
      textures_.drop_last();
      counters.missing_textures.fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    view.format = view.level[0].format;
    view.palette = palette[i];
    view.palette_alpha = (st.palette_alpha_mask >> i) & 1u;
    view.has_color_key = (surface.flags & DP2GPU_SURFACE_HAS_COLOR_KEY) != 0;
    view.color_key = surface.color_key;
    s.texture = &view;
    // Legacy D3DTBLEND_MODULATE: a texture without alpha leaves the diffuse alpha.
    if (i == 0 && k.legacy_modulate && !raster::format_info(view.format).has_alpha)
      s.alpha_op = raster::TextureOp::kSelectArg2;
  }
  if (bad) counters.state_values_out_of_range.fetch_add(bad, std::memory_order_relaxed);
}

void Backend::clear(std::span<const std::byte> p) {
  if (!current_) return;
  const raster::DrawState& ds = *current_;
  DP2GPU_CLEAR c;
  std::memcpy(&c, p.data(), sizeof c);
  raster::ClearCommand cmd;
  cmd.color = ds.color;
  cmd.depth = ds.depth;
  cmd.clear_color = (c.flags & D3DCLEAR_TARGET) && ds.color.format != raster::Format::kUnknown;
  const raster::FormatInfo* zinfo =
      ds.depth.format != raster::Format::kUnknown ? &raster::format_info(ds.depth.format) : nullptr;
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
  const auto w = static_cast<std::int32_t>(std::max(ds.color.width, ds.depth.width));
  const auto h = static_cast<std::int32_t>(std::max(ds.color.height, ds.depth.height));
  const raster::Rect target{0, 0, w, h};
  if (c.rect_count == 0) {
    cmd.rect = ds.clip;
    renderer_->clear(cmd);
    return;
  }
  for (std::uint32_t i = 0; i < c.rect_count; ++i) {
    RECT r;
    std::memcpy(&r, p.data() + sizeof c + i * sizeof(RECT), sizeof r);
    cmd.rect = raster::intersect(target, {r.left, r.top, r.right, r.bottom});
    if (c.flags & D3DCLEAR_COMPUTERECTS) cmd.rect = raster::intersect(cmd.rect, ds.clip);
    renderer_->clear(cmd);
  }
}

void Backend::draw(const DrawCommand& c, memory::VideoMemory& memory, BackendCounters& counters) {
  const DP2GPU_DRAW& d = c.draw;
  // A DRAW_BUFFER's vertices where the patched address points: the allocation is pinned
  // while this buffer runs, and an address with too few bytes behind it resolves to none.
  const std::span<const std::byte> vertex_data =
      c.buffered ? memory.resolve(c.vertex_address, c.vertex_bytes) : c.vertices;
  const bool has_target =
      current_ && (current_->color.format != raster::Format::kUnknown || current_->depth.format != raster::Format::kUnknown);
  // Untransformed vertices go through transform, lighting and clipping with the buffer's
  // SET_TRANSFORM_LIGHTING state; without one they are skipped like an unknown format.
  const bool untransformed = vertex::is_untransformed(d.fvf);
  static_assert(DP2GPU_TRIANGLEFAN == static_cast<int>(raster::Topology::kTriangleFan));
  const auto topology = static_cast<raster::Topology>(d.topology);
  // A format fetch does not take fails whatever the vertices (a layout of none tells).
  vertex::PretransformedVertices pretransformed;
  if (!has_target || vertex_data.size() != c.vertex_bytes || (untransformed && !tnl_.valid) ||
      (!untransformed && !vertex::describe_pretransformed(d.fvf, d.stride, vertex_data, d.vertex_count, pretransformed))) {
    counters.draws_skipped.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  indices_.resize(d.index_count);
  if (d.index_count) std::memcpy(indices_.data(), c.indices.data(), c.indices.size());
  edges_.resize(d.edge_count);
  if (d.edge_count) std::memcpy(edges_.data(), c.edge_flags.data(), c.edge_flags.size());
  if (!untransformed) {
    // The render threads fetch the vertices from the buffer while they set the draw up.
    renderer_->draw(*current_, topology, d.primitive_count, vertex::fetcher(pretransformed), indices_, edges_);
    return;
  }
  // TnL writes stage i's coordinates to set i, so the stages read set i.
  if (tnl_.source != current_) {
    raster::DrawState& remapped = states_.take(*current_);
    remapped.texcoord_sets = 0;
    for (std::uint32_t i = 0; i < remapped.stage_count; ++i) {
      remapped.stages[i].texcoord_set = static_cast<std::uint8_t>(i);
      remapped.texcoord_sets = static_cast<std::uint8_t>(remapped.texcoord_sets | (1u << i));
    }
    tnl_.source = current_;
    tnl_.remapped = &remapped;
  }
  const raster::DrawState& ds = *tnl_.remapped;
  if (tnl_.state.viewport_width == 0 || tnl_.state.viewport_height == 0) {
    const bool color = ds.color.format != raster::Format::kUnknown;
    tnl_.state.viewport_x = tnl_.state.viewport_y = 0;
    tnl_.state.viewport_width = color ? ds.color.width : ds.depth.width;
    tnl_.state.viewport_height = color ? ds.color.height : ds.depth.height;
  }
  const vertex::ScreenViewport vp = vertex::viewport_of(tnl_.state, 0, 0);
  vertex::ProcessedDraw out;
  if (!vertex::process(tnl_.state, tnl_.prepared, vp, d.fvf, d.stride, vertex_data, d.vertex_count, topology,
                       d.primitive_count, indices_, ds.texcoord_sets, tnl_.scratch, vertices_, tnl_.indices, out)) {
    counters.draws_skipped.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (out.primitive_count == 0) return;  // everything clipped away
  renderer_->draw(ds, out.topology, out.primitive_count, vertices_, tnl_.indices,
                  out.same_primitives ? std::span<const std::uint32_t>(edges_) : std::span<const std::uint32_t>());
}

void Backend::execute(std::span<const std::byte> commands, memory::VideoMemory& memory, BackendCounters& counters) {
  current_ = nullptr;
  tnl_.reset();
  const raster::RendererStats before = renderer_->stats();
  for_each_command(commands, [&](std::uint32_t op, std::span<const std::byte> payload) {
    switch (op) {
      case DP2GPU_OP_SET_STATE: set_state(payload, memory, counters); break;
      case DP2GPU_OP_DRAW:
      case DP2GPU_OP_DRAW_BUFFER:
        if (const auto draw_command = read_draw(op, payload)) draw(*draw_command, memory, counters);  // validated: always
        break;
      case DP2GPU_OP_CLEAR: clear(payload); break;
      case DP2GPU_OP_SET_TRANSFORM_LIGHTING:
        tnl_.valid = vertex::decode_tnl_state(payload, tnl_.state, tnl_.worlds);
        if (tnl_.valid) vertex::prepare(tnl_.state, tnl_.worlds, tnl_.prepared);
        break;
      default: break;  // NOP, FENCE: nothing to draw
    }
  });
  renderer_->flush();
  const raster::RendererStats& after = renderer_->stats();
  counters.primitives_rejected.fetch_add(after.primitives_rejected - before.primitives_rejected, std::memory_order_relaxed);
  // Validation refuses what the rasterizer would (pitch, size, stage count), so this
  // stays 0 unless the two disagree; then the refused draw or clear is still counted.
  counters.draws_skipped.fetch_add(after.commands_rejected - before.commands_rejected, std::memory_order_relaxed);
  for (std::size_t k = 0; k < raster::kKernelKeyCount; ++k)
    counters.kernel_triangles[k].fetch_add(after.kernel_triangles[k] - before.kernel_triangles[k],
                                           std::memory_order_relaxed);
  counters.buffers_executed.fetch_add(1, std::memory_order_relaxed);
  states_.rewind();
  textures_.rewind();
  palettes_.rewind();
  current_ = nullptr;
  tnl_.reset();
}

}  // namespace dp2::gpu
