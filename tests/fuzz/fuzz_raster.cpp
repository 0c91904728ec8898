// libFuzzer target: the rasterizer's C++ API (dp2raster/renderer.h) on its own. Each input
// builds a small scene — a colour and a depth target, up to two textures, one or two
// DrawStates, and a handful of draws, clears and flushes — full of the states no device
// makes: enum values out of range, NaN / infinite / huge / denormal floats, pitches that
// are short or zero, missing memory, clip and clear rects that are negative or huge,
// stage counts past the array, point sizes and limits of any value.
//
// Invariant checked: ASan/UBSan stay quiet. Every buffer handed to the renderer is its own
// heap block of exactly the bytes the API reads (an image: pitch × rows; vertices: count
// of them; indices and edge flags: their count), so a read or write outside it is a
// rasterizer bug — unless the harness broke one of the guarantees renderer.h leaves to the
// caller, which it keeps: every index is below the vertex count, an image's memory holds
// pitch × rows bytes (rows of 4×4 blocks for DXTn; a texture level's in the texture's
// format), vertex bytes go through the device's own FVF check
// (vertex::describe_pretransformed) before its fetch reads them, and every DrawState,
// image and palette stays alive and unchanged until the flush() after its last draw.
//
// The ISA alternates between the scalar kernels (ASan cannot see inside the AVX2
// gathers, so over-reads show there) and the CPU's best. One render thread: deterministic.
//
// Input: one byte stream read front to back by Reader; past its end every read is zero,
// so every input is a scene. tests/fuzz/write_raster_seeds.py writes the seeds in
// tests/fuzz/raster-seeds/ and documents the layout read below. With the environment
// variable DP2_FUZZ_RASTER_STATS set, each input's RendererStats go to stderr (to check
// that a seed draws pixels).
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "ddi/fvf.h"
#include "dp2raster/formats.h"
#include "dp2raster/renderer.h"
#include "vertex/fetch.h"

namespace {

using namespace dp2::raster;

// --- reading the input ------------------------------------------------------------------

// The one reader of the input: bounds-checked, zero past the end.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> input) : input_(input) {}
  std::uint8_t u8() { return at_ < input_.size() ? input_[at_++] : 0; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(u8() | u8() << 8); }
  std::uint32_t u32() { return u16() | std::uint32_t{u16()} << 16; }
  float raw_float() {
    const std::uint32_t bits = u32();
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }

 private:
  std::span<const std::uint8_t> input_;
  std::size_t at_ = 0;
};

// Selectors from here up name a value outside the enum's list (selector − kRawEnumFrom:
// 0 and the values just past the last one, where an unchecked switch or table falls off).
constexpr std::uint8_t kRawEnumFrom = 0xE0;

// An enum from one byte: one of the `count` values from `first` on, or a raw small value.
template <class E>
E pick_enum(Reader& in, unsigned first, unsigned count) {
  const std::uint8_t sel = in.u8();
  const unsigned value = sel >= kRawEnumFrom ? sel - kRawEnumFrom : first + sel % count;
  return static_cast<E>(value);
}

// Values that break arithmetic, named by the first float selectors.
const float kSpecialFloats[] = {
    0.0f, 1.0f, -1.0f, 0.5f, -0.0f,
    std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
    -std::numeric_limits<float>::infinity(), FLT_MAX, -FLT_MAX, FLT_MIN,
    std::numeric_limits<float>::denorm_min(), 1e30f, -1e30f, 16777216.0f /* 2^24 */,
    1048576.0f /* the guard band, 2^20 */, 1048577.0f, 16384.0f /* kMaxSurfaceDimension */, 1e9f, -1e9f,
};
constexpr std::uint8_t kSpecialFloatCount = static_cast<std::uint8_t>(std::size(kSpecialFloats));
// Then a grid of small values covering the targets (and a little around them), then a
// selector that reads four raw bytes.
constexpr float kGridLow = -8.0f, kGridStep = 0.5f;
constexpr std::uint8_t kRawFloatSelector = 0xFF;

// A float from one byte (five for a raw one).
float fuzz_float(Reader& in) {
  const std::uint8_t sel = in.u8();
  if (sel < kSpecialFloatCount) return kSpecialFloats[sel];
  if (sel == kRawFloatSelector) return in.raw_float();
  return kGridLow + kGridStep * static_cast<float>(sel - kSpecialFloatCount);
}

// A colour channel: byte / kUnitSteps for bytes up to it, then out-of-range values.
constexpr std::uint8_t kUnitSteps = 250;
const float kChannelSpecials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                                  -std::numeric_limits<float>::infinity(), -1.0f, 2.0f};
static_assert(kUnitSteps + std::size(kChannelSpecials) == 255);

float fuzz_channel(Reader& in) {
  const std::uint8_t b = in.u8();
  return b <= kUnitSteps ? static_cast<float>(b) / kUnitSteps : kChannelSpecials[b - kUnitSteps - 1];
}

Color fuzz_color(Reader& in) {
  Color c;
  c.r = fuzz_channel(in);
  c.g = fuzz_channel(in);
  c.b = fuzz_channel(in);
  c.a = fuzz_channel(in);
  return c;
}

// A 32-bit value that is mostly small: one byte, or all ones, or four raw bytes.
constexpr std::uint8_t kAllOnesSelector = 0xFE, kRawU32Selector = 0xFF;
std::uint32_t fuzz_u32(Reader& in) {
  const std::uint8_t b = in.u8();
  if (b == kAllOnesSelector) return 0xFFFFFFFFu;
  if (b == kRawU32Selector) return in.u32();
  return b;
}

// --- images ----------------------------------------------------------------------------

constexpr std::uint32_t kMaxTargetSize = 96;   // targets: 1..96 pixels each way
constexpr std::uint32_t kMaxTextureSize = 64;  // texture level 0: 1..64 texels each way
constexpr std::uint32_t kMaxTextureLevels = 3;
constexpr std::uint32_t kMaxTextures = 2;

// Formats a selector picks from (kUnknown = no image); anything else, out-of-range values
// included, comes through the raw-format selector bit.
const Format kColorFormats[] = {Format::kA8R8G8B8, Format::kX8R8G8B8, Format::kA8R8G8B8, Format::kR5G6B5,
                                Format::kX1R5G5B5, Format::kA1R5G5B5, Format::kA4R4G4B4, Format::kX4R4G4B4,
                                Format::kR3G3B2,   Format::kA8R3G3B2, Format::kP8,       Format::kR8G8B8,
                                Format::kUnknown};
const Format kDepthFormats[] = {Format::kD24S8,  Format::kD16,    Format::kD15S1, Format::kD24X8,
                                Format::kD24X4S4, Format::kD32,   Format::kUnknown};
const Format kTextureFormats[] = {Format::kA8R8G8B8, Format::kX8R8G8B8, Format::kA8R8G8B8, Format::kR5G6B5,
                                  Format::kX1R5G5B5, Format::kA1R5G5B5, Format::kA4R4G4B4, Format::kX4R4G4B4,
                                  Format::kR3G3B2,   Format::kA8R3G3B2, Format::kP8,       Format::kR8G8B8,
                                  Format::kL8,       Format::kA8,       Format::kA8L8,     Format::kA4L4,
                                  Format::kDXT1,     Format::kDXT2,     Format::kDXT3,     Format::kDXT4,
                                  Format::kDXT5};
constexpr std::uint8_t kRawFormatBit = 0x80;

Format fuzz_format(Reader& in, std::span<const Format> preferred) {
  const std::uint8_t sel = in.u8();
  if (sel & kRawFormatBit) return static_cast<Format>(in.u8());
  return preferred[sel % preferred.size()];
}

// An image's memory: exactly pitch × rows bytes, where renderer.h's caller puts them.
// Rows of 4×4 blocks for DXTn (ImageView: pitch is per row of blocks).
std::uint64_t image_bytes(Format memory_format, std::uint32_t pitch, std::uint32_t height) {
  const bool blocks = format_info(memory_format).block_bytes != 0;
  const std::uint64_t rows = blocks ? (std::uint64_t{height} + 3) / 4 : height;
  return std::uint64_t{pitch} * rows;
}

// The low bits of an image's layout byte choose its pitch; the middle ones, when all set,
// leave it without memory.
enum PitchMode : std::uint8_t {
  kPitchAligned, kPitchAligned2, kPitchAligned3,  // format_pitch: DWORD-aligned rows
  kPitchPacked,   // format_row_bytes: the least a row needs
  kPitchShort,    // 1..4 bytes short of a row
  kPitchZero,
  kPitchPadded,   // a row and up to 255 bytes more
  kPitchRaw,      // any 16-bit value
};
constexpr std::uint8_t kPitchModeMask = 0x07, kNoMemoryMask = 0x38, kShortPitchSteps = 4;

std::uint32_t fuzz_pitch(Reader& in, std::uint8_t layout, Format format, std::uint32_t width) {
  const auto row = static_cast<std::uint32_t>(format_row_bytes(format, width));  // ≤ 96 × 4
  switch (static_cast<PitchMode>(layout & kPitchModeMask)) {
    case kPitchAligned: case kPitchAligned2: case kPitchAligned3: return format_pitch(format, width);
    case kPitchPacked: return row;
    case kPitchShort: {
      const std::uint32_t shortfall = 1 + in.u8() % kShortPitchSteps;
      return row > shortfall ? row - shortfall : 0;
    }
    case kPitchZero: return 0;
    case kPitchPadded: return row + in.u8();
    case kPitchRaw: return in.u16();
  }
  return row;
}

// Deterministic filler for image memory: pixels vary without costing input bytes.
void fill_bytes(std::byte* out, std::size_t n, std::uint8_t seed) {
  constexpr std::uint32_t kMultiplier = 1103515245u, kIncrement = 12345u;  // the C standard's example LCG
  std::uint32_t x = seed;
  for (std::size_t i = 0; i < n; ++i) {
    x = x * kMultiplier + kIncrement;
    out[i] = static_cast<std::byte>(x >> 24);
  }
}

// Every buffer the scene hands out, each its own exact-size heap block (new[] of 0 bytes
// is a valid pointer ASan reports any access through). Lives until the input is done.
struct Storage {
  std::vector<std::unique_ptr<std::byte[]>> blocks;
  std::byte* allocate(std::uint64_t bytes, std::uint8_t seed) {
    blocks.push_back(std::make_unique<std::byte[]>(static_cast<std::size_t>(bytes)));
    fill_bytes(blocks.back().get(), static_cast<std::size_t>(bytes), seed);
    return blocks.back().get();
  }
  const std::uint32_t* palette(std::uint8_t seed) {
    constexpr std::size_t kPaletteEntries = 256;
    return reinterpret_cast<const std::uint32_t*>(allocate(kPaletteEntries * sizeof(std::uint32_t), seed));
  }
};

// width, height, layout byte (pitch mode; no memory), pitch extras, fill seed. The
// memory follows `memory_format` (a texture level: the texture's), the view says `format`.
ImageView fuzz_image(Reader& in, Storage& storage, Format format, Format memory_format, std::uint32_t width,
                     std::uint32_t height) {
  ImageView image;
  image.format = format;
  image.width = width;
  image.height = height;
  const std::uint8_t layout = in.u8();
  image.pitch = fuzz_pitch(in, layout, memory_format, width);
  const std::uint8_t seed = in.u8();
  if ((layout & kNoMemoryMask) != kNoMemoryMask)
    image.data = storage.allocate(image_bytes(memory_format, image.pitch, height), seed);
  return image;
}

ImageView fuzz_target(Reader& in, Storage& storage, std::span<const Format> formats) {
  const Format format = fuzz_format(in, formats);
  const std::uint32_t width = 1 + in.u8() % kMaxTargetSize, height = 1 + in.u8() % kMaxTargetSize;
  return fuzz_image(in, storage, format, format, width, height);
}

// Texture flags.
constexpr std::uint8_t kTexPalette = 0x01, kTexPaletteAlpha = 0x02, kTexColorKey = 0x04, kTexRawLevels = 0x08;
// Level flags (beside the layout byte): a size of its own, a format field of its own.
constexpr std::uint8_t kLevelOwnSize = 0x01, kLevelOwnFormat = 0x02;

void fuzz_texture(Reader& in, Storage& storage, TextureView& t) {
  t.format = fuzz_format(in, kTextureFormats);
  const std::uint8_t flags = in.u8();
  const std::uint32_t allocated = 1 + in.u8() % kMaxTextureLevels;
  // A levels count past what is filled (up to 255, past kMaxMipLevels): the rest of
  // level[] stays empty views, which the sampler reads as nothing.
  t.levels = flags & kTexRawLevels ? in.u8() : allocated;
  std::uint32_t width = 1 + in.u8() % kMaxTextureSize, height = 1 + in.u8() % kMaxTextureSize;
  for (std::uint32_t l = 0; l < allocated; ++l) {
    const std::uint8_t level_flags = in.u8();
    if (level_flags & kLevelOwnSize) {
      width = 1 + in.u8() % kMaxTextureSize;
      height = 1 + in.u8() % kMaxTextureSize;
    }
    const Format field = level_flags & kLevelOwnFormat ? static_cast<Format>(in.u8()) : t.format;
    t.level[l] = fuzz_image(in, storage, field, t.format, width, height);
    width = std::max(1u, width / 2);
    height = std::max(1u, height / 2);
  }
  const std::uint8_t palette_seed = in.u8();
  if (flags & kTexPalette) t.palette = storage.palette(palette_seed);
  t.palette_alpha = flags & kTexPaletteAlpha;
  t.has_color_key = flags & kTexColorKey;
  if (t.has_color_key) t.color_key = fuzz_u32(in);
}

// --- draw states -----------------------------------------------------------------------

// Rects: the target's own, small ones (negative corners among them), huge ones around
// kMaxSurfaceDimension and INT32_MAX, and raw ones.
enum RectMode : std::uint8_t {
  kRectFull, kRectFull2, kRectFull3, kRectSmall, kRectOffset, kRectHuge, kRectRaw, kRectNegative,
};
constexpr std::uint8_t kRectModes = 8;
const std::int32_t kHugeEdges[] = {
    static_cast<std::int32_t>(kMaxSurfaceDimension), static_cast<std::int32_t>(kMaxSurfaceDimension) + 1,
    std::numeric_limits<std::int32_t>::max(), 1 << 28, 4096, 1000};

Rect fuzz_rect(Reader& in, const ImageView& color, const ImageView& depth) {
  const std::uint32_t width = std::max(color.width, depth.width), height = std::max(color.height, depth.height);
  const auto s8 = [&] { return static_cast<std::int32_t>(static_cast<std::int8_t>(in.u8())); };
  const auto u8 = [&] { return static_cast<std::int32_t>(in.u8()); };
  switch (static_cast<RectMode>(in.u8() % kRectModes)) {
    case kRectFull: case kRectFull2: case kRectFull3:
      return {0, 0, static_cast<std::int32_t>(width), static_cast<std::int32_t>(height)};
    case kRectSmall: {
      const std::int32_t left = u8() % 100, top = u8() % 100;
      return {left, top, left + u8() % 100, top + u8() % 100};
    }
    case kRectOffset: return {u8(), u8(), u8(), u8()};
    case kRectHuge: {
      const std::int32_t right = kHugeEdges[in.u8() % std::size(kHugeEdges)];
      return {0, 0, right, kHugeEdges[in.u8() % std::size(kHugeEdges)]};
    }
    case kRectRaw: return {static_cast<std::int32_t>(in.u32()), static_cast<std::int32_t>(in.u32()),
                           static_cast<std::int32_t>(in.u32()), static_cast<std::int32_t>(in.u32())};
    case kRectNegative: return {s8(), s8(), s8(), s8()};
  }
  return {};
}

// A rect as renderer.h's caller gives it: DrawState::clip is "viewport ∩ render target"
// (pipeline.h) and ClearCommand::rect "already clipped to the targets", so a rect the
// renderer accepts is clipped here to the targets' extent — the larger of the two, so a
// rect may still reach past the smaller one. Unclipped, a 16384² clip or clear rect was
// walked pixel by pixel (a huge point: a timeout; clears: most of the fuzzer's time).
// One the renderer must refuse (negative, or past kMaxSurfaceDimension) goes as read, to
// check the refusal.
Rect caller_rect(const Rect& r, const ImageView& color, const ImageView& depth) {
  constexpr auto kLimit = static_cast<std::int32_t>(kMaxSurfaceDimension);
  if (r.left < 0 || r.top < 0 || r.right > kLimit || r.bottom > kLimit) return r;
  const auto width = static_cast<std::int32_t>(std::max(color.width, depth.width));
  const auto height = static_cast<std::int32_t>(std::max(color.height, depth.height));
  return intersect(r, {0, 0, width, height});
}

// Argument selectors: bits 0–2 a D3DTA_ selector (7: one with no meaning), bit 3
// COMPLEMENT, bit 4 ALPHAREPLICATE; from kRawArgFrom on, the byte itself.
constexpr std::uint8_t kArgSelectorBits = 0x07, kArgComplementBit = 0x08, kArgReplicateBit = 0x10, kRawArgFrom = 0xE0;
std::uint8_t fuzz_arg(Reader& in) {
  const std::uint8_t b = in.u8();
  if (b >= kRawArgFrom) return b;
  std::uint8_t arg = b & kArgSelectorBits;
  if (b & kArgComplementBit) arg |= kArgComplement;
  if (b & kArgReplicateBit) arg |= kArgAlphaReplicate;
  return arg;
}

constexpr unsigned kTextureOps = static_cast<unsigned>(TextureOp::kLerp);  // 1..26
constexpr std::uint8_t kStageColorKey = 0x01, kStageBump = 0x02, kStageTemp = 0x04;
// Texture choice per stage: none, texture 0, texture 1, texture 0.
constexpr std::uint8_t kStageTextureChoices = 4;

void fuzz_stage(Reader& in, std::span<const TextureView> textures, StageState& st) {
  st.color_op = pick_enum<TextureOp>(in, 1, kTextureOps);
  st.alpha_op = pick_enum<TextureOp>(in, 1, kTextureOps);
  for (auto& a : st.color_arg) a = fuzz_arg(in);
  for (auto& a : st.alpha_arg) a = fuzz_arg(in);
  const std::uint8_t flags = in.u8();
  st.result_arg = flags & kStageTemp ? kArgTemp : kArgCurrent;
  st.texcoord_set = in.u8();  // the pipeline masks it (& 7); a raw byte checks that
  const std::uint8_t which = in.u8() % kStageTextureChoices;
  const std::size_t index = which == 2 ? 1 : 0;
  st.texture = which != 0 && index < textures.size() ? &textures[index] : nullptr;
  SamplerState& smp = st.sampler;
  smp.mag = pick_enum<Filter>(in, 0, 4);
  smp.min = pick_enum<Filter>(in, 0, 4);
  smp.mip = pick_enum<Filter>(in, 0, 4);
  smp.address_u = pick_enum<Address>(in, 1, 5);
  smp.address_v = pick_enum<Address>(in, 1, 5);
  smp.address_w = pick_enum<Address>(in, 1, 5);
  smp.border = fuzz_color(in);
  smp.lod_bias = fuzz_float(in);
  smp.max_mip_level = fuzz_u32(in);
  smp.color_key = flags & kStageColorKey;
  if (flags & kStageBump) {
    st.bump.m00 = fuzz_float(in);
    st.bump.m01 = fuzz_float(in);
    st.bump.m10 = fuzz_float(in);
    st.bump.m11 = fuzz_float(in);
    st.bump.lscale = fuzz_float(in);
    st.bump.loffset = fuzz_float(in);
  }
}

StencilState fuzz_stencil(Reader& in) {
  StencilState s;
  s.func = pick_enum<Compare>(in, 1, 8);
  s.fail = pick_enum<StencilOp>(in, 1, 8);
  s.zfail = pick_enum<StencilOp>(in, 1, 8);
  s.pass = pick_enum<StencilOp>(in, 1, 8);
  return s;
}

// State flag bytes.
constexpr std::uint8_t kNoColor = 0x01, kNoDepth = 0x02, kTargetPalette = 0x04, kLastPixel = 0x08,
                       kDepthWrite = 0x10, kStencil = 0x20, kTwoSided = 0x40, kAlphaTest = 0x80;
constexpr std::uint8_t kBlend = 0x01, kSeparateAlpha = 0x02, kDither = 0x04, kSpecular = 0x08, kColorKeyKill = 0x10,
                       kFog = 0x20, kFogOnW = 0x40, kWrap = 0x80;
// stage_count: selectors below kRawStageCountFrom give 0..kMaxTextureStages + 1 (one past
// the array); the rest read a raw 32-bit count.
constexpr std::uint8_t kRawStageCountFrom = 0xF0;

void fuzz_state(Reader& in, Storage& storage, const ImageView& color, const ImageView& depth,
                std::span<const TextureView> textures, DrawState& s) {
  const std::uint8_t flags = in.u8();
  if (!(flags & kNoColor)) s.color = color;
  if (!(flags & kNoDepth)) s.depth = depth;
  const std::uint8_t palette_seed = in.u8();
  if (flags & kTargetPalette) s.color_palette = storage.palette(palette_seed);
  s.clip = caller_rect(fuzz_rect(in, color, depth), color, depth);
  s.min_z = fuzz_float(in);
  s.max_z = fuzz_float(in);
  s.fill = pick_enum<Fill>(in, 1, 3);
  s.shade = pick_enum<Shade>(in, 1, 3);
  s.cull = pick_enum<Cull>(in, 1, 3);
  s.last_pixel = flags & kLastPixel;
  s.point_size = fuzz_float(in);
  s.point_size_min = fuzz_float(in);
  s.point_size_max = fuzz_float(in);
  s.depth_mode = pick_enum<DepthMode>(in, 0, 3);
  s.depth_func = pick_enum<Compare>(in, 1, 8);
  s.depth_write = flags & kDepthWrite;
  s.w_near = fuzz_float(in);
  s.w_far = fuzz_float(in);
  s.depth_bias = fuzz_u32(in);
  s.stencil = flags & kStencil;
  s.two_sided_stencil = flags & kTwoSided;
  s.stencil_cw = fuzz_stencil(in);
  s.stencil_ccw = fuzz_stencil(in);
  s.stencil_ref = fuzz_u32(in);
  s.stencil_mask = fuzz_u32(in);
  s.stencil_write_mask = fuzz_u32(in);
  s.alpha_test = flags & kAlphaTest;
  s.alpha_func = pick_enum<Compare>(in, 1, 8);
  s.alpha_ref = fuzz_u32(in);
  const std::uint8_t more = in.u8();
  s.blend = more & kBlend;
  s.src_blend = pick_enum<Blend>(in, 1, 15);
  s.dst_blend = pick_enum<Blend>(in, 1, 15);
  s.blend_op = pick_enum<BlendOp>(in, 1, 5);
  s.separate_alpha = more & kSeparateAlpha;
  s.src_blend_alpha = pick_enum<Blend>(in, 1, 15);
  s.dst_blend_alpha = pick_enum<Blend>(in, 1, 15);
  s.blend_op_alpha = pick_enum<BlendOp>(in, 1, 5);
  s.blend_factor = fuzz_color(in);
  s.color_write_mask = in.u8();
  s.dither = more & kDither;
  const std::uint8_t count = in.u8();
  s.stage_count = count < kRawStageCountFrom ? count % (kMaxTextureStages + 2) : in.u32();
  s.texcoord_sets = in.u8();
  for (std::uint32_t i = 0; i < std::min(s.stage_count, kMaxTextureStages); ++i) fuzz_stage(in, textures, s.stages[i]);
  s.texture_factor = fuzz_color(in);
  s.specular = more & kSpecular;
  s.color_key_kill = more & kColorKeyKill;
  if (more & kWrap)
    for (auto& mask : s.wrap.set_mask) mask = in.u8();
  s.fog = more & kFog;
  s.fog_table = pick_enum<FogMode>(in, 0, 4);
  s.fog_on_w = more & kFogOnW;
  s.fog_start = fuzz_float(in);
  s.fog_end = fuzz_float(in);
  s.fog_density = fuzz_float(in);
  s.fog_color = fuzz_color(in);
}

// --- commands --------------------------------------------------------------------------

enum CommandKind : std::uint8_t {
  kDrawVertices, kDrawVertices2, kDrawVertices3, kDrawFetch, kDrawFetch2, kClear, kClear2, kFlush,
};
constexpr std::uint8_t kCommandKinds = 8;
constexpr std::uint8_t kMaxCommands = 8;
constexpr std::uint32_t kMaxVertices = 32;
constexpr std::uint32_t kMaxIndices = 48;
constexpr std::uint32_t kMaxEdgeFlags = 4;
constexpr std::uint8_t kSmallCountFrom = 0xF0;  // primitive counts: below, 0..15; from here, raw 32-bit
constexpr std::uint32_t kSmallCounts = 16;

std::uint32_t fuzz_primitive_count(Reader& in) {
  const std::uint8_t b = in.u8();
  return b < kSmallCountFrom ? b % kSmallCounts : in.u32();
}

// Vertex flags: which fields beyond x, y come from the input, and how many texture sets.
constexpr std::uint8_t kVertexDepth = 0x01, kVertexColors = 0x02, kVertexPointSize = 0x04, kVertexSetsShift = 3,
                       kVertexSetsMask = 0x0F;

Vertex fuzz_vertex(Reader& in, std::uint8_t flags) {
  Vertex v;
  v.x = fuzz_float(in);
  v.y = fuzz_float(in);
  if (flags & kVertexDepth) {
    v.z = fuzz_float(in);
    v.rhw = fuzz_float(in);
  }
  if (flags & kVertexColors) {
    v.diffuse = fuzz_color(in);
    v.specular = fuzz_color(in);
  }
  if (flags & kVertexPointSize) v.point_size = fuzz_float(in);
  const std::uint32_t sets =
      std::min<std::uint32_t>((flags >> kVertexSetsShift) & kVertexSetsMask, kMaxTextureCoordSets);
  for (std::uint32_t set = 0; set < sets; ++set)
    for (float& c : v.tex[set]) c = fuzz_float(in);
  return v;
}

// Indices (each below `vertex_count`, the caller's guarantee) and edge flags. Each list is
// an exact-size heap block when present.
constexpr std::uint8_t kHasIndices = 0x01, kHasEdgeFlags = 0x02;
struct Lists {
  std::unique_ptr<std::uint32_t[]> indices, edge_flags;
  std::size_t index_count = 0, edge_flag_count = 0;
};

void fuzz_lists(Reader& in, std::uint32_t vertex_count, Lists& out) {
  const std::uint8_t flags = in.u8();
  if ((flags & kHasIndices) && vertex_count > 0) {
    out.index_count = in.u8() % (kMaxIndices + 1);
    out.indices = std::make_unique<std::uint32_t[]>(out.index_count);
    for (std::size_t i = 0; i < out.index_count; ++i) out.indices[i] = in.u8() % vertex_count;
  }
  if (flags & kHasEdgeFlags) {
    out.edge_flag_count = in.u8() % (kMaxEdgeFlags + 1);
    out.edge_flags = std::make_unique<std::uint32_t[]>(out.edge_flag_count);
    for (std::size_t i = 0; i < out.edge_flag_count; ++i) out.edge_flags[i] = fuzz_u32(in);
  }
}

// An FVF from one byte — XYZRHW with optional fields and 0..7 coordinate sets, their
// sizes from a second byte — or raw (kRawFvfSelector: four bytes).
constexpr std::uint8_t kFvfDiffuse = 0x01, kFvfSpecular = 0x02, kFvfPointSize = 0x04, kFvfFog = 0x08,
                       kFvfSetsShift = 4, kFvfSetsMask = 0x07, kRawFvfSelector = 0xFF;
constexpr unsigned kTexCoordSizeShift = 16;  // D3DFVF_TEXCOORDSIZEn: 2 bits per set from bit 16
constexpr std::uint8_t kRawStrideFrom = 0xF0, kStridePadding = 9;  // stride: the FVF's + 0..8, or raw

DWORD fuzz_fvf(Reader& in) {
  const std::uint8_t b = in.u8();
  if (b == kRawFvfSelector) return in.u32();
  DWORD fvf = D3DFVF_XYZRHW;
  if (b & kFvfDiffuse) fvf |= D3DFVF_DIFFUSE;
  if (b & kFvfSpecular) fvf |= D3DFVF_SPECULAR;
  if (b & kFvfPointSize) fvf |= D3DFVF_PSIZE;
  if (b & kFvfFog) fvf |= D3DFVF_FOG;
  fvf |= static_cast<DWORD>((b >> kFvfSetsShift) & kFvfSetsMask) << D3DFVF_TEXCOUNT_SHIFT;
  fvf |= DWORD{in.u8()} << kTexCoordSizeShift;  // sizes of sets 0..3
  return fvf;
}

void draw_vertices(Reader& in, Renderer& r, std::span<const DrawState> states) {
  const DrawState& state = states[in.u8() % states.size()];
  const Topology topology = pick_enum<Topology>(in, 0, 6);
  const std::uint32_t primitives = fuzz_primitive_count(in);
  const std::uint32_t count = in.u8() % (kMaxVertices + 1);
  const std::uint8_t flags = in.u8();
  auto vertices = std::make_unique<Vertex[]>(count);
  for (std::uint32_t i = 0; i < count; ++i) vertices[i] = fuzz_vertex(in, flags);
  Lists lists;
  fuzz_lists(in, count, lists);
  r.draw(state, topology, primitives, std::span<const Vertex>(vertices.get(), count),
         {lists.indices.get(), lists.index_count}, {lists.edge_flags.get(), lists.edge_flag_count});
}

void draw_fetch(Reader& in, Renderer& r, std::span<const DrawState> states) {
  const DrawState& state = states[in.u8() % states.size()];
  const Topology topology = pick_enum<Topology>(in, 0, 6);
  const std::uint32_t primitives = fuzz_primitive_count(in);
  const DWORD fvf = fuzz_fvf(in);
  const std::uint8_t s = in.u8();
  const std::uint32_t stride = s < kRawStrideFrom ? dp2::ddi::fvf_stride(fvf) + s % kStridePadding : in.u16();
  const std::uint32_t count = in.u8() % (kMaxVertices + 1);
  // The vertex bytes: x and y from the float grid (so vertices land on the targets), the
  // rest of each vertex raw.
  const std::size_t bytes = std::size_t{count} * stride;
  auto buffer = std::make_unique<std::byte[]>(bytes);
  constexpr std::uint32_t kPositionBytes = 2 * sizeof(float);
  for (std::uint32_t i = 0; i < count; ++i) {
    std::byte* v = buffer.get() + std::size_t{i} * stride;
    std::uint32_t k = 0;
    if (stride >= kPositionBytes) {
      const float position[2] = {fuzz_float(in), fuzz_float(in)};
      std::memcpy(v, position, kPositionBytes);
      k = kPositionBytes;
    }
    for (; k < stride; ++k) v[k] = static_cast<std::byte>(in.u8());
  }
  Lists lists;
  fuzz_lists(in, count, lists);
  // The device's own check of an FVF and stride against the bytes (the caller's part).
  dp2::vertex::PretransformedVertices described;
  if (!dp2::vertex::describe_pretransformed(fvf, stride, {buffer.get(), bytes}, count, described)) return;
  r.draw(state, topology, primitives, dp2::vertex::fetcher(described), {lists.indices.get(), lists.index_count},
         {lists.edge_flags.get(), lists.edge_flag_count});
}

constexpr std::uint8_t kClearColor = 0x01, kClearDepth = 0x02, kClearStencil = 0x04, kClearNoColor = 0x08,
                       kClearNoDepth = 0x10;

void clear(Reader& in, Renderer& r, const ImageView& color, const ImageView& depth) {
  ClearCommand c;
  const std::uint8_t flags = in.u8();
  if (!(flags & kClearNoColor)) c.color = color;
  if (!(flags & kClearNoDepth)) c.depth = depth;
  c.clear_color = flags & kClearColor;
  c.clear_depth = flags & kClearDepth;
  c.clear_stencil = flags & kClearStencil;
  // ClearCommand::rect arrives "already clipped to the targets" (renderer.h).
  c.rect = caller_rect(fuzz_rect(in, color, depth), color, depth);
  c.color_raw = in.u32();
  c.depth_value = fuzz_u32(in);
  c.stencil_value = fuzz_u32(in);
  r.clear(c);
}

// --- the scene -------------------------------------------------------------------------

// Configuration byte: bits 0–1 the ISA (scalar, auto, scalar, or a raw Isa value from the
// next byte), bit 2 generic kernels, bit 3 a scene budget of 1..kMaxTinyBudget primitives
// (flushes in the middle of a draw).
constexpr std::uint8_t kIsaMask = 0x03, kIsaRaw = 0x03, kGenericKernels = 0x04, kTinyBudget = 0x08;
constexpr std::uint8_t kMaxTinyBudget = 8;
constexpr std::uint32_t kMaxStates = 2;

void configure(Reader& in, Renderer& r) {
  const std::uint8_t config = in.u8();
  switch (config & kIsaMask) {
    case 1: r.set_isa(Isa::kAuto); break;
    case kIsaRaw: r.set_isa(static_cast<Isa>(in.u8())); break;
    default: r.set_isa(Isa::kScalar); break;
  }
  if (config & kGenericKernels) r.set_generic_kernels(true);
  if (config & kTinyBudget) r.set_scene_primitive_budget(1 + in.u8() % kMaxTinyBudget);
}

void print_stats(const RendererStats& s) {
  std::fprintf(stderr,
               "dp2_fuzz_raster: binned %llu culled %llu primitives_rejected %llu commands_rejected %llu "
               "pixels_shaded %llu tiles %llu\n",
               static_cast<unsigned long long>(s.triangles_binned), static_cast<unsigned long long>(s.triangles_culled),
               static_cast<unsigned long long>(s.primitives_rejected),
               static_cast<unsigned long long>(s.commands_rejected), static_cast<unsigned long long>(s.pixels_shaded),
               static_cast<unsigned long long>(s.tiles_rasterized));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Everything the renderer points into is declared before it, so it outlives the
  // renderer; DrawStates stay alive and unchanged until the last flush (renderer.h).
  Storage storage;
  std::array<TextureView, kMaxTextures> texture_slots{};
  std::array<DrawState, kMaxStates> state_slots{};
  Reader in({data, size});
  Renderer r(1);  // one thread: every tile on this one, in order
  configure(in, r);
  const ImageView color = fuzz_target(in, storage, kColorFormats);
  const ImageView depth = fuzz_target(in, storage, kDepthFormats);
  const std::size_t texture_count = in.u8() % (kMaxTextures + 1);
  for (std::size_t i = 0; i < texture_count; ++i) fuzz_texture(in, storage, texture_slots[i]);
  const std::span<const TextureView> textures(texture_slots.data(), texture_count);
  const std::size_t state_count = 1 + in.u8() % kMaxStates;
  for (std::size_t i = 0; i < state_count; ++i) fuzz_state(in, storage, color, depth, textures, state_slots[i]);
  const std::span<const DrawState> states(state_slots.data(), state_count);

  const std::uint8_t commands = in.u8() % (kMaxCommands + 1);
  for (std::uint8_t i = 0; i < commands; ++i) {
    switch (static_cast<CommandKind>(in.u8() % kCommandKinds)) {
      case kDrawVertices: case kDrawVertices2: case kDrawVertices3: draw_vertices(in, r, states); break;
      case kDrawFetch: case kDrawFetch2: draw_fetch(in, r, states); break;
      case kClear: case kClear2: clear(in, r, color, depth); break;
      case kFlush: r.flush(); break;
    }
  }
  r.flush();
  if (std::getenv("DP2_FUZZ_RASTER_STATS") != nullptr) print_stats(r.stats());
  return 0;
}
