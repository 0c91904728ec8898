// The C API (include/dp2/dp2.h) over dp2::Device: checks every pointer and size prefix,
// converts the C descriptions into the C++ ones, and keeps C++ exceptions from crossing
// into C (std::bad_alloc → DP2_E_OUTOFMEMORY, anything else → DP2_E_FAIL).
//
// Threads: the same as dp2::Device; this layer adds no shared state of its own except the
// executor copy, written once before the Device exists.
#include "dp2/dp2.h"

#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "dp2/capture.h"
#include "dp2/device.h"

struct dp2_device {
  // Declared before `device` so it outlives it: the GPU worker calls through it until the
  // Device is gone.
  dp2_executor executor{};
  std::unique_ptr<dp2::Device> device;
  // Declared after `device`, so a capture still running is stopped (detached, END chunk
  // written) before the Device goes.
  std::mutex capture_mutex;
  std::unique_ptr<dp2::CaptureRecorder> capture;
};

namespace {

// Runs `f`, mapping any exception to a result code. Every entry point goes through it.
template <class F>
dp2_result guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return DP2_E_OUTOFMEMORY;
  } catch (const std::invalid_argument&) {  // e.g. a video memory block the device cannot use
    return DP2_E_INVALIDARG;
  } catch (...) {
    return DP2_E_FAIL;
  }
}

// The size-prefix rule: a structure is accepted only with the size this version knows.
template <class T>
bool sized(const T* p) noexcept {
  return p != nullptr && p->size == sizeof(T);
}

// A 64-bit size the host's size_t can hold (always true on 64-bit hosts).
bool fits_size_t(std::uint64_t v) noexcept { return static_cast<std::uint64_t>(static_cast<std::size_t>(v)) == v; }

bool valid(const dp2_device* d) noexcept { return d != nullptr && d->device != nullptr; }

// Host executor trampoline: DeviceDesc carries a C++ function pointer and a user pointer;
// the user pointer is the device's copy of the caller's dp2_executor.
void host_parallel_for(void* user, std::size_t count, void (*task)(void*, std::size_t), void* task_context) {
  const auto* exec = static_cast<const dp2_executor*>(user);
  exec->parallel_for(exec->context, count, task, task_context);
}

// Wires the host executor into DeviceDesc when this build's DeviceDesc has the hook
// (executor_user / executor_parallel_for); false when it does not.
template <class Desc>
bool attach_executor(Desc& desc, dp2_executor* exec) {
  if constexpr (requires { desc.executor_parallel_for = &host_parallel_for; desc.executor_user = exec; }) {
    desc.executor_user = exec;
    desc.executor_parallel_for = &host_parallel_for;
    return true;
  } else {
    return false;
  }
}

dp2_front_buffer to_c(const dp2::FrontBuffer& f) noexcept {
  dp2_front_buffer c{};
  c.size = sizeof c;
  c.chain = f.chain;
  c.surface = f.surface;
  c.data = f.data;
  c.width = f.width;
  c.height = f.height;
  c.pitch = f.pitch;
  c.format = static_cast<std::uint32_t>(f.format);
  c.dirty = f.dirty;
  c.frame = f.frame;
  return c;
}

}  // namespace

extern "C" {

const char* dp2_result_name(dp2_result result) {
  switch (static_cast<std::uint32_t>(result)) {
    case 0x00000000u: return "DP2_OK";
    case 0x00000001u: return "DP2_S_FALSE";
    case 0x80004001u: return "DP2_E_NOTIMPL";
    case 0x80004005u: return "DP2_E_FAIL";
    case 0x8007000Eu: return "DP2_E_OUTOFMEMORY";
    case 0x80070057u: return "DP2_E_INVALIDARG";
    case static_cast<std::uint32_t>(DDERR_WASSTILLDRAWING): return "DDERR_WASSTILLDRAWING";
    case static_cast<std::uint32_t>(DDERR_OUTOFVIDEOMEMORY): return "DDERR_OUTOFVIDEOMEMORY";
    case static_cast<std::uint32_t>(DDERR_SURFACELOST): return "DDERR_SURFACELOST";
    case static_cast<std::uint32_t>(DDERR_UNSUPPORTEDFORMAT): return "DDERR_UNSUPPORTEDFORMAT";
    case static_cast<std::uint32_t>(DDERR_INVALIDPIXELFORMAT): return "DDERR_INVALIDPIXELFORMAT";
    case static_cast<std::uint32_t>(DDERR_EXCEPTION): return "DDERR_EXCEPTION";
    case static_cast<std::uint32_t>(D3DERR_COMMAND_UNPARSED): return "D3DERR_COMMAND_UNPARSED";
    case static_cast<std::uint32_t>(D3DERR_INVALIDCALL): return "D3DERR_INVALIDCALL";
    case static_cast<std::uint32_t>(D3DERR_DRIVERINTERNALERROR): return "D3DERR_DRIVERINTERNALERROR";
    case static_cast<std::uint32_t>(D3DDDIERR_NOTAVAILABLE): return "D3DDDIERR_NOTAVAILABLE";
    case static_cast<std::uint32_t>(D3DDDIERR_DEVICEREMOVED): return "D3DDDIERR_DEVICEREMOVED";
    case static_cast<std::uint32_t>(D3DDDIERR_PRIVILEGEDINSTRUCTION): return "D3DDDIERR_PRIVILEGEDINSTRUCTION";
    case static_cast<std::uint32_t>(D3DDDIERR_INVALIDINSTRUCTION): return "D3DDDIERR_INVALIDINSTRUCTION";
    case static_cast<std::uint32_t>(D3DDDIERR_INVALIDHANDLE): return "D3DDDIERR_INVALIDHANDLE";
    case static_cast<std::uint32_t>(D3DDDIERR_INVALIDUSERBUFFER): return "D3DDDIERR_INVALIDUSERBUFFER";
    case D3DHAL_CONTEXT_BAD: return "D3DHAL_CONTEXT_BAD";
    case D3DHAL_OUTOFCONTEXTS: return "D3DHAL_OUTOFCONTEXTS";
    default: return "unknown";
  }
}

uint32_t dp2_version(void) { return static_cast<uint32_t>(DP2_VERSION); }
const char* dp2_version_string(void) { return DP2_VERSION_STRING; }

// --- devices -------------------------------------------------------------------------------

// dp2_device_desc.simd is cast to SimdTarget: the two numberings must stay one.
static_assert(DP2_SIMD_AUTO == static_cast<unsigned>(dp2::SimdTarget::kAuto) &&
              DP2_SIMD_SCALAR == static_cast<unsigned>(dp2::SimdTarget::kScalar) &&
              DP2_SIMD_SSE41 == static_cast<unsigned>(dp2::SimdTarget::kSse41) &&
              DP2_SIMD_AVX2 == static_cast<unsigned>(dp2::SimdTarget::kAvx2) &&
              DP2_SIMD_NEON == static_cast<unsigned>(dp2::SimdTarget::kNeon) &&
              DP2_SIMD_AVX512 == static_cast<unsigned>(dp2::SimdTarget::kAvx512));

dp2_result dp2_device_create(const dp2_device_desc* desc, dp2_device** out_device) {
  if (!out_device) return DP2_E_INVALIDARG;
  *out_device = nullptr;
  // 0.1's desc ended before `simd`; it is still accepted at that size.
  const bool has_simd = desc && desc->size == sizeof *desc;
  if (desc && !has_simd && desc->size != offsetof(dp2_device_desc, simd)) return DP2_E_INVALIDARG;
  if (has_simd && desc->simd > DP2_SIMD_AVX512) return DP2_E_INVALIDARG;
  if (desc && desc->executor && (!sized(desc->executor) || !desc->executor->parallel_for)) return DP2_E_INVALIDARG;
  // The embedder's block needs its size; an owned segment of 0 bytes means the default.
  if (desc && desc->video_memory && desc->video_memory_size == 0) return DP2_E_INVALIDARG;
  if (desc && !fits_size_t(desc->video_memory_size)) return DP2_E_INVALIDARG;
  return guarded([&]() -> dp2_result {
    auto wrapper = std::make_unique<dp2_device>();
    dp2::DeviceDesc d;
    if (desc) {
      d.transform_and_lighting = (desc->flags & DP2_DEVICE_TRANSFORM_AND_LIGHTING) != 0;
      if (desc->video_memory)
        d.video_memory = {static_cast<std::byte*>(desc->video_memory), static_cast<std::size_t>(desc->video_memory_size)};
      if (desc->video_memory_size) d.video_memory_size = desc->video_memory_size;
      d.render_threads = desc->render_threads;
      if (has_simd) d.simd = static_cast<dp2::SimdTarget>(desc->simd);
      if (desc->executor) {
        wrapper->executor = *desc->executor;
        if (!attach_executor(d, &wrapper->executor)) return DP2_E_NOTIMPL;
      }
    }
    wrapper->device = std::make_unique<dp2::Device>(d);
    *out_device = wrapper.release();
    return DP2_OK;
  });
}

void dp2_device_destroy(dp2_device* device) {
  // ~Device joins its worker; nothing in it is expected to throw, but C must never see it.
  try {
    delete device;
  } catch (...) {
  }
}

dp2_result dp2_device_set_render_threads(dp2_device* device, uint32_t threads) {
  if (!valid(device)) return DP2_E_INVALIDARG;
  return guarded([&] {
    device->device->set_render_threads(threads);
    return DP2_OK;
  });
}

// --- surfaces ------------------------------------------------------------------------------

dp2_result dp2_surface_create(dp2_device* device, DWORD surface, const dp2_surface_desc* desc) {
  if (!valid(device) || !sized(desc) || desc->kind > DP2_SURFACE_COMMAND_BUFFER) return DP2_E_INVALIDARG;
  if (!fits_size_t(desc->size_bytes)) return DP2_E_INVALIDARG;
  return guarded([&] {
    dp2::SurfaceDesc d;
    d.kind = static_cast<dp2::SurfaceKind>(desc->kind);
    d.format = static_cast<D3DFORMAT>(desc->format);
    d.width = desc->width;
    d.height = desc->height;
    d.mip_levels = desc->mip_levels ? desc->mip_levels : 1;
    d.size_bytes = static_cast<std::size_t>(desc->size_bytes);
    d.explicit_vertex_buffer = (desc->flags & DP2_SURFACE_EXPLICIT_VERTEX_BUFFER) != 0;
    d.has_color_key = (desc->flags & DP2_SURFACE_COLOR_KEY) != 0;
    d.color_key = desc->color_key;
    return static_cast<dp2_result>(device->device->create_surface(surface, d));
  });
}

dp2_result dp2_surface_destroy(dp2_device* device, DWORD surface) {
  if (!valid(device)) return DP2_E_INVALIDARG;
  return guarded([&] { return static_cast<dp2_result>(device->device->destroy_surface(surface)); });
}

dp2_result dp2_surface_bytes(dp2_device* device, DWORD surface, void** out_data, size_t* out_size) {
  if (!valid(device) || !out_data || !out_size) return DP2_E_INVALIDARG;
  *out_data = nullptr;
  *out_size = 0;
  return guarded([&] {
    const std::span<std::byte> bytes = device->device->surface_bytes(surface);
    if (bytes.data() == nullptr) return DP2_E_INVALIDARG;
    *out_data = bytes.data();
    *out_size = bytes.size();
    return DP2_OK;
  });
}

dp2_result dp2_surface_set_flip_in_progress(dp2_device* device, DWORD surface, int in_progress) {
  if (!valid(device)) return DP2_E_INVALIDARG;
  return guarded(
      [&] { return static_cast<dp2_result>(device->device->set_flip_in_progress(surface, in_progress != 0)); });
}

dp2_result dp2_surface_evict(dp2_device* device, DWORD surface) {
  if (!valid(device)) return DP2_E_INVALIDARG;
  return guarded([&] { return static_cast<dp2_result>(device->device->evict(surface)); });
}

// --- contexts ------------------------------------------------------------------------------

dp2_result dp2_context_create(dp2_device* device, const dp2_context_desc* desc, ULONG_PTR* out_context) {
  if (!valid(device) || !sized(desc) || !out_context) return DP2_E_INVALIDARG;
  *out_context = 0;
  return guarded([&] {
    dp2::ContextDesc d;
    d.interface_version = desc->interface_version;
    d.render_target = desc->render_target;
    d.depth_stencil = desc->depth_stencil;
    d.free_threaded = (desc->flags & DP2_CONTEXT_FREE_THREADED) != 0;
    return static_cast<dp2_result>(device->device->create_context(d, *out_context));
  });
}

dp2_result dp2_context_destroy(dp2_device* device, ULONG_PTR context) {
  if (!valid(device)) return DP2_E_INVALIDARG;
  return guarded([&] { return static_cast<dp2_result>(device->device->destroy_context(context)); });
}

// --- D3dDrawPrimitives2 --------------------------------------------------------------------

DWORD dp2_draw_primitives2(dp2_device* device, D3DHAL_DRAWPRIMITIVES2DATA* data) {
  if (!data) return DDHAL_DRIVER_NOTHANDLED;
  if (!valid(device)) {
    data->ddrval = DDERR_INVALIDPARAMS;
    data->dwErrorOffset = 0;
    return DDHAL_DRIVER_HANDLED;
  }
  // The front end reports its outcome in ddrval; an exception (out of memory while
  // recording) becomes the DDI's own error codes.
  try {
    return device->device->DrawPrimitives2(*data);
  } catch (const std::bad_alloc&) {
    data->ddrval = DDERR_OUTOFMEMORY;
  } catch (...) {
    data->ddrval = D3DERR_DRIVERINTERNALERROR;
  }
  data->dwErrorOffset = 0;
  return DDHAL_DRIVER_HANDLED;
}

dp2_result dp2_set_unknown_command_callback(dp2_device* device, dp2_unknown_command_fn fn, void* user) {
  if (!valid(device)) return DP2_E_INVALIDARG;
  return guarded([&] {
    if (!fn) {
      device->device->set_unknown_command_callback({});
      return DP2_OK;
    }
    device->device->set_unknown_command_callback(
        [fn, user](std::span<const std::byte> command, std::size_t& consumed) -> HRESULT {
          std::size_t n = 0;
          const HRESULT hr = fn(user, command.data(), command.size(), &n);
          consumed = n;
          return hr;
        });
    return DP2_OK;
  });
}

// --- submission and fences -----------------------------------------------------------------

dp2_result dp2_command_buffers_get(dp2_device* device, ULONG_PTR context, dp2_command_buffers* out) {
  if (!valid(device) || !sized(out)) return DP2_E_INVALIDARG;
  return guarded([&] {
    dp2::CommandBuffers b;
    const HRESULT hr = device->device->command_buffers(context, b);
    if (hr != S_OK) return static_cast<dp2_result>(hr);
    out->command_buffer = b.command_buffer;
    out->command_buffer_size = b.command_buffer_size;
    out->allocation_list = b.allocation_list;
    out->allocation_list_size = b.allocation_list_size;
    out->patch_location_list = b.patch_location_list;
    out->patch_location_list_size = b.patch_location_list_size;
    return DP2_OK;
  });
}

dp2_result dp2_render(dp2_device* device, D3DDDICB_RENDER* args) {
  if (!valid(device) || !args) return DP2_E_INVALIDARG;
  return guarded([&] { return static_cast<dp2_result>(device->device->Render(*args)); });
}

dp2_result dp2_fence_last(dp2_device* device, uint64_t* out_fence) {
  if (!valid(device) || !out_fence) return DP2_E_INVALIDARG;
  return guarded([&] {
    *out_fence = device->device->last_fence();
    return DP2_OK;
  });
}

dp2_result dp2_fence_completed(dp2_device* device, uint64_t* out_fence) {
  if (!valid(device) || !out_fence) return DP2_E_INVALIDARG;
  return guarded([&] {
    *out_fence = device->device->completed_fence();
    return DP2_OK;
  });
}

dp2_result dp2_fence_wait(dp2_device* device, uint64_t fence) {
  if (!valid(device)) return DP2_E_INVALIDARG;
  return guarded([&] {
    // A fence never handed out would never complete: waiting for it is a caller error.
    if (fence > device->device->last_fence()) return DP2_E_INVALIDARG;
    device->device->wait_fence(fence);
    return DP2_OK;
  });
}

dp2_result dp2_wait_idle(dp2_device* device) {
  if (!valid(device)) return DP2_E_INVALIDARG;
  return guarded([&] {
    device->device->wait_idle();
    return DP2_OK;
  });
}

dp2_result dp2_hold_gpu(dp2_device* device, int held) {
  if (!valid(device)) return DP2_E_INVALIDARG;
  return guarded([&] {
    device->device->hold_gpu(held != 0);
    return DP2_OK;
  });
}

// --- locks ---------------------------------------------------------------------------------

dp2_result dp2_lock(dp2_device* device, D3DDDIARG_LOCK* args) {
  if (!valid(device) || !args) return DP2_E_INVALIDARG;
  return guarded([&] { return static_cast<dp2_result>(device->device->Lock(*args)); });
}

dp2_result dp2_unlock(dp2_device* device, const D3DDDIARG_UNLOCK* args) {
  if (!valid(device) || !args) return DP2_E_INVALIDARG;
  return guarded([&] { return static_cast<dp2_result>(device->device->Unlock(*args)); });
}

dp2_result dp2_lock_async(dp2_device* device, D3DDDIARG_LOCKASYNC* args) {
  if (!valid(device) || !args) return DP2_E_INVALIDARG;
  return guarded([&] { return static_cast<dp2_result>(device->device->LockAsync(*args)); });
}

dp2_result dp2_unlock_async(dp2_device* device, const D3DDDIARG_UNLOCKASYNC* args) {
  if (!valid(device) || !args) return DP2_E_INVALIDARG;
  return guarded([&] { return static_cast<dp2_result>(device->device->UnlockAsync(*args)); });
}

dp2_result dp2_rename(dp2_device* device, const D3DDDIARG_RENAME* args) {
  if (!valid(device) || !args) return DP2_E_INVALIDARG;
  return guarded([&] { return static_cast<dp2_result>(device->device->Rename(*args)); });
}

// --- flips ---------------------------------------------------------------------------------

dp2_result dp2_flip_chain_create(dp2_device* device, const DWORD* surfaces, uint32_t count, DWORD* out_chain) {
  if (!valid(device) || !surfaces || !out_chain) return DP2_E_INVALIDARG;
  return guarded([&] {
    return static_cast<dp2_result>(device->device->create_flip_chain(std::span<const DWORD>(surfaces, count), *out_chain));
  });
}

dp2_result dp2_flip(dp2_device* device, DWORD chain) {
  if (!valid(device)) return DP2_E_INVALIDARG;
  return guarded([&] { return static_cast<dp2_result>(device->device->Flip(chain)); });
}

dp2_result dp2_poll_frame(dp2_device* device, DWORD chain, dp2_front_buffer* out) {
  if (!valid(device) || !sized(out)) return DP2_E_INVALIDARG;
  return guarded([&] {
    dp2::FrontBuffer frame;
    if (!device->device->poll_frame(chain, frame)) return DP2_S_FALSE;
    *out = to_c(frame);
    return DP2_OK;
  });
}

dp2_result dp2_set_frame_callback(dp2_device* device, dp2_frame_fn fn, void* user) {
  if (!valid(device)) return DP2_E_INVALIDARG;
  return guarded([&] {
    if (!fn) {
      device->device->set_frame_callback({});
      return DP2_OK;
    }
    device->device->set_frame_callback([fn, user](const dp2::FrontBuffer& frame) {
      const dp2_front_buffer c = to_c(frame);
      // A C callback cannot throw; a C++ one handed in through this API must not take the
      // GPU worker down with it.
      try {
        fn(user, &c);
      } catch (...) {
      }
    });
    return DP2_OK;
  });
}

// --- inspection ----------------------------------------------------------------------------

dp2_result dp2_write_png(dp2_device* device, DWORD surface, const char* path, int keep_alpha, ULONG_PTR context) {
  if (!valid(device) || !path) return DP2_E_INVALIDARG;
  return guarded([&] {
    if (device->device->surface_image(surface, context).data == nullptr) return DP2_E_INVALIDARG;
    return device->device->write_png(surface, path, keep_alpha != 0, context) ? DP2_OK : DP2_E_FAIL;
  });
}

dp2_result dp2_capture_start(dp2_device* device, const char* path) {
  if (!valid(device) || !path) return DP2_E_INVALIDARG;
  return guarded([&] {
    std::lock_guard lock(device->capture_mutex);
    if (device->capture) return DP2_E_FAIL;  // one capture at a time
    device->capture = dp2::start_capture(*device->device, path);
    return device->capture ? DP2_OK : DP2_E_FAIL;
  });
}

dp2_result dp2_capture_stop(dp2_device* device) {
  if (!valid(device)) return DP2_E_INVALIDARG;
  return guarded([&] {
    std::unique_ptr<dp2::CaptureRecorder> capture;
    {
      std::lock_guard lock(device->capture_mutex);
      capture = std::move(device->capture);
    }
    if (!capture) return DP2_S_FALSE;
    return capture->stop() ? DP2_OK : DP2_E_FAIL;
  });
}

// --- save states ---------------------------------------------------------------------------

dp2_result dp2_save_state(dp2_device* device, void* buffer, size_t capacity, size_t* out_size) {
  if (!valid(device) || !out_size) return DP2_E_INVALIDARG;
  return guarded([&] {
    std::vector<std::byte> blob;
    if (const HRESULT hr = device->device->save_state(blob); hr != S_OK) return static_cast<dp2_result>(hr);
    *out_size = blob.size();
    if (!buffer) return DP2_OK;
    if (capacity < blob.size()) return DP2_E_INVALIDARG;
    std::memcpy(buffer, blob.data(), blob.size());
    return DP2_OK;
  });
}

dp2_result dp2_restore_state(dp2_device* device, const void* blob, size_t size) {
  if (!valid(device) || (!blob && size != 0)) return DP2_E_INVALIDARG;
  return guarded([&] {
    return static_cast<dp2_result>(
        device->device->restore_state(std::span<const std::byte>(static_cast<const std::byte*>(blob), size)));
  });
}

}  // extern "C"
