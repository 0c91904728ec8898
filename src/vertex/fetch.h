// Vertex fetch: FVF bytes (as the front end copied them) → the rasterizer's screen-space
// vertices. Pre-transformed (D3DFVF_XYZRHW) vertices only; untransformed ones go through
// transform.h.
//
// The layout is decoded once per draw on the GPU worker; the rasterizer's setup chunks
// then fetch the vertices they use through raster::VertexFetch, on the render threads.
#pragma once

#include <cstdint>
#include <span>

#include "dp2/ddi.h"
#include "dp2raster/renderer.h"

namespace dp2::vertex {

// Where each field of a pre-transformed vertex lies (STATES.md §10), and the bytes.
struct PretransformedVertices {
  const std::byte* bytes = nullptr;
  std::uint32_t stride = 0, count = 0;
  DWORD fvf = 0;
  std::uint32_t psize = 0, diffuse = 0, specular = 0, fog = 0;  // byte offsets in a vertex
  std::uint32_t sets = 0;                                         // texture coordinate sets, ≤ 8
  std::uint32_t tex_at[8] = {}, tex_size[8] = {};
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
