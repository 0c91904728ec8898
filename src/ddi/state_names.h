// Names of D3DRENDERSTATETYPE and D3DTEXTURESTAGESTATETYPE values, for the disassembler,
// logs and diagnostics. One constexpr list per enum (STYLE.md §3: generate every table
// from one list); lookups are built from the same list at compile time.
//
// Source: shared/reference/STATES.md §1 (render states) and §2 (texture stage states).
// Where DX7, DX8 and DX9 spell a value differently, the newest spelling is used (the DX9
// DDI name from d3dhal.h for values the public DX9 enum dropped), as ddi.h does.
//
// Header-only (constexpr data, no mutable state). Thread: any.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace dp2::ddi {

// How a state's DWORD reads (STATES.md "value type" column), so the disassembler can show
// floats as floats and colours in hex.
enum class StateValueKind : std::uint8_t {
  kDword,  // integer or enum value
  kBool,   // 0 = FALSE, non-zero = TRUE
  kFloat,  // IEEE-754 bit pattern of a float
  kHex,    // D3DCOLOR, masks, flag sets, handles
};

struct StateName {
  std::uint32_t value;
  std::string_view name;  // without the D3DRS_ / D3DRENDERSTATE_ / D3DTSS_ prefix
  StateValueKind kind;
};

namespace state_names_detail {
using enum StateValueKind;

// STATES.md §1. Gaps (0, 42, 63, 96–127, 149, 150, 177, > 209) are undefined.
// 64–95 (STIPPLEPATTERN00..31) are appended by make_render_states() below.
inline constexpr StateName kRenderStatesListed[] = {
    {1, "TEXTUREHANDLE", kHex},
    {2, "ANTIALIAS", kDword},
    {3, "TEXTUREADDRESS", kDword},
    {4, "TEXTUREPERSPECTIVE", kBool},
    {5, "WRAPU", kBool},
    {6, "WRAPV", kBool},
    {7, "ZENABLE", kDword},
    {8, "FILLMODE", kDword},
    {9, "SHADEMODE", kDword},
    {10, "LINEPATTERN", kHex},
    {11, "MONOENABLE", kBool},
    {12, "ROP2", kDword},
    {13, "PLANEMASK", kHex},
    {14, "ZWRITEENABLE", kBool},
    {15, "ALPHATESTENABLE", kBool},
    {16, "LASTPIXEL", kBool},
    {17, "TEXTUREMAG", kDword},
    {18, "TEXTUREMIN", kDword},
    {19, "SRCBLEND", kDword},
    {20, "DESTBLEND", kDword},
    {21, "TEXTUREMAPBLEND", kDword},
    {22, "CULLMODE", kDword},
    {23, "ZFUNC", kDword},
    {24, "ALPHAREF", kHex},
    {25, "ALPHAFUNC", kDword},
    {26, "DITHERENABLE", kBool},
    {27, "ALPHABLENDENABLE", kBool},
    {28, "FOGENABLE", kBool},
    {29, "SPECULARENABLE", kBool},
    {30, "ZVISIBLE", kBool},
    {31, "SUBPIXEL", kBool},
    {32, "SUBPIXELX", kBool},
    {33, "STIPPLEDALPHA", kBool},
    {34, "FOGCOLOR", kHex},
    {35, "FOGTABLEMODE", kDword},
    {36, "FOGSTART", kFloat},
    {37, "FOGEND", kFloat},
    {38, "FOGDENSITY", kFloat},
    {39, "STIPPLEENABLE", kBool},
    {40, "EDGEANTIALIAS", kBool},
    {41, "COLORKEYENABLE", kBool},
    {43, "BORDERCOLOR", kHex},
    {44, "TEXTUREADDRESSU", kDword},
    {45, "TEXTUREADDRESSV", kDword},
    {46, "MIPMAPLODBIAS", kFloat},
    {47, "ZBIAS", kDword},
    {48, "RANGEFOGENABLE", kBool},
    {49, "ANISOTROPY", kDword},
    {50, "FLUSHBATCH", kDword},
    {51, "TRANSLUCENTSORTINDEPENDENT", kBool},
    {52, "STENCILENABLE", kBool},
    {53, "STENCILFAIL", kDword},
    {54, "STENCILZFAIL", kDword},
    {55, "STENCILPASS", kDword},
    {56, "STENCILFUNC", kDword},
    {57, "STENCILREF", kDword},
    {58, "STENCILMASK", kHex},
    {59, "STENCILWRITEMASK", kHex},
    {60, "TEXTUREFACTOR", kHex},
    {61, "EVICTMANAGEDTEXTURES", kBool},
    {62, "SCENECAPTURE", kBool},
    {128, "WRAP0", kHex},
    {129, "WRAP1", kHex},
    {130, "WRAP2", kHex},
    {131, "WRAP3", kHex},
    {132, "WRAP4", kHex},
    {133, "WRAP5", kHex},
    {134, "WRAP6", kHex},
    {135, "WRAP7", kHex},
    {136, "CLIPPING", kBool},
    {137, "LIGHTING", kBool},
    {138, "EXTENTS", kBool},
    {139, "AMBIENT", kHex},
    {140, "FOGVERTEXMODE", kDword},
    {141, "COLORVERTEX", kBool},
    {142, "LOCALVIEWER", kBool},
    {143, "NORMALIZENORMALS", kBool},
    {144, "COLORKEYBLENDENABLE", kBool},
    {145, "DIFFUSEMATERIALSOURCE", kDword},
    {146, "SPECULARMATERIALSOURCE", kDword},
    {147, "AMBIENTMATERIALSOURCE", kDword},
    {148, "EMISSIVEMATERIALSOURCE", kDword},
    {151, "VERTEXBLEND", kDword},
    {152, "CLIPPLANEENABLE", kHex},
    {153, "SOFTWAREVERTEXPROCESSING", kBool},
    {154, "POINTSIZE", kFloat},
    {155, "POINTSIZE_MIN", kFloat},
    {156, "POINTSPRITEENABLE", kBool},
    {157, "POINTSCALEENABLE", kBool},
    {158, "POINTSCALE_A", kFloat},
    {159, "POINTSCALE_B", kFloat},
    {160, "POINTSCALE_C", kFloat},
    {161, "MULTISAMPLEANTIALIAS", kBool},
    {162, "MULTISAMPLEMASK", kHex},
    {163, "PATCHEDGESTYLE", kDword},
    {164, "PATCHSEGMENTS", kFloat},
    {165, "DEBUGMONITORTOKEN", kDword},
    {166, "POINTSIZE_MAX", kFloat},
    {167, "INDEXEDVERTEXBLENDENABLE", kBool},
    {168, "COLORWRITEENABLE", kHex},
    {169, "DELETERTPATCH", kDword},
    {170, "TWEENFACTOR", kFloat},
    {171, "BLENDOP", kDword},
    {172, "POSITIONDEGREE", kDword},
    {173, "NORMALDEGREE", kDword},
    {174, "SCISSORTESTENABLE", kBool},
    {175, "SLOPESCALEDEPTHBIAS", kFloat},
    {176, "ANTIALIASEDLINEENABLE", kBool},
    {178, "MINTESSELLATIONLEVEL", kFloat},
    {179, "MAXTESSELLATIONLEVEL", kFloat},
    {180, "ADAPTIVETESS_X", kFloat},
    {181, "ADAPTIVETESS_Y", kFloat},
    {182, "ADAPTIVETESS_Z", kFloat},
    {183, "ADAPTIVETESS_W", kFloat},
    {184, "ENABLEADAPTIVETESSELLATION", kBool},
    {185, "TWOSIDEDSTENCILMODE", kBool},
    {186, "CCW_STENCILFAIL", kDword},
    {187, "CCW_STENCILZFAIL", kDword},
    {188, "CCW_STENCILPASS", kDword},
    {189, "CCW_STENCILFUNC", kDword},
    {190, "COLORWRITEENABLE1", kHex},
    {191, "COLORWRITEENABLE2", kHex},
    {192, "COLORWRITEENABLE3", kHex},
    {193, "BLENDFACTOR", kHex},
    {194, "SRGBWRITEENABLE", kBool},
    {195, "DEPTHBIAS", kFloat},
    {196, "MAXVERTEXSHADERINST", kHex},
    {197, "MAXPIXELSHADERINST", kHex},
    {198, "WRAP8", kHex},
    {199, "WRAP9", kHex},
    {200, "WRAP10", kHex},
    {201, "WRAP11", kHex},
    {202, "WRAP12", kHex},
    {203, "WRAP13", kHex},
    {204, "WRAP14", kHex},
    {205, "WRAP15", kHex},
    {206, "SEPARATEALPHABLENDENABLE", kBool},
    {207, "SRCBLENDALPHA", kDword},
    {208, "DESTBLENDALPHA", kDword},
    {209, "BLENDOPALPHA", kDword},
};

inline constexpr std::string_view kStipplePatterns[32] = {
    "STIPPLEPATTERN00", "STIPPLEPATTERN01", "STIPPLEPATTERN02", "STIPPLEPATTERN03",
    "STIPPLEPATTERN04", "STIPPLEPATTERN05", "STIPPLEPATTERN06", "STIPPLEPATTERN07",
    "STIPPLEPATTERN08", "STIPPLEPATTERN09", "STIPPLEPATTERN10", "STIPPLEPATTERN11",
    "STIPPLEPATTERN12", "STIPPLEPATTERN13", "STIPPLEPATTERN14", "STIPPLEPATTERN15",
    "STIPPLEPATTERN16", "STIPPLEPATTERN17", "STIPPLEPATTERN18", "STIPPLEPATTERN19",
    "STIPPLEPATTERN20", "STIPPLEPATTERN21", "STIPPLEPATTERN22", "STIPPLEPATTERN23",
    "STIPPLEPATTERN24", "STIPPLEPATTERN25", "STIPPLEPATTERN26", "STIPPLEPATTERN27",
    "STIPPLEPATTERN28", "STIPPLEPATTERN29", "STIPPLEPATTERN30", "STIPPLEPATTERN31",
};

inline constexpr std::size_t kRenderStateCount = std::size(kRenderStatesListed) + 32;

// The listed states plus D3DRENDERSTATE_STIPPLEPATTERN(y) = 64 + y, in value order.
constexpr std::array<StateName, kRenderStateCount> make_render_states() {
  std::array<StateName, kRenderStateCount> out{};
  std::size_t o = 0;
  for (const StateName& s : kRenderStatesListed) {
    if (s.value == 128)
      for (std::uint32_t y = 0; y < 32; ++y) out[o++] = {64 + y, kStipplePatterns[y], kHex};
    out[o++] = s;
  }
  return out;
}

// STATES.md §2. The DDI keeps the texture-stage numbering for the DX9 sampler states.
inline constexpr StateName kTextureStageStates[] = {
    {0, "TEXTUREMAP", kHex},
    {1, "COLOROP", kDword},
    {2, "COLORARG1", kHex},
    {3, "COLORARG2", kHex},
    {4, "ALPHAOP", kDword},
    {5, "ALPHAARG1", kHex},
    {6, "ALPHAARG2", kHex},
    {7, "BUMPENVMAT00", kFloat},
    {8, "BUMPENVMAT01", kFloat},
    {9, "BUMPENVMAT10", kFloat},
    {10, "BUMPENVMAT11", kFloat},
    {11, "TEXCOORDINDEX", kHex},
    {12, "ADDRESS", kDword},
    {13, "ADDRESSU", kDword},
    {14, "ADDRESSV", kDword},
    {15, "BORDERCOLOR", kHex},
    {16, "MAGFILTER", kDword},
    {17, "MINFILTER", kDword},
    {18, "MIPFILTER", kDword},
    {19, "MIPMAPLODBIAS", kFloat},
    {20, "MAXMIPLEVEL", kDword},
    {21, "MAXANISOTROPY", kDword},
    {22, "BUMPENVLSCALE", kFloat},
    {23, "BUMPENVLOFFSET", kFloat},
    {24, "TEXTURETRANSFORMFLAGS", kHex},
    {25, "ADDRESSW", kDword},
    {26, "COLORARG0", kHex},
    {27, "ALPHAARG0", kHex},
    {28, "RESULTARG", kHex},
    {29, "SRGBTEXTURE", kBool},
    {30, "ELEMENTINDEX", kDword},
    {31, "DMAPOFFSET", kDword},
    {32, "CONSTANT", kHex},
};

template <std::size_t N>
constexpr bool sorted_unique(const std::array<StateName, N>& list) {
  for (std::size_t i = 1; i < N; ++i)
    if (list[i - 1].value >= list[i].value) return false;
  return true;
}

}  // namespace state_names_detail

inline constexpr std::array<StateName, state_names_detail::kRenderStateCount> kRenderStateNames =
    state_names_detail::make_render_states();
static_assert(state_names_detail::sorted_unique(kRenderStateNames), "render states in value order");
static_assert(kRenderStateNames.back().value == 209, "D3DRS_BLENDOPALPHA is the last render state");

namespace state_names_detail {
// Dense index (value → row) for values below 256 (D3DHAL_MAX_RSTATES).
constexpr std::array<std::int16_t, 256> make_render_state_index() {
  std::array<std::int16_t, 256> index{};
  for (auto& slot : index) slot = -1;
  for (std::size_t i = 0; i < kRenderStateNames.size(); ++i)
    index[kRenderStateNames[i].value] = static_cast<std::int16_t>(i);
  return index;
}
inline constexpr std::array<std::int16_t, 256> kRenderStateIndex = make_render_state_index();
}  // namespace state_names_detail

// The row for a render state, or nullptr when no header defines it.
[[nodiscard]] constexpr const StateName* find_render_state(std::uint32_t value) noexcept {
  if (value >= 256) return nullptr;
  const int i = state_names_detail::kRenderStateIndex[value];
  return i < 0 ? nullptr : &kRenderStateNames[static_cast<std::size_t>(i)];
}

// The row for a texture stage state (dense 0..32), or nullptr.
[[nodiscard]] constexpr const StateName* find_texture_stage_state(std::uint32_t value) noexcept {
  constexpr auto& list = state_names_detail::kTextureStageStates;
  return value < std::size(list) ? &list[value] : nullptr;
}

[[nodiscard]] constexpr std::span<const StateName> all_render_state_names() noexcept {
  return kRenderStateNames;
}
[[nodiscard]] constexpr std::span<const StateName> all_texture_stage_state_names() noexcept {
  return state_names_detail::kTextureStageStates;
}

namespace state_names_detail {
constexpr bool tss_dense() {
  for (std::size_t i = 0; i < std::size(kTextureStageStates); ++i)
    if (kTextureStageStates[i].value != i) return false;
  return true;
}
static_assert(tss_dense(), "texture stage states are dense 0..32");
static_assert(std::size(kTextureStageStates) == 33, "D3DTSS_MAX_DX9 = 33");
static_assert(find_render_state(7)->name == "ZENABLE");
static_assert(find_render_state(64)->name == "STIPPLEPATTERN00");
static_assert(find_render_state(95)->name == "STIPPLEPATTERN31");
static_assert(find_render_state(42) == nullptr && find_render_state(177) == nullptr);
}  // namespace state_names_detail

}  // namespace dp2::ddi
