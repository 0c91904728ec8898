// The device's surfaces by runtime-chosen handle: render targets, depth buffers,
// textures, vertex / index / command buffers. Each surface is a resource whose bytes live
// in one video-memory allocation (src/memory) — its current, tracked instance. LockAsync
// with Discard hands out a fresh instance (a cookie); Rename makes it the tracked one; a
// flip swaps instances between the surfaces of a chain.
//
// Thread: callers hold the device's table mutex (device.cpp); the table itself is not
// synchronised.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>

#include "dp2/device.h"
#include "gpu/format_map.h"
#include "memory/video_memory.h"

namespace dp2::detail {

struct Surface {
  SurfaceDesc desc;
  std::uint32_t pitch = 0;       // bytes per row (per block row for DXTn) of level 0
  std::uint32_t slice_pitch = 0; // bytes of the whole mip chain
  memory::AllocationHandle allocation = 0;  // the tracked instance
  std::set<memory::AllocationHandle> cookies;  // renamed instances handed out, not yet Renamed
  memory::AllocationHandle locked = 0;      // the instance a Lock / LockAsync mapped (0: none)
  bool flip_in_progress = false;
  DWORD flip_chain = 0;  // 0: not in a chain
};

class SurfaceTable {
 public:
  explicit SurfaceTable(memory::VideoMemory& memory) : memory_(memory) {}

  HRESULT create(DWORD handle, const SurfaceDesc& desc);
  HRESULT destroy(DWORD handle);
  Surface* find(DWORD handle) noexcept;
  const Surface* find(DWORD handle) const noexcept;

  // The tracked instance's bytes (no waiting: the front end reads vertex and command
  // buffers the GPU never writes).
  std::span<std::byte> bytes(const Surface& surface) const;
  // Replaces a buffer's storage with a zeroed one of new_size bytes when that is larger,
  // or (rename_if_busy) of its own size when queued work still reads the current one,
  // which is freed once that work is done (the SWAP*BUFFER flags). False when the
  // storage cannot be had (nothing changes).
  bool grow(DWORD handle, std::size_t new_size, bool rename_if_busy = false);

  memory::VideoMemory& memory() noexcept { return memory_; }
  // Calls fn(handle, surface) for every surface, in handle order.
  template <class Fn>
  void for_each(Fn&& fn) const {
    for (const auto& [handle, surface] : surfaces_) fn(handle, surface);
  }

  // Largest surface dp2 creates: far above any D3D7–9 resource, small enough that every
  // offset inside fits a DWORD, as DP2 payload offsets are DWORDs.
  static constexpr std::size_t kMaxSurfaceBytes = std::size_t{1} << 30;

 private:
  memory::VideoMemory& memory_;
  std::map<DWORD, Surface> surfaces_;
};

// The allocation description of a surface (buffers stay in system memory: the GPU reads
// a vertex buffer there, through the aperture, and only copies of the others).
memory::AllocationDesc allocation_desc(const Surface& surface);

}  // namespace dp2::detail
