// dp2::raster formats: every expected value below is worked out by hand from the bit
// layout written next to it (formats.h: MSB-first D3DFORMAT naming, little-endian memory,
// unorm v / (2^bits − 1), encode q = floor(c·(2^bits − 1) + 0.5 + dither)).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <vector>

#include "dp2raster/formats.h"

namespace {

using dp2::raster::Color;
using dp2::raster::Format;
using dp2::raster::ImageView;
using dp2::raster::TextureView;
namespace r = dp2::raster;

Color rgba(float red, float green, float blue, float alpha) { return Color{red, green, blue, alpha}; }

std::vector<std::byte> bytes(std::initializer_list<unsigned> list) {
  std::vector<std::byte> out;
  for (unsigned v : list) out.push_back(static_cast<std::byte>(v));
  return out;
}

unsigned byte_at(const std::vector<std::byte>& v, std::size_t i) { return std::to_integer<unsigned>(v[i]); }

}  // namespace

TEST_CASE("format_info describes every format") {
  struct Row {
    Format f;
    int bpp, block;
    bool alpha, depth;
    int depth_bits, stencil_bits;
    bool rt;
  };
  const Row rows[] = {
      {Format::kA8R8G8B8, 32, 0, true, false, 0, 0, true},   {Format::kX8R8G8B8, 32, 0, false, false, 0, 0, true},
      {Format::kR8G8B8, 24, 0, false, false, 0, 0, true},    {Format::kR5G6B5, 16, 0, false, false, 0, 0, true},
      {Format::kX1R5G5B5, 16, 0, false, false, 0, 0, true},  {Format::kA1R5G5B5, 16, 0, true, false, 0, 0, true},
      {Format::kA4R4G4B4, 16, 0, true, false, 0, 0, true},   {Format::kX4R4G4B4, 16, 0, false, false, 0, 0, true},
      {Format::kR3G3B2, 8, 0, false, false, 0, 0, true},     {Format::kA8R3G3B2, 16, 0, true, false, 0, 0, true},
      {Format::kP8, 8, 0, false, false, 0, 0, true},         {Format::kL8, 8, 0, false, false, 0, 0, false},
      {Format::kA8, 8, 0, true, false, 0, 0, false},         {Format::kA8L8, 16, 0, true, false, 0, 0, false},
      {Format::kA4L4, 8, 0, true, false, 0, 0, false},       {Format::kDXT1, 0, 8, true, false, 0, 0, false},
      {Format::kDXT2, 0, 16, true, false, 0, 0, false},      {Format::kDXT3, 0, 16, true, false, 0, 0, false},
      {Format::kDXT4, 0, 16, true, false, 0, 0, false},      {Format::kDXT5, 0, 16, true, false, 0, 0, false},
      {Format::kD16, 16, 0, false, true, 16, 0, false},      {Format::kD15S1, 16, 0, false, true, 15, 1, false},
      {Format::kD24S8, 32, 0, false, true, 24, 8, false},    {Format::kD24X8, 32, 0, false, true, 24, 0, false},
      {Format::kD24X4S4, 32, 0, false, true, 24, 4, false},  {Format::kD32, 32, 0, false, true, 32, 0, false},
  };
  CHECK(std::size(rows) == static_cast<std::size_t>(Format::kCount) - 1);
  for (const Row& row : rows) {
    CAPTURE(static_cast<int>(row.f));
    const r::FormatInfo& i = r::format_info(row.f);
    CHECK(i.bits_per_pixel == row.bpp);
    CHECK(i.block_bytes == row.block);
    CHECK(i.has_alpha == row.alpha);
    CHECK(i.is_depth == row.depth);
    CHECK(i.depth_bits == row.depth_bits);
    CHECK(i.stencil_bits == row.stencil_bits);
    CHECK(i.render_target == row.rt);
  }
  CHECK(r::format_info(Format::kUnknown).bits_per_pixel == 0);
  CHECK(r::format_info(static_cast<Format>(200)).bits_per_pixel == 0);
}

TEST_CASE("format_pitch: DWORD-aligned rows, DXTn rows of blocks") {
  CHECK(r::format_pitch(Format::kA8R8G8B8, 3) == 12);
  CHECK(r::format_pitch(Format::kR8G8B8, 3) == 12);   // 9 bytes → 12
  CHECK(r::format_pitch(Format::kR8G8B8, 4) == 12);   // exactly 12
  CHECK(r::format_pitch(Format::kR5G6B5, 3) == 8);    // 6 → 8
  CHECK(r::format_pitch(Format::kL8, 5) == 8);        // 5 → 8
  CHECK(r::format_pitch(Format::kL8, 4) == 4);
  CHECK(r::format_pitch(Format::kD24S8, 1) == 4);
  CHECK(r::format_pitch(Format::kDXT1, 1) == 8);      // ceil(1/4) = 1 block
  CHECK(r::format_pitch(Format::kDXT1, 5) == 16);     // 2 blocks × 8
  CHECK(r::format_pitch(Format::kDXT5, 5) == 32);     // 2 blocks × 16
  CHECK(r::format_pitch(Format::kUnknown, 5) == 0);
  CHECK(r::format_pitch(Format::kA8R8G8B8, 0xFFFFFFFFu) == 0xFFFFFFFFu);  // saturates
  CHECK(r::format_level_size(Format::kA8R8G8B8, 3, 2) == 24);
  CHECK(r::format_level_size(Format::kDXT1, 5, 5) == 32);  // 2 block rows × 16
  CHECK(r::format_level_size(Format::kDXT3, 4, 4) == 16);
}

TEST_CASE("decode_raw: each format from its bit layout") {
  // A8R8G8B8 0xAARRGGBB
  CHECK(r::decode_raw(Format::kA8R8G8B8, 0x80FF0000u) == rgba(1, 0, 0, 128.0f / 255.0f));
  CHECK(r::decode_raw(Format::kA8R8G8B8, 0x00123456u) ==
        rgba(0x12 / 255.0f, 0x34 / 255.0f, 0x56 / 255.0f, 0.0f));
  // X8R8G8B8: X ignored, alpha 1
  CHECK(r::decode_raw(Format::kX8R8G8B8, 0x0000FF00u) == rgba(0, 1, 0, 1));
  CHECK(r::decode_raw(Format::kR8G8B8, 0x00332211u) == rgba(0x33 / 255.0f, 0x22 / 255.0f, 0x11 / 255.0f, 1));
  // R5G6B5: r 15–11, g 10–5, b 4–0
  CHECK(r::decode_raw(Format::kR5G6B5, 0xF800u) == rgba(1, 0, 0, 1));
  CHECK(r::decode_raw(Format::kR5G6B5, 0x07E0u) == rgba(0, 1, 0, 1));
  CHECK(r::decode_raw(Format::kR5G6B5, 0x001Fu) == rgba(0, 0, 1, 1));
  CHECK(r::decode_raw(Format::kR5G6B5, 0x0821u) == rgba(1 / 31.0f, 1 / 63.0f, 1 / 31.0f, 1));
  // X1R5G5B5 / A1R5G5B5: bit 15, r 14–10, g 9–5, b 4–0
  CHECK(r::decode_raw(Format::kX1R5G5B5, 0x7C00u) == rgba(1, 0, 0, 1));
  CHECK(r::decode_raw(Format::kX1R5G5B5, 0x8000u) == rgba(0, 0, 0, 1));
  CHECK(r::decode_raw(Format::kA1R5G5B5, 0x8000u) == rgba(0, 0, 0, 1));
  CHECK(r::decode_raw(Format::kA1R5G5B5, 0x03E0u) == rgba(0, 1, 0, 0));
  CHECK(r::decode_raw(Format::kA1R5G5B5, 0x0421u) == rgba(1 / 31.0f, 1 / 31.0f, 1 / 31.0f, 0));
  // A4R4G4B4: a 15–12, r 11–8, g 7–4, b 3–0
  CHECK(r::decode_raw(Format::kA4R4G4B4, 0xF000u) == rgba(0, 0, 0, 1));
  CHECK(r::decode_raw(Format::kA4R4G4B4, 0x1234u) == rgba(2 / 15.0f, 3 / 15.0f, 4 / 15.0f, 1 / 15.0f));
  CHECK(r::decode_raw(Format::kX4R4G4B4, 0x0F00u) == rgba(1, 0, 0, 1));
  CHECK(r::decode_raw(Format::kX4R4G4B4, 0xF000u) == rgba(0, 0, 0, 1));
  // R3G3B2: r 7–5, g 4–2, b 1–0
  CHECK(r::decode_raw(Format::kR3G3B2, 0xE0u) == rgba(1, 0, 0, 1));
  CHECK(r::decode_raw(Format::kR3G3B2, 0x1Cu) == rgba(0, 1, 0, 1));
  CHECK(r::decode_raw(Format::kR3G3B2, 0x03u) == rgba(0, 0, 1, 1));
  CHECK(r::decode_raw(Format::kR3G3B2, 0x25u) == rgba(1 / 7.0f, 1 / 7.0f, 1 / 3.0f, 1));  // 001 001 01
  // A8R3G3B2: a 15–8, then R3G3B2
  CHECK(r::decode_raw(Format::kA8R3G3B2, 0x80E0u) == rgba(1, 0, 0, 128 / 255.0f));
  // luminance / alpha formats
  CHECK(r::decode_raw(Format::kL8, 0x40u) == rgba(64 / 255.0f, 64 / 255.0f, 64 / 255.0f, 1));
  CHECK(r::decode_raw(Format::kA8, 0x80u) == rgba(0, 0, 0, 128 / 255.0f));
  CHECK(r::decode_raw(Format::kA8L8, 0x80FFu) == rgba(1, 1, 1, 128 / 255.0f));  // a 15–8, l 7–0
  CHECK(r::decode_raw(Format::kA4L4, 0x5Au) == rgba(10 / 15.0f, 10 / 15.0f, 10 / 15.0f, 5 / 15.0f));  // a 7–4
  // P8 without a palette: the index as grey
  CHECK(r::decode_raw(Format::kP8, 7u) == rgba(7 / 255.0f, 7 / 255.0f, 7 / 255.0f, 1));
  // DXTn: raw is the decoded A8R8G8B8 value
  CHECK(r::decode_raw(Format::kDXT5, 0x40FF0000u) == rgba(1, 0, 0, 64 / 255.0f));
  // depth as grey
  CHECK(r::decode_raw(Format::kD16, 0xFFFFu) == rgba(1, 1, 1, 1));
  CHECK(r::decode_raw(Format::kD24S8, 0x000000FFu) == rgba(0, 0, 0, 1));  // stencil only
  CHECK(r::decode_raw(Format::kD15S1, 0xFFFEu) == rgba(1, 1, 1, 1));      // depth 15–1 all ones
}

TEST_CASE("encode_color: round to nearest, clamp, NaN, dither") {
  // R5G6B5 (0.5, 0.5, 0.5): r = floor(0.5·31 + 0.5) = 16, g = floor(0.5·63 + 0.5) = 32,
  // b = 16 → 16<<11 | 32<<5 | 16 = 0x8000 | 0x0400 | 0x0010.
  CHECK(r::encode_color(Format::kR5G6B5, rgba(0.5f, 0.5f, 0.5f, 1)) == 0x8410u);
  // A8R8G8B8 (1, 0, 0.5, 0.25): b = floor(127.5 + 0.5) = 128, a = floor(63.75 + 0.5) = 64.
  CHECK(r::encode_color(Format::kA8R8G8B8, rgba(1, 0, 0.5f, 0.25f)) == 0x40FF0080u);
  // clamping and NaN: r −1 → 0, g 2 → 255, b NaN → 0, a 0.5 → 128
  CHECK(r::encode_color(Format::kA8R8G8B8, rgba(-1, 2, std::numeric_limits<float>::quiet_NaN(), 0.5f)) ==
        0x8000FF00u);
  CHECK(r::encode_color(Format::kA8R8G8B8, rgba(std::numeric_limits<float>::infinity(), 0, 0, 1)) == 0xFFFF0000u);
  // X bits written as ones
  CHECK(r::encode_color(Format::kX8R8G8B8, rgba(0, 0, 0, 0)) == 0xFF000000u);
  CHECK(r::encode_color(Format::kX1R5G5B5, rgba(0, 0, 0, 0)) == 0x8000u);
  CHECK(r::encode_color(Format::kX4R4G4B4, rgba(0, 0, 0, 0)) == 0xF000u);
  CHECK(r::encode_color(Format::kR8G8B8, rgba(1, 0, 0, 0)) == 0x00FF0000u);
  // A1: floor(0.49 + 0.5) = 0, floor(0.5 + 0.5) = 1
  CHECK(r::encode_color(Format::kA1R5G5B5, rgba(0, 0, 0, 0.49f)) == 0x0000u);
  CHECK(r::encode_color(Format::kA1R5G5B5, rgba(0, 0, 0, 0.5f)) == 0x8000u);
  // R3G3B2 (1, 0.5, 0.5): r 7, g floor(3.5 + 0.5) = 4, b floor(1.5 + 0.5) = 2 → 0xE0 | 0x10 | 0x02
  CHECK(r::encode_color(Format::kR3G3B2, rgba(1, 0.5f, 0.5f, 1)) == 0xF2u);
  CHECK(r::encode_color(Format::kA8R3G3B2, rgba(1, 0.5f, 0.5f, 1)) == 0xFFF2u);
  // luminance from red; A8 stores alpha only
  CHECK(r::encode_color(Format::kL8, rgba(0.5f, 0, 0, 0)) == 0x80u);  // floor(127.5 + 0.5)
  CHECK(r::encode_color(Format::kA8, rgba(1, 1, 1, 0.5f)) == 0x80u);
  CHECK(r::encode_color(Format::kA8L8, rgba(1, 0, 0, 0)) == 0x00FFu);
  // A4L4: l = floor(1/3·15 + 0.5) = 5, a = floor(2/3·15 + 0.5) = 10 → 0xA5
  CHECK(r::encode_color(Format::kA4L4, rgba(1 / 3.0f, 0, 0, 2 / 3.0f)) == 0xA5u);
  // P8: the red channel's 8-bit value
  CHECK(r::encode_color(Format::kP8, rgba(0.5f, 1, 1, 1)) == 128u);
  // dither in LSB units: 0.5·31 + 0.5 − 0.25 = 15.75 → 15; 0.4·31 + 0.5 + 0.4 = 13.3 → 13
  CHECK(r::encode_color(Format::kR5G6B5, rgba(0.5f, 0, 0, 1), -0.25f) == 15u << 11);
  CHECK(r::encode_color(Format::kR5G6B5, rgba(0.4f, 0, 0, 1)) == 12u << 11);  // 12.9 → 12
  CHECK(r::encode_color(Format::kR5G6B5, rgba(0.4f, 0, 0, 1), 0.4f) == 13u << 11);
  // dither never pushes past the range: 1·31 + 0.5 + 0.9 = 32.4 → clamped to 31 (each
  // channel), 0·31 + 0.5 − 0.9 = −0.4 → floor −1 → clamped to 0
  CHECK(r::encode_color(Format::kR5G6B5, rgba(1, 1, 1, 1), 0.9f) == 0xFFFFu);
  CHECK(r::encode_color(Format::kR5G6B5, rgba(0, 0, 0, 1), -0.9f) == 0u);
  // alpha is not dithered: A4R4G4B4 a = floor(7.5 + 0.5) = 8, with or without dither
  CHECK(r::encode_color(Format::kA4R4G4B4, rgba(0, 0, 0, 0.5f), -0.25f) == 0x8000u);
  // depth formats: depth_from_float(r), stencil 0; D24S8 0.5 → 8388608 << 8
  CHECK(r::encode_color(Format::kD24S8, rgba(0.5f, 0, 0, 0)) == 0x80000000u);
  CHECK(r::encode_color(Format::kD15S1, rgba(1, 0, 0, 0)) == 0xFFFEu);
}

TEST_CASE("every representable value round-trips decode → encode") {
  // 16-bit formats with no unused bits: every raw value.
  for (Format f : {Format::kR5G6B5, Format::kA1R5G5B5, Format::kA4R4G4B4, Format::kA8R3G3B2, Format::kA8L8}) {
    CAPTURE(static_cast<int>(f));
    int bad = 0;
    for (std::uint32_t raw = 0; raw <= 0xFFFFu; ++raw)
      if (r::encode_color(f, r::decode_raw(f, raw)) != raw) ++bad;
    CHECK(bad == 0);
  }
  // X formats: the X bits come back as ones.
  {
    int bad = 0;
    for (std::uint32_t raw = 0; raw <= 0xFFFFu; ++raw) {
      if (r::encode_color(Format::kX1R5G5B5, r::decode_raw(Format::kX1R5G5B5, raw)) != (raw | 0x8000u)) ++bad;
      if (r::encode_color(Format::kX4R4G4B4, r::decode_raw(Format::kX4R4G4B4, raw)) != (raw | 0xF000u)) ++bad;
    }
    CHECK(bad == 0);
  }
  // 8-bit formats.
  for (Format f : {Format::kR3G3B2, Format::kL8, Format::kA8, Format::kA4L4, Format::kP8}) {
    CAPTURE(static_cast<int>(f));
    for (std::uint32_t raw = 0; raw <= 0xFFu; ++raw) CHECK(r::encode_color(f, r::decode_raw(f, raw)) == raw);
  }
  // 8-bit channels of the 32- and 24-bit formats: every channel value, on each channel.
  for (std::uint32_t v = 0; v <= 0xFFu; ++v) {
    for (std::uint32_t shift : {0u, 8u, 16u, 24u}) {
      const std::uint32_t raw = v << shift;
      CHECK(r::encode_color(Format::kA8R8G8B8, r::decode_raw(Format::kA8R8G8B8, raw)) == raw);
      if (shift < 24) {
        CHECK(r::encode_color(Format::kX8R8G8B8, r::decode_raw(Format::kX8R8G8B8, raw)) == (raw | 0xFF000000u));
        CHECK(r::encode_color(Format::kR8G8B8, r::decode_raw(Format::kR8G8B8, raw)) == raw);
      }
    }
  }
}

TEST_CASE("read_raw / write_raw: little-endian, unaligned, R8G8B8 is 3 bytes B G R") {
  // One spare byte in front, so every pixel is misaligned.
  std::vector<std::byte> buffer(1 + 2 * 8, std::byte{0xEE});
  ImageView argb{Format::kA8R8G8B8, 2, 2, 8, buffer.data() + 1};
  r::write_raw(argb, 1, 1, 0x11223344u);
  CHECK(byte_at(buffer, 1 + 8 + 4) == 0x44);
  CHECK(byte_at(buffer, 1 + 8 + 5) == 0x33);
  CHECK(byte_at(buffer, 1 + 8 + 6) == 0x22);
  CHECK(byte_at(buffer, 1 + 8 + 7) == 0x11);
  CHECK(r::read_raw(argb, 1, 1) == 0x11223344u);
  CHECK(byte_at(buffer, 0) == 0xEE);

  std::vector<std::byte> rgb(12, std::byte{0xEE});
  ImageView view{Format::kR8G8B8, 3, 1, 12, rgb.data()};
  r::write_raw(view, 1, 0, 0xAA112233u);  // the top byte is not stored
  CHECK(byte_at(rgb, 3) == 0x33);         // B
  CHECK(byte_at(rgb, 4) == 0x22);         // G
  CHECK(byte_at(rgb, 5) == 0x11);         // R
  CHECK(byte_at(rgb, 6) == 0xEE);         // next pixel untouched
  CHECK(r::read_raw(view, 1, 0) == 0x00112233u);

  std::vector<std::byte> w(4, std::byte{0});
  ImageView p16{Format::kR5G6B5, 2, 1, 4, w.data()};
  r::write_raw(p16, 1, 0, 0xF81Fu);
  CHECK(byte_at(w, 2) == 0x1F);
  CHECK(byte_at(w, 3) == 0xF8);
  CHECK(r::read_raw(p16, 1, 0) == 0xF81Fu);

  // Block formats are read-only.
  std::vector<std::byte> dxt(8, std::byte{0x5A});
  r::write_raw(ImageView{Format::kDXT1, 4, 4, 8, dxt.data()}, 0, 0, 0);
  CHECK(byte_at(dxt, 0) == 0x5A);
}

TEST_CASE("depth and stencil packing") {
  // depth_from_float: floor(d·(2^bits − 1) + 0.5)
  CHECK(r::depth_from_float(Format::kD16, 1.0f) == 65535u);
  CHECK(r::depth_from_float(Format::kD16, 0.5f) == 32768u);      // 32767.5 + 0.5
  CHECK(r::depth_from_float(Format::kD15S1, 1.0f) == 32767u);
  CHECK(r::depth_from_float(Format::kD15S1, 0.5f) == 16384u);    // 16383.5 + 0.5
  CHECK(r::depth_from_float(Format::kD24S8, 0.5f) == 8388608u);  // 8388607.5 + 0.5
  CHECK(r::depth_from_float(Format::kD24X8, 1.0f) == 0xFFFFFFu);
  CHECK(r::depth_from_float(Format::kD32, 1.0f) == 0xFFFFFFFFu);
  CHECK(r::depth_from_float(Format::kD32, 0.5f) == 2147483648u);  // 2147483647.5 + 0.5
  CHECK(r::depth_from_float(Format::kD32, 0.25f) == 1073741824u); // 1073741823.75 + 0.5
  CHECK(r::depth_from_float(Format::kD16, -1.0f) == 0u);
  CHECK(r::depth_from_float(Format::kD16, 2.0f) == 65535u);
  CHECK(r::depth_from_float(Format::kD16, std::numeric_limits<float>::quiet_NaN()) == 0u);
  CHECK(r::depth_from_float(Format::kA8R8G8B8, 1.0f) == 0u);

  std::vector<std::byte> mem(8, std::byte{0xEE});
  auto view = [&](Format f) { return ImageView{f, 2, 1, 8, mem.data()}; };

  // D16: depth 15–0
  r::write_depth_stencil(view(Format::kD16), 1, 0, 0xBEEF, 0xFF);
  CHECK(byte_at(mem, 2) == 0xEF);
  CHECK(byte_at(mem, 3) == 0xBE);
  CHECK(r::read_depth(view(Format::kD16), 1, 0) == 0xBEEFu);
  CHECK(r::read_stencil(view(Format::kD16), 1, 0) == 0u);

  // D15S1: depth 15–1, stencil 0 → 0x1234 << 1 | 1 = 0x2469; stencil 3 masks to 1
  r::write_depth_stencil(view(Format::kD15S1), 0, 0, 0x1234, 3);
  CHECK(byte_at(mem, 0) == 0x69);
  CHECK(byte_at(mem, 1) == 0x24);
  CHECK(r::read_depth(view(Format::kD15S1), 0, 0) == 0x1234u);
  CHECK(r::read_stencil(view(Format::kD15S1), 0, 0) == 1u);

  // D24S8: depth 31–8, stencil 7–0
  r::write_depth_stencil(view(Format::kD24S8), 1, 0, 0xABCDEF, 0x5A);
  CHECK(byte_at(mem, 4) == 0x5A);
  CHECK(byte_at(mem, 5) == 0xEF);
  CHECK(byte_at(mem, 6) == 0xCD);
  CHECK(byte_at(mem, 7) == 0xAB);
  CHECK(r::read_depth(view(Format::kD24S8), 1, 0) == 0xABCDEFu);
  CHECK(r::read_stencil(view(Format::kD24S8), 1, 0) == 0x5Au);

  // D24X4S4: depth 31–8, X 7–4 written 0, stencil 3–0 (0xF7 masks to 7)
  r::write_depth_stencil(view(Format::kD24X4S4), 0, 0, 0x123456, 0xF7);
  CHECK(r::read_raw(view(Format::kD24X4S4), 0, 0) == 0x12345607u);
  CHECK(r::read_depth(view(Format::kD24X4S4), 0, 0) == 0x123456u);
  CHECK(r::read_stencil(view(Format::kD24X4S4), 0, 0) == 7u);

  // D24X8: stencil ignored, X 7–0 written 0
  r::write_depth_stencil(view(Format::kD24X8), 0, 0, 1, 0xFF);
  CHECK(r::read_raw(view(Format::kD24X8), 0, 0) == 0x00000100u);
  CHECK(r::read_stencil(view(Format::kD24X8), 0, 0) == 0u);

  // D32: all 32 bits; depth wider than 32 bits cannot be passed, stencil ignored
  r::write_depth_stencil(view(Format::kD32), 1, 0, 0xDEADBEEF, 0xFF);
  CHECK(r::read_raw(view(Format::kD32), 1, 0) == 0xDEADBEEFu);
  CHECK(r::read_depth(view(Format::kD32), 1, 0) == 0xDEADBEEFu);

  // depth 0x1FFFF is masked to D16's 16 bits
  r::write_depth_stencil(view(Format::kD16), 0, 0, 0x1FFFF, 0);
  CHECK(r::read_depth(view(Format::kD16), 0, 0) == 0xFFFFu);

  // colour formats: no depth, no write
  std::vector<std::byte> before = mem;
  r::write_depth_stencil(view(Format::kA8R8G8B8), 0, 0, 5, 5);
  CHECK(mem == before);
  CHECK(r::read_depth(view(Format::kA8R8G8B8), 0, 0) == 0u);
}

// DXT1 four-colour block. c0 = 0xF800 (r5 31 → 255), c1 = 0x001F (b5 31 → 255); c0 > c1:
//   c2 = ((2·255 + 0 + 1)/3, 0, (0 + 255 + 1)/3) = (170, 0, 85)  → 0xFFAA0055
//   c3 = ((255 + 0 + 1)/3, 0, (0 + 2·255 + 1)/3) = (85, 0, 170)  → 0xFF5500AA
// Index rows (texel 0 in bits 1–0): 0xE4 = 11 10 01 00 → 0,1,2,3; 0x1B = 00 01 10 11 →
// 3,2,1,0; 0x00 → all 0; 0xFF → all 3.
TEST_CASE("DXT1 four-colour block") {
  const auto block = bytes({0x00, 0xF8, 0x1F, 0x00, 0xE4, 0x1B, 0x00, 0xFF});
  const std::uint32_t c[4] = {0xFFFF0000u, 0xFF0000FFu, 0xFFAA0055u, 0xFF5500AAu};
  const std::uint32_t expected[16] = {c[0], c[1], c[2], c[3], c[3], c[2], c[1], c[0],
                                      c[0], c[0], c[0], c[0], c[3], c[3], c[3], c[3]};
  std::uint32_t out[16];
  r::decode_dxt_block(Format::kDXT1, block.data(), out);
  for (int i = 0; i < 16; ++i) {
    CAPTURE(i);
    CHECK(out[i] == expected[i]);
  }
}

// DXT1 three-colour block: c0 = 0x001F (blue) ≤ c1 = 0xF800 (red):
//   c2 = ((0 + 255 + 1)/2, 0, (255 + 0 + 1)/2) = (128, 0, 128) → 0xFF800080; index 3 → 0.
// Expansion by bit replication: 0x8410 = r5 16, g6 32, b5 16 → (16<<3 | 16>>2,
// 32<<2 | 32>>4, 132) = (132, 130, 132); with c1 = 0 (c0 > c1, four-colour):
//   c2 = ((2·132 + 1)/3, (2·130 + 1)/3, ..) = (88, 87, 88), c3 = ((132 + 1)/3, (130 + 1)/3, ..) = (44, 43, 44).
TEST_CASE("DXT1 three-colour block, equal endpoints and endpoint expansion") {
  std::uint32_t out[16];
  const auto three = bytes({0x1F, 0x00, 0x00, 0xF8, 0xE4, 0xE4, 0xE4, 0xE4});
  r::decode_dxt_block(Format::kDXT1, three.data(), out);
  for (int row = 0; row < 4; ++row) {
    CHECK(out[row * 4 + 0] == 0xFF0000FFu);
    CHECK(out[row * 4 + 1] == 0xFFFF0000u);
    CHECK(out[row * 4 + 2] == 0xFF800080u);
    CHECK(out[row * 4 + 3] == 0x00000000u);
  }
  // c0 == c1 is three-colour mode too: index 3 is transparent black.
  const auto equal = bytes({0x00, 0xF8, 0x00, 0xF8, 0xFF, 0xFF, 0xFF, 0xFF});
  r::decode_dxt_block(Format::kDXT1, equal.data(), out);
  CHECK(out[0] == 0x00000000u);

  const auto expand = bytes({0x10, 0x84, 0x00, 0x00, 0xE4, 0x00, 0x00, 0x00});
  r::decode_dxt_block(Format::kDXT1, expand.data(), out);
  CHECK(out[0] == 0xFF848284u);
  CHECK(out[1] == 0xFF000000u);
  CHECK(out[2] == 0xFF585758u);
  CHECK(out[3] == 0xFF2C2B2Cu);
}

// DXT3: alpha bytes 0x10 0x32 … 0xFE give texel i the nibble i (low nibble first), so
// alpha = i·17. Colour block c0 = 0x0000 ≤ c1 = 0xFFFF, but DXT2–5 always use four
// colours: c2 = (0 + 255 + 1)/3 = 85, c3 = (0 + 510 + 1)/3 = 170 per channel; every
// index row 0xE4 → columns 0,1,2,3.
TEST_CASE("DXT3 explicit alpha (and DXT2 decodes the same stored values)") {
  const auto block = bytes({0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE,  //
                            0x00, 0x00, 0xFF, 0xFF, 0xE4, 0xE4, 0xE4, 0xE4});
  const std::uint32_t colour[4] = {0x000000u, 0xFFFFFFu, 0x555555u, 0xAAAAAAu};
  for (Format f : {Format::kDXT3, Format::kDXT2}) {
    std::uint32_t out[16];
    r::decode_dxt_block(f, block.data(), out);
    for (std::uint32_t i = 0; i < 16; ++i) {
      CAPTURE(i);
      CHECK(out[i] == ((i * 17u) << 24 | colour[i % 4]));
    }
  }
}

// DXT5 8-alpha mode, a0 = 255 > a1 = 0: a_i = ((8 − i)·255 + 3)/7:
//   a2 = 1533/7 = 219, a3 = 1278/7 = 182, a4 = 1023/7 = 146, a5 = 768/7 = 109,
//   a6 = 513/7 = 73, a7 = 258/7 = 36 (nearest to 218.57, 182.14, 145.71, 109.29, 72.86, 36.43).
// 3-bit indices 0,1,…,7 for texels 0–7 (bits 3i): 111 110 101 100 011 010 001 000 =
// 0xFAC688 → bytes 0x88 0xC6 0xFA; texels 8–15 repeat. Colour: c0 = c1 = 0xFFFF, white.
// DXT5 6-alpha mode, a0 = 1 ≤ a1 = 3: a_i = ((6 − i)·1 + (i − 1)·3 + 2)/5:
//   a2 = 9/5 = 1, a3 = 11/5 = 2, a4 = 13/5 = 2, a5 = 15/5 = 3 (nearest to 1.4, 1.8, 2.2,
//   2.6), a6 = 0, a7 = 255.
TEST_CASE("DXT5 interpolated alpha, both modes (and DXT4 keeps premultiplied colour)") {
  const auto eight = bytes({0xFF, 0x00, 0x88, 0xC6, 0xFA, 0x88, 0xC6, 0xFA,  //
                            0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00});
  const std::uint32_t a8[8] = {255, 0, 219, 182, 146, 109, 73, 36};
  std::uint32_t out[16];
  for (Format f : {Format::kDXT5, Format::kDXT4}) {
    r::decode_dxt_block(f, eight.data(), out);
    for (std::uint32_t i = 0; i < 16; ++i) {
      CAPTURE(i);
      CHECK(out[i] == (a8[i % 8] << 24 | 0xFFFFFFu));
    }
  }
  const auto six = bytes({0x01, 0x03, 0x88, 0xC6, 0xFA, 0x88, 0xC6, 0xFA,  //
                          0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00});
  const std::uint32_t a6[8] = {1, 3, 1, 2, 2, 3, 0, 255};
  r::decode_dxt_block(Format::kDXT5, six.data(), out);
  for (std::uint32_t i = 0; i < 16; ++i) {
    CAPTURE(i);
    CHECK(out[i] == (a6[i % 8] << 24 | 0xFFFFFFu));
  }
}

TEST_CASE("read_raw and decode_texel find the block holding (x, y)") {
  // 8×8 DXT1 image: 2×2 blocks, pitch 16. Block (1, 1) is the four-colour block above.
  std::vector<std::byte> mem(32, std::byte{0});
  const auto block = bytes({0x00, 0xF8, 0x1F, 0x00, 0xE4, 0x1B, 0x00, 0xFF});
  std::copy(block.begin(), block.end(), mem.begin() + 16 + 8);
  TextureView tex;
  tex.format = Format::kDXT1;
  tex.levels = 1;
  tex.level[0] = ImageView{Format::kDXT1, 8, 8, 16, mem.data()};
  CHECK(r::read_raw(tex.level[0], 5, 4) == 0xFF0000FFu);  // block row 0, column 1: index 1
  CHECK(r::read_raw(tex.level[0], 4, 5) == 0xFF5500AAu);  // block row 1, column 0: index 3
  CHECK(r::decode_texel(tex, 0, 5, 4) == rgba(0, 0, 1, 1));
  // Block (0, 0) is all zero: c0 = c1 = 0 → three-colour, index 0 → opaque black.
  CHECK(r::decode_texel(tex, 0, 0, 0) == rgba(0, 0, 0, 1));
}

TEST_CASE("decode_texel applies the P8 palette, alpha only with palette_alpha") {
  std::array<std::uint32_t, 256> palette{};
  palette[3] = 0x80FF8000u;
  std::vector<std::byte> mem = bytes({3, 0, 0, 0});
  TextureView tex;
  tex.format = Format::kP8;
  tex.levels = 1;
  tex.level[0] = ImageView{Format::kP8, 2, 1, 4, mem.data()};
  tex.palette = palette.data();
  CHECK(r::decode_texel(tex, 0, 0, 0) == rgba(1, 128 / 255.0f, 0, 1));
  tex.palette_alpha = true;
  CHECK(r::decode_texel(tex, 0, 0, 0) == rgba(1, 128 / 255.0f, 0, 128 / 255.0f));
  CHECK(r::decode_texel(tex, 0, 1, 0) == rgba(0, 0, 0, 0));  // entry 0 is 0x00000000
  tex.palette = nullptr;
  CHECK(r::decode_texel(tex, 0, 0, 0) == rgba(3 / 255.0f, 3 / 255.0f, 3 / 255.0f, 1));
}

TEST_CASE("nearest_palette_index") {
  std::array<std::uint32_t, 256> palette{};
  for (std::uint32_t i = 0; i < 256; ++i) palette[i] = 0xFF000000u;  // all black
  palette[10] = 0x00FF0000u;  // red (alpha ignored)
  palette[20] = 0xFF00FF00u;  // green
  palette[30] = 0xFF00FF00u;  // green again: ties go to the lowest index
  palette[40] = 0xFF808080u;  // grey 128
  CHECK(r::nearest_palette_index(palette.data(), rgba(1, 0, 0, 1)) == 10);
  CHECK(r::nearest_palette_index(palette.data(), rgba(0, 1, 0, 0)) == 20);
  CHECK(r::nearest_palette_index(palette.data(), rgba(0, 0, 0, 1)) == 0);
  // (0.45, 0.45, 0.45) → 115 each: grey 128 is 3·13² = 507 away, black 3·115² away.
  CHECK(r::nearest_palette_index(palette.data(), rgba(0.45f, 0.45f, 0.45f, 1)) == 40);
  // (0.9, 0.1, 0.1) → (230, 26, 26): red is 25² + 26² + 26² = 1977 away; grey 128 is
  // 102² + 102² + 102² away.
  CHECK(r::nearest_palette_index(palette.data(), rgba(0.9f, 0.1f, 0.1f, 1)) == 10);
}
