// The driver's state, kept raw as the runtime sends it (STYLE.md §4): 256 render states,
// the texture stage / sampler states, viewport, W range, transforms, lights, material,
// clip planes, palettes, stream and index bindings, shader objects, queries.
//
// Setting a value is cheap: store it, mark a Dirty group. Derived things (the pipeline
// key) are computed lazily by pipeline_key.h, once per draw that needs them.
//
// Thread: the thread running DrawPrimitives2 for the owning context.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "dp2/ddi.h"

namespace dp2::state {

inline constexpr std::uint32_t kRenderStateCount = D3DHAL_MAX_RSTATES;            // 256
inline constexpr std::uint32_t kStageCount = 16;                                  // D3DHAL_SAMPLER_MAXSAMP
inline constexpr std::uint32_t kStatesPerStage = D3DHAL_TSS_STATESPERSTAGE;       // 64
inline constexpr std::uint32_t kTextureStages = D3DHAL_TSS_MAXSTAGES;             // 8 with a colour op
inline constexpr std::uint32_t kMaxClipPlanes = 32;   // D3DHAL_DP2SETCLIPPLANE.dwIndex; DX caps ≤ 32 planes
inline constexpr std::uint32_t kMaxStreams = 16;
inline constexpr std::uint32_t kMaxLights = 4096;     // light indices are runtime-assigned; bound the table

// Groups of state a change can make stale. A field belongs to the group whose derived
// data it feeds; pipeline_key.cpp rebuilds only the groups that are dirty.
enum Dirty : std::uint32_t {
  kDirtyRaster = 1u << 0,        // fill, shade, cull, last pixel, scissor enable
  kDirtyDepth = 1u << 1,         // ZENABLE, ZFUNC, ZWRITEENABLE, ZBIAS, WINFO, ZRANGE
  kDirtyStencil = 1u << 2,
  kDirtyAlphaTest = 1u << 3,
  kDirtyBlend = 1u << 4,         // blend enable, factors, op, colour write mask, dither
  kDirtyFog = 1u << 5,
  kDirtyTextureStages = 1u << 6, // colour/alpha ops and arguments, coordinate indices
  kDirtySamplers = 1u << 7,      // filters, address modes, LOD, bound textures
  kDirtyViewport = 1u << 8,
  kDirtyTransform = 1u << 9,
  kDirtyLighting = 1u << 10,     // lights, material, lighting render states
  kDirtyClipping = 1u << 11,
  kDirtyStreams = 1u << 12,      // stream sources, indices, vertex shader / FVF
  kDirtyTargets = 1u << 13,      // render target / depth buffer
  kDirtyShaders = 1u << 14,
  kDirtyMisc = 1u << 15,         // states no derived data reads yet
  kDirtyAll = 0xFFFFu,
};

// The Dirty group each render state number belongs to (render_state_groups.cpp).
Dirty render_state_group(std::uint32_t state) noexcept;
Dirty texture_stage_state_group(std::uint32_t tss) noexcept;

struct Viewport {
  DWORD x = 0, y = 0, width = 0, height = 0;
};

struct Light {
  bool created = false;
  bool enabled = false;
  bool has_data = false;
  D3DLIGHT7 data{};
};

struct StreamSource {
  enum class Kind : std::uint8_t { kNone, kSurface, kUserMemory } kind = Kind::kNone;
  DWORD surface = 0;  // vertex-buffer handle when kSurface
  DWORD stride = 0;
  DWORD offset = 0;   // SETSTREAMSOURCE2 byte offset
  DWORD divider = 1;  // SETSTREAMSOURCEFREQ
};

struct IndexBinding {
  DWORD surface = 0;
  DWORD stride = 0;  // 2 or 4
};

// A shader, declaration or function object: kept as its tokens so a later issue (or a
// capture) has them; the fixed-function back end does not run them.
struct ShaderObject {
  std::vector<DWORD> declaration;
  std::vector<DWORD> code;
  std::vector<D3DVERTEXELEMENT9> elements;
};

struct Query {
  DWORD type = 0;
  DWORD last_issue_flags = 0;
};

struct Palette {
  std::array<DWORD, 256> entries{};  // PALETTEENTRY as ARGB 8:8:8:8
  DWORD flags = 0;
};

class StateBlock {
 public:
  StateBlock();

  // Returns false when the state number is outside the array (the caller counts it).
  bool set_render_state(std::uint32_t state, DWORD value) noexcept;
  DWORD render_state(std::uint32_t state) const noexcept { return rs_[state % kRenderStateCount]; }
  const std::array<DWORD, kRenderStateCount>& render_states() const noexcept { return rs_; }

  bool set_texture_stage_state(std::uint32_t stage, std::uint32_t tss, DWORD value) noexcept;
  DWORD texture_stage_state(std::uint32_t stage, std::uint32_t tss) const noexcept {
    return tss_[stage % kStageCount][tss % kStatesPerStage];
  }

  std::uint32_t dirty() const noexcept { return dirty_; }
  void mark(std::uint32_t bits) noexcept { dirty_ |= bits; }
  void clear_dirty(std::uint32_t bits) noexcept { dirty_ &= ~bits; }

  // Plain data the executor writes directly (and marks dirty).
  Viewport viewport;
  D3DHAL_DP2WINFO winfo{};
  D3DHAL_DP2ZRANGE zrange{0.0f, 1.0f};
  std::map<DWORD, D3DMATRIX> transforms;  // by D3DTRANSFORMSTATETYPE value; unset = identity
  D3DMATRIX transform_or_identity(DWORD type) const;
  D3DMATERIAL7 material{};
  std::map<DWORD, Light> lights;
  std::array<std::array<float, 4>, kMaxClipPlanes> clip_planes{};
  RECT scissor{0, 0, 0, 0};
  std::map<DWORD, DWORD> texture_lod;      // surface handle → SETTEXLOD
  std::map<DWORD, DWORD> priority;         // surface handle → SETPRIORITY
  std::map<DWORD, Palette> palettes;       // palette handle → entries
  std::map<DWORD, DWORD> surface_palette;  // surface handle → palette handle
  std::array<StreamSource, kMaxStreams> streams{};
  IndexBinding indices;
  DWORD vertex_shader = 0;       // SETVERTEXSHADER / SETVERTEXSHADERDECL: FVF code or handle
  DWORD vertex_shader_func = 0;  // SETVERTEXSHADERFUNC
  DWORD pixel_shader = 0;
  std::map<DWORD, ShaderObject> vertex_shaders, vertex_decls, vertex_funcs, pixel_shaders;
  std::vector<std::array<float, 4>> vs_const_f, ps_const_f;
  std::vector<std::array<std::int32_t, 4>> vs_const_i, ps_const_i;
  std::vector<BOOL> vs_const_b, ps_const_b;
  std::map<DWORD, Query> queries;
  DWORD render_target = 0, depth_stencil = 0;
  std::array<DWORD, 4> render_targets{};  // SETRENDERTARGET2 slots; [0] == render_target
  bool legacy_modulate = false;  // D3DTBLEND_MODULATE mapped onto stage 0 (legacy_states.cpp)
  // The runtime interface of the context (ContextDesc): DX7 and older number texture
  // filters D3DTFG/D3DTFN/D3DTFP (STATES.md §3).
  std::uint32_t interface_version = 3;

 private:
  std::array<DWORD, kRenderStateCount> rs_{};
  std::array<std::array<DWORD, kStatesPerStage>, kStageCount> tss_{};
  std::uint32_t dirty_ = kDirtyAll;
};

D3DMATRIX identity_matrix() noexcept;
D3DMATRIX multiply(const D3DMATRIX& a, const D3DMATRIX& b) noexcept;  // a · b, row vectors

}  // namespace dp2::state
