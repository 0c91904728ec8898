// dp2exec — run one raw DP2 command buffer through a fresh dp2::Device and report what
// the driver said.
//
//   dp2exec commands.bin [vertices.bin] [--fvf 0x1c4] [--stride 32] [--flags 0]
//           [--command-offset 0] [--command-length N] [--vertex-offset 0]
//           [--vertex-length N] [--user-mem] [--dx 7] [--tnl]
//
// Each file is loaded into a heap buffer of exactly its size, and the surfaces are made
// exactly as large as the files, so an AddressSanitizer build catches any read past them.
// Exit status: 0 when ddrval is D3D_OK, 1 when the driver failed the call, 2 on usage or
// file errors.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dp2/device.h"
#include "dp2/disasm.h"
#include "dp2/stream_writer.h"

namespace {

constexpr DWORD kRenderTarget = 1;
constexpr DWORD kCommandSurface = 0x100;
constexpr DWORD kVertexSurface = 0x101;

struct File {
  std::unique_ptr<std::byte[]> data;  // exactly `size` bytes (none when size is 0)
  std::size_t size = 0;
  std::span<const std::byte> bytes() const { return {data.get(), size}; }
};

std::optional<File> load(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    std::cerr << "dp2exec: cannot open '" << path << "'\n";
    return std::nullopt;
  }
  const std::streamoff end = in.tellg();
  if (end < 0) {
    std::cerr << "dp2exec: cannot read the size of '" << path << "'\n";
    return std::nullopt;
  }
  File f;
  f.size = static_cast<std::size_t>(end);
  if (f.size) f.data.reset(new std::byte[f.size]);
  in.seekg(0);
  if (f.size && !in.read(reinterpret_cast<char*>(f.data.get()), static_cast<std::streamsize>(f.size))) {
    std::cerr << "dp2exec: cannot read '" << path << "'\n";
    return std::nullopt;
  }
  return f;
}

// DirectX version (3, 5, 6, 7, 8, 9) → D3DHAL_CONTEXTCREATEDATA.dwhContext code (0–5).
std::optional<std::uint32_t> interface_code(unsigned dx) {
  switch (dx) {
    case 3: return 0;
    case 5: return 1;
    case 6: return 2;
    case 7: return 3;
    case 8: return 4;
    case 9: return 5;
    default: return std::nullopt;
  }
}

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", static_cast<unsigned>(v));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Run a raw D3D DrawPrimitives2 command buffer through dp2"};
  std::string command_path, vertex_path;
  DWORD fvf = D3DFVF_TLVERTEX, flags = 0;
  std::uint32_t stride = 0;
  std::optional<std::uint32_t> command_offset, command_length, vertex_offset, vertex_length;
  bool user_mem = false, tnl = false;
  unsigned dx = 7;
  std::size_t max_records = 16;

  app.add_option("commands", command_path, "raw command-buffer file (D3DHAL_DP2COMMAND stream)")->required();
  app.add_option("vertices", vertex_path, "raw vertex-buffer file");
  app.add_option("--fvf", fvf, "dwVertexType (FVF code; 0x prefix for hex)")->capture_default_str();
  app.add_option("--stride", stride, "dwVertexSize; 0 = the FVF's stride")->capture_default_str();
  app.add_option("--flags", flags, "dwFlags (D3DHALDP2_*)")->capture_default_str();
  app.add_option("--command-offset", command_offset, "dwCommandOffset (default 0)");
  app.add_option("--command-length", command_length, "dwCommandLength (default: file size minus offset)");
  app.add_option("--vertex-offset", vertex_offset, "dwVertexOffset in bytes (default 0)");
  app.add_option("--vertex-length", vertex_length, "dwVertexLength in vertices (default: what the file holds)");
  app.add_flag("--user-mem", user_mem, "pass vertices as user memory (D3DHALDP2_USERMEMVERTICES)");
  app.add_option("--dx", dx, "runtime interface: DirectX 3, 5, 6, 7, 8 or 9")->capture_default_str();
  app.add_flag("--tnl", tnl, "create a transform-and-lighting device");
  app.add_option("--max-records", max_records, "records listed per command")->capture_default_str();
  std::string png_path;
  std::uint32_t width = 640, height = 480;
  app.add_option("--png", png_path, "write the render target to this PNG file after the call");
  app.add_option("--width", width, "render-target width")->capture_default_str()->check(CLI::Range(1u, 16384u));
  app.add_option("--height", height, "render-target height")->capture_default_str()->check(CLI::Range(1u, 16384u));
  CLI11_PARSE(app, argc, argv);

  const auto interface_version = interface_code(dx);
  if (!interface_version) {
    std::cerr << "dp2exec: --dx must be 3, 5, 6, 7, 8 or 9\n";
    return 2;
  }
  const auto commands = load(command_path);
  if (!commands) return 2;
  std::optional<File> vertices;
  if (!vertex_path.empty()) {
    vertices = load(vertex_path);
    if (!vertices) return 2;
  }

  const std::uint32_t cmd_offset = command_offset.value_or(0);
  if (cmd_offset > commands->size) {
    std::cerr << "dp2exec: --command-offset " << cmd_offset << " is past the end of '" << command_path << "' ("
              << commands->size << " bytes)\n";
    return 2;
  }
  const std::uint32_t cmd_length = command_length.value_or(static_cast<std::uint32_t>(commands->size - cmd_offset));
  if (std::size_t{cmd_offset} + cmd_length > commands->size)
    std::cerr << "dp2exec: note: dwCommandLength runs past the file; the driver should refuse it\n";
  const std::uint32_t effective_stride = stride ? stride : dp2::fvf_stride(fvf);
  const std::uint32_t vb_offset = vertex_offset.value_or(0);
  std::uint32_t vb_length = 0;
  if (vertex_length) {
    vb_length = *vertex_length;
  } else if (vertices && effective_stride && vertices->size > vb_offset) {
    vb_length = static_cast<std::uint32_t>((vertices->size - vb_offset) / effective_stride);
  }

  dp2::DeviceDesc device_desc;
  device_desc.transform_and_lighting = tnl;
  dp2::Device device(device_desc);

  dp2::SurfaceDesc rt;
  rt.kind = dp2::SurfaceKind::kRenderTarget;
  rt.format = D3DFMT_X8R8G8B8;
  rt.width = width;
  rt.height = height;
  if (HRESULT hr = device.create_surface(kRenderTarget, rt); hr != D3D_OK) {
    std::cerr << "dp2exec: creating the render target failed: " << hex(static_cast<std::uint32_t>(hr)) << "\n";
    return 2;
  }
  dp2::SurfaceDesc cmd;
  cmd.kind = dp2::SurfaceKind::kCommandBuffer;
  cmd.size_bytes = commands->size ? commands->size : 1;
  if (HRESULT hr = device.create_surface(kCommandSurface, cmd); hr != D3D_OK) {
    std::cerr << "dp2exec: creating the command surface failed: " << hex(static_cast<std::uint32_t>(hr)) << "\n";
    return 2;
  }
  std::ranges::copy(commands->bytes(), device.surface_bytes(kCommandSurface).begin());
  const bool vertex_surface = vertices && !user_mem && vertices->size > 0;
  if (vertex_surface) {
    dp2::SurfaceDesc vb;
    vb.kind = dp2::SurfaceKind::kVertexBuffer;
    vb.size_bytes = vertices->size;
    if (HRESULT hr = device.create_surface(kVertexSurface, vb); hr != D3D_OK) {
      std::cerr << "dp2exec: creating the vertex surface failed: " << hex(static_cast<std::uint32_t>(hr)) << "\n";
      return 2;
    }
    std::ranges::copy(vertices->bytes(), device.surface_bytes(kVertexSurface).begin());
  }
  ULONG_PTR context = 0;
  dp2::ContextDesc ctx;
  ctx.interface_version = *interface_version;
  ctx.render_target = kRenderTarget;
  if (HRESULT hr = device.create_context(ctx, context); hr != D3D_OK) {
    std::cerr << "dp2exec: creating the context failed: " << hex(static_cast<std::uint32_t>(hr)) << "\n";
    return 2;
  }

  std::vector<DWORD> render_states(D3DHAL_MAX_RSTATES, 0);
  D3DHAL_DRAWPRIMITIVES2DATA data{};
  data.dwhContext = context;
  data.dwFlags = flags | (user_mem ? D3DHALDP2_USERMEMVERTICES : 0u);
  data.dwVertexType = fvf;
  data.lpDDCommands = kCommandSurface;
  data.dwCommandOffset = cmd_offset;
  data.dwCommandLength = cmd_length;
  if (user_mem)
    data.lpVertices = vertices ? static_cast<LPVOID>(vertices->data.get()) : nullptr;
  else
    data.lpDDVertex = vertex_surface ? kVertexSurface : 0;
  data.dwVertexOffset = vb_offset;
  data.dwVertexLength = vb_length;
  data.lpdwRStates = render_states.data();
  data.dwVertexSize = stride;
  const DWORD handled = device.DrawPrimitives2(data);

  const HRESULT ddrval = data.ddrval;
  const std::string_view name = dp2::hresult_name(ddrval);
  std::cout << "DrawPrimitives2 returned " << handled << (handled == DDHAL_DRIVER_HANDLED ? " (DDHAL_DRIVER_HANDLED)" : "")
            << "\nddrval        " << hex(static_cast<std::uint32_t>(ddrval)) << " (" << (name.empty() ? "?" : name)
            << ")\ndwErrorOffset " << data.dwErrorOffset << "\n";
  for (const std::string& line : device.diagnostics().not_rendered()) std::cout << "not rendered: " << line << "\n";

  // The listing covers the part of [offset, offset + length) the file holds.
  const std::size_t listed = std::min<std::size_t>(cmd_length, commands->size - cmd_offset);
  dp2::DisasmOptions opt;
  opt.alignment_base = cmd_offset;
  opt.fvf = fvf;
  opt.stride = stride;
  opt.max_records = max_records;
  std::cout << "\n" << dp2::disassemble(commands->bytes().subspan(cmd_offset, listed), opt);
  if (!png_path.empty()) {
    std::string error;
    if (!device.write_png(kRenderTarget, png_path, false, context, &error)) {
      std::cerr << "dp2exec: writing '" << png_path << "' failed: " << error << "\n";
      return 2;
    }
    std::cout << "render target written to " << png_path << "\n";
  }
  return ddrval == D3D_OK ? 0 : 1;
}
