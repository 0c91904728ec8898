// The back end's front door: executes one patched command buffer in the GPU command format
// (include/dp2/gpu_commands.h) through the rasterizer — SET_STATE becomes a
// raster::DrawState (surfaces resolved from their patched addresses), DRAW fetches
// vertices (DRAW_BUFFER from a vertex buffer's patched address), CLEAR clears — and
// flushes. It reads nothing of the front end's state: the buffer and the allocations it
// lists carry everything (ARCHITECTURE.md: the back end never parses DP2 bytes).
//
// Thread: the GPU worker (gpu.cpp), one buffer at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <vector>

#include "dp2raster/renderer.h"
#include "gpu/validate.h"
#include "memory/video_memory.h"
#include "state/pipeline_key.h"
#include "vertex/clip.h"

namespace dp2::gpu {

// Counters the worker writes and any thread may read.
struct BackendCounters {
  std::atomic<std::uint64_t> draws_skipped{0};       // no target, a vertex format not fetched yet, or a
                                                     // draw or clear the rasterizer refused
  std::atomic<std::uint64_t> missing_textures{0};    // a stage's surface did not resolve or cannot be sampled
  std::atomic<std::uint64_t> state_values_out_of_range{0};
  std::atomic<std::uint64_t> primitives_rejected{0};
  std::atomic<std::uint64_t> buffers_executed{0};
  std::atomic<std::uint64_t> kernel_triangles[raster::kKernelKeyCount] = {};
};

// Elements the renderer points at until a flush, kept across flushes: rewind() only
// forgets them, so a steady frame reuses the same elements (and the deque's blocks)
// instead of allocating them again. A deque, so taking one never moves the others.
// Thread: the GPU worker.
template <class T>
class ReusedDeque {
 public:
  // A default-valued element, or a copy of `from`.
  T& take(const T& from = T{}) {
    if (used_ == items_.size()) items_.emplace_back();
    T& item = items_[used_++];
    item = from;
    return item;
  }
  void drop_last() noexcept { --used_; }
  void rewind() noexcept { used_ = 0; }
  std::size_t capacity() const noexcept { return items_.size(); }

 private:
  std::deque<T> items_;
  std::size_t used_ = 0;
};

class Backend {
 public:
  explicit Backend(unsigned threads = 0, raster::HostExecutor host = {}, raster::Isa isa = raster::Isa::kAuto);
  void set_threads(unsigned threads);
  // Executes a buffer that validate_submission accepted and patching completed.
  void execute(std::span<const std::byte> commands, memory::VideoMemory& memory, BackendCounters& counters);

 private:
  void set_state(std::span<const std::byte> payload, memory::VideoMemory& memory, BackendCounters& counters);
  void clear(std::span<const std::byte> payload);
  void draw(const DrawCommand& c, memory::VideoMemory& memory, BackendCounters& counters);

  raster::HostExecutor host_;
  raster::Isa isa_;
  std::unique_ptr<raster::Renderer> renderer_;
  state::PipelineKey default_key_;  // SET_STATE with key_size / uniforms_size 0
  state::DrawUniforms default_uniforms_;
  // Alive until the flush at the end of execute(): the renderer keeps pointers to them.
  ReusedDeque<raster::DrawState> states_;
  ReusedDeque<raster::TextureView> textures_;
  ReusedDeque<std::array<std::uint32_t, 256>> palettes_;
  const raster::DrawState* current_ = nullptr;
  std::vector<raster::Vertex> vertices_;  // transform and lighting's output
  std::vector<std::uint32_t> indices_, edges_;
  vertex::TnlWork tnl_;  // SET_TRANSFORM_LIGHTING state and scratch for untransformed draws
};

}  // namespace dp2::gpu
