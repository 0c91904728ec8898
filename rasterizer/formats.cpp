// Bit layouts of every Format (formats.h states the rules). One table, indexed by
// Format, holds each format's FormatInfo and its channel positions; every function here
// reads that table. Pure functions, callable from any thread.
#include "dp2raster/formats.h"

#include <array>
#include <cmath>
#include <cstring>
#include <limits>

namespace dp2::raster {
namespace {

// A channel's position in the raw value: `bits` wide, starting at bit `shift`.
struct Channel {
  std::uint8_t shift = 0, bits = 0;
  constexpr std::uint32_t max() const { return bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1u; }
};

// Colour channels (l = luminance, read into r, g and b); `x_mask` = the unused bits,
// written as ones.
struct Layout {
  Channel r, g, b, a, l;
  std::uint32_t x_mask = 0;
};

struct Entry {
  Format format;
  FormatInfo info;
  Layout layout;
};

constexpr Channel ch(int shift, int bits) {
  return Channel{static_cast<std::uint8_t>(shift), static_cast<std::uint8_t>(bits)};
}

constexpr FormatInfo colour(int bpp, bool alpha, bool rt) {
  FormatInfo i;
  i.bits_per_pixel = static_cast<std::uint8_t>(bpp);
  i.has_alpha = alpha;
  i.render_target = rt;
  return i;
}
constexpr FormatInfo block(int bytes, bool alpha) {
  FormatInfo i;
  i.block_bytes = static_cast<std::uint8_t>(bytes);
  i.has_alpha = alpha;
  return i;
}
// Depth is always the first-named (most significant) component; stencil sits in the
// low bits (formats.h).
constexpr FormatInfo depth(int bpp, int depth_bits, int stencil_bits) {
  FormatInfo i;
  i.bits_per_pixel = static_cast<std::uint8_t>(bpp);
  i.is_depth = true;
  i.depth_bits = static_cast<std::uint8_t>(depth_bits);
  i.stencil_bits = static_cast<std::uint8_t>(stencil_bits);
  return i;
}

constexpr Layout argb(Channel a, Channel r, Channel g, Channel b, std::uint32_t x_mask = 0) {
  return Layout{r, g, b, a, {}, x_mask};
}
constexpr Layout lum(Channel a, Channel l) { return Layout{{}, {}, {}, a, l, 0}; }

// The one list. Order must match enum class Format (checked below).
constexpr std::array<Entry, static_cast<std::size_t>(Format::kCount)> kTable{{
    {Format::kUnknown, {}, {}},
    {Format::kA8R8G8B8, colour(32, true, true), argb(ch(24, 8), ch(16, 8), ch(8, 8), ch(0, 8))},
    {Format::kX8R8G8B8, colour(32, false, true), argb({}, ch(16, 8), ch(8, 8), ch(0, 8), 0xFF000000u)},
    {Format::kR8G8B8, colour(24, false, true), argb({}, ch(16, 8), ch(8, 8), ch(0, 8))},
    {Format::kR5G6B5, colour(16, false, true), argb({}, ch(11, 5), ch(5, 6), ch(0, 5))},
    {Format::kX1R5G5B5, colour(16, false, true), argb({}, ch(10, 5), ch(5, 5), ch(0, 5), 0x8000u)},
    {Format::kA1R5G5B5, colour(16, true, true), argb(ch(15, 1), ch(10, 5), ch(5, 5), ch(0, 5))},
    {Format::kA4R4G4B4, colour(16, true, true), argb(ch(12, 4), ch(8, 4), ch(4, 4), ch(0, 4))},
    {Format::kX4R4G4B4, colour(16, false, true), argb({}, ch(8, 4), ch(4, 4), ch(0, 4), 0xF000u)},
    {Format::kR3G3B2, colour(8, false, true), argb({}, ch(5, 3), ch(2, 3), ch(0, 2))},
    {Format::kA8R3G3B2, colour(16, true, true), argb(ch(8, 8), ch(5, 3), ch(2, 3), ch(0, 2))},
    {Format::kP8, colour(8, false, true), lum({}, ch(0, 8))},  // index, read as grey
    {Format::kL8, colour(8, false, false), lum({}, ch(0, 8))},
    {Format::kA8, colour(8, true, false), lum(ch(0, 8), {})},
    {Format::kA8L8, colour(16, true, false), lum(ch(8, 8), ch(0, 8))},
    {Format::kA4L4, colour(8, true, false), lum(ch(4, 4), ch(0, 4))},
    // DXTn: decode_raw/encode_color see the decoded A8R8G8B8 value.
    {Format::kDXT1, block(8, true), argb(ch(24, 8), ch(16, 8), ch(8, 8), ch(0, 8))},
    {Format::kDXT2, block(16, true), argb(ch(24, 8), ch(16, 8), ch(8, 8), ch(0, 8))},
    {Format::kDXT3, block(16, true), argb(ch(24, 8), ch(16, 8), ch(8, 8), ch(0, 8))},
    {Format::kDXT4, block(16, true), argb(ch(24, 8), ch(16, 8), ch(8, 8), ch(0, 8))},
    {Format::kDXT5, block(16, true), argb(ch(24, 8), ch(16, 8), ch(8, 8), ch(0, 8))},
    {Format::kD16, depth(16, 16, 0), {}},
    {Format::kD15S1, depth(16, 15, 1), {}},
    {Format::kD24S8, depth(32, 24, 8), {}},
    {Format::kD24X8, depth(32, 24, 0), {}},
    {Format::kD24X4S4, depth(32, 24, 4), {}},
    {Format::kD32, depth(32, 32, 0), {}},
}};

constexpr bool table_in_enum_order() {
  for (std::size_t i = 0; i < kTable.size(); ++i)
    if (static_cast<std::size_t>(kTable[i].format) != i) return false;
  return true;
}
static_assert(table_in_enum_order(), "kTable rows must follow enum class Format");

constexpr Entry kEmpty{Format::kUnknown, {}, {}};

const Entry& entry(Format f) noexcept {
  const auto i = static_cast<std::size_t>(f);
  return i < kTable.size() ? kTable[i] : kEmpty;
}

bool is_dxt(Format f) noexcept { return entry(f).info.block_bytes != 0; }

// --- channel conversion ----------------------------------------------------------------

inline float unorm(std::uint32_t raw, Channel c) noexcept {
  if (c.bits == 0) return 0.0f;
  const std::uint32_t q = (raw >> c.shift) & c.max();
  return static_cast<float>(q) / static_cast<float>(c.max());
}

// q = floor(c × max + 0.5 + dither), c clamped to [0, 1] (NaN → 0), q clamped to [0, max].
inline std::uint32_t quantize(float c, Channel ch_, float dither) noexcept {
  if (ch_.bits == 0) return 0;
  if (!(c > 0.0f)) c = 0.0f;  // also NaN
  if (c > 1.0f) c = 1.0f;
  const float m = static_cast<float>(ch_.max());
  const float q = std::floor(c * m + 0.5f + dither);
  if (!(q > 0.0f)) return 0;  // also a NaN dither
  if (q >= m) return ch_.max();
  return static_cast<std::uint32_t>(q);
}

std::uint32_t put(float c, Channel ch_, float dither) noexcept { return quantize(c, ch_, dither) << ch_.shift; }

// --- memory access ---------------------------------------------------------------------

std::byte* pixel_address(const ImageView& image, std::uint32_t x, std::uint32_t y, std::uint32_t bytes) noexcept {
  return image.data + static_cast<std::size_t>(y) * image.pitch + static_cast<std::size_t>(x) * bytes;
}

std::uint32_t load_le(const std::byte* p, std::uint32_t bytes) noexcept {
  unsigned char b[4] = {0, 0, 0, 0};
  std::memcpy(b, p, bytes);
  return static_cast<std::uint32_t>(b[0]) | static_cast<std::uint32_t>(b[1]) << 8 |
         static_cast<std::uint32_t>(b[2]) << 16 | static_cast<std::uint32_t>(b[3]) << 24;
}

void store_le(std::byte* p, std::uint32_t bytes, std::uint32_t v) noexcept {
  const unsigned char b[4] = {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8),
                              static_cast<unsigned char>(v >> 16), static_cast<unsigned char>(v >> 24)};
  std::memcpy(p, b, bytes);
}

std::uint64_t load_le64(const std::byte* p, std::uint32_t bytes) noexcept {
  std::uint64_t v = 0;
  for (std::uint32_t i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(std::to_integer<unsigned>(p[i])) << (8 * i);
  return v;
}

// --- DXTn ------------------------------------------------------------------------------

struct Rgb8 {
  std::uint32_t r, g, b;
};

Rgb8 expand565(std::uint32_t c) noexcept {
  const std::uint32_t r = (c >> 11) & 31u, g = (c >> 5) & 63u, b = c & 31u;
  return {(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2)};
}

std::uint32_t pack(std::uint32_t a, Rgb8 c) noexcept { return a << 24 | c.r << 16 | c.g << 8 | c.b; }

// The four colours of a colour block (formats.h: decode_dxt_block), alpha 255 (index 3
// of DXT1's three-colour mode: 0x00000000).
void colour_palette(const std::byte* block, bool dxt1, std::uint32_t out[4]) noexcept {
  const std::uint32_t w0 = load_le(block, 2), w1 = load_le(block + 2, 2);
  const Rgb8 c0 = expand565(w0), c1 = expand565(w1);
  out[0] = pack(255, c0);
  out[1] = pack(255, c1);
  if (!dxt1 || w0 > w1) {
    out[2] = pack(255, {(2 * c0.r + c1.r + 1) / 3, (2 * c0.g + c1.g + 1) / 3, (2 * c0.b + c1.b + 1) / 3});
    out[3] = pack(255, {(c0.r + 2 * c1.r + 1) / 3, (c0.g + 2 * c1.g + 1) / 3, (c0.b + 2 * c1.b + 1) / 3});
  } else {
    out[2] = pack(255, {(c0.r + c1.r + 1) / 2, (c0.g + c1.g + 1) / 2, (c0.b + c1.b + 1) / 2});
    out[3] = 0x00000000u;
  }
}

std::uint32_t colour_index(const std::byte* colour_block, std::uint32_t i) noexcept {
  const unsigned row = std::to_integer<unsigned>(colour_block[4 + i / 4]);
  return (row >> (2 * (i % 4))) & 3u;
}

void alpha_palette_interpolated(std::uint32_t a0, std::uint32_t a1, std::uint32_t out[8]) noexcept {
  out[0] = a0;
  out[1] = a1;
  if (a0 > a1) {
    for (std::uint32_t i = 2; i < 8; ++i) out[i] = ((8 - i) * a0 + (i - 1) * a1 + 3) / 7;
  } else {
    for (std::uint32_t i = 2; i < 6; ++i) out[i] = ((6 - i) * a0 + (i - 1) * a1 + 2) / 5;
    out[6] = 0;
    out[7] = 255;
  }
}

// Texel i (row-major, 0..15) of a block.
std::uint32_t dxt_texel(Format f, const std::byte* block, std::uint32_t i) noexcept {
  if (f == Format::kDXT1) {
    std::uint32_t colours[4];
    colour_palette(block, true, colours);
    return colours[colour_index(block, i)];
  }
  std::uint32_t colours[4];
  colour_palette(block + 8, false, colours);
  const std::uint32_t rgb = colours[colour_index(block + 8, i)] & 0x00FFFFFFu;
  std::uint32_t a = 0;
  if (f == Format::kDXT2 || f == Format::kDXT3) {
    a = static_cast<std::uint32_t>((load_le64(block, 8) >> (4 * i)) & 15u) * 17u;
  } else {
    std::uint32_t alphas[8];
    alpha_palette_interpolated(std::to_integer<std::uint32_t>(block[0]), std::to_integer<std::uint32_t>(block[1]),
                               alphas);
    a = alphas[(load_le64(block + 2, 6) >> (3 * i)) & 7u];
  }
  return a << 24 | rgb;
}

// --- depth -----------------------------------------------------------------------------

Channel depth_channel(const FormatInfo& info) noexcept {
  return ch(info.bits_per_pixel - info.depth_bits, info.depth_bits);
}
Channel stencil_channel(const FormatInfo& info) noexcept { return ch(0, info.stencil_bits); }

}  // namespace

const FormatInfo& format_info(Format f) noexcept { return entry(f).info; }

std::uint32_t format_pitch(Format f, std::uint32_t width) noexcept {
  const FormatInfo& info = format_info(f);
  std::uint64_t pitch = 0;
  if (info.block_bytes != 0) {
    pitch = (static_cast<std::uint64_t>(width) + 3) / 4 * info.block_bytes;
  } else {
    pitch = (static_cast<std::uint64_t>(width) * info.bits_per_pixel + 31) / 32 * 4;
  }
  return pitch > std::numeric_limits<std::uint32_t>::max() ? std::numeric_limits<std::uint32_t>::max()
                                                            : static_cast<std::uint32_t>(pitch);
}

std::uint64_t format_row_bytes(Format f, std::uint32_t width) noexcept {
  const FormatInfo& info = format_info(f);
  const std::uint64_t w = width;
  return info.block_bytes != 0 ? (w + 3) / 4 * info.block_bytes : (w * info.bits_per_pixel + 7) / 8;
}

std::uint64_t format_level_size(Format f, std::uint32_t width, std::uint32_t height) noexcept {
  const std::uint64_t rows = is_dxt(f) ? (static_cast<std::uint64_t>(height) + 3) / 4 : height;
  return static_cast<std::uint64_t>(format_pitch(f, width)) * rows;
}

std::uint32_t read_raw(const ImageView& image, std::uint32_t x, std::uint32_t y) noexcept {
  const FormatInfo& info = format_info(image.format);
  // 32-bit pixels (ARGB8888, D24S8, ...) are the common case: a fixed-size load.
  if (info.bits_per_pixel == 32) return load_le(pixel_address(image, x, y, 4), 4);
  if (info.block_bytes != 0) {
    const std::byte* block = pixel_address(image, x / 4, y / 4, info.block_bytes);
    return dxt_texel(image.format, block, (y % 4) * 4 + (x % 4));
  }
  const std::uint32_t bytes = info.bits_per_pixel / 8u;
  if (bytes == 0) return 0;
  return load_le(pixel_address(image, x, y, bytes), bytes);
}

void write_raw(const ImageView& image, std::uint32_t x, std::uint32_t y, std::uint32_t raw) noexcept {
  const FormatInfo& info = format_info(image.format);
  if (info.bits_per_pixel == 32) return store_le(pixel_address(image, x, y, 4), 4, raw);  // as in read_raw
  const std::uint32_t bytes = info.bits_per_pixel / 8u;
  if (info.block_bytes != 0 || bytes == 0) return;
  store_le(pixel_address(image, x, y, bytes), bytes, raw);
}

namespace {

// The common 8-bit-per-channel formats, decoded without the table walk. Same arithmetic
// as unorm() (q / 255 as a float division), so the same bits.
constexpr float kUnorm8Max = 255.0f;
bool is_argb8888(Format f) noexcept { return f == Format::kA8R8G8B8 || f == Format::kX8R8G8B8; }
float unorm8(std::uint32_t raw, int shift) noexcept {
  return static_cast<float>((raw >> shift) & 0xFFu) / kUnorm8Max;
}

}  // namespace

Color decode_raw(Format f, std::uint32_t raw) noexcept {
  if (is_argb8888(f))
    return {unorm8(raw, 16), unorm8(raw, 8), unorm8(raw, 0), f == Format::kA8R8G8B8 ? unorm8(raw, 24) : 1.0f};
  const Entry& e = entry(f);
  if (e.info.is_depth) {
    const Channel d = depth_channel(e.info);
    // In double: a 24- or 32-bit depth does not fit a float's mantissa.
    const auto v = static_cast<float>(static_cast<double>((raw >> d.shift) & d.max()) / static_cast<double>(d.max()));
    return {v, v, v, 1.0f};
  }
  const Layout& l = e.layout;
  Color c;
  if (l.l.bits != 0) {
    c.r = c.g = c.b = unorm(raw, l.l);
  } else {
    c.r = unorm(raw, l.r);
    c.g = unorm(raw, l.g);
    c.b = unorm(raw, l.b);
  }
  c.a = l.a.bits != 0 ? unorm(raw, l.a) : 1.0f;
  return c;
}

ImageView texel_image(const TextureView& texture, std::uint32_t level) noexcept {
  ImageView image = texture.level[level];
  image.format = texture.format;
  return image;
}

Color decode_texel(const TextureView& texture, std::uint32_t level, std::uint32_t x, std::uint32_t y) noexcept {
  const ImageView image = texel_image(texture, level);
  if (is_argb8888(image.format)) return decode_raw(image.format, load_le(pixel_address(image, x, y, 4), 4));
  const std::uint32_t raw = read_raw(image, x, y);
  if (texture.format == Format::kP8 && texture.palette != nullptr) {
    const std::uint32_t e = texture.palette[raw & 0xFFu];
    Color c = decode_raw(Format::kA8R8G8B8, e);
    if (!texture.palette_alpha) c.a = 1.0f;
    return c;
  }
  return decode_raw(texture.format, raw);
}

std::uint32_t encode_color(Format f, const Color& c, float dither) noexcept {
  if (is_argb8888(f)) {
    // The table path with the 8-bit channels spelt out (X8R8G8B8's x_mask is the alpha byte).
    constexpr Channel kR = ch(16, 8), kG = ch(8, 8), kB = ch(0, 8), kA = ch(24, 8);
    const std::uint32_t alpha = f == Format::kA8R8G8B8 ? put(c.a, kA, 0.0f) : 0xFF000000u;
    return put(c.r, kR, dither) | put(c.g, kG, dither) | put(c.b, kB, dither) | alpha;
  }
  const Entry& e = entry(f);
  if (e.info.is_depth) return depth_from_float(f, c.r) << depth_channel(e.info).shift;
  const Layout& l = e.layout;
  std::uint32_t raw = l.x_mask;
  if (l.l.bits != 0) {
    raw |= put(c.r, l.l, dither);
  } else {
    raw |= put(c.r, l.r, dither) | put(c.g, l.g, dither) | put(c.b, l.b, dither);
  }
  raw |= put(c.a, l.a, 0.0f);
  return raw;
}

std::uint8_t nearest_palette_index(const std::uint32_t* palette, const Color& c) noexcept {
  const std::uint32_t want = encode_color(Format::kX8R8G8B8, c);
  const int r = static_cast<int>((want >> 16) & 0xFFu), g = static_cast<int>((want >> 8) & 0xFFu),
            b = static_cast<int>(want & 0xFFu);
  std::uint8_t best = 0;
  int best_distance = std::numeric_limits<int>::max();
  for (int i = 0; i < 256; ++i) {
    const std::uint32_t p = palette[i];
    const int dr = static_cast<int>((p >> 16) & 0xFFu) - r, dg = static_cast<int>((p >> 8) & 0xFFu) - g,
              db = static_cast<int>(p & 0xFFu) - b;
    const int distance = dr * dr + dg * dg + db * db;
    if (distance < best_distance) {
      best_distance = distance;
      best = static_cast<std::uint8_t>(i);
      if (distance == 0) break;
    }
  }
  return best;
}

std::uint32_t read_depth(const ImageView& image, std::uint32_t x, std::uint32_t y) noexcept {
  const FormatInfo& info = format_info(image.format);
  if (!info.is_depth) return 0;
  const Channel d = depth_channel(info);
  return (read_raw(image, x, y) >> d.shift) & d.max();
}

std::uint32_t read_stencil(const ImageView& image, std::uint32_t x, std::uint32_t y) noexcept {
  const FormatInfo& info = format_info(image.format);
  if (!info.is_depth || info.stencil_bits == 0) return 0;
  return read_raw(image, x, y) & stencil_channel(info).max();
}

void write_depth_stencil(const ImageView& image, std::uint32_t x, std::uint32_t y, std::uint32_t depth_value,
                         std::uint32_t stencil) noexcept {
  const FormatInfo& info = format_info(image.format);
  if (!info.is_depth) return;
  const Channel d = depth_channel(info);
  std::uint32_t raw = (depth_value & d.max()) << d.shift;
  if (info.stencil_bits != 0) raw |= stencil & stencil_channel(info).max();
  write_raw(image, x, y, raw);
}

std::uint32_t depth_from_float(Format f, float d) noexcept {
  const FormatInfo& info = format_info(f);
  if (!info.is_depth) return 0;
  double v = d;
  if (!(v > 0.0)) v = 0.0;  // also NaN
  if (v > 1.0) v = 1.0;
  const auto m = static_cast<double>(depth_channel(info).max());  // 2^32 − 1 exact in double
  return static_cast<std::uint32_t>(std::floor(v * m + 0.5));
}

void decode_dxt_block(Format f, const std::byte* block, std::uint32_t out[16]) noexcept {
  if (!is_dxt(f)) {
    for (std::uint32_t i = 0; i < 16; ++i) out[i] = 0;
    return;
  }
  for (std::uint32_t i = 0; i < 16; ++i) out[i] = dxt_texel(f, block, i);
}

}  // namespace dp2::raster
