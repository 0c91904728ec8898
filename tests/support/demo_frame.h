// One frame of the demo scene on a fresh device made from `desc`, as the target's bytes:
// what the executor and thread-count tests compare.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include "demo_scene.h"

namespace dp2::test {

inline std::vector<std::byte> render_demo_frame(const dp2::DeviceDesc& desc) {
  dp2::Device device(desc);
  ULONG_PTR context = 0;
  REQUIRE(demo::create(device, context));
  REQUIRE(demo::render(device, context, 1) == D3D_OK);
  const auto bytes = device.surface_bytes(demo::kTarget);
  return {bytes.begin(), bytes.end()};
}

}  // namespace dp2::test
