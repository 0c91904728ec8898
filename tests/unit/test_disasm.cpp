// dp2::disassemble. Streams are built byte by byte from DP2-OPCODES.md layouts (or with
// the StreamWriter, whose bytes test_stream_writer.cpp pins down); the expected offsets
// and names are computed by hand from those layouts.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <initializer_list>
#include <string>
#include <vector>

#include "ddi/opcodes.h"
#include "ddi/state_names.h"
#include "dp2/disasm.h"
#include "dp2/stream_writer.h"

namespace {

using Bytes = std::vector<std::byte>;

struct Build {
  Bytes bytes;
  Build& b(std::initializer_list<unsigned> list) {
    for (unsigned v : list) bytes.push_back(static_cast<std::byte>(v));
    return *this;
  }
  Build& w(unsigned v) { return b({v & 0xFFu, (v >> 8) & 0xFFu}); }
  Build& d(std::uint32_t v) { return b({v & 0xFFu, (v >> 8) & 0xFFu, (v >> 16) & 0xFFu, v >> 24}); }
  Build& f(float v) { return d(std::bit_cast<std::uint32_t>(v)); }
};

bool has(const std::string& text, std::string_view needle) { return text.find(needle) != std::string::npos; }

// A valid stream: RENDERSTATE ×2 (4 + 16 = 20 bytes) at 0, VIEWPORTINFO (4 + 16) at 20,
// TRIANGLELIST (4 + 2) at 40, TEXTURESTAGESTATE (4 + 8) at 46; 58 bytes.
Bytes valid_stream() {
  Build s;
  s.b({8, 0, 2, 0}).d(7).d(1).d(36).f(0.5f);
  s.b({28, 0, 1, 0}).d(0).d(0).d(640).d(480);
  s.b({18, 0, 1, 0}).w(0);
  s.b({25, 0, 1, 0}).w(0).w(1).d(4);
  return s.bytes;
}

}  // namespace

TEST_CASE("disassemble: names, offsets and fields of a valid stream") {
  const Bytes s = valid_stream();
  REQUIRE(s.size() == 58);
  const dp2::DisasmResult r = dp2::disassemble_checked(s);
  INFO(r.text);
  CHECK(r.ok);
  CHECK(r.commands == 4);
  CHECK(has(r.text, "       0  RENDERSTATE"));
  CHECK(has(r.text, "n=2"));
  CHECK(has(r.text, "[0] ZENABLE (7) = 1"));
  CHECK(has(r.text, "[1] FOGSTART (36) = 0.5 (0x3f000000)"));
  CHECK(has(r.text, "      20  VIEWPORTINFO"));
  CHECK(has(r.text, "dwX=0 dwY=0 dwWidth=640 dwHeight=480"));
  CHECK(has(r.text, "      40  TRIANGLELIST"));
  CHECK(has(r.text, "wVStart=0"));
  CHECK(has(r.text, "      46  TEXTURESTAGESTATE"));
  CHECK(has(r.text, "stage 0 COLOROP (1) = 4"));
  CHECK_FALSE(has(r.text, "error"));
  CHECK(dp2::disassemble(s) == r.text);
}

TEST_CASE("disassemble: printed offsets include the alignment base") {
  const Bytes s = valid_stream();
  dp2::DisasmOptions opt;
  opt.alignment_base = 100;
  const std::string text = dp2::disassemble(s, opt);
  CHECK(has(text, "     100  RENDERSTATE"));
  CHECK(has(text, "     140  TRIANGLELIST"));
}

TEST_CASE("disassemble: truncated header") {
  Bytes s = valid_stream();
  s.push_back(std::byte{8});
  s.push_back(std::byte{0});  // 2 of the 4 header bytes
  const auto r = dp2::disassemble_checked(s);
  INFO(r.text);
  CHECK_FALSE(r.ok);
  CHECK(r.commands == 4);
  CHECK(r.first_bad_offset == 58);
  CHECK(has(r.text, "      46  TEXTURESTAGESTATE"));  // what decoded is still printed
  CHECK(has(r.text, "error at offset 58: truncated command header"));
}

TEST_CASE("disassemble: truncated payload") {
  Build s;
  s.b({8, 0, 1, 0}).d(7).d(1);      // 0: RENDERSTATE, 12 bytes
  s.b({18, 0, 1, 0});               // 12: TRIANGLELIST header without its wVStart
  const auto r = dp2::disassemble_checked(s.bytes);
  INFO(r.text);
  CHECK_FALSE(r.ok);
  CHECK(r.first_bad_offset == 12);
  CHECK(has(r.text, "       0  RENDERSTATE"));
  CHECK(has(r.text, "error at offset 12: payload runs past dwCommandLength"));
}

TEST_CASE("disassemble: a count that overruns the stream") {
  Build s;
  s.b({42, 0, 1, 0}).d(1).d(0).f(1.0f).d(0).d(0).d(0).d(10).d(10);  // 0: CLEAR with 1 rect, 36 bytes
  s.b({8, 0, 0xFF, 0xFF}).d(7).d(1);  // 36: RENDERSTATE claiming 65535 states (524280 bytes)
  const auto r = dp2::disassemble_checked(s.bytes);
  INFO(r.text);
  CHECK_FALSE(r.ok);
  CHECK(r.commands == 1);
  CHECK(has(r.text, "       0  CLEAR"));
  CHECK(has(r.text, "rect={0 0 10 10}"));
  CHECK(has(r.text, "error at offset 36: payload runs past dwCommandLength"));
}

TEST_CASE("disassemble: a variable record whose size field overruns") {
  Build s;
  s.b({48, 0, 1, 0}).d(0).d(0xFFFFFFFFu);  // SETVERTEXSHADERCONST: 2^32-1 registers of 16 bytes
  const auto r = dp2::disassemble_checked(s.bytes);
  CHECK_FALSE(r.ok);
  CHECK(r.first_bad_offset == 0);
  CHECK(has(r.text, "error at offset 0: "));
}

TEST_CASE("disassemble: unknown opcode and _IMM without a vertex format") {
  Build s;
  s.b({18, 0, 1, 0}).w(3);  // 0: TRIANGLELIST
  s.b({0x45, 0, 1, 0});     // 6: 69 is not defined by any header
  auto r = dp2::disassemble_checked(s.bytes);
  CHECK_FALSE(r.ok);
  CHECK(has(r.text, "error at offset 6: unknown opcode"));

  Build imm;
  imm.b({24, 0, 1, 0});  // LINELIST_IMM, no FVF given
  imm.bytes.resize(4 + 32);
  r = dp2::disassemble_checked(imm.bytes);
  CHECK_FALSE(r.ok);
  CHECK(has(r.text, "error at offset 0: inline vertices without a valid vertex format"));
}

TEST_CASE("disassemble: _IMM vertices decoded with the FVF") {
  dp2::VertexWriter v(D3DFVF_XYZRHW | D3DFVF_DIFFUSE);  // 20-byte vertices
  v.tl(1, 2, 0.5f, 1, 0xFF00FF00u).tl(3, 4, 0.5f, 1, 0xFFFF0000u).tl(5, 6, 0.5f, 1, 0xFF0000FFu);
  dp2::StreamWriter w;
  w.triangle_list(0, 1).triangle_fan_imm(0x7, v.bytes(), v.stride());
  dp2::DisasmOptions opt;
  opt.fvf = D3DFVF_XYZRHW | D3DFVF_DIFFUSE;
  const auto r = dp2::disassemble_checked(w.bytes(), opt);
  INFO(r.text);
  CHECK(r.ok);
  // Header at 6, dwEdgeFlags 10..14, 2 pad bytes, vertices at 16.
  CHECK(has(r.text, "       6  TRIANGLEFAN_IMM"));
  CHECK(has(r.text, "dwEdgeFlags=0x00000007"));
  CHECK(has(r.text, "pad=2 stride=20"));
  CHECK(has(r.text, "v[0] 1 2 0.5 1 0xff00ff00"));
  CHECK(has(r.text, "v[2] 5 6 0.5 1 0xff0000ff"));
}

TEST_CASE("disassemble: max_records summarises long commands") {
  dp2::StreamWriter w;
  for (DWORD i = 0; i < 20; ++i) w.render_state(D3DRS_ZENABLE, i);
  dp2::DisasmOptions opt;
  opt.max_records = 16;
  const std::string text = dp2::disassemble(w.bytes(), opt);
  CHECK(has(text, "[15] ZENABLE (7) = 15"));
  CHECK_FALSE(has(text, "[16]"));
  CHECK(has(text, "... 4 more"));
}

TEST_CASE("disassemble: DX8 draws and variable records") {
  dp2::StreamWriter w;
  w.set_stream_source(0, 7, 32).draw_indexed_primitive(D3DPT_TRIANGLELIST, -1, 0, 3, 0, 1);
  Build decl;  // CREATEVERTEXSHADERDECL: one record, 2 elements (8 + 16 bytes)
  decl.d(0x11).d(2).d(0).d(0).d(0).d(0);
  w.raw(71, 1, decl.bytes);
  const auto r = dp2::disassemble_checked(w.bytes());
  INFO(r.text);
  CHECK(r.ok);
  CHECK(has(r.text, "dwStream=0 dwVBHandle=7 dwStride=32"));
  CHECK(has(r.text, "primType=TRIANGLELIST BaseVertexIndex=-1 MinIndex=0 NumVertices=3 StartIndex=0 PrimitiveCount=1"));
  CHECK(has(r.text, "CREATEVERTEXSHADERDECL"));
  CHECK(has(r.text, "dwHandle=0x00000011 dwNumVertexElements=2 +16 bytes"));
}

TEST_CASE("disassemble: every in-stream opcode's record is printed without '?'") {
  // One record of zeros per opcode: no field may read outside its record.
  for (const auto& info : dp2::ddi::all_opcodes()) {
    using dp2::ddi::PayloadShape;
    if (info.shape != PayloadShape::kPerCount && info.shape != PayloadShape::kSingle) continue;
    if (info.op == D3DDP2OP_RENDERSTATE || info.op == D3DDP2OP_TEXTURESTAGESTATE) continue;
    dp2::StreamWriter w;
    const Bytes zeros(info.item_size);
    w.raw(info.op, 1, zeros);
    const auto r = dp2::disassemble_checked(w.bytes());
    INFO(r.text);
    CHECK(r.ok);
    CHECK_FALSE(has(r.text, "?"));
    // "n=1" plus at least one named field.
    CHECK(std::count(r.text.begin(), r.text.end(), '=') >= 2);
  }
}

TEST_CASE("state name tables agree with ddi.h") {
  CHECK(dp2::ddi::find_render_state(D3DRS_ZENABLE)->name == "ZENABLE");
  CHECK(dp2::ddi::find_render_state(D3DRS_BLENDOPALPHA)->name == "BLENDOPALPHA");
  CHECK(dp2::ddi::find_render_state(D3DRS_FOGSTART)->kind == dp2::ddi::StateValueKind::kFloat);
  CHECK(dp2::ddi::find_render_state(0) == nullptr);
  CHECK(dp2::ddi::find_texture_stage_state(D3DTSS_CONSTANT)->name == "CONSTANT");
  CHECK(dp2::ddi::find_texture_stage_state(33) == nullptr);
  CHECK(dp2::hresult_name(D3DERR_COMMAND_UNPARSED) == "D3DERR_COMMAND_UNPARSED");
}

TEST_CASE("disassemble: render state numbers outside the enum print as unknown") {
  Build s;
  s.b({8, 0, 1, 0}).d(0xD5000000u).d(5);  // not a D3DRENDERSTATETYPE value
  const auto r = dp2::disassemble_checked(s.bytes);
  INFO(r.text);
  CHECK(r.ok);
  CHECK(has(r.text, "[0] ? (3573547008) = 0x00000005"));
}
