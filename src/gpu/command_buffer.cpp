#include "gpu/command_buffer.h"

#include <cstring>

namespace dp2::gpu {

bool CommandBuffer::append_bytes(std::span<const std::byte> bytes, ArenaRange& out) {
  if (bytes.size() > kMaxArenaBytes || data_.size() > kMaxArenaBytes - bytes.size()) return false;
  // Keep every range 4-byte aligned so vertex floats and indices can be read in place.
  const std::size_t start = (data_.size() + 3) & ~std::size_t{3};
  data_.resize(start + bytes.size());
  if (!bytes.empty()) std::memcpy(data_.data() + start, bytes.data(), bytes.size());
  out = {static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(bytes.size())};
  return true;
}

bool CommandBuffer::append_u32(std::span<const std::uint32_t> values, ArenaRange& out) {
  return append_bytes(std::as_bytes(values), out);
}

std::uint32_t CommandBuffer::snapshot(const state::PipelineKey& key, const state::DrawUniforms& uniforms,
                                      DWORD render_target, DWORD depth_stencil, bool uniforms_changed) {
  if (!states_.empty() && !uniforms_changed) {
    const StateSnapshot& last = states_.back();
    if (last.key == key && last.render_target == render_target && last.depth_stencil == depth_stencil)
      return static_cast<std::uint32_t>(states_.size() - 1);
  }
  states_.push_back({key, uniforms, render_target, depth_stencil});
  return static_cast<std::uint32_t>(states_.size() - 1);
}

std::vector<std::uint32_t> CommandBuffer::indices(const DrawRecord& d) const {
  std::vector<std::uint32_t> out(d.indices.size / sizeof(std::uint32_t));
  if (!out.empty()) std::memcpy(out.data(), data_.data() + d.indices.offset, d.indices.size);
  return out;
}

void CommandBuffer::rollback(const Mark& m) {
  data_.resize(m.data);
  records_.resize(m.records);
  states_.resize(m.states);
}

void CommandBuffer::reset() {
  data_.clear();
  records_.clear();
  states_.clear();
}

}  // namespace dp2::gpu
