// Encodes a context's recorded CommandBuffer into the GPU command format
// (include/dp2/gpu_commands.h) with its allocation list and patch location list — the
// three things a Render submission carries (ARCHITECTURE.md, "command recorder").
//
// Thread: the DrawPrimitives2 caller's, at the end of the call.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "dp2/gpu_commands.h"
#include "dp2/wddm.h"
#include "gpu/command_buffer.h"

namespace dp2::gpu {

// What a surface handle names for the GPU: its current allocation (the tracked instance —
// a rename switches it only at Rename) and its description.
struct SurfaceBinding {
  std::uint32_t allocation = 0;
  DP2GPU_SURFACE surface{};  // address 0: patching fills it
};
using SurfaceResolver = std::function<std::optional<SurfaceBinding>(DWORD handle)>;

// The encoder's output. `commands` is storage: the encoded bytes are its first
// `command_size`; what lies past them is whatever an earlier use left (a buffer reused
// from the pool, SpareBuffers, is not zero-filled again). The lists hold exactly their
// entries.
struct EncodedBuffer {
  std::vector<std::byte> commands;
  std::size_t command_size = 0;
  std::vector<D3DDDI_ALLOCATIONLIST> allocations;
  std::vector<D3DDDI_PATCHLOCATIONLIST> patches;
  std::uint32_t unresolved_textures = 0;  // stages naming a handle that is not a sampleable surface
  std::span<const std::byte> encoded() const noexcept { return std::span(commands).first(command_size); }
  // Keeps every capacity, and the commands' bytes.
  void clear() {
    unresolved_textures = 0;
    command_size = 0;
    allocations.clear();
    patches.clear();
  }
};

// The bytes encode() appends for `records` (it measures them first, then grows the
// storage at most once).
std::size_t encoded_size(const CommandBuffer& records);

// Appends the records' commands (SET_STATE whenever the snapshot changes, DRAW or, for
// vertices left in a vertex buffer, DRAW_BUFFER with the allocation the record names,
// CLEAR) and a closing FENCE. Copy records are not encoded: the back end does not perform them
// yet (they stay counted as not rendered).
void encode(const CommandBuffer& records, const SurfaceResolver& resolve, EncodedBuffer& out);

}  // namespace dp2::gpu
