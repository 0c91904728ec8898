// D3dDrawPrimitives2 after the device has found the context and checked the flip state:
// locate the command stream and vertices, check the FVF, run every command in order.
// The page's steps and the choices it leaves open are listed in docs/decisions.md.
//
// Thread: the caller's (the thread calling Device::DrawPrimitives2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "ddi/decoder.h"
#include "device/context.h"
#include "device/surface_table.h"
#include "dp2/device.h"

namespace dp2::ddi {

struct ExecutorEnv {
  detail::SurfaceTable& surfaces;
  detail::Context& context;
  Diagnostics& diagnostics;
  const UnknownCommandCallback& unknown_command;
  const DeviceDesc& device;
};

void execute_draw_primitives2(D3DHAL_DRAWPRIMITIVES2DATA& data, ExecutorEnv& env);
// The D3DHALDP2_SWAP*BUFFER requests of a call that succeeded, once its records are
// submitted (executor.cpp).
void swap_buffers(const D3DHAL_DRAWPRIMITIVES2DATA& data, detail::SurfaceTable& surfaces);

// True for the opcodes that draw (the 15 DX6/7 forms and the DX8/9 stream draws).
bool is_primitive(std::uint8_t op) noexcept;

// A window of vertices: vertex v lives at bytes[base + v × stride]. Every access is
// checked against both the bytes and the vertex limit the caller declared.
struct VertexWindow {
  std::span<const std::byte> bytes;
  std::int64_t base = 0;  // may be negative (DRAWINDEXEDPRIMITIVE2's BaseVertexOffset)
  std::uint32_t stride = 0;
  std::uint64_t max_vertices = UINT64_MAX;  // dwVertexLength for the legacy buffer
  DWORD fvf = 0;
  // The vertex buffer surface `bytes` is and its instance, or 0 (user memory, or a
  // surface of another kind): draws from a vertex buffer leave their vertices there
  // (DrawRecord).
  DWORD buffer = 0;
  std::uint32_t buffer_allocation = 0;

  [[nodiscard]] bool contains(std::uint64_t v) const noexcept {
    if (stride == 0 || v >= max_vertices || v > (std::uint64_t{1} << 40)) return false;
    const std::int64_t at = base + static_cast<std::int64_t>(v) * stride;
    return at >= 0 && static_cast<std::uint64_t>(at) + stride <= bytes.size();
  }
};

// Outcome of one command: D3D_OK, or the ddrval to fail the call with.
using CommandResult = HRESULT;

// Primitive opcodes → draw records (primitives.cpp). `cmd` was accepted by decode_one.
class PrimitiveRecorder {
 public:
  // `user_stride`: the stride dwVertexLength counts in for user memory (dwVertexSize, or
  // the FVF's stride when it is 0), read before ddrval — its union twin — is written.
  PrimitiveRecorder(ExecutorEnv& env, const D3DHAL_DRAWPRIMITIVES2DATA& data, DWORD fvf, std::uint32_t stride,
                    std::uint32_t user_stride)
      : env_(env), data_(data), fvf_(fvf), stride_(stride), user_stride_(user_stride) {}

  CommandResult record(const Command& cmd);

 private:
  CommandResult legacy(const Command& cmd);
  CommandResult immediate(const Command& cmd);
  CommandResult stream_draw(const Command& cmd);
  std::optional<VertexWindow> legacy_window();
  std::optional<VertexWindow> stream0_window(bool require_fvf);
  std::optional<std::span<const std::byte>> user_memory(std::uint32_t stream_stride) const;
  // A draw of `count` consecutive vertices from `first` (absolute within the window).
  CommandResult emit_range(const Command& cmd, const VertexWindow& window, gpu::Topology topology,
                           std::uint32_t primitives, std::uint64_t first, std::uint64_t count,
                           std::span<const DWORD> edge_flags = {});
  // A draw through a list of vertex numbers (absolute within the window).
  CommandResult emit_indexed(const Command& cmd, const VertexWindow& window, gpu::Topology topology,
                             std::uint32_t primitives, std::span<const std::uint32_t> vertex_numbers,
                             std::span<const DWORD> edge_flags = {});
  CommandResult emit_block(const Command& cmd, const VertexWindow& window, gpu::Topology topology,
                           std::uint32_t primitives, std::uint32_t first, std::uint32_t count,
                           std::span<const std::uint32_t> indices, std::span<const DWORD> edge_flags);
  CommandResult emit_inline(const Command& cmd, gpu::Topology topology, std::uint32_t primitives,
                            std::span<const std::byte> vertices, std::span<const DWORD> edge_flags);
  std::uint32_t current_state();

  ExecutorEnv& env_;
  const D3DHAL_DRAWPRIMITIVES2DATA& data_;
  DWORD fvf_;
  std::uint32_t stride_;
  std::uint32_t user_stride_;
  std::optional<VertexWindow> legacy_;  // located on first use only (D3dDrawPrimitives2 page)
  bool legacy_failed_ = false;
  std::vector<std::uint32_t>& scratch_ = env_.context.recorder_scratch.rebased;
  std::vector<std::uint32_t>& indices_ = env_.context.recorder_scratch.vertex_numbers;
  std::vector<DWORD>& edges_ = env_.context.recorder_scratch.edge_flags;
};

// Vertices a primitive of `topology` with `count` primitives uses, in 64 bits (no overflow).
std::uint64_t vertices_for(gpu::Topology topology, std::uint64_t count) noexcept;

}  // namespace dp2::ddi
