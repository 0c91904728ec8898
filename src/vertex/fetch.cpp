#include "vertex/fetch.h"

#include <cstdint>

#include "vertex/vertex_bytes.h"

namespace dp2::vertex {
namespace {

// fetch() writes every field but the texture coordinate sets past the FVF's (fetcher()
// says so in VertexFetch::sets); a field added to Vertex must be added there.
static_assert(sizeof(raster::Vertex) == sizeof(float) * (4 + 4 + 4 + 1 + 4 * raster::kMaxTextureCoordSets));

// How far ahead of the vertex being read the fetch asks for the source bytes. A draw's
// vertices are usually read once, straight from a large vertex buffer the GPU reads in
// place (not from cache), and the loads of each vertex otherwise waited for memory: W4's
// fetch spent three quarters of its time on them. 1 KiB is ~50 vertices of W4's 20 bytes,
// enough to cover the memory latency at the fetch's pace. A prefetch never faults, so one
// past the buffer's end is harmless; its address is formed as an integer, not by pointer
// arithmetic past the bytes.
constexpr std::uintptr_t kPrefetchBytes = 1024;

// raster::VertexFetch::fetch. Thread: any render thread (setup chunks).
void fetch(const void* context, std::uint32_t first, std::uint32_t count, raster::Vertex* out) {
  const auto& src = *static_cast<const PretransformedVertices*>(context);
  const DWORD fvf = src.fvf;
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::byte* v = src.bytes + std::size_t{first + k} * src.stride;
    __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(v) + kPrefetchBytes));
    raster::Vertex& o = out[k];
    // Field by field: `o = Vertex{}` compiled to a `rep stos` per vertex, then stores
    // overlapping it, the slowest part of the fetch.
    o.x = load_float(v);
    o.y = load_float(v + 4);
    o.z = load_float(v + 8);
    o.rhw = load_float(v + 12);
    o.point_size = fvf & D3DFVF_PSIZE ? load_float(v + src.at.psize) : 0.0f;
    // Without a diffuse colour, D3D uses opaque white; without a specular colour, black
    // with a fog factor of 1 (no fog).
    // color_from_argb() is inline: the colour stays in registers (returned from an
    // out-of-line call it went through the stack and stalled on store forwarding).
    if (fvf & D3DFVF_DIFFUSE) o.diffuse = color_from_argb(load_dword(v + src.at.diffuse));
    else o.diffuse = {1.0f, 1.0f, 1.0f, 1.0f};
    if (fvf & D3DFVF_SPECULAR) o.specular = color_from_argb(load_dword(v + src.at.specular));
    else o.specular = {0.0f, 0.0f, 0.0f, 1.0f};
    if (fvf & D3DFVF_FOG) o.specular.a = load_float(v + src.at.fog);
    for (std::uint32_t i = 0; i < src.at.sets; ++i) {
      // Missing components read as (u, v, 0, 1).
      o.tex[i] = {0.0f, 0.0f, 0.0f, 1.0f};
      for (std::uint32_t c = 0; c < src.at.tex_size[i]; ++c) o.tex[i][c] = load_float(v + src.at.tex_at[i] + 4 * c);
    }
  }
}

}  // namespace

bool describe_pretransformed(DWORD fvf, std::uint32_t stride, std::span<const std::byte> bytes, std::uint32_t count,
                             PretransformedVertices& out) {
  if ((fvf & 0x400Eu) != D3DFVF_XYZRHW || stride == 0 || ddi::fvf_stride(fvf) > stride) return false;
  if (bytes.size() / stride < count) return false;
  out = {};
  out.bytes = bytes.data();
  out.stride = stride;
  out.count = count;
  out.fvf = fvf;
  out.at = ddi::fvf_offsets(fvf);
  return true;
}

raster::VertexFetch fetcher(const PretransformedVertices& vertices) { return {&vertices, fetch, vertices.count, vertices.at.sets}; }

}  // namespace dp2::vertex
