// The smallest C++ host: dp2::Device + StreamWriter, and the installed version header
// checked against the version find_package reported (EXPECTED_*).
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "dp2/device.h"
#include "dp2/dp2.h"
#include "dp2/stream_writer.h"
#include "dp2/version.h"

static_assert(DP2_VERSION_MAJOR == EXPECTED_MAJOR && DP2_VERSION_MINOR == EXPECTED_MINOR &&
                  DP2_VERSION_PATCH == EXPECTED_PATCH,
              "dp2/version.h does not match the package version");

int main() {
  dp2::Device device;
  if (device.create_surface(1, {dp2::SurfaceKind::kRenderTarget, D3DFMT_X8R8G8B8, 8, 8}) != D3D_OK) return 2;
  ULONG_PTR context = 0;
  if (device.create_context({.interface_version = 3, .render_target = 1}, context) != D3D_OK) return 3;
  dp2::StreamWriter stream;
  stream.clear(D3DCLEAR_TARGET, 0xFF996633u, 1.0f, 0, {});
  dp2::Dp2Call call(stream, {});
  if (call.upload(device, context) != D3D_OK) return 4;
  call.run(device);
  if (call.data.ddrval != D3D_OK) return 5;
  std::uint32_t px = 0;
  std::memcpy(&px, device.surface_bytes(1).data() + 4 * (8 * 3 + 5), sizeof px);
  std::printf("dp2 %s (C API reports %s): pixel (5,3) = %08X\n", DP2_VERSION_STRING, dp2_version_string(),
              static_cast<unsigned>(px));
  return (px & 0x00FFFFFFu) == 0x996633u && dp2_version() == DP2_VERSION ? 0 : 6;
}
