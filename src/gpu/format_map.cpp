#include "gpu/format_map.h"

#include <array>
#include <cstddef>
#include <utility>

namespace dp2::gpu {
namespace {

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

}  // namespace dp2::gpu
