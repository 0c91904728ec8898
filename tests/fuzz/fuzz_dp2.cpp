// libFuzzer target: one D3dDrawPrimitives2 setup per input (format in fuzz_input.h), run
// on a fresh dp2::Device twice — without and then with an unknown-command callback.
//
// Invariants checked (ARCHITECTURE.md: "a bad stream gets the DDI's error, never a crash,
// never an out-of-bounds read"):
//   * DrawPrimitives2 returns DDHAL_DRIVER_HANDLED;
//   * on failure, dwErrorOffset lies in [dwCommandOffset, dwCommandOffset + dwCommandLength];
//   * ASan/UBSan stay quiet: the command and vertex surfaces are exactly as large as the
//     bytes given, and user-memory vertices live in a heap block of exactly that size.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "dp2/device.h"
#include "dp2/stream_writer.h"
#include "fuzz_input.h"

namespace {

constexpr DWORD kRenderTarget = 1;
constexpr DWORD kCommandSurface = 0x100;
constexpr DWORD kVertexSurface = 0x101;

[[noreturn]] void invariant_failed(const char* what, const D3DHAL_DRAWPRIMITIVES2DATA& d) {
  std::fprintf(stderr,
               "dp2_fuzz_dp2: invariant failed: %s (ddrval 0x%08x, dwErrorOffset %u, dwCommandOffset %u, "
               "dwCommandLength %u)\n",
               what, static_cast<unsigned>(d.ddrval), d.dwErrorOffset, d.dwCommandOffset, d.dwCommandLength);
  std::abort();
}

HRESULT callback(dp2::fuzz::CallbackPolicy policy, std::span<const std::byte> rest, std::size_t& consumed) {
  using P = dp2::fuzz::CallbackPolicy;
  switch (policy) {
    case P::kSkipHeader: consumed = rest.size() < 4 ? rest.size() : 4; return D3D_OK;
    case P::kSkipAll: consumed = rest.size(); return D3D_OK;
    case P::kFail: return D3DERR_COMMAND_UNPARSED;
    case P::kConsumeZero: consumed = 0; return D3D_OK;
    case P::kConsumeTooMuch: consumed = rest.size() + 1; return D3D_OK;
    case P::kSkipByte: consumed = rest.size() < 2 ? rest.size() : 2; return D3D_OK;
  }
  consumed = rest.size();
  return D3D_OK;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* input, std::size_t size) {
  using namespace dp2::fuzz;
  const std::span<const std::uint8_t> in(input, size);
  const FuzzHeader h = read_header(in);
  const std::span<const std::uint8_t> rest = size > kHeaderSize ? in.subspan(kHeaderSize) : std::span<const std::uint8_t>{};
  const std::size_t command_size = h.command_size < rest.size() ? h.command_size : rest.size();
  const auto commands = rest.first(command_size);
  const auto vertex_bytes = rest.subspan(command_size);

  dp2::DeviceDesc device_desc;
  device_desc.transform_and_lighting = (h.mode & kTransformAndLighting) != 0;
  // A small segment and one render thread per input: each run builds a fresh device, so
  // keep it cheap to get more inputs through in the CI minute.
  device_desc.video_memory_size = std::uint64_t{4} << 20;
  device_desc.render_threads = 1;
  dp2::Device device(device_desc);

  dp2::SurfaceDesc rt;
  rt.kind = dp2::SurfaceKind::kRenderTarget;
  rt.format = D3DFMT_X8R8G8B8;
  rt.width = 64;
  rt.height = 64;
  if (device.create_surface(kRenderTarget, rt) != D3D_OK) std::abort();
  dp2::ContextDesc ctx;
  ctx.interface_version = h.dx % 6;
  ctx.render_target = kRenderTarget;
  ULONG_PTR context = 0;
  if (device.create_context(ctx, context) != D3D_OK) std::abort();

  // Command surface: command_offset zero bytes, then exactly the stream.
  const std::size_t cmd_surface_size = h.command_offset + command_size;
  dp2::SurfaceDesc cmd;
  cmd.kind = dp2::SurfaceKind::kCommandBuffer;
  cmd.size_bytes = cmd_surface_size ? cmd_surface_size : 1;
  if (device.create_surface(kCommandSurface, cmd) != D3D_OK) std::abort();
  {
    auto mem = device.surface_bytes(kCommandSurface);
    if (mem.size() < cmd_surface_size) std::abort();
    if (command_size) std::memcpy(mem.data() + h.command_offset, commands.data(), command_size);
  }

  // Vertices: vertex_offset zero bytes, then the vertex bytes; a VB surface or a heap
  // block of exactly that size (user memory).
  const bool user_mem = (h.mode & kUserMemVertices) != 0;
  const std::size_t vb_size = h.vertex_offset + vertex_bytes.size();
  std::unique_ptr<std::byte[]> user_memory;
  bool have_vb = false;
  if (!vertex_bytes.empty()) {
    if (user_mem) {
      user_memory.reset(new std::byte[vb_size]());
      std::memcpy(user_memory.get() + h.vertex_offset, vertex_bytes.data(), vertex_bytes.size());
    } else if (!(h.mode & kNoVertexSurface)) {
      dp2::SurfaceDesc vb;
      vb.kind = dp2::SurfaceKind::kVertexBuffer;
      vb.size_bytes = vb_size;
      if (device.create_surface(kVertexSurface, vb) != D3D_OK) std::abort();
      auto mem = device.surface_bytes(kVertexSurface);
      if (mem.size() < vb_size) std::abort();
      std::memcpy(mem.data() + h.vertex_offset, vertex_bytes.data(), vertex_bytes.size());
      have_vb = true;
    }
  }

  // dwVertexLength: what the bytes hold, nudged by the delta. With user memory the driver
  // cannot know the block's size and must trust dwVertexLength (the runtime's promise),
  // so the delta may only shrink it there; a VB surface's size is known and checked.
  const std::uint32_t stride = h.stride ? h.stride : dp2::fvf_stride(h.fvf);
  const std::int64_t held = stride ? static_cast<std::int64_t>(vertex_bytes.size() / stride) : 0;
  std::int64_t declared = held + h.vertex_length_delta;
  if (user_mem && declared > held) declared = held;
  if (declared < 0) declared = 0;
  std::int64_t command_length = static_cast<std::int64_t>(command_size);
  if (h.mode & kCommandLengthDelta) command_length += h.command_length_delta;
  if (command_length < 0) command_length = 0;

  std::vector<DWORD> render_states(D3DHAL_MAX_RSTATES, 0);
  auto fill = [&](D3DHAL_DRAWPRIMITIVES2DATA& d) {
    d = {};
    d.dwhContext = context;
    d.dwFlags = h.dp2_flags | (user_mem ? D3DHALDP2_USERMEMVERTICES : 0u);
    if (!user_mem) d.dwFlags &= ~DWORD{D3DHALDP2_USERMEMVERTICES};
    d.dwVertexType = h.fvf;
    d.lpDDCommands = kCommandSurface;
    d.dwCommandOffset = h.command_offset;
    d.dwCommandLength = static_cast<DWORD>(command_length);
    if (user_mem)
      d.lpVertices = user_memory.get();
    else
      d.lpDDVertex = have_vb ? kVertexSurface : 0;
    d.dwVertexOffset = h.vertex_offset;
    d.dwVertexLength = static_cast<DWORD>(declared);
    d.lpdwRStates = render_states.data();
    d.dwVertexSize = h.stride;
  };
  auto check = [](const D3DHAL_DRAWPRIMITIVES2DATA& d, DWORD handled) {
    if (handled != DDHAL_DRIVER_HANDLED) invariant_failed("DrawPrimitives2 did not return DDHAL_DRIVER_HANDLED", d);
    if (d.ddrval != D3D_OK) {
      const std::uint64_t lo = d.dwCommandOffset;
      const std::uint64_t hi = lo + d.dwCommandLength;
      if (d.dwErrorOffset < lo || d.dwErrorOffset > hi) invariant_failed("dwErrorOffset outside the stream", d);
    }
  };

  D3DHAL_DRAWPRIMITIVES2DATA data;
  fill(data);
  check(data, device.DrawPrimitives2(data));

  const auto policy = static_cast<CallbackPolicy>(((h.mode & kCallbackMask) >> kCallbackShift) % 6);
  device.set_unknown_command_callback(
      [policy](std::span<const std::byte> r, std::size_t& consumed) { return callback(policy, r, consumed); });
  fill(data);
  check(data, device.DrawPrimitives2(data));
  return 0;
}
