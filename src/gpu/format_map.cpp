#include "gpu/format_map.h"

#include <array>
#include <cstddef>
#include <utility>

namespace dp2::gpu {
namespace {

bool detail_checked_mul(std::size_t a, std::size_t b, std::size_t& out) { return !__builtin_mul_overflow(a, b, &out); }


using raster::Format;

// One list for both directions; the first row for a raster::Format is its D3DFORMAT.
constexpr std::array<std::pair<D3DFORMAT, Format>, 29> kMap{{
    {D3DFMT_A8R8G8B8, Format::kA8R8G8B8},
    {D3DFMT_X8R8G8B8, Format::kX8R8G8B8},
    {D3DFMT_R8G8B8, Format::kR8G8B8},
    {D3DFMT_R5G6B5, Format::kR5G6B5},
    {D3DFMT_X1R5G5B5, Format::kX1R5G5B5},
    {D3DFMT_A1R5G5B5, Format::kA1R5G5B5},
    {D3DFMT_A4R4G4B4, Format::kA4R4G4B4},
    {D3DFMT_X4R4G4B4, Format::kX4R4G4B4},
    {D3DFMT_R3G3B2, Format::kR3G3B2},
    {D3DFMT_A8R3G3B2, Format::kA8R3G3B2},
    {D3DFMT_P8, Format::kP8},
    {D3DFMT_L8, Format::kL8},
    {D3DFMT_A8, Format::kA8},
    {D3DFMT_A8L8, Format::kA8L8},
    {D3DFMT_A4L4, Format::kA4L4},
    {D3DFMT_DXT1, Format::kDXT1},
    {D3DFMT_DXT2, Format::kDXT2},
    {D3DFMT_DXT3, Format::kDXT3},
    {D3DFMT_DXT4, Format::kDXT4},
    {D3DFMT_DXT5, Format::kDXT5},
    {D3DFMT_D16, Format::kD16},
    {D3DFMT_D15S1, Format::kD15S1},
    {D3DFMT_D24S8, Format::kD24S8},
    {D3DFMT_D24X8, Format::kD24X8},
    {D3DFMT_D24X4S4, Format::kD24X4S4},
    {D3DFMT_D32, Format::kD32},
    // aliases (same layout), after the canonical rows
    {D3DFMT_D16_LOCKABLE, Format::kD16},
    {D3DFMT_D32_LOCKABLE, Format::kD32},
    {D3DFMT_UNKNOWN, Format::kUnknown},
}};

// Every raster::Format except kUnknown has a row.
constexpr bool covers_every_format() {
  for (std::size_t f = 1; f < static_cast<std::size_t>(Format::kCount); ++f) {
    bool found = false;
    for (const auto& row : kMap) found = found || static_cast<std::size_t>(row.second) == f;
    if (!found) return false;
  }
  return true;
}
static_assert(covers_every_format(), "format_map: a raster::Format has no D3DFORMAT");

}  // namespace

std::optional<raster::Format> to_raster_format(D3DFORMAT format) noexcept {
  if (format == D3DFMT_UNKNOWN) return std::nullopt;
  for (const auto& row : kMap)
    if (row.first == format) return row.second;
  return std::nullopt;
}

D3DFORMAT to_d3d_format(raster::Format format) noexcept {
  for (const auto& row : kMap)
    if (row.second == format) return row.first;
  return D3DFMT_UNKNOWN;
}

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

bool is_depth_format_d3d(D3DFORMAT f) { return is_depth_format(f); }

std::optional<LevelLayout> level_layout(D3DFORMAT format, std::uint32_t width, std::uint32_t height) {
  LevelLayout layout;
  if (const std::uint32_t block = dxt_block_bytes(format)) {
    const std::size_t bw = (std::size_t{width} + 3) / 4, bh = (std::size_t{height} + 3) / 4;
    if (!detail_checked_mul(bw, block, layout.pitch) || !detail_checked_mul(layout.pitch, bh, layout.size)) return std::nullopt;
    return layout;
  }
  const std::uint32_t bpp = bits_per_pixel(format);
  if (bpp == 0) return std::nullopt;
  // Rows padded to 4 bytes, as DirectDraw surfaces' lPitch is DWORD-aligned.
  if (!detail_checked_mul(width, bpp / 8, layout.pitch)) return std::nullopt;
  layout.pitch = (layout.pitch + 3) & ~std::size_t{3};
  if (!detail_checked_mul(layout.pitch, height, layout.size)) return std::nullopt;
  return layout;
}


}  // namespace dp2::gpu

namespace dp2::gpu {

std::optional<std::size_t> chain_size(D3DFORMAT format, std::uint32_t width, std::uint32_t height, std::uint32_t levels) {
  std::size_t total = 0;
  for (std::uint32_t l = 0; l < levels; ++l) {
    const auto layout = level_layout(format, width, height);
    if (!layout || __builtin_add_overflow(total, layout->size, &total)) return std::nullopt;
    width = width > 1 ? width / 2 : 1;
    height = height > 1 ? height / 2 : 1;
  }
  return total;
}

}  // namespace dp2::gpu
