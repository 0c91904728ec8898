#include "gpu/gpu.h"

#include <algorithm>
#include <cstring>

#include "dp2/gpu_commands.h"
#include "dp2raster/float_env.h"
#include "gpu/validate.h"

namespace dp2::gpu {

void patch(Submission& s, const std::vector<memory::GpuAddress>& addresses) {
  for (const D3DDDI_PATCHLOCATIONLIST& p : s.patch_list()) {
    const memory::GpuAddress base = addresses[p.AllocationIndex];
    const std::uint64_t address = base == 0 ? 0 : base + p.AllocationOffset;
    std::memcpy(s.commands.data() + p.PatchOffset, &address, sizeof address);
  }
  // "The driver can patch the value that is supplied in the SubmissionFenceId member of
  // DXGKARG_PATCH into the fence command at the end of the DMA buffer" (DxgkDdiPatch page).
  const std::span<std::byte> commands = s.submitted();
  std::size_t at = 0;
  while (at + sizeof(DP2GPU_HEADER) <= commands.size()) {
    DP2GPU_HEADER h;
    std::memcpy(&h, commands.data() + at, sizeof h);
    if (h.op == DP2GPU_OP_FENCE) std::memcpy(commands.data() + at + sizeof h, &s.fence, sizeof s.fence);
    at += h.size;
  }
}

Gpu::Gpu(memory::VideoMemory& memory, unsigned render_threads, raster::HostExecutor host, raster::Isa isa)
    : memory_(memory), backend_(render_threads, host, isa), worker_([this] { run(); }) {}

Gpu::~Gpu() {
  {
    std::unique_lock lock(mutex_);
    held_ = false;
    stopping_ = true;
  }
  work_.notify_all();
  worker_.join();
}

memory::FenceId Gpu::submit(Submission s) {
  std::unique_lock lock(mutex_);
  s.fence = next_fence_++;
  for (const D3DDDI_ALLOCATIONLIST& a : s.allocation_list())
    if (a.hAllocation != 0) memory_.mark_used(a.hAllocation, s.fence, a.WriteOperation != 0);
  const memory::FenceId fence = s.fence;
  queue_.push_back(std::move(s));
  lock.unlock();
  work_.notify_one();
  return fence;
}

memory::FenceId Gpu::completed() const { return completed_.load(std::memory_order_acquire); }

memory::FenceId Gpu::last_submitted() const {
  std::unique_lock lock(mutex_);
  return next_fence_ - 1;
}

void Gpu::wait(memory::FenceId fence) {
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return completed_.load(std::memory_order_acquire) >= fence; });
}

void Gpu::wait_idle() {
  std::unique_lock lock(mutex_);
  const memory::FenceId last = next_fence_ - 1;
  done_.wait(lock, [&] { return completed_.load(std::memory_order_acquire) >= last; });
}

std::size_t Gpu::queued(std::uint64_t context) const {
  std::unique_lock lock(mutex_);
  return static_cast<std::size_t>(
      std::count_if(queue_.begin(), queue_.end(), [&](const Submission& s) { return s.context == context; }));
}

void Gpu::cancel(std::uint64_t context) {
  std::unique_lock lock(mutex_);
  for (Submission& s : queue_)
    if (s.context == context) s.null_rendering = true;  // still signals its fence, in order
}

void Gpu::hold(bool held) {
  {
    std::unique_lock lock(mutex_);
    held_ = held;
  }
  work_.notify_all();
}

void Gpu::set_render_threads(unsigned threads) {
  wait_idle();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return !busy_; });
  backend_.set_threads(threads);
}

void Gpu::execute(Submission& s) {
  // Patch: make every allocation resident (pinned while the buffer runs), then write the
  // addresses and the fence id into the buffer.
  std::vector<memory::GpuAddress>& addresses = addresses_;
  std::vector<std::uint32_t>& pinned = pinned_;
  addresses.assign(s.allocation_count, 0);
  pinned.clear();
  for (std::size_t i = 0; i < s.allocation_count; ++i) {
    const std::uint32_t handle = s.allocations[i].hAllocation;
    if (handle == 0 || !memory_.pin(handle)) continue;
    pinned.push_back(handle);
    if (const auto address = memory_.make_resident(handle)) addresses[i] = *address;
  }
  patch(s, addresses);
  backend_.execute(s.submitted(), memory_, counters_);
  for (std::uint32_t handle : pinned) memory_.unpin(handle);
}

// The worker: takes buffers in order, executes them, completes their fences.
void Gpu::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return (!queue_.empty() && !held_) || (stopping_ && queue_.empty()); });
    if (queue_.empty()) return;  // stopping, drained
    Submission s = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    if (!s.null_rendering && s.command_end > s.command_begin) {
      // In dp2's floating-point environment (float_env.h), set per buffer: the thread
      // inherited the environment of the one that made the device, and the host's
      // callbacks (on_complete, a flip chain's frame callback) run here between buffers
      // and may change it.
      const raster::DefaultFloatEnvironment fp;
      execute(s);
    }
    if (s.on_complete) s.on_complete();
    // The buffers go back to the pool for the next submission (no allocation then).
    spares_.give(std::move(s.commands));
    spares_.give(std::move(s.allocations));
    spares_.give(std::move(s.patches));
    lock.lock();
    busy_ = false;
    completed_.store(s.fence, std::memory_order_release);
    done_.notify_all();
  }
}

}  // namespace dp2::gpu
