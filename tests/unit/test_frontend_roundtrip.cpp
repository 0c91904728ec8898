// Front-end (D3dDrawPrimitives2) tests: every opcode round-tripped into recorded state and draws.
#include "support/frontend_fixture.h"

// Writer/hand-built stream → DrawPrimitives2 → recorded state and draws. Expected values
// come from DP2-OPCODES.md (§2 rules, §3 table, §3.1 vertex use, §3.2 stream draws, §4
// layouts) and the DDI pages, never from dp2's output.

namespace {
D3DMATRIX matrix(float base) {
  D3DMATRIX m;
  float* p = &m._11;
  for (int k = 0; k < 16; ++k) p[k] = base + static_cast<float>(k);
  return m;
}
bool same(const D3DMATRIX& a, const D3DMATRIX& b) { return std::memcmp(&a, &b, sizeof a) == 0; }
}  // namespace

TEST_CASE("frontend roundtrip: legacy sequential primitives use the §3.1 vertex counts") {
  const Bytes verts = make_vertices(8);
  struct Case {
    const char* what;
    Bytes cmd;
    Topology topology;
    std::uint32_t primitives;
    std::size_t first, count;  // the vertices used (§3.1)
  };
  const Case cases[] = {
      {"LINELIST n=2 from 1: 2n vertices", B().hdr(D3DDP2OP_LINELIST, 2).w(1).v, Topology::kLineList, 2, 1, 4},
      {"LINESTRIP n=3 from 2: n+1", B().hdr(D3DDP2OP_LINESTRIP, 3).w(2).v, Topology::kLineStrip, 3, 2, 4},
      {"TRIANGLELIST n=2 from 0: 3n", B().hdr(D3DDP2OP_TRIANGLELIST, 2).w(0).v, Topology::kTriangleList, 2, 0, 6},
      {"TRIANGLESTRIP n=2 from 1: n+2", B().hdr(D3DDP2OP_TRIANGLESTRIP, 2).w(1).v, Topology::kTriangleStrip, 2, 1, 4},
      {"TRIANGLEFAN n=3 from 3: n+2", B().hdr(D3DDP2OP_TRIANGLEFAN, 3).w(3).v, Topology::kTriangleFan, 3, 3, 5},
      {"POINTS one run {3 @ 4}", B().hdr(D3DDP2OP_POINTS, 1).w(3).w(4).v, Topology::kPointList, 3, 4, 3},
  };
  for (const Case& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    Fx fx;
    Call call;
    call.vertices = verts;
    call.command_offset = 2;
    Result r = run(fx, c.cmd, call);
    CHECK_OK(r);
    const auto draws = fx.draws();
    REQUIRE(draws.size() == 1);
    const DrawRecord& d = draws[0];
    CHECK(d.topology == c.topology);
    CHECK(d.primitive_count == c.primitives);
    CHECK(d.vertex_count == c.count);
    CHECK(d.stride == kStride);
    CHECK(d.fvf == kFvf);
    CHECK(fx.vertices(d) == slice(verts, c.first, c.count));
    CHECK(d.indices.size == 0);  // sequential: the block in order
    CHECK(d.source_offset == 2u);  // dwCommandOffset + position of the header
  }
}

TEST_CASE("frontend roundtrip: legacy indexed primitives (indices relative to the copied block)") {
  const Bytes verts = make_vertices(8);
  struct Case {
    const char* what;
    Bytes cmd;
    Topology topology;
    std::uint32_t primitives;
    std::size_t lo, hi;                  // block of absolute vertices copied
    std::vector<std::uint32_t> indices;  // absolute vertex − lo
  };
  const Case cases[] = {
      // Opcode 2: no STARTVERTEX (§2 rule 4); 2 WORDs per line.
      {"INDEXEDLINELIST", B().hdr(D3DDP2OP_INDEXEDLINELIST, 2).w(4).w(1).w(2).w(3).v, Topology::kLineList, 2, 1, 4,
       {3, 0, 1, 2}},
      // Opcode 27: STARTVERTEX 2 biases every index: 0,3,1,2 → 2,5,3,4.
      {"INDEXEDLINELIST2", B().hdr(D3DDP2OP_INDEXEDLINELIST2, 2).w(2).w(0).w(3).w(1).w(2).v, Topology::kLineList, 2, 2,
       5, {0, 3, 1, 2}},
      // Opcode 26: STARTVERTEX 1, (2,0,1) → 3,1,2.
      {"INDEXEDTRIANGLELIST2", B().hdr(D3DDP2OP_INDEXEDTRIANGLELIST2, 1).w(1).w(2).w(0).w(1).v,
       Topology::kTriangleList, 1, 1, 3, {2, 0, 1}},
      // Opcode 17: n=2 segments → n+1 = 3 indices, STARTVERTEX 1: 0,2,1 → 1,3,2.
      {"INDEXEDLINESTRIP", B().hdr(D3DDP2OP_INDEXEDLINESTRIP, 2).w(1).w(0).w(2).w(1).v, Topology::kLineStrip, 2, 1, 3,
       {0, 2, 1}},
      // Opcode 20: n=2 → n+2 = 4 indices: 5,4,3,2.
      {"INDEXEDTRIANGLESTRIP", B().hdr(D3DDP2OP_INDEXEDTRIANGLESTRIP, 2).w(0).w(5).w(4).w(3).w(2).v,
       Topology::kTriangleStrip, 2, 2, 5, {3, 2, 1, 0}},
      // Opcode 22: n=1 → 3 indices, STARTVERTEX 3: 0,2,1 → 3,5,4.
      {"INDEXEDTRIANGLEFAN", B().hdr(D3DDP2OP_INDEXEDTRIANGLEFAN, 1).w(3).w(0).w(2).w(1).v, Topology::kTriangleFan, 1,
       3, 5, {0, 2, 1}},
  };
  for (const Case& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    Fx fx;
    Call call;
    call.vertices = verts;
    Result r = run(fx, c.cmd, call);
    CHECK_OK(r);
    const auto draws = fx.draws();
    REQUIRE(draws.size() == 1);
    const DrawRecord& d = draws[0];
    CHECK(d.topology == c.topology);
    CHECK(d.primitive_count == c.primitives);
    CHECK(d.vertex_count == c.hi - c.lo + 1);
    CHECK(fx.vertices(d) == slice(verts, c.lo, c.hi - c.lo + 1));
    CHECK(fx.indices(d) == c.indices);
  }
}

TEST_CASE("frontend roundtrip: POINTS records one sequential draw per run") {
  // Opcode 1: each D3DHAL_DP2POINTS run draws wCount points from wVStart. Runs {2 @ 0} and
  // {1 @ 5} → two point-list draws: vertices 0..1, then vertex 5 (each run its own draw, so
  // a stream of many long runs is bounded by the arena, not by one giant index list).
  const Bytes verts = make_vertices(6);
  Fx fx;
  Call call;
  call.vertices = verts;
  Result r = run(fx, B().hdr(D3DDP2OP_POINTS, 2).w(2).w(0).w(1).w(5).v, call);
  CHECK_OK(r);
  const auto draws = fx.draws();
  REQUIRE(draws.size() == 2);
  CHECK(draws[0].topology == Topology::kPointList);
  CHECK(draws[0].primitive_count == 2);
  CHECK(fx.vertices(draws[0]) == slice(verts, 0, 2));
  CHECK(fx.indices(draws[0]).empty());
  CHECK(draws[1].primitive_count == 1);
  CHECK(fx.vertices(draws[1]) == slice(verts, 5, 1));
}

TEST_CASE("frontend roundtrip: INDEXEDTRIANGLELIST edge flags") {
  // §2 rule 7: wFlags EDGEENABLE1 0x100 (v1–v2), 2 0x200 (v2–v3), 3 0x400 (v3–v1). The
  // record keeps one DWORD per triangle with bit i = edge i (same bit order as the fan
  // flags of rule 7, each flag shifted down by 8).
  const Bytes verts = make_vertices(6);
  Fx fx;
  Call call;
  call.vertices = verts;
  const Bytes cmds = B()
                         .hdr(D3DDP2OP_INDEXEDTRIANGLELIST, 2)
                         .w(5).w(3).w(4).w(D3DTRIFLAG_EDGEENABLE1 | D3DTRIFLAG_EDGEENABLE3)
                         .w(3).w(4).w(5).w(D3DTRIFLAG_EDGEENABLETRIANGLE)
                         .v;
  Result r = run(fx, cmds, call);
  CHECK_OK(r);
  const auto draws = fx.draws();
  REQUIRE(draws.size() == 1);
  CHECK(draws[0].topology == Topology::kTriangleList);
  CHECK(draws[0].primitive_count == 2);
  CHECK(fx.vertices(draws[0]) == slice(verts, 3, 3));
  CHECK(fx.indices(draws[0]) == std::vector<std::uint32_t>{2, 0, 1, 0, 1, 2});
  const Bytes flags = fx.arena(draws[0].edge_flags);
  CHECK(flags == B().d(0x5).d(0x7).v);
}

TEST_CASE("frontend roundtrip: TRIANGLEFAN_IMM and LINELIST_IMM carry their vertices inline") {
  // §2 rule 6: LINELIST_IMM vertices start at the first DWORD boundary at or after
  // header+4; TRIANGLEFAN_IMM has a 4-byte dwEdgeFlags then vertices at the first DWORD
  // boundary at or after header+8; boundaries relative to the buffer start (dp2, D12).
  const Bytes verts = make_vertices(4);
  for (DWORD offset : {DWORD{0}, DWORD{2}, DWORD{4}, DWORD{6}}) {
    CAPTURE(offset);
    Fx fx;
    // buffer: [offset filler][fan header @offset][edge flags][pad][3 vertices][line hdr][pad][2 vertices]
    B b;
    b.hdr(D3DDP2OP_TRIANGLEFAN_IMM, 1).d(0x5);
    std::size_t at = offset + b.size();
    b.fill((4 - at % 4) % 4, 0xEE);
    b.bytes(slice(verts, 0, 3));                       // n+2 = 3 vertices
    const std::size_t line_at = b.size();
    b.hdr(D3DDP2OP_LINELIST_IMM, 1);
    at = offset + b.size();
    b.fill((4 - at % 4) % 4, 0xEE);
    b.bytes(slice(verts, 2, 2));                       // 2n = 2 vertices
    b.rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME);
    Call call;
    call.command_offset = offset;
    Result r = run(fx, b.v, call);
    CHECK_OK(r);
    CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
    const auto draws = fx.draws();
    REQUIRE(draws.size() == 2);
    CHECK(draws[0].topology == Topology::kTriangleFan);
    CHECK(draws[0].primitive_count == 1);
    CHECK(fx.vertices(draws[0]) == slice(verts, 0, 3));
    CHECK(fx.arena(draws[0].edge_flags) == B().d(0x5).v);
    CHECK(draws[0].source_offset == offset);
    CHECK(draws[1].topology == Topology::kLineList);
    CHECK(draws[1].primitive_count == 1);
    CHECK(fx.vertices(draws[1]) == slice(verts, 2, 2));
    CHECK(draws[1].source_offset == offset + line_at);
  }
}

TEST_CASE("frontend roundtrip: _IMM after an odd-WORD position") {
  // INDEXEDLINELIST2 with one line is 4 + 2 + 4 = 10 bytes, so the next header sits at
  // 10 (WORD- but not DWORD-aligned, §2 rule 2). LINELIST_IMM there: header+4 = 14 → 2
  // pad bytes → vertices at 16.
  const Bytes verts = make_vertices(4);
  Fx fx;
  Call call;
  call.vertices = verts;
  const Bytes cmds = B()
                         .hdr(D3DDP2OP_INDEXEDLINELIST2, 1).w(0).w(0).w(1)
                         .hdr(D3DDP2OP_LINELIST_IMM, 1).fill(2, 0xEE).bytes(slice(verts, 1, 2))
                         .hdr(D3DDP2OP_TRIANGLEFAN_IMM, 1).d(0x3)  // header at 16+40 = 56; flags 60..64; no pad
                         .bytes(slice(verts, 0, 3))
                         .v;
  REQUIRE(cmds.size() == 10 + 4 + 2 + 40 + 8 + 60);
  Result r = run(fx, cmds, call);
  CHECK_OK(r);
  const auto draws = fx.draws();
  REQUIRE(draws.size() == 3);
  CHECK(fx.vertices(draws[1]) == slice(verts, 1, 2));
  CHECK(fx.vertices(draws[2]) == slice(verts, 0, 3));
}

TEST_CASE("frontend roundtrip: CLEAR keeps flags, values and rectangles, 0 rects still carry one RECT") {
  // D3DHAL_DP2CLEAR (§4.1): dwFlags, dwFillColor, dvFillDepth, dwFillStencil, then n RECTs
  // (count = wPrimitiveCount). With n = 0 the structure "still includes space for a single
  // RECT" (D3DHAL_DP2CLEAR page): 16 + 16 bytes are consumed.
  Fx fx;
  const Bytes cmds = B()
                         .hdr(D3DDP2OP_CLEAR, 2).d(D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER).d(0xFF336699u).f(0.25f).d(7)
                         .i(1).i(2).i(3).i(4).i(-5).i(6).i(70).i(80)
                         .hdr(D3DDP2OP_CLEAR, 0).d(D3DCLEAR_STENCIL).d(0).f(1.0f).d(0x12)
                         .fill(16, 0xEE)  // the undefined RECT
                         .rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME)
                         .v;
  Call call;
  call.command_offset = 2;
  Result r = run(fx, cmds, call);
  CHECK_OK(r);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
  const auto clears = fx.clears();
  REQUIRE(clears.size() == 2);
  CHECK(clears[0].flags == (D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER));
  CHECK(clears[0].color == 0xFF336699u);
  CHECK(clears[0].depth == 0.25f);
  CHECK(clears[0].stencil == 7u);
  CHECK(fx.arena(clears[0].rects) == B().i(1).i(2).i(3).i(4).i(-5).i(6).i(70).i(80).v);
  CHECK(clears[0].source_offset == 2u);
  CHECK(clears[1].flags == DWORD{D3DCLEAR_STENCIL});
  CHECK(clears[1].stencil == 0x12u);
  CHECK(clears[1].rects.size == 0);  // no rectangles: the undefined one is not a rectangle
  CHECK(clears[1].source_offset == 2u + 4 + 16 + 32);
}

TEST_CASE("frontend roundtrip: render, texture stage, viewport, W, Z states") {
  Fx fx;
  dp2::StreamWriter w;
  w.render_state(D3DRS_CULLMODE, D3DCULL_CW)
      .render_state(D3DRS_ALPHAREF, 0x80)
      .texture_stage_state(1, D3DTSS_COLOROP, D3DTOP_ADD)
      .texture_stage_state(0, D3DTSS_TEXTUREMAP, 0)
      .viewport(1, 2, 300, 400)
      .winfo(0.5f, 100.0f)
      .zrange(0.25f, 0.75f);
  Result r = run(fx, w.bytes());
  CHECK_OK(r);
  CHECK(fx.s().render_state(D3DRS_CULLMODE) == D3DCULL_CW);
  CHECK(fx.s().render_state(D3DRS_ALPHAREF) == 0x80u);
  CHECK(fx.s().texture_stage_state(1, D3DTSS_COLOROP) == DWORD{D3DTOP_ADD});
  CHECK(fx.s().viewport.x == 1u);
  CHECK(fx.s().viewport.y == 2u);
  CHECK(fx.s().viewport.width == 300u);
  CHECK(fx.s().viewport.height == 400u);
  CHECK(fx.s().winfo.dvWNear == 0.5f);
  CHECK(fx.s().winfo.dvWFar == 100.0f);
  CHECK(fx.s().zrange.dvMinZ == 0.25f);
  CHECK(fx.s().zrange.dvMaxZ == 0.75f);
}

TEST_CASE("frontend roundtrip: VIEWPORTINFO, WINFO and CREATELIGHT parse n records") {
  // DP2-OPCODES D3/D4 and the brief: parse wStateCount records (16n, 8n, 4n bytes). The
  // sentinel render state after them proves the byte count consumed.
  Fx fx;
  const Bytes cmds = B()
                         .hdr(D3DDP2OP_VIEWPORTINFO, 2).d(0).d(0).d(10).d(10).d(5).d(6).d(70).d(80)
                         .hdr(D3DDP2OP_WINFO, 2).f(1.0f).f(2.0f).f(3.0f).f(4.0f)
                         .hdr(D3DDP2OP_CREATELIGHT, 3).d(1).d(2).d(9)
                         .rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME)
                         .v;
  Result r = run(fx, cmds);
  CHECK_OK(r);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
  // dp2's choice (executor.cpp): the last record wins.
  CHECK(fx.s().viewport.x == 5u);
  CHECK(fx.s().viewport.height == 80u);
  CHECK(fx.s().winfo.dvWNear == 3.0f);
  for (DWORD k : {1u, 2u, 9u}) {
    CAPTURE(k);
    REQUIRE(fx.s().lights.count(k) == 1);
    CHECK(fx.s().lights.at(k).created);
  }
}

TEST_CASE("frontend roundtrip: material, lights, transforms, clip planes") {
  Fx fx(3, true);
  D3DMATERIAL7 mat{};
  mat.diffuse = {0.1f, 0.2f, 0.3f, 0.4f};
  mat.power = 12.0f;
  D3DLIGHT7 light{};
  light.dltType = D3DLIGHT_SPOT;
  light.dvRange = 42.0f;
  light.dvPhi = 1.5f;
  const float plane[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  const D3DMATRIX world = matrix(1.0f), view = matrix(20.0f);
  dp2::StreamWriter w;
  w.set_material(mat)
      .create_light(3)
      .set_light_data(3, light)
      .enable_light(3, true)
      .create_light(4)
      .enable_light(4, true)
      .enable_light(4, false)
      .set_transform(D3DTS_WORLD, world)
      .set_transform(D3DTS_VIEW, view)
      .set_clip_plane(5, plane);
  Result r = run(fx, w.bytes());
  CHECK_OK(r);
  CHECK(std::memcmp(&fx.s().material, &mat, sizeof mat) == 0);
  REQUIRE(fx.s().lights.count(3) == 1);
  CHECK(fx.s().lights.at(3).created);
  CHECK(fx.s().lights.at(3).enabled);
  CHECK(fx.s().lights.at(3).has_data);
  CHECK(std::memcmp(&fx.s().lights.at(3).data, &light, sizeof light) == 0);
  CHECK_FALSE(fx.s().lights.at(4).enabled);  // ENABLE then DISABLE: last one wins (stream order)
  CHECK(same(fx.s().transform_or_identity(D3DTS_WORLD), world));
  CHECK(same(fx.s().transform_or_identity(D3DTS_VIEW), view));
  CHECK(fx.s().clip_planes[5] == std::array<float, 4>{1.0f, 2.0f, 3.0f, 4.0f});
}

TEST_CASE("frontend roundtrip: MULTIPLYTRANSFORM is pMatrix times the current matrix") {
  // IDirect3DDevice9::MultiplyTransform: "The multiplication order is pMatrix times
  // State" (row vectors). A translation T then a scale S: S · T.
  Fx fx(4, true);
  D3DMATRIX t{};
  t._11 = t._22 = t._33 = t._44 = 1.0f;
  t._41 = 5.0f;  // translate x by 5
  D3DMATRIX s{};
  s._11 = 2.0f;
  s._22 = s._33 = s._44 = 1.0f;
  dp2::StreamWriter w;
  w.set_transform(D3DTS_WORLD, t).multiply_transform(D3DTS_WORLD, s);
  Result r = run(fx, w.bytes());
  CHECK_OK(r);
  const D3DMATRIX m = fx.s().transform_or_identity(D3DTS_WORLD);
  // S · T: row 1 = (2,0,0,0), row 4 = (5,0,0,1) — the translation is not scaled.
  CHECK(m._11 == 2.0f);
  CHECK(m._41 == 5.0f);
  CHECK(m._44 == 1.0f);
}

TEST_CASE("frontend roundtrip: palettes, texture LOD, priority, scissor, render targets") {
  Fx fx(5);
  dp2::SurfaceDesc rt2;
  rt2.kind = dp2::SurfaceKind::kRenderTarget;
  rt2.format = D3DFMT_A8R8G8B8;
  rt2.width = rt2.height = 4;
  REQUIRE(fx.create_surface(2, rt2) == D3D_OK);
  dp2::SurfaceDesc z;
  z.kind = dp2::SurfaceKind::kDepthStencil;
  z.format = D3DFMT_D24S8;
  z.width = z.height = 4;
  REQUIRE(fx.create_surface(3, z) == D3D_OK);
  dp2::SurfaceDesc tex;
  tex.kind = dp2::SurfaceKind::kTexture;
  tex.format = D3DFMT_P8;
  tex.width = tex.height = 4;
  REQUIRE(fx.create_surface(9, tex) == D3D_OK);

  // UPDATEPALETTE: "exactly one structure whatever n is" (§3 row 31): header count 7 here.
  const Bytes cmds = B()
                         .hdr(D3DDP2OP_SETPALETTE, 1).d(5).d(0x2000).d(9)
                         .hdr(D3DDP2OP_UPDATEPALETTE, 7).d(5).w(2).w(3).d(0xA1).d(0xA2).d(0xA3)
                         .hdr(D3DDP2OP_SETTEXLOD, 1).d(9).d(2)
                         .hdr(D3DDP2OP_SETPRIORITY, 1).d(9).d(77)
                         .hdr(D3DDP2OP_SETSCISSORRECT, 1).i(1).i(2).i(30).i(40)
                         .hdr(D3DDP2OP_SETRENDERTARGET, 1).d(2).d(3)
                         .hdr(D3DDP2OP_SETDEPTHSTENCIL, 1).d(0)
                         .hdr(D3DDP2OP_SETRENDERTARGET2, 1).d(1).d(kRT)
                         .rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME)
                         .v;
  Result r = run(fx, cmds);
  CHECK_OK(r);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
  CHECK(fx.s().surface_palette.at(9) == 5u);
  CHECK(fx.s().palettes.at(5).flags == 0x2000u);
  CHECK(fx.s().palettes.at(5).entries[2] == 0xA1u);
  CHECK(fx.s().palettes.at(5).entries[4] == 0xA3u);
  CHECK(fx.s().palettes.at(5).entries[5] == 0u);
  CHECK(fx.s().texture_lod.at(9) == 2u);
  CHECK(fx.s().priority.at(9) == 77u);
  CHECK(fx.s().scissor.left == 1);
  CHECK(fx.s().scissor.bottom == 40);
  CHECK(fx.s().render_target == 2u);
  CHECK(fx.s().depth_stencil == 0u);  // SETDEPTHSTENCIL 0 after SETRENDERTARGET(2, 3)
  CHECK(fx.s().render_targets[1] == kRT);

  // SETPALETTE with palette handle 0 detaches (§4.2).
  r = run(fx, B().hdr(D3DDP2OP_SETPALETTE, 1).d(0).d(0).d(9).v);
  CHECK_OK(r);
  CHECK(fx.s().surface_palette.count(9) == 0);
}

TEST_CASE("frontend roundtrip: blts and fills become CopyRecords holding each record") {
  // §3: TEXBLT 36n, VOLUMEBLT 48n, BUFFERBLT 24n, BLT 52n, COLORFILL 24n,
  // GENERATEMIPSUBLEVELS 8n, SURFACEBLT 52n, COMPOSERECTS 32.
  struct Case {
    unsigned op;
    std::size_t size;
  };
  const Case cases[] = {{D3DDP2OP_TEXBLT, 36}, {D3DDP2OP_VOLUMEBLT, 48}, {D3DDP2OP_BUFFERBLT, 24},
                        {D3DDP2OP_BLT, 52},    {D3DDP2OP_COLORFILL, 24}, {D3DDP2OP_GENERATEMIPSUBLEVELS, 8},
                        {D3DDP2OP_SURFACEBLT, 52}, {D3DDP2OP_COMPOSERECTS, 32}};
  for (const Case& c : cases) {
    CAPTURE(c.op);
    Fx fx(5);
    B rec1, rec2;
    for (std::size_t k = 0; k < c.size / 4; ++k) {
      rec1.d(0x1000u + static_cast<DWORD>(k));
      rec2.d(0x2000u + static_cast<DWORD>(k));
    }
    const unsigned n = c.op == D3DDP2OP_COMPOSERECTS ? 1 : 2;
    B b;
    b.rs(D3DRS_FILLMODE, D3DFILL_POINT).hdr(c.op, n).bytes(rec1.v);
    if (n == 2) b.bytes(rec2.v);
    b.rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME);
    Call call;
    call.command_offset = 6;
    Result r = run(fx, b.v, call);
    CHECK_OK(r);
    CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
    const auto copies = fx.copies();
    REQUIRE(copies.size() == n);
    CHECK(copies[0].source_op == c.op);
    CHECK(copies[0].source_offset == 6u + 12);
    CHECK(fx.arena(copies[0].payload) == rec1.v);
    if (n == 2) CHECK(fx.arena(copies[1].payload) == rec2.v);
  }
}

TEST_CASE("frontend roundtrip: opcodes without state are still consumed exactly") {
  // Each is followed by a sentinel RENDERSTATE: if dp2 consumed the wrong number of bytes,
  // the sentinel would not apply. Sizes from §3.
  struct Case {
    const char* what;
    Bytes cmd;
  };
  const Case cases[] = {
      {"ADDDIRTYRECT 20n", B().hdr(D3DDP2OP_ADDDIRTYRECT, 2).d(9).i(0).i(0).i(4).i(4).d(9).i(1).i(1).i(2).i(2).v},
      {"ADDDIRTYBOX 28n", B().hdr(D3DDP2OP_ADDDIRTYBOX, 1).d(9).d(0).d(0).d(4).d(4).d(0).d(1).v},
      {"EXT 8n", B().hdr(D3DDP2OP_EXT, 2).d(1).d(2).d(3).d(4).v},
      {"DRAWRECTPATCH with segs and info: 8 + 16 + 28", B().hdr(D3DDP2OP_DRAWRECTPATCH, 1).d(1).d(3).fill(16 + 28, 0).v},
      {"DRAWRECTPATCH bare + with info", B().hdr(D3DDP2OP_DRAWRECTPATCH, 2).d(1).d(0).d(2).d(2).fill(28, 0).v},
      {"DRAWTRIPATCH with segs and info: 8 + 12 + 16", B().hdr(D3DDP2OP_DRAWTRIPATCH, 1).d(1).d(3).fill(12 + 16, 0).v},
      {"SETCONVOLUTIONKERNELMONO 3x2 both weights: 12 + 20",
       B().hdr(D3DDP2OP_SETCONVOLUTIONKERNELMONO, 1).d(3).d(2).d(3).fill(20, 0).v},
      {"SETCONVOLUTIONKERNELMONO rows only: 12 + 12",
       B().hdr(D3DDP2OP_SETCONVOLUTIONKERNELMONO, 1).d(3).d(2).d(1).fill(12, 0).v},
      {"SETSTREAMSOURCEFREQ 8n", B().hdr(D3DDP2OP_SETSTREAMSOURCEFREQ, 1).d(1).d(4).v},
  };
  for (const Case& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    Fx fx(5, true);
    Result r = run(fx, concat({c.cmd, B().rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME).v}));
    CHECK_OK(r);
    CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
  }
  Fx fx(5);
  Result r = run(fx, B().hdr(D3DDP2OP_SETSTREAMSOURCEFREQ, 1).d(1).d(4).v);
  CHECK_OK(r);
  CHECK(fx.s().streams[1].divider == 4u);
}

TEST_CASE("frontend roundtrip: shader objects keep their tokens, constants land in their registers") {
  Fx fx(5, true);
  const Bytes cmds = B()
                         // CREATEVERTEXSHADER: handle, dwDeclSize 8, dwCodeSize 12, decl, code (§3 row 45).
                         .hdr(D3DDP2OP_CREATEVERTEXSHADER, 1).d(3).d(8).d(12).d(0xD1).d(0xD2).d(0xC1).d(0xC2).d(0xC3)
                         // CREATEPIXELSHADER: handle, dwCodeSize 8, code.
                         .hdr(D3DDP2OP_CREATEPIXELSHADER, 1).d(4).d(8).d(0xFFFF0200u).d(0x0000FFFFu)
                         // CREATEVERTEXSHADERFUNC: handle, dwSize 4, tokens.
                         .hdr(D3DDP2OP_CREATEVERTEXSHADERFUNC, 1).d(5).d(4).d(0xFFFE0300u)
                         // CREATEVERTEXSHADERDECL: handle, 2 elements of 8 bytes.
                         .hdr(D3DDP2OP_CREATEVERTEXSHADERDECL, 1).d(7).d(2)
                         .w(0).w(0).u8(2).u8(0).u8(0).u8(0)      // stream 0, offset 0, FLOAT3, POSITION
                         .w(0xFF).w(0).u8(17).u8(0).u8(0).u8(0)  // D3DDECL_END
                         // SETVERTEXSHADERCONST: register 2, 2 × 4 floats.
                         .hdr(D3DDP2OP_SETVERTEXSHADERCONST, 1).d(2).d(2)
                         .f(1).f(2).f(3).f(4).f(5).f(6).f(7).f(8)
                         // SETPIXELSHADERCONST: register 0, 1 × 4 floats.
                         .hdr(D3DDP2OP_SETPIXELSHADERCONST, 1).d(0).d(1).f(9).f(10).f(11).f(12)
                         // SETVERTEXSHADERCONSTI: register 1, 1 × 4 INTs.
                         .hdr(D3DDP2OP_SETVERTEXSHADERCONSTI, 1).d(1).d(1).i(-1).i(2).i(-3).i(4)
                         .hdr(D3DDP2OP_SETPIXELSHADERCONSTI, 1).d(0).d(1).i(5).i(6).i(7).i(8)
                         // SETVERTEXSHADERCONSTB: register 1, 3 BOOLs of 4 bytes (§3 row 83, D5).
                         .hdr(D3DDP2OP_SETVERTEXSHADERCONSTB, 1).d(1).d(3).d(1).d(0).d(1)
                         .hdr(D3DDP2OP_SETPIXELSHADERCONSTB, 1).d(0).d(1).d(1)
                         // SET*: handles stored.
                         .hdr(D3DDP2OP_SETVERTEXSHADERDECL, 1).d(7)
                         .hdr(D3DDP2OP_SETVERTEXSHADERFUNC, 1).d(5)
                         .hdr(D3DDP2OP_SETPIXELSHADER, 1).d(4)
                         .rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME)
                         .v;
  Result r = run(fx, cmds);
  CHECK_OK(r);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
  const auto& st = fx.s();
  REQUIRE(st.vertex_shaders.count(3) == 1);
  CHECK(st.vertex_shaders.at(3).declaration == std::vector<DWORD>{0xD1, 0xD2});
  CHECK(st.vertex_shaders.at(3).code == std::vector<DWORD>{0xC1, 0xC2, 0xC3});
  REQUIRE(st.pixel_shaders.count(4) == 1);
  CHECK(st.pixel_shaders.at(4).code == std::vector<DWORD>{0xFFFF0200u, 0x0000FFFFu});
  REQUIRE(st.vertex_funcs.count(5) == 1);
  CHECK(st.vertex_funcs.at(5).code == std::vector<DWORD>{0xFFFE0300u});
  REQUIRE(st.vertex_decls.count(7) == 1);
  REQUIRE(st.vertex_decls.at(7).elements.size() == 2);
  CHECK(st.vertex_decls.at(7).elements[0].Type == 2);
  CHECK(st.vertex_decls.at(7).elements[1].Stream == 0xFF);
  REQUIRE(st.vs_const_f.size() >= 4);
  CHECK(st.vs_const_f[2] == std::array<float, 4>{1, 2, 3, 4});
  CHECK(st.vs_const_f[3] == std::array<float, 4>{5, 6, 7, 8});
  REQUIRE(st.ps_const_f.size() >= 1);
  CHECK(st.ps_const_f[0] == std::array<float, 4>{9, 10, 11, 12});
  REQUIRE(st.vs_const_i.size() >= 2);
  CHECK(st.vs_const_i[1] == std::array<std::int32_t, 4>{-1, 2, -3, 4});
  REQUIRE(st.ps_const_i.size() >= 1);
  CHECK(st.ps_const_i[0] == std::array<std::int32_t, 4>{5, 6, 7, 8});
  REQUIRE(st.vs_const_b.size() >= 4);
  CHECK(st.vs_const_b[1] == 1);
  CHECK(st.vs_const_b[2] == 0);
  CHECK(st.vs_const_b[3] == 1);
  REQUIRE(st.ps_const_b.size() >= 1);
  CHECK(st.ps_const_b[0] == 1);
  CHECK(st.vertex_shader == 7u);
  CHECK(st.vertex_shader_func == 5u);
  CHECK(st.pixel_shader == 4u);

  // DELETE* remove the objects.
  r = run(fx, B()
                  .hdr(D3DDP2OP_DELETEVERTEXSHADER, 1).d(3)
                  .hdr(D3DDP2OP_DELETEPIXELSHADER, 1).d(4)
                  .hdr(D3DDP2OP_DELETEVERTEXSHADERFUNC, 1).d(5)
                  .hdr(D3DDP2OP_DELETEVERTEXSHADERDECL, 1).d(7)
                  .v);
  CHECK_OK(r);
  CHECK(fx.s().vertex_shaders.count(3) == 0);
  CHECK(fx.s().pixel_shaders.count(4) == 0);
  CHECK(fx.s().vertex_funcs.count(5) == 0);
  CHECK(fx.s().vertex_decls.count(7) == 0);
}

TEST_CASE("frontend roundtrip: queries") {
  Fx fx(5);
  // CREATEQUERY {dwQueryID, QueryType} 8n; ISSUEQUERY {id, flags} 8n; DELETEQUERY {id} 4n.
  Result r = run(fx, B()
                         .hdr(D3DDP2OP_CREATEQUERY, 2).d(7).d(D3DQUERYTYPE_EVENT).d(8).d(D3DQUERYTYPE_OCCLUSION)
                         .hdr(D3DDP2OP_ISSUEQUERY, 2).d(8).d(D3DISSUE_BEGIN).d(7).d(D3DISSUE_END)
                         .v);
  CHECK_OK(r);
  REQUIRE(fx.s().queries.count(7) == 1);
  CHECK(fx.s().queries.at(7).type == DWORD{D3DQUERYTYPE_EVENT});
  CHECK(fx.s().queries.at(7).last_issue_flags == DWORD{D3DISSUE_END});
  CHECK(fx.s().queries.at(8).type == DWORD{D3DQUERYTYPE_OCCLUSION});
  CHECK(fx.s().queries.at(8).last_issue_flags == DWORD{D3DISSUE_BEGIN});
  r = run(fx, B().hdr(D3DDP2OP_DELETEQUERY, 1).d(7).v);
  CHECK_OK(r);
  CHECK(fx.s().queries.count(7) == 0);
  CHECK(fx.s().queries.count(8) == 1);
}

TEST_CASE("frontend roundtrip: state sets BEGIN / END / EXECUTE / CAPTURE / DELETE") {
  // D3DHAL_DP2STATESET page: BEGIN..END records the state commands of the set (the DDK's
  // record mode: recorded, not applied); EXECUTE applies them; CAPTURE takes a snapshot of
  // the current values of the states in the set; DELETE removes it.
  Fx fx;
  const DWORD h = 5;
  dp2::StreamWriter w;
  w.state_set(D3DHAL_STATESETBEGIN, h, 0)
      .render_state(D3DRS_FILLMODE, D3DFILL_WIREFRAME)
      .viewport(1, 2, 3, 4)
      .state_set(D3DHAL_STATESETEND, h, 0);
  Result r = run(fx, w.bytes());
  CHECK_OK(r);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_SOLID);  // recorded, not applied
  CHECK(fx.s().viewport.width == 0u);
  REQUIRE(fx.c().state_sets.count(h) == 1);

  r = run(fx, B().hdr(D3DDP2OP_STATESET, 1).d(D3DHAL_STATESETEXECUTE).d(h).d(0).v);
  CHECK_OK(r);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
  CHECK(fx.s().viewport.width == 3u);

  // CAPTURE takes the current FILLMODE and viewport into the set.
  r = run(fx, B()
                  .rs(D3DRS_FILLMODE, D3DFILL_POINT)
                  .hdr(D3DDP2OP_VIEWPORTINFO, 1).d(9).d(9).d(90).d(90)
                  .hdr(D3DDP2OP_STATESET, 1).d(D3DHAL_STATESETCAPTURE).d(h).d(0)
                  .rs(D3DRS_FILLMODE, D3DFILL_SOLID)
                  .hdr(D3DDP2OP_VIEWPORTINFO, 1).d(0).d(0).d(1).d(1)
                  .hdr(D3DDP2OP_STATESET, 1).d(D3DHAL_STATESETEXECUTE).d(h).d(0)
                  .v);
  CHECK_OK(r);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_POINT);
  CHECK(fx.s().viewport.width == 90u);

  r = run(fx, B().hdr(D3DDP2OP_STATESET, 1).d(D3DHAL_STATESETDELETE).d(h).d(0).v);
  CHECK_OK(r);
  CHECK(fx.c().state_sets.count(h) == 0);
}

TEST_CASE("frontend roundtrip: DX8 SETSTREAMSOURCE + DRAWPRIMITIVE (VStart in vertices)") {
  // §3.2: DRAWPRIMITIVE VStart is a vertex index into the stream bound by SETSTREAMSOURCE;
  // D3DPT → vertices: n, 2n, n+1, 3n, n+2, n+2.
  const Bytes verts = make_vertices(10);
  Fx fx(4);
  const DWORD vb = fx.buffer(dp2::SurfaceKind::kVertexBuffer, verts);
  dp2::StreamWriter w;
  w.set_vertex_shader(kFvf)
      .set_stream_source(0, vb, kStride)
      .draw_primitive(D3DPT_TRIANGLELIST, 1, 2)   // vertices 1..6
      .draw_primitive(D3DPT_TRIANGLESTRIP, 3, 2)  // 3..6
      .draw_primitive(D3DPT_LINESTRIP, 0, 3)      // 0..3
      .draw_primitive(D3DPT_POINTLIST, 9, 1)      // 9
      .draw_primitive(D3DPT_LINELIST, 2, 1)       // 2..3
      .draw_primitive(D3DPT_TRIANGLEFAN, 4, 3);   // 4..8
  Call call;
  call.vertex_type = 0;  // a DX8 runtime may leave dwVertexType 0
  Result r = run(fx, w.bytes(), call);
  CHECK_OK(r);
  CHECK(fx.s().streams[0].kind == dp2::state::StreamSource::Kind::kSurface);
  CHECK(fx.s().streams[0].surface == vb);
  CHECK(fx.s().streams[0].stride == kStride);
  CHECK(fx.s().vertex_shader == kFvf);
  const auto draws = fx.draws();
  REQUIRE(draws.size() == 6);
  const struct {
    Topology t;
    std::uint32_t n;
    std::size_t first, count;
  } want[] = {{Topology::kTriangleList, 2, 1, 6}, {Topology::kTriangleStrip, 2, 3, 4}, {Topology::kLineStrip, 3, 0, 4},
              {Topology::kPointList, 1, 9, 1},    {Topology::kLineList, 1, 2, 2},      {Topology::kTriangleFan, 3, 4, 5}};
  for (std::size_t k = 0; k < 6; ++k) {
    CAPTURE(k);
    CHECK(draws[k].topology == want[k].t);
    CHECK(draws[k].primitive_count == want[k].n);
    CHECK(draws[k].vertex_count == want[k].count);
    CHECK(draws[k].fvf == kFvf);
    CHECK(fx.vertices(draws[k]) == slice(verts, want[k].first, want[k].count));
  }
}

TEST_CASE("frontend roundtrip: DX8 DRAWINDEXEDPRIMITIVE with BaseVertexIndex, 16- and 32-bit indices") {
  // §3.2: vertex = indices[StartIndex + k] + BaseVertexIndex; StartIndex counts indices;
  // index size = SETINDICES dwStride.
  const Bytes verts = make_vertices(10);
  for (DWORD isize : {DWORD{2}, DWORD{4}}) {
    CAPTURE(isize);
    Fx fx(5);
    const DWORD vb = fx.buffer(dp2::SurfaceKind::kVertexBuffer, verts);
    B ib;
    for (std::uint32_t idx : {9u, 9u, 2u, 0u, 1u, 4u}) isize == 2 ? ib.w(idx) : ib.d(idx);
    const DWORD ibh = fx.buffer(dp2::SurfaceKind::kIndexBuffer, ib.v);
    dp2::StreamWriter w;
    w.set_vertex_shader(kFvf)
        .set_stream_source(0, vb, kStride)
        .set_indices(ibh, isize)
        // StartIndex 2 → indices 2,0,1 (+ base 3) → vertices 5,3,4.
        .draw_indexed_primitive(D3DPT_TRIANGLELIST, 3, 0, 3, 2, 1)
        // StartIndex 3 → 0,1,4 with base 5 → LINESTRIP of 2 segments over 5,6,9.
        .draw_indexed_primitive(D3DPT_LINESTRIP, 5, 0, 5, 3, 2);
    Call call;
    call.vertex_type = 0;
    Result r = run(fx, w.bytes(), call);
    CHECK_OK(r);
    CHECK(fx.s().indices.surface == ibh);
    CHECK(fx.s().indices.stride == isize);
    const auto draws = fx.draws();
    REQUIRE(draws.size() == 2);
    CHECK(draws[0].topology == Topology::kTriangleList);
    CHECK(draws[0].primitive_count == 1);
    CHECK(fx.vertices(draws[0]) == slice(verts, 3, 3));
    CHECK(fx.indices(draws[0]) == std::vector<std::uint32_t>{2, 0, 1});
    CHECK(draws[1].topology == Topology::kLineStrip);
    CHECK(draws[1].primitive_count == 2);
    CHECK(fx.vertices(draws[1]) == slice(verts, 5, 5));
    CHECK(fx.indices(draws[1]) == std::vector<std::uint32_t>{0, 1, 4});
  }
}

TEST_CASE("frontend roundtrip: DX8 DRAWPRIMITIVE2 / DRAWINDEXEDPRIMITIVE2 / CLIPPEDTRIANGLEFAN use byte offsets") {
  // §3.2: stream 0 only; FirstVertexOffset, BaseVertexOffset (signed) and
  // StartIndexOffset are byte offsets; CLIPPEDTRIANGLEFAN edge flags as §2 rule 7.
  const Bytes verts = make_vertices(8);
  Fx fx(4);
  const DWORD vb = fx.buffer(dp2::SurfaceKind::kVertexBuffer, verts);
  const DWORD ibh = fx.buffer(dp2::SurfaceKind::kIndexBuffer, B().w(7).w(3).w(1).w(2).v);
  dp2::StreamWriter w;
  w.set_vertex_shader(kFvf)
      .set_stream_source(0, vb, kStride)
      .set_indices(ibh, 2)
      .draw_primitive2(D3DPT_TRIANGLESTRIP, 2 * kStride, 2)  // vertices 2..5
      // BaseVertexOffset −1 vertex; StartIndexOffset 2 bytes → indices 3,1,2 → 2,0,1.
      .draw_indexed_primitive2(D3DPT_TRIANGLELIST, -static_cast<INT>(kStride), 1, 3, 2, 1)
      .clipped_triangle_fan(4 * kStride, 0x1F, 2);  // vertices 4..7
  Call call;
  call.vertex_type = kFvf;
  Result r = run(fx, w.bytes(), call);
  CHECK_OK(r);
  const auto draws = fx.draws();
  REQUIRE(draws.size() == 3);
  CHECK(draws[0].topology == Topology::kTriangleStrip);
  CHECK(draws[0].primitive_count == 2);
  CHECK(fx.vertices(draws[0]) == slice(verts, 2, 4));
  CHECK(draws[1].topology == Topology::kTriangleList);
  CHECK(fx.vertices(draws[1]) == slice(verts, 0, 3));
  CHECK(fx.indices(draws[1]) == std::vector<std::uint32_t>{2, 0, 1});
  CHECK(draws[2].topology == Topology::kTriangleFan);
  CHECK(draws[2].primitive_count == 2);
  CHECK(fx.vertices(draws[2]) == slice(verts, 4, 4));
  CHECK(fx.arena(draws[2].edge_flags) == B().d(0x1F).v);
}

TEST_CASE("frontend roundtrip: SETSTREAMSOURCE2 adds its byte offset") {
  const Bytes verts = make_vertices(8);
  Fx fx(5);
  const DWORD vb = fx.buffer(dp2::SurfaceKind::kVertexBuffer, verts);
  dp2::StreamWriter w;
  w.set_vertex_shader(kFvf)
      .set_stream_source2(0, vb, 3 * kStride, kStride)
      .draw_primitive(D3DPT_TRIANGLELIST, 1, 1);  // vertices 3+1 .. 3+3
  Call call;
  call.vertex_type = 0;
  Result r = run(fx, w.bytes(), call);
  CHECK_OK(r);
  CHECK(fx.s().streams[0].offset == 3 * kStride);
  REQUIRE(fx.draws().size() == 1);
  CHECK(fx.vertices(fx.draws()[0]) == slice(verts, 4, 3));
}

TEST_CASE("frontend roundtrip: SETSTREAMSOURCEUM reads lpVertices + dwVertexOffset") {
  // §3 row 50: stream 0's data pointer = lpVertices (D3DHALDP2_USERMEMVERTICES);
  // dwVertexOffset bytes in (data page), dwVertexLength vertices.
  const Bytes verts = make_vertices(6);
  Fx fx(4);
  dp2::StreamWriter w;
  w.set_vertex_shader(kFvf).set_stream_source_um(0, kStride).draw_primitive(D3DPT_TRIANGLEFAN, 2, 2);  // 2..5
  Call call;
  call.vertex_type = 0;
  call.vertex_size = kStride;  // data page: valid bytes = dwVertexLength × dwVertexSize
  call.user_memory = true;
  call.vertices = verts;
  call.vertex_offset = 12;
  Result r = run(fx, w.bytes(), call);
  CHECK_OK(r);
  CHECK(fx.s().streams[0].kind == dp2::state::StreamSource::Kind::kUserMemory);
  CHECK(fx.s().streams[0].stride == kStride);
  REQUIRE(fx.draws().size() == 1);
  CHECK(fx.vertices(fx.draws()[0]) == slice(verts, 2, 4));

  // Vertex 5 is the last one dwVertexLength allows: one further is out of range.
  Fx fx2(4);
  dp2::StreamWriter w2;
  w2.set_vertex_shader(kFvf).set_stream_source_um(0, kStride).draw_primitive(D3DPT_TRIANGLEFAN, 3, 2);  // 3..6
  r = run(fx2, w2.bytes(), call);
  CHECK(r.ddrval == D3DERR_COMMAND_UNPARSED);
  CHECK(fx2.record_count() == 0);
}

TEST_CASE("frontend roundtrip: legacy user-memory vertices (D3DHALDP2_USERMEMVERTICES)") {
  // Page: "if the vertex buffer is in user memory, the first vertex is dwVertexOffset
  // bytes into the buffer that lpVertices points to".
  const Bytes verts = make_vertices(4);
  Fx fx;
  Call call;
  call.user_memory = true;
  call.vertices = verts;
  call.vertex_offset = 40;
  Result r = run(fx, B().hdr(D3DDP2OP_TRIANGLELIST, 1).w(1).v, call);
  CHECK_OK(r);
  REQUIRE(fx.draws().size() == 1);
  CHECK(fx.vertices(fx.draws()[0]) == slice(verts, 1, 3));
}

TEST_CASE("frontend roundtrip: a zero-count DRAWPRIMITIVE record records nothing") {
  const Bytes verts = make_vertices(4);
  Fx fx(4);
  const DWORD vb = fx.buffer(dp2::SurfaceKind::kVertexBuffer, verts);
  const auto before = fx.diagnostics().zero_count_primitives;
  dp2::StreamWriter w;
  w.set_vertex_shader(kFvf).set_stream_source(0, vb, kStride).draw_primitive(D3DPT_TRIANGLELIST, 0, 0);
  Call call;
  call.vertex_type = 0;
  Result r = run(fx, w.bytes(), call);
  CHECK_OK(r);
  CHECK(fx.record_count() == 0);
  CHECK(fx.diagnostics().zero_count_primitives - before == 1);
}

TEST_CASE("frontend roundtrip: a zero-count DRAWPRIMITIVE without a bound stream is still accepted") {
  // Brief: "zero-count primitives are accepted and record nothing". A draw of nothing
  // needs no vertices, so no stream has to be bound for it.
  Fx fx(4);
  Call call;
  call.vertex_type = 0;
  Result r = run(fx, B().hdr(D3DDP2OP_DRAWPRIMITIVE, 1).d(D3DPT_TRIANGLELIST).d(0).d(0).v, call);
  CHECK_OK(r);
  CHECK(fx.record_count() == 0);
}

TEST_CASE("frontend roundtrip: SETSTREAMSOURCEUM with dwVertexSize 0 uses the stream's dwStride") {
  // A DX8+ call may leave dwVertexType 0 (brief); with dwVertexSize 0 too, the only stride
  // stated for lpVertices is SETSTREAMSOURCEUM's dwStride (§3 row 50, §4.1).
  const Bytes verts = make_vertices(6);
  Fx fx(4);
  dp2::StreamWriter w;
  w.set_vertex_shader(kFvf).set_stream_source_um(0, kStride).draw_primitive(D3DPT_TRIANGLELIST, 1, 1);
  Call call;
  call.vertex_type = 0;
  call.user_memory = true;
  call.vertices = verts;
  Result r = run(fx, w.bytes(), call);
  CHECK_OK(r);
  REQUIRE(fx.draws().size() == 1);
  CHECK(fx.vertices(fx.draws()[0]) == slice(verts, 1, 3));
}
