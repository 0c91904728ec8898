// Encodes a context's recorded CommandBuffer into the GPU command format
// (include/dp2/gpu_commands.h) with its allocation list and patch location list — the
// three things a Render submission carries (ARCHITECTURE.md, "command recorder").
//
// Thread: the DrawPrimitives2 caller's, at the end of the call.
#pragma once

#include <functional>
#include <optional>
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

struct EncodedBuffer {
  std::vector<std::byte> commands;
  std::vector<D3DDDI_ALLOCATIONLIST> allocations;
  std::vector<D3DDDI_PATCHLOCATIONLIST> patches;
  std::uint32_t unresolved_textures = 0;  // stages naming a handle that is not a sampleable surface
  void clear() {
    unresolved_textures = 0;
    commands.clear();
    allocations.clear();
    patches.clear();
  }
};

// Appends the records' commands (SET_STATE whenever the snapshot changes, DRAW, CLEAR)
// and a closing FENCE. Copy records are not encoded: the back end does not perform them
// yet (they stay counted as not rendered).
void encode(const CommandBuffer& records, const SurfaceResolver& resolve, EncodedBuffer& out);

}  // namespace dp2::gpu
