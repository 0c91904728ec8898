// The C API (dp2/dp2.h) from C++: size prefixes, NULL handling, a draw through
// dp2_draw_primitives2, locks, Render, fences, flips and front-buffer polling, the host
// executor. Expected pixels come from the Direct3D rule written beside each check.
#include <doctest/doctest.h>

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "dp2/capture.h"  // reads back what dp2_capture_* wrote
#include "dp2/dp2.h"
#include "dp2/stream_writer.h"  // builds command bytes only; every device call is the C API

namespace {

constexpr DWORD kRT = 1, kBack = 2, kCmd = 10, kVB = 11;
constexpr DWORD kFvf = D3DFVF_XYZRHW | D3DFVF_DIFFUSE;

HANDLE as_handle(DWORD surface) { return reinterpret_cast<HANDLE>(static_cast<std::uintptr_t>(surface)); }

template <class T>
T sized() {
  T t;
  std::memset(&t, 0, sizeof t);
  t.size = sizeof t;
  return t;
}

dp2_surface_desc target_desc(std::uint32_t w, std::uint32_t h) {
  auto d = sized<dp2_surface_desc>();
  d.kind = DP2_SURFACE_RENDER_TARGET;
  d.format = D3DFMT_X8R8G8B8;
  d.width = w;
  d.height = h;
  return d;
}

// A device (owned memory unless `desc` is given), a w×h X8R8G8B8 target kRT and a DX7
// context on it.
struct CScene {
  dp2_device* dev = nullptr;
  ULONG_PTR ctx = 0;
  std::uint32_t w, h;

  CScene(std::uint32_t width, std::uint32_t height, const dp2_device_desc* desc = nullptr, DWORD target = kRT)
      : w(width), h(height) {
    REQUIRE(dp2_device_create(desc, &dev) == DP2_OK);
    const auto rt = target_desc(w, h);
    REQUIRE(dp2_surface_create(dev, target, &rt) == DP2_OK);
    auto cd = sized<dp2_context_desc>();
    cd.interface_version = 3;
    cd.render_target = target;
    REQUIRE(dp2_context_create(dev, &cd, &ctx) == DP2_OK);
  }
  ~CScene() { dp2_device_destroy(dev); }
  CScene(const CScene&) = delete;
  CScene& operator=(const CScene&) = delete;

  // Uploads the stream and vertices into a command and a vertex surface through the C
  // API, then calls dp2_draw_primitives2. Returns ddrval.
  HRESULT draw(const dp2::StreamWriter& s, const dp2::VertexWriter& v) {
    auto cmd = sized<dp2_surface_desc>();
    cmd.kind = DP2_SURFACE_COMMAND_BUFFER;
    cmd.size_bytes = s.bytes().size();
    REQUIRE(dp2_surface_create(dev, kCmd, &cmd) == DP2_OK);
    void* p = nullptr;
    size_t n = 0;
    REQUIRE(dp2_surface_bytes(dev, kCmd, &p, &n) == DP2_OK);
    REQUIRE(n >= s.bytes().size());
    std::memcpy(p, s.bytes().data(), s.bytes().size());
    const bool has_vertices = !v.bytes().empty();
    if (has_vertices) {
      auto vb = sized<dp2_surface_desc>();
      vb.kind = DP2_SURFACE_VERTEX_BUFFER;
      vb.size_bytes = v.bytes().size();
      REQUIRE(dp2_surface_create(dev, kVB, &vb) == DP2_OK);
      REQUIRE(dp2_surface_bytes(dev, kVB, &p, &n) == DP2_OK);
      std::memcpy(p, v.bytes().data(), v.bytes().size());
    }

    D3DHAL_DRAWPRIMITIVES2DATA data{};
    data.dwhContext = ctx;
    data.dwVertexType = v.fvf();
    data.lpDDCommands = kCmd;
    data.dwCommandLength = static_cast<DWORD>(s.bytes().size());
    data.lpDDVertex = has_vertices ? kVB : 0;
    data.dwVertexLength = static_cast<DWORD>(v.vertex_count());
    data.dwVertexSize = v.stride();
    CHECK(dp2_draw_primitives2(dev, &data) == DDHAL_DRIVER_HANDLED);
    CHECK(dp2_surface_destroy(dev, kCmd) == DP2_OK);
    if (has_vertices) CHECK(dp2_surface_destroy(dev, kVB) == DP2_OK);
    return data.ddrval;
  }

  std::uint32_t pixel(DWORD surface, std::uint32_t x, std::uint32_t y) {
    void* p = nullptr;
    size_t n = 0;
    REQUIRE(dp2_surface_bytes(dev, surface, &p, &n) == DP2_OK);
    REQUIRE(n >= std::size_t{w} * h * 4);
    std::uint32_t v;
    std::memcpy(&v, static_cast<const std::byte*>(p) + (std::size_t{y} * w + x) * 4, 4);  // pitch = w*4
    return v & 0x00FFFFFFu;  // X8: the top byte is not a channel
  }
};

// Clear to grey, then the triangle (0,0) (8,0) (0,8) in flat red: clockwise on screen, so
// the default D3DCULL_CCW keeps it.
void clear_and_triangle(dp2::StreamWriter& s, dp2::VertexWriter& v, std::uint32_t w, std::uint32_t h) {
  v.tl(0, 0, 0.5f, 1, 0xFFFF0000u).tl(8, 0, 0.5f, 1, 0xFFFF0000u).tl(0, 8, 0.5f, 1, 0xFFFF0000u);
  s.viewport(0, 0, w, h).clear(D3DCLEAR_TARGET, 0xFF404040u, 1.0f, 0, {}).triangle_list(0, 1);
}

}  // namespace

TEST_CASE("capi: version matches the header") {
  CHECK(dp2_version() == DP2_VERSION);
  CHECK(std::strcmp(dp2_version_string(), DP2_VERSION_STRING) == 0);
  CHECK(std::strcmp(dp2_result_name(DP2_E_INVALIDARG), "DP2_E_INVALIDARG") == 0);
  CHECK(std::strcmp(dp2_result_name(DDERR_WASSTILLDRAWING), "DDERR_WASSTILLDRAWING") == 0);
  CHECK(std::strcmp(dp2_result_name(0x12345678), "unknown") == 0);
}

TEST_CASE("capi: a size prefix this version does not know is DP2_E_INVALIDARG") {
  dp2_device* dev = nullptr;
  auto desc = sized<dp2_device_desc>();
  desc.size = sizeof desc - 4;
  CHECK(dp2_device_create(&desc, &dev) == DP2_E_INVALIDARG);
  CHECK(dev == nullptr);
  desc.size = 0;
  CHECK(dp2_device_create(&desc, &dev) == DP2_E_INVALIDARG);

  auto exec = sized<dp2_executor>();
  exec.size = 1;
  exec.parallel_for = [](void*, size_t, dp2_task_fn, void*) {};
  desc = sized<dp2_device_desc>();
  desc.executor = &exec;
  CHECK(dp2_device_create(&desc, &dev) == DP2_E_INVALIDARG);
  exec.size = sizeof exec;
  exec.parallel_for = nullptr;  // an executor without its one function
  CHECK(dp2_device_create(&desc, &dev) == DP2_E_INVALIDARG);

  REQUIRE(dp2_device_create(nullptr, &dev) == DP2_OK);
  auto rt = target_desc(4, 4);
  rt.size += 8;
  CHECK(dp2_surface_create(dev, kRT, &rt) == DP2_E_INVALIDARG);
  rt = target_desc(4, 4);
  rt.kind = 99;  // not a dp2_surface_kind
  CHECK(dp2_surface_create(dev, kRT, &rt) == DP2_E_INVALIDARG);
  rt = target_desc(4, 4);
  REQUIRE(dp2_surface_create(dev, kRT, &rt) == DP2_OK);

  auto cd = sized<dp2_context_desc>();
  cd.render_target = kRT;
  cd.size = sizeof cd + 1;
  ULONG_PTR ctx = 0;
  CHECK(dp2_context_create(dev, &cd, &ctx) == DP2_E_INVALIDARG);
  cd.size = sizeof cd;
  REQUIRE(dp2_context_create(dev, &cd, &ctx) == DP2_OK);

  auto bufs = sized<dp2_command_buffers>();
  bufs.size = 0;
  CHECK(dp2_command_buffers_get(dev, ctx, &bufs) == DP2_E_INVALIDARG);
  auto fb = sized<dp2_front_buffer>();
  fb.size = 3;
  CHECK(dp2_poll_frame(dev, 1, &fb) == DP2_E_INVALIDARG);
  dp2_device_destroy(dev);
}

TEST_CASE("capi: NULL pointers give DP2_E_INVALIDARG, never a crash") {
  dp2_device* dev = nullptr;
  CHECK(dp2_device_create(nullptr, nullptr) == DP2_E_INVALIDARG);
  dp2_device_destroy(nullptr);  // allowed, does nothing
  void* p = nullptr;
  size_t n = 0;
  uint64_t fence = 0;
  DWORD chain = 0;
  ULONG_PTR ctx = 0;
  const DWORD surfaces[2] = {1, 2};
  const auto rt = target_desc(4, 4);
  const auto cd = sized<dp2_context_desc>();
  auto fb = sized<dp2_front_buffer>();
  auto bufs = sized<dp2_command_buffers>();
  D3DDDIARG_LOCK lock{};
  D3DDDIARG_UNLOCK unlock{};
  D3DDDIARG_LOCKASYNC lock_async{};
  D3DDDIARG_UNLOCKASYNC unlock_async{};
  D3DDDIARG_RENAME rename{};
  D3DDDICB_RENDER render{};

  // A NULL device everywhere.
  CHECK(dp2_device_set_render_threads(nullptr, 1) == DP2_E_INVALIDARG);
  CHECK(dp2_surface_create(nullptr, kRT, &rt) == DP2_E_INVALIDARG);
  CHECK(dp2_surface_destroy(nullptr, kRT) == DP2_E_INVALIDARG);
  CHECK(dp2_surface_bytes(nullptr, kRT, &p, &n) == DP2_E_INVALIDARG);
  CHECK(dp2_surface_set_flip_in_progress(nullptr, kRT, 1) == DP2_E_INVALIDARG);
  CHECK(dp2_surface_evict(nullptr, kRT) == DP2_E_INVALIDARG);
  CHECK(dp2_context_create(nullptr, &cd, &ctx) == DP2_E_INVALIDARG);
  CHECK(dp2_context_destroy(nullptr, 1) == DP2_E_INVALIDARG);
  CHECK(dp2_set_unknown_command_callback(nullptr, nullptr, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_command_buffers_get(nullptr, 1, &bufs) == DP2_E_INVALIDARG);
  CHECK(dp2_render(nullptr, &render) == DP2_E_INVALIDARG);
  CHECK(dp2_fence_last(nullptr, &fence) == DP2_E_INVALIDARG);
  CHECK(dp2_fence_completed(nullptr, &fence) == DP2_E_INVALIDARG);
  CHECK(dp2_fence_wait(nullptr, 0) == DP2_E_INVALIDARG);
  CHECK(dp2_wait_idle(nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_hold_gpu(nullptr, 0) == DP2_E_INVALIDARG);
  CHECK(dp2_lock(nullptr, &lock) == DP2_E_INVALIDARG);
  CHECK(dp2_unlock(nullptr, &unlock) == DP2_E_INVALIDARG);
  CHECK(dp2_lock_async(nullptr, &lock_async) == DP2_E_INVALIDARG);
  CHECK(dp2_unlock_async(nullptr, &unlock_async) == DP2_E_INVALIDARG);
  CHECK(dp2_rename(nullptr, &rename) == DP2_E_INVALIDARG);
  CHECK(dp2_flip_chain_create(nullptr, surfaces, 2, &chain) == DP2_E_INVALIDARG);
  CHECK(dp2_flip(nullptr, 1) == DP2_E_INVALIDARG);
  CHECK(dp2_poll_frame(nullptr, 1, &fb) == DP2_E_INVALIDARG);
  CHECK(dp2_set_frame_callback(nullptr, nullptr, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_write_png(nullptr, kRT, "x.png", 0, 0) == DP2_E_INVALIDARG);
  CHECK(dp2_capture_start(nullptr, "x.cap") == DP2_E_INVALIDARG);
  CHECK(dp2_capture_stop(nullptr) == DP2_E_INVALIDARG);
  D3DHAL_DRAWPRIMITIVES2DATA data{};
  CHECK(dp2_draw_primitives2(nullptr, &data) == DDHAL_DRIVER_HANDLED);
  CHECK(data.ddrval == DDERR_INVALIDPARAMS);

  // A real device, NULL arguments.
  REQUIRE(dp2_device_create(nullptr, &dev) == DP2_OK);
  CHECK(dp2_surface_create(dev, kRT, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_surface_bytes(dev, kRT, nullptr, &n) == DP2_E_INVALIDARG);
  CHECK(dp2_surface_bytes(dev, kRT, &p, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_surface_bytes(dev, 777, &p, &n) == DP2_E_INVALIDARG);  // unknown handle
  CHECK(p == nullptr);
  CHECK(dp2_context_create(dev, nullptr, &ctx) == DP2_E_INVALIDARG);
  CHECK(dp2_context_create(dev, &cd, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_command_buffers_get(dev, 1, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_render(dev, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_fence_last(dev, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_fence_completed(dev, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_lock(dev, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_unlock(dev, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_lock_async(dev, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_unlock_async(dev, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_rename(dev, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_flip_chain_create(dev, nullptr, 2, &chain) == DP2_E_INVALIDARG);
  CHECK(dp2_flip_chain_create(dev, surfaces, 2, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_poll_frame(dev, 1, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_write_png(dev, kRT, nullptr, 0, 0) == DP2_E_INVALIDARG);
  CHECK(dp2_write_png(dev, 777, "never-written.png", 0, 0) == DP2_E_INVALIDARG);
  CHECK(dp2_draw_primitives2(dev, nullptr) == DDHAL_DRIVER_NOTHANDLED);
  // An unknown context through the DDI path: the DDI's own answer, in ddrval.
  data = {};
  data.dwhContext = 12345;
  CHECK(dp2_draw_primitives2(dev, &data) == DDHAL_DRIVER_HANDLED);
  CHECK(data.ddrval != D3D_OK);
  CHECK(dp2_capture_stop(dev) == DP2_S_FALSE);  // none running
  CHECK(dp2_capture_start(dev, "/nonexistent-dir/x.dp2c") == DP2_E_FAIL);  // cannot be written
  dp2_device_destroy(dev);
}

TEST_CASE("capi: device with the embedder's video memory block") {
  std::vector<std::byte> vram(std::size_t{4} << 20);
  auto desc = sized<dp2_device_desc>();
  desc.video_memory = vram.data();
  desc.video_memory_size = 0;  // a block needs its size
  dp2_device* dev = nullptr;
  CHECK(dp2_device_create(&desc, &dev) == DP2_E_INVALIDARG);
  desc.video_memory_size = vram.size();
  desc.render_threads = 1;
  CScene scene(16, 16, &desc);
  dp2::StreamWriter s;
  dp2::VertexWriter v(kFvf);
  clear_and_triangle(s, v, 16, 16);
  CHECK(scene.draw(s, v) == D3D_OK);
  CHECK(scene.pixel(kRT, 1, 1) == 0xFF0000u);
  // The render target was placed in the block: its bytes are inside it.
  void* p = nullptr;
  size_t n = 0;
  REQUIRE(dp2_surface_bytes(scene.dev, kRT, &p, &n) == DP2_OK);
  CHECK(static_cast<std::byte*>(p) >= vram.data());
  CHECK(static_cast<std::byte*>(p) + n <= vram.data() + vram.size());
}

TEST_CASE("capi: a triangle through dp2_draw_primitives2") {
  CScene scene(16, 16);
  dp2::StreamWriter s;
  dp2::VertexWriter v(kFvf);
  clear_and_triangle(s, v, 16, 16);
  REQUIRE(scene.draw(s, v) == D3D_OK);
  // D3D7–9 rasterization rules: pixel (x, y) is covered when its centre (x, y) — integer
  // coordinates — is inside the triangle, with the top-left rule on edges. (1,1) is
  // inside; (0,0) lies on the top and the left edge: drawn; (4,4) is on the hypotenuse
  // x + y = 8, a right-hand (bottom-right) edge: not drawn; (6,6) is outside.
  CHECK(scene.pixel(kRT, 1, 1) == 0xFF0000u);
  CHECK(scene.pixel(kRT, 0, 0) == 0xFF0000u);
  CHECK(scene.pixel(kRT, 4, 4) == 0x404040u);
  CHECK(scene.pixel(kRT, 6, 6) == 0x404040u);
  CHECK(scene.pixel(kRT, 15, 15) == 0x404040u);

  uint64_t last = 0, done = 0;
  REQUIRE(dp2_fence_last(scene.dev, &last) == DP2_OK);
  CHECK(last >= 1);
  CHECK(dp2_fence_wait(scene.dev, last) == DP2_OK);
  REQUIRE(dp2_fence_completed(scene.dev, &done) == DP2_OK);
  CHECK(done >= last);
  CHECK(dp2_fence_wait(scene.dev, last + 1000) == DP2_E_INVALIDARG);  // never handed out
  CHECK(dp2_wait_idle(scene.dev) == DP2_OK);
}

TEST_CASE("capi: locks pass the DDI structures and results through") {
  CScene scene(8, 8);
  auto vb = sized<dp2_surface_desc>();
  vb.kind = DP2_SURFACE_VERTEX_BUFFER;
  vb.size_bytes = 64;
  REQUIRE(dp2_surface_create(scene.dev, kVB, &vb) == DP2_OK);

  D3DDDIARG_LOCK lock{};
  lock.hResource = as_handle(kVB);
  REQUIRE(dp2_lock(scene.dev, &lock) == DP2_OK);
  REQUIRE(lock.pSurfData != nullptr);
  std::memset(lock.pSurfData, 0xAB, 64);
  D3DDDIARG_LOCK again{};
  again.hResource = as_handle(kVB);
  CHECK(dp2_lock(scene.dev, &again) == E_INVALIDARG);  // already locked (Device::Lock)
  D3DDDIARG_UNLOCK unlock{};
  unlock.hResource = as_handle(kVB);
  CHECK(dp2_unlock(scene.dev, &unlock) == DP2_OK);
  void* p = nullptr;
  size_t n = 0;
  REQUIRE(dp2_surface_bytes(scene.dev, kVB, &p, &n) == DP2_OK);
  CHECK(static_cast<const unsigned char*>(p)[63] == 0xAB);

  // pfnLockAsync: without Discard or NoOverwrite it is E_NOTIMPL (the DDI's answer).
  D3DDDIARG_LOCKASYNC la{};
  la.hResource = as_handle(kVB);
  CHECK(dp2_lock_async(scene.dev, &la) == E_NOTIMPL);
  // Discard hands out a fresh instance (the cookie); Rename makes it the surface's.
  la.Flags.Discard = 1;
  REQUIRE(dp2_lock_async(scene.dev, &la) == DP2_OK);
  REQUIRE(la.pSurfData != nullptr);
  std::memset(la.pSurfData, 0xCD, 64);
  D3DDDIARG_UNLOCKASYNC ua{};
  ua.hResource = as_handle(kVB);
  CHECK(dp2_unlock_async(scene.dev, &ua) == DP2_OK);
  D3DDDIARG_RENAME rn{};
  rn.hResource = as_handle(kVB);
  rn.hCookie = la.hCookie;
  CHECK(dp2_rename(scene.dev, &rn) == DP2_OK);
  REQUIRE(dp2_surface_bytes(scene.dev, kVB, &p, &n) == DP2_OK);
  CHECK(static_cast<const unsigned char*>(p)[0] == 0xCD);
  // An unknown surface.
  D3DDDIARG_LOCK bad{};
  bad.hResource = as_handle(999);
  CHECK(dp2_lock(scene.dev, &bad) == E_INVALIDARG);
}

TEST_CASE("capi: Render hands out buffers and passes its checks through") {
  CScene scene(8, 8);
  auto bufs = sized<dp2_command_buffers>();
  REQUIRE(dp2_command_buffers_get(scene.dev, scene.ctx, &bufs) == DP2_OK);
  CHECK(bufs.command_buffer != nullptr);
  CHECK(bufs.command_buffer_size > 0);
  CHECK(dp2_command_buffers_get(scene.dev, 4242, &bufs) == E_INVALIDARG);

  D3DDDICB_RENDER r{};
  r.hContext = reinterpret_cast<HANDLE>(scene.ctx);
  r.RenderCBSequence = 2;  // the first call must carry 1 (pfnRenderCb: incremented per call)
  CHECK(dp2_render(scene.dev, &r) == E_INVALIDARG);
  r.RenderCBSequence = 1;  // an empty submission
  REQUIRE(dp2_render(scene.dev, &r) == DP2_OK);
  CHECK(r.pNewCommandBuffer != nullptr);
  CHECK(dp2_wait_idle(scene.dev) == DP2_OK);
}

TEST_CASE("capi: flip, then the front buffer through dp2_poll_frame and the frame callback") {
  CScene scene(16, 16, nullptr, kBack);
  const auto rt = target_desc(16, 16);
  REQUIRE(dp2_surface_create(scene.dev, kRT, &rt) == DP2_OK);
  const DWORD surfaces[2] = {kRT, kBack};
  DWORD chain = 0;
  REQUIRE(dp2_flip_chain_create(scene.dev, surfaces, 1, &chain) == E_INVALIDARG);  // needs two
  REQUIRE(dp2_flip_chain_create(scene.dev, surfaces, 2, &chain) == DP2_OK);

  auto fb = sized<dp2_front_buffer>();
  CHECK(dp2_poll_frame(scene.dev, chain, &fb) == DP2_S_FALSE);  // nothing flipped yet

  dp2::StreamWriter s;
  dp2::VertexWriter v(kFvf);
  clear_and_triangle(s, v, 16, 16);
  REQUIRE(scene.draw(s, v) == D3D_OK);
  REQUIRE(dp2_flip(scene.dev, chain) == DP2_OK);
  // Until the frame is taken the chain is in a flip: a second Flip answers
  // DDERR_WASSTILLDRAWING (Device::Flip), unchanged through the C API.
  CHECK(dp2_flip(scene.dev, chain) == DDERR_WASSTILLDRAWING);
  REQUIRE(dp2_wait_idle(scene.dev) == DP2_OK);
  REQUIRE(dp2_poll_frame(scene.dev, chain, &fb) == DP2_OK);
  CHECK(fb.size == sizeof fb);
  CHECK(fb.chain == chain);
  CHECK(fb.surface == kRT);
  CHECK(fb.frame == 1);
  CHECK(fb.width == 16);
  CHECK(fb.height == 16);
  CHECK(fb.format == D3DFMT_X8R8G8B8);
  CHECK(fb.dirty.right == 16);
  REQUIRE(fb.data != nullptr);
  REQUIRE(fb.pitch >= 16 * 4);
  // What was drawn to the back buffer is now the front buffer.
  auto front_pixel = [&](std::uint32_t x, std::uint32_t y) {
    std::uint32_t px;
    std::memcpy(&px, static_cast<const std::byte*>(fb.data) + y * fb.pitch + x * 4, 4);
    return px & 0x00FFFFFFu;
  };
  CHECK(front_pixel(1, 1) == 0xFF0000u);
  CHECK(front_pixel(6, 6) == 0x404040u);
  CHECK(dp2_poll_frame(scene.dev, chain, &fb) == DP2_S_FALSE);  // taken

  // The callback route: called on the GPU worker; returning takes the frame.
  struct Seen {
    std::atomic<int> calls{0};
    std::atomic<std::uint64_t> frame{0};
  } seen;
  REQUIRE(dp2_set_frame_callback(
              scene.dev,
              [](void* user, const dp2_front_buffer* f) {
                auto* out = static_cast<Seen*>(user);
                out->frame = f->frame;
                ++out->calls;
              },
              &seen) == DP2_OK);
  REQUIRE(dp2_flip(scene.dev, chain) == DP2_OK);
  REQUIRE(dp2_wait_idle(scene.dev) == DP2_OK);
  CHECK(seen.calls == 1);
  CHECK(seen.frame == 2);
  CHECK(dp2_poll_frame(scene.dev, chain, &fb) == DP2_S_FALSE);
  CHECK(dp2_set_frame_callback(scene.dev, nullptr, nullptr) == DP2_OK);
}

TEST_CASE("capi: every DP2_SIMD_ value creates a device, the next one is DP2_E_INVALIDARG") {
  // A target the CPU lacks falls back to the best it has (dp2.h), so each creates.
  for (const std::uint32_t simd : {DP2_SIMD_AUTO, DP2_SIMD_SCALAR, DP2_SIMD_SSE41, DP2_SIMD_AVX2, DP2_SIMD_NEON,
                                   DP2_SIMD_AVX512}) {
    CAPTURE(simd);
    auto desc = sized<dp2_device_desc>();
    desc.simd = simd;
    dp2_device* dev = nullptr;
    REQUIRE(dp2_device_create(&desc, &dev) == DP2_OK);
    dp2_device_destroy(dev);
  }
  auto desc = sized<dp2_device_desc>();
  desc.simd = DP2_SIMD_AVX512 + 1;
  dp2_device* dev = nullptr;
  CHECK(dp2_device_create(&desc, &dev) == DP2_E_INVALIDARG);
  CHECK(dev == nullptr);
}

TEST_CASE("capi: a host executor runs the tiles, and the image does not change") {
  struct Pool {
    std::atomic<int> calls{0};
    std::atomic<std::size_t> tasks{0};
  } pool;
  auto exec = sized<dp2_executor>();
  exec.context = &pool;
  // A serial "pool": every index once, in order, on the calling thread (the contract
  // allows any thread and any order).
  exec.parallel_for = [](void* context, size_t count, dp2_task_fn task, void* task_context) {
    auto* p = static_cast<Pool*>(context);
    ++p->calls;
    for (size_t i = 0; i < count; ++i) task(task_context, i);
    p->tasks += count;
  };
  auto desc = sized<dp2_device_desc>();
  desc.executor = &exec;
  desc.render_threads = 0;

  constexpr std::uint32_t kSize = 256;  // several tiles, so the executor is used
  CScene hosted(kSize, kSize, &desc);
  CScene own(kSize, kSize);
  for (CScene* scene : {&hosted, &own}) {
    dp2::StreamWriter s;
    dp2::VertexWriter v(kFvf);
    v.tl(10, 10, 0.5f, 1, 0xFFFF0000u).tl(250, 30, 0.5f, 1, 0xFF00FF00u).tl(40, 240, 0.5f, 1, 0xFF0000FFu);
    s.viewport(0, 0, kSize, kSize).clear(D3DCLEAR_TARGET, 0xFF101010u, 1.0f, 0, {}).triangle_list(0, 1);
    REQUIRE(scene->draw(s, v) == D3D_OK);
    REQUIRE(dp2_wait_idle(scene->dev) == DP2_OK);
  }
  CHECK(pool.calls > 0);
  CHECK(pool.tasks > 1);
  void *a = nullptr, *b = nullptr;
  size_t na = 0, nb = 0;
  REQUIRE(dp2_surface_bytes(hosted.dev, kRT, &a, &na) == DP2_OK);
  REQUIRE(dp2_surface_bytes(own.dev, kRT, &b, &nb) == DP2_OK);
  REQUIRE(na == nb);
  CHECK(std::memcmp(a, b, na) == 0);
}

TEST_CASE("capi: the unknown-command callback resumes after what it consumed") {
  CScene scene(8, 8);
  struct Seen {
    int calls = 0;
    size_t size = 0;
  } seen;
  REQUIRE(dp2_set_unknown_command_callback(
              scene.dev,
              [](void* user, const void*, size_t size, size_t* consumed) -> HRESULT {
                auto* out = static_cast<Seen*>(user);
                ++out->calls;
                out->size = size;
                *consumed = 4;  // the header of the unknown command (no payload)
                return S_OK;
              },
              &seen) == DP2_OK);
  dp2::StreamWriter s;
  s.raw(0xF0, 0, {});  // an opcode no DDI defines, 4 bytes
  s.viewport(0, 0, 8, 8);
  dp2::VertexWriter v(kFvf);
  CHECK(scene.draw(s, v) == D3D_OK);
  CHECK(seen.calls == 1);
  CHECK(seen.size == s.bytes().size());
  CHECK(dp2_set_unknown_command_callback(scene.dev, nullptr, nullptr) == DP2_OK);
}

TEST_CASE("capi: capture on and off") {
  dp2_device* dev = nullptr;
  REQUIRE(dp2_device_create(nullptr, &dev) == DP2_OK);
  const std::string path = "capi_capture_test_" + std::to_string(::getpid()) + ".dp2c";
  REQUIRE(dp2_capture_start(dev, path.c_str()) == DP2_OK);
  CHECK(dp2_capture_start(dev, path.c_str()) == DP2_E_FAIL);  // one at a time
  const auto rt = target_desc(4, 4);
  REQUIRE(dp2_surface_create(dev, kRT, &rt) == DP2_OK);
  CHECK(dp2_capture_stop(dev) == DP2_OK);
  CHECK(dp2_capture_stop(dev) == DP2_S_FALSE);
  // The file is a capture the reader accepts, with the surface in it.
  std::vector<std::byte> bytes;
  std::string error;
  REQUIRE(dp2::load_capture_bytes(path, bytes, &error));
  dp2::CaptureFile file;
  CHECK_MESSAGE(dp2::read_capture(bytes, file, &error), error);
  CHECK(file.records.size() >= 3);  // device, surface, end
  // A capture still running when the device goes is stopped by dp2_device_destroy.
  REQUIRE(dp2_capture_start(dev, path.c_str()) == DP2_OK);
  dp2_device_destroy(dev);
  bytes.clear();
  REQUIRE(dp2::load_capture_bytes(path, bytes, &error));
  CHECK_MESSAGE(dp2::read_capture(bytes, file, &error), error);
  std::remove(path.c_str());
}
