// Video memory: segments, a first-fit allocator per segment, allocations that live either
// in a segment or as a system-memory copy, LRU eviction of idle allocations, and the lock
// rules of one allocation. See video_memory.h for each function's contract.
//
// Threads: one mutex (Impl::mutex) guards every table. fences.completed() is read *before*
// taking the mutex: completed fences only grow, so a stale value is conservative (something
// looks busy a little longer), and the fence source may take its own locks without any
// lock-order concern. fences.wait() is only ever called with the mutex released.
#include "memory/video_memory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace dp2::memory {

namespace {

// The largest single allocation we accept (a 4096×4096 A32B32G32R32F mip chain with a cube's
// six faces is ~1.6 GiB, beyond any D3D9-era card; 1 GiB keeps size arithmetic far from
// overflow and turns a garbage size into a clean failure rather than a huge vector).
constexpr std::uint64_t kMaxAllocationSize = std::uint64_t{1} << 30;
// Segment ids are the address bits above kSegmentShift; id 0 means "no address" and the
// highest is the aperture's.
constexpr std::size_t kMaxSegments = kApertureId - 1;
// A segment's offsets must fit below kSegmentShift.
constexpr std::uint64_t kMaxSegmentSize = kOffsetMask + 1;
constexpr AllocationHandle kNoHandle = 0;

constexpr std::uint64_t align_up(std::uint64_t v) {
  return (v + (kAllocationAlignment - 1)) & ~std::uint64_t{kAllocationAlignment - 1};
}

struct Segment {
  // calloc: a large owned segment costs nothing until touched (the OS hands out zero
  // pages lazily), so creating a Device with 256 MiB of video memory is cheap.
  struct FreeDeleter {
    void operator()(std::byte* p) const noexcept { std::free(p); }
  };
  std::unique_ptr<std::byte[], FreeDeleter> owned;  // null for an external segment
  std::span<std::byte> memory;          // the whole segment (owned or the embedder's)
  std::uint64_t usable = 0;             // memory.size() rounded down to kAllocationAlignment
  std::map<std::uint64_t, std::uint64_t> free_ranges;  // offset → size, sorted, coalesced
  std::map<std::uint64_t, AllocationHandle> placed;    // offset → allocation, for resolve()
};

// Address space for system-memory allocations the GPU reads in place (video_memory.h):
// ranges handed out first fit and given back when the allocation is freed, as a segment's,
// but with no bytes behind them.
struct Aperture {
  std::map<std::uint64_t, std::uint64_t> free_ranges{{0, kOffsetMask + 1}};
  std::map<std::uint64_t, AllocationHandle> placed;
};

struct Allocation {
  AllocationDesc desc;
  // Resident: segment != 0 and `offset` is its placement (reserved = align_up(desc.size)).
  // Otherwise the contents live in `system`.
  std::uint32_t segment = 0;
  std::uint64_t offset = 0;
  std::vector<std::byte> system;
  // cpu_only and mapped into the aperture (at aperture_offset) by make_resident.
  bool in_aperture = false;
  std::uint64_t aperture_offset = 0;
  FenceId last_read = 0, last_write = 0;
  std::uint64_t last_use = 0;  // LRU tick: bumped by create, mark_used, lock, make_resident
  std::uint32_t pins = 0;
  bool locked = false;
  bool destroy_pending = false;

  bool resident() const { return segment != 0; }
  FenceId last_fence() const { return std::max(last_read, last_write); }
  bool idle(FenceId completed) const { return last_fence() <= completed; }
};

}  // namespace

struct VideoMemory::Impl {
  FenceSource& fences;
  mutable std::mutex mutex;
  std::vector<Segment> segments;  // segments[id - 1]
  Aperture aperture;
  std::unordered_map<AllocationHandle, Allocation> allocations;
  std::vector<AllocationHandle> pending_destroys;
  AllocationHandle next_handle = 1;
  std::uint64_t use_tick = 0;
  MemoryStats counters;  // evictions and restores; the rest is computed in stats()
  std::uint64_t system_budget = 0;  // bytes of system-memory copies allowed; 0 = no limit

  explicit Impl(FenceSource& f) : fences(f) {}

  Allocation* find(AllocationHandle h) {
    auto it = allocations.find(h);
    return it == allocations.end() ? nullptr : &it->second;
  }
  // A handle the caller may still use for lock / destroy / create_like (not destroyed).
  Allocation* find_live(AllocationHandle h) {
    Allocation* a = find(h);
    return a && !a->destroy_pending ? a : nullptr;
  }

  std::span<std::byte> segment_bytes(const Allocation& a) {
    return segments[a.segment - 1].memory.subspan(a.offset, a.desc.size);
  }
  std::span<std::byte> contents(Allocation& a) {
    if (a.resident()) return segment_bytes(a);
    return {a.system.data(), a.system.size()};
  }
  GpuAddress address_of(const Allocation& a) const {
    return (GpuAddress{a.segment} << kSegmentShift) | a.offset;
  }

  // ---- first-fit allocator over one segment's free list ----
  static std::optional<std::uint64_t> find_fit(const std::map<std::uint64_t, std::uint64_t>& free_ranges,
                                               std::uint64_t reserved) {
    for (const auto& [off, len] : free_ranges) {
      const std::uint64_t start = align_up(off);
      if (start - off <= len && len - (start - off) >= reserved) return start;
    }
    return std::nullopt;
  }
  // Removes [start, start + reserved) from the free range holding it. All or nothing: the
  // one step that allocates (a range split in two) comes first, so a bad_alloc leaves the
  // list as it was instead of losing the rest of the range.
  static void take_range(std::map<std::uint64_t, std::uint64_t>& free_ranges, std::uint64_t start,
                         std::uint64_t reserved) {
    auto it = std::prev(free_ranges.upper_bound(start));
    const std::uint64_t off = it->first, end = off + it->second, taken_end = start + reserved;
    if (start > off) {
      if (end > taken_end) free_ranges.emplace_hint(std::next(it), taken_end, end - taken_end);  // may throw
      it->second = start - off;
    } else if (end > taken_end) {
      auto node = free_ranges.extract(it);  // the node is reused: no allocation
      node.key() = taken_end;
      node.mapped() = end - taken_end;
      free_ranges.insert(std::move(node));
    } else {
      free_ranges.erase(it);
    }
  }
  static void give_range(std::map<std::uint64_t, std::uint64_t>& free_ranges, std::uint64_t off,
                         std::uint64_t len) {
    auto next = free_ranges.lower_bound(off);
    if (next != free_ranges.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == off) {  // merge with the range before
        off = prev->first;
        len += prev->second;
        free_ranges.erase(prev);
      }
    }
    if (next != free_ranges.end() && off + len == next->first) {  // merge with the range after
      len += next->second;
      free_ranges.erase(next);
    }
    free_ranges.emplace(off, len);
  }

  // Places `a` at `start` in segment `id` (which must be free) and records it.
  // Either both records change or, on bad_alloc, neither.
  void place(AllocationHandle h, Allocation& a, std::uint32_t id, std::uint64_t start) {
    Segment& s = segments[id - 1];
    s.placed.emplace(start, h);
    try {
      take_range(s.free_ranges, start, align_up(a.desc.size));
    } catch (...) {
      s.placed.erase(start);
      throw;
    }
    a.segment = id;
    a.offset = start;
  }
  void release_placement(Allocation& a) {
    Segment& s = segments[a.segment - 1];
    s.placed.erase(a.offset);
    give_range(s.free_ranges, a.offset, align_up(a.desc.size));
    a.segment = 0;
    a.offset = 0;
  }

  // Bytes held in system-memory copies now, and whether `more` fits the budget.
  std::uint64_t system_bytes() const {
    std::uint64_t total = 0;
    for (const auto& [handle, a] : allocations) total += a.system.size();
    return total;
  }
  bool system_fits(std::uint64_t more) const { return system_budget == 0 || system_bytes() + more <= system_budget; }

  // Resident → system memory. False (nothing changed) when the system copy cannot be had.
  bool evict_now(Allocation& a) {
    if (!system_fits(a.desc.size)) return false;
    try {
      std::span<std::byte> src = segment_bytes(a);
      a.system.assign(src.begin(), src.end());
    } catch (const std::bad_alloc&) {
      return false;
    }
    release_placement(a);
    ++counters.evictions;
    return true;
  }

  // May this allocation be evicted to make room? Never the target, never locked, pinned or
  // busy ones (a busy one's pending work would otherwise be re-patched needlessly).
  static bool evictable(const Allocation& a, AllocationHandle h, AllocationHandle target, FenceId completed) {
    return h != target && a.resident() && !a.locked && a.pins == 0 && a.idle(completed);
  }

  // A segment and offset for `reserved` bytes: first a free range, first fit in segment
  // order. Otherwise evict: every window [start, start + reserved) that begins at a free
  // range or an evictable allocation and overlaps only free space and evictable allocations
  // (idle, unlocked, unpinned, not the target) is a choice; take the one whose most recently
  // used victim is the oldest (LRU), then the one that evicts the fewest bytes, then the
  // lowest segment and offset. So only allocations in the way are evicted, never some that
  // would not make room. nullopt when no window exists (nothing is evicted then).
  std::optional<std::pair<std::uint32_t, std::uint64_t>> make_room(std::uint64_t reserved, AllocationHandle target,
                                                                    FenceId completed, bool allow_evict) {
    for (std::uint32_t id = 1; id <= segments.size(); ++id) {
      if (auto start = find_fit(segments[id - 1].free_ranges, reserved)) return std::pair{id, *start};
    }
    if (!allow_evict) return std::nullopt;

    struct Window {
      std::uint32_t segment = 0;
      std::uint64_t start = 0;
      std::uint64_t newest_use = 0, bytes = 0;
    };
    std::optional<Window> best;
    auto better = [](const Window& a, const Window& b) {
      return a.newest_use != b.newest_use ? a.newest_use < b.newest_use : a.bytes < b.bytes;
    };
    for (std::uint32_t id = 1; id <= segments.size(); ++id) {
      const Segment& s = segments[id - 1];
      if (s.usable < reserved) continue;
      std::vector<std::uint64_t> starts;
      for (const auto& range : s.free_ranges) starts.push_back(range.first);
      for (const auto& [off, h] : s.placed) {
        if (evictable(allocations.at(h), h, target, completed)) starts.push_back(off);
      }
      for (const std::uint64_t start : starts) {
        if (start > s.usable - reserved) continue;
        const std::uint64_t end = start + reserved;
        auto it = s.placed.upper_bound(start);
        if (it != s.placed.begin()) {
          auto prev = std::prev(it);
          if (prev->first + align_up(allocations.at(prev->second).desc.size) > start) it = prev;
        }
        Window w{id, start, 0, 0};
        bool ok = true;
        for (; ok && it != s.placed.end() && it->first < end; ++it) {
          const Allocation& a = allocations.at(it->second);
          ok = evictable(a, it->second, target, completed);
          w.newest_use = std::max(w.newest_use, a.last_use);
          w.bytes += align_up(a.desc.size);
        }
        if (ok && (!best || better(w, *best))) best = w;
      }
    }
    if (!best) return std::nullopt;

    Segment& s = segments[best->segment - 1];
    const std::uint64_t end = best->start + reserved;
    std::vector<AllocationHandle> victims;
    auto it = s.placed.upper_bound(best->start);
    if (it != s.placed.begin()) --it;
    for (; it != s.placed.end() && it->first < end; ++it) {
      if (it->first + align_up(allocations.at(it->second).desc.size) > best->start) victims.push_back(it->second);
    }
    for (const AllocationHandle h : victims) {
      if (!evict_now(allocations.at(h))) return std::nullopt;  // no system memory for a victim
    }
    return std::pair{best->segment, best->start};
  }

  // Non-resident → segment (copying the contents in). False when there is no room.
  bool restore(AllocationHandle h, Allocation& a, FenceId completed, bool allow_evict) {
    auto room = make_room(align_up(a.desc.size), h, completed, allow_evict);
    if (!room) return false;
    place(h, a, room->first, room->second);
    std::span<std::byte> dst = segment_bytes(a);
    std::memcpy(dst.data(), a.system.data(), dst.size());
    std::vector<std::byte>().swap(a.system);
    ++counters.restores;
    return true;
  }

  // A cpu_only allocation's aperture address, mapping it on first use. nullopt when the
  // aperture has no room (2^48 bytes of ranges in use) or a map node cannot be had.
  std::optional<GpuAddress> aperture_address(AllocationHandle h, Allocation& a) {
    if (!a.in_aperture) {
      const std::uint64_t reserved = align_up(a.desc.size);
      const auto start = find_fit(aperture.free_ranges, reserved);
      if (!start) return std::nullopt;
      try {
        aperture.placed.emplace(*start, h);
        take_range(aperture.free_ranges, *start, reserved);
      } catch (const std::bad_alloc&) {
        aperture.placed.erase(*start);
        return std::nullopt;
      }
      a.in_aperture = true;
      a.aperture_offset = *start;
    }
    return (kApertureId << kSegmentShift) | a.aperture_offset;
  }

  void free_now(AllocationHandle h) {
    auto it = allocations.find(h);
    Allocation& a = it->second;
    if (a.resident()) release_placement(a);
    if (a.in_aperture) {
      aperture.placed.erase(a.aperture_offset);
      give_range(aperture.free_ranges, a.aperture_offset, align_up(a.desc.size));
    }
    allocations.erase(it);
  }
  static bool can_free(const Allocation& a, FenceId completed) {
    return a.idle(completed) && a.pins == 0 && !a.locked;
  }
  // Frees every destroy-pending allocation that has become idle, unpinned and unlocked.
  void sweep(FenceId completed) {
    std::erase_if(pending_destroys, [&](AllocationHandle h) {
      if (!can_free(allocations.at(h), completed)) return false;
      free_now(h);
      return true;
    });
  }

  // create / create_like: a zeroed allocation with `desc`, or 0.
  AllocationHandle create_locked(const AllocationDesc& desc, FenceId completed) {
    if (desc.size == 0 || desc.size > kMaxAllocationSize) return kNoHandle;
    if (next_handle == kNoHandle) return kNoHandle;  // 2^32 - 1 handles used: never reuse one
    const AllocationHandle h = next_handle;
    Allocation a;
    a.desc = desc;
    a.last_use = ++use_tick;
    std::optional<std::pair<std::uint32_t, std::uint64_t>> room;
    if (!desc.cpu_only) room = make_room(align_up(desc.size), kNoHandle, completed, true);
    if (!room && !system_fits(desc.size)) return kNoHandle;
    try {
      if (!room) a.system.resize(desc.size);  // value-initialised: zeroes
      allocations.emplace(h, std::move(a));
    } catch (const std::bad_alloc&) {
      return kNoHandle;
    }
    if (room) {
      Allocation& placed = allocations.at(h);
      try {
        place(h, placed, room->first, room->second);
      } catch (const std::bad_alloc&) {  // a map node for the free list or the placement
        allocations.erase(h);
        return kNoHandle;
      }
      std::span<std::byte> dst = segment_bytes(placed);
      std::memset(dst.data(), 0, dst.size());  // the range may hold a freed allocation's bytes
    }
    ++next_handle;
    return h;
  }
};

VideoMemory::VideoMemory(std::vector<SegmentDesc> segments, FenceSource& fences)
    : impl_(std::make_unique<Impl>(fences)) {
  if (segments.size() > kMaxSegments) throw std::invalid_argument("dp2::memory: too many segments");
  impl_->segments.reserve(segments.size());
  for (const SegmentDesc& d : segments) {
    Segment s;
    if (!d.external.empty()) {
      s.memory = d.external;
    } else if (d.size != 0) {
      if (d.size > kMaxSegmentSize || d.size > std::numeric_limits<std::size_t>::max())
        throw std::invalid_argument("dp2::memory: segment larger than the address space");
      s.owned.reset(static_cast<std::byte*>(std::calloc(static_cast<std::size_t>(d.size), 1)));  // zero-filled
      if (!s.owned) throw std::bad_alloc();
      s.memory = {s.owned.get(), static_cast<std::size_t>(d.size)};
    }
    if (s.memory.size() > kMaxSegmentSize)
      throw std::invalid_argument("dp2::memory: segment larger than the address space");
    s.usable = s.memory.size() & ~std::uint64_t{kAllocationAlignment - 1};
    if (s.usable != 0) s.free_ranges.emplace(0, s.usable);
    impl_->segments.push_back(std::move(s));
  }
}

VideoMemory::~VideoMemory() = default;

AllocationHandle VideoMemory::create(const AllocationDesc& desc) {
  const FenceId completed = impl_->fences.completed();
  std::lock_guard guard(impl_->mutex);
  impl_->sweep(completed);
  return impl_->create_locked(desc, completed);
}

AllocationHandle VideoMemory::create_like(AllocationHandle like) {
  const FenceId completed = impl_->fences.completed();
  std::lock_guard guard(impl_->mutex);
  const Allocation* a = impl_->find_live(like);
  if (!a) return kNoHandle;
  const AllocationDesc desc = a->desc;  // copy: create_locked may rehash the table
  impl_->sweep(completed);
  return impl_->create_locked(desc, completed);
}

bool VideoMemory::destroy(AllocationHandle handle) {
  const FenceId completed = impl_->fences.completed();
  std::lock_guard guard(impl_->mutex);
  Allocation* a = impl_->find_live(handle);
  if (!a) return false;
  if (Impl::can_free(*a, completed)) {
    impl_->free_now(handle);
  } else {
    a->destroy_pending = true;
    impl_->pending_destroys.push_back(handle);
  }
  return true;
}

std::optional<AllocationInfo> VideoMemory::info(AllocationHandle handle) const {
  std::lock_guard guard(impl_->mutex);
  const Allocation* a = impl_->find(handle);
  if (!a) return std::nullopt;
  AllocationInfo i;
  i.desc = a->desc;
  i.resident = a->resident();
  i.address = a->resident() ? impl_->address_of(*a) : 0;
  i.last_read = a->last_read;
  i.last_write = a->last_write;
  i.locked = a->locked;
  return i;
}

std::optional<GpuAddress> VideoMemory::make_resident(AllocationHandle handle) {
  const FenceId completed = impl_->fences.completed();
  std::lock_guard guard(impl_->mutex);
  impl_->sweep(completed);
  Allocation* a = impl_->find(handle);  // pending destroys too: queued work may still use them
  if (!a) return std::nullopt;
  a->last_use = ++impl_->use_tick;
  if (a->desc.cpu_only) return impl_->aperture_address(handle, *a);
  if (!a->resident()) {
    if (a->locked) return std::nullopt;  // the lock's pointer is into the system copy
    if (!impl_->restore(handle, *a, completed, true)) return std::nullopt;
  }
  return impl_->address_of(*a);
}

bool VideoMemory::evict(AllocationHandle handle) {
  std::lock_guard guard(impl_->mutex);
  Allocation* a = impl_->find(handle);
  if (!a || a->locked || a->pins != 0) return false;
  if (!a->resident()) return true;
  return impl_->evict_now(*a);
}

bool VideoMemory::pin(AllocationHandle handle) {
  std::lock_guard guard(impl_->mutex);
  Allocation* a = impl_->find(handle);
  if (!a) return false;
  ++a->pins;
  return true;
}

void VideoMemory::unpin(AllocationHandle handle) {
  const FenceId completed = impl_->fences.completed();
  std::lock_guard guard(impl_->mutex);
  Allocation* a = impl_->find(handle);
  if (!a || a->pins == 0) return;
  --a->pins;
  if (a->destroy_pending) impl_->sweep(completed);
}

std::span<std::byte> VideoMemory::resolve(GpuAddress address, std::uint64_t size) {
  std::lock_guard guard(impl_->mutex);
  const std::uint64_t id = address >> kSegmentShift;
  const std::uint64_t offset = address & kOffsetMask;
  // A segment's placements or the aperture's: start offset → allocation.
  const std::map<std::uint64_t, AllocationHandle>* placed = nullptr;
  if (id == kApertureId) placed = &impl_->aperture.placed;
  else if (id != 0 && id <= impl_->segments.size()) placed = &impl_->segments[id - 1].placed;
  if (!placed) return {};
  auto it = placed->upper_bound(offset);
  if (it == placed->begin()) return {};
  --it;
  Allocation& a = impl_->allocations.at(it->second);
  const std::uint64_t inside = offset - it->first;  // offset >= the start by upper_bound
  if (a.pins == 0 || inside > a.desc.size || size > a.desc.size - inside) return {};
  return impl_->contents(a).subspan(static_cast<std::size_t>(inside), static_cast<std::size_t>(size));
}

std::span<std::byte> VideoMemory::bytes(AllocationHandle handle) {
  std::lock_guard guard(impl_->mutex);
  Allocation* a = impl_->find(handle);
  if (!a) return {};
  return impl_->contents(*a);
}

void VideoMemory::mark_used(AllocationHandle handle, FenceId fence, bool write) {
  std::lock_guard guard(impl_->mutex);
  Allocation* a = impl_->find(handle);
  if (!a) return;
  FenceId& f = write ? a->last_write : a->last_read;
  f = std::max(f, fence);
  a->last_use = ++impl_->use_tick;
}

LockStatus VideoMemory::lock(AllocationHandle handle, const LockFlags& flags, Mapping& out) {
  std::unique_lock guard(impl_->mutex);
  for (;;) {
    Allocation* a = impl_->find_live(handle);
    if (!a) return LockStatus::kInvalid;
    if (a->locked) return LockStatus::kAlreadyLocked;
    FenceId needed = 0;
    if (!flags.no_overwrite) needed = flags.read_only ? a->last_write : a->last_fence();
    guard.unlock();
    const FenceId completed = impl_->fences.completed();
    if (needed > completed) {
      if (flags.do_not_wait) return LockStatus::kStillDrawing;
      impl_->fences.wait(needed);
      guard.lock();
      continue;  // the allocation may be gone, locked, or used again meanwhile: re-check
    }
    guard.lock();
    a = impl_->find_live(handle);
    if (!a) return LockStatus::kInvalid;
    if (a->locked) return LockStatus::kAlreadyLocked;
    // Work may have been queued between the check and here; re-check without blocking.
    const FenceId again = flags.no_overwrite ? 0 : (flags.read_only ? a->last_write : a->last_fence());
    if (again > completed) {
      if (flags.do_not_wait) return LockStatus::kStillDrawing;
      continue;
    }
    // A lock's pointer stays valid until unlock, and locked allocations are never moved, so
    // bring a non-resident one into a segment first if there is free room (no eviction: a
    // lock should not push other surfaces out). This keeps NoOverwrite vertex buffers usable
    // by the GPU worker while the CPU holds them locked.
    if (!a->resident() && !a->desc.cpu_only) impl_->restore(handle, *a, completed, false);
    a->locked = true;
    a->last_use = ++impl_->use_tick;
    std::span<std::byte> data = impl_->contents(*a);
    out.data = data.data();
    out.pitch = a->desc.pitch;
    out.slice_pitch = a->desc.slice_pitch;
    out.size = a->desc.size;
    return LockStatus::kOk;
  }
}

bool VideoMemory::unlock(AllocationHandle handle) {
  const FenceId completed = impl_->fences.completed();
  std::lock_guard guard(impl_->mutex);
  Allocation* a = impl_->find(handle);  // a destroyed-while-locked allocation may be unlocked
  if (!a || !a->locked) return false;
  a->locked = false;
  if (a->destroy_pending) impl_->sweep(completed);
  return true;
}

bool VideoMemory::busy(AllocationHandle handle) const {
  const FenceId completed = impl_->fences.completed();
  std::lock_guard guard(impl_->mutex);
  const Allocation* a = impl_->find(handle);
  return a && !a->idle(completed);
}

void VideoMemory::set_system_budget(std::uint64_t bytes) {
  std::lock_guard lock(impl_->mutex);
  impl_->system_budget = bytes;
}

MemoryStats VideoMemory::stats() const {
  const FenceId completed = impl_->fences.completed();
  std::lock_guard guard(impl_->mutex);
  impl_->sweep(completed);
  MemoryStats s = impl_->counters;
  s.allocations = impl_->allocations.size();
  s.bytes_in_segments = 0;
  for (const auto& entry : impl_->allocations) {
    if (entry.second.resident()) s.bytes_in_segments += align_up(entry.second.desc.size);
  }
  return s;
}

std::size_t VideoMemory::segment_count() const {
  std::lock_guard guard(impl_->mutex);
  return impl_->segments.size();
}

}  // namespace dp2::memory
