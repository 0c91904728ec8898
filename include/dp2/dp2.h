/* dp2/dp2.h — the C API of dp2, for emulators and other C hosts (86Box, PCem, QEMU-based
 * projects). C99 or later, or C++.
 *
 * A thin layer over dp2::Device (dp2/device.h); the DDI structures themselves are the
 * C-compatible wire structures of dp2/ddi.h (D3dDrawPrimitives2) and dp2/wddm.h (Render,
 * the five lock calls), used as they are.
 *
 * Conventions
 *  - Objects are opaque handles (dp2_device*). Surface, context and flip chain handles are
 *    the DDI's numbers (DWORD / ULONG_PTR), as with the C++ API.
 *  - Every dp2_* structure starts with `uint32_t size`, which the caller sets to sizeof the
 *    structure before the call (also for output structures). A size dp2 does not know
 *    gives DP2_E_INVALIDARG; later versions will accept this version's sizes.
 *  - Functions return dp2_result, an HRESULT-compatible int32_t: DP2_OK (0) on success,
 *    a negative DP2_E_* code on failure. Where a function wraps a DDI call that answers
 *    with an HRESULT (locks, Render, Flip), that code comes back unchanged, so it may be any
 *    of the DDI's codes (D3DDDIERR_WASSTILLDRAWING, DDERR_WASSTILLDRAWING, ...).
 *    A few plain DDI values are positive (D3DHAL_OUTOFCONTEXTS = 0x201): compare with
 *    DP2_OK rather than testing the sign, unless the function says otherwise.
 *  - NULL where a pointer is required gives DP2_E_INVALIDARG, never a crash. No C++
 *    exception ever leaves a dp2_* function: out-of-memory gives DP2_E_OUTOFMEMORY,
 *    anything else unexpected DP2_E_FAIL.
 *  - Threads: the same rules as dp2::Device — draw, Render and the lock calls may come from
 *    different threads; rendering runs on the device's own GPU worker thread.
 *    dp2_device_destroy must not race with any other call on the same device.
 */
#ifndef DP2_DP2_H
#define DP2_DP2_H

#include <stddef.h>
#include <stdint.h>

#include "dp2/ddi.h"
#include "dp2/version.h"
#include "dp2/wddm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dp2 is built as a static library; DP2_API is the hook for a future shared build. */
#ifndef DP2_API
#define DP2_API
#endif

/* ---------------------------------------------------------------------------------------
 * Results
 * ------------------------------------------------------------------------------------- */
typedef int32_t dp2_result;

#define DP2_OK             ((dp2_result)0x00000000)
#define DP2_S_FALSE        ((dp2_result)0x00000001) /* success, nothing to do (no frame) */
#define DP2_E_NOTIMPL      ((dp2_result)0x80004001u) /* = E_NOTIMPL */
#define DP2_E_FAIL         ((dp2_result)0x80004005u) /* = E_FAIL */
#define DP2_E_OUTOFMEMORY  ((dp2_result)0x8007000Eu) /* = E_OUTOFMEMORY */
#define DP2_E_INVALIDARG   ((dp2_result)0x80070057u) /* = E_INVALIDARG */

#define DP2_SUCCEEDED(r) ((dp2_result)(r) >= 0)
#define DP2_FAILED(r)    ((dp2_result)(r) < 0)

/* A short name for a code ("DP2_E_INVALIDARG", "D3DDDIERR_WASSTILLDRAWING", ...);
 * "unknown" for one it does not know. Never NULL. */
DP2_API const char* dp2_result_name(dp2_result result);

/* DP2_VERSION of the library linked in (compare with the header's DP2_VERSION). */
DP2_API uint32_t dp2_version(void);
DP2_API const char* dp2_version_string(void);

/* ---------------------------------------------------------------------------------------
 * Devices
 * ------------------------------------------------------------------------------------- */
typedef struct dp2_device dp2_device;

/* A host's thread pool (ARCHITECTURE.md: "threads belong to the host"). parallel_for must
 * call task(task_context, i) exactly once for every i in [0, count) — on any of its
 * threads, in any order — and return only when all those calls have returned. It is
 * called from the device's GPU worker thread, never re-entrantly for one device.
 * The rasterizer's tiles then run through it instead of dp2's own executor (a TBB
 * arena, or dp2's thread pool in a build without TBB); render_threads = 1 still keeps
 * every tile on the GPU worker. */
typedef void (*dp2_task_fn)(void* task_context, size_t index);
typedef struct dp2_executor {
  uint32_t size; /* sizeof(dp2_executor) */
  void* context; /* passed to parallel_for */
  void (*parallel_for)(void* context, size_t count, dp2_task_fn task, void* task_context);
} dp2_executor;

/* dp2_device_desc.flags */
#define DP2_DEVICE_TRANSFORM_AND_LIGHTING 0x00000001u /* accepts untransformed vertices */

typedef struct dp2_device_desc {
  uint32_t size;  /* sizeof(dp2_device_desc) */
  uint32_t flags; /* DP2_DEVICE_* */
  /* Video memory: the embedder's block (an emulator's VRAM array) of video_memory_size
   * bytes, which must outlive the device; or, when video_memory is NULL, one segment the
   * device owns of video_memory_size bytes (0 = 256 MiB). */
  void* video_memory;
  uint64_t video_memory_size;
  /* Rasterizer threads per buffer: 0 = one per core, 1 = all on the GPU worker. */
  uint32_t render_threads;
  /* Optional (NULL = dp2's own); copied at creation, its context must outlive the device. */
  const dp2_executor* executor;
  /* The SIMD kernels' instruction set, DP2_SIMD_*: AUTO (0) picks the best the CPU runs;
   * images do not depend on it. Read only when size covers it (added in dp2 0.2). */
  uint32_t simd;
} dp2_device_desc;

/* dp2_device_desc.simd */
#define DP2_SIMD_AUTO 0u
#define DP2_SIMD_SCALAR 1u
#define DP2_SIMD_SSE41 2u
#define DP2_SIMD_AVX2 3u
#define DP2_SIMD_NEON 4u /* AArch64 */
#define DP2_SIMD_AVX512 5u /* x86: the AVX2 kernels built with AVX-512 F, VL, BW and DQ */

/* desc may be NULL (defaults: owned 256 MiB video memory, one thread per core). */
DP2_API dp2_result dp2_device_create(const dp2_device_desc* desc, dp2_device** out_device);
/* Waits for queued work, then frees everything. NULL is allowed (does nothing). */
DP2_API void dp2_device_destroy(dp2_device* device);
DP2_API dp2_result dp2_device_set_render_threads(dp2_device* device, uint32_t threads);

/* ---------------------------------------------------------------------------------------
 * Surfaces — handles are chosen by the caller, as D3dCreateSurfaceEx handles are; 0 is
 * never valid.
 * ------------------------------------------------------------------------------------- */
typedef enum dp2_surface_kind {
  DP2_SURFACE_RENDER_TARGET = 0,
  DP2_SURFACE_DEPTH_STENCIL = 1,
  DP2_SURFACE_TEXTURE = 2,
  DP2_SURFACE_VERTEX_BUFFER = 3,  /* DDSCAPS_EXECUTEBUFFER */
  DP2_SURFACE_INDEX_BUFFER = 4,
  DP2_SURFACE_COMMAND_BUFFER = 5  /* what lpDDCommands names */
} dp2_surface_kind;

/* dp2_surface_desc.flags */
#define DP2_SURFACE_EXPLICIT_VERTEX_BUFFER 0x00000001u /* DDSCAPS2_VERTEXBUFFER */
#define DP2_SURFACE_COLOR_KEY              0x00000002u /* color_key is the DDCKEY_SRCBLT key */

typedef struct dp2_surface_desc {
  uint32_t size; /* sizeof(dp2_surface_desc) */
  uint32_t kind; /* dp2_surface_kind */
  uint32_t format; /* a D3DFORMAT for images; D3DFMT_UNKNOWN for buffers */
  uint32_t width, height; /* images, in pixels */
  uint32_t mip_levels; /* 0 is taken as 1 */
  uint64_t size_bytes; /* buffers: the byte size; images: computed when 0 */
  uint32_t flags; /* DP2_SURFACE_* */
  DWORD color_key; /* in the surface's own format, with DP2_SURFACE_COLOR_KEY */
} dp2_surface_desc;

DP2_API dp2_result dp2_surface_create(dp2_device* device, DWORD surface, const dp2_surface_desc* desc);
DP2_API dp2_result dp2_surface_destroy(dp2_device* device, DWORD surface);
/* The surface's memory (level 0, then the mip chain) after waiting for queued work that
 * uses it: a plain upload / read-back (dp2_lock is the DDI way). Valid until the surface is
 * destroyed, renamed (a Discard lock) or flipped. Queued draws read a vertex buffer when
 * they run: do not write through a pointer kept across calls that draw from it (lock it).
 * DP2_E_INVALIDARG for an unknown handle. */
DP2_API dp2_result dp2_surface_bytes(dp2_device* device, DWORD surface, void** out_data, size_t* out_size);
/* Marks a surface as in a flip by hand (a flip chain does it itself). */
DP2_API dp2_result dp2_surface_set_flip_in_progress(dp2_device* device, DWORD surface, int in_progress);
/* Moves the surface out of video memory (queued work re-patches before it runs). */
DP2_API dp2_result dp2_surface_evict(dp2_device* device, DWORD surface);

/* ---------------------------------------------------------------------------------------
 * Contexts
 * ------------------------------------------------------------------------------------- */
/* dp2_context_desc.flags */
#define DP2_CONTEXT_FREE_THREADED 0x00000001u /* RenderCBSequence starts at 0x80000001 */

typedef struct dp2_context_desc {
  uint32_t size; /* sizeof(dp2_context_desc) */
  /* 0 = DX3, 1 = DX5, 2 = DX6, 3 = DX7, 4 = DX8, 5 = DX9 (D3DHAL_CONTEXTCREATEDATA). */
  uint32_t interface_version;
  DWORD render_target; /* surface handles, 0 = none */
  DWORD depth_stencil;
  uint32_t flags; /* DP2_CONTEXT_* */
} dp2_context_desc;

/* DP2_OK and the handle, DP2_E_INVALIDARG, or D3DHAL_OUTOFCONTEXTS (a positive DDI value). */
DP2_API dp2_result dp2_context_create(dp2_device* device, const dp2_context_desc* desc, ULONG_PTR* out_context);
DP2_API dp2_result dp2_context_destroy(dp2_device* device, ULONG_PTR context);

/* ---------------------------------------------------------------------------------------
 * D3dDrawPrimitives2. lpDDCommands / lpDDVertex carry surface handles (ddi.h). Returns the
 * DDHAL disposition (DDHAL_DRIVER_HANDLED); the outcome is in data->ddrval and
 * data->dwErrorOffset. A NULL device gives ddrval = DDERR_INVALIDPARAMS; NULL data gives
 * DDHAL_DRIVER_NOTHANDLED.
 * ------------------------------------------------------------------------------------- */
DP2_API DWORD dp2_draw_primitives2(dp2_device* device, D3DHAL_DRAWPRIMITIVES2DATA* data);

/* The runtime's D3dParseUnknownCommand: receives the stream from the unknown command to
 * the end of dwCommandLength; sets *consumed to the bytes it handled and returns S_OK to
 * resume there (0 < *consumed <= size). Runs on the thread that called
 * dp2_draw_primitives2. fn NULL removes it. */
typedef HRESULT (*dp2_unknown_command_fn)(void* user, const void* command, size_t size, size_t* consumed);
DP2_API dp2_result dp2_set_unknown_command_callback(dp2_device* device, dp2_unknown_command_fn fn, void* user);

/* ---------------------------------------------------------------------------------------
 * Submission (pfnRenderCb) and fences
 * ------------------------------------------------------------------------------------- */
typedef struct dp2_command_buffers {
  uint32_t size; /* sizeof(dp2_command_buffers) */
  void* command_buffer;
  UINT command_buffer_size;
  D3DDDI_ALLOCATIONLIST* allocation_list;
  UINT allocation_list_size;
  D3DDDI_PATCHLOCATIONLIST* patch_location_list;
  UINT patch_location_list_size;
} dp2_command_buffers;

/* The buffers a context fills for its first Render (later ones come back from Render). */
DP2_API dp2_result dp2_command_buffers_get(dp2_device* device, ULONG_PTR context, dp2_command_buffers* out);
/* pfnRenderCb: the Device::Render result, unchanged (D3DDDIERR_INVALID* included). */
DP2_API dp2_result dp2_render(dp2_device* device, D3DDDICB_RENDER* args);

DP2_API dp2_result dp2_fence_last(dp2_device* device, uint64_t* out_fence);      /* newest submission */
DP2_API dp2_result dp2_fence_completed(dp2_device* device, uint64_t* out_fence); /* all up to it ran */
DP2_API dp2_result dp2_fence_wait(dp2_device* device, uint64_t fence);
DP2_API dp2_result dp2_wait_idle(dp2_device* device);
/* Holds the GPU worker before its next buffer (held != 0), or releases it. */
DP2_API dp2_result dp2_hold_gpu(dp2_device* device, int held);

/* ---------------------------------------------------------------------------------------
 * Locks (pfnLock / pfnUnlock / pfnLockAsync / pfnUnlockAsync / pfnRename). hResource
 * carries a surface handle: (HANDLE)(uintptr_t)surface. Results are the DDI's, unchanged.
 * ------------------------------------------------------------------------------------- */
DP2_API dp2_result dp2_lock(dp2_device* device, D3DDDIARG_LOCK* args);
DP2_API dp2_result dp2_unlock(dp2_device* device, const D3DDDIARG_UNLOCK* args);
DP2_API dp2_result dp2_lock_async(dp2_device* device, D3DDDIARG_LOCKASYNC* args);
DP2_API dp2_result dp2_unlock_async(dp2_device* device, const D3DDDIARG_UNLOCKASYNC* args);
DP2_API dp2_result dp2_rename(dp2_device* device, const D3DDDIARG_RENAME* args);

/* ---------------------------------------------------------------------------------------
 * Flips and the front buffer
 * ------------------------------------------------------------------------------------- */
/* A frame to display: the chain's front buffer after a flip completed. data stays valid
 * until the next flip of the chain completes. */
typedef struct dp2_front_buffer {
  uint32_t size; /* sizeof(dp2_front_buffer) */
  DWORD chain;
  DWORD surface; /* the chain's front surface handle */
  const void* data;
  uint32_t width, height, pitch;
  uint32_t format; /* D3DFORMAT */
  RECT dirty;      /* the region that changed */
  uint64_t frame;  /* counts flips of the chain */
} dp2_front_buffer;

/* surfaces[0] is the front buffer; count >= 2 render targets of one format and size. */
DP2_API dp2_result dp2_flip_chain_create(dp2_device* device, const DWORD* surfaces, uint32_t count,
                                         DWORD* out_chain);
/* Queues a flip behind the work submitted before it. DDERR_WASSTILLDRAWING while the
 * previous frame of the chain has not been taken. */
DP2_API dp2_result dp2_flip(dp2_device* device, DWORD chain);
/* Takes the newest completed frame: DP2_OK and *out filled (out->size set by the caller),
 * or DP2_S_FALSE when none is ready (poll again later; dp2_wait_idle waits for it). */
DP2_API dp2_result dp2_poll_frame(dp2_device* device, DWORD chain, dp2_front_buffer* out);
/* Called on the GPU worker thread when a flip completes; returning takes the frame (then
 * dp2_poll_frame sees nothing). frame->data is valid during the call. fn NULL removes it. */
typedef void (*dp2_frame_fn)(void* user, const dp2_front_buffer* frame);
DP2_API dp2_result dp2_set_frame_callback(dp2_device* device, dp2_frame_fn fn, void* user);

/* ---------------------------------------------------------------------------------------
 * Inspection
 * ------------------------------------------------------------------------------------- */
/* Encodes the surface as a PNG and writes it (RGBA when keep_alpha, else RGB). A P8 surface
 * takes the palette bound in `context` (0 = none). DP2_E_FAIL when encoding or writing
 * fails, DP2_E_INVALIDARG for an unknown surface. */
DP2_API dp2_result dp2_write_png(dp2_device* device, DWORD surface, const char* path, int keep_alpha,
                                 ULONG_PTR context);

/* Capture: records everything the device receives into a .dp2c file (dp2/capture.h,
 * docs/capture-format.md) that dp2replay runs again. Start it right after
 * dp2_device_create: surfaces created before it are unknown to the capture. One capture at
 * a time per device: DP2_E_FAIL when one is running or the file cannot be written.
 * dp2_capture_stop writes the end of the file and closes it: DP2_OK, DP2_S_FALSE when no
 * capture was running, DP2_E_FAIL when a write failed at any point. dp2_device_destroy
 * stops a running capture. */
DP2_API dp2_result dp2_capture_start(dp2_device* device, const char* path);
DP2_API dp2_result dp2_capture_stop(dp2_device* device);

/* ---------------------------------------------------------------------------------------
 * Save states (docs/save-state.md), for an emulator's save / load
 * ------------------------------------------------------------------------------------- */
/* Waits for queued work, then writes the device's whole state (surfaces and their bytes,
 * flip chains, contexts, counters) as a versioned blob. Two calls: with buffer NULL it sets
 * *out_size to the bytes needed and returns DP2_OK; with a buffer of capacity >= that it
 * fills it and sets *out_size to the bytes written. A smaller capacity gives
 * DP2_E_INVALIDARG with *out_size set to the bytes needed (the device drew since the size
 * query: ask again). DP2_E_INVALIDARG too while a surface is locked or has a LockAsync
 * (Discard) instance not yet renamed: a save state is taken with the device quiet. */
DP2_API dp2_result dp2_save_state(dp2_device* device, void* buffer, size_t capacity, size_t* out_size);
/* Rebuilds a saved state in a fresh device (no surfaces, contexts or flip chains yet) made
 * with the same flags: surface, context and flip chain handles come back as they were.
 * DP2_E_INVALIDARG for a device that is not fresh, or a blob that is cut short, corrupt or
 * of another major version (the device is left as it was); DP2_E_OUTOFMEMORY. Take
 * pointers (dp2_command_buffers_get, locks) anew afterwards. */
DP2_API dp2_result dp2_restore_state(dp2_device* device, const void* blob, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* DP2_DP2_H */
