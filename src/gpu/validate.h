// Submission-time validation of a command buffer in the GPU command format, with its
// allocation and patch location lists. Everything the worker later relies on is checked
// here, so patching and execution cannot fail: every command's size and payload, every
// index, every patch location (it must name the address of a surface record inside a
// SET_STATE command, or a DRAW_BUFFER's vertex address), every allocation list entry. A
// DRAW_BUFFER's vertex range is checked when it runs (VideoMemory::resolve): the patched
// address decides it.
//
// Thread: the submitting thread (Render, or the end of DrawPrimitives2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "dp2/gpu_commands.h"
#include "dp2/wddm.h"

namespace dp2::gpu {

// `allocation_exists(handle)` tells whether an allocation handle is live.
// Returns S_OK, D3DDDIERR_INVALIDUSERBUFFER (sizes: a command or list runs past its end),
// D3DDDIERR_INVALIDINSTRUCTION (an unknown command or a payload that breaks its rules),
// or D3DDDIERR_INVALIDHANDLE (an allocation list entry names no allocation).
HRESULT validate_submission(std::span<const std::byte> commands, std::span<const D3DDDI_ALLOCATIONLIST> allocations,
                            std::span<const D3DDDI_PATCHLOCATIONLIST> patches,
                            const std::function<bool(std::uint32_t)>& allocation_exists);
// The same, with the caller's scratch for the patchable offsets (no allocation once its
// capacity suffices).
HRESULT validate_submission(std::span<const std::byte> commands, std::span<const D3DDDI_ALLOCATIONLIST> allocations,
                            std::span<const D3DDDI_PATCHLOCATIONLIST> patches,
                            const std::function<bool(std::uint32_t)>& allocation_exists,
                            std::vector<std::size_t>& slots);

// A DRAW or DRAW_BUFFER command in parts. `vertex_address` is DRAW_BUFFER's (patched)
// address, and `vertices` is empty then; a DRAW has its vertices inline.
struct DrawCommand {
  DP2GPU_DRAW draw{};
  bool buffered = false;
  std::uint64_t vertex_address = 0;
  std::size_t vertex_bytes = 0;  // vertex_count × stride, inline or at vertex_address
  std::span<const std::byte> vertices, indices, edge_flags;
};
// Its parts, or nullopt when the payload is shorter than its counts say (every size
// checked for overflow). validate_submission checks the rest of its rules.
std::optional<DrawCommand> read_draw(std::uint32_t op, std::span<const std::byte> payload);

// Calls fn(op, payload) for each command of a buffer that validate_submission accepted.
template <class Fn>
void for_each_command(std::span<const std::byte> commands, Fn&& fn) {
  std::size_t at = 0;
  while (at + sizeof(DP2GPU_HEADER) <= commands.size()) {
    DP2GPU_HEADER h;
    std::memcpy(&h, commands.data() + at, sizeof h);
    fn(h.op, commands.subspan(at + sizeof h, h.size - sizeof h));
    at += h.size;
  }
}

}  // namespace dp2::gpu
