// dp2::DeviceObserver — sees every call a Device receives, with its inputs, on the calling
// thread and in call order (the device's table mutex is held, so the observer needs no
// locking of its own and must not call back into the device). The capture recorder is
// one; a debugger or a logger can be another.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "dp2/ddi.h"
#include "dp2/wddm.h"

namespace dp2 {

struct SurfaceDesc;
struct ContextDesc;

class DeviceObserver {
 public:
  virtual ~DeviceObserver() = default;

  virtual void surface_created(DWORD /*handle*/, const SurfaceDesc& /*desc*/) {}
  virtual void surface_destroyed(DWORD /*handle*/) {}
  virtual void context_created(ULONG_PTR /*handle*/, const ContextDesc& /*desc*/) {}
  virtual void context_destroyed(ULONG_PTR /*handle*/) {}
  // Before each DrawPrimitives2 / Render: the contents of every surface as the call will
  // see them (the observer keeps what it needs to notice a change).
  virtual void surface_contents(DWORD /*handle*/, std::span<const std::byte> /*bytes*/) {}
  // A DrawPrimitives2 call: its members as received, the bytes of its command stream
  // ([dwCommandOffset, dwCommandOffset + dwCommandLength) of the command surface, clipped to
  // the surface) and, for D3DHALDP2_USERMEMVERTICES, the user-memory vertex bytes the call
  // may read (dwVertexOffset + dwVertexLength × stride).
  virtual void draw_primitives2(const D3DHAL_DRAWPRIMITIVES2DATA& /*in*/, std::span<const std::byte> /*commands*/,
                                std::span<const std::byte> /*user_vertices*/) {}
  // A Render call: its members and the command bytes and lists it submits.
  virtual void render(const D3DDDICB_RENDER& /*in*/, std::span<const std::byte> /*command_buffer*/,
                      std::span<const D3DDDI_ALLOCATIONLIST> /*allocations*/,
                      std::span<const D3DDDI_PATCHLOCATIONLIST> /*patches*/) {}
  // The bytes of a surface's instance when a Lock / LockAsync is released (the caller may
  // have written them), and the rename that makes a LockAsync instance the tracked one.
  virtual void unlocked(DWORD /*handle*/, std::span<const std::byte> /*bytes*/) {}
  virtual void renamed(DWORD /*handle*/) {}
  virtual void flip_chain_created(DWORD /*chain*/, std::span<const DWORD> /*surfaces*/) {}
  virtual void flipped(DWORD /*chain*/) {}
};

}  // namespace dp2
