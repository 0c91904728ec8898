// dp2::encode_png / write_png and the D3DFORMAT ↔ raster::Format map. PNGs are encoded to
// memory, their header checked byte by byte (PNG spec: 8-byte signature, then the IHDR
// chunk: length 13, "IHDR", width and height big-endian, bit depth, colour type), then
// decoded with stb_image and compared with the source pixels worked out by hand.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

#include "dp2/png.h"
#include "dp2raster/types.h"
#include "gpu/format_map.h"

// stb_image (decoder) for this test only; static, PNG only, no stdio.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#include <stb_image.h>

namespace {

struct Decoded {
  int width = 0, height = 0, channels = 0;
  std::vector<unsigned> pixels;  // width × height × channels
};

Decoded decode(const std::vector<std::byte>& png) {
  Decoded d;
  unsigned char* p = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(png.data()), static_cast<int>(png.size()),
                                           &d.width, &d.height, &d.channels, 0);
  REQUIRE(p != nullptr);
  d.pixels.assign(p, p + static_cast<std::size_t>(d.width) * d.height * d.channels);
  stbi_image_free(p);
  return d;
}

unsigned at(const std::vector<std::byte>& v, std::size_t i) { return std::to_integer<unsigned>(v[i]); }

std::uint32_t be32(const std::vector<std::byte>& v, std::size_t i) {
  return at(v, i) << 24 | at(v, i + 1) << 16 | at(v, i + 2) << 8 | at(v, i + 3);
}

// Signature, IHDR, 8-bit depth, the given colour type.
void check_header(const std::vector<std::byte>& png, std::uint32_t width, std::uint32_t height, unsigned colour_type) {
  REQUIRE(png.size() > 33);
  const unsigned signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  for (std::size_t i = 0; i < 8; ++i) CHECK(at(png, i) == signature[i]);
  CHECK(be32(png, 8) == 13u);
  CHECK(at(png, 12) == 'I');
  CHECK(at(png, 13) == 'H');
  CHECK(at(png, 14) == 'D');
  CHECK(at(png, 15) == 'R');
  CHECK(be32(png, 16) == width);
  CHECK(be32(png, 20) == height);
  CHECK(at(png, 24) == 8u);
  CHECK(at(png, 25) == colour_type);
}

std::vector<std::byte> bytes(std::initializer_list<unsigned> list) {
  std::vector<std::byte> out;
  for (unsigned v : list) out.push_back(static_cast<std::byte>(v));
  return out;
}

// A8R8G8B8 3×2, pitch 16 (4 bytes of padding, 0xEE, per row). Pixels (0xAARRGGBB):
//   row 0: 0xFFFF0000 0x8000FF00 0x000000FF
//   row 1: 0x40102030 0xFFFFFFFF 0x00000000
const std::vector<std::byte> kArgb = bytes({
    0x00, 0x00, 0xFF, 0xFF, 0x00, 0xFF, 0x00, 0x80, 0xFF, 0x00, 0x00, 0x00, 0xEE, 0xEE, 0xEE, 0xEE,  //
    0x30, 0x20, 0x10, 0x40, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xEE, 0xEE, 0xEE, 0xEE,
});
const unsigned kArgbRgba[6][4] = {{255, 0, 0, 255},     {0, 255, 0, 128},     {0, 0, 255, 0},
                                  {0x10, 0x20, 0x30, 0x40}, {255, 255, 255, 255}, {0, 0, 0, 0}};

}  // namespace

TEST_CASE("encode_png: A8R8G8B8 with alpha is RGBA, pitch padding skipped") {
  const dp2::PngImage image{D3DFMT_A8R8G8B8, 3, 2, 16, kArgb.data(), nullptr, false};
  const std::vector<std::byte> png = dp2::encode_png(image, true);
  check_header(png, 3, 2, 6);  // colour type 6: RGBA
  const Decoded d = decode(png);
  CHECK(d.width == 3);
  CHECK(d.height == 2);
  REQUIRE(d.channels == 4);
  for (int i = 0; i < 6; ++i)
    for (int c = 0; c < 4; ++c) {
      CAPTURE(i);
      CAPTURE(c);
      CHECK(d.pixels[static_cast<std::size_t>(i * 4 + c)] == kArgbRgba[i][c]);
    }
}

TEST_CASE("encode_png: without alpha is RGB") {
  const dp2::PngImage image{D3DFMT_A8R8G8B8, 3, 2, 16, kArgb.data(), nullptr, false};
  const std::vector<std::byte> png = dp2::encode_png(image, false);
  check_header(png, 3, 2, 2);  // colour type 2: RGB
  const Decoded d = decode(png);
  REQUIRE(d.channels == 3);
  for (int i = 0; i < 6; ++i)
    for (int c = 0; c < 3; ++c) CHECK(d.pixels[static_cast<std::size_t>(i * 3 + c)] == kArgbRgba[i][c]);
}

TEST_CASE("encode_png: 16-bit, palette, depth and DXT1 sources") {
  SUBCASE("R5G6B5: 0xF800 → red; 0x8410 → (16/31, 32/63, 16/31) → (132, 130, 132)") {
    // floor(16/31·255 + 0.5) = floor(132.08) = 132; floor(32/63·255 + 0.5) = floor(130.02) = 130
    const auto mem = bytes({0x00, 0xF8, 0x10, 0x84});
    const Decoded d = decode(dp2::encode_png({D3DFMT_R5G6B5, 2, 1, 4, mem.data(), nullptr, false}, true));
    CHECK(d.pixels == std::vector<unsigned>{255, 0, 0, 255, 132, 130, 132, 255});
  }
  SUBCASE("X1R5G5B5: X gives alpha 255") {
    const auto mem = bytes({0x1F, 0x00});  // blue, X bit 0
    const Decoded d = decode(dp2::encode_png({D3DFMT_X1R5G5B5, 1, 1, 4, mem.data(), nullptr, false}, true));
    CHECK(d.pixels == std::vector<unsigned>{0, 0, 255, 255});
  }
  SUBCASE("P8 through the palette; its alpha only with palette_alpha") {
    std::vector<std::uint32_t> palette(256, 0);
    palette[1] = 0x80102030u;
    palette[2] = 0xFFFFFFFFu;
    const auto mem = bytes({1, 2, 0, 0});
    dp2::PngImage image{D3DFMT_P8, 2, 1, 4, mem.data(), palette.data(), false};
    CHECK(decode(dp2::encode_png(image, true)).pixels ==
          std::vector<unsigned>{0x10, 0x20, 0x30, 255, 255, 255, 255, 255});
    image.palette_alpha = true;
    CHECK(decode(dp2::encode_png(image, true)).pixels ==
          std::vector<unsigned>{0x10, 0x20, 0x30, 0x80, 255, 255, 255, 255});
  }
  SUBCASE("D24S8: depth as grey, stencil not shown") {
    // depth 0xFFFFFF → 255; 0x800000 → floor(8388608/16777215·255 + 0.5) = floor(128.0000076) = 128;
    // depth 0 with stencil 0xFF → 0.
    const auto mem = bytes({0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x80, 0xFF, 0x00, 0x00, 0x00});
    const Decoded d = decode(dp2::encode_png({D3DFMT_D24S8, 3, 1, 12, mem.data(), nullptr, false}, false));
    CHECK(d.pixels == std::vector<unsigned>{255, 255, 255, 128, 128, 128, 0, 0, 0});
  }
  SUBCASE("DXT1: a 4×4 block, first row indices 0,1,2,3") {
    // c0 = 0xF800 red, c1 = 0x001F blue, four-colour: c2 = (170, 0, 85), c3 = (85, 0, 170).
    const auto mem = bytes({0x00, 0xF8, 0x1F, 0x00, 0xE4, 0x00, 0x00, 0x00});
    const Decoded d = decode(dp2::encode_png({D3DFMT_DXT1, 4, 4, 8, mem.data(), nullptr, false}, false));
    REQUIRE(d.pixels.size() == 48);
    CHECK(std::vector<unsigned>(d.pixels.begin(), d.pixels.begin() + 12) ==
          std::vector<unsigned>{255, 0, 0, 0, 0, 255, 170, 0, 85, 85, 0, 170});
    CHECK(std::vector<unsigned>(d.pixels.begin() + 12, d.pixels.begin() + 15) == std::vector<unsigned>{255, 0, 0});
  }
}

TEST_CASE("encode_png / write_png reject what they cannot dump") {
  const auto mem = bytes({0, 0, 0, 0, 0, 0, 0, 0});
  CHECK(dp2::encode_png({D3DFMT_A2B10G10R10, 1, 1, 4, mem.data(), nullptr, false}, true).empty());
  CHECK(dp2::encode_png({D3DFMT_A8R8G8B8, 1, 1, 4, nullptr, nullptr, false}, true).empty());
  CHECK(dp2::encode_png({D3DFMT_A8R8G8B8, 0, 1, 4, mem.data(), nullptr, false}, true).empty());
  CHECK(dp2::encode_png({D3DFMT_A8R8G8B8, 2, 1, 4, mem.data(), nullptr, false}, true).empty());  // pitch < 8
  CHECK(dp2::encode_png({D3DFMT_A8R8G8B8, 20000, 1, 80000, mem.data(), nullptr, false}, true).empty());
  // A pitch without the DWORD padding is enough: R8G8B8 1 pixel = 3 bytes.
  CHECK_FALSE(dp2::encode_png({D3DFMT_R8G8B8, 1, 1, 3, mem.data(), nullptr, false}, true).empty());

  std::string error;
  CHECK_FALSE(dp2::write_png("/nonexistent-dir/x.png", {D3DFMT_A8R8G8B8, 1, 1, 4, mem.data(), nullptr, false}, true,
                             &error));
  CHECK(error.find("cannot open") != std::string::npos);
  error.clear();
  CHECK_FALSE(dp2::write_png("unused.png", {D3DFMT_V8U8, 1, 1, 4, mem.data(), nullptr, false}, true, &error));
  CHECK(error == "unsupported format");
}

TEST_CASE("write_png writes the bytes encode_png returns") {
  const dp2::PngImage image{D3DFMT_A8R8G8B8, 3, 2, 16, kArgb.data(), nullptr, false};
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "dp2_test_png_write.png";
  std::string error;
  REQUIRE(dp2::write_png(path.string(), image, true, &error));
  CHECK(error.empty());
  std::ifstream file(path, std::ios::binary);
  const std::vector<char> raw((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  file.close();
  std::vector<std::byte> read(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) read[i] = static_cast<std::byte>(raw[i]);
  CHECK(read == dp2::encode_png(image, true));
  std::filesystem::remove(path);
}

TEST_CASE("format_map: D3DFORMAT ↔ raster::Format") {
  using dp2::raster::Format;
  for (int f = 1; f < static_cast<int>(Format::kCount); ++f) {
    CAPTURE(f);
    const D3DFORMAT d3d = dp2::gpu::to_d3d_format(static_cast<Format>(f));
    CHECK(d3d != D3DFMT_UNKNOWN);
    CHECK(dp2::gpu::to_raster_format(d3d) == static_cast<Format>(f));
  }
  CHECK(dp2::gpu::to_d3d_format(Format::kD16) == D3DFMT_D16);
  CHECK(dp2::gpu::to_d3d_format(Format::kD15S1) == D3DFMT_D15S1);
  CHECK(dp2::gpu::to_d3d_format(Format::kDXT1) == D3DFMT_DXT1);
  CHECK(dp2::gpu::to_raster_format(D3DFMT_D16_LOCKABLE) == Format::kD16);
  CHECK(dp2::gpu::to_raster_format(D3DFMT_D32_LOCKABLE) == Format::kD32);
  CHECK_FALSE(dp2::gpu::to_raster_format(D3DFMT_S8D24).has_value());  // stencil on top: no raster layout
  CHECK_FALSE(dp2::gpu::to_raster_format(D3DFMT_UNKNOWN).has_value());
  CHECK_FALSE(dp2::gpu::to_raster_format(D3DFMT_A16B16G16R16F).has_value());
  CHECK(dp2::gpu::to_d3d_format(Format::kUnknown) == D3DFMT_UNKNOWN);
  CHECK(dp2::gpu::to_d3d_format(static_cast<Format>(200)) == D3DFMT_UNKNOWN);
}
