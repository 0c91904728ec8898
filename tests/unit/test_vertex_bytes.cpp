// A vertex's D3DCOLOR fields read as channels in [0, 1] (vertex_bytes.h): each byte q is
// q / 255, the division the table was built from, for every byte and at run time too.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>

#include "vertex/vertex_bytes.h"

TEST_CASE("vertex bytes: the q / 255 table is the run-time division for every byte") {
  volatile float divisor = 255.0f;  // keeps the division at run time
  for (std::uint32_t q = 0; q < 256; ++q) {
    CAPTURE(q);
    CHECK(std::bit_cast<std::uint32_t>(dp2::vertex::kUnorm8[q]) ==
          std::bit_cast<std::uint32_t>(static_cast<float>(q) / divisor));
  }
}

TEST_CASE("vertex bytes: a D3DCOLOR is 0xAARRGGBB, each channel its byte / 255") {
  const dp2::raster::Color c = dp2::vertex::color_from_argb(0x80FF0040u);
  CHECK(c.r == 1.0f);
  CHECK(c.g == 0.0f);
  CHECK(c.b == 64.0f / 255.0f);
  CHECK(c.a == 128.0f / 255.0f);
}
