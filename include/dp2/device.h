// dp2::Device — the driver object a runtime (or an emulator's guest-driver shim, or a
// test program) talks to: contexts, a surface table, and the D3dDrawPrimitives2 entry.
//
// Threads: DrawPrimitives2, Render and the lock calls may come from different threads;
// LockAsync / UnlockAsync / Rename may run while DrawPrimitives2 runs on another thread.
// Rendering runs asynchronously on the device's GPU worker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dp2/ddi.h"
#include "dp2/observer.h"
#include "dp2/png.h"
#include "dp2/wddm.h"

namespace dp2 {

// What a surface handle names. Handles are chosen by the runtime, as D3dCreateSurfaceEx
// handles are; 0 is never a valid handle ("none" in every DP2 payload).
enum class SurfaceKind : std::uint8_t {
  kRenderTarget,
  kDepthStencil,
  kTexture,
  kVertexBuffer,   // DDSCAPS_EXECUTEBUFFER (+ DDSCAPS2_VERTEXBUFFER when explicit)
  kIndexBuffer,
  kCommandBuffer,  // what lpDDCommands names
};

struct SurfaceDesc {
  SurfaceKind kind = SurfaceKind::kTexture;
  D3DFORMAT format = D3DFMT_UNKNOWN;  // images; D3DFMT_UNKNOWN for buffers
  std::uint32_t width = 0;            // images: pixels; buffers: ignored
  std::uint32_t height = 0;
  std::uint32_t mip_levels = 1;
  std::size_t size_bytes = 0;  // buffers: the byte size; images: computed when 0
  bool explicit_vertex_buffer = false;  // D3dDrawPrimitives2 page: implicit vs explicit VB
  // Source colour key (DDCKEY_SRCBLT) in the surface's own format: texels whose raw bits
  // equal it exactly are keyed out when D3DRENDERSTATE_COLORKEYENABLE is on.
  bool has_color_key = false;
  DWORD color_key = 0;
};

// Mirrors the rasterizer's instruction-set choice (dp2raster Isa). kAvx512 runs the AVX2
// kernels built with AVX-512 F, VL, BW and DQ (the same 8 lanes, twice the registers).
enum class SimdTarget : std::uint8_t { kAuto, kScalar, kSse41, kAvx2, kNeon, kAvx512 };
// The tools' names for them: "auto", "scalar", "sse41", "avx2", "avx512", "neon". Returns
// false, leaving `out` alone, for any other name.
bool simd_target_from_name(std::string_view name, SimdTarget& out) noexcept;
// Those names, in that order, joined by ", " (for help and error texts).
std::string simd_target_names();

struct DeviceDesc {
  // A transform-and-lighting device accepts untransformed vertices (D3DFVF_XYZ, normals).
  // Fixed at creation; the non-TnL device keeps the D3dDrawPrimitives2 FVF rule.
  bool transform_and_lighting = false;
  // Video memory: one segment the device owns of this size, or — when `video_memory` is
  // given — the embedder's block (an emulator's VRAM array; it must outlive the device).
  // Surfaces that do not fit stay in system memory until room frees up.
  std::uint64_t video_memory_size = std::uint64_t{256} << 20;
  std::span<std::byte> video_memory;
  // Bytes surfaces may hold outside video memory (buffers, and surfaces that do not fit);
  // 0 sets no limit. Creating past it fails with E_OUTOFMEMORY, as does a rename.
  std::uint64_t system_memory_budget = 0;
  // Threads the rasterizer uses per buffer (0 = one per core). Images do not depend on it.
  unsigned render_threads = 0;
  // The instruction set of the rasterizer's SIMD kernels: kAuto picks the best the CPU
  // runs; a forced one the CPU lacks falls back to the best it has. Images do not depend
  // on it (tests force each and compare).
  SimdTarget simd = SimdTarget::kAuto;
  // The host's thread pool (an emulator's own workers). When set, the rasterizer's tiles
  // run through it instead of dp2's own executor (a TBB arena, or dp2's thread pool in a
  // DP2_WITH_TBB=OFF build): parallel_for(user, count, task, task_context)
  // must call task(task_context, i) for every i in [0, count) and return when all have.
  void* executor_user = nullptr;
  void (*executor_parallel_for)(void* user, std::size_t count, void (*task)(void*, std::size_t),
                                void* task_context) = nullptr;
};

// The command buffer and lists a context submits next through Render (the outputs of
// D3DDDICB_RENDER: pNewCommandBuffer, pNewAllocationList, pNewPatchLocationList).
struct CommandBuffers {
  void* command_buffer = nullptr;
  UINT command_buffer_size = 0;
  D3DDDI_ALLOCATIONLIST* allocation_list = nullptr;
  UINT allocation_list_size = 0;
  D3DDDI_PATCHLOCATIONLIST* patch_location_list = nullptr;
  UINT patch_location_list_size = 0;
};

// A frame the embedder displays: the front buffer of a flip chain after a flip completed.
// Valid until the next flip of the chain completes.
struct FrontBuffer {
  DWORD chain = 0;
  DWORD surface = 0;  // the chain's front surface handle
  const std::byte* data = nullptr;
  std::uint32_t width = 0, height = 0, pitch = 0;
  D3DFORMAT format = D3DFMT_UNKNOWN;
  RECT dirty{0, 0, 0, 0};  // the region that changed (the whole surface after a flip)
  std::uint64_t frame = 0;  // counts flips of the chain
};
using FrameCallback = std::function<void(const FrontBuffer& frame)>;

struct ContextDesc {
  // The runtime interface version, as D3DHAL_CONTEXTCREATEDATA.dwhContext holds it on
  // input: 0 = DX3, 1 = DX5, 2 = DX6, 3 = DX7, 4 = DX8, 5 = DX9. It decides which FVF bits
  // are reserved and how some enums read (STATES.md §3, §10).
  std::uint32_t interface_version = 3;
  DWORD render_target = 0;  // surface handles, 0 = none
  DWORD depth_stencil = 0;
  // A context of a free-threaded user-mode DDI: its RenderCBSequence starts at 0x80000001.
  bool free_threaded = false;
};

// The runtime's D3dParseUnknownCommand, in a bounds-checked form: it receives the stream
// from the unknown command to the end of dwCommandLength and returns, in `consumed`, how
// many bytes it handled (the resume point). S_OK/D3D_OK with 0 < consumed <= size resumes
// there; anything else fails the call with D3DERR_COMMAND_UNPARSED.
using UnknownCommandCallback =
    std::function<HRESULT(std::span<const std::byte> command, std::size_t& consumed)>;

// Counters the caller can read to see what the driver did with what it was sent.
// Kernel keys in Diagnostics::kernel_triangles: eight SIMD block-kernel variants (bit 0
// depth test, bit 1 texture stage, bit 2 blending), then the scalar pipeline for every
// other state.
inline constexpr std::size_t kKernelKeyCount = 9;
const char* kernel_key_name(std::size_t key) noexcept;

struct Diagnostics {
  std::uint64_t commands[256] = {};               // commands executed, by opcode
  std::uint64_t commands_not_rendered[256] = {};  // kept as state / recorded, no effect on pixels yet
  std::uint64_t unknown_render_states = 0;        // render state numbers ≥ D3DHAL_MAX_RSTATES
  std::uint64_t bad_texture_stages = 0;           // TEXTURESTAGESTATE stage or state out of range
  std::uint64_t bad_handles = 0;                  // a payload named a surface the table does not have
  std::uint64_t unknown_commands_resumed = 0;     // unknown opcodes the callback consumed
  std::uint64_t draws_recorded = 0;
  std::uint64_t zero_count_primitives = 0;
  std::uint64_t draws_skipped = 0;       // a draw the back end could not render (no target, a
                                         // vertex format it cannot fetch yet, a state the
                                         // rasterizer refused)
  std::uint64_t missing_textures = 0;    // a stage named a handle that is not a texture
  std::uint64_t state_values_out_of_range = 0;  // an enum state outside its values: default used
  std::uint64_t buffers_executed = 0;    // command buffers the GPU worker ran
  std::uint64_t render_calls = 0;        // Render submissions accepted (DrawPrimitives2's included)
  std::uint32_t last_render_cb_sequence = 0;
  std::uint32_t last_marker_log_type = 0;
  std::uint64_t primitives_rejected = 0; // NaN / infinite / beyond the guard band
  // Triangles set up per pixel-pipeline kernel key (kernel_key_name), and the instruction
  // set the SIMD kernels run on, by the tools' name (simd_target_from_name reads it back).
  std::uint64_t kernel_triangles[kKernelKeyCount] = {};
  const char* simd = "";
  // One line per feature the stream used that the back end does not honour yet.
  std::vector<std::string> not_rendered() const;
};

namespace detail {
class DeviceImpl;
class Context;
}  // namespace detail

class Device {
 public:
  explicit Device(const DeviceDesc& desc = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // --- surfaces (plain memory until the memory issue brings locks) -------------------
  // D3D_OK, E_INVALIDARG (handle 0 or in use, or a bad size/format), E_OUTOFMEMORY.
  HRESULT create_surface(DWORD handle, const SurfaceDesc& desc);
  HRESULT destroy_surface(DWORD handle);
  // The surface's bytes (level 0 first, then the mip chain), empty for an unknown handle.
  // Waits for queued work that uses the surface first (a plain upload / read-back; Lock is
  // the DDI way). Queued draws read a vertex buffer when they run: do not write through
  // bytes kept across calls that draw from it (lock it).
  std::span<std::byte> surface_bytes(DWORD handle);
  // The surface as an image for the PNG dump (png.h). A P8 surface takes the palette bound
  // to it in `context` (SETPALETTE), if any. Empty (null data) for an unknown handle.
  PngImage surface_image(DWORD handle, ULONG_PTR context = 0) const;
  // encode the surface and write it; false (and `error`) on failure.
  bool write_png(DWORD handle, const std::string& path, bool keep_alpha = false, ULONG_PTR context = 0,
                 std::string* error = nullptr) const;
  // Marks a surface as in a flip by hand (a flip chain does it itself): while set,
  // DrawPrimitives2 on a context drawing to it answers DDERR_WASSTILLDRAWING.
  HRESULT set_flip_in_progress(DWORD handle, bool in_progress);

  // --- locks (pfnLock / pfnUnlock / pfnLockAsync / pfnUnlockAsync / pfnRename pages) ----
  // hResource carries a surface handle; SubResourceIndex must be 0 (the whole surface).
  // Lock waits for queued work that uses the surface (ReadOnly: work that writes it);
  // DoNotWait answers D3DDDIERR_WASSTILLDRAWING while busy; Discard renames.
  HRESULT Lock(D3DDDIARG_LOCK& args);
  HRESULT Unlock(const D3DDDIARG_UNLOCK& args);
  // Never waits: Discard hands out a fresh instance (hCookie) that queued work does not
  // use — dp2 keeps drawing from the old one until Rename; NoOverwrite maps the current
  // instance (the caller does not touch bytes in use). May run on one thread while
  // DrawPrimitives2 runs on another. E_NOTIMPL without Discard or NoOverwrite;
  // E_OUTOFMEMORY when a Discard finds no memory for a fresh instance (nothing changes).
  HRESULT LockAsync(D3DDDIARG_LOCKASYNC& args);
  HRESULT UnlockAsync(const D3DDDIARG_UNLOCKASYNC& args);
  HRESULT Rename(const D3DDDIARG_RENAME& args);

  // --- submission (pfnRenderCb page) and fences ---------------------------------------
  // The buffers a context fills for its first Render (later ones come back from Render).
  HRESULT command_buffers(ULONG_PTR context, CommandBuffers& out);
  // Submits [CommandOffset, CommandLength) of the context's current command buffer (GPU
  // command format, dp2/gpu_commands.h) with its allocation and patch location lists to
  // hContext (NULL: the first context) and the BroadcastContext ones, and hands out new
  // buffers of the sizes asked for. E_INVALIDARG for bad members; the D3DDDIERR_INVALID*
  // codes for a command buffer or list that fails validation.
  HRESULT Render(D3DDDICB_RENDER& args);
  std::uint64_t last_fence() const;       // the newest submission's fence
  std::uint64_t completed_fence() const;  // every submission up to it has run
  void wait_fence(std::uint64_t fence);
  void wait_idle();
  // Residency control: evict moves a surface's instance out of video memory (queued work
  // re-patches before it runs). E_INVALIDARG for an unknown or locked surface.
  HRESULT evict(DWORD surface);
  // Holds the GPU worker before its next buffer, or releases it (for an embedder's pause,
  // and tests that move memory between submission and execution).
  void hold_gpu(bool held);

  // --- flips ---------------------------------------------------------------------------
  // A flip chain of surfaces, [0] the front buffer. A Flip is queued behind the work
  // submitted before it; when the GPU reaches it the back buffer becomes the front one,
  // and the chain stays "in a flip" (DrawPrimitives2 on it: DDERR_WASSTILLDRAWING) until the
  // embedder has taken the frame — through the frame callback (taken when it returns), or
  // through poll_frame.
  HRESULT create_flip_chain(std::span<const DWORD> surfaces, DWORD& chain);
  HRESULT Flip(DWORD chain);
  void set_frame_callback(FrameCallback callback);
  // The newest completed frame not yet taken; taking it ends the flip. False when none.
  bool poll_frame(DWORD chain, FrontBuffer& out);

  // --- contexts ----------------------------------------------------------------------
  // D3D_OK and the new handle, or D3DHAL_OUTOFCONTEXTS.
  HRESULT create_context(const ContextDesc& desc, ULONG_PTR& out_handle);
  HRESULT destroy_context(ULONG_PTR handle);

  // --- D3dDrawPrimitives2 ------------------------------------------------------------
  // lpDDCommands / lpDDVertex hold surface handles (ddi.h explains the portable fields).
  // Returns DDHAL_DRIVER_HANDLED; the outcome is in data.ddrval and data.dwErrorOffset.
  DWORD DrawPrimitives2(D3DHAL_DRAWPRIMITIVES2DATA& data);
  void set_unknown_command_callback(UnknownCommandCallback callback);

  // Rendering threads for the tile-parallel back end: 0 = one per core, 1 = all work on the
  // calling thread. The image does not depend on it.
  void set_render_threads(unsigned threads);

  // Attaches an observer (nullptr detaches). It must outlive its attachment.
  void set_observer(DeviceObserver* observer);

  const DeviceDesc& desc() const noexcept;
  // A snapshot of the counters (the front end's and the GPU worker's).
  Diagnostics diagnostics() const;

  // For tests and tools that look at recorded state and draws (src/device/context.h).
  const detail::Context* inspect_context(ULONG_PTR handle) const noexcept;

  // --- save states (docs/save-state.md) ---------------------------------------------------
  // Waits for queued work, then writes the device's whole state — surfaces and their bytes,
  // flip chains, contexts (state, state sets, Render buffers and RenderCBSequence), the
  // handle counters — into `out`, a versioned blob. E_INVALIDARG (and `error`) while a
  // surface is locked or has a LockAsync(Discard) instance not yet renamed.
  HRESULT save_state(std::vector<std::byte>& out, std::string* error = nullptr) const;
  // Rebuilds a saved state in a fresh device made with the same DeviceDesc (handles come
  // back as they were); rendering then continues with the same bytes. E_INVALIDARG (and
  // `error`: "offset N: reason") when the device already has surfaces, contexts or flip
  // chains, or the blob is cut short, corrupt or of another major version; the device is
  // left as it was. Callers take their pointers (command_buffers, Lock) anew afterwards.
  HRESULT restore_state(std::span<const std::byte> blob, std::string* error = nullptr);

 private:
  std::unique_ptr<detail::DeviceImpl> impl_;
};

}  // namespace dp2
