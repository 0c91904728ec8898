// Lock, Unlock, LockAsync, UnlockAsync and Rename: CPU access to surfaces, as the
// pfnLock / pfnLockAsync / pfnRename pages describe it. A surface's tracked instance is
// what DrawPrimitives2 and the GPU use; LockAsync with Discard hands out a fresh instance
// (the cookie) and the tracking switches only at Rename.
//
// Threads: any. The table mutex is never held while waiting for the GPU: Lock releases it
// before VideoMemory::lock waits.
#include <algorithm>

#include "device/device_impl.h"
#include "dp2raster/formats.h"

namespace dp2 {
namespace {

DWORD surface_handle(HANDLE h) { return static_cast<DWORD>(reinterpret_cast<std::uintptr_t>(h)); }

// Byte offset of the locked region's first byte: Range for linear resources, Area for
// surfaces (DXTn areas start at a 4×4 block). Whole-surface locks start at 0.
std::size_t region_offset(const detail::Surface& s, bool range_valid, const D3DDDIRANGE& range, bool area_valid,
                          const RECT& area) {
  if (range_valid) return std::min<std::size_t>(range.Offset, s.desc.size_bytes);
  if (!area_valid || s.desc.width == 0) return 0;
  const auto format = gpu::to_raster_format(s.desc.format);
  const raster::FormatInfo* info = format ? &raster::format_info(*format) : nullptr;
  const auto left = static_cast<std::size_t>(std::clamp<LONG>(area.left, 0, static_cast<LONG>(s.desc.width)));
  const auto top = static_cast<std::size_t>(std::clamp<LONG>(area.top, 0, static_cast<LONG>(s.desc.height)));
  if (info && info->block_bytes) return (top / 4) * s.pitch + (left / 4) * info->block_bytes;
  const std::size_t bytes_per_pixel = info ? info->bits_per_pixel / 8 : 0;
  return top * s.pitch + left * bytes_per_pixel;
}

bool more_than_one(bool a, bool b, bool c) { return (a ? 1 : 0) + (b ? 1 : 0) + (c ? 1 : 0) > 1; }

}  // namespace

HRESULT Device::Lock(D3DDDIARG_LOCK& args) {
  const D3DDDI_LOCKFLAGS f = args.Flags;
  // D3DDDIARG_LOCK remarks: ReadOnly with WriteOnly, NoOverwrite with Discard, ReadOnly with
  // Discard may not be combined, and only one of RangeValid / AreaValid / BoxValid is set.
  if ((f.ReadOnly && f.WriteOnly) || (f.NoOverwrite && f.Discard) || (f.ReadOnly && f.Discard) ||
      more_than_one(f.RangeValid, f.AreaValid, f.BoxValid) || args.SubResourceIndex != 0)
    return E_INVALIDARG;
  memory::AllocationHandle allocation = 0;
  std::size_t offset = 0;
  detail::Surface snapshot;
  {
    std::lock_guard lock(impl_->table);
    detail::Surface* s = impl_->surfaces.find(surface_handle(args.hResource));
    if (!s || s->locked) return E_INVALIDARG;
    // Discard on a busy surface: rename it here (a plain Lock has no Rename call to wait
    // for), so the lock does not stall; without memory for a new instance, wait instead.
    if (f.Discard && impl_->memory.busy(s->allocation)) {
      if (const memory::AllocationHandle fresh = impl_->memory.create_like(s->allocation)) {
        impl_->memory.destroy(s->allocation);  // freed once queued work is done with it
        s->allocation = fresh;
      }
    }
    allocation = s->allocation;
    s->locked = allocation;  // claimed before waiting, so a second Lock fails cleanly
    offset = region_offset(*s, f.RangeValid, args.Range, f.AreaValid, args.Area);
    snapshot = *s;
  }
  memory::LockFlags lf;
  lf.read_only = f.ReadOnly;
  lf.do_not_wait = f.DoNotWait;
  lf.no_overwrite = f.NoOverwrite;
  memory::Mapping map;
  const memory::LockStatus status = impl_->memory.lock(allocation, lf, map);
  if (status != memory::LockStatus::kOk) {
    std::lock_guard lock(impl_->table);
    if (detail::Surface* s = impl_->surfaces.find(surface_handle(args.hResource)); s && s->locked == allocation)
      s->locked = 0;
    // "The resource was not idle when ... Lock [was called] with the DoNotWait bit-field
    // flag set" (pfnLock page).
    return status == memory::LockStatus::kStillDrawing ? D3DDDIERR_WASSTILLDRAWING : E_INVALIDARG;
  }
  args.pSurfData = map.data + offset;
  args.Pitch = snapshot.pitch;
  args.SlicePitch = snapshot.slice_pitch;
  return S_OK;
}

// Releases the lock Lock or LockAsync took; E_INVALIDARG when the surface "was not locked
// by a previous call" (pfnUnlock / pfnUnlockAsync pages). The observer sees the bytes the
// caller may have written.
namespace {
HRESULT release_lock(detail::DeviceImpl& impl, HANDLE resource, UINT sub_resource) {
  std::lock_guard lock(impl.table);
  detail::Surface* s = impl.surfaces.find(surface_handle(resource));
  if (!s || s->locked == 0 || sub_resource != 0) return E_INVALIDARG;
  if (impl.observer) impl.observer->unlocked(surface_handle(resource), impl.memory.bytes(s->locked));
  impl.memory.unlock(s->locked);
  s->locked = 0;
  return S_OK;
}
}  // namespace

HRESULT Device::Unlock(const D3DDDIARG_UNLOCK& args) {
  return release_lock(*impl_, args.hResource, args.SubResourceIndex);
}

HRESULT Device::LockAsync(D3DDDIARG_LOCKASYNC& args) {
  const D3DDDI_LOCKASYNCFLAGS f = args.Flags;
  if ((f.NoOverwrite && f.Discard) || more_than_one(f.RangeValid, f.AreaValid, f.BoxValid) || args.SubResourceIndex != 0 ||
      args.GpuVirtualAddress != 0)
    return E_INVALIDARG;
  std::lock_guard lock(impl_->table);
  detail::Surface* s = impl_->surfaces.find(surface_handle(args.hResource));
  if (!s || s->locked) return E_INVALIDARG;
  // LockAsync never waits. Command buffers are dp2's own; NoOverwrite is "used only with
  // Direct3D vertex buffer locks" (D3DDDI_LOCKASYNCFLAGS page) — index buffers too, as
  // pfnLockCb describes dynamic IBs; a lock with neither flag could only wait. Those get
  // E_NOTIMPL: "does not support LockAsync for the specified resource" (pfnLockAsync page).
  const bool buffer = s->desc.kind == SurfaceKind::kVertexBuffer || s->desc.kind == SurfaceKind::kIndexBuffer;
  if (s->desc.kind == SurfaceKind::kCommandBuffer || (f.NoOverwrite && !buffer) || (!f.NoOverwrite && !f.Discard))
    return E_NOTIMPL;
  memory::AllocationHandle target = s->allocation;
  if (f.Discard) {
    // A fresh instance queued work does not use. "The driver should not update its
    // internal tracking structures with the new allocation handle ... Instead, the driver
    // should wait until its Rename function is called." When there is no memory for it,
    // the call "could not allocate the required memory" (pfnLockAsync page): E_OUTOFMEMORY,
    // and nothing changes — the tracked instance and its contents stay as they were. dp2
    // never answers WASSTILLDRAWING here: the page allows it for a rename that failed, and
    // with no memory to rename into, E_OUTOFMEMORY says more (docs/decisions.md).
    target = impl_->memory.create_like(s->allocation);
    if (target == 0) return E_OUTOFMEMORY;
    s->cookies.insert(target);
    args.hCookie = reinterpret_cast<HANDLE>(static_cast<std::uintptr_t>(target));
  }
  memory::LockFlags lf;
  lf.no_overwrite = true;  // the fresh instance is idle; NoOverwrite promises not to touch bytes in use
  memory::Mapping map;
  if (impl_->memory.lock(target, lf, map) != memory::LockStatus::kOk) return E_INVALIDARG;
  s->locked = target;
  args.pSurfData = map.data + region_offset(*s, f.RangeValid, args.Range, f.AreaValid, args.Area);
  args.Pitch = s->pitch;
  args.SlicePitch = s->slice_pitch;
  return S_OK;
}

HRESULT Device::UnlockAsync(const D3DDDIARG_UNLOCKASYNC& args) {
  return release_lock(*impl_, args.hResource, args.SubResourceIndex);
}

HRESULT Device::Rename(const D3DDDIARG_RENAME& args) {
  std::lock_guard lock(impl_->table);
  detail::Surface* s = impl_->surfaces.find(surface_handle(args.hResource));
  const auto cookie = static_cast<memory::AllocationHandle>(reinterpret_cast<std::uintptr_t>(args.hCookie));
  if (!s || args.SubResourceIndex != 0 || !s->cookies.contains(cookie)) return E_INVALIDARG;
  // "After Rename returns successfully ... the user-mode display driver should use the
  // allocation that hCookie specifies for all rendering operations that reference the
  // resource." The old instance is freed once queued work is done with it.
  impl_->memory.destroy(s->allocation);
  s->allocation = cookie;
  s->cookies.erase(cookie);
  if (impl_->observer) impl_->observer->renamed(surface_handle(args.hResource));
  return S_OK;
}

}  // namespace dp2
