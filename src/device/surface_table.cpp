#include "device/surface_table.h"

#include <new>

#include "ddi/reader.h"

namespace dp2::detail {
namespace {

// Bits per pixel of the formats a surface can have; 0 = block-compressed or unsupported.
std::uint32_t bits_per_pixel(D3DFORMAT f) {
  switch (f) {
    case D3DFMT_A8R8G8B8: case D3DFMT_X8R8G8B8: case D3DFMT_A8B8G8R8: case D3DFMT_X8B8G8R8:
    case D3DFMT_A2B10G10R10: case D3DFMT_A2R10G10B10: case D3DFMT_G16R16: case D3DFMT_X8L8V8U8:
    case D3DFMT_Q8W8V8U8: case D3DFMT_V16U16: case D3DFMT_D32: case D3DFMT_D24S8: case D3DFMT_S8D24:
    case D3DFMT_D24X8: case D3DFMT_X8D24: case D3DFMT_D24X4S4: case D3DFMT_X4S4D24: case D3DFMT_D24FS8:
    case D3DFMT_D32F_LOCKABLE: case D3DFMT_D32_LOCKABLE: case D3DFMT_R32F: case D3DFMT_G16R16F:
      return 32;
    case D3DFMT_R8G8B8:
      return 24;
    case D3DFMT_R5G6B5: case D3DFMT_X1R5G5B5: case D3DFMT_A1R5G5B5: case D3DFMT_A4R4G4B4:
    case D3DFMT_X4R4G4B4: case D3DFMT_A8R3G3B2: case D3DFMT_A8P8: case D3DFMT_A8L8: case D3DFMT_V8U8:
    case D3DFMT_L6V5U5: case D3DFMT_D16: case D3DFMT_D16_LOCKABLE: case D3DFMT_D15S1: case D3DFMT_S1D15:
    case D3DFMT_L16: case D3DFMT_R16F: case D3DFMT_UYVY: case D3DFMT_YUY2:
      return 16;
    case D3DFMT_R3G3B2: case D3DFMT_A8: case D3DFMT_P8: case D3DFMT_L8: case D3DFMT_A4L4: case D3DFMT_S8_LOCKABLE:
      return 8;
    case D3DFMT_A16B16G16R16: case D3DFMT_A16B16G16R16F: case D3DFMT_G32R32F: case D3DFMT_Q16W16V16U16:
      return 64;
    case D3DFMT_A32B32G32R32F:
      return 128;
    default:
      return 0;
  }
}

std::uint32_t dxt_block_bytes(D3DFORMAT f) {
  switch (f) {
    case D3DFMT_DXT1: return 8;
    case D3DFMT_DXT2: case D3DFMT_DXT3: case D3DFMT_DXT4: case D3DFMT_DXT5: return 16;
    default: return 0;
  }
}

bool is_depth_format(D3DFORMAT f) {
  switch (f) {
    case D3DFMT_D16: case D3DFMT_D16_LOCKABLE: case D3DFMT_D15S1: case D3DFMT_S1D15: case D3DFMT_D24S8:
    case D3DFMT_S8D24: case D3DFMT_D24X8: case D3DFMT_X8D24: case D3DFMT_D24X4S4: case D3DFMT_X4S4D24:
    case D3DFMT_D32: case D3DFMT_D24FS8: case D3DFMT_D32F_LOCKABLE: case D3DFMT_D32_LOCKABLE:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::optional<LevelLayout> level_layout(D3DFORMAT format, std::uint32_t width, std::uint32_t height) {
  using ddi::checked_mul;
  LevelLayout layout;
  if (const std::uint32_t block = dxt_block_bytes(format)) {
    const std::size_t bw = (std::size_t{width} + 3) / 4, bh = (std::size_t{height} + 3) / 4;
    if (!checked_mul(bw, block, layout.pitch) || !checked_mul(layout.pitch, bh, layout.size)) return std::nullopt;
    return layout;
  }
  const std::uint32_t bpp = bits_per_pixel(format);
  if (bpp == 0) return std::nullopt;
  // Rows padded to 4 bytes, as DirectDraw surfaces' lPitch is DWORD-aligned.
  if (!checked_mul(width, bpp / 8, layout.pitch)) return std::nullopt;
  layout.pitch = (layout.pitch + 3) & ~std::size_t{3};
  if (!checked_mul(layout.pitch, height, layout.size)) return std::nullopt;
  return layout;
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
      size = desc.size_bytes;
      break;
    case SurfaceKind::kRenderTarget:
    case SurfaceKind::kDepthStencil:
    case SurfaceKind::kTexture: {
      if (desc.width == 0 || desc.height == 0 || desc.mip_levels == 0 || desc.mip_levels > 16) return E_INVALIDARG;
      if ((desc.kind == SurfaceKind::kDepthStencil) != is_depth_format(desc.format) &&
          !(desc.kind == SurfaceKind::kTexture && is_depth_format(desc.format)))
        return E_INVALIDARG;
      std::uint32_t w = desc.width, h = desc.height;
      for (std::uint32_t level = 0; level < desc.mip_levels; ++level) {
        const auto layout = level_layout(desc.format, w, h);
        if (!layout || !ddi::checked_add(size, layout->size, size)) return E_INVALIDARG;
        if (level == 0) surface.pitch = static_cast<std::uint32_t>(layout->pitch);
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
      }
      break;
    }
  }
  if (size > kMaxSurfaceBytes) return E_OUTOFMEMORY;
  try {
    surface.bytes.resize(size);
  } catch (const std::bad_alloc&) {
    return E_OUTOFMEMORY;
  }
  surface.desc.size_bytes = size;
  surfaces_.emplace(handle, std::move(surface));
  return D3D_OK;
}

HRESULT SurfaceTable::destroy(DWORD handle) { return surfaces_.erase(handle) ? D3D_OK : E_INVALIDARG; }

Surface* SurfaceTable::find(DWORD handle) noexcept {
  const auto it = surfaces_.find(handle);
  return it == surfaces_.end() ? nullptr : &it->second;
}

const Surface* SurfaceTable::find(DWORD handle) const noexcept {
  const auto it = surfaces_.find(handle);
  return it == surfaces_.end() ? nullptr : &it->second;
}

bool SurfaceTable::grow(DWORD handle, std::size_t new_size) {
  Surface* s = find(handle);
  if (!s || new_size > kMaxSurfaceBytes) return false;
  if (new_size <= s->bytes.size()) return true;
  try {
    std::vector<std::byte> fresh(new_size);
    s->bytes.swap(fresh);
  } catch (const std::bad_alloc&) {
    return false;
  }
  s->desc.size_bytes = new_size;
  return true;
}

}  // namespace dp2::detail
