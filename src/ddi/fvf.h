// Flexible vertex format: stride and validity. STATES.md §10 is the source for every bit.
// Header-only; used by the front end (the FVF check, _IMM strides) and by src/vertex.
#pragma once

#include <cstdint>

#include "dp2/ddi.h"

namespace dp2::ddi {

// Runtime interface versions as D3DHAL_CONTEXTCREATEDATA.dwhContext carries them.
inline constexpr std::uint32_t kInterfaceDX7 = 3;
inline constexpr std::uint32_t kInterfaceDX8 = 4;
inline constexpr std::uint32_t kInterfaceDX9 = 5;

// Bits that must be zero in an FVF from an application of the given interface version.
// docs/decisions.md, row "reserved FVF bits":
//   DX7 and older: RESERVED0 0x1, RESERVED1 0x20 (PSIZE came with DX8), RESERVED2 0xF000;
//   DX8: RESERVED0, RESERVED2 0xE000 (0x1000 is LASTBETA_UBYTE4);
//   DX9: RESERVED0, RESERVED2 0x6000 less 0x4000 when it is part of D3DFVF_XYZW and less
//        0x2000, the DDI-only D3DFVF_FOG that the DX9 runtime may send (Perm3 reads it).
[[nodiscard]] constexpr DWORD fvf_reserved_bits(std::uint32_t interface_version, DWORD fvf) noexcept {
  if (interface_version <= kInterfaceDX7) return 0x0001u | 0x0020u | 0xF000u;
  if (interface_version == kInterfaceDX8) return 0x0001u | 0xE000u;
  DWORD reserved = 0x0001u | 0x6000u;
  if ((fvf & 0x400Eu) == D3DFVF_XYZW) reserved &= ~0x4000u;
  reserved &= ~DWORD{D3DFVF_FOG};
  return reserved;
}

[[nodiscard]] constexpr std::uint32_t fvf_texcoord_count(DWORD fvf) noexcept {
  return (fvf & D3DFVF_TEXCOUNT_MASK) >> D3DFVF_TEXCOUNT_SHIFT;
}

// Floats in texture coordinate set i (D3DFVF_TEXCOORDSIZEn: 0 → 2, 1 → 3, 2 → 4, 3 → 1).
[[nodiscard]] constexpr std::uint32_t fvf_texcoord_size(DWORD fvf, std::uint32_t set) noexcept {
  constexpr std::uint32_t kFloats[4] = {2, 3, 4, 1};
  return kFloats[(fvf >> (16 + 2 * set)) & 3u];
}

// Byte size of the position field, 0 for an invalid position code.
[[nodiscard]] constexpr std::uint32_t fvf_position_size(DWORD fvf) noexcept {
  if ((fvf & 0x400Eu) == D3DFVF_XYZW) return 16;
  switch (fvf & 0x000Eu) {
    case 0: return 0;  // no position
    case D3DFVF_XYZ: return 12;
    case D3DFVF_XYZRHW: return 16;
    default: return 12 + 4 * (((fvf & 0x000Eu) - D3DFVF_XYZB1) / 2 + 1);  // XYZB1..B5
  }
}

// Byte offsets of an FVF's fields in a vertex, packed in the order of STATES.md §10 with
// no padding: position, normal, point size, diffuse, specular, fog (DDI-only), texture
// coordinate sets. A field the FVF lacks gets the offset it would have; `end` is the
// stride.
struct FvfOffsets {
  std::uint32_t normal = 0, psize = 0, diffuse = 0, specular = 0, fog = 0, end = 0;
  std::uint32_t sets = 0;  // texture coordinate sets, at most 8
  std::uint32_t tex_at[8] = {}, tex_size[8] = {};
};

[[nodiscard]] constexpr FvfOffsets fvf_offsets(DWORD fvf) noexcept {
  FvfOffsets o;
  std::uint32_t at = fvf_position_size(fvf);
  o.normal = at;
  if (fvf & D3DFVF_NORMAL) at += 12;
  o.psize = at;
  if (fvf & D3DFVF_PSIZE) at += 4;
  o.diffuse = at;
  if (fvf & D3DFVF_DIFFUSE) at += 4;
  o.specular = at;
  if (fvf & D3DFVF_SPECULAR) at += 4;
  o.fog = at;
  if (fvf & D3DFVF_FOG) at += 4;
  o.sets = fvf_texcoord_count(fvf) < 8 ? fvf_texcoord_count(fvf) : 8;
  for (std::uint32_t i = 0; i < o.sets; ++i) {
    o.tex_at[i] = at;
    o.tex_size[i] = fvf_texcoord_size(fvf, i);
    at += 4 * o.tex_size[i];
  }
  o.end = at;
  return o;
}

// Vertex stride in bytes.
[[nodiscard]] constexpr std::uint32_t fvf_stride(DWORD fvf) noexcept { return fvf_offsets(fvf).end; }

enum class FvfProblem : std::uint8_t { kNone, kNoXyzRhw, kHasNormal, kReservedBits, kBadTexCount, kBadPosition };

// The D3dDrawPrimitives2 FVF check. A non-TnL device fails "if D3DFVF_XYZRHW is not set",
// "if D3DFVF_NORMAL is set", "if any of the reserved D3DFVF_RESERVEDx bits are set"
// (D3dDrawPrimitives2 page); a TnL device lifts the first two. A texture count above 8
// names coordinate sets no vertex can have, so it fails too.
[[nodiscard]] constexpr FvfProblem check_fvf(DWORD fvf, std::uint32_t interface_version, bool tnl) noexcept {
  if (fvf & fvf_reserved_bits(interface_version, fvf)) return FvfProblem::kReservedBits;
  if (fvf_texcoord_count(fvf) > 8) return FvfProblem::kBadTexCount;
  if (!tnl) {
    if ((fvf & 0x400Eu) != D3DFVF_XYZRHW) return FvfProblem::kNoXyzRhw;
    if (fvf & D3DFVF_NORMAL) return FvfProblem::kHasNormal;
  } else if (fvf_position_size(fvf) == 0) {
    return FvfProblem::kBadPosition;
  }
  return FvfProblem::kNone;
}

}  // namespace dp2::ddi
