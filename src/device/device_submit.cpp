// Render (pfnRenderCb / D3DDDICB_RENDER), fences and residency control.
//
// Threads: any; the table mutex guards the contexts' render buffers.
#include <algorithm>
#include <array>
#include <cstring>

#include "device/device_impl.h"
#include "gpu/validate.h"

namespace dp2 {
namespace {

ULONG_PTR context_handle(HANDLE h) { return reinterpret_cast<ULONG_PTR>(h); }

CommandBuffers buffers_of(detail::RenderBuffers& b) {
  return {b.commands.data(), b.command_size, b.allocations.data(), b.allocation_size, b.patches.data(), b.patch_size};
}

}  // namespace

HRESULT Device::command_buffers(ULONG_PTR context, CommandBuffers& out) {
  std::lock_guard lock(impl_->table);
  const auto it = impl_->render_buffers.find(context);
  if (it == impl_->render_buffers.end()) return E_INVALIDARG;
  out = buffers_of(it->second);
  return S_OK;
}

HRESULT Device::Render(D3DDDICB_RENDER& args) {
  using detail::DeviceImpl;
  std::unique_lock lock(impl_->table);
  // Members the page reserves: "reserved and should be set to zero".
  if (args.NewCommandBuffer != 0 || args.pPrivateDriverData != nullptr || args.PrivateDriverDataSize != 0 ||
      args.Flags.Reserved != 0)
    return E_INVALIDARG;
  // hContext NULL: "the Direct3D runtime sends the rendering operation to the default
  // context of the device" — dp2's first context.
  ULONG_PTR context = context_handle(args.hContext);
  if (context == 0 && !impl_->contexts.empty()) context = impl_->contexts.begin()->first;
  const auto buffers_it = impl_->render_buffers.find(context);
  if (buffers_it == impl_->render_buffers.end()) return E_INVALIDARG;
  detail::RenderBuffers& b = buffers_it->second;
  // Up to D3DDDI_MAX_BROADCAST_CONTEXT more contexts, each valid and not hContext itself
  // ("the original context ... is not an element in the BroadcastContext array").
  if (args.BroadcastContextCount > D3DDDI_MAX_BROADCAST_CONTEXT) return E_INVALIDARG;
  std::array<ULONG_PTR, D3DDDI_MAX_BROADCAST_CONTEXT + 1> targets{context};
  std::size_t target_count = 1;
  for (UINT i = 0; i < args.BroadcastContextCount; ++i) {
    const ULONG_PTR other = context_handle(args.BroadcastContext[i]);
    if (other == context || !impl_->contexts.contains(other) ||
        std::count(targets.begin(), targets.begin() + target_count, other))
      return E_INVALIDARG;
    targets[target_count++] = other;
  }
  // "The user-mode display driver must increment the value for each pfnRenderCb call."
  if (args.RenderCBSequence != b.next_sequence) return E_INVALIDARG;
  if (args.CommandOffset > args.CommandLength || args.CommandLength > b.command_size ||
      args.NumAllocations > b.allocation_size || args.NumPatchLocations > b.patch_size)
    return E_INVALIDARG;

  // Validate everything now, so patching and execution cannot fail. Patch offsets count
  // from the start of the command buffer; the submitted bytes start at CommandOffset.
  const std::span<const std::byte> commands(b.commands.data() + args.CommandOffset,
                                            args.CommandLength - args.CommandOffset);
  std::vector<D3DDDI_PATCHLOCATIONLIST>& patches = b.rebased_patches;
  patches.assign(b.patches.begin(), b.patches.begin() + args.NumPatchLocations);
  for (D3DDDI_PATCHLOCATIONLIST& p : patches) {
    if (p.PatchOffset < args.CommandOffset) return D3DDDIERR_INVALIDINSTRUCTION;
    p.PatchOffset -= args.CommandOffset;
  }
  const std::span<const D3DDDI_ALLOCATIONLIST> allocations(b.allocations.data(), args.NumAllocations);
  if (impl_->observer) {
    impl_->observe_surfaces();
    impl_->observer->render(args, std::span<const std::byte>(b.commands.data(), args.CommandLength), allocations,
                            std::span<const D3DDDI_PATCHLOCATIONLIST>(b.patches.data(), args.NumPatchLocations));
  }
  const HRESULT valid = gpu::validate_submission(commands, allocations, patches,
                                                 [&](std::uint32_t a) { return impl_->memory.info(a).has_value(); },
                                                 impl_->validation_slots);
  if (valid != S_OK) return valid;

  // New buffers: the sizes asked for with the Resize* flags (within dp2's limits), else the
  // current ones. "Regardless of whether the call to pfnRenderCb is successful, the driver
  // should verify the values that are returned" — they are always written on success.
  const UINT command_size = args.Flags.ResizeCommandBuffer
                                ? std::clamp<UINT>(args.NewCommandBufferSize, 1, DeviceImpl::kMaxCommandBufferSize)
                                : b.command_size;
  const UINT allocation_size = args.Flags.ResizeAllocationList
                                   ? std::clamp<UINT>(args.NewAllocationListSize, 1, DeviceImpl::kMaxAllocationListSize)
                                   : b.allocation_size;
  const UINT patch_size = args.Flags.ResizePatchLocationList
                              ? std::clamp<UINT>(args.NewPatchLocationListSize, 1, DeviceImpl::kMaxPatchListSize)
                              : b.patch_size;

  // Buffer reuse (docs/memory-and-submission.md): the context's own buffers become a
  // submission's as they are — no copy — and the runtime gets spare buffers of the
  // new sizes from the pool the worker refills, so a steady stream of Render calls
  // neither allocates nor zero-fills. A broadcast's other contexts get copies (pooled
  // too). The submitted lists keep their offsets from the buffer's start (Submission).
  gpu::SpareBuffers& spares = impl_->gpu.spares();
  // The next buffers are taken before this submission is queued: otherwise the worker
  // could hand the submitted buffers straight back, and whether a second set exists
  // would depend on its timing. Taken first, the context and the worker always
  // alternate between two sets, and which calls allocate is the same on every run.
  std::vector<std::byte> next_commands = spares.commands(command_size);
  std::vector<D3DDDI_ALLOCATIONLIST> next_allocations = spares.allocations(allocation_size);
  std::vector<D3DDDI_PATCHLOCATIONLIST> next_patches = spares.patches(patch_size);
  auto queue = [&](ULONG_PTR target, std::vector<std::byte>&& cmds, std::vector<D3DDDI_ALLOCATIONLIST>&& allocs,
                   std::vector<D3DDDI_PATCHLOCATIONLIST>&& patch_list) {
    gpu::Submission s;
    s.context = target;
    s.commands = std::move(cmds);
    s.command_begin = args.CommandOffset;
    s.command_end = args.CommandLength;
    s.allocations = std::move(allocs);
    s.allocation_count = args.NumAllocations;
    s.patches = std::move(patch_list);
    s.patch_count = args.NumPatchLocations;
    s.null_rendering = args.Flags.NullRendering;
    impl_->gpu.submit(std::move(s));
  };
  // In target order (hContext first); the copies are taken while the context's buffers
  // are still here, so those go, uncopied, to the last target.
  for (std::size_t i = 0; i + 1 < target_count; ++i) {
    std::vector<std::byte> cmds = spares.commands(args.CommandLength);
    std::vector<D3DDDI_ALLOCATIONLIST> allocs = spares.allocations(args.NumAllocations);
    std::vector<D3DDDI_PATCHLOCATIONLIST> patch_list = spares.patches(args.NumPatchLocations);
    std::copy_n(b.commands.begin(), args.CommandLength, cmds.begin());
    std::copy_n(b.allocations.begin(), args.NumAllocations, allocs.begin());
    std::copy_n(b.patches.begin(), args.NumPatchLocations, patch_list.begin());
    queue(targets[i], std::move(cmds), std::move(allocs), std::move(patch_list));
  }
  queue(targets[target_count - 1], std::move(b.commands), std::move(b.allocations), std::move(b.patches));
  ++b.next_sequence;
  ++impl_->diagnostics.render_calls;
  impl_->diagnostics.last_render_cb_sequence = args.RenderCBSequence;
  impl_->diagnostics.last_marker_log_type = static_cast<std::uint32_t>(args.MarkerLogType);

  b.command_size = command_size;
  b.allocation_size = allocation_size;
  b.patch_size = patch_size;
  b.commands = std::move(next_commands);
  b.allocations = std::move(next_allocations);
  b.patches = std::move(next_patches);
  const CommandBuffers next = buffers_of(b);
  args.pNewCommandBuffer = next.command_buffer;
  args.NewCommandBufferSize = next.command_buffer_size;
  args.pNewAllocationList = next.allocation_list;
  args.NewAllocationListSize = next.allocation_list_size;
  args.pNewPatchLocationList = next.patch_location_list;
  args.NewPatchLocationListSize = next.patch_location_list_size;
  lock.unlock();
  // "The number of DMA buffers that are queued to the context ... after the current
  // submission occurs."
  args.QueuedBufferCount = static_cast<UINT>(impl_->gpu.queued(context));
  return S_OK;
}

std::uint64_t Device::last_fence() const { return impl_->gpu.last_submitted(); }
std::uint64_t Device::completed_fence() const { return impl_->gpu.completed(); }
void Device::wait_fence(std::uint64_t fence) { impl_->gpu.wait(fence); }
void Device::wait_idle() { impl_->gpu.wait_idle(); }
void Device::hold_gpu(bool held) { impl_->gpu.hold(held); }

HRESULT Device::evict(DWORD surface) {
  std::lock_guard lock(impl_->table);
  const detail::Surface* s = impl_->surfaces.find(surface);
  if (!s || s->locked) return E_INVALIDARG;
  return impl_->memory.evict(s->allocation) ? S_OK : E_INVALIDARG;
}

}  // namespace dp2
