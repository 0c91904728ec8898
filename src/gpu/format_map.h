// D3DFORMAT ↔ raster::Format: the one table that crosses the wall between the front end
// (D3D names) and the rasterizer (which never includes a D3D header). Used by src/gpu
// when it builds ImageViews / TextureViews, and by the PNG dump. Pure; thread-safe.
#pragma once

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

}  // namespace dp2::gpu
