// D3DFORMAT ↔ raster::Format: the one table that crosses the wall between the front end
// (D3D names) and the rasterizer (which never includes a D3D header). Used by src/gpu
// when it builds ImageViews / TextureViews, and by the PNG dump. Pure; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "dp2/ddi.h"
#include "dp2raster/types.h"

namespace dp2::gpu {

// The rasterizer format with the same bit layout, or nullopt when the rasterizer has none
// (float, bump-map, YUV, 10-bit formats, and the DDI-only S1D15 / S8D24 / X8D24 /
// X4S4D24, whose stencil sits in the high bits). D3DFMT_D16_LOCKABLE and
// D3DFMT_D32_LOCKABLE map to kD16 / kD32 (same layouts).
std::optional<raster::Format> to_raster_format(D3DFORMAT format) noexcept;

// The D3DFORMAT of a rasterizer format (kD16 → D3DFMT_D16, kD32 → D3DFMT_D32);
// kUnknown and out-of-range values → D3DFMT_UNKNOWN.
D3DFORMAT to_d3d_format(raster::Format format) noexcept;

// Bytes per row and total size of one image level of a D3D surface (rows DWORD-aligned,
// DXTn rows of 4×4 blocks), or nullopt for a format dp2 cannot lay out, or a size that
// overflows. The one place surface layouts are computed: the surface table, the encoder
// and the back end all use it.
struct LevelLayout {
  std::size_t pitch = 0;
  std::size_t size = 0;
};
std::optional<LevelLayout> level_layout(D3DFORMAT format, std::uint32_t width, std::uint32_t height);

// The sum of `levels` level sizes starting at width × height (each level halved, at least
// 1), or nullopt.
std::optional<std::size_t> chain_size(D3DFORMAT format, std::uint32_t width, std::uint32_t height, std::uint32_t levels);

bool is_depth_format_d3d(D3DFORMAT format);

}  // namespace dp2::gpu
