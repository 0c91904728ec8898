// dp2::StreamWriter / VertexWriter / fvf_stride. Every expected byte string below is
// written by hand from DP2-OPCODES.md §1 (4-byte header: op, reserved, WORD count), §3
// (what follows each header) and §4.1 (structure layouts), never from the writer's output.
#include <doctest/doctest.h>

#include <bit>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <vector>

#include "ddi/decoder.h"
#include "dp2/stream_writer.h"

namespace {

static_assert(std::endian::native == std::endian::little, "expected bytes are little-endian");

using Bytes = std::vector<std::byte>;

// Builds an expected byte string: b(0x08, 0x00) appends bytes, d(x) a little-endian DWORD,
// w(x) a WORD, f(x) a float's bit pattern.
struct Expect {
  Bytes bytes;
  Expect& b(std::initializer_list<unsigned> list) {
    for (unsigned v : list) bytes.push_back(static_cast<std::byte>(v));
    return *this;
  }
  Expect& w(unsigned v) { return b({v & 0xFFu, (v >> 8) & 0xFFu}); }
  Expect& d(std::uint32_t v) { return b({v & 0xFFu, (v >> 8) & 0xFFu, (v >> 16) & 0xFFu, v >> 24}); }
  Expect& f(float v) { return d(std::bit_cast<std::uint32_t>(v)); }
  Expect& zeros(std::size_t n) {
    bytes.insert(bytes.end(), n, std::byte{0});
    return *this;
  }
};

Bytes to_vec(std::span<const std::byte> s) { return Bytes(s.begin(), s.end()); }

// Every stream the writer produces must decode completely with the executor's decoder.
std::size_t decoded_commands(std::span<const std::byte> s, std::size_t base = 0, std::uint32_t stride = 0) {
  dp2::ddi::DecodeOptions opt;
  opt.alignment_base = base;
  opt.imm_vertex_stride = stride;
  std::size_t offset = 0, n = 0;
  while (offset < s.size()) {
    auto r = dp2::ddi::decode_one(s, offset, opt);
    REQUIRE(r.error == dp2::ddi::DecodeError::kNone);
    offset += r.command.size;
    ++n;
  }
  CHECK(offset == s.size());
  return n;
}

}  // namespace

TEST_CASE("StreamWriter: one RENDERSTATE is 08 00 01 00 + state + value") {
  dp2::StreamWriter w;
  w.render_state(D3DRS_ZENABLE, 1);
  Expect e;
  e.b({0x08, 0x00, 0x01, 0x00}).d(7).d(1);
  CHECK(to_vec(w.bytes()) == e.bytes);
  CHECK(w.size() == 12);
  CHECK(w.command_count() == 1);
}

TEST_CASE("StreamWriter: consecutive render states merge, another command ends the merge") {
  dp2::StreamWriter w;
  w.render_state(D3DRS_ZENABLE, 1)
      .render_state_f(D3DRS_FOGSTART, 0.5f)
      .texture_stage_state(0, 1, 4)  // D3DTSS_COLOROP = D3DTOP_MODULATE
      .texture_stage_state(1, 2, 2)  // D3DTSS_COLORARG1 = D3DTA_TEXTURE
      .render_state(D3DRS_CULLMODE, 1);
  Expect e;
  e.b({0x08, 0x00, 0x02, 0x00}).d(7).d(1).d(36).f(0.5f);
  e.b({0x19, 0x00, 0x02, 0x00}).w(0).w(1).d(4).w(1).w(2).d(2);
  e.b({0x08, 0x00, 0x01, 0x00}).d(22).d(1);
  CHECK(to_vec(w.bytes()) == e.bytes);
  CHECK(w.command_count() == 3);
  CHECK(decoded_commands(w.bytes()) == 3);

  dp2::StreamWriter split;
  split.render_state(D3DRS_ZENABLE, 1).end_merge().render_state(D3DRS_ZENABLE, 0);
  CHECK(split.size() == 24);
  CHECK(split.command_count() == 2);
}

TEST_CASE("StreamWriter: a merged RENDERSTATE stops at 65535 states") {
  dp2::StreamWriter w;
  for (int i = 0; i < 65536; ++i) w.render_state(D3DRS_ZENABLE, 1);
  // 4 + 65535 × 8, then a second command with one state.
  REQUIRE(w.size() == 4 + 65535 * 8 + 4 + 8);
  CHECK(w.bytes()[2] == std::byte{0xFF});
  CHECK(w.bytes()[3] == std::byte{0xFF});
  const std::size_t second = 4 + 65535 * 8;
  CHECK(w.bytes()[second] == std::byte{0x08});
  CHECK(w.bytes()[second + 2] == std::byte{0x01});
  CHECK(w.bytes()[second + 3] == std::byte{0x00});
  CHECK(decoded_commands(w.bytes()) == 2);
}

TEST_CASE("StreamWriter: legacy non-indexed primitives carry one wVStart") {
  dp2::StreamWriter w;
  w.triangle_list(5, 2).line_list(1, 3).line_strip(0, 4).triangle_strip(2, 1).triangle_fan(7, 5);
  Expect e;
  e.b({18, 0, 2, 0}).w(5);
  e.b({15, 0, 3, 0}).w(1);
  e.b({16, 0, 4, 0}).w(0);
  e.b({19, 0, 1, 0}).w(2);
  e.b({21, 0, 5, 0}).w(7);
  CHECK(to_vec(w.bytes()) == e.bytes);
  CHECK(decoded_commands(w.bytes()) == 5);
}

TEST_CASE("StreamWriter: POINTS and the DX6 indexed lists") {
  dp2::StreamWriter w;
  const D3DHAL_DP2POINTS runs[] = {{3, 0}, {1, 9}};
  const D3DHAL_DP2INDEXEDLINELIST lines[] = {{0, 1}};
  D3DHAL_DP2INDEXEDTRIANGLELIST tri{};
  tri.wV1 = 0;
  tri.wV2 = 1;
  tri.wV3 = 2;
  tri.wFlags = 0x700;  // D3DTRIFLAG_EDGEENABLETRIANGLE
  w.points(runs).indexed_line_list(lines).indexed_triangle_list(std::span(&tri, 1));
  Expect e;
  e.b({1, 0, 2, 0}).w(3).w(0).w(1).w(9);
  e.b({2, 0, 1, 0}).w(0).w(1);
  e.b({3, 0, 1, 0}).w(0).w(1).w(2).w(0x700);
  CHECK(to_vec(w.bytes()) == e.bytes);
  CHECK(decoded_commands(w.bytes()) == 3);
}

TEST_CASE("StreamWriter: STARTVERTEX forms: counts from the index arrays") {
  dp2::StreamWriter w;
  const WORD tris[] = {0, 1, 2, 2, 1, 3};
  const WORD pairs[] = {0, 1, 1, 2};
  const WORD strip[] = {0, 1, 2, 3};
  w.indexed_triangle_list2(3, tris)
      .indexed_line_list2(4, pairs)
      .indexed_line_strip(0, std::span(strip, 3))
      .indexed_triangle_strip(1, strip)
      .indexed_triangle_fan(2, strip);
  Expect e;
  e.b({26, 0, 2, 0}).w(3).w(0).w(1).w(2).w(2).w(1).w(3);  // 2 + 6n
  e.b({27, 0, 2, 0}).w(4).w(0).w(1).w(1).w(2);            // 2 + 4n
  e.b({17, 0, 2, 0}).w(0).w(0).w(1).w(2);                 // 2 + 2(n+1)
  e.b({20, 0, 2, 0}).w(1).w(0).w(1).w(2).w(3);            // 2 + 2(n+2)
  e.b({22, 0, 2, 0}).w(2).w(0).w(1).w(2).w(3);
  CHECK(to_vec(w.bytes()) == e.bytes);
  CHECK(decoded_commands(w.bytes()) == 5);

  const WORD odd[] = {0, 1, 2};
  CHECK_THROWS_AS(w.indexed_line_list2(0, odd), std::invalid_argument);
  CHECK_THROWS_AS(w.indexed_triangle_list2(0, std::span(odd, 2)), std::invalid_argument);
}

TEST_CASE("StreamWriter: counts beyond a WORD throw std::length_error") {
  dp2::StreamWriter w;
  std::vector<WORD> indices(2 * 65536, 0);
  CHECK_THROWS_AS(w.indexed_line_list2(0, indices), std::length_error);
  std::vector<D3DHAL_DP2POINTS> runs(65536);
  CHECK_THROWS_AS(w.points(runs), std::length_error);
  std::vector<RECT> rects(65536);
  CHECK_THROWS_AS(w.clear(1, 0, 1.0f, 0, rects), std::length_error);
  // 65535 triangles in a list2 is fine: 65535 × 3 indices.
  std::vector<WORD> max_tris(3 * 65535, 0);
  CHECK_NOTHROW(w.indexed_triangle_list2(0, max_tris));
}

TEST_CASE("StreamWriter: _IMM vertex data is DWORD-aligned relative to the buffer") {
  // Two 16-byte XYZRHW-sized "vertices" with recognisable contents.
  Bytes verts(32);
  for (std::size_t i = 0; i < verts.size(); ++i) verts[i] = static_cast<std::byte>(0xA0 + i);

  SUBCASE("fan at offset 0: header 0..4, dwEdgeFlags 4..8, vertices at 8, no padding") {
    Bytes fan_verts(48, std::byte{0x11});  // 3 vertices = n + 2, n = 1
    dp2::StreamWriter w;
    w.triangle_fan_imm(0x7, fan_verts, 16);
    Expect e;
    e.b({23, 0, 1, 0}).d(7);
    e.bytes.insert(e.bytes.end(), fan_verts.begin(), fan_verts.end());
    CHECK(to_vec(w.bytes()) == e.bytes);
    CHECK(decoded_commands(w.bytes(), 0, 16) == 1);
  }
  SUBCASE("fan after a 6-byte command: flags at 10..14, 2 pad bytes, vertices at 16") {
    Bytes fan_verts(48, std::byte{0x22});
    dp2::StreamWriter w;
    w.triangle_list(0, 1).triangle_fan_imm(0x5, fan_verts, 16);
    Expect e;
    e.b({18, 0, 1, 0}).w(0);
    e.b({23, 0, 1, 0}).d(5).zeros(2);
    e.bytes.insert(e.bytes.end(), fan_verts.begin(), fan_verts.end());
    REQUIRE(e.bytes.size() == 16 + 48);
    CHECK(to_vec(w.bytes()) == e.bytes);
    CHECK(decoded_commands(w.bytes(), 0, 16) == 2);
  }
  SUBCASE("line list at base offset 2: vertices at buffer offset 8 = stream offset 6") {
    dp2::StreamWriter w(2);
    w.line_list_imm(verts, 16);  // 2 vertices = 1 line
    Expect e;
    e.b({24, 0, 1, 0}).zeros(2);
    e.bytes.insert(e.bytes.end(), verts.begin(), verts.end());
    CHECK(to_vec(w.bytes()) == e.bytes);
    CHECK(decoded_commands(w.bytes(), 2, 16) == 1);
  }
  SUBCASE("line list at base offset 0 after 6 bytes: 2 pad bytes") {
    dp2::StreamWriter w;
    w.set_base_offset(0).line_list(0, 1).line_list_imm(verts, 16);
    Expect e;
    e.b({15, 0, 1, 0}).w(0);
    e.b({24, 0, 1, 0}).zeros(2);
    e.bytes.insert(e.bytes.end(), verts.begin(), verts.end());
    CHECK(to_vec(w.bytes()) == e.bytes);
  }
  SUBCASE("fan at base offset 2 right at the start: flags 4..8 (buffer 6..10), 2 pad") {
    Bytes fan_verts(32, std::byte{0x33});  // 2 vertices: n = 0
    dp2::StreamWriter w(2);
    w.triangle_fan_imm(0, fan_verts, 16);
    Expect e;
    e.b({23, 0, 0, 0}).d(0).zeros(2);
    e.bytes.insert(e.bytes.end(), fan_verts.begin(), fan_verts.end());
    CHECK(to_vec(w.bytes()) == e.bytes);
  }
  SUBCASE("bad vertex byte counts throw") {
    dp2::StreamWriter w;
    CHECK_THROWS_AS(w.line_list_imm(std::span(verts).first(16), 16), std::invalid_argument);  // odd count
    CHECK_THROWS_AS(w.triangle_fan_imm(0, std::span(verts).first(20), 16), std::invalid_argument);
    CHECK_THROWS_AS(w.set_base_offset(4).triangle_list(0, 1).set_base_offset(8), std::logic_error);
  }
}

TEST_CASE("StreamWriter: CLEAR with no rects still carries one RECT, with rects, n RECTs") {
  dp2::StreamWriter w;
  w.clear(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xFF102030u, 1.0f, 0);
  Expect e;
  e.b({42, 0, 0, 0}).d(3).d(0xFF102030u).f(1.0f).d(0).zeros(16);
  CHECK(to_vec(w.bytes()) == e.bytes);

  dp2::StreamWriter w2;
  const RECT r[] = {{1, 2, 3, 4}, {-1, 0, 640, 480}};
  w2.clear(D3DCLEAR_TARGET, 0, 0.0f, 7, r);
  Expect e2;
  e2.b({42, 0, 2, 0}).d(1).d(0).f(0.0f).d(7).d(1).d(2).d(3).d(4).d(0xFFFFFFFFu).d(0).d(640).d(480);
  CHECK(to_vec(w2.bytes()) == e2.bytes);
  CHECK(decoded_commands(w.bytes()) == 1);
  CHECK(decoded_commands(w2.bytes()) == 1);
}

TEST_CASE("StreamWriter: fixed-size state commands") {
  dp2::StreamWriter w;
  D3DMATRIX m{};
  m._11 = 1.0f;
  m._22 = 2.0f;
  m._44 = 3.0f;
  const float plane[4] = {0.0f, 1.0f, 0.0f, -5.0f};
  w.viewport(1, 2, 640, 480)
      .winfo(0.25f, 100.0f)
      .zrange(0.0f, 1.0f)
      .set_transform(D3DTS_PROJECTION, m)
      .create_light(3)
      .enable_light(3, true)
      .enable_light(4, false)
      .set_clip_plane(2, plane)
      .set_render_target(10, 11)
      .set_texlod(12, 2)
      .set_palette(5, 0x2000, 12)
      .state_set(D3DHAL_STATESETBEGIN, 9, 0);
  Expect e;
  e.b({28, 0, 1, 0}).d(1).d(2).d(640).d(480);
  e.b({29, 0, 1, 0}).f(0.25f).f(100.0f);
  e.b({32, 0, 1, 0}).f(0.0f).f(1.0f);
  e.b({36, 0, 1, 0}).d(3).f(1.0f).zeros(16).f(2.0f).zeros(36).f(3.0f);  // _11, _22 at +20, _44 at +60 of the matrix
  e.b({35, 0, 1, 0}).d(3);
  e.b({34, 0, 1, 0}).d(3).d(0);  // D3DHAL_SETLIGHT_ENABLE
  e.b({34, 0, 1, 0}).d(4).d(1);  // D3DHAL_SETLIGHT_DISABLE
  e.b({44, 0, 1, 0}).d(2).f(0.0f).f(1.0f).f(0.0f).f(-5.0f);
  e.b({41, 0, 1, 0}).d(10).d(11);
  e.b({43, 0, 1, 0}).d(12).d(2);
  e.b({30, 0, 1, 0}).d(5).d(0x2000).d(12);
  e.b({39, 0, 1, 0}).d(0).d(9).d(0);
  CHECK(to_vec(w.bytes()) == e.bytes);
  CHECK(decoded_commands(w.bytes()) == 12);
}

TEST_CASE("StreamWriter: SETLIGHT data, SETMATERIAL, UPDATEPALETTE") {
  dp2::StreamWriter w;
  D3DLIGHT7 light{};
  light.dltType = D3DLIGHT_DIRECTIONAL;
  light.dvPhi = 0.5f;
  D3DMATERIAL7 mat{};
  mat.power = 8.0f;
  const DWORD entries[] = {0xFF00FF00u, 0x11223344u};
  w.set_light_data(1, light).set_material(mat).update_palette(5, 10, entries);
  Expect e;
  e.b({34, 0, 1, 0}).d(1).d(2).d(3).zeros(96).f(0.5f);  // D3DLIGHT7: dltType +0, dvPhi +100
  e.b({33, 0, 1, 0}).zeros(64).f(8.0f);                 // D3DMATERIAL7: power +64
  e.b({31, 0, 1, 0}).d(5).w(10).w(2).d(0xFF00FF00u).d(0x11223344u);
  CHECK(to_vec(w.bytes()) == e.bytes);
  CHECK(decoded_commands(w.bytes()) == 3);
}

TEST_CASE("StreamWriter: DX8/DX9 stream commands") {
  dp2::StreamWriter w;
  w.set_vertex_shader(D3DFVF_TLVERTEX)
      .set_stream_source(0, 7, 32)
      .set_stream_source_um(0, 28)
      .set_stream_source2(1, 8, 64, 16)
      .set_indices(9, 2)
      .draw_primitive(D3DPT_TRIANGLELIST, 3, 1)
      .draw_indexed_primitive(D3DPT_TRIANGLESTRIP, -2, 0, 4, 6, 2)
      .draw_primitive2(D3DPT_LINELIST, 64, 2)
      .draw_indexed_primitive2(D3DPT_TRIANGLEFAN, -32, 1, 5, 12, 3)
      .clipped_triangle_fan(96, 0x1F, 3);
  Expect e;
  e.b({47, 0, 1, 0}).d(0x1C4);
  e.b({49, 0, 1, 0}).d(0).d(7).d(32);
  e.b({50, 0, 1, 0}).d(0).d(28);
  e.b({80, 0, 1, 0}).d(1).d(8).d(64).d(16);
  e.b({51, 0, 1, 0}).d(9).d(2);
  e.b({52, 0, 1, 0}).d(4).d(3).d(1);
  e.b({53, 0, 1, 0}).d(5).d(0xFFFFFFFEu).d(0).d(4).d(6).d(2);
  e.b({59, 0, 1, 0}).d(2).d(64).d(2);
  e.b({60, 0, 1, 0}).d(6).d(0xFFFFFFE0u).d(1).d(5).d(12).d(3);
  e.b({58, 0, 1, 0}).d(96).d(0x1F).d(3);
  CHECK(to_vec(w.bytes()) == e.bytes);
  CHECK(decoded_commands(w.bytes()) == 10);
}

TEST_CASE("StreamWriter: raw() writes header and payload verbatim") {
  dp2::StreamWriter w;
  const std::byte payload[] = {std::byte{1}, std::byte{2}, std::byte{3}};
  w.render_state(D3DRS_ZENABLE, 1).raw(0x63, 0x1234, payload).render_state(D3DRS_ZENABLE, 0);
  Expect e;
  e.b({8, 0, 1, 0}).d(7).d(1);
  e.b({0x63, 0, 0x34, 0x12, 1, 2, 3});
  e.b({8, 0, 1, 0}).d(7).d(0);  // raw ended the merge
  CHECK(to_vec(w.bytes()) == e.bytes);
}

TEST_CASE("fvf_stride follows STATES.md §10") {
  CHECK(dp2::fvf_stride(D3DFVF_TLVERTEX) == 32);  // 16 + 4 + 4 + 8
  CHECK(dp2::fvf_stride(D3DFVF_VERTEX) == 32);    // 12 + 12 + 8
  CHECK(dp2::fvf_stride(D3DFVF_XYZRHW) == 16);
  CHECK(dp2::fvf_stride(D3DFVF_XYZ) == 12);
  CHECK(dp2::fvf_stride(D3DFVF_XYZB1) == 16);
  CHECK(dp2::fvf_stride(D3DFVF_XYZB5) == 32);
  CHECK(dp2::fvf_stride(D3DFVF_XYZW) == 16);
  CHECK(dp2::fvf_stride(D3DFVF_XYZ | D3DFVF_PSIZE | D3DFVF_DIFFUSE) == 20);
  // Two sets: 3 floats and 1 float.
  CHECK(dp2::fvf_stride(D3DFVF_XYZRHW | D3DFVF_TEX2 | D3DFVF_TEXCOORDSIZE3(0) | D3DFVF_TEXCOORDSIZE1(1)) == 32);
  CHECK(dp2::fvf_stride(D3DFVF_XYZRHW | D3DFVF_TEX8) == 16 + 8 * 8);
}

TEST_CASE("VertexWriter packs TL vertices in FVF order") {
  dp2::VertexWriter v(D3DFVF_TLVERTEX);
  v.tl(1.0f, 2.0f, 0.5f, 1.0f, 0xFF00FF00u, 0x00000001u, 0.25f, 0.75f);
  Expect e;
  e.f(1.0f).f(2.0f).f(0.5f).f(1.0f).d(0xFF00FF00u).d(1).f(0.25f).f(0.75f);
  CHECK(to_vec(v.bytes()) == e.bytes);
  CHECK(v.vertex_count() == 1);

  dp2::VertexWriter d(D3DFVF_XYZRHW | D3DFVF_DIFFUSE);
  d.tl(3.0f, 4.0f, 0.0f, 1.0f, 0x12345678u);
  Expect e2;
  e2.f(3.0f).f(4.0f).f(0.0f).f(1.0f).d(0x12345678u);
  CHECK(to_vec(d.bytes()) == e2.bytes);

  dp2::VertexWriter raw(D3DFVF_XYZ | D3DFVF_DIFFUSE);
  raw.f(1).f(2).f(3).dword(0xFFFFFFFFu).end_vertex();
  CHECK(raw.vertex_count() == 1);
  raw.f(1);
  CHECK_THROWS_AS(raw.end_vertex(), std::logic_error);
}

TEST_CASE("Dp2Call fills the D3DHAL_DRAWPRIMITIVES2DATA fields") {
  dp2::StreamWriter w(8);
  w.triangle_list(0, 1);
  dp2::VertexWriter v(D3DFVF_TLVERTEX);
  for (int i = 0; i < 3; ++i) v.tl(float(i), 0, 0, 1);
  dp2::Dp2CallDesc desc;
  desc.vertex_offset = 64;
  desc.command_surface = 0x50;
  desc.vertex_surface = 0x51;
  dp2::Dp2Call call(w, v.bytes(), desc);
  call.fill_data(3);
  CHECK(call.data.dwhContext == 3);
  CHECK(call.data.lpDDCommands == 0x50);
  CHECK(call.data.dwCommandOffset == 8);
  CHECK(call.data.dwCommandLength == 6);
  CHECK(call.data.lpDDVertex == 0x51);
  CHECK(call.data.dwVertexOffset == 64);
  CHECK(call.data.dwVertexLength == 3);  // vertices, not bytes
  CHECK(call.data.dwVertexSize == 32);
  CHECK(call.data.dwVertexType == D3DFVF_TLVERTEX);
  CHECK(call.data.dwFlags == 0);

  dp2::Dp2CallDesc um;
  um.user_memory_vertices = true;
  dp2::Dp2Call user(w.bytes(), v.bytes(), um);
  user.fill_data(1);
  CHECK(user.data.dwFlags == D3DHALDP2_USERMEMVERTICES);
  REQUIRE(user.data.lpVertices != nullptr);
  CHECK(std::memcmp(user.data.lpVertices, v.bytes().data(), v.bytes().size()) == 0);
}
