// dp2's "GPU": submission queue, patching, the worker thread that executes buffers, and
// fences. Submissions run in submission order (one queue for all contexts keeps each
// context's order); each gets a fence id that completes when its buffer has run.
//
// Threads: submit / wait / queued / cancel from any thread; the worker thread executes.
// Destroying the Gpu drains the queue first.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "dp2/wddm.h"
#include "gpu/backend.h"
#include "gpu/spare_buffers.h"
#include "memory/video_memory.h"

namespace dp2::gpu {

// One queued buffer. Its three vectors are storage, given back to the Gpu's SpareBuffers
// once the buffer has run: the submitted commands are bytes [command_begin, command_end)
// of `commands`, the lists their first allocation_count / patch_count entries. Patch
// offsets count from the start of `commands` (the start of the caller's buffer for
// Render: "the offset ... from the beginning of the command buffer").
struct Submission {
  std::uint64_t context = 0;
  std::vector<std::byte> commands;
  std::size_t command_begin = 0, command_end = 0;
  std::vector<D3DDDI_ALLOCATIONLIST> allocations;
  std::size_t allocation_count = 0;
  std::vector<D3DDDI_PATCHLOCATIONLIST> patches;
  std::size_t patch_count = 0;
  bool null_rendering = false;  // D3DDDICB_RENDERFLAGS::NullRendering: signal, do not execute
  memory::FenceId fence = 0;
  // Run by the worker after the buffer, before the fence completes (a flip's page turn).
  std::function<void()> on_complete;

  std::span<std::byte> submitted() noexcept {
    return std::span(commands).subspan(command_begin, command_end - command_begin);
  }
  std::span<const D3DDDI_ALLOCATIONLIST> allocation_list() const noexcept {
    return std::span(allocations).first(allocation_count);
  }
  std::span<const D3DDDI_PATCHLOCATIONLIST> patch_list() const noexcept { return std::span(patches).first(patch_count); }
};

// Writes each patch location's allocation address (+ AllocationOffset) into the buffer and
// the fence id into its FENCE commands. `addresses[i]` is allocation i's current address
// (0 when it is not resident: the surface then reads as missing). Cannot fail: the buffer
// and lists were validated at submission. Patching again after allocations moved gives the
// same buffer with the new addresses.
void patch(Submission& submission, const std::vector<memory::GpuAddress>& addresses);

class Gpu final : public memory::FenceSource {
 public:
  Gpu(memory::VideoMemory& memory, unsigned render_threads, raster::HostExecutor host = {},
      raster::Isa isa = raster::Isa::kAuto);
  ~Gpu() override;
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  // Queues a validated submission; returns its fence. Its allocations are marked used
  // (written when WriteOperation) at that fence.
  memory::FenceId submit(Submission submission);

  memory::FenceId completed() const override;
  memory::FenceId last_submitted() const;
  void wait(memory::FenceId fence) override;
  void wait_idle();
  std::size_t queued(std::uint64_t context) const;
  // Drops the context's work that has not started; its fences still complete.
  void cancel(std::uint64_t context);
  // Holds the worker before the next buffer (tests, and an embedder's pause); resume with false.
  void hold(bool held);
  void set_render_threads(unsigned threads);  // waits for idle first
  const BackendCounters& counters() const noexcept { return counters_; }
  // Where submitters take their buffers and the worker gives executed ones back.
  SpareBuffers& spares() noexcept { return spares_; }

 private:
  void run();
  void execute(Submission& s);

  memory::VideoMemory& memory_;
  Backend backend_;  // worker thread only (and set_render_threads while idle)
  // execute()'s per-buffer lists, kept so that a buffer does not allocate them (worker only).
  std::vector<memory::GpuAddress> addresses_;
  std::vector<std::uint32_t> pinned_;
  BackendCounters counters_;
  SpareBuffers spares_;
  mutable std::mutex mutex_;
  std::condition_variable work_, done_;
  std::deque<Submission> queue_;
  memory::FenceId next_fence_ = 1;
  std::atomic<memory::FenceId> completed_{0};
  bool held_ = false, stopping_ = false, busy_ = false;
  std::thread worker_;
};

}  // namespace dp2::gpu
