// Reading and writing pixels of every Format: the one place that knows bit layouts.
// Used by the sampler (texels), the per-pixel stage (render target and depth/stencil),
// clears, and the PNG dump. Pure functions; thread-safe; no state of their own.
//
// Bit layouts follow the D3DFORMAT naming rule (DirectX 9 SDK D3DFORMAT page, quoted in
// reference/STATES.md §16): "component letters run from the most- to the least-significant
// bit". So A8R8G8B8 is 0xAARRGGBB in a little-endian DWORD, R5G6B5 has red in bits 15–11,
// and the depth/stencil formats put the first-named component on top:
//   D16      depth 15–0
//   D15S1    depth 15–1, stencil 0
//   D24S8    depth 31–8, stencil 7–0
//   D24X8    depth 31–8, bits 7–0 unused
//   D24X4S4  depth 31–8, bits 7–4 unused, stencil 3–0
//   D32      depth 31–0
// (Wine's ddraw attaches the opposite masks to D24S8/D15S1 — STATES.md §17 S1, not
// confirmed for the real runtime; the front end decodes DDPIXELFORMAT masks and picks the
// Format that matches, so this file follows the naming rule only.)
// R8G8B8 is 3 bytes per pixel, B, G, R in memory (raw value 0x00RRGGBB).
// Unused (X) bits are written as ones, so an X8R8G8B8 pixel has the bytes of the opaque
// A8R8G8B8 pixel; depth-format X bits are written as zeros.
#pragma once

#include <cstdint>

#include "dp2raster/types.h"

namespace dp2::raster {

struct FormatInfo {
  std::uint8_t bits_per_pixel = 0;  // 0 for block formats
  std::uint8_t block_bytes = 0;     // DXTn: bytes per 4×4 block; 0 otherwise
  bool has_alpha = false;           // an alpha channel that is stored (not X)
  bool is_depth = false;
  std::uint8_t depth_bits = 0, stencil_bits = 0;
  bool render_target = false;       // a format a colour render target can have
};
// kUnknown and out-of-range values give an all-zero FormatInfo.
const FormatInfo& format_info(Format f) noexcept;

// Bytes per row and per level for a width × height image (rows DWORD-aligned, DXTn rows
// of blocks: ceil(width / 4) × block_bytes per row, ceil(height / 4) rows). Saturates at
// UINT32_MAX (the caller checks sizes against kMaxSurfaceDimension first).
std::uint32_t format_pitch(Format f, std::uint32_t width) noexcept;
// The bytes a row of `width` pixels (of 4×4 blocks for DXTn) occupies, without the DWORD
// padding format_pitch adds: the least pitch an image of that format can have.
std::uint64_t format_row_bytes(Format f, std::uint32_t width) noexcept;

// Level `level` of a texture as its texels are read: in the texture's format, whatever
// the level's own format field says.
ImageView texel_image(const TextureView& texture, std::uint32_t level) noexcept;
std::uint64_t format_level_size(Format f, std::uint32_t width, std::uint32_t height) noexcept;

// The raw bits of the texel or pixel at (x, y), little-endian, unaligned-safe (for DXTn:
// the decoded A8R8G8B8 value; for P8: the palette index).
// Preconditions: x < width, y < height.
std::uint32_t read_raw(const ImageView& image, std::uint32_t x, std::uint32_t y) noexcept;

// Raw bits → colour; a q-bit channel value v decodes to v / (2^q − 1) (exact float
// division). X channels read as alpha 1; L8 → (l, l, l, 1); A8 → (0, 0, 0, a)
// [D3D: A8 textures return 0 colour]; A8L8 / A4L4 → (l, l, l, a).
// P8 needs the palette (decode_texel does it): here the index reads as grey (i/255, i/255,
// i/255, 1). DXTn: `raw` is the A8R8G8B8 value read_raw returns. Depth formats: the depth
// as grey (d, d, d, 1), d = depth / (2^depth_bits − 1) (for the PNG dump).
Color decode_raw(Format f, std::uint32_t raw) noexcept;

// A texel as the sampler sees it (palette applied, DXTn decoded). P8: palette entries are
// 0xAARRGGBB; alpha comes from the palette only when `palette_alpha`, else 1; a null
// palette reads as decode_raw(kP8) does. DXT2/DXT4 are premultiplied-alpha formats: the
// stored (premultiplied) colour is returned as is. The colour key is not applied here
// (the sampler compares read_raw with the key). Uses `texture.format` for the level.
// Preconditions: level < texture.levels, (x, y) inside that level.
Color decode_texel(const TextureView& texture, std::uint32_t level, std::uint32_t x, std::uint32_t y) noexcept;

// Colour → raw bits, rounding to nearest: q = floor(c × (2^bits − 1) + 0.5 + dither),
// clamped to [0, 2^bits − 1]; c is clamped to [0, 1] first and NaN reads as 0.
// `dither` is added in units of the target's least significant bit (0 = off) to every
// colour and luminance channel; alpha is never dithered.
// L8 / A8L8 / A4L4 take luminance from the red channel (so decode → encode round-trips);
// A8 stores alpha only. P8: returns the red channel's 8-bit value — a real P8 target
// write needs the palette, see nearest_palette_index. DXTn: returns the A8R8G8B8 encoding
// (write_raw does not write block formats). Depth formats: depth_from_float(c.r), stencil 0.
std::uint32_t encode_color(Format f, const Color& c, float dither = 0.0f) noexcept;
// Writes the low bits_per_pixel bits of `raw` at (x, y). Block formats (DXTn) are
// read-only: nothing is written. Preconditions: x < width, y < height.
void write_raw(const ImageView& image, std::uint32_t x, std::uint32_t y, std::uint32_t raw) noexcept;

// The index of the palette entry (256 × 0xAARRGGBB) closest to `c`: c is encoded to 8-bit
// R, G, B as encode_color does, distance is the sum of squared R, G, B differences (alpha
// is ignored), and ties go to the lowest index. An exact match has distance 0.
std::uint8_t nearest_palette_index(const std::uint32_t* palette, const Color& c) noexcept;

// Depth and stencil, as unsigned integers of the format's width (layouts above). Depth
// value d in [0,1] (NaN → 0) stores as floor(d × (2^bits − 1) + 0.5) computed in double;
// D32 keeps 32 bits. Formats without stencil read stencil 0 and ignore it on write;
// `stencil` and `depth` are masked to their widths. Non-depth formats: read 0, no write.
std::uint32_t read_depth(const ImageView& image, std::uint32_t x, std::uint32_t y) noexcept;
std::uint32_t read_stencil(const ImageView& image, std::uint32_t x, std::uint32_t y) noexcept;
void write_depth_stencil(const ImageView& image, std::uint32_t x, std::uint32_t y, std::uint32_t depth,
                         std::uint32_t stencil) noexcept;
std::uint32_t depth_from_float(Format f, float d) noexcept;

// Decodes one 4×4 DXTn block to 16 A8R8G8B8 values, row-major (DirectX "Compressed Texture
// Resources" rules):
// - colour block: two R5G6B5 endpoints c0, c1 (little-endian WORDs), then 4 bytes of 2-bit
//   indices, one byte per row, texel 0 of the row in bits 1–0. Endpoints expand to 8 bits
//   by bit replication (r8 = r5 << 3 | r5 >> 2, g8 = g6 << 2 | g6 >> 4). Four-colour mode
//   (always for DXT2–5; DXT1 when c0 > c1 as WORDs): c2 = (2·c0 + c1 + 1) / 3,
//   c3 = (c0 + 2·c1 + 1) / 3 per 8-bit channel, integer division (round to nearest).
//   DXT1 three-colour mode (c0 ≤ c1): c2 = (c0 + c1 + 1) / 2 (round half up), index 3 =
//   transparent black 0x00000000. DXT1 is otherwise opaque.
// - DXT2/3 alpha: 8 bytes before the colour block, a 64-bit little-endian value with 4 bits
//   per texel (texel i in bits 4i+3–4i), expanded a8 = a4 × 17.
// - DXT4/5 alpha: a0, a1 bytes, then a 48-bit little-endian value with 3 bits per texel.
//   a0 > a1: 8 alphas, a_i = ((8 − i)·a0 + (i − 1)·a1 + 3) / 7 for i = 2..7;
//   a0 ≤ a1: 6 alphas, a_i = ((6 − i)·a0 + (i − 1)·a1 + 2) / 5 for i = 2..5, a6 = 0,
//   a7 = 255 (integer division, round to nearest).
// DXT2/DXT4 colours are premultiplied by alpha; the stored values are returned.
void decode_dxt_block(Format f, const std::byte* block, std::uint32_t out[16]) noexcept;

}  // namespace dp2::raster
