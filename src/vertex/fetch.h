// Vertex fetch: FVF bytes (as the front end copied them) → the rasterizer's screen-space
// vertices. Pre-transformed (D3DFVF_XYZRHW) vertices only; the transform-and-lighting
// issue adds untransformed ones here.
//
// Thread: the device's, while it executes a command buffer.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "dp2/ddi.h"
#include "dp2raster/pipeline.h"

namespace dp2::vertex {

// False when the FVF has no pre-transformed position (nothing is fetched).
bool fetch_pretransformed(DWORD fvf, std::uint32_t stride, std::span<const std::byte> bytes,
                          std::uint32_t count, std::vector<raster::Vertex>& out);

}  // namespace dp2::vertex
