// The `make demo` scene, checked by probe colours at known places. Each expected value is
// computed from the D3D rule that produces it, written beside it.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "demo_scene.h"

namespace {

std::uint32_t pixel(dp2::Device& device, DWORD surface, int x, int y, std::uint32_t pitch) {
  std::uint32_t v;
  std::memcpy(&v, device.surface_bytes(surface).data() + static_cast<std::size_t>(y) * pitch + 4 * x, 4);
  return v;
}

int channel(std::uint32_t argb, int shift) { return static_cast<int>((argb >> shift) & 0xFF); }

}  // namespace

TEST_CASE("demo scene: probe colours of frame 0") {
  dp2::Device device;
  ULONG_PTR context = 0;
  REQUIRE(demo::create(device, context));
  REQUIRE(demo::render(device, context, 0) == D3D_OK);
  const std::uint32_t pitch = demo::kWidth * 4;

  // Sky: nothing covers (635, 5) (confetti reach x ≤ 540 + 28, y ≥ 40 − 28), so it keeps
  // the clear colour 0x3060A0.
  CHECK((pixel(device, demo::kTarget, 635, 5, pitch) & 0xFFFFFF) == 0x3060A0);

  // The marker: opaque red, COLOROP SELECTARG2 (diffuse), no fog, no blend → 0xFF0000.
  CHECK((pixel(device, demo::kTarget, demo::kMarkerLeft + 5, demo::kMarkerTop + 20, pitch) & 0xFFFFFF) == 0xFF0000);

  // The overlay: SRCALPHA / INVSRCALPHA with source (0, 0, 1, α = 128/255) over red (1, 0, 0):
  //   r = 0·α + 1·(1 − α) = 127/255 → 0x7F;  g = 0;  b = 1·α = 128/255 → 0x80.
  CHECK((pixel(device, demo::kTarget, demo::kOverlayLeft + 10, demo::kMarkerTop + 20, pitch) & 0xFFFFFF) == 0x7F0080);

  // Both markers are at z = 0.05 with ZWRITEENABLE: D24S8 stores round(0.05 · (2^24 − 1))
  // in bits 8–31.
  const std::uint32_t depth = pixel(device, demo::kDepth, demo::kMarkerLeft + 5, demo::kMarkerTop + 20, pitch) >> 8;
  CHECK(depth == static_cast<std::uint32_t>(std::floor(0.05 * 16777215.0 + 0.5)));

  // The fogged floor right of the confetti, near the horizon (600, 220): table fog LINEAR
  // on z with start 0.6, end 1.0. The floor there lies between rows at eye distance 16
  // (z = 0.9375) and 14.125 (z ≈ 0.9292), so f = (1 − z)/0.4 ∈ [0.156, 0.177], and the
  // colour is f·texel + (1 − f)·fog with fog = (0x80, 0x90, 0xA0) and the minified texel
  // between orange (255, 128, 0) and white (255, 255, 255). Each channel therefore lies in
  // [min(f·t + (1 − f)·fog), max(...)] over those ranges.
  const std::uint32_t floor = pixel(device, demo::kTarget, 600, 220, pitch);
  auto within = [](int v, double lo, double hi) { return v >= std::floor(lo) && v <= std::ceil(hi); };
  CHECK(within(channel(floor, 16), 0.156 * 255 + 0.844 * 128, 0.177 * 255 + 0.823 * 128));
  CHECK(within(channel(floor, 8), 0.156 * 128 + 0.844 * 144, 0.177 * 255 + 0.823 * 144));
  CHECK(within(channel(floor, 0), 0.177 * 0 + 0.823 * 160, 0.156 * 255 + 0.844 * 160));
}

TEST_CASE("demo scene: 1 and 2 render threads give the same bytes") {
  std::vector<std::byte> images[2];
  for (unsigned threads = 1; threads <= 2; ++threads) {
    dp2::Device device;
    device.set_render_threads(threads);
    ULONG_PTR context = 0;
    REQUIRE(demo::create(device, context));
    REQUIRE(demo::render(device, context, 2) == D3D_OK);
    const auto bytes = device.surface_bytes(demo::kTarget);
    images[threads - 1].assign(bytes.begin(), bytes.end());
  }
  CHECK(images[0] == images[1]);
}
