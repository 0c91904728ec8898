// The Device's insides, shared by its facade files: device.cpp (surfaces, contexts,
// DrawPrimitives2), device_locks.cpp (Lock, LockAsync, Rename), device_submit.cpp
// (Render, fences, residency) and device_flip.cpp (flip chains).
//
// Threads: `table` guards surfaces, contexts, render buffers and flip chains. Nothing
// waits for the GPU while holding it. Member order matters: the GPU worker is declared
// last so it is destroyed (drained) first.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "device/context.h"
#include "device/surface_table.h"
#include "dp2/device.h"
#include "gpu/gpu.h"
#include "memory/video_memory.h"

namespace dp2::detail {

// Lets VideoMemory (built first) wait on the GPU's fences (built last).
class FenceProxy final : public memory::FenceSource {
 public:
  gpu::Gpu* gpu = nullptr;
  memory::FenceId completed() const override { return gpu ? gpu->completed() : ~memory::FenceId{0}; }
  void wait(memory::FenceId fence) override {
    if (gpu) gpu->wait(fence);
  }
};

// The buffers a context submits through Render, and its RenderCBSequence.
// The vectors come from the GPU's SpareBuffers and may be longer than the sizes handed
// to the runtime (command_size bytes, allocation_size and patch_size entries), which are
// the ones every check uses.
struct RenderBuffers {
  std::vector<std::byte> commands;
  std::vector<D3DDDI_ALLOCATIONLIST> allocations;
  std::vector<D3DDDI_PATCHLOCATIONLIST> patches;
  UINT command_size = 0, allocation_size = 0, patch_size = 0;
  // Render's patch list rebased to CommandOffset, for validation; kept for its capacity.
  std::vector<D3DDDI_PATCHLOCATIONLIST> rebased_patches;
  std::uint32_t next_sequence = 1;
};

struct FlipChain {
  std::vector<DWORD> surfaces;  // [0] front
  bool in_flip = false;
  bool frame_ready = false;  // completed, not yet taken (poll_frame)
  FrontBuffer frame;
  std::uint64_t flips = 0;
};

class DeviceImpl {
 public:
  explicit DeviceImpl(const DeviceDesc& desc);

  static constexpr std::size_t kMaxContexts = 1024;
  // Render buffer sizes: the defaults a context starts with, and the most a Resize* flag
  // may ask for.
  static constexpr UINT kDefaultCommandBufferSize = 64u << 10, kMaxCommandBufferSize = 64u << 20;
  static constexpr UINT kDefaultAllocationListSize = 1024, kMaxAllocationListSize = 65536;
  static constexpr UINT kDefaultPatchListSize = 4096, kMaxPatchListSize = 262144;
  // RenderCBSequence starts at 1 for a single-threaded context, 0x80000001 for a
  // free-threaded one (D3DDDICB_RENDER page).
  static constexpr std::uint32_t kFreeThreadedSequenceStart = 0x80000001u;

  // Waits for the GPU work that uses `surface`'s tracked instance (call without `table`).
  void wait_for_surface(DWORD surface);
  // Encodes the context's records and queues them (end of DrawPrimitives2; `table` held).
  void submit_records(ULONG_PTR handle, Context& context);

  DeviceDesc desc;
  std::mutex table;
  FenceProxy fences;
  memory::VideoMemory memory;
  SurfaceTable surfaces;
  std::map<ULONG_PTR, std::unique_ptr<Context>> contexts;
  std::map<ULONG_PTR, RenderBuffers> render_buffers;
  std::map<DWORD, FlipChain> flip_chains;
  DWORD next_flip_chain = 1;
  ULONG_PTR next_context = 1;
  // validate_submission's scratch for Render and submit_records (under `table`).
  std::vector<std::size_t> validation_slots;
  Diagnostics diagnostics;  // the front end's counters (under `table`)
  UnknownCommandCallback unknown_command;
  FrameCallback frame_callback;
  DeviceObserver* observer = nullptr;
  // Hands every surface's bytes to the observer (before a DrawPrimitives2 / Render).
  void observe_surfaces();
  gpu::Gpu gpu;  // last: destroyed first, draining its queue
};

}  // namespace dp2::detail
