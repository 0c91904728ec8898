// The one limits header (STYLE.md §15): every size the rasterizer and the front end agree on.
#pragma once

#include <cstdint>

namespace dp2::raster {

inline constexpr std::uint32_t kMaxTextureStages = 8;     // D3DHAL_TSS_MAXSTAGES
inline constexpr std::uint32_t kMaxSamplers = 16;         // D3DHAL_SAMPLER_MAXSAMP (DX9)
inline constexpr std::uint32_t kMaxTextureCoordSets = 8;  // D3DFVF_TEX8
inline constexpr std::uint32_t kMaxSurfaceDimension = 16384;
inline constexpr std::uint32_t kMaxStreams = 16;          // DX9 vertex streams
inline constexpr std::uint32_t kMaxUserClipPlanes = 6;    // D3DMAXUSERCLIPPLANES (DX7)

// The rasterizer's room version; bumped when the draw-packet format changes.
std::uint32_t packet_format_version() noexcept;

}  // namespace dp2::raster
