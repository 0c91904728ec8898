// dp2::memory::VideoMemory: segments (owned and the embedder's), first-fit placement and
// coalescing, LRU eviction of idle allocations only, the system-memory fallback, residency
// round trips, resolve() bounds, the lock rules (which fence each flag waits for), deferred
// destroy, and one threaded test (lock/unlock racing evict/make_resident; run it under TSan).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "memory/video_memory.h"
#include "support/failing_new.h"

namespace {

using namespace dp2::memory;

// The GPU side, faked: the test sets `done`; wait() records the fence and completes it.
class FakeFences final : public FenceSource {
 public:
  std::atomic<FenceId> done{0};

  FenceId completed() const override { return done.load(); }
  void wait(FenceId fence) override {
    {
      std::lock_guard g(m_);
      waits_.push_back(fence);
    }
    FenceId cur = done.load();
    while (cur < fence && !done.compare_exchange_weak(cur, fence)) {
    }
  }
  std::vector<FenceId> waits() const {
    std::lock_guard g(m_);
    return waits_;
  }

 private:
  mutable std::mutex m_;
  std::vector<FenceId> waits_;
};

constexpr std::uint64_t kSlot = kAllocationAlignment;

AllocationDesc desc_of(std::uint64_t size, bool cpu_only = false) {
  AllocationDesc d;
  d.format = 21;  // D3DFMT_A8R8G8B8, opaque here
  d.width = static_cast<std::uint32_t>(size / 4);
  d.height = 1;
  d.pitch = static_cast<std::uint32_t>(size);
  d.slice_pitch = static_cast<std::uint32_t>(size);
  d.size = size;
  d.cpu_only = cpu_only;
  return d;
}

std::vector<SegmentDesc> one_owned(std::uint64_t size) { return {SegmentDesc{size, {}}}; }

std::uint64_t offset_of(VideoMemory& vm, AllocationHandle h) {
  auto i = vm.info(h);
  REQUIRE(i);
  REQUIRE(i->resident);
  return i->address & kOffsetMask;
}
std::uint64_t segment_of(VideoMemory& vm, AllocationHandle h) {
  auto i = vm.info(h);
  REQUIRE(i);
  return i->resident ? i->address >> kSegmentShift : 0;
}
bool resident(VideoMemory& vm, AllocationHandle h) {
  auto i = vm.info(h);
  REQUIRE(i);
  return i->resident;
}

void fill(VideoMemory& vm, AllocationHandle h, std::uint8_t seed) {
  Mapping m;
  REQUIRE(vm.lock(h, {}, m) == LockStatus::kOk);
  for (std::uint64_t i = 0; i < m.size; ++i) m.data[i] = std::byte(static_cast<std::uint8_t>(seed + i * 7));
  REQUIRE(vm.unlock(h));
}
bool holds(VideoMemory& vm, AllocationHandle h, std::uint8_t seed) {
  auto b = vm.bytes(h);
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b[i] != std::byte(static_cast<std::uint8_t>(seed + i * 7))) return false;
  return !b.empty();
}

}  // namespace

TEST_CASE("memory: owned segment, zero-filled aligned placements, handles from 1") {
  FakeFences f;
  VideoMemory vm(one_owned(4096), f);
  CHECK(vm.segment_count() == 1);
  const AllocationHandle a = vm.create(desc_of(100));
  const AllocationHandle b = vm.create(desc_of(300));
  const AllocationHandle c = vm.create(desc_of(1));
  CHECK(a == 1);
  CHECK(b == 2);
  CHECK(c == 3);
  CHECK(segment_of(vm, a) == 1);
  CHECK(offset_of(vm, a) == 0);
  CHECK(offset_of(vm, b) == kSlot);
  CHECK(offset_of(vm, c) == 3 * kSlot);  // 300 bytes take two slots
  for (AllocationHandle h : {a, b, c}) CHECK(offset_of(vm, h) % kAllocationAlignment == 0);
  auto bytes = vm.bytes(b);
  CHECK(bytes.size() == 300);
  CHECK(std::all_of(bytes.begin(), bytes.end(), [](std::byte x) { return x == std::byte{0}; }));
  const MemoryStats s = vm.stats();
  CHECK(s.allocations == 3);
  CHECK(s.bytes_in_segments == 4 * kSlot);
  CHECK(s.evictions == 0);
}

TEST_CASE("memory: external segment — bytes written through a lock land in the embedder's array") {
  FakeFences f;
  std::vector<std::byte> vram(4096, std::byte{0xAA});
  VideoMemory vm({SegmentDesc{0, vram}}, f);
  const AllocationHandle a = vm.create(desc_of(200));
  const AllocationHandle b = vm.create(desc_of(64));
  REQUIRE(a != 0);
  REQUIRE(b != 0);
  const std::uint64_t off = offset_of(vm, b);
  CHECK(off == kSlot);
  // A new allocation is zeroed, in the embedder's memory too.
  for (std::uint64_t i = 0; i < 64; ++i) CHECK(vram[off + i] == std::byte{0});
  CHECK(vram[off + 64] == std::byte{0xAA});  // beyond the allocation: untouched

  Mapping m;
  REQUIRE(vm.lock(b, {}, m) == LockStatus::kOk);
  CHECK(m.data == vram.data() + off);
  CHECK(m.size == 64);
  CHECK(m.pitch == 64);
  for (int i = 0; i < 64; ++i) m.data[i] = std::byte(static_cast<std::uint8_t>(i + 1));
  REQUIRE(vm.unlock(b));
  for (int i = 0; i < 64; ++i) CHECK(vram[off + i] == std::byte(static_cast<std::uint8_t>(i + 1)));
  // resolve() hands the worker the same bytes (between pin and unpin, as the worker does).
  REQUIRE(vm.pin(b));
  auto r = vm.resolve(vm.info(b)->address, 64);
  CHECK(r.data() == vram.data() + off);
  CHECK(r.size() == 64);
}

TEST_CASE("memory: several segments are tried in order") {
  FakeFences f;
  VideoMemory vm({SegmentDesc{kSlot, {}}, SegmentDesc{2 * kSlot, {}}}, f);
  CHECK(vm.segment_count() == 2);
  const AllocationHandle a = vm.create(desc_of(kSlot));
  const AllocationHandle b = vm.create(desc_of(kSlot));
  CHECK(segment_of(vm, a) == 1);
  CHECK(segment_of(vm, b) == 2);
  // Too big for segment 1 even when empty: segment 2 makes room by evicting idle b.
  REQUIRE(vm.destroy(a));
  const AllocationHandle c = vm.create(desc_of(kSlot + 1));
  CHECK(segment_of(vm, c) == 2);
  CHECK(offset_of(vm, c) == 0);
  CHECK_FALSE(resident(vm, b));
  // Segment 1 is free again: the next small one goes there, first.
  const AllocationHandle d = vm.create(desc_of(16));
  CHECK(segment_of(vm, d) == 1);
}

TEST_CASE("memory: first fit and coalescing of freed ranges") {
  FakeFences f;
  VideoMemory vm(one_owned(4 * kSlot), f);
  AllocationHandle h[4];
  for (auto& x : h) x = vm.create(desc_of(kSlot));
  for (int i = 0; i < 4; ++i) CHECK(offset_of(vm, h[i]) == i * kSlot);

  // Free two neighbours; a two-slot allocation fits only if they were merged.
  REQUIRE(vm.destroy(h[1]));
  REQUIRE(vm.destroy(h[2]));
  const AllocationHandle two = vm.create(desc_of(2 * kSlot));
  CHECK(offset_of(vm, two) == kSlot);
  CHECK(vm.stats().evictions == 0);

  // Free the first and the two-slot one: the first fit for one slot is offset 0.
  REQUIRE(vm.destroy(h[0]));
  REQUIRE(vm.destroy(two));
  const AllocationHandle one = vm.create(desc_of(10));
  CHECK(offset_of(vm, one) == 0);
  // Merge with both neighbours: free slot 0 again, so slots 0..2 are one range.
  REQUIRE(vm.destroy(one));
  const AllocationHandle three = vm.create(desc_of(3 * kSlot));
  CHECK(offset_of(vm, three) == 0);
  CHECK(vm.stats().bytes_in_segments == 4 * kSlot);
}

TEST_CASE("memory: exhaustion evicts only idle, unlocked, unpinned allocations") {
  FakeFences f;
  VideoMemory vm(one_owned(4 * kSlot), f);
  const AllocationHandle busy = vm.create(desc_of(kSlot));
  const AllocationHandle locked = vm.create(desc_of(kSlot));
  const AllocationHandle pinned = vm.create(desc_of(kSlot));
  const AllocationHandle idle = vm.create(desc_of(kSlot));
  fill(vm, idle, 9);
  vm.mark_used(busy, 5, false);
  Mapping m;
  REQUIRE(vm.lock(locked, {}, m) == LockStatus::kOk);
  REQUIRE(vm.pin(pinned));

  const AllocationHandle e = vm.create(desc_of(kSlot));
  CHECK(resident(vm, e));
  CHECK_FALSE(resident(vm, idle));
  CHECK(holds(vm, idle, 9));  // its contents went to system memory
  CHECK(resident(vm, busy));
  CHECK(resident(vm, locked));
  CHECK(resident(vm, pinned));
  CHECK(vm.stats().evictions == 1);
  vm.mark_used(e, 5, true);

  // Nothing else may go: the next one falls back to system memory, zero-filled.
  const AllocationHandle sys = vm.create(desc_of(kSlot));
  REQUIRE(sys != 0);
  CHECK_FALSE(resident(vm, sys));
  CHECK(vm.bytes(sys).size() == kSlot);
  CHECK(vm.stats().evictions == 1);

  // Once the fence passes, both are fair game; busy was used less recently, so it goes.
  f.done = 5;
  REQUIRE(vm.make_resident(sys));
  CHECK_FALSE(resident(vm, busy));
  CHECK(resident(vm, e));
  CHECK(vm.stats().evictions == 2);
  CHECK(vm.stats().restores == 1);
  REQUIRE(vm.unlock(locked));
  vm.unpin(pinned);
}

TEST_CASE("memory: eviction order is least recently used first") {
  FakeFences f;
  VideoMemory vm(one_owned(3 * kSlot), f);
  const AllocationHandle a = vm.create(desc_of(kSlot));
  const AllocationHandle b = vm.create(desc_of(kSlot));
  const AllocationHandle c = vm.create(desc_of(kSlot));
  vm.mark_used(a, 1, false);
  vm.mark_used(c, 1, true);
  f.done = 1;
  const AllocationHandle d = vm.create(desc_of(kSlot));
  CHECK(resident(vm, d));
  CHECK_FALSE(resident(vm, b));  // untouched since creation
  CHECK(resident(vm, a));
  CHECK(resident(vm, c));
  // A lock counts as a use too: now a is the oldest.
  Mapping m;
  REQUIRE(vm.lock(c, {}, m) == LockStatus::kOk);
  REQUIRE(vm.unlock(c));
  vm.mark_used(d, 1, false);
  const AllocationHandle e = vm.create(desc_of(kSlot));
  CHECK(resident(vm, e));
  CHECK_FALSE(resident(vm, a));
}

TEST_CASE("memory: nothing is evicted in vain when the freed space still would not fit") {
  FakeFences f;
  VideoMemory vm(one_owned(4 * kSlot), f);
  const AllocationHandle a = vm.create(desc_of(kSlot));
  const AllocationHandle b = vm.create(desc_of(kSlot));
  const AllocationHandle c = vm.create(desc_of(kSlot));
  const AllocationHandle d = vm.create(desc_of(kSlot));
  REQUIRE(vm.pin(b));  // idle a, c, d around a pinned b: at most 2 contiguous slots
  const AllocationHandle big = vm.create(desc_of(3 * kSlot));
  REQUIRE(big != 0);
  CHECK_FALSE(resident(vm, big));
  CHECK(resident(vm, a));
  CHECK(resident(vm, c));
  CHECK(resident(vm, d));
  CHECK(vm.stats().evictions == 0);
  // Two slots do fit after evicting c and d.
  const AllocationHandle two = vm.create(desc_of(2 * kSlot));
  CHECK(offset_of(vm, two) == 2 * kSlot);
  CHECK(resident(vm, a));
  vm.unpin(b);
}

TEST_CASE("memory: a cpu_only allocation is read in place through the aperture") {
  FakeFences f;
  VideoMemory vm(one_owned(4 * kSlot), f);
  const AllocationHandle s = vm.create(desc_of(64, true));
  const AllocationHandle t = vm.create(desc_of(100, true));
  REQUIRE(s != 0);
  REQUIRE(t != 0);
  const auto a = vm.make_resident(s), b = vm.make_resident(t);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(vm.resolve(*a, 64).empty());  // unpinned: no buffer that uses it is running
  REQUIRE(vm.pin(s));
  REQUIRE(vm.pin(t));
  // The aperture's id, not a segment's; the same address on every call; the bytes stay
  // where they are (no segment space is taken, nothing is "resident").
  CHECK((*a >> kSegmentShift) == kApertureId);
  CHECK((*b >> kSegmentShift) == kApertureId);
  CHECK(*a != *b);
  CHECK(vm.make_resident(s) == a);
  CHECK_FALSE(resident(vm, s));
  CHECK(vm.stats().bytes_in_segments == 0);
  CHECK(vm.resolve(*a, 64).data() == vm.bytes(s).data());
  CHECK(vm.resolve(*a + 10, 54).data() == vm.bytes(s).data() + 10);
  // Past the allocation's end: nothing, however the range is split.
  CHECK(vm.resolve(*a, 65).empty());
  CHECK(vm.resolve(*a + 64, 1).empty());
  CHECK(vm.resolve(*b + 1, 100).empty());
  // Freed: its range no longer resolves (and goes back to the aperture).
  vm.unpin(s);
  REQUIRE(vm.destroy(s));
  CHECK(vm.resolve(*a, 1).empty());
  CHECK(vm.resolve(*b, 100).data() == vm.bytes(t).data());
}

TEST_CASE("memory: an allocation that throws while placing or mapping loses no free range") {
  // Taking a range out of a free list may need a map node (a range split in two). When
  // that node cannot be had, create() answers 0 (no handle) and make_resident() nullopt, and
  // the free lists must be as before: the next placement lands where it would have landed
  // had nothing failed. Each n fails a different allocation on the way.
  FakeFences f;
  VideoMemory clean(one_owned(4 * kSlot), f);
  const AllocationHandle c0 = clean.create(desc_of(kSlot)), c1 = clean.create(desc_of(kSlot));
  const AllocationHandle m0 = clean.create(desc_of(64, true)), m1 = clean.create(desc_of(64, true));
  const auto clean_first = clean.make_resident(m0), clean_second = clean.make_resident(m1);
  REQUIRE(c0 != 0);
  REQUIRE(c1 != 0);
  REQUIRE(clean_first);
  REQUIRE(clean_second);
  int segment_failures = 0, aperture_failures = 0;
  for (long n = 1; n <= 8; ++n) {
    CAPTURE(n);
    VideoMemory vm(one_owned(4 * kSlot), f);
    REQUIRE(vm.create(desc_of(kSlot)) != 0);
    AllocationHandle second = 0;
    {
      dp2::test::FailNthAllocation fail(n);
      second = vm.create(desc_of(kSlot));
      CHECK((second == 0) == fail.fired());
      segment_failures += fail.fired();
    }
    if (second == 0) second = vm.create(desc_of(kSlot));
    REQUIRE(second != 0);
    CHECK(offset_of(vm, second) == offset_of(clean, c1));
    CHECK(vm.create(desc_of(kSlot)) != 0);  // the rest of the segment is still free

    const AllocationHandle s = vm.create(desc_of(64, true)), t = vm.create(desc_of(64, true));
    REQUIRE(s != 0);
    REQUIRE(t != 0);
    REQUIRE(vm.make_resident(s) == clean_first);
    std::optional<GpuAddress> mapped;
    {
      dp2::test::FailNthAllocation fail(n);
      mapped = vm.make_resident(t);
      CHECK(!mapped == fail.fired());
      aperture_failures += fail.fired();
    }
    if (!mapped) mapped = vm.make_resident(t);
    CHECK(mapped == clean_second);
  }
  // The loop reached the allocations it meant to fail.
  CHECK(segment_failures > 0);
  CHECK(aperture_failures > 0);
}

TEST_CASE("memory: cpu_only allocations, size limits and unknown handles") {
  FakeFences f;
  VideoMemory vm(one_owned(4 * kSlot), f);
  const AllocationHandle s = vm.create(desc_of(64, true));
  REQUIRE(s != 0);
  CHECK_FALSE(resident(vm, s));
  CHECK(vm.bytes(s).size() == 64);
  CHECK(vm.stats().bytes_in_segments == 0);

  CHECK(vm.create(desc_of(0)) == 0);
  CHECK(vm.create(desc_of(std::uint64_t{1} << 40)) == 0);

  constexpr AllocationHandle kUnknown = 999;
  Mapping m;
  CHECK(vm.lock(kUnknown, {}, m) == LockStatus::kInvalid);
  CHECK_FALSE(vm.unlock(kUnknown));
  CHECK_FALSE(vm.destroy(kUnknown));
  CHECK_FALSE(vm.info(kUnknown));
  CHECK_FALSE(vm.make_resident(kUnknown));
  CHECK_FALSE(vm.evict(kUnknown));
  CHECK_FALSE(vm.pin(kUnknown));
  CHECK_FALSE(vm.busy(kUnknown));
  CHECK(vm.bytes(kUnknown).empty());
  CHECK(vm.create_like(kUnknown) == 0);
  vm.unpin(kUnknown);
  vm.mark_used(kUnknown, 3, true);
  CHECK(vm.destroy(s));
  CHECK_FALSE(vm.destroy(s));
  CHECK(vm.create(desc_of(16)) == 2);  // s was 1; failures use no handle; s's is not reused
}

TEST_CASE("memory: evict then make_resident restores the contents byte for byte") {
  FakeFences f;
  VideoMemory vm(one_owned(8 * kSlot), f);
  const AllocationHandle a = vm.create(desc_of(3 * kSlot / 2));
  const AllocationHandle b = vm.create(desc_of(kSlot));
  fill(vm, a, 3);
  fill(vm, b, 77);
  REQUIRE(vm.evict(a));
  CHECK_FALSE(resident(vm, a));
  CHECK(holds(vm, a, 3));
  CHECK(vm.evict(a));  // already in system memory: fine
  // Something else takes a's old place, so a comes back elsewhere.
  const AllocationHandle c = vm.create(desc_of(kSlot));
  CHECK(offset_of(vm, c) == 0);
  auto addr = vm.make_resident(a);
  REQUIRE(addr);
  CHECK((*addr >> kSegmentShift) == 1);
  CHECK((*addr & kOffsetMask) != 0);
  CHECK(holds(vm, a, 3));
  CHECK(holds(vm, b, 77));
  REQUIRE(vm.pin(a));
  auto r = vm.resolve(*addr, 3 * kSlot / 2);
  vm.unpin(a);
  REQUIRE(r.size() == 3 * kSlot / 2);
  CHECK(r.data() == vm.bytes(a).data());
  CHECK(vm.make_resident(a) == addr);  // resident: same address, nothing moves
  const MemoryStats s = vm.stats();
  CHECK(s.evictions == 1);
  CHECK(s.restores == 1);
}

TEST_CASE("memory: make_resident refuses what cannot fit and never evicts its target") {
  FakeFences f;
  VideoMemory vm(one_owned(2 * kSlot), f);
  const AllocationHandle a = vm.create(desc_of(kSlot));
  const AllocationHandle b = vm.create(desc_of(kSlot));
  const AllocationHandle big = vm.create(desc_of(3 * kSlot));
  CHECK_FALSE(resident(vm, big));
  CHECK_FALSE(vm.make_resident(big));  // larger than the segment
  CHECK(resident(vm, a));
  CHECK(resident(vm, b));

  REQUIRE(vm.evict(a));
  vm.mark_used(b, 4, true);  // b busy: a cannot get its room back by evicting b
  const AllocationHandle c = vm.create(desc_of(kSlot));
  CHECK(resident(vm, c));
  vm.mark_used(c, 4, false);
  CHECK_FALSE(vm.make_resident(a));
  CHECK(vm.stats().evictions == 1);
  f.done = 4;
  CHECK(vm.make_resident(a));
  CHECK(vm.stats().evictions == 2);

  // A locked, non-resident allocation is not moved (its pointer must stay valid).
  VideoMemory vm2(one_owned(kSlot), f);
  const AllocationHandle x = vm2.create(desc_of(kSlot));
  REQUIRE(vm2.pin(x));
  const AllocationHandle y = vm2.create(desc_of(kSlot));  // system memory: pinned x holds the slot
  CHECK_FALSE(resident(vm2, y));
  Mapping m;
  REQUIRE(vm2.lock(y, {}, m) == LockStatus::kOk);
  CHECK(m.data == vm2.bytes(y).data());
  vm2.unpin(x);
  CHECK_FALSE(vm2.make_resident(y));
  REQUIRE(vm2.unlock(y));
  CHECK(vm2.make_resident(y));
  CHECK_FALSE(resident(vm2, x));
}

TEST_CASE("memory: evict refuses locked and pinned allocations, allows busy ones") {
  FakeFences f;
  VideoMemory vm(one_owned(4 * kSlot), f);
  const AllocationHandle a = vm.create(desc_of(kSlot));
  Mapping m;
  REQUIRE(vm.lock(a, {}, m) == LockStatus::kOk);
  CHECK_FALSE(vm.evict(a));
  REQUIRE(vm.unlock(a));
  REQUIRE(vm.pin(a));
  REQUIRE(vm.pin(a));  // pins nest
  CHECK_FALSE(vm.evict(a));
  vm.unpin(a);
  CHECK_FALSE(vm.evict(a));
  vm.unpin(a);
  vm.mark_used(a, 10, true);
  CHECK(vm.busy(a));
  CHECK(vm.evict(a));
  CHECK_FALSE(resident(vm, a));
}

TEST_CASE("memory: lock on a non-resident allocation brings it in when there is free room") {
  FakeFences f;
  VideoMemory vm(one_owned(kSlot), f);
  const AllocationHandle a = vm.create(desc_of(kSlot));
  fill(vm, a, 5);
  REQUIRE(vm.evict(a));
  Mapping m;
  REQUIRE(vm.lock(a, {}, m) == LockStatus::kOk);
  CHECK(resident(vm, a));
  REQUIRE(vm.pin(a));
  CHECK(m.data == vm.resolve(vm.info(a)->address, kSlot).data());
  vm.unpin(a);
  REQUIRE(vm.unlock(a));
  CHECK(holds(vm, a, 5));
}

TEST_CASE("memory: resolve bounds") {
  FakeFences f;
  VideoMemory vm(one_owned(8 * kSlot), f);
  const AllocationHandle pad = vm.create(desc_of(kSlot));
  const AllocationHandle a = vm.create(desc_of(1000));
  REQUIRE(pad != 0);
  const GpuAddress base = vm.info(a)->address;
  // Unpinned: the worker is not running a buffer that uses it, so nothing resolves.
  CHECK(vm.resolve(base, 1000).empty());
  REQUIRE(vm.pin(a));
  REQUIRE(vm.pin(pad));
  CHECK(vm.resolve(base, 1000).size() == 1000);
  CHECK(vm.resolve(base + 10, 990).data() == vm.bytes(a).data() + 10);  // inside, to the end
  CHECK(vm.resolve(base + 10, 991).empty());                            // straddles the end
  CHECK(vm.resolve(base + 1000, 1).empty());       // in the alignment padding
  CHECK(vm.resolve(base - 1, 2).empty());          // straddles the start (pad's end + a)
  CHECK(vm.resolve(base + 999, ~std::uint64_t{0}).empty());  // size overflow
  CHECK(vm.resolve(0, 4).empty());                  // address 0
  CHECK(vm.resolve(base + 4 * kSlot, 4).empty());   // free space in the segment
  CHECK(vm.resolve((GpuAddress{2} << kSegmentShift) | 0, 4).empty());  // unknown segment
  CHECK(vm.resolve(kOffsetMask, 1).empty());        // segment 0
  CHECK(vm.resolve(~GpuAddress{0}, 1).empty());
  vm.unpin(a);
  REQUIRE(vm.evict(a));
  REQUIRE(vm.pin(a));
  CHECK(vm.resolve(base, 4).empty());  // pinned, but not resident any more
}

TEST_CASE("memory: lock waits for the right fence") {
  FakeFences f;
  VideoMemory vm(one_owned(4 * kSlot), f);
  const AllocationHandle a = vm.create(desc_of(64));
  Mapping m;

  SUBCASE("plain lock waits for every use") {
    vm.mark_used(a, 3, true);
    vm.mark_used(a, 7, false);
    REQUIRE(vm.lock(a, {}, m) == LockStatus::kOk);
    CHECK(f.waits() == std::vector<FenceId>{7});
    CHECK(vm.info(a)->locked);
  }
  SUBCASE("read_only waits for the writes only") {
    vm.mark_used(a, 3, true);
    vm.mark_used(a, 7, false);
    REQUIRE(vm.lock(a, {.read_only = true}, m) == LockStatus::kOk);
    CHECK(f.waits() == std::vector<FenceId>{3});
  }
  SUBCASE("read_only with only reads pending does not wait") {
    vm.mark_used(a, 7, false);
    REQUIRE(vm.lock(a, {.read_only = true}, m) == LockStatus::kOk);
    CHECK(f.waits().empty());
  }
  SUBCASE("do_not_wait: kStillDrawing while busy, kOk once completed") {
    vm.mark_used(a, 7, true);
    CHECK(vm.lock(a, {.do_not_wait = true}, m) == LockStatus::kStillDrawing);
    f.done = 6;
    CHECK(vm.lock(a, {.do_not_wait = true}, m) == LockStatus::kStillDrawing);
    CHECK_FALSE(vm.info(a)->locked);
    f.done = 7;
    CHECK(vm.lock(a, {.do_not_wait = true}, m) == LockStatus::kOk);
    CHECK(f.waits().empty());
  }
  SUBCASE("no_overwrite never waits") {
    vm.mark_used(a, 7, true);
    vm.mark_used(a, 9, false);
    REQUIRE(vm.lock(a, {.no_overwrite = true}, m) == LockStatus::kOk);
    REQUIRE(vm.unlock(a));
    REQUIRE(vm.lock(a, {.do_not_wait = true, .no_overwrite = true}, m) == LockStatus::kOk);
    CHECK(f.waits().empty());
    CHECK(vm.busy(a));
  }
  SUBCASE("idle: no wait") {
    vm.mark_used(a, 2, true);
    f.done = 2;
    REQUIRE(vm.lock(a, {}, m) == LockStatus::kOk);
    CHECK(f.waits().empty());
  }
  SUBCASE("double lock and unlock of an unlocked allocation") {
    REQUIRE(vm.lock(a, {}, m) == LockStatus::kOk);
    Mapping m2;
    CHECK(vm.lock(a, {.no_overwrite = true}, m2) == LockStatus::kAlreadyLocked);
    CHECK(vm.unlock(a));
    CHECK_FALSE(vm.unlock(a));
    return;
  }
  CHECK(m.data == vm.bytes(a).data());
  CHECK(m.size == 64);
  CHECK(vm.unlock(a));
}

TEST_CASE("memory: a lock that waits re-checks the allocation afterwards") {
  // wait() runs outside the mutex: here it destroys the allocation (as another thread could).
  struct DestroyingFences final : FenceSource {
    VideoMemory* vm = nullptr;
    AllocationHandle victim = 0;
    FenceId done = 0;
    FenceId completed() const override { return done; }
    void wait(FenceId fence) override {
      CHECK(vm->destroy(victim));  // busy: pending
      done = fence;
    }
  } fences;
  VideoMemory vm(one_owned(kSlot), fences);
  fences.vm = &vm;
  fences.victim = vm.create(desc_of(16));
  vm.mark_used(fences.victim, 1, true);
  Mapping m;
  CHECK(vm.lock(fences.victim, {}, m) == LockStatus::kInvalid);
  CHECK(vm.stats().allocations == 0);  // swept: idle now
}

TEST_CASE("memory: destroy of a busy or pinned allocation is deferred") {
  FakeFences f;
  VideoMemory vm(one_owned(kSlot), f);
  const AllocationHandle a = vm.create(desc_of(kSlot));
  vm.mark_used(a, 4, false);
  REQUIRE(vm.destroy(a));
  CHECK_FALSE(vm.destroy(a));  // already destroyed, for the caller
  Mapping m;
  CHECK(vm.lock(a, {}, m) == LockStatus::kInvalid);
  CHECK(vm.create_like(a) == 0);
  // Still there for the queued work: the worker may still resolve it.
  CHECK(vm.make_resident(a));
  CHECK(vm.stats().allocations == 1);
  CHECK(vm.stats().bytes_in_segments == kSlot);
  const AllocationHandle b = vm.create(desc_of(kSlot));  // busy a cannot be evicted
  CHECK_FALSE(resident(vm, b));

  REQUIRE(vm.pin(a));
  f.done = 4;
  CHECK(vm.stats().allocations == 2);  // idle but pinned: kept
  vm.unpin(a);
  CHECK(vm.stats().allocations == 1);  // freed
  CHECK_FALSE(vm.info(a));
  CHECK(vm.make_resident(b));  // its room is free again, no eviction
  CHECK(vm.stats().evictions == 0);
}

TEST_CASE("memory: an idle destroy frees at once, a later create reuses the room") {
  FakeFences f;
  VideoMemory vm(one_owned(kSlot), f);
  const AllocationHandle a = vm.create(desc_of(kSlot));
  vm.mark_used(a, 2, true);
  REQUIRE(vm.destroy(a));
  f.done = 2;
  const AllocationHandle b = vm.create(desc_of(kSlot));  // the sweep frees a first
  CHECK(resident(vm, b));
  CHECK(vm.stats().evictions == 0);
  CHECK(vm.stats().allocations == 1);
}

TEST_CASE("memory: create_like copies the description, not the contents") {
  FakeFences f;
  VideoMemory vm(one_owned(4 * kSlot), f);
  AllocationDesc d = desc_of(128);
  d.format = 23;
  d.width = 8;
  d.height = 4;
  d.pitch = 16;
  d.slice_pitch = 64;
  d.size = 128;
  const AllocationHandle a = vm.create(d);
  fill(vm, a, 11);
  vm.mark_used(a, 5, true);
  const AllocationHandle b = vm.create_like(a);
  REQUIRE(b != 0);
  CHECK(b != a);
  auto ib = vm.info(b);
  REQUIRE(ib);
  CHECK(ib->desc.format == 23);
  CHECK(ib->desc.width == 8);
  CHECK(ib->desc.height == 4);
  CHECK(ib->desc.pitch == 16);
  CHECK(ib->desc.slice_pitch == 64);
  CHECK(ib->desc.size == 128);
  CHECK(ib->last_write == 0);
  CHECK_FALSE(vm.busy(b));
  auto bb = vm.bytes(b);
  CHECK(std::all_of(bb.begin(), bb.end(), [](std::byte x) { return x == std::byte{0}; }));
  CHECK(holds(vm, a, 11));
  CHECK(bb.data() != vm.bytes(a).data());
}

TEST_CASE("memory: threaded — NoOverwrite locks race make_resident / evict / mark_used") {
  FakeFences f;
  VideoMemory vm(one_owned(2 * kSlot), f);
  const AllocationHandle vb = vm.create(desc_of(kSlot));
  const AllocationHandle other = vm.create(desc_of(kSlot));
  REQUIRE(vb != 0);
  REQUIRE(other != 0);
  // Both sides run until each has done kIterations rounds (so they overlap whatever the
  // scheduling), or until kTimeLimit has passed.
  constexpr int kIterations = 2000;
  constexpr auto kTimeLimit = std::chrono::milliseconds(300);
  const auto deadline = std::chrono::steady_clock::now() + kTimeLimit;
  std::atomic<int> cpu_rounds{0}, gpu_rounds{0};
  std::atomic<int> bad_locks{0};
  auto done = [&] {
    return (cpu_rounds >= kIterations && gpu_rounds >= kIterations) || std::chrono::steady_clock::now() > deadline;
  };

  std::thread cpu([&] {
    for (int i = 0; !done(); ++i, ++cpu_rounds) {
      Mapping m;
      if (vm.lock(vb, {.no_overwrite = true}, m) != LockStatus::kOk) {
        ++bad_locks;
        continue;
      }
      for (std::uint64_t k = 0; k < m.size; ++k) m.data[k] = std::byte(static_cast<std::uint8_t>(i));
      if (!vm.unlock(vb)) ++bad_locks;
    }
  });
  std::thread gpu([&] {
    for (FenceId fence = 1; !done(); ++fence, ++gpu_rounds) {
      vm.mark_used(vb, fence, false);
      vm.evict(vb);
      vm.make_resident(vb);
      vm.mark_used(other, fence, true);
      vm.evict(other);
      if (auto addr = vm.make_resident(vb)) vm.resolve(*addr, 16);
      f.done = fence;
      vm.make_resident(other);
    }
  });
  cpu.join();
  gpu.join();
  CHECK(bad_locks == 0);
  CHECK(vm.stats().restores > 0);
  CHECK_FALSE(vm.info(vb)->locked);
  // The last write is whole wherever vb lives now.
  auto b = vm.bytes(vb);
  REQUIRE(b.size() == kSlot);
  CHECK(std::all_of(b.begin(), b.end(), [&](std::byte x) { return x == b[0]; }));
}
