// PNG dump of a surface in any format dp2 renders or samples: the frame inspection path
// (Device::dump_png, the dump tool, golden-image tests). Standard library only.
// Thread-safe: no state of its own (stb_image_write's process-wide options are never
// touched).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dp2/ddi.h"

namespace dp2 {

// A surface as it lies in memory: `pitch` bytes per row (per row of 4×4 blocks for DXTn).
// `palette` (256 × 0xAARRGGBB) is used for D3DFMT_P8; its alpha only when `palette_alpha`
// (DDRAWIPAL_ALPHA). Without a palette, P8 indices dump as grey.
struct PngImage {
  D3DFORMAT format = D3DFMT_UNKNOWN;
  std::uint32_t width = 0, height = 0, pitch = 0;
  const std::byte* data = nullptr;
  const std::uint32_t* palette = nullptr;
  bool palette_alpha = false;
};

// Encodes the image as an 8-bit PNG: RGBA (colour type 6) when `keep_alpha`, else RGB
// (colour type 2, alpha dropped). Every format is decoded through the rasterizer's format
// functions and rounded to 8 bits as an A8R8G8B8 render target would be; X channels give
// alpha 255; depth formats dump the depth as grey (stencil is not shown). Returns an
// empty vector for a format the rasterizer does not know, a null `data`, a zero or
// oversized (> kMaxSurfaceDimension) width or height, or a pitch too small for the width.
std::vector<std::byte> encode_png(const PngImage& image, bool keep_alpha);

// encode_png, then writes the file. On failure returns false and, when `error` is not
// null, sets it to a one-line reason.
bool write_png(const std::string& path, const PngImage& image, bool keep_alpha, std::string* error = nullptr);

}  // namespace dp2
