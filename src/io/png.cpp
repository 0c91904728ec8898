// PNG dump. The one translation unit that compiles stb_image_write (ARCHITECTURE.md):
// static linkage, no stdio, and only stbi_write_png_to_func — the process-wide knobs
// (stbi_flip_vertically_on_write, stbi_write_png_compression_level, ...) keep their
// defaults, so two devices dumping at once cannot disturb each other.
#include "dp2/png.h"

#include <fstream>
#include <optional>
#include <string>
#include <utility>

#include "dp2raster/float_env.h"
#include "dp2raster/formats.h"
#include "dp2raster/limits.h"
#include "gpu/format_map.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STBI_WRITE_NO_STDIO
#include <stb_image_write.h>

namespace dp2 {
namespace {

void append(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<std::byte>*>(context);
  const auto* bytes = static_cast<const std::byte*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

// Why the image cannot be encoded, or nullptr.
const char* check(const PngImage& image, std::optional<raster::Format> format) {
  if (!format) return "unsupported format";
  if (image.data == nullptr) return "null data";
  if (image.width == 0 || image.height == 0) return "empty image";
  if (image.width > raster::kMaxSurfaceDimension || image.height > raster::kMaxSurfaceDimension)
    return "image larger than kMaxSurfaceDimension";
  // A row needs its own bytes, not the DWORD padding format_pitch adds.
  if (image.pitch < raster::format_row_bytes(*format, image.width)) return "pitch smaller than a row";
  return nullptr;
}

}  // namespace

std::vector<std::byte> encode_png(const PngImage& image, bool keep_alpha) {
  // The format conversions round in floats: in dp2's environment, not the caller's.
  const raster::DefaultFloatEnvironment fp;
  const std::optional<raster::Format> format = gpu::to_raster_format(image.format);
  if (check(image, format) != nullptr) return {};

  // The rasterizer's views carry a mutable pointer; this file only reads through it.
  raster::TextureView texture;
  texture.format = *format;
  texture.levels = 1;
  texture.level[0] = {*format, image.width, image.height, image.pitch, const_cast<std::byte*>(image.data)};
  texture.palette = image.palette;
  texture.palette_alpha = image.palette_alpha;

  const std::uint32_t comp = keep_alpha ? 4 : 3;
  std::vector<unsigned char> pixels(std::size_t{image.width} * image.height * comp);
  std::size_t o = 0;
  for (std::uint32_t y = 0; y < image.height; ++y) {
    for (std::uint32_t x = 0; x < image.width; ++x) {
      const raster::Color c = raster::decode_texel(texture, 0, x, y);
      const std::uint32_t argb = raster::encode_color(raster::Format::kA8R8G8B8, c);
      pixels[o++] = static_cast<unsigned char>(argb >> 16);
      pixels[o++] = static_cast<unsigned char>(argb >> 8);
      pixels[o++] = static_cast<unsigned char>(argb);
      if (keep_alpha) pixels[o++] = static_cast<unsigned char>(argb >> 24);
    }
  }

  std::vector<std::byte> png;
  const int stride = static_cast<int>(image.width * comp);
  if (stbi_write_png_to_func(append, &png, static_cast<int>(image.width), static_cast<int>(image.height),
                             static_cast<int>(comp), pixels.data(), stride) == 0)
    return {};
  return png;
}

bool write_png(const std::string& path, const PngImage& image, bool keep_alpha, std::string* error) {
  auto fail = [error](std::string reason) {
    if (error != nullptr) *error = std::move(reason);
    return false;
  };
  if (const char* why = check(image, gpu::to_raster_format(image.format))) return fail(why);
  const std::vector<std::byte> png = encode_png(image, keep_alpha);
  if (png.empty()) return fail("PNG encoding failed");
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return fail("cannot open " + path);
  file.write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
  file.close();
  if (!file) return fail("cannot write " + path);
  return true;
}

}  // namespace dp2
