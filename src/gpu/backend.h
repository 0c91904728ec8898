// The back end's front door: runs a context's command buffer through the rasterizer —
// translating state snapshots into raster::DrawState, fetching vertices, building
// texture views over surfaces — and flushes. Synchronous for now; the memory and
// submission issue moves it onto the device's worker behind fences.
//
// Thread: the device's (the DrawPrimitives2 caller's), at the end of each call.
#pragma once

#include <deque>
#include <memory>
#include <vector>

#include "device/surface_table.h"
#include "dp2/device.h"
#include "dp2raster/renderer.h"
#include "gpu/command_buffer.h"
#include "state/state_block.h"

namespace dp2::gpu {

struct BackendEnv {
  detail::SurfaceTable& surfaces;
  const state::StateBlock& state;  // palettes, SETTEXLOD, bump matrices: read at execution
  std::uint32_t interface_version;
  Diagnostics& diagnostics;
};

class Backend {
 public:
  explicit Backend(unsigned threads = 0);
  void set_threads(unsigned threads);
  void execute(const CommandBuffer& commands, BackendEnv& env);

 private:
  const raster::DrawState* draw_state(const CommandBuffer& commands, std::uint32_t snapshot, BackendEnv& env);
  void clear(const CommandBuffer& commands, const ClearRecord& c, BackendEnv& env);
  void draw(const CommandBuffer& commands, const DrawRecord& d, BackendEnv& env);

  std::unique_ptr<raster::Renderer> renderer_;
  // Alive until the flush at the end of execute(): the renderer keeps pointers to them.
  std::deque<raster::DrawState> states_;
  std::deque<raster::TextureView> textures_;
  std::vector<const raster::DrawState*> by_snapshot_;
  std::vector<raster::Vertex> vertices_;
  std::vector<std::uint32_t> indices_;
};

}  // namespace dp2::gpu
