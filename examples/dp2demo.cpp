// dp2demo — `make demo`: renders a few frames of a 640×480 scene (a fogged, textured,
// perspective floor; 300 alpha-blended textured triangles; depth testing) and of a
// rotating, lit, textured cube on a transform-and-lighting device, through
// D3dDrawPrimitives2 calls; writes each frame as a PNG and prints its path.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "demo_cube.h"
#include "demo_scene.h"

int main(int argc, char** argv) {
  const std::filesystem::path out = argc > 1 ? argv[1] : "demo-out";
  constexpr int kFrames = 4;
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  dp2::Device device;
  ULONG_PTR context = 0;
  if (!demo::create(device, context)) {
    std::fprintf(stderr, "dp2demo: could not create the surfaces or the context\n");
    return 1;
  }
  for (int frame = 0; frame < kFrames; ++frame) {
    const auto start = std::chrono::steady_clock::now();
    const HRESULT hr = demo::render(device, context, frame);
    device.wait_idle();  // rendering runs on the GPU worker: time it to completion
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const std::string path = (out / ("frame_" + std::to_string(frame) + ".png")).string();
    std::string error;
    if (hr != D3D_OK || !device.write_png(demo::kTarget, path, false, context, &error)) {
      std::fprintf(stderr, "dp2demo: frame %d failed: ddrval 0x%08X %s\n", frame, static_cast<unsigned>(hr),
                   error.c_str());
      return 1;
    }
    std::printf("%s  (%.1f ms)\n", path.c_str(), ms);
  }
  for (const std::string& line : device.diagnostics().not_rendered()) std::printf("  not rendered yet: %s\n", line.c_str());

  // The cube: untransformed vertices with normals, lit and transformed by dp2.
  dp2::DeviceDesc tnl_desc;
  tnl_desc.transform_and_lighting = true;
  dp2::Device tnl(tnl_desc);
  ULONG_PTR cube_context = 0;
  if (!demo_cube::create(tnl, cube_context)) {
    std::fprintf(stderr, "dp2demo: could not create the cube's surfaces or context\n");
    return 1;
  }
  for (int frame = 0; frame < kFrames; ++frame) {
    const int step = frame * 8;  // a visible turn between the written frames
    const HRESULT hr = demo_cube::render(tnl, cube_context, step);
    const std::string path = (out / ("cube_" + std::to_string(frame) + ".png")).string();
    std::string error;
    if (hr != D3D_OK || !tnl.write_png(demo_cube::kTarget, path, false, cube_context, &error)) {
      std::fprintf(stderr, "dp2demo: cube frame %d failed: ddrval 0x%08X %s\n", frame, static_cast<unsigned>(hr),
                   error.c_str());
      return 1;
    }
    std::printf("%s\n", path.c_str());
  }
  return 0;
}
