// Plain types shared by every stage of the rasterizer. The rasterizer never includes a
// DP2 or D3D header (ARCHITECTURE.md): enum values that mirror a D3D enum say so, and
// src/gpu translates the front end's state into these types.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace dp2::raster {

// A colour with channels in [0, 1] (texture ops may leave the range; they clamp).
struct Color {
  float r = 0.0f, g = 0.0f, b = 0.0f, a = 0.0f;
  bool operator==(const Color&) const = default;
};

// Surface formats the rasterizer reads and writes. Names follow D3DFORMAT (MSB-first:
// A8R8G8B8 is 0xAARRGGBB in a little-endian DWORD).
enum class Format : std::uint8_t {
  kUnknown,
  // colour (render targets and textures)
  kA8R8G8B8, kX8R8G8B8, kR8G8B8, kR5G6B5, kX1R5G5B5, kA1R5G5B5, kA4R4G4B4, kX4R4G4B4, kR3G3B2,
  kA8R3G3B2, kP8,
  // textures only
  kL8, kA8, kA8L8, kA4L4, kDXT1, kDXT2, kDXT3, kDXT4, kDXT5,
  // depth / stencil
  kD16, kD15S1, kD24S8, kD24X8, kD24X4S4, kD32,
  kCount,
};

// One mip level (or a render target): `pitch` bytes per row — per row of 4×4 blocks for
// the DXTn formats.
struct ImageView {
  Format format = Format::kUnknown;
  std::uint32_t width = 0, height = 0;
  std::uint32_t pitch = 0;
  std::byte* data = nullptr;
};

inline constexpr std::uint32_t kMaxMipLevels = 16;

// A texture as the sampler sees it: its mip chain, and for P8 its palette of 256
// 0xAARRGGBB entries (alpha used only when `palette_alpha`, DDRAWIPAL_ALPHA).
struct TextureView {
  Format format = Format::kUnknown;
  std::uint32_t levels = 0;
  std::array<ImageView, kMaxMipLevels> level{};
  const std::uint32_t* palette = nullptr;
  bool palette_alpha = false;
  // Source colour key (DDCKEY_SRCBLT), compared with the raw texel: D3D's exact-match rule.
  bool has_color_key = false;
  std::uint32_t color_key = 0;
};

}  // namespace dp2::raster
