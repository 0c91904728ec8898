// dp2::StreamWriter — the runtime's side of D3dDrawPrimitives2, for C++ test programs and
// tools: append commands, get byte-exact DP2 command buffers (DP2-OPCODES.md §3, §4).
//
//   dp2::StreamWriter w;
//   w.render_state(D3DRS_ZENABLE, D3DZB_TRUE)
//    .render_state(D3DRS_CULLMODE, D3DCULL_NONE)   // merged into the same RENDERSTATE
//    .viewport(0, 0, 640, 480)
//    .triangle_list(0, 1);
//   dp2::VertexWriter v(D3DFVF_TLVERTEX);
//   v.tl(0, 0, 0.5f, 1, 0xffff0000).tl(...)...;
//   dp2::Dp2Call call(w, v.bytes(), {.vertex_type = D3DFVF_TLVERTEX});
//   call.upload(device, context);   // creates the command (and vertex) surfaces
//   call.run(device);               // DrawPrimitives2; result in call.data
//
// Counts that do not fit the header's WORD throw std::length_error, malformed arguments
// (an odd number of line indices, vertex bytes not a multiple of the stride) throw
// std::invalid_argument: this is test-program code, a bad call is a bug in the test.
// raw() writes anything, including deliberately malformed commands.
//
// Threads: a writer is a value; use one per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "dp2/ddi.h"
#include "dp2/device.h"

namespace dp2 {

// Vertex stride in bytes implied by an FVF code (STATES.md §10): position (XYZ 12, XYZRHW
// 16, XYZB1..5 12 + 4k, XYZW 16), NORMAL 12, PSIZE 4, DIFFUSE 4, SPECULAR 4, FOG 4, then
// TEXCOUNT sets of 1–4 floats each per D3DFVF_TEXCOORDSIZEn. The same function the
// front end uses.
[[nodiscard]] std::uint32_t fvf_stride(DWORD fvf) noexcept;

class StreamWriter {
 public:
  StreamWriter() = default;
  // `base_offset` = where byte 0 of this stream will sit in its command buffer
  // (dwCommandOffset); _IMM vertex data is DWORD-aligned relative to the buffer start
  // (DP2-OPCODES.md §2 rule 6, D12).
  explicit StreamWriter(std::size_t base_offset) : base_offset_(base_offset) {}

  // Only before the first command (throws std::logic_error otherwise: padding already
  // written would be wrong).
  StreamWriter& set_base_offset(std::size_t base_offset);
  [[nodiscard]] std::size_t base_offset() const noexcept { return base_offset_; }

  // --- states (consecutive calls of one kind merge into one command) -----------------
  StreamWriter& render_state(D3DRENDERSTATETYPE state, DWORD value);
  StreamWriter& render_state_f(D3DRENDERSTATETYPE state, float value);
  StreamWriter& texture_stage_state(WORD stage, WORD tss, DWORD value);
  StreamWriter& texture_stage_state_f(WORD stage, WORD tss, float value);
  // Ends the current RENDERSTATE/TEXTURESTAGESTATE command: the next state call starts a
  // new one.
  StreamWriter& end_merge() noexcept;

  StreamWriter& viewport(DWORD x, DWORD y, DWORD width, DWORD height);
  StreamWriter& winfo(float w_near, float w_far);
  StreamWriter& zrange(float min_z, float max_z);
  StreamWriter& set_transform(DWORD type, const D3DMATRIX& matrix);
  StreamWriter& multiply_transform(DWORD type, const D3DMATRIX& matrix);
  StreamWriter& set_material(const D3DMATERIAL7& material);
  StreamWriter& create_light(DWORD index);
  StreamWriter& set_light_data(DWORD index, const D3DLIGHT7& light);
  StreamWriter& enable_light(DWORD index, bool enable);
  StreamWriter& set_clip_plane(DWORD index, const float (&plane)[4]);
  StreamWriter& set_render_target(DWORD render_target, DWORD z_buffer);
  // No rectangles: the structure still carries one (zeroed) RECT, as the D3DHAL_DP2CLEAR
  // page says and the decoder expects (DP2-OPCODES.md D2).
  StreamWriter& clear(DWORD flags, D3DCOLOR color, float depth, DWORD stencil,
                      std::span<const RECT> rects = {});
  StreamWriter& set_texlod(DWORD surface, DWORD lod);
  StreamWriter& set_palette(DWORD palette, DWORD palette_flags, DWORD surface);
  StreamWriter& update_palette(DWORD palette, WORD start_index, std::span<const DWORD> entries);
  StreamWriter& state_set(DWORD operation, DWORD param, DWORD sb_type);

  // --- legacy (DX6/DX7) primitives: vertices from the DP2 vertex buffer -------------
  StreamWriter& points(std::span<const D3DHAL_DP2POINTS> runs);
  StreamWriter& line_list(WORD v_start, WORD line_count);
  StreamWriter& line_strip(WORD v_start, WORD segment_count);
  StreamWriter& triangle_list(WORD v_start, WORD triangle_count);
  StreamWriter& triangle_strip(WORD v_start, WORD triangle_count);
  StreamWriter& triangle_fan(WORD v_start, WORD triangle_count);
  StreamWriter& indexed_line_list(std::span<const D3DHAL_DP2INDEXEDLINELIST> lines);
  StreamWriter& indexed_triangle_list(std::span<const D3DHAL_DP2INDEXEDTRIANGLELIST> triangles);
  // Index arrays: pairs / triples / strip or fan lists (count = size/2, size/3, size−1,
  // size−2). Every index is biased by v_start.
  StreamWriter& indexed_line_list2(WORD v_start, std::span<const WORD> index_pairs);
  StreamWriter& indexed_line_strip(WORD v_start, std::span<const WORD> indices);
  StreamWriter& indexed_triangle_list2(WORD v_start, std::span<const WORD> index_triples);
  StreamWriter& indexed_triangle_strip(WORD v_start, std::span<const WORD> indices);
  StreamWriter& indexed_triangle_fan(WORD v_start, std::span<const WORD> indices);
  // Inline vertices (vertices.size() a multiple of stride): n + 2 vertices for the fan,
  // 2n for the lines. The writer inserts the DWORD padding.
  StreamWriter& triangle_fan_imm(DWORD edge_flags, std::span<const std::byte> vertices, std::uint32_t stride);
  StreamWriter& line_list_imm(std::span<const std::byte> vertices, std::uint32_t stride);

  // --- DX8/DX9 stream forms ----------------------------------------------------------
  StreamWriter& set_vertex_shader(DWORD fvf_or_handle);
  StreamWriter& set_vertex_shader_decl(DWORD fvf_or_handle);
  StreamWriter& set_stream_source(DWORD stream, DWORD vb_handle, DWORD stride);
  StreamWriter& set_stream_source_um(DWORD stream, DWORD stride);
  StreamWriter& set_stream_source2(DWORD stream, DWORD vb_handle, DWORD offset, DWORD stride);
  StreamWriter& set_indices(DWORD ib_handle, DWORD stride);
  StreamWriter& draw_primitive(D3DPRIMITIVETYPE type, DWORD v_start, DWORD primitive_count);
  StreamWriter& draw_indexed_primitive(D3DPRIMITIVETYPE type, INT base_vertex_index, DWORD min_index,
                                       DWORD num_vertices, DWORD start_index, DWORD primitive_count);
  StreamWriter& draw_primitive2(D3DPRIMITIVETYPE type, DWORD first_vertex_offset, DWORD primitive_count);
  StreamWriter& draw_indexed_primitive2(D3DPRIMITIVETYPE type, INT base_vertex_offset, DWORD min_index,
                                        DWORD num_vertices, DWORD start_index_offset,
                                        DWORD primitive_count);
  StreamWriter& clipped_triangle_fan(DWORD first_vertex_offset, DWORD edge_flags, DWORD primitive_count);

  // Escape hatch: a header {op, 0, count} followed by `payload` verbatim (no padding, no
  // checks on how payload relates to count).
  StreamWriter& raw(BYTE op, WORD count, std::span<const std::byte> payload = {});
  // Bytes verbatim, no header (for truncated or garbage tails).
  StreamWriter& raw_bytes(std::span<const std::byte> bytes);

  [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return bytes_; }
  [[nodiscard]] std::size_t size() const noexcept { return bytes_.size(); }
  [[nodiscard]] std::size_t command_count() const noexcept { return commands_; }
  void clear_stream() noexcept;

 private:
  enum class Merge : std::uint8_t { kNone, kRenderState, kTextureStage };

  void header(BYTE op, std::size_t count);
  void put(const void* data, std::size_t size);
  void put_dword(DWORD v) { put(&v, sizeof v); }
  void put_word(WORD v) { put(&v, sizeof v); }
  void put_float(float v) { put(&v, sizeof v); }
  void pad_to_dword();
  void merged_record(Merge kind, BYTE op, const void* record, std::size_t size);
  StreamWriter& one_record(BYTE op, const void* record, std::size_t size);
  StreamWriter& start_vertex_indices(BYTE op, WORD v_start, std::span<const WORD> indices,
                                     std::size_t count);

  std::vector<std::byte> bytes_;
  std::size_t base_offset_ = 0;
  std::size_t commands_ = 0;
  Merge merge_ = Merge::kNone;
  std::size_t merge_header_ = 0;  // offset of the header being merged into
};

// Packs vertices for a given FVF. The typed helpers append fields in FVF order; it is
// the caller's job to append exactly the fields the FVF has (end_vertex() checks the
// byte count against fvf_stride()).
class VertexWriter {
 public:
  explicit VertexWriter(DWORD fvf) : fvf_(fvf), stride_(fvf_stride(fvf)) {}

  // A D3DFVF_TLVERTEX-style vertex (XYZRHW | DIFFUSE | SPECULAR | TEX1): all fields the
  // FVF lacks are skipped, so it also serves XYZRHW|DIFFUSE and friends. Texture
  // coordinates beyond set 0 (and extra components) are written as 0.
  VertexWriter& tl(float x, float y, float z, float rhw, D3DCOLOR diffuse = 0xFFFFFFFFu,
                   D3DCOLOR specular = 0, float tu = 0, float tv = 0);

  // Field-by-field packing for arbitrary FVFs.
  VertexWriter& f(float v);
  VertexWriter& dword(DWORD v);
  VertexWriter& end_vertex();  // throws std::logic_error if the vertex is not stride bytes

  [[nodiscard]] DWORD fvf() const noexcept { return fvf_; }
  [[nodiscard]] std::uint32_t stride() const noexcept { return stride_; }
  [[nodiscard]] std::size_t vertex_count() const noexcept { return stride_ ? bytes_.size() / stride_ : 0; }
  [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return bytes_; }

 private:
  DWORD fvf_;
  std::uint32_t stride_;
  std::size_t vertex_start_ = 0;
  std::vector<std::byte> bytes_;
};

// Everything about one D3dDrawPrimitives2 call except the bytes.
struct Dp2CallDesc {
  DWORD command_surface = 0x7C00;  // handle upload() gives the command-buffer surface
  DWORD vertex_surface = 0x7C01;   // handle of the vertex-buffer surface (not for user memory)
  bool user_memory_vertices = false;  // lpVertices + D3DHALDP2_USERMEMVERTICES instead of a VB
  DWORD vertex_type = D3DFVF_TLVERTEX;  // dwVertexType
  DWORD vertex_stride = 0;              // dwVertexSize; 0 = fvf_stride(vertex_type)
  DWORD flags = 0;                      // further D3DHALDP2_* bits
  DWORD command_offset = 0;  // dwCommandOffset: bytes before the stream in the command surface
  DWORD vertex_offset = 0;   // dwVertexOffset: bytes before vertex 0 in the vertex buffer
  // dwVertexLength; ~0u = what the vertex bytes hold (size / stride).
  DWORD vertex_length = ~0u;
  LPDWORD render_states = nullptr;  // lpdwRStates (EXECUTEBUFFER mirror)
};

// One D3dDrawPrimitives2 call: command bytes, vertex bytes and the argument block.
// Not copyable (data.lpVertices may point into this object's vertex storage).
class Dp2Call {
 public:
  Dp2Call(std::span<const std::byte> commands, std::span<const std::byte> vertices, const Dp2CallDesc& desc = {});
  // Takes desc.command_offset from the writer's base offset.
  Dp2Call(const StreamWriter& writer, std::span<const std::byte> vertices, Dp2CallDesc desc = {});
  Dp2Call(const Dp2Call&) = delete;
  Dp2Call& operator=(const Dp2Call&) = delete;
  Dp2Call(Dp2Call&&) noexcept = default;
  Dp2Call& operator=(Dp2Call&&) noexcept = default;

  // Creates the command surface (command_offset + commands bytes) and, unless user
  // memory is chosen or there are no vertex bytes, the vertex surface (vertex_offset +
  // vertex bytes), copies the bytes in and fills `data` for `context`. Returns the
  // first failing create_surface result, or D3D_OK.
  HRESULT upload(Device& device, ULONG_PTR context);
  // Refills `data` (ddrval shares storage with dwVertexSize, so each call needs it) and
  // calls DrawPrimitives2. Returns its DWORD; ddrval / dwErrorOffset are in `data`.
  DWORD run(Device& device);
  // Fills `data` from the description without touching a device.
  void fill_data(ULONG_PTR context);

  [[nodiscard]] const Dp2CallDesc& desc() const noexcept { return desc_; }
  [[nodiscard]] std::span<const std::byte> commands() const noexcept { return commands_; }
  [[nodiscard]] std::span<const std::byte> vertices() const noexcept;  // without the offset bytes
  [[nodiscard]] std::uint32_t stride() const noexcept;

  D3DHAL_DRAWPRIMITIVES2DATA data{};

 private:
  Dp2CallDesc desc_;
  std::vector<std::byte> commands_;
  std::vector<std::byte> vertex_storage_;  // vertex_offset zero bytes, then the vertices
  ULONG_PTR context_ = 0;
};

}  // namespace dp2
