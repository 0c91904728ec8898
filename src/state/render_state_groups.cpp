// Which derived data each render state and texture stage state feeds. One list per kind;
// the lookup tables are built from it at compile time (STYLE.md: no parallel tables).
#include <array>
#include <utility>

#include "state/state_block.h"

namespace dp2::state {
namespace {

constexpr std::pair<std::uint32_t, Dirty> kRenderStateGroups[] = {
    {D3DRS_FILLMODE, kDirtyRaster}, {D3DRS_SHADEMODE, kDirtyRaster}, {D3DRS_CULLMODE, kDirtyRaster},
    {D3DRS_LASTPIXEL, kDirtyRaster}, {D3DRS_SCISSORTESTENABLE, kDirtyRaster},
    {D3DRS_ANTIALIASEDLINEENABLE, kDirtyRaster}, {D3DRS_LINEPATTERN, kDirtyRaster},
    {D3DRS_POINTSIZE, kDirtyRaster}, {D3DRS_POINTSIZE_MIN, kDirtyRaster}, {D3DRS_POINTSIZE_MAX, kDirtyRaster},
    {D3DRS_ZENABLE, kDirtyDepth}, {D3DRS_ZFUNC, kDirtyDepth}, {D3DRS_ZWRITEENABLE, kDirtyDepth},
    {D3DRS_ZBIAS, kDirtyDepth}, {D3DRS_SLOPESCALEDEPTHBIAS, kDirtyDepth},
    {D3DRS_STENCILENABLE, kDirtyStencil}, {D3DRS_STENCILFAIL, kDirtyStencil},
    {D3DRS_STENCILZFAIL, kDirtyStencil}, {D3DRS_STENCILPASS, kDirtyStencil},
    {D3DRS_STENCILFUNC, kDirtyStencil}, {D3DRS_STENCILREF, kDirtyStencil},
    {D3DRS_STENCILMASK, kDirtyStencil}, {D3DRS_STENCILWRITEMASK, kDirtyStencil},
    {D3DRS_TWOSIDEDSTENCILMODE, kDirtyStencil}, {D3DRS_CCW_STENCILFAIL, kDirtyStencil},
    {D3DRS_CCW_STENCILZFAIL, kDirtyStencil}, {D3DRS_CCW_STENCILPASS, kDirtyStencil},
    {D3DRS_CCW_STENCILFUNC, kDirtyStencil},
    {D3DRS_ALPHATESTENABLE, kDirtyAlphaTest}, {D3DRS_ALPHAREF, kDirtyAlphaTest},
    {D3DRS_ALPHAFUNC, kDirtyAlphaTest},
    {D3DRS_ALPHABLENDENABLE, kDirtyBlend}, {D3DRS_SRCBLEND, kDirtyBlend}, {D3DRS_DESTBLEND, kDirtyBlend},
    {D3DRS_BLENDOP, kDirtyBlend}, {D3DRS_COLORWRITEENABLE, kDirtyBlend}, {D3DRS_DITHERENABLE, kDirtyBlend},
    {D3DRS_SEPARATEALPHABLENDENABLE, kDirtyBlend}, {D3DRS_SRCBLENDALPHA, kDirtyBlend},
    {D3DRS_DESTBLENDALPHA, kDirtyBlend}, {D3DRS_BLENDOPALPHA, kDirtyBlend}, {D3DRS_BLENDFACTOR, kDirtyBlend},
    {D3DRS_FOGENABLE, kDirtyFog}, {D3DRS_FOGCOLOR, kDirtyFog}, {D3DRS_FOGTABLEMODE, kDirtyFog},
    {D3DRS_FOGSTART, kDirtyFog}, {D3DRS_FOGEND, kDirtyFog}, {D3DRS_FOGDENSITY, kDirtyFog},
    {D3DRS_RANGEFOGENABLE, kDirtyFog}, {D3DRS_FOGVERTEXMODE, kDirtyFog},
    {D3DRS_SPECULARENABLE, kDirtyTextureStages}, {D3DRS_TEXTUREFACTOR, kDirtyTextureStages},
    {D3DRENDERSTATE_TEXTUREMAPBLEND, kDirtyTextureStages}, {D3DRENDERSTATE_TEXTUREHANDLE, kDirtySamplers},
    {D3DRENDERSTATE_COLORKEYENABLE, kDirtySamplers}, {D3DRENDERSTATE_COLORKEYBLENDENABLE, kDirtySamplers},
    {D3DRS_WRAP0, kDirtySamplers}, {D3DRS_WRAP1, kDirtySamplers}, {D3DRS_WRAP2, kDirtySamplers},
    {D3DRS_WRAP3, kDirtySamplers}, {D3DRS_WRAP4, kDirtySamplers}, {D3DRS_WRAP5, kDirtySamplers},
    {D3DRS_WRAP6, kDirtySamplers}, {D3DRS_WRAP7, kDirtySamplers},
    {D3DRS_LIGHTING, kDirtyLighting}, {D3DRS_AMBIENT, kDirtyLighting}, {D3DRS_COLORVERTEX, kDirtyLighting},
    {D3DRS_LOCALVIEWER, kDirtyLighting}, {D3DRS_NORMALIZENORMALS, kDirtyLighting},
    {D3DRS_DIFFUSEMATERIALSOURCE, kDirtyLighting}, {D3DRS_SPECULARMATERIALSOURCE, kDirtyLighting},
    {D3DRS_AMBIENTMATERIALSOURCE, kDirtyLighting}, {D3DRS_EMISSIVEMATERIALSOURCE, kDirtyLighting},
    {D3DRS_VERTEXBLEND, kDirtyTransform}, {D3DRS_INDEXEDVERTEXBLENDENABLE, kDirtyTransform},
    {D3DRS_TWEENFACTOR, kDirtyTransform},
    {D3DRS_CLIPPING, kDirtyClipping}, {D3DRS_CLIPPLANEENABLE, kDirtyClipping},
};

constexpr std::array<Dirty, kRenderStateCount> make_render_state_table() {
  std::array<Dirty, kRenderStateCount> table{};
  for (auto& g : table) g = kDirtyMisc;
  for (const auto& [state, group] : kRenderStateGroups) table[state] = group;
  return table;
}
constexpr auto kRenderStateTable = make_render_state_table();

constexpr std::pair<std::uint32_t, Dirty> kStageStateGroups[] = {
    {D3DTSS_TEXTUREMAP, kDirtySamplers},
    {D3DTSS_ADDRESSU, kDirtySamplers}, {D3DTSS_ADDRESSV, kDirtySamplers}, {D3DTSS_ADDRESSW, kDirtySamplers},
    {D3DTSS_ADDRESS, kDirtySamplers}, {D3DTSS_BORDERCOLOR, kDirtySamplers},
    {D3DTSS_MAGFILTER, kDirtySamplers}, {D3DTSS_MINFILTER, kDirtySamplers}, {D3DTSS_MIPFILTER, kDirtySamplers},
    {D3DTSS_MIPMAPLODBIAS, kDirtySamplers}, {D3DTSS_MAXMIPLEVEL, kDirtySamplers},
    {D3DTSS_MAXANISOTROPY, kDirtySamplers},
    {D3DTSS_TEXTURETRANSFORMFLAGS, kDirtyTransform},
};

constexpr std::array<Dirty, kStatesPerStage> make_stage_table() {
  std::array<Dirty, kStatesPerStage> table{};
  for (auto& g : table) g = kDirtyTextureStages;
  for (const auto& [tss, group] : kStageStateGroups) table[tss] = group;
  return table;
}
constexpr auto kStageTable = make_stage_table();

}  // namespace

Dirty render_state_group(std::uint32_t state) noexcept {
  return state < kRenderStateCount ? kRenderStateTable[state] : kDirtyMisc;
}

Dirty texture_stage_state_group(std::uint32_t tss) noexcept {
  return tss < kStatesPerStage ? kStageTable[tss] : kDirtyTextureStages;
}

}  // namespace dp2::state
