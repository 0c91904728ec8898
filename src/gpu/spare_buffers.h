// A pool of spare command buffers, allocation lists and patch location lists, so that a
// steady stream of submissions reuses the same memory instead of allocating (and the
// kernel zero-filling) fresh buffers per submission (docs/memory-and-submission.md,
// "Buffer reuse").
//
// The GPU worker gives a submission's buffers back once it has executed them; Render and
// the DrawPrimitives2 encoder take buffers from it. A buffer keeps its size while it is
// spare (its bytes are whatever its last use left; no caller relies on them), so taking
// one never fills it again.
//
// Threads: any; one mutex, held only to pick or store a buffer (never while copying).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "dp2/wddm.h"

namespace dp2::gpu {

class SpareBuffers {
 public:
  // Spare buffers kept per kind; one more given back drops the smallest. A context that
  // keeps the worker busy has one buffer queued, one running and one being filled; 8
  // covers several such contexts.
  static constexpr std::size_t kMaxPerKind = 8;

  SpareBuffers() {
    commands_.reserve(kMaxPerKind + 1);
    allocations_.reserve(kMaxPerKind + 1);
    patches_.reserve(kMaxPerKind + 1);
  }

  // A buffer of at least `size` elements: the smallest spare that is big enough, else a
  // new one of exactly `size` (counted in fresh()).
  std::vector<std::byte> commands(std::size_t size) { return take(commands_, size); }
  std::vector<D3DDDI_ALLOCATIONLIST> allocations(std::size_t size) { return take(allocations_, size); }
  std::vector<D3DDDI_PATCHLOCATIONLIST> patches(std::size_t size) { return take(patches_, size); }

  // Gives a buffer back. A list given back shorter than its capacity (the encoder fills
  // its lists by push_back) is first extended to its capacity, so its whole allocation
  // counts when it is picked again.
  void give(std::vector<std::byte>&& buffer) { store(commands_, std::move(buffer)); }
  void give(std::vector<D3DDDI_ALLOCATIONLIST>&& list) { store(allocations_, std::move(list)); }
  void give(std::vector<D3DDDI_PATCHLOCATIONLIST>&& list) { store(patches_, std::move(list)); }

  // Buffers handed out new (nothing spare was big enough) since the pool was made; a
  // steady stream of equal submissions stops adding to it after its first few.
  std::uint64_t fresh() const;
  std::size_t spare_count() const;

 private:
  template <class T>
  std::vector<T> take(std::vector<std::vector<T>>& spares, std::size_t size);
  template <class T>
  void store(std::vector<std::vector<T>>& spares, std::vector<T>&& buffer);

  mutable std::mutex mutex_;
  // Each reserves kMaxPerKind + 1 slots up front, so storing never allocates.
  std::vector<std::vector<std::byte>> commands_;
  std::vector<std::vector<D3DDDI_ALLOCATIONLIST>> allocations_;
  std::vector<std::vector<D3DDDI_PATCHLOCATIONLIST>> patches_;
  std::uint64_t fresh_ = 0;
};

}  // namespace dp2::gpu
