#include "device/surface_table.h"

#include <algorithm>

#include "ddi/reader.h"

namespace dp2::detail {

memory::AllocationDesc allocation_desc(const Surface& surface) {
  memory::AllocationDesc d;
  d.format = static_cast<std::uint32_t>(surface.desc.format);
  d.width = surface.desc.width;
  d.height = surface.desc.height;
  d.pitch = surface.pitch;
  d.slice_pitch = surface.slice_pitch;
  d.size = surface.desc.size_bytes;
  const SurfaceKind kind = surface.desc.kind;
  d.cpu_only = kind == SurfaceKind::kVertexBuffer || kind == SurfaceKind::kIndexBuffer || kind == SurfaceKind::kCommandBuffer;
  return d;
}

HRESULT SurfaceTable::create(DWORD handle, const SurfaceDesc& desc) {
  if (handle == 0 || surfaces_.contains(handle)) return E_INVALIDARG;
  Surface surface;
  surface.desc = desc;
  std::size_t size = 0;
  switch (desc.kind) {
    case SurfaceKind::kVertexBuffer:
    case SurfaceKind::kIndexBuffer:
    case SurfaceKind::kCommandBuffer:
      // An empty buffer still gets one byte of storage, so its allocation exists.
      size = desc.size_bytes ? desc.size_bytes : 1;
      break;
    case SurfaceKind::kRenderTarget:
    case SurfaceKind::kDepthStencil:
    case SurfaceKind::kTexture: {
      if (desc.width == 0 || desc.height == 0 || desc.mip_levels == 0 || desc.mip_levels > 16) return E_INVALIDARG;
      if ((desc.kind == SurfaceKind::kDepthStencil) != gpu::is_depth_format_d3d(desc.format) &&
          !(desc.kind == SurfaceKind::kTexture && gpu::is_depth_format_d3d(desc.format)))
        return E_INVALIDARG;
      const auto level0 = gpu::level_layout(desc.format, desc.width, desc.height);
      const auto chain = gpu::chain_size(desc.format, desc.width, desc.height, desc.mip_levels);
      if (!level0 || !chain) return E_INVALIDARG;
      surface.pitch = static_cast<std::uint32_t>(level0->pitch);
      size = *chain;
      break;
    }
  }
  if (size > kMaxSurfaceBytes) return E_OUTOFMEMORY;
  surface.desc.size_bytes = size;
  surface.slice_pitch = static_cast<std::uint32_t>(size);
  surface.allocation = memory_.create(allocation_desc(surface));
  if (surface.allocation == 0) return E_OUTOFMEMORY;
  surfaces_.emplace(handle, std::move(surface));
  return D3D_OK;
}

HRESULT SurfaceTable::destroy(DWORD handle) {
  const auto it = surfaces_.find(handle);
  if (it == surfaces_.end()) return E_INVALIDARG;
  // Freed once queued work no longer uses them (VideoMemory defers).
  memory_.destroy(it->second.allocation);
  for (memory::AllocationHandle cookie : it->second.cookies) memory_.destroy(cookie);
  surfaces_.erase(it);
  return D3D_OK;
}

Surface* SurfaceTable::find(DWORD handle) noexcept {
  const auto it = surfaces_.find(handle);
  return it == surfaces_.end() ? nullptr : &it->second;
}

const Surface* SurfaceTable::find(DWORD handle) const noexcept {
  const auto it = surfaces_.find(handle);
  return it == surfaces_.end() ? nullptr : &it->second;
}

std::span<std::byte> SurfaceTable::bytes(const Surface& surface) const {
  const std::span<std::byte> all = memory_.bytes(surface.allocation);
  return all.first(std::min<std::size_t>(all.size(), surface.desc.size_bytes));
}

bool SurfaceTable::grow(DWORD handle, std::size_t new_size, bool rename_if_busy) {
  Surface* s = find(handle);
  if (!s || new_size > kMaxSurfaceBytes) return false;
  if (new_size <= s->desc.size_bytes) {
    if (!rename_if_busy || !memory_.busy(s->allocation)) return true;
    new_size = s->desc.size_bytes;
  }
  Surface grown = *s;
  grown.desc.size_bytes = new_size;
  grown.slice_pitch = static_cast<std::uint32_t>(new_size);
  const memory::AllocationHandle fresh = memory_.create(allocation_desc(grown));
  if (fresh == 0) return false;
  memory_.destroy(s->allocation);
  s->allocation = fresh;
  s->desc.size_bytes = new_size;
  s->slice_pitch = grown.slice_pitch;
  return true;
}

}  // namespace dp2::detail
