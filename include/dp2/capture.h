// dp2 capture and replay: record everything a Device receives into a .dp2c file, read it
// back, and replay it into a fresh Device (docs/capture-format.md describes the file).
//
//   auto rec = dp2::start_capture(device, "session.dp2c", &error);  // attaches
//   ... use the device ...
//   rec->stop(&error);                                               // detaches, closes
//
//   dp2::ReplayOptions options;
//   options.on_frame = [](const dp2::ReplayFrame& f) {
//     f.device.write_png(f.render_target, "frame.png");
//     return true;
//   };
//   dp2::ReplayResult result;
//   if (!dp2::replay_capture_file("session.dp2c", options, result)) puts(result.error.c_str());
//
// Threads: a recorder is called by its device (on the calling thread, under the device's
// lock); start/stop from any thread. Reading and replaying use no shared state: two
// replays may run side by side.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "dp2/ddi.h"
#include "dp2/device.h"
#include "dp2/observer.h"
#include "dp2/wddm.h"

namespace dp2 {

// ---- recording ----------------------------------------------------------------------

// Attach it before the device creates its first surface or context: surfaces created
// before the attachment are unknown to the capture and their contents are not recorded.
class CaptureRecorder final : public DeviceObserver {
 public:
  // Opens `path`, writes the file header and the device chunk, and attaches to `device`
  // (Device::set_observer). Null (and `error`) when the file cannot be written.
  static std::unique_ptr<CaptureRecorder> start(Device& device, const std::string& path,
                                                std::string* error = nullptr);
  ~CaptureRecorder() override;  // stop()
  CaptureRecorder(const CaptureRecorder&) = delete;
  CaptureRecorder& operator=(const CaptureRecorder&) = delete;

  // Detaches from the device, writes the END chunk and closes the file. False (and
  // `error`) when a write failed at any point. Calling it again does nothing.
  bool stop(std::string* error = nullptr);
  [[nodiscard]] bool ok() const noexcept;  // no write failed so far
  [[nodiscard]] std::uint64_t bytes_written() const noexcept;

  // DeviceObserver
  void surface_created(DWORD handle, const SurfaceDesc& desc) override;
  void surface_destroyed(DWORD handle) override;
  void context_created(ULONG_PTR handle, const ContextDesc& desc) override;
  void context_destroyed(ULONG_PTR handle) override;
  void surface_contents(DWORD handle, std::span<const std::byte> bytes) override;
  void draw_primitives2(const D3DHAL_DRAWPRIMITIVES2DATA& in, std::span<const std::byte> commands,
                        std::span<const std::byte> user_vertices) override;
  void render(const D3DDDICB_RENDER& in, std::span<const std::byte> command_buffer,
              std::span<const D3DDDI_ALLOCATIONLIST> allocations,
              std::span<const D3DDDI_PATCHLOCATIONLIST> patches) override;
  void unlocked(DWORD handle, std::span<const std::byte> bytes) override;
  void renamed(DWORD handle) override;
  void flip_chain_created(DWORD chain, std::span<const DWORD> surfaces) override;
  void flipped(DWORD chain) override;

  struct Impl;

 private:
  explicit CaptureRecorder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The one-call form of CaptureRecorder::start.
std::unique_ptr<CaptureRecorder> start_capture(Device& device, const std::string& path, std::string* error = nullptr);

// ---- reading ------------------------------------------------------------------------

// Chunk ids: four ASCII characters, the first in the lowest byte (a little-endian u32).
constexpr std::uint32_t capture_fourcc(char a, char b, char c, char d) noexcept {
  return std::uint32_t(std::uint8_t(a)) | std::uint32_t(std::uint8_t(b)) << 8 | std::uint32_t(std::uint8_t(c)) << 16 |
         std::uint32_t(std::uint8_t(d)) << 24;
}

struct CapDevice {
  bool transform_and_lighting = false;
  std::uint32_t render_threads = 0;
  std::uint64_t video_memory_size = 0;
  std::uint32_t pointer_size = 0;  // sizeof(void*) of the recording host (informational)
};
struct CapSurface {
  DWORD handle = 0;
  SurfaceDesc desc;
};
struct CapSurfaceDestroy {
  DWORD handle = 0;
};
struct CapContext {
  std::uint64_t handle = 0;
  ContextDesc desc;
};
struct CapContextDestroy {
  std::uint64_t handle = 0;
};
struct CapRange {
  std::uint64_t offset = 0;
  std::span<const std::byte> bytes;
};
struct CapContents {
  DWORD handle = 0;
  std::uint64_t surface_size = 0;
  std::vector<CapRange> ranges;
};
struct CapDrawPrimitives2 {
  std::uint64_t context = 0;
  DWORD flags = 0, vertex_type = 0;
  std::uint64_t commands_surface = 0;
  DWORD command_offset = 0, command_length = 0;
  std::uint64_t vertex_surface = 0;  // 0 with D3DHALDP2_USERMEMVERTICES
  DWORD vertex_offset = 0, vertex_length = 0;
  DWORD req_vertex_buf_size = 0, req_command_buf_size = 0;
  DWORD vertex_size = 0;  // dwVertexSize (the stride as given)
  bool had_render_states = false;  // lpdwRStates was not null
  bool null_user_vertices = false; // USERMEMVERTICES with lpVertices null
  std::span<const std::byte> commands;       // the command bytes the call read
  std::span<const std::byte> user_vertices;  // USERMEMVERTICES: bytes from lpVertices
};
struct CapRender {
  std::uint64_t context = 0;
  UINT command_offset = 0, command_length = 0;
  UINT flags = 0;  // D3DDDICB_RENDERFLAGS.Value
  UINT render_cb_sequence = 0;
  UINT marker_log_type = 0;
  UINT new_command_buffer_size = 0, new_allocation_list_size = 0, new_patch_list_size = 0;
  std::vector<std::uint64_t> broadcast;
  std::span<const std::byte> commands;  // [0, CommandLength) of the command buffer
  std::vector<D3DDDI_ALLOCATIONLIST> allocations;
  std::vector<D3DDDI_PATCHLOCATIONLIST> patches;
};
struct CapUnlock {
  DWORD handle = 0;
  std::uint64_t size = 0;
};
struct CapRename {
  DWORD handle = 0;
};
struct CapFlipChain {
  DWORD chain = 0;
  std::vector<DWORD> surfaces;
};
struct CapFlip {
  DWORD chain = 0;
};
struct CapEnd {};
struct CapUnknown {};  // a chunk this reader does not know (skipped)

using CaptureEvent = std::variant<CapUnknown, CapDevice, CapSurface, CapSurfaceDestroy, CapContext,
                                  CapContextDestroy, CapContents, CapDrawPrimitives2, CapRender, CapUnlock,
                                  CapRename, CapFlipChain, CapFlip, CapEnd>;

struct CaptureRecord {
  std::size_t offset = 0;  // file offset of the chunk header
  std::uint32_t id = 0;    // the FourCC
  std::uint32_t flags = 0;
  std::uint64_t size = 0;  // payload bytes
  std::uint64_t frame = 0; // the replay frame this chunk belongs to (docs: "Frames")
  CaptureEvent event;
};

struct CaptureFile {
  std::uint16_t version_major = 0, version_minor = 0;
  std::vector<CaptureRecord> records;  // every chunk, in file order (END included)
  bool has_flips = false;              // frames end at flips; otherwise at each call
  std::uint64_t frames = 0;
  std::uint64_t calls = 0;             // DrawPrimitives2 and Render chunks
};

struct CaptureReadOptions {
  // A capture must end with an END chunk; a file cut short (an emulator that crashed)
  // is accepted up to its last whole chunk only when this is set.
  bool allow_missing_end = false;
};

// Parses and validates every chunk (framing, known payloads, order rules). The records
// point into `bytes`, which must outlive `out`. False and "offset N: <what>" in `error`.
bool read_capture(std::span<const std::byte> bytes, CaptureFile& out, std::string* error,
                  const CaptureReadOptions& options = {});
// Reads a whole file into `bytes`.
bool load_capture_bytes(const std::string& path, std::vector<std::byte>& bytes, std::string* error);
// "SURF", "DP2C", ... (non-printable bytes as '?').
std::string capture_chunk_name(std::uint32_t id);

// ---- replay -------------------------------------------------------------------------

// One replay frame (the calls up to and including a Flip, or — in a capture without
// flips — one DrawPrimitives2 / Render call), or one draw call.
struct ReplayFrame {
  Device& device;
  std::uint64_t index = 0;    // frame number, or draw number for on_draw
  DWORD render_target = 0;    // the flip chain's front buffer after a flip; else the
                              // context's render target after the call
  ULONG_PTR context = 0;      // the replay device's context (palettes for P8 dumps), 0 if none
  std::size_t offset = 0;     // file offset of the chunk that ended it
  double seconds = 0;         // wall time since the previous frame (draw) ended, GPU work included
};
// Return false to stop the replay (it then succeeds with what ran).
using ReplayCallback = std::function<bool(const ReplayFrame&)>;

struct ReplayOptions {
  unsigned render_threads = 0;  // 0 = one per core; the image does not depend on it
  // The SIMD kernels' instruction set, by simd_target_from_name()'s names (device.h); one
  // the build or CPU lacks falls back to the best it has (the image does not depend on
  // it). Anything else is an error.
  std::string isa = "auto";
  std::uint64_t video_memory_size = 0;  // 0 = the capture's
  // Limits for untrusted captures (the fuzzer): 0 = none beyond the device's own.
  std::uint64_t max_surface_bytes = 0;
  std::uint32_t max_surface_dimension = 0;
  std::uint64_t max_user_vertex_bytes = std::uint64_t{256} << 20;
  std::uint64_t max_calls = 0;
  CaptureReadOptions read;
  ReplayCallback on_frame;  // at the end of every frame
  ReplayCallback on_draw;   // after every DrawPrimitives2 / Render call
};

struct ReplayResult {
  bool ok = false;
  std::string error;            // "offset N: <what>"
  std::uint64_t frames = 0;     // frames completed
  std::uint64_t draws = 0;      // DrawPrimitives2 / Render calls made
  std::uint64_t failed_calls = 0;  // calls the device answered with an error (as it may have
                                   // answered the original)
  std::uint64_t unknown_chunks = 0;
  std::vector<double> frame_seconds;
  bool stopped = false;         // a callback returned false
};

bool replay_capture(const CaptureFile& capture, const ReplayOptions& options, ReplayResult& result);
bool replay_capture(std::span<const std::byte> bytes, const ReplayOptions& options, ReplayResult& result);
bool replay_capture_file(const std::string& path, const ReplayOptions& options, ReplayResult& result);

}  // namespace dp2
