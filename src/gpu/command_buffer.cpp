#include "gpu/command_buffer.h"

#include <cstring>

#include "vertex/tnl_state.h"

namespace dp2::gpu {

bool CommandBuffer::append_bytes(std::span<const std::byte> bytes, ArenaRange& out) {
  if (bytes.size() > kMaxArenaBytes || data_.size() > kMaxArenaBytes - bytes.size()) return false;
  // Keep every range 4-byte aligned so vertex floats and indices can be read in place.
  // Appended, not resized then copied: the bytes are written once (reset() keeps the
  // capacity, so a steady frame does not allocate either).
  const std::size_t start = (data_.size() + 3) & ~std::size_t{3};
  data_.resize(start);  // at most 3 bytes of zero padding
  data_.insert(data_.end(), bytes.begin(), bytes.end());
  out = {static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(bytes.size())};
  return true;
}

bool CommandBuffer::append_u32(std::span<const std::uint32_t> values, ArenaRange& out) {
  return append_bytes(std::as_bytes(values), out);
}

std::uint32_t CommandBuffer::snapshot(const state::StateBlock& state, const state::PipelineKey& key,
                                      const state::DrawUniforms& uniforms, bool changed) {
  if (!states_.empty() && !changed) {
    const StateSnapshot& last = states_.back();
    if (last.key == key && last.render_target == state.render_target && last.depth_stencil == state.depth_stencil)
      return static_cast<std::uint32_t>(states_.size() - 1);
  }
  StateSnapshot snap{key, uniforms, state.render_target, state.depth_stencil, {}};
  auto add_palette = [&](std::uint8_t slot, DWORD surface) {
    const auto bound = state.surface_palette.find(surface);
    if (surface == 0 || bound == state.surface_palette.end()) return;
    const auto palette = state.palettes.find(bound->second);
    if (palette == state.palettes.end()) return;
    snap.palettes.push_back({slot, (palette->second.flags & DDRAWIPAL_ALPHA) != 0, palette->second.entries});
  };
  for (std::uint8_t i = 0; i < key.active_stages && i < state::kTextureStages; ++i) add_palette(i, uniforms.textures[i]);
  add_palette(kTargetPaletteSlot, state.render_target);
  states_.push_back(std::move(snap));
  return static_cast<std::uint32_t>(states_.size() - 1);
}

bool CommandBuffer::tnl_snapshot(const state::StateBlock& state, DWORD fvf, std::uint32_t& index) {
  vertex::encode_tnl_state(state, fvf, tnl_scratch_);
  if (!tnl_states_.empty()) {
    const auto last = bytes(tnl_states_.back());
    if (last.size() == tnl_scratch_.size() && std::memcmp(last.data(), tnl_scratch_.data(), last.size()) == 0) {
      index = static_cast<std::uint32_t>(tnl_states_.size() - 1);
      return true;
    }
  }
  ArenaRange range;
  if (!append_bytes(tnl_scratch_, range)) return false;
  tnl_states_.push_back(range);
  index = static_cast<std::uint32_t>(tnl_states_.size() - 1);
  return true;
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
  tnl_states_.resize(m.tnl_states);
}

void CommandBuffer::reset() {
  data_.clear();
  records_.clear();
  states_.clear();
  tnl_states_.clear();
}

}  // namespace dp2::gpu
