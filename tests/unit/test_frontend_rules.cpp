// Front-end (D3dDrawPrimitives2) tests: failure rules. See the comment above each check for the DDI rule it derives from.
#include "support/frontend_fixture.h"

// Rules of D3dDrawPrimitives2 (nc-d3dhal-lpd3dhal_drawprimitives2cb.md, "The driver must
// do the following") and dp2's documented choices where the page leaves room (brief and
// src/ddi/executor.cpp comments). Every expectation is derived from those texts.

namespace {
// The two steps dp2::Device takes before the front end (context, flip) need the device.
struct DevFx {
  dp2::Device dev;
  ULONG_PTR ctx = 0;
  DWORD next_handle = 0x100;
  DevFx() {
    dp2::SurfaceDesc rt;
    rt.kind = dp2::SurfaceKind::kRenderTarget;
    rt.format = D3DFMT_A8R8G8B8;
    rt.width = rt.height = 8;
    REQUIRE(dev.create_surface(kRT, rt) == D3D_OK);
    dp2::ContextDesc cd;
    cd.render_target = kRT;
    REQUIRE(dev.create_context(cd, ctx) == D3D_OK);
  }
  const dp2::state::StateBlock& s() const { return dev.inspect_context(ctx)->state; }
  // DrawPrimitives2 on `context` with `cmds` in a command surface of exactly their size.
  Result run(const Bytes& cmds, ULONG_PTR context, DWORD offset = 0) {
    const DWORD h = next_handle++;
    dp2::SurfaceDesc sd;
    sd.kind = dp2::SurfaceKind::kCommandBuffer;
    sd.size_bytes = offset + cmds.size();
    REQUIRE(dev.create_surface(h, sd) == D3D_OK);
    std::copy(cmds.begin(), cmds.end(), dev.surface_bytes(h).begin() + offset);
    D3DHAL_DRAWPRIMITIVES2DATA d{};
    d.dwhContext = context;
    d.dwVertexType = kFvf;
    d.lpDDCommands = h;
    d.dwCommandOffset = offset;
    d.dwCommandLength = static_cast<DWORD>(cmds.size());
    d.dwErrorOffset = 0xDEADBEEF;
    Result r;
    r.ret = dev.DrawPrimitives2(d);
    r.ddrval = d.ddrval;
    r.error_offset = d.dwErrorOffset;
    return r;
  }
};
}  // namespace

TEST_CASE("frontend rules: an unknown context handle answers D3DHAL_CONTEXT_BAD, offset 0") {
  DevFx fx;
  const Bytes cmds = B().rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME).v;
  for (ULONG_PTR bad : {ULONG_PTR{0}, fx.ctx + 1, ULONG_PTR{0xFFFFFFFF}}) {
    CAPTURE(bad);
    // Page: "Ensure that the context handle ... is valid"; dp2: D3DHAL_CONTEXT_BAD,
    // dwErrorOffset 0, DDHAL_DRIVER_HANDLED.
    const Result r = fx.run(cmds, bad, 8);
    CHECK_FAIL(r, D3DHAL_CONTEXT_BAD, 0);
  }
  // Nothing ran on the real context.
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_SOLID);

  // A destroyed context is as unknown as one never created.
  ULONG_PTR gone = 0;
  REQUIRE(fx.dev.create_context(dp2::ContextDesc{}, gone) == D3D_OK);
  REQUIRE(fx.dev.destroy_context(gone) == D3D_OK);
  const Result r = fx.run(cmds, gone);
  CHECK_FAIL(r, D3DHAL_CONTEXT_BAD, 0);
}

TEST_CASE("frontend rules: a flip in progress on the render target answers DDERR_WASSTILLDRAWING") {
  DevFx fx;
  const Bytes cmds = B().rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME).v;
  REQUIRE(fx.dev.set_flip_in_progress(kRT, true) == D3D_OK);
  // Page: "If the drawing surface is involved in a flip, the driver should set ddrval to
  // DDERR_WASSTILLDRAWING and return DDHAL_DRIVER_HANDLED" — and process nothing (the
  // runtime retries the whole buffer).
  Result r = fx.run(cmds, fx.ctx, 8);
  CHECK(r.ret == DDHAL_DRIVER_HANDLED);
  CHECK(r.ddrval == DDERR_WASSTILLDRAWING);
  CHECK(static_cast<std::uint32_t>(DDERR_WASSTILLDRAWING) == 0x8876021Cu);  // DP2-OPCODES §2 rule 10
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_SOLID);

  // A flip of some other surface does not concern this context.
  REQUIRE(fx.dev.set_flip_in_progress(kRT, false) == D3D_OK);
  dp2::SurfaceDesc other;
  other.kind = dp2::SurfaceKind::kRenderTarget;
  other.format = D3DFMT_A8R8G8B8;
  other.width = other.height = 4;
  REQUIRE(fx.dev.create_surface(2, other) == D3D_OK);
  REQUIRE(fx.dev.set_flip_in_progress(2, true) == D3D_OK);
  r = fx.run(cmds, fx.ctx, 8);
  CHECK_OK(r);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);

  // After SETRENDERTARGET to surface 2, surface 2 is "the drawing surface associated with
  // the context", so its flip now blocks.
  REQUIRE(fx.dev.set_flip_in_progress(2, false) == D3D_OK);
  r = fx.run(B().hdr(D3DDP2OP_SETRENDERTARGET, 1).d(2).d(0).v, fx.ctx);
  CHECK_OK(r);
  REQUIRE(fx.dev.set_flip_in_progress(2, true) == D3D_OK);
  r = fx.run(B().rs(D3DRS_FILLMODE, D3DFILL_POINT).v, fx.ctx);
  CHECK(r.ret == DDHAL_DRIVER_HANDLED);
  CHECK(r.ddrval == DDERR_WASSTILLDRAWING);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
}

TEST_CASE("frontend rules: a bad command buffer answers DDERR_INVALIDPARAMS at dwCommandOffset") {
  Fx fx;
  const Bytes cmds = B().rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME).v;  // 12 bytes

  SUBCASE("unknown lpDDCommands handle") {
    for (ULONG_PTR h : {ULONG_PTR{0}, ULONG_PTR{0x7777}}) {
      D3DHAL_DRAWPRIMITIVES2DATA d{};
      d.dwhContext = fx.ctx;
      d.dwVertexType = kFvf;
      d.lpDDCommands = h;
      d.dwCommandOffset = 20;
      d.dwCommandLength = 12;
      d.dwErrorOffset = 0xDEADBEEF;
      CHECK(fx.draw_primitives2(d) == DDHAL_DRIVER_HANDLED);
      // dp2 (after Perm3): DDERR_INVALIDPARAMS, dwErrorOffset = dwCommandOffset (nothing ran:
      // the first unhandled command is the first one, page "-remarks").
      CHECK(d.ddrval == DDERR_INVALIDPARAMS);
      CHECK(d.dwErrorOffset == 20u);
    }
  }
  SUBCASE("dwCommandOffset + dwCommandLength one byte past the surface") {
    Call call;
    call.command_offset = 6;
    call.length_override = 13;  // surface = 6 + 12 bytes
    Result r = run(fx, cmds, call);
    CHECK_FAIL(r, DDERR_INVALIDPARAMS, 6);
    CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_SOLID);  // nothing ran
  }
  SUBCASE("dwCommandOffset past the surface") {
    D3DHAL_DRAWPRIMITIVES2DATA d{};
    d.dwhContext = fx.ctx;
    d.dwVertexType = kFvf;
    d.lpDDCommands = fx.buffer(dp2::SurfaceKind::kCommandBuffer, cmds);
    d.dwCommandOffset = 13;
    d.dwCommandLength = 0;
    fx.draw_primitives2(d);
    CHECK(d.ddrval == DDERR_INVALIDPARAMS);
    CHECK(d.dwErrorOffset == 13u);
  }
  SUBCASE("offset + length wraps 32 bits") {
    D3DHAL_DRAWPRIMITIVES2DATA d{};
    d.dwhContext = fx.ctx;
    d.dwVertexType = kFvf;
    d.lpDDCommands = fx.buffer(dp2::SurfaceKind::kCommandBuffer, cmds);
    d.dwCommandOffset = 0xFFFFFFF8u;
    d.dwCommandLength = 0x10u;  // (offset + length) mod 2^32 = 8 < 12: must still fail
    fx.draw_primitives2(d);
    CHECK(d.ddrval == DDERR_INVALIDPARAMS);
    CHECK(d.dwErrorOffset == 0xFFFFFFF8u);
  }
  SUBCASE("exactly filling the surface is fine") {
    Call call;
    call.command_offset = 6;
    Result r = run(fx, cmds, call);
    CHECK_OK(r);
    CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
  }
}

TEST_CASE("frontend rules: an empty command buffer succeeds (DP2-OPCODES §2 rule 1)") {
  Fx fx(5);
  Call call;
  call.command_offset = 4;
  call.surface_slack = 4;  // junk after the zero-length stream must not be read
  Result r = run(fx, Bytes{}, call);
  CHECK_OK(r);
  CHECK(fx.record_count() == 0);
}

namespace {
struct FvfCase {
  std::uint32_t version;
  bool tnl;
  DWORD fvf;
  bool ok;
  const char* why;
};
}  // namespace

TEST_CASE("frontend rules: the FVF check fails bad dwVertexType at dwCommandOffset before any command") {
  // Page: fail "if D3DFVF_XYZRHW is not set", "if D3DFVF_NORMAL is set", "if any of the
  // reserved D3DFVF_RESERVEDx bits are set". Reserved bits per interface version (brief /
  // src/ddi/fvf.h): DX7 0x1|0x20|0xF000, DX8 0x1|0xE000, DX9 0x1|0x6000 less XYZW's 0x4000
  // and D3DFVF_FOG 0x2000. TEXCOUNT > 8 fails. TnL devices lift the XYZRHW/NORMAL rules.
  // dwVertexType 0 is accepted for DX8+ contexts.
  const DWORD rhw = D3DFVF_XYZRHW;
  const FvfCase cases[] = {
      {3, false, rhw, true, "DX7 XYZRHW"},
      {3, false, D3DFVF_TLVERTEX, true, "DX7 TLVERTEX"},
      {3, false, rhw | D3DFVF_TEX8, true, "8 texture sets"},
      {3, false, D3DFVF_XYZ, false, "no XYZRHW on a non-TnL device"},
      {3, false, D3DFVF_XYZB1, false, "XYZB1 is not XYZRHW"},
      {3, false, 0, false, "0 is not accepted before DX8"},
      {3, false, rhw | D3DFVF_NORMAL, false, "NORMAL"},
      {3, false, rhw | 0x0001, false, "DX7 RESERVED0"},
      {3, false, rhw | 0x0020, false, "DX7 RESERVED1"},
      {3, false, rhw | 0x1000, false, "DX7 RESERVED2 0x1000"},
      {3, false, rhw | 0x2000, false, "DX7 RESERVED2 0x2000"},
      {3, false, rhw | 0x4000, false, "DX7 RESERVED2 0x4000"},
      {3, false, rhw | 0x8000, false, "DX7 RESERVED2 0x8000"},
      {3, false, rhw | 0x0900, false, "TEXCOUNT 9"},
      {3, false, rhw | 0x0F00, false, "TEXCOUNT 15"},
      {4, false, rhw | D3DFVF_PSIZE, true, "DX8 PSIZE"},
      {4, false, rhw | D3DFVF_LASTBETA_UBYTE4, true, "DX8 0x1000 is LASTBETA_UBYTE4"},
      {4, false, 0, true, "DX8 dwVertexType 0"},
      {4, false, rhw | 0x0001, false, "DX8 RESERVED0"},
      {4, false, rhw | 0x2000, false, "DX8 0x2000"},
      {4, false, rhw | 0x4000, false, "DX8 0x4000"},
      {4, false, rhw | 0x8000, false, "DX8 0x8000"},
      {4, false, rhw | D3DFVF_NORMAL, false, "DX8 NORMAL"},
      {5, false, 0, true, "DX9 dwVertexType 0"},
      {5, false, rhw | D3DFVF_FOG, true, "DX9 D3DFVF_FOG"},
      {5, false, rhw | 0x8000, true, "DX9 0x8000 (LASTBETA_D3DCOLOR) not reserved"},
      {5, false, rhw | 0x1000, true, "DX9 0x1000 not reserved"},
      {5, false, rhw | 0x4000, false, "DX9 0x4000 without XYZW"},
      {5, false, rhw | 0x0001, false, "DX9 RESERVED0"},
      {5, false, D3DFVF_XYZW, false, "XYZW is not XYZRHW on a non-TnL device"},
      {5, false, rhw | 0x0A00, false, "DX9 TEXCOUNT 10"},
      {3, true, D3DFVF_XYZ | D3DFVF_NORMAL, true, "TnL: XYZ + NORMAL"},
      {3, true, D3DFVF_XYZ | 0x0020, false, "TnL DX7: RESERVED1 still reserved"},
      {4, true, D3DFVF_XYZW, false, "TnL DX8: 0x4000 reserved"},
      {5, true, D3DFVF_XYZW, true, "TnL DX9: XYZW"},
      {5, true, D3DFVF_XYZ | 0x0001, false, "TnL DX9: RESERVED0"},
  };
  for (const FvfCase& c : cases) {
    const std::string why = c.why;
    CAPTURE(why);
    CAPTURE(c.fvf);
    Fx fx(c.version, c.tnl);
    Call call;
    call.command_offset = 12;
    call.vertex_type = c.fvf;
    Result r = run(fx, B().rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME).v, call);
    if (c.ok) {
      CHECK_OK(r);
      CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
    } else {
      CHECK_FAIL(r, DDERR_INVALIDPARAMS, 12);
      CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_SOLID);  // "before any command runs"
    }
  }
}

TEST_CASE("frontend rules: dwVertexSize must be 0 or the FVF stride") {
  // D3DHAL_DRAWPRIMITIVES2DATA page: dwVertexSize "Specifies the size of each vertex";
  // dp2: non-zero and != FVF stride → DDERR_INVALIDPARAMS at dwCommandOffset.
  for (DWORD size : {DWORD{0}, DWORD{kStride}, DWORD{16}, DWORD{24}, DWORD{kStride + 1}}) {
    CAPTURE(size);
    Fx fx;
    Call call;
    call.command_offset = 2;
    call.vertex_size = size;
    Result r = run(fx, B().rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME).v, call);
    if (size == 0 || size == kStride) {
      CHECK_OK(r);
    } else {
      CHECK_FAIL(r, DDERR_INVALIDPARAMS, 2);
      CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_SOLID);
    }
  }
}

TEST_CASE("frontend rules: unknown opcodes without a callback fail D3DERR_COMMAND_UNPARSED at their header") {
  // Page: "If the command is unknown, call the runtime's D3dParseUnknownCommand callback";
  // without one (or when it fails) the driver fails with dwErrorOffset = "the offset into
  // the command buffer where the first unhandled D3DHAL_DP2COMMAND can be found".
  // dp2: offsets count from the buffer start (dwCommandOffset included), as Perm3 does.
  CHECK(static_cast<std::uint32_t>(D3DERR_COMMAND_UNPARSED) == 0x88760BB8u);  // §2 rule 8
  for (unsigned op : {0u, 5u, 6u, 7u, 9u, 14u, 68u, 70u, 78u, 92u, 99u, 200u, 255u}) {
    CAPTURE(op);
    Fx fx;
    const Bytes cmds = B().rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME).hdr(op, 1).d(0).rs(D3DRS_CULLMODE, D3DCULL_CW).v;
    Call call;
    call.command_offset = 10;
    Result r = run(fx, cmds, call);
    CHECK_FAIL(r, D3DERR_COMMAND_UNPARSED, 10 + 12);
    // Commands before the failure stay applied; none after it runs.
    CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
    CHECK(fx.s().render_state(D3DRS_CULLMODE) == D3DCULL_CCW);
  }
}

TEST_CASE("frontend rules: truncated payloads fail D3DERR_COMMAND_UNPARSED at their header") {
  Fx fx;
  // RENDERSTATE announcing 2 states but carrying 1 (§3: 8n bytes).
  const Bytes cmds = B().rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME).hdr(D3DDP2OP_RENDERSTATE, 2).d(D3DRS_CULLMODE).d(D3DCULL_CW).v;
  Call call;
  call.command_offset = 30;
  Result r = run(fx, cmds, call);
  CHECK_FAIL(r, D3DERR_COMMAND_UNPARSED, 30 + 12);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
  CHECK(fx.s().render_state(D3DRS_CULLMODE) == D3DCULL_CCW);  // the truncated command did not run
  // A 3-byte tail (not even a header) fails at the tail.
  Fx fx2;
  const Bytes tail = B().rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME).u8(D3DDP2OP_RENDERSTATE).u8(0).u8(1).v;
  r = run(fx2, tail, call);
  CHECK_FAIL(r, D3DERR_COMMAND_UNPARSED, 30 + 12);
}

TEST_CASE("frontend rules: legacy vertex indices must be < dwVertexLength and inside the buffer") {
  // §2 rule 3: vertex i at base + i × stride, dwVertexLength counts vertices; rule 4:
  // every index is biased by wVStart. The page: "the driver must stay within the bounds
  // specified by ... dwVertexLength". dp2: out of range → D3DERR_COMMAND_UNPARSED at the
  // command's header.
  const Bytes verts = make_vertices(8);
  struct Case {
    const char* what;
    Bytes cmd;
    DWORD length;
    bool ok;
  };
  const Case cases[] = {
      {"TRIANGLELIST 2..4 with length 5", B().hdr(D3DDP2OP_TRIANGLELIST, 1).w(2).v, 5, true},
      {"TRIANGLELIST 2..4 with length 4", B().hdr(D3DDP2OP_TRIANGLELIST, 1).w(2).v, 4, false},
      {"TRIANGLESTRIP 5..7 (n+2 = 3) with length 8", B().hdr(D3DDP2OP_TRIANGLESTRIP, 1).w(5).v, 8, true},
      {"TRIANGLESTRIP 6..8 with length 8", B().hdr(D3DDP2OP_TRIANGLESTRIP, 1).w(6).v, 8, false},
      {"LINESTRIP 6..7 (n+1 = 2)", B().hdr(D3DDP2OP_LINESTRIP, 1).w(6).v, 8, true},
      {"LINELIST 6..7 (2n = 2)", B().hdr(D3DDP2OP_LINELIST, 1).w(6).v, 8, true},
      {"LINELIST 7..8", B().hdr(D3DDP2OP_LINELIST, 1).w(7).v, 8, false},
      {"TRIANGLEFAN 5..8", B().hdr(D3DDP2OP_TRIANGLEFAN, 2).w(5).v, 8, false},
      {"POINTS run 7..7", B().hdr(D3DDP2OP_POINTS, 1).w(1).w(7).v, 8, true},
      {"POINTS run 7..8", B().hdr(D3DDP2OP_POINTS, 1).w(2).w(7).v, 8, false},
      {"INDEXEDTRIANGLELIST2 wVStart 5 + index 2 = 7", B().hdr(D3DDP2OP_INDEXEDTRIANGLELIST2, 1).w(5).w(0).w(1).w(2).v, 8, true},
      {"INDEXEDTRIANGLELIST2 wVStart 6 + index 2 = 8", B().hdr(D3DDP2OP_INDEXEDTRIANGLELIST2, 1).w(6).w(0).w(1).w(2).v, 8, false},
      {"INDEXEDTRIANGLELIST2 wVStart 0xFFFF + 2 must not wrap to 1", B().hdr(D3DDP2OP_INDEXEDTRIANGLELIST2, 1).w(0xFFFF).w(2).w(2).w(2).v, 8, false},
      {"INDEXEDLINELIST index 8", B().hdr(D3DDP2OP_INDEXEDLINELIST, 1).w(0).w(8).v, 8, false},
      {"INDEXEDTRIANGLELIST index 7 with length 7", B().hdr(D3DDP2OP_INDEXEDTRIANGLELIST, 1).w(0).w(7).w(1).w(0).v, 7, false},
      {"INDEXEDLINESTRIP wVStart 4, indices 0..3", B().hdr(D3DDP2OP_INDEXEDLINESTRIP, 1).w(4).w(0).w(3).v, 8, true},
      {"INDEXEDTRIANGLEFAN wVStart 4, index 4", B().hdr(D3DDP2OP_INDEXEDTRIANGLEFAN, 1).w(4).w(0).w(1).w(4).v, 8, false},
      {"INDEXEDLINELIST2 wVStart 7 + 1", B().hdr(D3DDP2OP_INDEXEDLINELIST2, 1).w(7).w(0).w(1).v, 8, false},
      // dwVertexLength larger than the buffer: the buffer bound still holds.
      {"TRIANGLELIST 6..8 with length 100 but 8 vertices in the buffer", B().hdr(D3DDP2OP_TRIANGLELIST, 1).w(6).v, 100, false},
  };
  for (const Case& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    Fx fx;
    Call call;
    call.command_offset = 4;
    call.vertices = verts;
    call.vertex_length = c.length;
    const Bytes cmds = concat({B().rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME).v, c.cmd});
    Result r = run(fx, cmds, call);
    if (c.ok) {
      CHECK_OK(r);
      CHECK(fx.draws().size() == 1);
    } else {
      CHECK_FAIL(r, D3DERR_COMMAND_UNPARSED, 4 + 12);
      CHECK(fx.record_count() == 0);
      CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);  // earlier state kept
    }
  }
}

TEST_CASE("frontend rules: dwVertexOffset moves vertex 0 and shrinks nothing else") {
  // §2 rule 3: base = VB memory + dwVertexOffset; vertex i at base + i × stride.
  const Bytes verts = make_vertices(4);
  Fx fx;
  Call call;
  call.vertices = verts;
  call.vertex_offset = 6;  // the harness puts 6 filler bytes before vertex 0
  Result r = run(fx, B().hdr(D3DDP2OP_TRIANGLELIST, 1).w(1).v, call);
  CHECK_OK(r);
  REQUIRE(fx.draws().size() == 1);
  CHECK(fx.vertices(fx.draws()[0]) == slice(verts, 1, 3));
}

TEST_CASE("frontend rules: a failed command leaves no records of its own, earlier ones stay") {
  const Bytes verts = make_vertices(6);
  Fx fx;
  Call call;
  call.command_offset = 8;
  call.vertices = verts;
  // TRIANGLELIST (ok) + INDEXEDTRIANGLELIST with a good first and a bad second triangle.
  const Bytes cmds = B()
                         .hdr(D3DDP2OP_TRIANGLELIST, 1).w(0)                          // 6 bytes
                         .hdr(D3DDP2OP_INDEXEDTRIANGLELIST, 2)
                         .w(0).w(1).w(2).w(0)
                         .w(3).w(4).w(6).w(0)  // vertex 6 ≥ dwVertexLength 6
                         .v;
  Result r = run(fx, cmds, call);
  CHECK_FAIL(r, D3DERR_COMMAND_UNPARSED, 8 + 6);
  REQUIRE(fx.draws().size() == 1);
  CHECK(fx.draws()[0].source_op == D3DDP2OP_TRIANGLELIST);
}

TEST_CASE("frontend rules: zero-count primitives are accepted and record nothing") {
  const Bytes verts = make_vertices(4);
  Fx fx;
  Call call;
  call.vertices = verts;
  const auto before = fx.diagnostics().zero_count_primitives;
  // TRIANGLELIST n = 0 (2 bytes), POINTS with one run of wCount 0, INDEXEDTRIANGLELIST2
  // n = 0 (just the STARTVERTEX), then a sentinel render state.
  const Bytes cmds = B()
                         .hdr(D3DDP2OP_TRIANGLELIST, 0).w(0)
                         .hdr(D3DDP2OP_POINTS, 1).w(0).w(0)
                         .hdr(D3DDP2OP_INDEXEDTRIANGLELIST2, 0).w(0)
                         .rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME)
                         .v;
  Result r = run(fx, cmds, call);
  CHECK_OK(r);
  CHECK(fx.record_count() == 0);
  CHECK(fx.diagnostics().zero_count_primitives - before == 3);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
}

TEST_CASE("frontend rules: render states >= 256 are ignored and counted") {
  Fx fx;
  const auto before = fx.diagnostics().unknown_render_states;
  // D3DHAL_MAX_RSTATES = 256 (§2 rule 9): state 256 + 8 must not alias FILLMODE (8).
  const Bytes cmds = B()
                         .hdr(D3DDP2OP_RENDERSTATE, 4)
                         .d(256 + D3DRS_FILLMODE).d(D3DFILL_POINT)
                         .d(0x7FFFFFFFu).d(1)
                         .d(0xFFFFFFFFu).d(1)  // outside the enum's value range: read as a DWORD
                         .d(255).d(0x1234)
                         .v;
  Result r = run(fx, cmds);
  CHECK_OK(r);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_SOLID);
  CHECK(fx.s().render_state(255) == 0x1234u);
  CHECK(fx.diagnostics().unknown_render_states - before == 3);
}

TEST_CASE("frontend rules: TEXTURESTAGESTATE stage >= 16 or state >= 64 is ignored and counted") {
  // Stages: D3DHAL_SAMPLER_MAXSAMP 16 (DX9); states per stage: D3DHAL_TSS_STATESPERSTAGE 64.
  // The D3DHAL_DP2TEXTURESTAGESTATE page gives wStage 0…7 (DP2-OPCODES D9): before DX9 a
  // stage ≥ 8 is out of range as well.
  SUBCASE("DX9") {
    Fx fx(5);
    const auto before = fx.diagnostics().bad_texture_stages;
    const DWORD stage0_colorop = fx.s().texture_stage_state(0, D3DTSS_COLOROP);
    const Bytes cmds = B()
                           .hdr(D3DDP2OP_TEXTURESTAGESTATE, 4)
                           .w(16).w(D3DTSS_COLOROP).d(0x77)      // stage 16 must not alias stage 0
                           .w(0).w(64 + D3DTSS_COLOROP).d(0x78)  // state 65 must not alias 1
                           .w(15).w(63).d(0x79)                  // the last valid slot
                           .w(1).w(D3DTSS_COLOROP).d(0x7A)
                           .v;
    Result r = run(fx, cmds);
    CHECK_OK(r);
    CHECK(fx.s().texture_stage_state(0, D3DTSS_COLOROP) == stage0_colorop);
    CHECK(fx.s().texture_stage_state(15, 63) == 0x79u);
    CHECK(fx.s().texture_stage_state(1, D3DTSS_COLOROP) == 0x7Au);
    CHECK(fx.diagnostics().bad_texture_stages - before == 2);
  }
  SUBCASE("DX7: stages 0..7") {
    Fx fx(3);
    const auto before = fx.diagnostics().bad_texture_stages;
    const Bytes cmds = B()
                           .hdr(D3DDP2OP_TEXTURESTAGESTATE, 3)
                           .w(8).w(D3DTSS_COLOROP).d(0x77)
                           .w(16).w(D3DTSS_COLOROP).d(0x77)
                           .w(7).w(D3DTSS_COLOROP).d(0x7B)
                           .v;
    Result r = run(fx, cmds);
    CHECK_OK(r);
    CHECK(fx.s().texture_stage_state(7, D3DTSS_COLOROP) == 0x7Bu);
    CHECK(fx.s().texture_stage_state(0, D3DTSS_COLOROP) != 0x77u);
    CHECK(fx.diagnostics().bad_texture_stages - before == 2);
  }
}

TEST_CASE("frontend rules: D3DHALDP2_EXECUTEBUFFER mirrors render states into lpdwRStates") {
  // Page: "When the D3DHALDP2_EXECUTEBUFFER flag is set, the driver should also reflect the
  // state change in the array that lpdwRStates points to"; only then (data page).
  // The array has D3DHAL_MAX_RSTATES (256) entries: a heap array of exactly that size lets
  // ASan catch a write for an ignored state ≥ 256.
  const Bytes cmds = B()
                         .hdr(D3DDP2OP_RENDERSTATE, 3)
                         .d(D3DRS_FILLMODE).d(D3DFILL_POINT)
                         .d(256).d(5)
                         .d(255).d(0x55)
                         .v;
  SUBCASE("flag set") {
    Fx fx;
    std::vector<DWORD> mirror(256, 0xAAAAAAAAu);
    Call call;
    call.flags = D3DHALDP2_EXECUTEBUFFER;
    call.render_states = mirror.data();
    Result r = run(fx, cmds, call);
    CHECK_OK(r);
    CHECK(mirror[D3DRS_FILLMODE] == D3DFILL_POINT);
    CHECK(mirror[255] == 0x55u);
    for (DWORD k = 0; k < 255; ++k)
      if (k != D3DRS_FILLMODE) CHECK(mirror[k] == 0xAAAAAAAAu);
  }
  SUBCASE("flag clear") {
    Fx fx;
    std::vector<DWORD> mirror(256, 0xAAAAAAAAu);
    Call call;
    call.render_states = mirror.data();
    Result r = run(fx, cmds, call);
    CHECK_OK(r);
    CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_POINT);
    CHECK(std::all_of(mirror.begin(), mirror.end(), [](DWORD x) { return x == 0xAAAAAAAAu; }));
  }
}

TEST_CASE("frontend rules: SWAPCOMMANDBUFFER / SWAPVERTEXBUFFER with the REQ sizes grow the buffers") {
  // Data page: REQCOMMANDBUFSIZE — "increase the current command buffer by at least the
  // size specified in dwReqCommandBufSize"; REQVERTEXBUFSIZE — "allocate a vertex buffer of
  // at least the size" (header: dwReqVertexBufSize, DP2-OPCODES D6).
  const Bytes verts = make_vertices(3);
  const Bytes cmds = B().hdr(D3DDP2OP_TRIANGLELIST, 1).w(0).v;
  SUBCASE("both swaps requested") {
    Fx fx;
    Call call;
    call.command_offset = 4;
    call.vertices = verts;
    call.flags = D3DHALDP2_SWAPCOMMANDBUFFER | D3DHALDP2_REQCOMMANDBUFSIZE | D3DHALDP2_SWAPVERTEXBUFFER |
                 D3DHALDP2_REQVERTEXBUFSIZE;
    call.req_command = 100;
    call.req_vertex = 4096;
    Result r = run(fx, cmds, call);
    CHECK_OK(r);
    CHECK(fx.surface_bytes(r.command_surface).size() == 4 + cmds.size() + 100);
    CHECK(fx.surface_bytes(r.vertex_surface).size() >= 4096);
    // The draw left its vertices in the vertex buffer: the device submits the records
    // before it swaps, so the draw reads the old storage (a device test, "vertex buffers:
    // a SWAPVERTEXBUFFER draw reads the vertices of the call", checks the pixels).
    REQUIRE(fx.draws().size() == 1);
    CHECK(fx.draws()[0].vertex_surface == r.vertex_surface);
    CHECK(fx.draws()[0].vertex_offset == 0);
  }
  SUBCASE("a smaller REQVERTEXBUFSIZE keeps at least the old size") {
    Fx fx;
    Call call;
    call.vertices = verts;
    call.flags = D3DHALDP2_SWAPVERTEXBUFFER | D3DHALDP2_REQVERTEXBUFSIZE;
    call.req_vertex = 8;
    Result r = run(fx, cmds, call);
    CHECK_OK(r);
    CHECK(fx.surface_bytes(r.vertex_surface).size() >= verts.size());
  }
  SUBCASE("REQ flags without SWAP change nothing") {
    Fx fx;
    Call call;
    call.vertices = verts;
    call.flags = D3DHALDP2_REQCOMMANDBUFSIZE | D3DHALDP2_REQVERTEXBUFSIZE;
    call.req_command = 100;
    call.req_vertex = 4096;
    Result r = run(fx, cmds, call);
    CHECK_OK(r);
    CHECK(fx.surface_bytes(r.command_surface).size() == cmds.size());
    CHECK(fx.surface_bytes(r.vertex_surface).size() == verts.size());
  }
}

TEST_CASE("frontend rules: _IMM without a vertex format on a DX8 context fails DDERR_INVALIDPARAMS at it") {
  // dwVertexType 0 is accepted for DX8+ (brief), but the _IMM opcodes are packed at the
  // dwVertexType stride (§2 rule 6): with none, dp2 fails that command (decoder
  // kNoVertexStride → DDERR_INVALIDPARAMS at the command, executor.cpp).
  Fx fx(4);
  Call call;
  call.vertex_type = 0;
  call.command_offset = 4;
  const Bytes cmds = B().rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME).hdr(D3DDP2OP_LINELIST_IMM, 1).fill(40, 0).v;
  Result r = run(fx, cmds, call);
  CHECK_FAIL(r, DDERR_INVALIDPARAMS, 4 + 12);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
}
