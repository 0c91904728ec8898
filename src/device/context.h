// One D3D context: its state, its derived pipeline data, the command buffer its draws go
// into, and its state sets. Created by Device::create_context (D3dContextCreate).
//
// Thread: the thread running DrawPrimitives2 on this context.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "dp2/device.h"
#include "gpu/command_buffer.h"
#include "state/pipeline_key.h"
#include "state/state_block.h"

namespace dp2::detail {

// A recorded state block (D3DDP2OP_STATESET): the state commands between BEGIN and END,
// each kept as one single-record command (op + payload), replayed on EXECUTE and
// refreshed from the current state on CAPTURE.
struct StateSetEntry {
  std::uint8_t op = 0;
  std::vector<std::byte> payload;
};
using StateSet = std::vector<StateSetEntry>;

class Context {
 public:
  explicit Context(const ContextDesc& desc) : desc_(desc) {
    state.render_target = desc.render_target;
    state.render_targets[0] = desc.render_target;
    state.depth_stencil = desc.depth_stencil;
    state.interface_version = desc.interface_version;
    // ZENABLE defaults to D3DZB_TRUE when a depth buffer is attached at creation
    // (D3DRENDERSTATETYPE page, D3DRS_ZENABLE).
    if (desc.depth_stencil != 0) state.set_render_state(D3DRS_ZENABLE, D3DZB_TRUE);
  }

  const ContextDesc& desc() const noexcept { return desc_; }

  state::StateBlock state;
  state::PipelineKey key;
  state::DrawUniforms uniforms;
  gpu::CommandBuffer commands;
  // PrimitiveRecorder's scratch (src/ddi/primitives.cpp): a recorder lives for one
  // DrawPrimitives2 call, its lists live here so that calls after the first reuse their
  // capacity instead of allocating per call or per draw. Thread: the call's.
  struct RecorderScratch {
    std::vector<std::uint32_t> vertex_numbers;  // the command being recorded
    std::vector<std::uint32_t> rebased;         // the same, relative to the lowest
    std::vector<DWORD> edge_flags;              // INDEXEDTRIANGLELIST's wFlags
  } recorder_scratch;

  std::map<DWORD, StateSet> state_sets;
  bool recording_state_set = false;
  DWORD recording_handle = 0;
  StateSet recording;

 private:
  ContextDesc desc_;
};

}  // namespace dp2::detail
