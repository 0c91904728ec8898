// dp2bench — renders the speed workloads W1–W5 and the demo scene through dp2 and, when
// built with OSMesa (libosmesa6-dev), the same scenes through Mesa's llvmpipe with
// fixed-function OpenGL, in one run; prints one row per workload.
//
//   dp2bench                          all workloads, 2 threads, default frame counts
//   dp2bench --workload W4 --threads 1 --frames 3
//   dp2bench --csv                    the same rows as CSV (for scripts)
//   dp2bench --no-llvmpipe            dp2 only
//
// Workloads (1024×768 X8R8G8B8 target, D24S8 depth, depth test LESS, z cleared to 1.0 and
// each primitive nearer than the one before, so every fragment passes the depth test):
//   W1  100 full-screen Gouraud quads, no blend                         Mpix/s
//   W2  W1 with one 256×256 A8R8G8B8 texture, bilinear, MODULATE         Mpix/s
//   W3  W2 with SRCALPHA / INVSRCALPHA blending                          Mpix/s
//   W4  1,000,000 random Gouraud triangles of ~10 pixels                 Mtri/s
//   W5  100,000 random textured triangles of ~200 pixels                 Mtri/s
//   demo  the `make demo` scene (examples/demo_scene.h), 640×480         frames/s
// A frame = clear colour and depth + the workload's draws. Mpix/s counts only the quads'
// pixels (100·1024·768 per frame), not the clear.
//
// Timing: every stream (DrawPrimitives2 command buffer and vertex buffer on the dp2 side,
// client vertex arrays on the GL side) is built once before timing. A frame is
// DrawPrimitives2 + Device::wait_idle() on dp2 (rendering is asynchronous on dp2's GPU
// worker) and the GL calls + glFinish() on llvmpipe. One untimed warm-up frame comes
// first; its image is checked (most pixels must differ from the clear colour) so a broken
// path cannot report a fast rate. The rate is from the mean time of the timed frames.
//
// Threads: --threads N sets dp2::DeviceDesc::render_threads (dp2's GPU worker is one more
// thread, which mostly waits) and LP_NUM_THREADS for llvmpipe. llvmpipe reads
// LP_NUM_THREADS once, when its screen is created (the first OSMesa context), so one
// process measures one thread count; dp2bench sets it with setenv() before that, and it
// overrides any LP_NUM_THREADS already in the environment.
//
// call_ms is the mean time per timed frame that the calling thread spends inside
// DrawPrimitives2: recording (with its vertex copy), encoding and queueing. It runs before
// the GPU worker starts the frame, so it is time on one core while the others wait.
//
// Peak RSS is getrusage(RUSAGE_SELF).ru_maxrss: process-wide and monotone, so a row shows
// the peak of the whole process up to the end of that workload (both renderers together).
#include <CLI/CLI.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "demo_scene.h"
#include "dp2/device.h"
#include "dp2/stream_writer.h"

#ifdef DP2BENCH_HAVE_OSMESA
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/osmesa.h>
#endif

namespace {

constexpr std::uint32_t kWidth = 1024, kHeight = 768;
constexpr DWORD kClearColor = 0xFF202020u;
constexpr DWORD kTarget = 1, kDepth = 2, kTexture = 3, kCommands = 0x7C00, kVertices = 0x7C01;
constexpr std::uint32_t kTextureSize = 256;
constexpr DWORD kFvfColor = D3DFVF_XYZRHW | D3DFVF_DIFFUSE;
constexpr DWORD kFvfTex = D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1;

enum class Unit { kMpix, kMtri, kFps };
const char* unit_name(Unit u) { return u == Unit::kMpix ? "Mpix/s" : u == Unit::kMtri ? "Mtri/s" : "frames/s"; }

// A workload in a form both renderers draw from: one triangle list of TL vertices (the same
// bytes go to dp2's vertex buffer and to GL's client arrays).
struct Scene {
  std::string name;
  Unit unit = Unit::kMpix;
  double work_per_frame = 0;  // pixels or triangles per frame (the rate's numerator)
  DWORD fvf = kFvfColor;
  bool textured = false, blend = false;
  std::vector<std::byte> vertices;  // XYZRHW, DIFFUSE[, TEX1]
  std::uint32_t triangles = 0;
};

struct Rng {  // a fixed LCG: the same scene on every machine
  std::uint32_t seed = 12345;
  float next() {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) / 16777216.0f;
  }
};

DWORD random_color(Rng& r, DWORD alpha) {
  return (alpha << 24) | (static_cast<DWORD>(r.next() * 0xFFFFFF) & 0xFFFFFFu);
}

// Depth of primitive i of n: decreasing, so each primitive is nearer than the previous.
float depth_of(std::uint32_t i, std::uint32_t n) { return 1.0f - static_cast<float>(i + 1) / static_cast<float>(n + 1); }

Scene make_quads(const std::string& name, bool textured, bool blend) {
  Scene s;
  s.name = name;
  s.unit = Unit::kMpix;
  constexpr std::uint32_t kQuads = 100;
  s.work_per_frame = double{kQuads} * kWidth * kHeight;
  s.fvf = textured ? kFvfTex : kFvfColor;
  s.textured = textured;
  s.blend = blend;
  dp2::VertexWriter v(s.fvf);
  Rng r;
  const float w = kWidth, h = kHeight;
  for (std::uint32_t q = 0; q < kQuads; ++q) {
    const float z = depth_of(q, kQuads);
    const DWORD alpha = blend ? 0xA0 : 0xFF;
    const DWORD c[4] = {random_color(r, alpha), random_color(r, alpha), random_color(r, alpha), random_color(r, alpha)};
    const float off = static_cast<float>(q) * 0.37f;  // a different texture placement per quad
    auto vert = [&](float x, float y, DWORD color, float tu, float tv) { v.tl(x, y, z, 1.0f, color, 0, tu + off, tv + off); };
    // Two triangles: (0,0) (w,0) (w,h) and (0,0) (w,h) (0,h); the texture repeats 4×3.
    vert(0, 0, c[0], 0, 0);
    vert(w, 0, c[1], 4, 0);
    vert(w, h, c[2], 4, 3);
    vert(0, 0, c[0], 0, 0);
    vert(w, h, c[2], 4, 3);
    vert(0, h, c[3], 0, 3);
  }
  s.triangles = 2 * kQuads;
  s.vertices.assign(v.bytes().begin(), v.bytes().end());
  return s;
}

// `count` random triangles of about `area` pixels (equilateral, random centre and angle).
Scene make_triangles(const std::string& name, std::uint32_t count, float area, bool textured) {
  Scene s;
  s.name = name;
  s.unit = Unit::kMtri;
  s.work_per_frame = count;
  s.fvf = textured ? kFvfTex : kFvfColor;
  s.textured = textured;
  dp2::VertexWriter v(s.fvf);
  Rng r;
  const float radius = std::sqrt(area / (3.0f * std::sqrt(3.0f) / 4.0f));
  for (std::uint32_t i = 0; i < count; ++i) {
    const float cx = radius + r.next() * (kWidth - 2 * radius), cy = radius + r.next() * (kHeight - 2 * radius);
    const float angle = r.next() * 6.2831853f, z = depth_of(i, count);
    const float tu = r.next() * 4, tv = r.next() * 4;
    for (int k = 0; k < 3; ++k) {
      const float a = angle + static_cast<float>(k) * 2.0943951f;
      const float dx = radius * std::cos(a), dy = radius * std::sin(a);
      // ~1 texel per pixel: the 256-texel texture spans 256 pixels.
      v.tl(cx + dx, cy + dy, z, 1.0f, random_color(r, 0xFF), 0, tu + dx / kTextureSize, tv + dy / kTextureSize);
    }
  }
  s.triangles = count;
  s.vertices.assign(v.bytes().begin(), v.bytes().end());
  return s;
}

// 256×256 A8R8G8B8: 16×16-texel checks, colour gradients, alpha between 0x60 and 0xFF.
std::vector<std::uint32_t> make_texture() {
  std::vector<std::uint32_t> t(std::size_t{kTextureSize} * kTextureSize);
  for (std::uint32_t y = 0; y < kTextureSize; ++y)
    for (std::uint32_t x = 0; x < kTextureSize; ++x) {
      const bool check = ((x / 16) + (y / 16)) % 2 == 0;
      const std::uint32_t a = check ? 0xFF : 0x60, rr = x, g = y, b = check ? 0xFF : 0x40;
      t[std::size_t{y} * kTextureSize + x] = (a << 24) | (rr << 16) | (g << 8) | b;
    }
  return t;
}

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

// Share of pixels whose RGB differs from `clear` (rows of `pitch` bytes, 32-bit pixels).
double drawn_share(const std::byte* data, std::uint32_t w, std::uint32_t h, std::size_t pitch, DWORD clear) {
  std::size_t drawn = 0;
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      std::uint32_t p;
      std::memcpy(&p, data + y * pitch + x * 4u, 4);
      drawn += ((p ^ clear) & 0xFFFFFFu) != 0;
    }
  return static_cast<double>(drawn) / (static_cast<double>(w) * h);
}

// The same for a 16-bit target, whose cleared pixels hold `clear` exactly.
double drawn_share16(const std::byte* data, std::uint32_t w, std::uint32_t h, std::uint16_t clear) {
  std::size_t drawn = 0;
  for (std::size_t i = 0; i < std::size_t{w} * h; ++i) {
    std::uint16_t p;
    std::memcpy(&p, data + 2 * i, 2);
    drawn += p != clear;
  }
  return static_cast<double>(drawn) / (static_cast<double>(w) * h);
}

// The surfaces a workload renders into: the X8R8G8B8 + D24S8, or the 16-bit pair
// of D3D7-era games (R5G6B5 + D16, D3DRS_DITHERENABLE on), which emulators meet most.
struct Target {
  D3DFORMAT color = D3DFMT_X8R8G8B8, depth = D3DFMT_D24S8;
  bool dither = false;
  bool sixteen() const { return color == D3DFMT_R5G6B5; }
};

// kClearColor in R5G6B5, as a clear stores it: each channel round(c / 255 · max).
std::uint16_t clear_color_565() {
  auto q = [](DWORD c, int max) { return static_cast<std::uint16_t>(std::lround(static_cast<double>(c & 0xFF) / 255.0 * max)); };
  return static_cast<std::uint16_t>(q(kClearColor >> 16, 31) << 11 | q(kClearColor >> 8, 63) << 5 | q(kClearColor, 31));
}

// Mean absolute difference per colour channel (0–255) between two 32-bit images.
double mean_diff(const std::vector<std::byte>& a, const std::vector<std::byte>& b) {
  if (a.size() != b.size() || a.empty()) return -1;
  std::uint64_t sum = 0, n = 0;
  for (std::size_t i = 0; i < a.size(); i += 4)
    for (std::size_t c = 0; c < 3; ++c, ++n)
      sum += static_cast<std::uint64_t>(std::abs(static_cast<int>(a[i + c]) - static_cast<int>(b[i + c])));
  return static_cast<double>(sum) / static_cast<double>(n);
}

struct Result {
  std::optional<double> rate;  // empty: not run or failed
  std::string error;
  std::vector<std::byte> image;  // the warm-up frame, top row first, BGRX
  std::string simd;              // the instruction set dp2's kernels ran on
  std::string kernel;            // the kernel key that set up the most triangles
  std::optional<double> call_ms;  // dp2: ms per timed frame inside DrawPrimitives2
};

// What the device's diagnostics say ran: the SIMD target and the busiest kernel key.
void note_kernels(dp2::Device& device, Result& res) {
  const dp2::Diagnostics d = device.diagnostics();
  res.simd = d.simd;
  std::size_t best = 0;
  for (std::size_t k = 1; k < dp2::kKernelKeyCount; ++k)
    if (d.kernel_triangles[k] > d.kernel_triangles[best]) best = k;
  res.kernel = d.kernel_triangles[best] ? dp2::kernel_key_name(best) : "-";
}

using Clock = std::chrono::steady_clock;

// One dp2 frame: the call through DrawPrimitives2, then a wait for the GPU worker. Adds
// the time inside DrawPrimitives2, on this (the calling) thread, to *in_call when given.
bool run_dp2_frame(dp2::Device& device, dp2::Dp2Call& call, Clock::duration* in_call = nullptr) {
  const auto t0 = Clock::now();
  call.run(device);
  if (in_call) *in_call += Clock::now() - t0;
  device.wait_idle();
  return call.data.ddrval == D3D_OK;
}

// The timed frames, call_for(f) for f = 1..frames, after the untimed warm-up: their mean
// seconds and call_ms, or the error of the first that fails.
struct Dp2Timing {
  double seconds = 0;
  double call_ms = 0;
  std::string error;
};
template <class CallFor>
Dp2Timing time_dp2_frames(dp2::Device& device, int frames, CallFor&& call_for) {
  Dp2Timing t;
  Clock::duration in_call{};
  const auto start = Clock::now();
  for (int f = 1; f <= frames; ++f)
    if (!run_dp2_frame(device, call_for(f), &in_call)) {
      t.error = "DrawPrimitives2 failed in a timed frame";
      return t;
    }
  t.seconds = std::chrono::duration<double>(Clock::now() - start).count() / frames;
  t.call_ms = std::chrono::duration<double, std::milli>(in_call).count() / frames;
  return t;
}

// ---------------------------------------------------------------------------- dp2 side

Result run_dp2_scene(const Scene& s, const Target& target, unsigned threads, dp2::SimdTarget simd, int frames,
                     double min_drawn) {
  Result res;
  dp2::DeviceDesc device_desc;
  device_desc.render_threads = threads;
  device_desc.simd = simd;
  dp2::Device device(device_desc);
  if (device.create_surface(kTarget, {dp2::SurfaceKind::kRenderTarget, target.color, kWidth, kHeight}) != D3D_OK ||
      device.create_surface(kDepth, {dp2::SurfaceKind::kDepthStencil, target.depth, kWidth, kHeight}) != D3D_OK) {
    res.error = "create_surface failed";
    return res;
  }
  if (s.textured) {
    if (device.create_surface(kTexture, {dp2::SurfaceKind::kTexture, D3DFMT_A8R8G8B8, kTextureSize, kTextureSize}) !=
        D3D_OK) {
      res.error = "texture create_surface failed";
      return res;
    }
    const std::vector<std::uint32_t> tex = make_texture();
    std::span<std::byte> bytes = device.surface_bytes(kTexture);
    std::memcpy(bytes.data(), tex.data(), std::min(bytes.size(), tex.size() * 4));
  }
  ULONG_PTR context = 0;
  if (device.create_context({.interface_version = 3, .render_target = kTarget, .depth_stencil = kDepth}, context) !=
      D3D_OK) {
    res.error = "create_context failed";
    return res;
  }
  // One frame = one DrawPrimitives2 call: the DX8 stream form (SETVERTEXSHADER with the
  // FVF, SETSTREAMSOURCE, DRAWPRIMITIVE with a DWORD count) draws all triangles at once,
  // which the legacy TRIANGLELIST (WORD start, ≤ 65535 primitives) could not.
  dp2::StreamWriter w;
  w.viewport(0, 0, kWidth, kHeight)
      .zrange(0.0f, 1.0f)
      .clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, kClearColor, 1.0f, 0, {})
      .render_state(D3DRS_ZENABLE, D3DZB_TRUE)
      .render_state(D3DRS_ZFUNC, D3DCMP_LESS)
      .render_state(D3DRS_ZWRITEENABLE, TRUE)
      .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
      .render_state(D3DRS_DITHERENABLE, target.dither ? TRUE : FALSE)
      .render_state(D3DRS_ALPHABLENDENABLE, s.blend ? TRUE : FALSE);
  if (s.blend) w.render_state(D3DRS_SRCBLEND, D3DBLEND_SRCALPHA).render_state(D3DRS_DESTBLEND, D3DBLEND_INVSRCALPHA);
  if (s.textured)
    w.texture_stage_state(0, D3DTSS_TEXTUREMAP, kTexture)
        .texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_MODULATE)
        .texture_stage_state(0, D3DTSS_ALPHAOP, D3DTOP_MODULATE)
        .texture_stage_state(0, D3DTSS_MAGFILTER, D3DTFG_LINEAR)
        .texture_stage_state(0, D3DTSS_MINFILTER, D3DTFN_LINEAR)
        .texture_stage_state(0, D3DTSS_MIPFILTER, D3DTFP_NONE);
  else
    w.texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_SELECTARG2).texture_stage_state(0, D3DTSS_ALPHAOP, D3DTOP_SELECTARG2);
  w.set_vertex_shader(s.fvf)
      .set_stream_source(0, kVertices, dp2::fvf_stride(s.fvf))
      .draw_primitive(D3DPT_TRIANGLELIST, 0, s.triangles);
  dp2::Dp2Call call(w, s.vertices, {.command_surface = kCommands, .vertex_surface = kVertices, .vertex_type = s.fvf});
  if (HRESULT hr = call.upload(device, context); hr != D3D_OK) {
    res.error = "upload failed";
    return res;
  }
  if (!run_dp2_frame(device, call)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "DrawPrimitives2 ddrval 0x%08X", static_cast<unsigned>(call.data.ddrval));
    res.error = buf;
    return res;
  }
  const std::span<std::byte> rt = device.surface_bytes(kTarget);
  res.image.assign(rt.begin(), rt.end());
  const double drawn = target.sixteen() ? drawn_share16(res.image.data(), kWidth, kHeight, clear_color_565())
                                        : drawn_share(res.image.data(), kWidth, kHeight, std::size_t{kWidth} * 4, kClearColor);
  if (drawn < min_drawn) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "image check failed: %.0f%% of pixels drawn", drawn * 100);
    res.error = buf;
    return res;
  }
  const Dp2Timing t = time_dp2_frames(device, frames, [&](int) -> dp2::Dp2Call& { return call; });
  if (!t.error.empty()) {
    res.error = t.error;
    return res;
  }
  res.rate = s.unit == Unit::kFps ? 1.0 / t.seconds : s.work_per_frame / t.seconds / 1e6;
  res.call_ms = t.call_ms;
  note_kernels(device, res);
  return res;
}

Result run_dp2_demo(unsigned threads, dp2::SimdTarget simd, int frames) {
  Result res;
  dp2::DeviceDesc device_desc;
  device_desc.render_threads = threads;
  device_desc.simd = simd;
  dp2::Device device(device_desc);
  ULONG_PTR context = 0;
  if (!demo::create(device, context)) {
    res.error = "demo::create failed";
    return res;
  }
  // The frames' streams, built and uploaded once: frame i in its own command and vertex
  // surfaces (the warm-up frame is frame 0).
  std::vector<dp2::Dp2Call> calls;
  const int distinct = frames + 1;
  for (int i = 0; i < distinct; ++i) {
    demo::Frame f;
    demo::build(f, i);
    dp2::Dp2CallDesc desc;
    desc.vertex_type = demo::kFvf;
    desc.command_surface = 0x7D00 + 2 * static_cast<DWORD>(i);
    desc.vertex_surface = desc.command_surface + 1;
    calls.emplace_back(f.stream, f.vertices.bytes(), desc);
    if (calls.back().upload(device, context) != D3D_OK) {
      res.error = "upload failed";
      return res;
    }
  }
  auto call_for = [&](int i) -> dp2::Dp2Call& { return calls[static_cast<std::size_t>(i)]; };
  if (!run_dp2_frame(device, call_for(0))) {
    res.error = "DrawPrimitives2 failed";
    return res;
  }
  const std::span<std::byte> rt = device.surface_bytes(demo::kTarget);
  res.image.assign(rt.begin(), rt.end());
  if (drawn_share(res.image.data(), demo::kWidth, demo::kHeight, std::size_t{demo::kWidth} * 4, demo::kClearColor) <
      0.3) {
    res.error = "image check failed";
    return res;
  }
  const Dp2Timing t = time_dp2_frames(device, frames, call_for);
  if (!t.error.empty()) {
    res.error = t.error;
    return res;
  }
  res.rate = 1.0 / t.seconds;
  res.call_ms = t.call_ms;
  note_kernels(device, res);
  return res;
}

// ------------------------------------------------------------------------ llvmpipe side
#ifdef DP2BENCH_HAVE_OSMESA

// One OSMesa context for the whole run (llvmpipe's thread count is fixed when its screen
// is created), with a buffer of the largest size used.
class GlContext {
 public:
  bool create(std::string& renderer) {
    ctx_ = OSMesaCreateContextExt(OSMESA_BGRA, 24, 8, 0, nullptr);
    if (!ctx_) return false;
    buffer_.assign(std::size_t{kWidth} * kHeight, 0);
    if (!resize(kWidth, kHeight)) return false;
    const GLubyte* r = glGetString(GL_RENDERER);
    renderer = r ? reinterpret_cast<const char*>(r) : "?";
    return true;
  }
  bool resize(std::uint32_t w, std::uint32_t h) {
    if (!OSMesaMakeCurrent(ctx_, buffer_.data(), GL_UNSIGNED_BYTE, static_cast<GLsizei>(w), static_cast<GLsizei>(h)))
      return false;
    OSMesaPixelStore(OSMESA_Y_UP, 0);  // row 0 = top, as in a D3D surface
    width_ = w;
    height_ = h;
    glViewport(0, 0, static_cast<GLsizei>(w), static_cast<GLsizei>(h));
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    // Screen-space vertices; z in [0, 1] lands on depth z, as D3D's does.
    glOrtho(0, w, h, 0, 0, -1);
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    // D3D puts pixel centres at integer coordinates, GL at half-integers: shift by half a
    // pixel so both cover the same pixels (the image comparison stays meaningful).
    glTranslatef(0.5f, 0.5f, 0.0f);
    return true;
  }
  std::vector<std::byte> image() const {
    std::vector<std::byte> out(std::size_t{width_} * height_ * 4);
    std::memcpy(out.data(), buffer_.data(), out.size());
    return out;
  }
  ~GlContext() {
    if (ctx_) OSMesaDestroyContext(ctx_);
  }

 private:
  OSMesaContext ctx_ = nullptr;
  std::vector<std::uint32_t> buffer_;
  std::uint32_t width_ = 0, height_ = 0;
};

void gl_clear_color(DWORD c) {
  glClearColor(static_cast<float>((c >> 16) & 0xFF) / 255.0f, static_cast<float>((c >> 8) & 0xFF) / 255.0f,
               static_cast<float>(c & 0xFF) / 255.0f, 1.0f);
}

void gl_common_state() {
  glDisable(GL_DITHER);
  glDisable(GL_CULL_FACE);
  glDisable(GL_LIGHTING);
  glShadeModel(GL_SMOOTH);
  glEnable(GL_DEPTH_TEST);
  glDepthMask(GL_TRUE);
  glClearDepth(1.0);
}

Result run_gl_scene(GlContext& gl, const Scene& s, int frames, double min_drawn) {
  Result res;
  if (!gl.resize(kWidth, kHeight)) {
    res.error = "OSMesaMakeCurrent failed";
    return res;
  }
  gl_common_state();
  glDepthFunc(GL_LESS);
  gl_clear_color(kClearColor);
  GLuint tex = 0;
  if (s.textured) {
    const std::vector<std::uint32_t> texels = make_texture();
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kTextureSize, kTextureSize, 0, GL_BGRA, GL_UNSIGNED_BYTE, texels.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
    glEnable(GL_TEXTURE_2D);
  } else {
    glDisable(GL_TEXTURE_2D);
  }
  if (s.blend) {
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  } else {
    glDisable(GL_BLEND);
  }
  // The same vertex bytes dp2 draws: position at 0 (rhw ignored: it is 1), D3DCOLOR at 16
  // (BGRA bytes: GL_BGRA colour arrays, ARB_vertex_array_bgra), texture coordinates at 20.
  const GLsizei stride = static_cast<GLsizei>(dp2::fvf_stride(s.fvf));
  const auto* base = reinterpret_cast<const unsigned char*>(s.vertices.data());
  glEnableClientState(GL_VERTEX_ARRAY);
  glEnableClientState(GL_COLOR_ARRAY);
  glVertexPointer(3, GL_FLOAT, stride, base);
  glColorPointer(GL_BGRA, GL_UNSIGNED_BYTE, stride, base + 16);
  if (s.textured) {
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glTexCoordPointer(2, GL_FLOAT, stride, base + 20);
  } else {
    glDisableClientState(GL_TEXTURE_COORD_ARRAY);
  }
  auto frame = [&] {
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(s.triangles * 3));
    glFinish();
  };
  frame();
  res.image = gl.image();
  if (GLenum e = glGetError(); e != GL_NO_ERROR) {
    res.error = "GL error " + std::to_string(e);
  } else if (drawn_share(res.image.data(), kWidth, kHeight, std::size_t{kWidth} * 4, kClearColor) < min_drawn) {
    res.error = "image check failed";
  } else {
    const auto start = Clock::now();
    for (int f = 0; f < frames; ++f) frame();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count() / frames;
    res.rate = s.work_per_frame / seconds / 1e6;
  }
  glDisableClientState(GL_VERTEX_ARRAY);
  glDisableClientState(GL_COLOR_ARRAY);
  glDisableClientState(GL_TEXTURE_COORD_ARRAY);
  glDisable(GL_TEXTURE_2D);
  glDisable(GL_BLEND);
  if (tex) glDeleteTextures(1, &tex);
  return res;
}

// The demo scene in fixed-function GL, from the same demo::build vertices: the floor
// (indexed, perspective: positions passed as (x/rhw, y/rhw, z/rhw, 1/rhw) so texture
// coordinates interpolate perspective-correctly), 300 blended confetti triangles, the two
// marker squares. Fog: linear on a fog coordinate = z (D3D table fog on z). The layout of
// demo::build is restated here (floor 17×9 vertices, 300 triangles, two 4-vertex fans); a
// vertex count that does not match makes the llvmpipe column n/a.
struct GlDemoFrame {
  std::vector<float> pos, tex, fog;
  std::vector<std::uint8_t> color;  // BGRA
};

Result run_gl_demo(GlContext& gl, int frames) {
  Result res;
  constexpr int kCols = 16, kRows = 8, kFloor = (kCols + 1) * (kRows + 1), kConfetti = 300;
  constexpr std::size_t kExpected = kFloor + 3 * kConfetti + 8;
  std::vector<GlDemoFrame> fr;
  for (int i = 0; i <= frames; ++i) {
    demo::Frame f;
    demo::build(f, i);
    if (f.vertices.vertex_count() != kExpected || f.vertices.stride() != 32) {
      res.error = "demo scene layout changed";
      return res;
    }
    GlDemoFrame g;
    const std::byte* p = f.vertices.bytes().data();
    for (std::size_t k = 0; k < kExpected; ++k, p += 32) {
      float x, y, z, rhw, u, v;
      std::memcpy(&x, p, 4);
      std::memcpy(&y, p + 4, 4);
      std::memcpy(&z, p + 8, 4);
      std::memcpy(&rhw, p + 12, 4);
      std::memcpy(&u, p + 24, 4);
      std::memcpy(&v, p + 28, 4);
      const float w = 1.0f / rhw;
      g.pos.insert(g.pos.end(), {x * w, y * w, z * w, w});
      g.tex.insert(g.tex.end(), {u, v});
      g.fog.push_back(z);
      for (int c = 0; c < 4; ++c) g.color.push_back(static_cast<std::uint8_t>(p[16 + c]));
    }
    fr.push_back(std::move(g));
  }
  std::vector<GLushort> floor;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      const auto a = static_cast<GLushort>(r * (kCols + 1) + c), b = static_cast<GLushort>(a + 1),
                 d = static_cast<GLushort>(a + kCols + 1), e = static_cast<GLushort>(d + 1);
      floor.insert(floor.end(), {a, b, e, a, e, d});
    }
  // The demo's texture and mip chain, read from a scratch device.
  std::vector<std::byte> texels;
  {
    dp2::Device scratch;
    ULONG_PTR ctx = 0;
    if (!demo::create(scratch, ctx)) {
      res.error = "demo::create failed";
      return res;
    }
    const std::span<std::byte> b = scratch.surface_bytes(demo::kTexture);
    texels.assign(b.begin(), b.end());
  }
  if (!gl.resize(demo::kWidth, demo::kHeight)) {
    res.error = "OSMesaMakeCurrent failed";
    return res;
  }
  gl_common_state();
  gl_clear_color(demo::kClearColor);
  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  std::size_t at = 0;
  for (std::uint32_t level = 0, size = demo::kTextureSize; level < demo::kTextureLevels; ++level, size /= 2) {
    glTexImage2D(GL_TEXTURE_2D, static_cast<GLint>(level), GL_RGBA8, static_cast<GLsizei>(size),
                 static_cast<GLsizei>(size), 0, GL_BGRA, GL_UNSIGNED_BYTE, texels.data() + at);
    at += std::size_t{size} * size * 4;
  }
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
  glFogi(GL_FOG_MODE, GL_LINEAR);
  glFogi(GL_FOG_COORD_SRC, GL_FOG_COORD);
  glFogf(GL_FOG_START, 0.6f);
  glFogf(GL_FOG_END, 1.0f);
  const DWORD fc = demo::kFogColor;
  const GLfloat fog_color[4] = {static_cast<float>((fc >> 16) & 0xFF) / 255.0f,
                                static_cast<float>((fc >> 8) & 0xFF) / 255.0f, static_cast<float>(fc & 0xFF) / 255.0f,
                                1.0f};
  glFogfv(GL_FOG_COLOR, fog_color);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glEnableClientState(GL_VERTEX_ARRAY);
  glEnableClientState(GL_COLOR_ARRAY);
  glEnableClientState(GL_TEXTURE_COORD_ARRAY);
  glEnableClientState(GL_FOG_COORD_ARRAY);
  auto frame = [&](const GlDemoFrame& g) {
    glVertexPointer(4, GL_FLOAT, 0, g.pos.data());
    glColorPointer(GL_BGRA, GL_UNSIGNED_BYTE, 0, g.color.data());
    glTexCoordPointer(2, GL_FLOAT, 0, g.tex.data());
    glFogCoordPointer(GL_FLOAT, 0, g.fog.data());
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glDepthFunc(GL_LEQUAL);
    glEnable(GL_FOG);
    glEnable(GL_TEXTURE_2D);
    glDisable(GL_BLEND);
    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(floor.size()), GL_UNSIGNED_SHORT, floor.data());
    glEnable(GL_BLEND);
    glDrawArrays(GL_TRIANGLES, kFloor, 3 * kConfetti);
    glDisable(GL_FOG);
    glDisable(GL_TEXTURE_2D);
    glDisable(GL_BLEND);
    glDrawArrays(GL_TRIANGLE_FAN, kFloor + 3 * kConfetti, 4);
    glEnable(GL_BLEND);
    glDepthFunc(GL_ALWAYS);
    glDrawArrays(GL_TRIANGLE_FAN, kFloor + 3 * kConfetti + 4, 4);
    glFinish();
  };
  frame(fr[0]);
  res.image = gl.image();
  if (GLenum e = glGetError(); e != GL_NO_ERROR) {
    res.error = "GL error " + std::to_string(e);
  } else if (drawn_share(res.image.data(), demo::kWidth, demo::kHeight, std::size_t{demo::kWidth} * 4,
                         demo::kClearColor) < 0.3) {
    res.error = "image check failed";
  } else {
    const auto start = Clock::now();
    for (int f = 1; f <= frames; ++f) frame(fr[static_cast<std::size_t>(f)]);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count() / frames;
    res.rate = 1.0 / seconds;
  }
  glDisableClientState(GL_VERTEX_ARRAY);
  glDisableClientState(GL_COLOR_ARRAY);
  glDisableClientState(GL_TEXTURE_COORD_ARRAY);
  glDisableClientState(GL_FOG_COORD_ARRAY);
  glDisable(GL_FOG);
  glDisable(GL_TEXTURE_2D);
  glDisable(GL_BLEND);
  glDeleteTextures(1, &tex);
  return res;
}
#endif  // DP2BENCH_HAVE_OSMESA

std::string fmt(const std::optional<double>& v, const char* format = "%.2f") {
  if (!v) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, format, *v);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "dp2bench: renders the speed workloads through dp2 and, when built with OSMesa, through Mesa's llvmpipe "
      "(fixed-function GL) in the same run, and prints one row per workload.\n"
      "  W1 100 full-screen Gouraud quads (Mpix/s)   W2 W1 + bilinear texture, MODULATE (Mpix/s)\n"
      "  W3 W2 + SRCALPHA/INVSRCALPHA blend (Mpix/s) W4 1,000,000 Gouraud triangles of ~10 px (Mtri/s)\n"
      "  W5 100,000 textured triangles of ~200 px (Mtri/s)   demo: the `make demo` scene, 640x480 (frames/s)\n"
      "All at 1024x768 X8R8G8B8 + D24S8, depth LESS, every fragment passes. Streams are built before timing; a "
      "frame is DrawPrimitives2 + wait_idle (dp2) or the GL calls + glFinish (llvmpipe), after one untimed, "
      "image-checked warm-up frame. Peak RSS is getrusage ru_maxrss: process-wide, both renderers, so far."};
  std::string workload = "all", isa = "auto", target_bits = "32";
  unsigned threads = 2;
  int frames = 0;
  bool csv = false, no_llvmpipe = false;
  app.add_option("--workload,-w", workload, "W1, W2, W3, W4, W5, demo or all")
      ->check(CLI::IsMember({"W1", "W2", "W3", "W4", "W5", "demo", "all"}, CLI::ignore_case))
      ->capture_default_str();
  app.add_option("--threads,-t", threads,
                 "render threads: dp2 DeviceDesc::render_threads, llvmpipe LP_NUM_THREADS (set before the GL context "
                 "is created; overrides the environment)")
      ->check(CLI::Range(1u, 256u))
      ->capture_default_str();
  app.add_option("--frames,-f", frames,
                 "timed frames per workload (default: 10 for W1-W3 and demo, 3 for W4, 5 for W5), after one untimed "
                 "warm-up frame")
      ->check(CLI::Range(1, 100000));
  app.add_option("--isa", isa,
                 "instruction set of dp2's SIMD kernels: " + dp2::simd_target_names() +
                     " (auto: the best this CPU runs; a target the CPU lacks falls back to the best it has — the isa "
                     "column says what ran)")
      ->check([](const std::string& name) {
        dp2::SimdTarget t;
        return dp2::simd_target_from_name(name, t) ? std::string() : "not one of " + dp2::simd_target_names();
      })
      ->capture_default_str();
  app.add_option("--target", target_bits,
                 "32: X8R8G8B8 + D24S8, the workloads as the speed issue defines them; 16: the same scenes on "
                 "R5G6B5 + D16 with D3DRS_DITHERENABLE (dp2 only: the llvmpipe column is n/a)")
      ->check(CLI::IsMember({"32", "16"}))
      ->capture_default_str();
  app.add_flag("--csv", csv, "print CSV instead of a table");
  app.add_flag("--no-llvmpipe", no_llvmpipe, "skip the llvmpipe (OSMesa) side");
  CLI11_PARSE(app, argc, argv);
  for (char& c : workload) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (workload == "DEMO") workload = "demo";
  if (workload == "ALL") workload = "all";

  dp2::SimdTarget simd = dp2::SimdTarget::kAuto;
  dp2::simd_target_from_name(isa, simd);  // CLI11 admitted only known names

  Target target;
  if (target_bits == "16") target = {D3DFMT_R5G6B5, D3DFMT_D16, true};
  bool llvmpipe = !no_llvmpipe && !target.sixteen();
#ifdef DP2BENCH_HAVE_OSMESA
  std::unique_ptr<GlContext> gl;
  if (llvmpipe) {
    // llvmpipe reads LP_NUM_THREADS when its screen is created (the first context).
    setenv("LP_NUM_THREADS", std::to_string(threads).c_str(), 1);
    gl = std::make_unique<GlContext>();
    std::string renderer;
    if (!gl->create(renderer)) {
      std::fprintf(stderr, "note: OSMesa context creation failed; llvmpipe column is n/a\n");
      gl.reset();
      llvmpipe = false;
    } else {
      std::fprintf(stderr, "llvmpipe: GL_RENDERER \"%s\", LP_NUM_THREADS=%u\n", renderer.c_str(), threads);
    }
  }
#else
  if (llvmpipe) std::fprintf(stderr, "note: built without OSMesa (libosmesa6-dev): llvmpipe column is n/a\n");
  llvmpipe = false;
#endif

  struct Entry {
    const char* name;
    int default_frames;
  };
  const Entry entries[] = {{"W1", 10}, {"W2", 10}, {"W3", 10}, {"W4", 3}, {"W5", 5}, {"demo", 10}};

  if (csv)
    std::printf("workload,unit,dp2_rate,llvmpipe_rate,ratio_dp2_over_llvmpipe,threads,frames,peak_rss_mb,"
                "image_mean_abs_diff,isa,kernel,call_ms\n");
  else
    std::printf("%-5s %-9s %10s %10s %8s %7s %6s %11s %9s %8s %-7s %s\n", "name", "unit", "dp2", "llvmpipe", "ratio",
                "threads", "frames", "peakRSS_MB", "img_diff", "call_ms", "isa", "kernel");
  int status = 0;
  for (const Entry& e : entries) {
    if (workload != "all" && workload != e.name) continue;
    const int n = frames > 0 ? frames : e.default_frames;
    const bool is_demo = std::string(e.name) == "demo";
    std::optional<Scene> scene;
    Unit unit = Unit::kFps;
    if (!is_demo) {
      const std::string name = e.name;
      scene = name == "W1"   ? make_quads(name, false, false)
              : name == "W2" ? make_quads(name, true, false)
              : name == "W3" ? make_quads(name, true, true)
              : name == "W4" ? make_triangles(name, 1000000, 10.0f, false)
                             : make_triangles(name, 100000, 200.0f, true);
      unit = scene->unit;
    }
    // W4's tiny triangles leave gaps and overlap: a lower bar for "plausible".
    const double min_drawn = std::string(e.name) == "W4" ? 0.5 : 0.9;
    if (is_demo && target.sixteen()) continue;  // the demo scene has its own surfaces
    Result d = is_demo ? run_dp2_demo(threads, simd, n) : run_dp2_scene(*scene, target, threads, simd, n, min_drawn);
    Result g;
#ifdef DP2BENCH_HAVE_OSMESA
    if (llvmpipe && gl) g = is_demo ? run_gl_demo(*gl, n) : run_gl_scene(*gl, *scene, n, min_drawn);
#endif
    if (!d.error.empty()) {
      std::fprintf(stderr, "%s: dp2: %s\n", e.name, d.error.c_str());
      status = 1;
    }
    if (!g.error.empty()) {
      std::fprintf(stderr, "%s: llvmpipe: %s\n", e.name, g.error.c_str());
      status = 1;
    }
    std::optional<double> ratio;
    if (d.rate && g.rate && *g.rate > 0) ratio = *d.rate / *g.rate;
    std::optional<double> diff;
    if (!d.image.empty() && !g.image.empty()) diff = mean_diff(d.image, g.image);
    const double rss = peak_rss_mb();
    if (csv)
      std::printf("%s,%s,%s,%s,%s,%u,%d,%.1f,%s,%s,%s,%s\n", e.name, unit_name(unit), fmt(d.rate, "%.4f").c_str(),
                  fmt(g.rate, "%.4f").c_str(), fmt(ratio, "%.4f").c_str(), threads, n, rss,
                  fmt(diff, "%.2f").c_str(), d.simd.c_str(), d.kernel.c_str(), fmt(d.call_ms, "%.3f").c_str());
    else
      std::printf("%-5s %-9s %10s %10s %8s %7u %6d %11.1f %9s %8s %-7s %s\n", e.name, unit_name(unit),
                  fmt(d.rate).c_str(), fmt(g.rate).c_str(), fmt(ratio, "%.3f").c_str(), threads, n, rss,
                  fmt(diff, "%.1f").c_str(), fmt(d.call_ms, "%.2f").c_str(), d.simd.c_str(), d.kernel.c_str());
    std::fflush(stdout);
  }
  return status;
}
