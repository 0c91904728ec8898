// The shortest dp2 program: build a DrawPrimitives2 stream with the stream writer, run it
// on a device, and write the render target to a PNG.
#include <cstdio>

#include "dp2/device.h"
#include "dp2/stream_writer.h"

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "hello_triangle.png";
  constexpr DWORD kTarget = 1;
  dp2::Device device;
  device.create_surface(kTarget, {dp2::SurfaceKind::kRenderTarget, D3DFMT_X8R8G8B8, 256, 256});
  ULONG_PTR context = 0;
  device.create_context({.interface_version = 3, .render_target = kTarget}, context);

  dp2::VertexWriter vertices(D3DFVF_XYZRHW | D3DFVF_DIFFUSE);
  vertices.tl(128, 24, 0.5f, 1, 0xFFFF0000).tl(232, 224, 0.5f, 1, 0xFF00FF00).tl(24, 224, 0.5f, 1, 0xFF0000FF);
  dp2::StreamWriter stream;
  stream.viewport(0, 0, 256, 256).clear(D3DCLEAR_TARGET, 0xFF202020, 1.0f, 0, {}).triangle_list(0, 1);

  dp2::Dp2Call call(stream, vertices.bytes(), {.vertex_type = D3DFVF_XYZRHW | D3DFVF_DIFFUSE});
  call.upload(device, context);
  call.run(device);
  std::printf("ddrval 0x%08X\n", static_cast<unsigned>(call.data.ddrval));
  return device.write_png(kTarget, path) ? 0 : 1;
}
