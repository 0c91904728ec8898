#include "gpu/spare_buffers.h"

#include <algorithm>
#include <utility>

namespace dp2::gpu {

template <class T>
std::vector<T> SpareBuffers::take(std::vector<std::vector<T>>& spares, std::size_t size) {
  {
    std::lock_guard lock(mutex_);
    auto best = spares.end();
    for (auto it = spares.begin(); it != spares.end(); ++it)
      if (it->size() >= size && (best == spares.end() || it->size() < best->size())) best = it;
    if (best != spares.end()) {
      std::vector<T> out = std::move(*best);
      spares.erase(best);
      return out;
    }
    ++fresh_;
  }
  // Outside the lock: a large allocation (and its zero-fill) holds nobody up.
  return std::vector<T>(size);
}

template <class T>
void SpareBuffers::store(std::vector<std::vector<T>>& spares, std::vector<T>&& buffer) {
  if (buffer.capacity() == 0) return;
  // Elements only, no reallocation: the capacity is already there.
  if (buffer.size() < buffer.capacity()) buffer.resize(buffer.capacity());
  std::vector<T> dropped;  // freed after the lock is released
  {
    std::lock_guard lock(mutex_);
    spares.push_back(std::move(buffer));  // fits: kMaxPerKind + 1 reserved
    if (spares.size() > kMaxPerKind) {
      const auto smallest = std::min_element(spares.begin(), spares.end(),
                                             [](const auto& a, const auto& b) { return a.size() < b.size(); });
      dropped = std::move(*smallest);
      spares.erase(smallest);
    }
  }
}

std::uint64_t SpareBuffers::fresh() const {
  std::lock_guard lock(mutex_);
  return fresh_;
}

std::size_t SpareBuffers::spare_count() const {
  std::lock_guard lock(mutex_);
  return commands_.size() + allocations_.size() + patches_.size();
}

template std::vector<std::byte> SpareBuffers::take(std::vector<std::vector<std::byte>>&, std::size_t);
template std::vector<D3DDDI_ALLOCATIONLIST> SpareBuffers::take(std::vector<std::vector<D3DDDI_ALLOCATIONLIST>>&,
                                                               std::size_t);
template std::vector<D3DDDI_PATCHLOCATIONLIST> SpareBuffers::take(
    std::vector<std::vector<D3DDDI_PATCHLOCATIONLIST>>&, std::size_t);
template void SpareBuffers::store(std::vector<std::vector<std::byte>>&, std::vector<std::byte>&&);
template void SpareBuffers::store(std::vector<std::vector<D3DDDI_ALLOCATIONLIST>>&,
                                  std::vector<D3DDDI_ALLOCATIONLIST>&&);
template void SpareBuffers::store(std::vector<std::vector<D3DDDI_PATCHLOCATIONLIST>>&,
                                  std::vector<D3DDDI_PATCHLOCATIONLIST>&&);

}  // namespace dp2::gpu
