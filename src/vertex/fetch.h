// Vertex fetch: FVF bytes (in the command buffer or a vertex buffer) → the rasterizer's screen-space
// vertices. Pre-transformed (D3DFVF_XYZRHW) vertices only; untransformed ones go through
// transform.h.
//
// The layout is decoded once per draw on the GPU worker; the rasterizer's setup chunks
// then fetch the vertices they use through raster::VertexFetch, on the render threads.
#pragma once

#include <cstdint>
#include <span>

#include "ddi/fvf.h"
#include "dp2/ddi.h"
#include "dp2raster/renderer.h"

namespace dp2::vertex {

// Pre-transformed vertices: the bytes, and where each field of a vertex lies.
struct PretransformedVertices {
  const std::byte* bytes = nullptr;
  std::uint32_t stride = 0, count = 0;
  DWORD fvf = 0;
  ddi::FvfOffsets at;
};

// False when the FVF has no pre-transformed position, a vertex is wider than `stride`, or
// `bytes` holds fewer than `count` vertices (nothing can be fetched). A layout check
// alone: count 0 with no bytes.
bool describe_pretransformed(DWORD fvf, std::uint32_t stride, std::span<const std::byte> bytes, std::uint32_t count,
                             PretransformedVertices& out);

// The rasterizer's view of them. Its fetch runs on any render thread, several at once,
// and reads only; `vertices` must outlive the Renderer::draw call.
raster::VertexFetch fetcher(const PretransformedVertices& vertices);

}  // namespace dp2::vertex
