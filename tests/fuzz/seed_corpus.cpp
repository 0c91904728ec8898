// dp2_seed_corpus DIR — writes seed inputs for dp2_fuzz_dp2 (format: fuzz_input.h), each
// a small, valid D3dDrawPrimitives2 setup built with dp2::StreamWriter, so the fuzzer
// starts from streams that reach deep into the executor. A few are deliberately broken
// at one spot (truncated, unknown opcode) to seed the error paths.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "dp2/stream_writer.h"
#include "fuzz_input.h"

namespace {

using dp2::fuzz::FuzzHeader;

dp2::VertexWriter tl_quad() {
  dp2::VertexWriter v(D3DFVF_TLVERTEX);
  v.tl(1, 1, 0.5f, 1, 0xFFFF0000u).tl(40, 2, 0.5f, 1, 0xFF00FF00u).tl(40, 40, 0.5f, 1, 0xFF0000FFu);
  v.tl(2, 40, 0.5f, 1, 0xFFFFFFFFu);
  return v;
}

FuzzHeader tl_header(std::uint8_t dx = 3) {
  FuzzHeader h;
  h.dx = dx;
  h.fvf = D3DFVF_TLVERTEX;
  return h;
}

struct Seed {
  std::string name;
  std::vector<std::uint8_t> bytes;
};

std::vector<Seed> make_seeds() {
  std::vector<Seed> seeds;
  const dp2::VertexWriter quad = tl_quad();
  auto add = [&](std::string name, const FuzzHeader& h, const dp2::StreamWriter& w,
                 std::span<const std::byte> vertices) {
    seeds.push_back({std::move(name), dp2::fuzz::encode(h, w.bytes(), vertices)});
  };

  {  // states only
    dp2::StreamWriter w;
    w.render_state(D3DRS_ZENABLE, D3DZB_TRUE)
        .render_state(D3DRS_CULLMODE, D3DCULL_NONE)
        .render_state_f(D3DRS_FOGSTART, 0.5f)
        .texture_stage_state(0, D3DTSS_COLOROP, D3DTOP_MODULATE)
        .viewport(0, 0, 64, 64)
        .winfo(0, 1)
        .zrange(0, 1);
    add("states", tl_header(), w, {});
  }
  {  // legacy non-indexed primitives from a VB surface
    dp2::StreamWriter w;
    const D3DHAL_DP2POINTS runs[] = {{2, 0}, {1, 3}};
    w.triangle_list(0, 1).triangle_strip(0, 2).triangle_fan(0, 2).line_list(0, 2).line_strip(0, 3).points(runs);
    add("legacy_vb", tl_header(), w, quad.bytes());
  }
  {  // legacy indexed forms
    dp2::StreamWriter w;
    const WORD tris[] = {0, 1, 2, 0, 2, 3};
    const WORD strip[] = {0, 1, 3, 2};
    const D3DHAL_DP2INDEXEDLINELIST lines[] = {{0, 1}, {2, 3}};
    const D3DHAL_DP2INDEXEDTRIANGLELIST itl[] = {{0, 1, 2, 0x700}};
    w.indexed_triangle_list2(0, tris)
        .indexed_triangle_strip(0, strip)
        .indexed_triangle_fan(0, strip)
        .indexed_line_list2(1, std::span(tris, 2))
        .indexed_line_strip(0, strip)
        .indexed_line_list(lines)
        .indexed_triangle_list(itl);
    add("legacy_indexed", tl_header(), w, quad.bytes());
  }
  {  // same with user-memory vertices and a vertex offset
    dp2::StreamWriter w;
    const WORD tris[] = {0, 1, 2, 0, 2, 3};
    w.indexed_triangle_list2(0, tris).triangle_list(1, 1);
    FuzzHeader h = tl_header();
    h.mode = dp2::fuzz::kUserMemVertices;
    h.vertex_offset = 32;
    add("user_memory", h, w, quad.bytes());
  }
  {  // _IMM forms at an odd command offset (padding depends on it)
    dp2::StreamWriter w(2);
    w.triangle_list(0, 1).triangle_fan_imm(0x3F, quad.bytes(), quad.stride()).line_list_imm(
        quad.bytes().first(2 * quad.stride()), quad.stride());
    FuzzHeader h = tl_header();
    h.command_offset = 2;
    add("imm", h, w, quad.bytes());
  }
  {  // clears, render target, transforms, material, lights, clip plane, state set
    dp2::StreamWriter w;
    D3DMATRIX m{};
    m._11 = m._22 = m._33 = m._44 = 1.0f;
    D3DMATERIAL7 mat{};
    mat.power = 4.0f;
    D3DLIGHT7 light{};
    light.dltType = D3DLIGHT_DIRECTIONAL;
    const float plane[4] = {0, 0, 1, 0};
    const RECT r[] = {{0, 0, 32, 32}};
    w.state_set(D3DHAL_STATESETBEGIN, 1, 0)
        .render_state(D3DRS_LIGHTING, TRUE)
        .state_set(D3DHAL_STATESETEND, 1, 0)
        .set_render_target(1, 0)
        .clear(D3DCLEAR_TARGET, 0xFF000000u, 1.0f, 0)
        .clear(D3DCLEAR_TARGET, 0xFF00FF00u, 1.0f, 0, r)
        .set_transform(D3DTS_PROJECTION, m)
        .multiply_transform(D3DTS_VIEW, m)
        .set_material(mat)
        .create_light(0)
        .set_light_data(0, light)
        .enable_light(0, true)
        .set_clip_plane(0, plane)
        .state_set(D3DHAL_STATESETEXECUTE, 1, 0);
    add("fixed_function_state", tl_header(3), w, {});
  }
  {  // DX8 stream draws from the VB surface (handle 0x101 in the fuzzer)
    dp2::StreamWriter w;
    w.set_vertex_shader(D3DFVF_TLVERTEX)
        .set_stream_source(0, 0x101, 32)
        .draw_primitive(D3DPT_TRIANGLELIST, 0, 1)
        .draw_primitive(D3DPT_TRIANGLEFAN, 0, 2)
        .draw_primitive2(D3DPT_TRIANGLESTRIP, 0, 2)
        .clipped_triangle_fan(0, 0xF, 2);
    add("dx8_draws", tl_header(4), w, quad.bytes());
  }
  {  // DX9 indexed draws: indices in a second buffer are out of reach, so the IB is the VB
    dp2::StreamWriter w;
    w.set_vertex_shader_decl(D3DFVF_TLVERTEX)
        .set_stream_source2(0, 0x101, 0, 32)
        .set_indices(0x101, 2)
        .draw_indexed_primitive(D3DPT_TRIANGLELIST, 0, 0, 4, 0, 1)
        .draw_indexed_primitive2(D3DPT_TRIANGLELIST, 0, 0, 4, 0, 1);
    add("dx9_indexed", tl_header(5), w, quad.bytes());
  }
  {  // DX8 user-memory stream
    dp2::StreamWriter w;
    w.set_vertex_shader(D3DFVF_TLVERTEX).set_stream_source_um(0, 32).draw_primitive(D3DPT_LINESTRIP, 0, 3);
    FuzzHeader h = tl_header(4);
    h.mode = dp2::fuzz::kUserMemVertices;
    add("dx8_user_memory", h, w, quad.bytes());
  }
  {  // palette, texlod, raw DX9 commands with variable records
    dp2::StreamWriter w;
    const DWORD entries[] = {0xFF000000u, 0xFFFFFFFFu};
    std::byte vs_const[8 + 16] = {};  // SETVERTEXSHADERCONST: register 0, count 1, one float4
    vs_const[4] = std::byte{1};
    w.set_palette(1, 0, 0).update_palette(1, 0, entries).set_texlod(1, 0).raw(D3DDP2OP_SETVERTEXSHADERCONST, 1,
                                                                              vs_const);
    add("palette_and_consts", tl_header(5), w, {});
  }
  {  // a stream that ends mid-command (error path: dwErrorOffset = 12)
    dp2::StreamWriter w;
    w.render_state(D3DRS_ZENABLE, 1);
    const std::byte partial[] = {std::byte{18}, std::byte{0}, std::byte{1}, std::byte{0}};
    w.raw_bytes(partial);
    add("truncated", tl_header(), w, quad.bytes());
  }
  {  // an unknown opcode between two valid commands (callback path)
    dp2::StreamWriter w;
    const std::byte junk[] = {std::byte{0xAA}, std::byte{0xBB}};
    w.triangle_list(0, 1).raw(0x45, 0, junk).triangle_list(1, 1);
    FuzzHeader h = tl_header();
    h.mode = 0x10;  // callback policy kSkipAll for the second call
    add("unknown_opcode", h, w, quad.bytes());
  }
  {  // DX7 execute-buffer style: render-state mirror
    dp2::StreamWriter w;
    w.render_state(D3DRS_FOGENABLE, TRUE).render_state(D3DRS_FOGCOLOR, 0xFF808080u).triangle_list(0, 1);
    FuzzHeader h = tl_header();
    h.dp2_flags = D3DHALDP2_EXECUTEBUFFER;
    add("execute_buffer", h, w, quad.bytes());
  }
  return seeds;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: dp2_seed_corpus DIR\n";
    return 2;
  }
  const std::string dir = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::cerr << "dp2_seed_corpus: cannot create '" << dir << "': " << ec.message() << "\n";
    return 1;
  }
  const auto seeds = make_seeds();
  for (const Seed& s : seeds) {
    const std::string path = dir + "/" + s.name + ".dp2fuzz";
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(s.bytes.data()), static_cast<std::streamsize>(s.bytes.size()));
    if (!out) {
      std::cerr << "dp2_seed_corpus: cannot write '" << path << "'\n";
      return 1;
    }
  }
  std::cout << "dp2_seed_corpus: wrote " << seeds.size() << " seeds to " << dir << "\n";
  return 0;
}
