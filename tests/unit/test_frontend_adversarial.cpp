// Front-end (D3dDrawPrimitives2) tests: adversarial streams (prefixes, huge counts, overflow, callback).
#include "support/frontend_fixture.h"

// Adversarial streams: truncation at every byte, huge and overflowing counts, out-of-range
// vertices and indices, the unknown-command callback. Command bytes live in surfaces of
// exactly their size, so any overread is an ASan error.

namespace {

// A stream whose command boundaries and per-command record counts are known from the DDI
// sizes (§3), computed while building it.
struct Built {
  Bytes bytes;
  std::vector<std::size_t> starts;   // header offsets
  std::vector<std::size_t> records;  // records each command adds
  void add(const Bytes& cmd, std::size_t recs) {
    starts.push_back(bytes.size());
    records.push_back(recs);
    bytes.insert(bytes.end(), cmd.begin(), cmd.end());
  }
};

// Legacy DX7 stream; `base` = dwCommandOffset (the _IMM pads depend on it, §2 rule 6).
Built legacy_stream(std::size_t base, const Bytes& verts) {
  Built s;
  s.add(B().hdr(D3DDP2OP_RENDERSTATE, 2).d(D3DRS_FILLMODE).d(D3DFILL_WIREFRAME).d(D3DRS_CULLMODE).d(D3DCULL_CW).v, 0);
  s.add(B().hdr(D3DDP2OP_TRIANGLELIST, 1).w(0).v, 1);                     // 6 bytes
  s.add(B().hdr(D3DDP2OP_INDEXEDLINELIST2, 1).w(1).w(0).w(2).v, 1);       // 10 bytes
  {
    B b;
    b.hdr(D3DDP2OP_LINELIST_IMM, 1);
    const std::size_t at = base + s.bytes.size() + 4;
    b.fill((4 - at % 4) % 4, 0xEE).bytes(slice(verts, 0, 2));
    s.add(b.v, 1);
  }
  s.add(B().hdr(D3DDP2OP_CLEAR, 1).d(D3DCLEAR_TARGET).d(0xFF00FF00u).f(1.0f).d(0).i(0).i(0).i(4).i(4).v, 1);
  s.add(B().hdr(D3DDP2OP_CREATELIGHT, 1).d(1).v, 0);
  {
    B b;
    b.hdr(D3DDP2OP_SETLIGHT, 2).d(1).d(D3DHAL_SETLIGHT_DATA).d(D3DLIGHT_POINT).fill(100, 0).d(1).d(D3DHAL_SETLIGHT_ENABLE);
    s.add(b.v, 0);
  }
  s.add(B().hdr(D3DDP2OP_UPDATEPALETTE, 1).d(3).w(0).w(2).d(0x11).d(0x22).v, 0);
  s.add(B().hdr(D3DDP2OP_TEXTURESTAGESTATE, 1).w(0).w(D3DTSS_COLOROP).d(D3DTOP_ADD).v, 0);
  {
    B b;
    b.hdr(D3DDP2OP_TRIANGLEFAN_IMM, 1).d(0x7);
    const std::size_t at = base + s.bytes.size() + 8;
    b.fill((4 - at % 4) % 4, 0xEE).bytes(slice(verts, 1, 3));
    s.add(b.v, 1);
  }
  s.add(B().hdr(D3DDP2OP_INDEXEDTRIANGLELIST, 1).w(0).w(1).w(2).w(D3DTRIFLAG_EDGEENABLETRIANGLE).v, 1);
  return s;
}

// Expected outcome for a prefix of `len` bytes: OK when len ends a command, else
// COMMAND_UNPARSED at the command containing byte `len` (the first incomplete one).
void check_prefix(const Built& s, std::size_t len, DWORD offset, const Result& r, const Fx& fx) {
  std::size_t complete = 0, recs = 0, failing = 0;
  bool boundary = len == 0;
  for (std::size_t k = 0; k < s.starts.size(); ++k) {
    const std::size_t end = k + 1 < s.starts.size() ? s.starts[k + 1] : s.bytes.size();
    if (end <= len) {
      ++complete;
      recs += s.records[k];
      if (end == len) boundary = true;
    } else {
      failing = s.starts[k];
      break;
    }
  }
  (void)complete;
  if (boundary) {
    CHECK_OK(r);
  } else {
    CHECK_FAIL(r, D3DERR_COMMAND_UNPARSED, offset + failing);
  }
  CHECK(fx.record_count() == recs);
}

}  // namespace

TEST_CASE("frontend adversarial: every prefix of a legacy stream fails cleanly or ends on a boundary") {
  const Bytes verts = make_vertices(4);
  for (DWORD offset : {DWORD{0}, DWORD{2}, DWORD{6}}) {
    const Built s = legacy_stream(offset, verts);
    for (std::size_t len = 0; len <= s.bytes.size(); ++len) {
      CAPTURE(offset);
      CAPTURE(len);
      Fx fx;
      Call call;
      call.command_offset = offset;
      call.vertices = verts;
      const Result r = run(fx, std::span(s.bytes).first(len), call);
      check_prefix(s, len, offset, r, fx);
    }
  }
}

TEST_CASE("frontend adversarial: every prefix of a DX9 stream fails cleanly or ends on a boundary") {
  const Bytes verts = make_vertices(6);
  const Bytes ib = B().w(0).w(1).w(2).w(3).v;
  Built s;
  s.add(B().hdr(D3DDP2OP_SETVERTEXSHADER, 1).d(kFvf).v, 0);
  s.add(B().hdr(D3DDP2OP_SETSTREAMSOURCE, 1).d(0).d(0x100).d(kStride).v, 0);  // Fx::buffer's first handle
  s.add(B().hdr(D3DDP2OP_SETINDICES, 1).d(0x101).d(2).v, 0);
  s.add(B().hdr(D3DDP2OP_CREATEVERTEXSHADER, 1).d(3).d(8).d(12).d(1).d(2).d(3).d(4).d(5).v, 0);
  s.add(B().hdr(D3DDP2OP_SETVERTEXSHADERCONST, 1).d(0).d(2).fill(32, 0).v, 0);
  s.add(B().hdr(D3DDP2OP_DRAWINDEXEDPRIMITIVE, 1).d(D3DPT_TRIANGLELIST).i(1).d(0).d(3).d(0).d(1).v, 1);
  s.add(B().hdr(D3DDP2OP_CREATEQUERY, 1).d(1).d(D3DQUERYTYPE_EVENT).v, 0);
  s.add(B().hdr(D3DDP2OP_DRAWPRIMITIVE, 2).d(D3DPT_POINTLIST).d(0).d(2).d(D3DPT_LINELIST).d(2).d(1).v, 2);
  s.add(B().hdr(D3DDP2OP_CREATEVERTEXSHADERDECL, 1).d(5).d(2).fill(16, 0).v, 0);
  s.add(B().hdr(D3DDP2OP_SETVERTEXSHADERCONSTB, 1).d(0).d(2).d(1).d(0).v, 0);
  s.add(B().hdr(D3DDP2OP_UPDATEPALETTE, 0).d(1).w(0).w(1).d(0x44).v, 0);
  for (DWORD offset : {DWORD{0}, DWORD{2}}) {
    for (std::size_t len = 0; len <= s.bytes.size(); ++len) {
      CAPTURE(offset);
      CAPTURE(len);
      Fx fx(5);
      REQUIRE(fx.buffer(dp2::SurfaceKind::kVertexBuffer, verts) == 0x100u);
      REQUIRE(fx.buffer(dp2::SurfaceKind::kIndexBuffer, ib) == 0x101u);
      Call call;
      call.command_offset = offset;
      call.vertex_type = 0;
      const Result r = run(fx, std::span(s.bytes).first(len), call);
      check_prefix(s, len, offset, r, fx);
    }
  }
}

TEST_CASE("frontend adversarial: huge and overflowing counts fail at their header") {
  // count × size overflow must not wrap into a small size (§3 sizes; brief: truncated /
  // overflowing payload → D3DERR_COMMAND_UNPARSED at the command's header).
  struct Case {
    const char* what;
    Bytes cmd;
  };
  const Case cases[] = {
      {"RENDERSTATE count 0xFFFF with one record", B().hdr(D3DDP2OP_RENDERSTATE, 0xFFFF).d(D3DRS_ZENABLE).d(1).v},
      {"TEXTURESTAGESTATE count 0xFFFF", B().hdr(D3DDP2OP_TEXTURESTAGESTATE, 0xFFFF).w(0).w(1).d(1).v},
      {"CLEAR count 0xFFFF", B().hdr(D3DDP2OP_CLEAR, 0xFFFF).d(1).d(0).f(0).d(0).i(0).i(0).i(1).i(1).v},
      {"SETTRANSFORM count 0xFFFF", B().hdr(D3DDP2OP_SETTRANSFORM, 0xFFFF).d(1).fill(64, 0).v},
      {"INDEXEDTRIANGLESTRIP count 0xFFFF with 3 indices", B().hdr(D3DDP2OP_INDEXEDTRIANGLESTRIP, 0xFFFF).w(0).w(0).w(1).w(2).v},
      {"INDEXEDTRIANGLELIST2 count 0xFFFF with 1 triangle", B().hdr(D3DDP2OP_INDEXEDTRIANGLELIST2, 0xFFFF).w(0).w(0).w(1).w(2).v},
      {"LINELIST_IMM count 0xFFFF", B().hdr(D3DDP2OP_LINELIST_IMM, 0xFFFF).fill(40, 0).v},
      {"TRIANGLEFAN_IMM count 0xFFFF", B().hdr(D3DDP2OP_TRIANGLEFAN_IMM, 0xFFFF).d(0).fill(60, 0).v},
      {"SETVERTEXSHADERCONST dwCount 0xFFFFFFFF", B().hdr(D3DDP2OP_SETVERTEXSHADERCONST, 1).d(0).d(0xFFFFFFFFu).fill(16, 0).v},
      {"SETVERTEXSHADERCONST dwCount 0x10000000 (×16 = 2^32)", B().hdr(D3DDP2OP_SETVERTEXSHADERCONST, 1).d(0).d(0x10000000u).v},
      {"SETPIXELSHADERCONSTB dwCount 0x40000000 (×4 = 2^32)", B().hdr(D3DDP2OP_SETPIXELSHADERCONSTB, 1).d(0).d(0x40000000u).v},
      {"SETVERTEXSHADERCONST register + count past any register file",
       B().hdr(D3DDP2OP_SETVERTEXSHADERCONST, 1).d(0xFFFFFFFFu).d(1).fill(16, 0).v},
      {"CREATEVERTEXSHADER decl + code = 2^32 + 4", B().hdr(D3DDP2OP_CREATEVERTEXSHADER, 1).d(1).d(0xFFFFFFF4u).d(0x10).fill(16, 0).v},
      {"CREATEVERTEXSHADER decl and code 0xFFFFFFFF", B().hdr(D3DDP2OP_CREATEVERTEXSHADER, 1).d(1).d(0xFFFFFFFFu).d(0xFFFFFFFFu).v},
      {"CREATEVERTEXSHADER second record overflows", B().hdr(D3DDP2OP_CREATEVERTEXSHADER, 2).d(1).d(0).d(4).d(0).d(2).d(0xFFFFFFFCu).d(8).v},
      {"CREATEPIXELSHADER dwCodeSize 0xFFFFFFFC", B().hdr(D3DDP2OP_CREATEPIXELSHADER, 1).d(1).d(0xFFFFFFFCu).d(0).v},
      {"CREATEVERTEXSHADERFUNC dwSize 0xFFFFFFF8", B().hdr(D3DDP2OP_CREATEVERTEXSHADERFUNC, 1).d(1).d(0xFFFFFFF8u).v},
      {"CREATEVERTEXSHADERDECL 0x20000000 elements (×8 = 2^32)", B().hdr(D3DDP2OP_CREATEVERTEXSHADERDECL, 1).d(1).d(0x20000000u).fill(8, 0).v},
      {"SETLIGHT DATA without the D3DLIGHT7", B().hdr(D3DDP2OP_SETLIGHT, 1).d(0).d(D3DHAL_SETLIGHT_DATA).fill(50, 0).v},
      {"DRAWRECTPATCH HASINFO truncated", B().hdr(D3DDP2OP_DRAWRECTPATCH, 1).d(0).d(2).fill(20, 0).v},
      {"SETCONVOLUTIONKERNELMONO width 0xFFFFFFFF", B().hdr(D3DDP2OP_SETCONVOLUTIONKERNELMONO, 1).d(0xFFFFFFFFu).d(1).d(1).v},
      {"UPDATEPALETTE wNumEntries 0xFFFF", B().hdr(D3DDP2OP_UPDATEPALETTE, 1).d(1).w(0).w(0xFFFF).d(0).v},
      {"UPDATEPALETTE entries 250..259 of a 256-entry palette", B().hdr(D3DDP2OP_UPDATEPALETTE, 1).d(1).w(250).w(10).fill(40, 0).v},
      {"UPDATEPALETTE header cut before wNumEntries", B().hdr(D3DDP2OP_UPDATEPALETTE, 1).d(1).w(0).v},
  };
  for (const Case& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    Fx fx(5);
    // The bad command is last: a trailing sentinel could be swallowed as its payload.
    const Bytes cmds = concat({B().rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME).v, c.cmd});
    Call call;
    call.command_offset = 10;
    Result r = run(fx, cmds, call);
    CHECK_FAIL(r, D3DERR_COMMAND_UNPARSED, 10 + 12);
    CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);  // earlier state kept
    CHECK(fx.record_count() == 0);
  }
}

TEST_CASE("frontend adversarial: 0xFFFF primitives with enough vertices succeed without WORD overflow") {
  // TRIANGLESTRIP n = 0xFFFF uses n + 2 = 65537 vertices (§3.1) — more than a WORD holds.
  const Bytes verts = make_vertices(65537);
  {
    Fx fx;
    Call call;
    call.vertices = verts;
    Result r = run(fx, B().hdr(D3DDP2OP_TRIANGLESTRIP, 0xFFFF).w(0).v, call);
    CHECK_OK(r);
    REQUIRE(fx.draws().size() == 1);
    CHECK(fx.draws()[0].primitive_count == 0xFFFFu);
    CHECK(fx.draws()[0].vertex_count == 65537u);
    CHECK(fx.vertices(fx.draws()[0]).size() == 65537u * kStride);
  }
  {
    // One vertex short.
    Fx fx;
    Call call;
    call.vertices = verts;
    call.vertex_length = 65536;
    Result r = run(fx, B().hdr(D3DDP2OP_TRIANGLESTRIP, 0xFFFF).w(0).v, call);
    CHECK_FAIL(r, D3DERR_COMMAND_UNPARSED, 0);
  }
  {
    // INDEXEDTRIANGLESTRIP n = 0xFFFF: 65537 WORD indices after the STARTVERTEX.
    Fx fx;
    Call call;
    call.vertices = slice(verts, 0, 4);
    B b;
    b.hdr(D3DDP2OP_INDEXEDTRIANGLESTRIP, 0xFFFF).w(1);
    for (std::uint32_t k = 0; k < 65537; ++k) b.w(k % 3);
    Result r = run(fx, b.v, call);
    CHECK_OK(r);
    REQUIRE(fx.draws().size() == 1);
    CHECK(fx.draws()[0].primitive_count == 0xFFFFu);
    CHECK(fx.indices(fx.draws()[0]).size() == 65537u);
    CHECK(fx.vertices(fx.draws()[0]) == slice(verts, 1, 3));
  }
}

TEST_CASE("frontend adversarial: many POINTS runs out of range fail cleanly") {
  // 256 runs × 0xFFFF points from an 8-vertex buffer: out of range (§2 rule 3).
  Fx fx;
  Call call;
  call.vertices = make_vertices(8);
  B b;
  b.hdr(D3DDP2OP_POINTS, 256);
  for (int k = 0; k < 256; ++k) b.w(0xFFFF).w(0);
  Result r = run(fx, b.v, call);
  CHECK_FAIL(r, D3DERR_COMMAND_UNPARSED, 0);
  CHECK(fx.record_count() == 0);
}

TEST_CASE("frontend adversarial: DX8 stream draws out of range fail at their header with rollback") {
  const Bytes verts = make_vertices(10);
  const Bytes ib = B().w(0).w(1).w(2).w(9).w(0xFFFF).v;
  struct Case {
    const char* what;
    Bytes cmd;
  };
  const Case cases[] = {
      {"DRAWPRIMITIVE VStart 0xFFFFFFFF", B().hdr(D3DDP2OP_DRAWPRIMITIVE, 1).d(D3DPT_TRIANGLELIST).d(0xFFFFFFFFu).d(1).v},
      {"DRAWPRIMITIVE PrimitiveCount 0xFFFFFFFF", B().hdr(D3DDP2OP_DRAWPRIMITIVE, 1).d(D3DPT_TRIANGLELIST).d(0).d(0xFFFFFFFFu).v},
      {"DRAWPRIMITIVE 8..10 of 10", B().hdr(D3DDP2OP_DRAWPRIMITIVE, 1).d(D3DPT_TRIANGLELIST).d(8).d(1).v},
      {"DRAWPRIMITIVE second record bad", B().hdr(D3DDP2OP_DRAWPRIMITIVE, 2).d(D3DPT_TRIANGLELIST).d(0).d(1).d(D3DPT_TRIANGLELIST).d(8).d(1).v},
      {"DRAWPRIMITIVE primType 0", B().hdr(D3DDP2OP_DRAWPRIMITIVE, 1).d(0).d(0).d(1).v},
      {"DRAWPRIMITIVE primType 7", B().hdr(D3DDP2OP_DRAWPRIMITIVE, 1).d(7).d(0).d(1).v},
      {"DRAWPRIMITIVE primType 0xFFFFFFFF", B().hdr(D3DDP2OP_DRAWPRIMITIVE, 1).d(0xFFFFFFFFu).d(0).d(1).v},
      {"DRAWINDEXEDPRIMITIVE BaseVertexIndex -5", B().hdr(D3DDP2OP_DRAWINDEXEDPRIMITIVE, 1).d(D3DPT_TRIANGLELIST).i(-5).d(0).d(3).d(0).d(1).v},
      {"DRAWINDEXEDPRIMITIVE index 9 + 1", B().hdr(D3DDP2OP_DRAWINDEXEDPRIMITIVE, 1).d(D3DPT_TRIANGLELIST).i(1).d(0).d(10).d(1).d(1).v},
      {"DRAWINDEXEDPRIMITIVE index 0xFFFF", B().hdr(D3DDP2OP_DRAWINDEXEDPRIMITIVE, 1).d(D3DPT_TRIANGLELIST).i(0).d(0).d(10).d(2).d(1).v},
      {"DRAWINDEXEDPRIMITIVE StartIndex 0x80000000", B().hdr(D3DDP2OP_DRAWINDEXEDPRIMITIVE, 1).d(D3DPT_TRIANGLELIST).i(0).d(0).d(3).d(0x80000000u).d(1).v},
      {"DRAWINDEXEDPRIMITIVE past the index buffer", B().hdr(D3DDP2OP_DRAWINDEXEDPRIMITIVE, 1).d(D3DPT_TRIANGLELIST).i(0).d(0).d(3).d(3).d(1).v},
      {"DRAWINDEXEDPRIMITIVE2 BaseVertexOffset -stride, index 0", B().hdr(D3DDP2OP_DRAWINDEXEDPRIMITIVE2, 1).d(D3DPT_TRIANGLELIST).i(-static_cast<std::int32_t>(kStride)).d(0).d(3).d(0).d(1).v},
      {"DRAWINDEXEDPRIMITIVE2 StartIndexOffset 0xFFFFFFFF", B().hdr(D3DDP2OP_DRAWINDEXEDPRIMITIVE2, 1).d(D3DPT_TRIANGLELIST).i(0).d(0).d(3).d(0xFFFFFFFFu).d(1).v},
      {"DRAWPRIMITIVE2 FirstVertexOffset 0xFFFFFFFF", B().hdr(D3DDP2OP_DRAWPRIMITIVE2, 1).d(D3DPT_TRIANGLELIST).d(0xFFFFFFFFu).d(1).v},
      {"DRAWPRIMITIVE2 one byte past", B().hdr(D3DDP2OP_DRAWPRIMITIVE2, 1).d(D3DPT_TRIANGLELIST).d(7 * kStride + 1).d(1).v},
      {"CLIPPEDTRIANGLEFAN past the end", B().hdr(D3DDP2OP_CLIPPEDTRIANGLEFAN, 1).d(8 * kStride).d(0).d(1).v},
  };
  for (const Case& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    Fx fx(5);
    const DWORD vb = fx.buffer(dp2::SurfaceKind::kVertexBuffer, verts);
    const DWORD ibh = fx.buffer(dp2::SurfaceKind::kIndexBuffer, ib);
    dp2::StreamWriter w;
    w.set_vertex_shader(kFvf).set_stream_source(0, vb, kStride).set_indices(ibh, 2).draw_primitive(D3DPT_POINTLIST, 0, 1);
    const std::size_t bad_at = w.size();
    const Bytes cmds = concat({Bytes(w.bytes().begin(), w.bytes().end()), c.cmd, B().rs(D3DRS_CULLMODE, D3DCULL_CW).v});
    Call call;
    call.vertex_type = 0;
    call.command_offset = 2;
    Result r = run(fx, cmds, call);
    CHECK_FAIL(r, D3DERR_COMMAND_UNPARSED, 2 + bad_at);
    CHECK(fx.draws().size() == 1);  // the earlier POINTLIST stays, the failed command adds none
    CHECK(fx.s().render_state(D3DRS_CULLMODE) == D3DCULL_CCW);
  }
}

TEST_CASE("frontend adversarial: the unknown-command callback") {
  // Page: unknown commands go to D3dParseUnknownCommand, which tells where to resume.
  // dp2's form (device.h): it gets the stream from the unknown header to the end of
  // dwCommandLength; D3D_OK with 0 < consumed <= size resumes; anything else fails with
  // D3DERR_COMMAND_UNPARSED at that header.
  const Bytes unknown = B().hdr(200, 3).d(0x11111111).d(0x22222222).v;  // 12 bytes
  const Bytes cmds = concat({B().rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME).v, unknown, B().rs(D3DRS_CULLMODE, D3DCULL_CW).v});
  Call call;
  call.command_offset = 14;

  SUBCASE("resume after the bytes it consumed") {
    Fx fx;
    std::size_t seen_size = 0;
    unsigned seen_op = 0;
    fx.set_unknown_command_callback([&](std::span<const std::byte> c, std::size_t& consumed) -> HRESULT {
      seen_size = c.size();
      seen_op = static_cast<unsigned>(c[0]);
      consumed = 12;
      return D3D_OK;
    });
    const auto before = fx.diagnostics().unknown_commands_resumed;
    Result r = run(fx, cmds, call);
    CHECK_OK(r);
    CHECK(seen_op == 200u);
    CHECK(seen_size == 12u + 12u);  // from the unknown header to the end of the stream
    CHECK(fx.s().render_state(D3DRS_CULLMODE) == D3DCULL_CW);
    CHECK(fx.diagnostics().unknown_commands_resumed - before == 1);
  }
  SUBCASE("consuming exactly the rest ends the stream successfully") {
    Fx fx;
    fx.set_unknown_command_callback([](std::span<const std::byte> c, std::size_t& consumed) -> HRESULT {
      consumed = c.size();
      return D3D_OK;
    });
    Result r = run(fx, cmds, call);
    CHECK_OK(r);
    CHECK(fx.s().render_state(D3DRS_CULLMODE) == D3DCULL_CCW);  // swallowed by the callback
  }
  SUBCASE("failure, consumed 0 and consumed past the end all fail at the unknown header") {
    const std::function<HRESULT(std::span<const std::byte>, std::size_t&)> bad[] = {
        [](std::span<const std::byte>, std::size_t& consumed) -> HRESULT {
          consumed = 12;
          return E_FAIL;
        },
        [](std::span<const std::byte>, std::size_t& consumed) -> HRESULT {
          consumed = 0;
          return D3D_OK;
        },
        [](std::span<const std::byte> c, std::size_t& consumed) -> HRESULT {
          consumed = c.size() + 1;
          return D3D_OK;
        },
        [](std::span<const std::byte>, std::size_t& consumed) -> HRESULT {
          consumed = static_cast<std::size_t>(-1);
          return D3D_OK;
        },
    };
    for (const auto& cb : bad) {
      Fx fx;
      fx.set_unknown_command_callback(cb);
      Result r = run(fx, cmds, call);
      CHECK_FAIL(r, D3DERR_COMMAND_UNPARSED, 14 + 12);
      CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
      CHECK(fx.s().render_state(D3DRS_CULLMODE) == D3DCULL_CCW);
    }
  }
  SUBCASE("a callback can resume in the middle of odd-WORD positions") {
    // Unknown command of 6 bytes: the next header is WORD-aligned only.
    Fx fx;
    fx.set_unknown_command_callback([](std::span<const std::byte>, std::size_t& consumed) -> HRESULT {
      consumed = 6;
      return D3D_OK;
    });
    const Bytes odd = concat({B().hdr(201, 0).w(0xABCD).v, B().rs(D3DRS_CULLMODE, D3DCULL_NONE).v});
    Result r = run(fx, odd, call);
    CHECK_OK(r);
    CHECK(fx.s().render_state(D3DRS_CULLMODE) == D3DCULL_NONE);
  }
}

TEST_CASE("frontend adversarial: earlier state and draws stay after a later failure in the same call") {
  const Bytes verts = make_vertices(4);
  Fx fx;
  Call call;
  call.vertices = verts;
  call.command_offset = 4;
  const Bytes cmds = B()
                         .rs(D3DRS_FILLMODE, D3DFILL_WIREFRAME)                  // 12
                         .hdr(D3DDP2OP_TRIANGLELIST, 1).w(0)                     // 6
                         .hdr(D3DDP2OP_VIEWPORTINFO, 1).d(1).d(2).d(3).d(4)      // 20
                         .hdr(250, 0)                                            // unknown, no callback
                         .hdr(D3DDP2OP_TRIANGLELIST, 1).w(1)
                         .v;
  Result r = run(fx, cmds, call);
  CHECK_FAIL(r, D3DERR_COMMAND_UNPARSED, 4 + 12 + 6 + 20);
  CHECK(fx.s().render_state(D3DRS_FILLMODE) == D3DFILL_WIREFRAME);
  CHECK(fx.s().viewport.width == 3u);
  REQUIRE(fx.draws().size() == 1);
  CHECK(fx.vertices(fx.draws()[0]) == slice(verts, 0, 3));
  // The runtime may resend from dwErrorOffset: the rest runs once, nothing is drawn twice.
  Call rest = call;
  rest.command_offset = 0;
  r = run(fx, B().hdr(D3DDP2OP_TRIANGLELIST, 1).w(1).v, rest);
  CHECK_OK(r);
  CHECK(fx.draws().size() == 2);
}
