// Capture → replay: a session drawn with StreamWriter over several calls (vertex buffers
// uploaded through surface_bytes, user-memory vertices, a LockAsync Discard + Rename, two
// flips) is recorded, replayed into a fresh device, and every frame must match byte for
// byte — with one render thread and with several. Unknown chunks are skipped.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "dp2/capture.h"
#include "dp2/device.h"
#include "dp2/stream_writer.h"

namespace {

constexpr DWORD kFront = 1, kBack = 2, kVB = 0x10, kCmd = 0x20;
constexpr std::uint32_t kSize = 64;
constexpr DWORD kFvf = D3DFVF_XYZRHW | D3DFVF_DIFFUSE;

std::string temp_path(const char* name) {
  // One file per process: ctest runs each test case as its own process, in parallel.
  return (std::filesystem::temp_directory_path() / (std::string("dp2_") + name + "_" + std::to_string(::getpid()) + ".dp2c"))
      .string();
}

std::vector<std::byte> bytes_of(dp2::Device& d, DWORD h) {
  const auto s = d.surface_bytes(h);
  return {s.begin(), s.end()};
}

// One DrawPrimitives2 through the shared command surface (re-uploaded each call).
HRESULT draw(dp2::Device& dev, ULONG_PTR ctx, const dp2::StreamWriter& w, std::span<const std::byte> user_vertices = {}) {
  const auto cmd = dev.surface_bytes(kCmd);
  REQUIRE(cmd.size() >= w.size());
  std::memcpy(cmd.data(), w.bytes().data(), w.size());
  D3DHAL_DRAWPRIMITIVES2DATA d{};
  d.dwhContext = ctx;
  d.dwVertexType = kFvf;
  d.lpDDCommands = kCmd;
  d.dwCommandLength = static_cast<DWORD>(w.size());
  if (!user_vertices.empty()) {
    d.dwFlags = D3DHALDP2_USERMEMVERTICES;
    d.lpVertices = const_cast<std::byte*>(user_vertices.data());
    d.dwVertexLength = static_cast<DWORD>(user_vertices.size() / dp2::fvf_stride(kFvf));
  } else {
    d.lpDDVertex = kVB;
    d.dwVertexLength = 6;
  }
  d.dwVertexSize = dp2::fvf_stride(kFvf);
  dev.DrawPrimitives2(d);
  return d.ddrval;
}

struct Session {
  std::vector<std::vector<std::byte>> frames;  // the front buffer after each flip
  std::vector<std::byte> back;                 // the back buffer at the end
};

// Records the session into `path`.
Session record(const std::string& path) {
  Session out;
  dp2::Device dev;
  std::string error;
  auto rec = dp2::start_capture(dev, path, &error);
  REQUIRE_MESSAGE(rec, error);

  REQUIRE(dev.create_surface(kFront, {dp2::SurfaceKind::kRenderTarget, D3DFMT_X8R8G8B8, kSize, kSize}) == D3D_OK);
  REQUIRE(dev.create_surface(kBack, {dp2::SurfaceKind::kRenderTarget, D3DFMT_X8R8G8B8, kSize, kSize}) == D3D_OK);
  dp2::SurfaceDesc vb{dp2::SurfaceKind::kVertexBuffer};
  vb.size_bytes = 6 * dp2::fvf_stride(kFvf);
  vb.explicit_vertex_buffer = true;
  REQUIRE(dev.create_surface(kVB, vb) == D3D_OK);
  dp2::SurfaceDesc cmd{dp2::SurfaceKind::kCommandBuffer};
  cmd.size_bytes = 4096;
  REQUIRE(dev.create_surface(kCmd, cmd) == D3D_OK);
  const DWORD chain_surfaces[] = {kFront, kBack};
  DWORD chain = 0;
  REQUIRE(dev.create_flip_chain(chain_surfaces, chain) == S_OK);
  ULONG_PTR ctx = 0;
  REQUIRE(dev.create_context({.interface_version = 3, .render_target = kBack}, ctx) == D3D_OK);

  // Frame 0: vertices uploaded through surface_bytes, a clear, two draws (one from user
  // memory), a flip.
  dp2::VertexWriter v(kFvf);
  v.tl(4, 4, 0.5f, 1, 0xFFFF0000).tl(60, 8, 0.5f, 1, 0xFF00FF00).tl(10, 58, 0.5f, 1, 0xFF0000FF);
  v.tl(30, 30, 0.5f, 1, 0xFFFFFF00).tl(62, 34, 0.5f, 1, 0xFFFFFF00).tl(40, 62, 0.5f, 1, 0xFF00FFFF);
  std::memcpy(dev.surface_bytes(kVB).data(), v.bytes().data(), v.bytes().size());
  dp2::StreamWriter a;
  a.viewport(0, 0, kSize, kSize).clear(D3DCLEAR_TARGET, 0xFF102030, 1.0f, 0, {}).triangle_list(0, 1);
  CHECK(draw(dev, ctx, a) == D3D_OK);
  dp2::StreamWriter b;
  b.render_state(D3DRENDERSTATE_SHADEMODE, D3DSHADE_FLAT).triangle_list(3, 1);
  CHECK(draw(dev, ctx, b) == D3D_OK);
  dp2::VertexWriter um(kFvf);
  um.tl(0, 40, 0.5f, 1, 0xFFFFFFFF).tl(20, 40, 0.5f, 1, 0xFFFFFFFF).tl(0, 63, 0.5f, 1, 0xFF808080);
  dp2::StreamWriter c;
  c.render_state(D3DRENDERSTATE_SHADEMODE, D3DSHADE_GOURAUD).triangle_list(0, 1);
  CHECK(draw(dev, ctx, c, um.bytes()) == D3D_OK);
  REQUIRE(dev.Flip(chain) == S_OK);
  dev.wait_idle();
  dp2::FrontBuffer fb;
  REQUIRE(dev.poll_frame(chain, fb));
  out.frames.push_back(bytes_of(dev, kFront));

  // Frame 1: new vertices through LockAsync Discard + Rename, a draw, a flip.
  D3DDDIARG_LOCKASYNC lock{};
  lock.hResource = reinterpret_cast<HANDLE>(std::uintptr_t{kVB});
  lock.Flags.Discard = 1;
  REQUIRE(dev.LockAsync(lock) == S_OK);
  dp2::VertexWriter v2(kFvf);
  v2.tl(32, 2, 0.5f, 1, 0xFFFF00FF).tl(62, 62, 0.5f, 1, 0xFFFF00FF).tl(2, 62, 0.5f, 1, 0xFF00FF00);
  v2.tl(0, 0, 0.5f, 1, 0).tl(0, 0, 0.5f, 1, 0).tl(0, 0, 0.5f, 1, 0);
  std::memcpy(lock.pSurfData, v2.bytes().data(), v2.bytes().size());
  D3DDDIARG_UNLOCKASYNC unlock{};
  unlock.hResource = lock.hResource;
  REQUIRE(dev.UnlockAsync(unlock) == S_OK);
  D3DDDIARG_RENAME rename{};
  rename.hResource = lock.hResource;
  rename.hCookie = lock.hCookie;
  REQUIRE(dev.Rename(rename) == S_OK);
  dp2::StreamWriter d;
  d.clear(D3DCLEAR_TARGET, 0xFF003300, 1.0f, 0, {}).triangle_list(0, 1);
  CHECK(draw(dev, ctx, d) == D3D_OK);
  REQUIRE(dev.Flip(chain) == S_OK);
  dev.wait_idle();
  REQUIRE(dev.poll_frame(chain, fb));
  out.frames.push_back(bytes_of(dev, kFront));
  out.back = bytes_of(dev, kBack);

  REQUIRE_MESSAGE(rec->stop(&error), error);
  return out;
}

struct Replayed {
  dp2::ReplayResult result;
  std::vector<std::vector<std::byte>> frames;
  std::vector<DWORD> targets;
  std::vector<std::byte> back;
  std::uint64_t draws_seen = 0;
};

Replayed replay(std::span<const std::byte> bytes, unsigned threads, const std::string& isa = "auto") {
  Replayed out;
  dp2::ReplayOptions options;
  options.render_threads = threads;
  options.isa = isa;
  options.on_frame = [&](const dp2::ReplayFrame& f) {
    out.frames.push_back(bytes_of(f.device, f.render_target));
    out.targets.push_back(f.render_target);
    out.back = bytes_of(f.device, kBack);
    return true;
  };
  options.on_draw = [&](const dp2::ReplayFrame& f) {
    CHECK(f.render_target == kBack);
    ++out.draws_seen;
    return true;
  };
  dp2::replay_capture(bytes, options, out.result);
  return out;
}

std::vector<std::byte> load(const std::string& path) {
  std::vector<std::byte> bytes;
  std::string error;
  REQUIRE_MESSAGE(dp2::load_capture_bytes(path, bytes, &error), error);
  return bytes;
}

}  // namespace

TEST_CASE("capture: a recorded session replays to identical frames") {
  const std::string path = temp_path("roundtrip");
  const Session original = record(path);
  const std::vector<std::byte> bytes = load(path);

  dp2::CaptureFile file;
  std::string error;
  REQUIRE_MESSAGE(dp2::read_capture(bytes, file, &error), error);
  CHECK(file.version_major == 1);
  CHECK(file.has_flips);
  CHECK(file.frames == 2);
  CHECK(file.calls == 4);
  bool saw_rename = false;
  for (const auto& r : file.records) saw_rename |= std::holds_alternative<dp2::CapRename>(r.event);
  CHECK(saw_rename);

  for (unsigned threads : {1u, 4u}) {
    CAPTURE(threads);
    const Replayed r = replay(bytes, threads);
    REQUIRE_MESSAGE(r.result.ok, r.result.error);
    CHECK(r.result.frames == 2);
    CHECK(r.result.draws == 4);
    CHECK(r.draws_seen == 4);
    CHECK(r.result.failed_calls == 0);
    REQUIRE(r.frames.size() == 2);
    CHECK(r.targets[0] == kFront);
    CHECK(r.frames[0] == original.frames[0]);
    CHECK(r.frames[1] == original.frames[1]);
    CHECK(r.back == original.back);
    CHECK(r.frames[0] != r.frames[1]);
  }
  std::filesystem::remove(path);
}

TEST_CASE("capture: every instruction set replays to the recorded frames, and an unknown name is an error") {
  const std::string path = temp_path("isa");
  const Session original = record(path);
  const std::vector<std::byte> bytes = load(path);
  // A set the build or CPU lacks falls back to the best it has (capture.h), so each of
  // dp2's names replays, and images do not depend on the choice.
  for (const char* isa : {"auto", "scalar", "sse41", "avx2", "avx512", "neon"}) {
    CAPTURE(isa);
    const Replayed r = replay(bytes, 2, isa);
    REQUIRE_MESSAGE(r.result.ok, r.result.error);
    REQUIRE(r.frames.size() == 2);
    CHECK(r.frames[1] == original.frames[1]);
  }
  const Replayed bad = replay(bytes, 2, "avx1024");
  CHECK_FALSE(bad.result.ok);
  CHECK(bad.result.error.find("unknown instruction set 'avx1024'") != std::string::npos);
  CHECK(bad.result.error.find("avx512") != std::string::npos);
  CHECK(bad.frames.empty());
  std::filesystem::remove(path);
}

TEST_CASE("capture: unknown chunks are skipped, unknown required chunks rejected") {
  const std::string path = temp_path("unknown");
  const Session original = record(path);
  std::vector<std::byte> bytes = load(path);
  // After the DEVC chunk (16-byte file header + 16-byte chunk header + 24-byte payload).
  const std::size_t insert_at = 16 + 16 + 24;
  const auto make_chunk = [](std::uint32_t flags) {
    std::vector<std::byte> c(16 + 5, std::byte{0x5A});
    const std::uint32_t id = dp2::capture_fourcc('Z', 'Z', 'Z', 'Z');
    const std::uint64_t size = 5;
    std::memcpy(c.data(), &id, 4);
    std::memcpy(c.data() + 4, &flags, 4);
    std::memcpy(c.data() + 8, &size, 8);
    return c;
  };
  std::vector<std::byte> skipped = bytes;
  const auto optional_chunk = make_chunk(0);
  skipped.insert(skipped.begin() + insert_at, optional_chunk.begin(), optional_chunk.end());
  const Replayed r = replay(skipped, 1);
  REQUIRE_MESSAGE(r.result.ok, r.result.error);
  CHECK(r.result.unknown_chunks == 1);
  REQUIRE(r.frames.size() == 2);
  CHECK(r.frames[1] == original.frames[1]);

  std::vector<std::byte> required = bytes;
  const auto required_chunk = make_chunk(1);
  required.insert(required.begin() + insert_at, required_chunk.begin(), required_chunk.end());
  dp2::CaptureFile file;
  std::string error;
  CHECK_FALSE(dp2::read_capture(required, file, &error));
  CHECK(error == "offset 56: unknown chunk 'ZZZZ' is marked required");
  std::filesystem::remove(path);
}

TEST_CASE("capture: a capture without flips has one frame per call") {
  const std::string path = temp_path("noflip");
  {
    dp2::Device dev;
    auto rec = dp2::start_capture(dev, path);
    REQUIRE(rec);
    REQUIRE(dev.create_surface(kBack, {dp2::SurfaceKind::kRenderTarget, D3DFMT_X8R8G8B8, 16, 16}) == D3D_OK);
    dp2::SurfaceDesc cmd{dp2::SurfaceKind::kCommandBuffer};
    cmd.size_bytes = 256;
    REQUIRE(dev.create_surface(kCmd, cmd) == D3D_OK);
    ULONG_PTR ctx = 0;
    REQUIRE(dev.create_context({.interface_version = 3, .render_target = kBack}, ctx) == D3D_OK);
    dp2::StreamWriter w;
    w.viewport(0, 0, 16, 16).clear(D3DCLEAR_TARGET, 0xFF00FF00, 1.0f, 0, {});
    dp2::VertexWriter um(kFvf);
    um.tl(0, 0, 0.5f, 1).tl(1, 0, 0.5f, 1).tl(0, 1, 0.5f, 1);
    CHECK(draw(dev, ctx, w, um.bytes()) == D3D_OK);
    dp2::StreamWriter w2;
    w2.clear(D3DCLEAR_TARGET, 0xFFFF0000, 1.0f, 0, {});
    CHECK(draw(dev, ctx, w2, um.bytes()) == D3D_OK);
    REQUIRE(rec->stop());
  }
  const std::vector<std::byte> bytes = load(path);
  const Replayed r = replay(bytes, 1);
  REQUIRE_MESSAGE(r.result.ok, r.result.error);
  CHECK(r.result.frames == 2);
  REQUIRE(r.frames.size() == 2);
  std::uint32_t first = 0, second = 0;
  std::memcpy(&first, r.frames[0].data(), 4);
  std::memcpy(&second, r.frames[1].data(), 4);
  CHECK((first & 0xFFFFFF) == 0x00FF00);
  CHECK((second & 0xFFFFFF) == 0xFF0000);
  std::filesystem::remove(path);
}
