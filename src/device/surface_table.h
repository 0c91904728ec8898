// The device's surfaces by runtime-chosen handle: render targets, depth buffers,
// textures, vertex / index / command buffers. Plain system memory for now; the memory
// issue (src/memory) moves them into allocations in segments.
//
// Thread: the device's calling thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "dp2/device.h"

namespace dp2::detail {

struct Surface {
  SurfaceDesc desc;
  std::uint32_t pitch = 0;  // bytes per row (per block row for DXTn) of level 0
  std::vector<std::byte> bytes;
  bool flip_in_progress = false;
};

// Bytes per row and total size of one image level, or nullopt for a format a surface of
// this kind cannot have, or a size that overflows.
struct LevelLayout {
  std::size_t pitch = 0;
  std::size_t size = 0;
};
std::optional<LevelLayout> level_layout(D3DFORMAT format, std::uint32_t width, std::uint32_t height);

class SurfaceTable {
 public:
  HRESULT create(DWORD handle, const SurfaceDesc& desc);
  HRESULT destroy(DWORD handle);
  Surface* find(DWORD handle) noexcept;
  const Surface* find(DWORD handle) const noexcept;
  // Replaces a buffer's storage with a larger zeroed one (the SWAP*BUFFER flags).
  bool grow(DWORD handle, std::size_t new_size);

  // Largest surface dp2 creates: far above any D3D7–9 resource, small enough that every
  // offset inside fits a DWORD, as DP2 payload offsets are DWORDs.
  static constexpr std::size_t kMaxSurfaceBytes = std::size_t{1} << 31;

 private:
  std::map<DWORD, Surface> surfaces_;
};

}  // namespace dp2::detail
