// Save states (issue 7, docs/save-state.md): render N frames, save, render M more (set A);
// restore into a fresh device, render the same M frames (set B); A and B are the same bytes.
// The scene keeps state across frames on purpose: a palette, render states and a state set
// made in frame 0 and used later, a state set recorded across the save point, a vertex
// buffer refilled through LockAsync(Discard) + Rename only on even frames, a flip chain,
// two contexts and a Render sequence. A bad blob (cut short, corrupt, another version)
// gives an error, never a crash (the asan preset runs this file too).
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "demo_scene.h"
#include "dp2/dp2.h"

namespace {

constexpr DWORD kP8 = 4, kFront = 6, kBack = 7, kVB = 8, kCmd2 = 0x7D00, kPalette = 9;
constexpr DWORD kBlendSet = 30, kAcrossSet = 31;
constexpr std::uint32_t kSmall = 160;  // the second context's flip chain: 160×160
constexpr DWORD kVBFvf = D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1;
constexpr int kN = 3, kM = 4;  // frames before the save, frames after it

dp2::DeviceDesc device_desc() {
  dp2::DeviceDesc d;
  d.video_memory_size = std::uint64_t{32} << 20;
  d.render_threads = 2;
  return d;
}

struct Session {
  std::unique_ptr<dp2::Device> device = std::make_unique<dp2::Device>(device_desc());
  ULONG_PTR c1 = 0, c2 = 0;
  DWORD chain = 0;
};

HANDLE as_handle(std::uintptr_t v) { return reinterpret_cast<HANDLE>(v); }

void setup(Session& s) {
  dp2::Device& dev = *s.device;
  REQUIRE(demo::create(dev, s.c1));
  REQUIRE(dev.create_surface(kP8, {dp2::SurfaceKind::kTexture, D3DFMT_P8, 16, 16}) == D3D_OK);
  std::span<std::byte> p8 = dev.surface_bytes(kP8);
  for (std::size_t i = 0; i < p8.size(); ++i) p8[i] = static_cast<std::byte>((i * 7 + i / 16) & 0xFF);
  const dp2::SurfaceDesc rt{dp2::SurfaceKind::kRenderTarget, D3DFMT_X8R8G8B8, kSmall, kSmall};
  REQUIRE(dev.create_surface(kFront, rt) == D3D_OK);
  REQUIRE(dev.create_surface(kBack, rt) == D3D_OK);
  const DWORD chain[] = {kFront, kBack};
  REQUIRE(dev.create_flip_chain(chain, s.chain) == S_OK);
  dp2::SurfaceDesc vb{dp2::SurfaceKind::kVertexBuffer};
  vb.size_bytes = 4 * dp2::fvf_stride(kVBFvf);
  vb.explicit_vertex_buffer = true;
  REQUIRE(dev.create_surface(kVB, vb) == D3D_OK);
  REQUIRE(dev.create_context({.interface_version = 4, .render_target = kBack}, s.c2) == D3D_OK);
}

// Even frames refill the vertex buffer through LockAsync(Discard) + Rename; odd frames draw
// what the previous even frame left there.
void refill_vb(dp2::Device& dev, int frame) {
  if (frame % 2 != 0) return;
  D3DDDIARG_LOCKASYNC la{};
  la.hResource = as_handle(kVB);
  la.Flags.Discard = 1;
  REQUIRE(dev.LockAsync(la) == S_OK);
  dp2::VertexWriter v(kVBFvf);
  const float o = 10.0f + 7.0f * static_cast<float>(frame);
  v.tl(o, o, 0.5f, 1, 0xFFFF8040u, 0, 0, 0)
      .tl(150, o + 5, 0.5f, 1, 0xFF40FF80u, 0, 1, 0)
      .tl(140, 150, 0.5f, 1, 0xFF8040FFu, 0, 1, 1)
      .tl(o + 3, 140, 0.5f, 1, 0xFFFFFFFFu, 0, 0, 1);
  std::memcpy(la.pSurfData, v.bytes().data(), v.bytes().size());
  D3DDDIARG_UNLOCKASYNC ua{};
  ua.hResource = la.hResource;
  REQUIRE(dev.UnlockAsync(ua) == S_OK);
  D3DDDIARG_RENAME rn{};
  rn.hResource = la.hResource;
  rn.hCookie = la.hCookie;
  REQUIRE(dev.Rename(rn) == S_OK);
}

// The second context's frame: state made in frame 0 is used in later frames.
void render_second(Session& s, int frame) {
  dp2::Device& dev = *s.device;
  dp2::StreamWriter w;
  if (frame == 0) {
    std::vector<DWORD> entries(256);
    for (DWORD i = 0; i < 256; ++i) entries[i] = 0xFF000000u | (i << 16) | ((255 - i) << 8) | ((i * 3) & 0xFF);
    w.viewport(0, 0, kSmall, kSmall)
        .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
        .render_state(D3DRS_ZENABLE, D3DZB_FALSE)
        .render_state(D3DRS_TEXTUREFACTOR, 0xFF20C040u)
        .set_palette(kPalette, 0, kP8)
        .update_palette(kPalette, 0, entries)
        .state_set(D3DHAL_STATESETBEGIN, kBlendSet, 0)
        .render_state(D3DRS_ALPHABLENDENABLE, TRUE)
        .render_state(D3DRS_SRCBLEND, D3DBLEND_SRCCOLOR)
        .render_state(D3DRS_DESTBLEND, D3DBLEND_INVSRCCOLOR)
        .state_set(D3DHAL_STATESETEND, kBlendSet, 0);
    D3DMATRIX m = {};
    m._11 = 2.0f, m._22 = 3.0f, m._33 = 4.0f, m._44 = 1.0f;
    w.set_transform(D3DTRANSFORMSTATE_WORLD, m);
  }
  // A state set recorded across the save point: BEGIN just before it, END just after.
  if (frame == kN - 1) w.state_set(D3DHAL_STATESETBEGIN, kAcrossSet, 0).render_state(D3DRS_TEXTUREFACTOR, 0xFFFF2020u);
  if (frame == kN) w.state_set(D3DHAL_STATESETEND, kAcrossSet, 0);
  if (frame > kN && frame % 2 == 1) w.state_set(D3DHAL_STATESETEXECUTE, kAcrossSet, 0);
  w.clear(D3DCLEAR_TARGET, 0xFF000000u | static_cast<DWORD>(frame * 0x102030), 1.0f, 0, {});
  if (frame % 2 == 1) w.state_set(D3DHAL_STATESETEXECUTE, kBlendSet, 0);
  else w.render_state(D3DRS_ALPHABLENDENABLE, FALSE);
  w.texture_stage_state(0, D3DTSS_TEXTUREMAP, kP8)
      .texture_stage_state(0, D3DTSS_COLORARG1, D3DTA_TEXTURE)
      .texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_MODULATE)
      .triangle_fan(0, 2)
      .texture_stage_state(0, D3DTSS_COLORARG1, D3DTA_TFACTOR)
      .texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_SELECTARG1)
      .triangle_fan(0, 1);
  dev.destroy_surface(kCmd2);
  dp2::Dp2CallDesc desc;
  desc.command_surface = kCmd2;
  desc.vertex_type = kVBFvf;
  dp2::Dp2Call call(w, {}, desc);
  REQUIRE(call.upload(dev, s.c2) == D3D_OK);
  call.data.lpDDVertex = kVB;
  call.data.dwVertexLength = 4;
  call.data.dwVertexSize = dp2::fvf_stride(kVBFvf);
  dev.DrawPrimitives2(call.data);
  REQUIRE(call.data.ddrval == D3D_OK);
}

// A pfnRenderCb submission with nothing to draw: its RenderCBSequence must carry over.
void render_cb(Session& s, int frame) {
  D3DDDICB_RENDER r{};
  r.hContext = as_handle(s.c1);
  r.RenderCBSequence = static_cast<UINT>(frame + 1);
  r.Flags.NullRendering = 1;
  CHECK(s.device->Render(r) == S_OK);
}

using Images = std::vector<std::vector<std::byte>>;

void frame(Session& s, int f, Images* images) {
  dp2::Device& dev = *s.device;
  REQUIRE(demo::render(dev, s.c1, f) == D3D_OK);
  refill_vb(dev, f);
  render_second(s, f);
  render_cb(s, f);
  REQUIRE(dev.Flip(s.chain) == S_OK);
  dev.wait_idle();
  dp2::FrontBuffer fb;
  REQUIRE(dev.poll_frame(s.chain, fb));
  if (!images) return;
  images->emplace_back(fb.data, fb.data + std::size_t{fb.pitch} * fb.height);
  for (DWORD h : {demo::kTarget, demo::kDepth, kBack}) {
    const auto b = dev.surface_bytes(h);
    images->emplace_back(b.begin(), b.end());
  }
}

// A session rendered to the save point, and its blob.
struct Saved {
  Session session;
  std::vector<std::byte> blob;
};

std::unique_ptr<Saved> render_and_save() {
  auto s = std::make_unique<Saved>();
  setup(s->session);
  for (int f = 0; f < kN; ++f) frame(s->session, f, nullptr);
  std::string error;
  REQUIRE(s->session.device->save_state(s->blob, &error) == S_OK);
  CHECK(error.empty());
  return s;
}

HRESULT restore_fresh(std::span<const std::byte> blob, std::string* error = nullptr) {
  dp2::Device fresh(device_desc());
  return fresh.restore_state(blob, error);
}

void set_u64(std::vector<std::byte>& b, std::size_t at, std::uint64_t v) { std::memcpy(b.data() + at, &v, 8); }

}  // namespace

TEST_CASE("save state: rendering after a restore gives the same bytes") {
  auto saved = render_and_save();
  Images a, b;
  for (int f = kN; f < kN + kM; ++f) frame(saved->session, f, &a);

  Session restored;
  std::string error;
  REQUIRE_MESSAGE(restored.device->restore_state(saved->blob, &error) == S_OK, error);
  restored.c1 = saved->session.c1;
  restored.c2 = saved->session.c2;
  restored.chain = saved->session.chain;
  // A restored device saves the same blob: nothing was lost or added on the way.
  std::vector<std::byte> again;
  REQUIRE(restored.device->save_state(again) == S_OK);
  CHECK(again == saved->blob);
  for (int f = kN; f < kN + kM; ++f) frame(restored, f, &b);

  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("image " << i << " (frame " << kN + static_cast<int>(i) / 4 << ")");
    CHECK(a[i] == b[i]);
  }
  // New handles continue from the saved counters.
  ULONG_PTR c3 = 0, c3r = 0;
  REQUIRE(saved->session.device->create_context({}, c3) == D3D_OK);
  REQUIRE(restored.device->create_context({}, c3r) == D3D_OK);
  CHECK(c3 == c3r);
}

TEST_CASE("save state: the frames after the save differ from frame to frame (the test sees something)") {
  auto saved = render_and_save();
  Images a;
  for (int f = kN; f < kN + 2; ++f) frame(saved->session, f, &a);
  CHECK(a[0] != a[4]);  // the flip chain's front buffer
  CHECK(a[1] != a[5]);  // the demo's target
}

TEST_CASE("save state: a blob cut short anywhere gives an error, never a crash") {
  auto saved = render_and_save();
  const std::vector<std::byte>& blob = saved->blob;
  std::vector<std::size_t> cuts;
  for (std::size_t n = 0; n < 80; ++n) cuts.push_back(n);  // inside the header and device record
  for (std::size_t n = 80; n < blob.size(); n += blob.size() / 97 + 1) cuts.push_back(n);
  for (std::size_t n = blob.size() - 64; n < blob.size(); ++n) cuts.push_back(n);
  for (std::size_t n : cuts) {
    INFO("cut at " << n << " of " << blob.size());
    std::string error;
    CHECK(restore_fresh(std::span(blob).first(n), &error) == E_INVALIDARG);
    CHECK(!error.empty());
    // Also with the header's body size made to match the cut, so the records' own bounds
    // checks are what catches it.
    if (n >= 32) {
      std::vector<std::byte> cut(blob.begin(), blob.begin() + static_cast<std::ptrdiff_t>(n));
      set_u64(cut, 16, n - 32);
      CHECK(restore_fresh(cut, &error) == E_INVALIDARG);
    }
  }
}

TEST_CASE("save state: corrupt bytes give an error or a working device, never a crash") {
  auto saved = render_and_save();
  const std::vector<std::byte>& blob = saved->blob;
  std::uint32_t seed = 2024;
  auto rnd = [&seed] { return seed = seed * 1664525u + 1013904223u; };
  // The first 4 KiB hold the header, the counters and the surface records' headers; the
  // tail holds the contexts. Corrupt single bytes there, and a few counts to huge values.
  for (int i = 0; i < 120; ++i) {
    std::vector<std::byte> bad = blob;
    const std::size_t at = i < 80 ? rnd() % 4096 : blob.size() - 1 - rnd() % 200000;
    bad[at] = static_cast<std::byte>(rnd() & 0xFF);
    if (i % 10 == 0 && at + 4 <= bad.size()) std::memset(bad.data() + at, 0xFF, 4);
    dp2::Device fresh(device_desc());
    std::string error;
    const HRESULT hr = fresh.restore_state(bad, &error);
    CHECK((hr == S_OK || hr == E_INVALIDARG));
    if (hr == S_OK) {
      // Whatever came back can be saved again.
      std::vector<std::byte> again;
      CHECK(fresh.save_state(again) == S_OK);
    }
  }
}

TEST_CASE("save state: another version, a bad magic, a device that is not fresh, a TnL mismatch") {
  auto saved = render_and_save();
  std::vector<std::byte> other = saved->blob;
  const std::uint16_t major = 2;
  std::memcpy(other.data() + 8, &major, 2);
  std::string error;
  CHECK(restore_fresh(other, &error) == E_INVALIDARG);
  CHECK(error.find("version 2.0") != std::string::npos);

  std::vector<std::byte> magic = saved->blob;
  magic[0] = std::byte{'X'};
  CHECK(restore_fresh(magic, &error) == E_INVALIDARG);
  CHECK(error.find("magic") != std::string::npos);

  // A newer minor version restores (it only appends fields this reader skips).
  std::vector<std::byte> minor = saved->blob;
  const std::uint16_t minor_version = 7;
  std::memcpy(minor.data() + 10, &minor_version, 2);
  CHECK(restore_fresh(minor) == S_OK);

  CHECK(saved->session.device->restore_state(saved->blob, &error) == E_INVALIDARG);
  CHECK(error.find("fresh") != std::string::npos);

  dp2::DeviceDesc tnl = device_desc();
  tnl.transform_and_lighting = true;
  dp2::Device other_kind(tnl);
  CHECK(other_kind.restore_state(saved->blob, &error) == E_INVALIDARG);
  CHECK(restore_fresh({}, &error) == E_INVALIDARG);
}

TEST_CASE("save state: refused while a surface is locked or a LockAsync instance awaits Rename") {
  Session s;
  setup(s);
  dp2::Device& dev = *s.device;
  std::vector<std::byte> blob;
  std::string error;

  D3DDDIARG_LOCK lk{};
  lk.hResource = as_handle(demo::kTexture);
  REQUIRE(dev.Lock(lk) == S_OK);
  CHECK(dev.save_state(blob, &error) == E_INVALIDARG);
  CHECK(error.find("locked") != std::string::npos);
  D3DDDIARG_UNLOCK ul{};
  ul.hResource = lk.hResource;
  REQUIRE(dev.Unlock(ul) == S_OK);

  D3DDDIARG_LOCKASYNC la{};
  la.hResource = as_handle(kVB);
  la.Flags.Discard = 1;
  REQUIRE(dev.LockAsync(la) == S_OK);
  D3DDDIARG_UNLOCKASYNC ua{};
  ua.hResource = la.hResource;
  REQUIRE(dev.UnlockAsync(ua) == S_OK);
  CHECK(dev.save_state(blob, &error) == E_INVALIDARG);
  CHECK(error.find("renamed") != std::string::npos);
  D3DDDIARG_RENAME rn{};
  rn.hResource = la.hResource;
  rn.hCookie = la.hCookie;
  REQUIRE(dev.Rename(rn) == S_OK);
  CHECK(dev.save_state(blob, &error) == S_OK);
}

TEST_CASE("save state: the C API round trip") {
  auto saved = render_and_save();
  // The C device's blob of the same session comes back through dp2_restore_state; save it
  // again through dp2_save_state and compare.
  dp2_device_desc desc{};
  desc.size = sizeof desc;
  desc.video_memory_size = std::uint64_t{32} << 20;
  desc.render_threads = 2;
  dp2_device* dev = nullptr;
  REQUIRE(dp2_device_create(&desc, &dev) == DP2_OK);
  CHECK(dp2_restore_state(dev, saved->blob.data(), saved->blob.size()) == DP2_OK);
  CHECK(dp2_restore_state(dev, saved->blob.data(), saved->blob.size()) == DP2_E_INVALIDARG);  // not fresh

  size_t size = 0;
  REQUIRE(dp2_save_state(dev, nullptr, 0, &size) == DP2_OK);
  CHECK(size == saved->blob.size());
  std::vector<std::byte> small(size / 2);
  size_t needed = 0;
  CHECK(dp2_save_state(dev, small.data(), small.size(), &needed) == DP2_E_INVALIDARG);
  CHECK(needed == size);
  std::vector<std::byte> out(size);
  REQUIRE(dp2_save_state(dev, out.data(), out.size(), &size) == DP2_OK);
  CHECK(out == saved->blob);
  CHECK(dp2_save_state(dev, nullptr, 0, nullptr) == DP2_E_INVALIDARG);
  CHECK(dp2_save_state(nullptr, nullptr, 0, &size) == DP2_E_INVALIDARG);
  CHECK(dp2_restore_state(nullptr, out.data(), out.size()) == DP2_E_INVALIDARG);
  dp2_device_destroy(dev);

  REQUIRE(dp2_device_create(&desc, &dev) == DP2_OK);
  CHECK(dp2_restore_state(dev, out.data(), 40) == DP2_E_INVALIDARG);  // cut short
  CHECK(dp2_restore_state(dev, nullptr, 0) == DP2_E_INVALIDARG);
  CHECK(dp2_restore_state(dev, out.data(), out.size()) == DP2_OK);  // still fresh after the failures
  dp2_device_destroy(dev);
}
