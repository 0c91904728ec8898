// Flip chains: the front buffer the embedder displays and the back buffers the runtime
// draws to. A Flip is queued behind the work submitted before it; when the GPU worker
// reaches it, the chain's instances rotate (the back buffer's becomes the front's) and the
// frame is offered to the embedder. The chain is "in a flip" from Flip until the frame is
// taken: DrawPrimitives2 on any of its surfaces answers DDERR_WASSTILLDRAWING meanwhile
// (D3dDrawPrimitives2 page).
//
// Threads: Flip / poll_frame from any thread; the page turn runs on the GPU worker.
#include <algorithm>

#include "device/device_impl.h"

namespace dp2 {
namespace {

void set_in_flip(detail::DeviceImpl& impl, const detail::FlipChain& chain, bool in_flip) {
  for (DWORD handle : chain.surfaces)
    if (detail::Surface* s = impl.surfaces.find(handle)) s->flip_in_progress = in_flip;
}

}  // namespace

HRESULT Device::create_flip_chain(std::span<const DWORD> surfaces, DWORD& chain) {
  std::lock_guard lock(impl_->table);
  if (surfaces.size() < 2) return E_INVALIDARG;
  const detail::Surface* front = impl_->surfaces.find(surfaces[0]);
  for (DWORD handle : surfaces) {
    const detail::Surface* s = impl_->surfaces.find(handle);
    // Every buffer of a chain has the front buffer's format and size, and is in no other chain.
    if (!s || !front || s->flip_chain != 0 || s->desc.format != front->desc.format ||
        s->desc.width != front->desc.width || s->desc.height != front->desc.height ||
        std::count(surfaces.begin(), surfaces.end(), handle) != 1 || s->desc.kind != SurfaceKind::kRenderTarget)
      return E_INVALIDARG;
  }
  chain = impl_->next_flip_chain++;
  for (DWORD handle : surfaces) impl_->surfaces.find(handle)->flip_chain = chain;
  impl_->flip_chains[chain].surfaces.assign(surfaces.begin(), surfaces.end());
  if (impl_->observer) impl_->observer->flip_chain_created(chain, surfaces);
  return S_OK;
}

HRESULT Device::Flip(DWORD chain_id) {
  {
    std::lock_guard lock(impl_->table);
    const auto it = impl_->flip_chains.find(chain_id);
    if (it == impl_->flip_chains.end()) return E_INVALIDARG;
    // One flip at a time: until the last frame is taken, the chain is busy.
    if (it->second.in_flip) return DDERR_WASSTILLDRAWING;
    it->second.in_flip = true;
    set_in_flip(*impl_, it->second, true);
    if (impl_->observer) impl_->observer->flipped(chain_id);
  }
  gpu::Submission s;
  s.on_complete = [impl = impl_.get(), chain_id] {
    FrameCallback callback;
    FrontBuffer frame;
    {
      std::lock_guard lock(impl->table);
      const auto it = impl->flip_chains.find(chain_id);
      if (it == impl->flip_chains.end()) return;
      detail::FlipChain& chain = it->second;
      // The page turn: each surface takes the next one's instance; the front takes the
      // first back buffer's, the last back buffer the old front's.
      std::vector<memory::AllocationHandle> instances;
      for (DWORD handle : chain.surfaces) instances.push_back(impl->surfaces.find(handle)->allocation);
      std::rotate(instances.begin(), instances.begin() + 1, instances.end());
      for (std::size_t i = 0; i < chain.surfaces.size(); ++i) impl->surfaces.find(chain.surfaces[i])->allocation = instances[i];
      const detail::Surface& front = *impl->surfaces.find(chain.surfaces[0]);
      frame.chain = chain_id;
      frame.surface = chain.surfaces[0];
      frame.data = impl->surfaces.bytes(front).data();
      frame.width = front.desc.width;
      frame.height = front.desc.height;
      frame.pitch = front.pitch;
      frame.format = front.desc.format;
      frame.dirty = {0, 0, static_cast<LONG>(front.desc.width), static_cast<LONG>(front.desc.height)};
      frame.frame = ++chain.flips;
      chain.frame = frame;
      chain.frame_ready = true;
      callback = impl->frame_callback;
    }
    if (!callback) return;  // the embedder polls
    callback(frame);        // returning takes the frame
    std::lock_guard lock(impl->table);
    if (const auto it = impl->flip_chains.find(chain_id); it != impl->flip_chains.end()) {
      it->second.frame_ready = false;
      it->second.in_flip = false;
      set_in_flip(*impl, it->second, false);
    }
  };
  impl_->gpu.submit(std::move(s));
  return S_OK;
}

void Device::set_frame_callback(FrameCallback callback) {
  std::lock_guard lock(impl_->table);
  impl_->frame_callback = std::move(callback);
}

bool Device::poll_frame(DWORD chain_id, FrontBuffer& out) {
  std::lock_guard lock(impl_->table);
  const auto it = impl_->flip_chains.find(chain_id);
  if (it == impl_->flip_chains.end() || !it->second.frame_ready) return false;
  out = it->second.frame;
  it->second.frame_ready = false;
  it->second.in_flip = false;
  set_in_flip(*impl_, it->second, false);
  return true;
}

}  // namespace dp2
