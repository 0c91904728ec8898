// Transform and lighting end to end through dp2::Device (DeviceDesc::transform_and_lighting):
// SETTRANSFORM + SETMATERIAL + lights + an untransformed, lit triangle → a pixel colour
// from the lighting formula; the DX9 stream form (SETSTREAMSOURCE + DRAWPRIMITIVE) on the
// same path; the demo cube.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <span>
#include <vector>

#include "demo_cube.h"
#include "dp2/device.h"
#include "dp2/stream_writer.h"
#include "support/float_env.h"

namespace {

constexpr DWORD kTarget = 0x51, kCommands = 0x7C00, kVertices = 0x7C01;
constexpr std::uint32_t kSize = 32;

dp2::DeviceDesc tnl_device() {
  dp2::DeviceDesc d;
  d.transform_and_lighting = true;
  return d;
}

D3DMATRIX identity() {
  D3DMATRIX m{};
  m._11 = m._22 = m._33 = m._44 = 1.0f;
  return m;
}

std::uint32_t pixel(dp2::Device& device, DWORD surface, std::uint32_t width, int x, int y) {
  std::uint32_t v;
  std::memcpy(&v, device.surface_bytes(surface).data() + (static_cast<std::size_t>(y) * width + x) * 4, 4);
  return v & 0xFFFFFFu;
}

// A light and material whose colour lands on exact 8-bit values: with N·Ldir = 1,
// colour = Cd·Ld = (1, 0.2, 0.6) → (255, 51, 153).
void lit_state(dp2::StreamWriter& w, DWORD world_id) {
  D3DMATERIAL7 material{};
  material.diffuse = {1.0f, 1.0f, 1.0f, 1.0f};
  D3DLIGHT7 light{};
  light.dltType = D3DLIGHT_DIRECTIONAL;
  light.dcvDiffuse = {1.0f, 0.2f, 0.6f, 1.0f};
  light.dvDirection = {0.0f, 0.0f, 1.0f};  // Ldir = (0, 0, −1), the normal's direction
  w.viewport(0, 0, kSize, kSize)
      .zrange(0.0f, 1.0f)
      .clear(D3DCLEAR_TARGET, 0xFF000000u, 1.0f, 0, {})
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .render_state(D3DRS_LIGHTING, TRUE)
      .texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_SELECTARG1)
      .texture_stage_state(0, D3DTSS_COLORARG1, D3DTA_DIFFUSE)
      .set_transform(world_id, identity())
      .set_transform(D3DTS_VIEW, identity())
      .set_transform(D3DTS_PROJECTION, identity())
      .set_material(material)
      .create_light(3)
      .set_light_data(3, light)
      .enable_light(3, true);
}

// A triangle bigger than the frustum (clip space = world space here): clipped to it.
void big_triangle(dp2::VertexWriter& v) {
  const float p[3][2] = {{-1.0f, -1.0f}, {-1.0f, 3.0f}, {3.0f, -1.0f}};
  for (const auto& c : p) v.f(c[0]).f(c[1]).f(0.5f).f(0.0f).f(0.0f).f(-1.0f).end_vertex();
}

}  // namespace

TEST_CASE("tnl device: a lit triangle through a DX7 context") {
  dp2::Device device(tnl_device());
  REQUIRE(device.create_surface(kTarget, {dp2::SurfaceKind::kRenderTarget, D3DFMT_X8R8G8B8, kSize, kSize}) == D3D_OK);
  ULONG_PTR context = 0;
  REQUIRE(device.create_context({.interface_version = 3, .render_target = kTarget}, context) == D3D_OK);
  constexpr DWORD fvf = D3DFVF_XYZ | D3DFVF_NORMAL;
  dp2::StreamWriter w;
  dp2::VertexWriter v{fvf};
  lit_state(w, D3DTRANSFORMSTATE_WORLD_DX7);
  big_triangle(v);
  w.triangle_list(0, 1);
  dp2::Dp2CallDesc desc;
  desc.vertex_type = fvf;
  dp2::Dp2Call call(w, v.bytes(), desc);
  REQUIRE(call.upload(device, context) == D3D_OK);
  call.run(device);
  REQUIRE(call.data.ddrval == D3D_OK);
  // Clipped to x, y ∈ [−1, 1]: the triangle covers the whole 32×32 target.
  CHECK(pixel(device, kTarget, kSize, 16, 16) == 0xFF3399u);
  CHECK(pixel(device, kTarget, kSize, 1, 1) == 0xFF3399u);
  CHECK(pixel(device, kTarget, kSize, 30, 30) == 0xFF3399u);
  CHECK(device.diagnostics().draws_skipped == 0);
}

TEST_CASE("tnl device: the DX9 stream form (SETSTREAMSOURCE, DRAWPRIMITIVE) on the same path") {
  dp2::Device device(tnl_device());
  REQUIRE(device.create_surface(kTarget, {dp2::SurfaceKind::kRenderTarget, D3DFMT_X8R8G8B8, kSize, kSize}) == D3D_OK);
  ULONG_PTR context = 0;
  REQUIRE(device.create_context({.interface_version = 5, .render_target = kTarget}, context) == D3D_OK);
  constexpr DWORD fvf = D3DFVF_XYZ | D3DFVF_NORMAL;
  dp2::StreamWriter w;
  dp2::VertexWriter v{fvf};
  lit_state(w, 256);  // D3DTS_WORLD
  big_triangle(v);
  w.set_vertex_shader(fvf).set_stream_source(0, kVertices, 24).draw_primitive(D3DPT_TRIANGLELIST, 0, 1);
  dp2::Dp2CallDesc desc;
  desc.vertex_type = fvf;
  desc.command_surface = kCommands;
  desc.vertex_surface = kVertices;
  dp2::Dp2Call call(w, v.bytes(), desc);
  REQUIRE(call.upload(device, context) == D3D_OK);
  call.run(device);
  REQUIRE(call.data.ddrval == D3D_OK);
  CHECK(pixel(device, kTarget, kSize, 16, 16) == 0xFF3399u);
}

TEST_CASE("tnl device: a non-TnL device still refuses untransformed vertices") {
  dp2::Device device;
  REQUIRE(device.create_surface(kTarget, {dp2::SurfaceKind::kRenderTarget, D3DFMT_X8R8G8B8, kSize, kSize}) == D3D_OK);
  ULONG_PTR context = 0;
  REQUIRE(device.create_context({.interface_version = 3, .render_target = kTarget}, context) == D3D_OK);
  constexpr DWORD fvf = D3DFVF_XYZ | D3DFVF_NORMAL;
  dp2::StreamWriter w;
  dp2::VertexWriter v{fvf};
  big_triangle(v);
  w.triangle_list(0, 1);
  dp2::Dp2CallDesc desc;
  desc.vertex_type = fvf;
  dp2::Dp2Call call(w, v.bytes(), desc);
  REQUIRE(call.upload(device, context) == D3D_OK);
  call.run(device);
  CHECK(call.data.ddrval != D3D_OK);
}

TEST_CASE("tnl device: the demo cube renders, lit and rotating") {
  dp2::Device device(tnl_device());
  ULONG_PTR context = 0;
  REQUIRE(demo_cube::create(device, context));
  REQUIRE(demo_cube::render(device, context, 0) == D3D_OK);
  const auto w = demo_cube::kWidth, h = demo_cube::kHeight;
  // The cube is centred: the middle pixel is covered (not the clear colour); a corner is not.
  const std::uint32_t centre = pixel(device, demo_cube::kTarget, w, w / 2, h / 2);
  CHECK(centre != (demo_cube::kClearColor & 0xFFFFFFu));
  CHECK(pixel(device, demo_cube::kTarget, w, 2, 2) == (demo_cube::kClearColor & 0xFFFFFFu));
  const auto first = device.surface_bytes(demo_cube::kTarget);
  const std::vector<std::byte> frame0(first.begin(), first.end());
  REQUIRE(demo_cube::render(device, context, 10) == D3D_OK);
  const auto second = device.surface_bytes(demo_cube::kTarget);
  CHECK(std::vector<std::byte>(second.begin(), second.end()) != frame0);
  CHECK(device.diagnostics().draws_skipped == 0);
}

TEST_CASE("tnl device: transform and lighting give the same bytes from a thread with another rounding mode") {
  // Transform, lighting and clipping run on the device's GPU worker, outside the
  // rasterizer, and the worker inherits the floating-point environment of the thread that
  // makes the device. dp2 computes in the default one (rasterizer float_env.h), so a
  // device made and driven from a thread that rounds toward zero and flushes denormals
  // gives the default's bytes. The demo cube's frame is built once, in the default
  // environment: its matrices would round differently in the other and change the input.
  dp2::StreamWriter w;
  dp2::VertexWriter v{demo_cube::kFvf};
  demo_cube::build(w, v, 7);
  auto frame = [&](const dp2::DeviceDesc& desc_in) {
    dp2::Device device(desc_in);
    ULONG_PTR context = 0;
    REQUIRE(demo_cube::create(device, context));
    dp2::Dp2CallDesc desc;
    desc.vertex_type = demo_cube::kFvf;
    desc.command_surface = demo_cube::kCommands;
    desc.vertex_surface = demo_cube::kVertices;
    dp2::Dp2Call call(w, v.bytes(), desc);
    REQUIRE(call.upload(device, context) == D3D_OK);
    call.run(device);
    REQUIRE(call.data.ddrval == D3D_OK);
    device.wait_idle();
    const std::span<const std::byte> bytes = device.surface_bytes(demo_cube::kTarget);
    return std::vector<std::byte>(bytes.begin(), bytes.end());
  };
  for (const unsigned threads : {1u, 2u}) {
    CAPTURE(threads);
    dp2::DeviceDesc desc = tnl_device();
    desc.render_threads = threads;
    const std::vector<std::byte> want = frame(desc);
    std::vector<std::byte> got;
    {
      const dp2::test::HostileFloatEnvironment hostile;
      got = frame(desc);
      CHECK(dp2::test::HostileFloatEnvironment::in_effect());
    }
    CHECK(got == want);
  }
}
