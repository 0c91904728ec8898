// Render (pfnRenderCb / D3DDDICB_RENDER), fences and residency control.
//
// Threads: any; the table mutex guards the contexts' render buffers.
#include <algorithm>
#include <cstring>

#include "device/device_impl.h"
#include "gpu/validate.h"

namespace dp2 {
namespace {

ULONG_PTR context_handle(HANDLE h) { return reinterpret_cast<ULONG_PTR>(h); }

CommandBuffers buffers_of(detail::RenderBuffers& b) {
  return {b.commands.data(), static_cast<UINT>(b.commands.size()), b.allocations.data(),
          static_cast<UINT>(b.allocations.size()), b.patches.data(), static_cast<UINT>(b.patches.size())};
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
  std::vector<ULONG_PTR> targets{context};
  for (UINT i = 0; i < args.BroadcastContextCount; ++i) {
    const ULONG_PTR other = context_handle(args.BroadcastContext[i]);
    if (other == context || !impl_->contexts.contains(other) || std::count(targets.begin(), targets.end(), other))
      return E_INVALIDARG;
    targets.push_back(other);
  }
  // "The user-mode display driver must increment the value for each pfnRenderCb call."
  if (args.RenderCBSequence != b.next_sequence) return E_INVALIDARG;
  if (args.CommandOffset > args.CommandLength || args.CommandLength > b.commands.size() ||
      args.NumAllocations > b.allocations.size() || args.NumPatchLocations > b.patches.size())
    return E_INVALIDARG;

  // Validate everything now, so patching and execution cannot fail. Patch offsets count
  // from the start of the command buffer; the submitted bytes start at CommandOffset.
  const std::span<const std::byte> commands(b.commands.data() + args.CommandOffset,
                                            args.CommandLength - args.CommandOffset);
  std::vector<D3DDDI_PATCHLOCATIONLIST> patches(b.patches.begin(), b.patches.begin() + args.NumPatchLocations);
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
                                                 [&](std::uint32_t a) { return impl_->memory.info(a).has_value(); });
  if (valid != S_OK) return valid;

  for (ULONG_PTR target : targets) {
    gpu::Submission s;
    s.context = target;
    s.commands.assign(commands.begin(), commands.end());
    s.allocations.assign(allocations.begin(), allocations.end());
    s.patches = patches;
    s.null_rendering = args.Flags.NullRendering;
    impl_->gpu.submit(std::move(s));
  }
  ++b.next_sequence;
  ++impl_->diagnostics.render_calls;
  impl_->diagnostics.last_render_cb_sequence = args.RenderCBSequence;
  impl_->diagnostics.last_marker_log_type = static_cast<std::uint32_t>(args.MarkerLogType);

  // New buffers: the sizes asked for with the Resize* flags (within dp2's limits), else the
  // current ones. "Regardless of whether the call to pfnRenderCb is successful, the driver
  // should verify the values that are returned" — they are always written on success.
  const UINT command_size = args.Flags.ResizeCommandBuffer
                                ? std::clamp<UINT>(args.NewCommandBufferSize, 1, DeviceImpl::kMaxCommandBufferSize)
                                : static_cast<UINT>(b.commands.size());
  const UINT allocation_size = args.Flags.ResizeAllocationList
                                   ? std::clamp<UINT>(args.NewAllocationListSize, 1, DeviceImpl::kMaxAllocationListSize)
                                   : static_cast<UINT>(b.allocations.size());
  const UINT patch_size = args.Flags.ResizePatchLocationList
                              ? std::clamp<UINT>(args.NewPatchLocationListSize, 1, DeviceImpl::kMaxPatchListSize)
                              : static_cast<UINT>(b.patches.size());
  b.commands.assign(command_size, std::byte{0});
  b.allocations.assign(allocation_size, D3DDDI_ALLOCATIONLIST{});
  b.patches.assign(patch_size, D3DDDI_PATCHLOCATIONLIST{});
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
