// Video memory: segments (memory the device owns, or a block the embedder hands in — an
// emulator's VRAM array), allocations placed in them, residency and eviction, and the
// CPU-side lock rules of one allocation. Resources, renaming and the DDI entry points
// (Lock, LockAsync, Rename) live in src/device and build on this.
//
// Addresses: an allocation's "GPU address" is (segment id << kSegmentShift) | offset,
// what patching writes into command buffers. Segment ids start at 1; address 0 = none.
// System-memory (cpu_only) allocations get an address too, in the aperture (id
// kApertureId): the GPU reads them where they are, as a card reads system memory through
// its aperture segment (GART), so a vertex buffer is not copied per draw.
//
// Threads: every public function may be called from any thread (the device's callers,
// LockAsync's thread, the GPU worker); one mutex guards the tables. Waiting for a fence
// happens outside that mutex.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace dp2::memory {

using AllocationHandle = std::uint32_t;  // never 0
using FenceId = std::uint64_t;           // 0 = no work
using GpuAddress = std::uint64_t;

inline constexpr unsigned kSegmentShift = 48;
inline constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << kSegmentShift) - 1;
inline constexpr std::size_t kAllocationAlignment = 256;  // every placement starts on 256 bytes
// The aperture's id, above every segment's: the highest the address has room for.
inline constexpr std::uint64_t kApertureId = (std::uint64_t{1} << (64 - kSegmentShift)) - 1;

struct SegmentDesc {
  std::uint64_t size = 0;            // bytes; ignored when `external` is given
  std::span<std::byte> external;     // the embedder's block (kept, never freed); empty = owned
};

struct AllocationDesc {
  std::uint32_t format = 0;  // opaque to this room (a D3DFORMAT value)
  std::uint32_t width = 0, height = 0, depth = 1;
  std::uint32_t pitch = 0;        // bytes per row (per block row)
  std::uint32_t slice_pitch = 0;  // bytes per slice / mip chain
  std::uint64_t size = 0;         // bytes; > 0
  bool cpu_only = false;          // never placed in a segment (system-memory surfaces)
};

// Completed-fence source: the GPU side (src/gpu) implements it.
class FenceSource {
 public:
  virtual ~FenceSource() = default;
  // Both are called without VideoMemory's mutex held (so they may lock their own), from any
  // thread. completed() must never decrease.
  virtual FenceId completed() const = 0;
  virtual void wait(FenceId fence) = 0;  // blocks until `completed() >= fence`
};

enum class LockStatus : std::uint8_t {
  kOk,
  kStillDrawing,   // DoNotWait and the allocation is busy
  kInvalid,        // unknown handle, or flags that may not be combined
  kAlreadyLocked,  // locked and not unlocked yet
};

struct LockFlags {
  bool read_only = false;     // wait only for the GPU's writes
  bool do_not_wait = false;   // busy → kStillDrawing instead of waiting
  bool no_overwrite = false;  // do not wait at all: the caller promises not to touch bytes in use
};

struct Mapping {
  std::byte* data = nullptr;
  std::uint32_t pitch = 0, slice_pitch = 0;
  std::uint64_t size = 0;
};

struct AllocationInfo {
  AllocationDesc desc;
  bool resident = false;
  GpuAddress address = 0;  // valid when resident
  FenceId last_read = 0, last_write = 0;
  bool locked = false;
};

// evictions / restores: totals since construction (explicit evict(), eviction to make room,
// make_resident() and lock() bringing an allocation back). allocations: live now, counting
// destroyed ones still waiting for their fence. bytes_in_segments: bytes reserved in
// segments now (each placement's size rounded up to kAllocationAlignment).
struct MemoryStats {
  std::uint64_t evictions = 0, restores = 0, allocations = 0, bytes_in_segments = 0;
};

class VideoMemory {
 public:
  // Segment i gets id i + 1. Owned segments are zero-filled; a tail under
  // kAllocationAlignment is never used. Throws std::invalid_argument for more than 65534
  // segments (the last id is the aperture's) or one larger than kOffsetMask + 1 bytes (std::bad_alloc if owned memory fails).
  VideoMemory(std::vector<SegmentDesc> segments, FenceSource& fences);
  ~VideoMemory();
  VideoMemory(const VideoMemory&) = delete;
  VideoMemory& operator=(const VideoMemory&) = delete;

  // A new zero-filled allocation, placed in a segment when one has room (evicting idle,
  // unlocked allocations if needed) or kept in system memory otherwise. 0 when even
  // system memory cannot hold it, or size is 0 or above 1 GiB. Handles count up from 1 and
  // are never reused.
  AllocationHandle create(const AllocationDesc& desc);
  // A new allocation with `like`'s description (a rename's fresh backing store); 0 when
  // there is no memory for it — nothing else changes.
  AllocationHandle create_like(AllocationHandle like);
  // Frees it once the GPU no longer uses it (now when idle, else after its last fence).
  // Busy, pinned or locked → "destroy pending": for the caller the handle is gone (lock,
  // create_like and destroy refuse it) but queued work may still pin / make_resident /
  // resolve / unpin it, and unlock still works. It is freed by the first create,
  // make_resident, stats, unpin or unlock that finds it idle, unpinned and unlocked.
  // False for an unknown (or already destroyed) handle.
  bool destroy(AllocationHandle handle);

  std::optional<AllocationInfo> info(AllocationHandle handle) const;

  // Residency. make_resident places the allocation in a segment (copying its contents in)
  // and returns its address; nullopt when no segment can take it even after evicting
  // every idle, unlocked, unpinned allocation (only the ones in the way are evicted, least
  // recently used first), or when it is locked while not resident (a lock's pointer must
  // stay valid). A cpu_only allocation is mapped into the aperture instead (once; its
  // bytes stay where they are) and gets that address. evict copies it out to system memory: false when locked or
  // pinned (or the copy cannot be allocated); true when already in system memory. A busy
  // allocation may be evicted: queued work makes it resident again before it runs.
  std::optional<GpuAddress> make_resident(AllocationHandle handle);
  bool evict(AllocationHandle handle);

  // While pinned (the GPU worker executing a buffer that uses it), an allocation is not
  // moved or freed. pin/unpin nest.
  bool pin(AllocationHandle handle);
  void unpin(AllocationHandle handle);

  // Bytes at a GPU address, or an empty span when [address, address + size) is not inside
  // one pinned allocation (resident, or mapped into the aperture). For the worker, between
  // pin and unpin: only the running buffer's allocations are pinned, so an address a
  // buffer made up, or patched past its allocation into another, reaches no memory that
  // could be freed or moved meanwhile.
  std::span<std::byte> resolve(GpuAddress address, std::uint64_t size);
  // The bytes of an allocation wherever it lives (segment or system memory).
  std::span<std::byte> bytes(AllocationHandle handle);

  // Work that reads / writes the allocation completes at `fence`.
  void mark_used(AllocationHandle handle, FenceId fence, bool write);

  // CPU access. A plain lock waits for every GPU use; read_only waits for writes only;
  // do_not_wait answers kStillDrawing while busy; no_overwrite never waits. Work marked
  // while the lock waits is waited for too. A non-resident allocation is brought into a
  // segment first when one has free room (no eviction), so the GPU can still use it while
  // it is locked; otherwise the mapping points at its system-memory copy.
  LockStatus lock(AllocationHandle handle, const LockFlags& flags, Mapping& out);
  bool unlock(AllocationHandle handle);
  bool busy(AllocationHandle handle) const;

  // Caps the bytes allocations may hold in system memory (evicted or unplaced ones); 0,
  // the default, sets no limit. A create or evict that would pass it fails instead.
  void set_system_budget(std::uint64_t bytes);

  MemoryStats stats() const;
  std::size_t segment_count() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dp2::memory
