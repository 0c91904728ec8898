// The D3dDrawPrimitives2 call in progress: internal to src/ddi. Its command handlers live
// in one file per group: executor.cpp (the walk, render states, buffer swaps),
// state_commands.cpp (state, targets, clears, palettes), resource_commands.cpp
// (streams, shaders, constants, queries, copies), state_sets.cpp (STATESET).
//
// Thread: the DrawPrimitives2 caller's.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ddi/executor.h"

namespace dp2::ddi {

// Register files a shader-constant command may write; a register + count beyond this is
// outside any D3D9 shader model (vs_3_0 has 256 float registers; DDI caps allow up to 8192).
constexpr std::uint32_t kMaxShaderConstants = 8192;

class Dp2Call {
 public:
  Dp2Call(D3DHAL_DRAWPRIMITIVES2DATA& data, ExecutorEnv& env) : data_(data), env_(env) {}
  void run();

 private:
  // Fails the call at the command whose header starts at stream offset `at`.
  void fail(HRESULT ddrval, std::size_t at) {
    data_.ddrval = ddrval;
    data_.dwErrorOffset = static_cast<DWORD>(data_.dwCommandOffset + at);
  }
  CommandResult execute(const Command& cmd);
  CommandResult state_command(const Command& cmd);     // state_commands.cpp
  CommandResult resource_command(const Command& cmd);  // resource_commands.cpp
  CommandResult state_set(const Command& cmd);  // state_sets.cpp
  void record_into_state_set(const Command& cmd);
  void set_render_state(DWORD state, DWORD value);
  void not_rendered(const Command& cmd) { ++env_.diagnostics.commands_not_rendered[cmd.op]; }
  // Transforms, lights, material and clip planes shape pixels only on a TnL device; on the
  // pre-transformed device they are kept as state and reported as not rendered.
  void vertex_state(const Command& cmd) {
    if (!env_.device.transform_and_lighting) not_rendered(cmd);
  }
  bool known_surface(DWORD handle) const { return handle == 0 || env_.surfaces.find(handle) != nullptr; }
  void count_bad_handle(DWORD handle) {
    if (!known_surface(handle)) ++env_.diagnostics.bad_handles;
  }
  template <class T>
  CommandResult store_constants(std::vector<T>& file, DWORD first, DWORD count, std::span<const std::byte> data);

  D3DHAL_DRAWPRIMITIVES2DATA& data_;
  ExecutorEnv& env_;
  DWORD fvf_ = 0;
  std::uint32_t stride_ = 0;
};

}  // namespace dp2::ddi
