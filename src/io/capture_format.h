// The .dp2c layout shared by the capture writer and reader: magic, version, chunk ids and
// the fixed payload sizes (docs/capture-format.md is the specification; keep both in step).
// Everything is little-endian; values are encoded and decoded byte by byte, so the host's
// byte order and alignment never matter.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "dp2/capture.h"

namespace dp2::capture {

inline constexpr std::array<char, 8> kMagic = {'D', 'P', '2', 'C', 'A', 'P', 'T', '\0'};
inline constexpr std::uint16_t kVersionMajor = 1;  // a reader rejects any other major
inline constexpr std::uint16_t kVersionMinor = 0;  // newer minors only append fields/chunks
inline constexpr std::size_t kFileHeaderSize = 16; // magic, u16 major, u16 minor, u32 header_size
inline constexpr std::size_t kChunkHeaderSize = 16; // u32 id, u32 flags, u64 size

// Chunk flags.
inline constexpr std::uint32_t kChunkRequired = 1u;  // unknown + required = error, not skip

inline constexpr std::uint32_t kDevice = capture_fourcc('D', 'E', 'V', 'C');
inline constexpr std::uint32_t kSurface = capture_fourcc('S', 'U', 'R', 'F');
inline constexpr std::uint32_t kSurfaceDestroy = capture_fourcc('S', 'D', 'E', 'L');
inline constexpr std::uint32_t kContext = capture_fourcc('C', 'T', 'X', 'C');
inline constexpr std::uint32_t kContextDestroy = capture_fourcc('C', 'T', 'X', 'D');
inline constexpr std::uint32_t kContents = capture_fourcc('D', 'A', 'T', 'A');
inline constexpr std::uint32_t kDrawPrimitives2 = capture_fourcc('D', 'P', '2', 'C');
inline constexpr std::uint32_t kRender = capture_fourcc('R', 'E', 'N', 'D');
inline constexpr std::uint32_t kUnlock = capture_fourcc('U', 'N', 'L', 'K');
inline constexpr std::uint32_t kRename = capture_fourcc('R', 'N', 'A', 'M');
inline constexpr std::uint32_t kFlipChain = capture_fourcc('C', 'H', 'A', 'N');
inline constexpr std::uint32_t kFlip = capture_fourcc('F', 'L', 'I', 'P');
inline constexpr std::uint32_t kEnd = capture_fourcc('E', 'N', 'D', ' ');

// Fixed payload parts (bytes before any variable data).
inline constexpr std::size_t kDeviceSize = 24;        // u32 flags, u32 threads, u64 vram, u32 ptr, u32 0
inline constexpr std::size_t kSurfaceSize = 40;
inline constexpr std::size_t kContextSize = 24;
inline constexpr std::size_t kContentsFixedSize = 16;  // u32 handle, u32 ranges, u64 surface size
inline constexpr std::size_t kRangeHeaderSize = 16;    // u64 offset, u64 length
inline constexpr std::size_t kDp2FixedSize = 72;
inline constexpr std::size_t kRenderFixedSize = 56;
inline constexpr std::size_t kAllocationSize = 8;      // D3DDDI_ALLOCATIONLIST: 2 × u32
inline constexpr std::size_t kPatchSize = 24;          // D3DDDI_PATCHLOCATIONLIST: 6 × u32

// SURF flags / DEVC flags / CTXC flags / DP2C call flags.
inline constexpr std::uint32_t kSurfaceExplicitVB = 1u, kSurfaceColorKey = 2u;
inline constexpr std::uint32_t kDeviceTnL = 1u;
inline constexpr std::uint32_t kContextFreeThreaded = 1u;
inline constexpr std::uint32_t kDp2HadRenderStates = 1u, kDp2NullUserVertices = 2u;

// Surface kinds as the file numbers them (SurfaceKind's values, fixed here).
inline constexpr std::uint32_t kKindCount = 6;

}  // namespace dp2::capture
