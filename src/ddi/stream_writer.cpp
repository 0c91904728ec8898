// dp2::StreamWriter, VertexWriter, Dp2Call. Layouts: DP2-OPCODES.md §3 (what follows each
// header) and §4.1 (structure layouts). Records are written field by field with memcpy
// of the native values, as the runtime's compiler lays them out (every payload structure
// is packed without padding, 32- and 64-bit alike).
#include "dp2/stream_writer.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "ddi/fvf.h"

namespace dp2 {

static_assert(sizeof(D3DHAL_DP2COMMAND) == 4);
static_assert(sizeof(D3DMATRIX) == 64);
static_assert(sizeof(D3DMATERIAL7) == 68);
static_assert(sizeof(D3DLIGHT7) == 104);
static_assert(sizeof(RECT) == 16);
static_assert(sizeof(D3DHAL_DP2POINTS) == 4);
static_assert(sizeof(D3DHAL_DP2INDEXEDLINELIST) == 4);
static_assert(sizeof(D3DHAL_DP2INDEXEDTRIANGLELIST) == 8);

std::uint32_t fvf_stride(DWORD fvf) noexcept { return ddi::fvf_stride(fvf); }

namespace {

constexpr std::size_t kMaxCount = std::numeric_limits<WORD>::max();

WORD checked_count(std::size_t count, const char* what) {
  if (count > kMaxCount)
    throw std::length_error(std::string("dp2::StreamWriter: ") + what + " count " + std::to_string(count) +
                            " does not fit the command header's WORD");
  return static_cast<WORD>(count);
}

}  // namespace

// --- StreamWriter: plumbing -------------------------------------------------------------

StreamWriter& StreamWriter::set_base_offset(std::size_t base_offset) {
  if (!bytes_.empty()) throw std::logic_error("dp2::StreamWriter::set_base_offset after the first command");
  base_offset_ = base_offset;
  return *this;
}

void StreamWriter::clear_stream() noexcept {
  bytes_.clear();
  commands_ = 0;
  merge_ = Merge::kNone;
}

StreamWriter& StreamWriter::end_merge() noexcept {
  merge_ = Merge::kNone;
  return *this;
}

void StreamWriter::put(const void* data, std::size_t size) {
  const auto* p = static_cast<const std::byte*>(data);
  bytes_.insert(bytes_.end(), p, p + size);
}

void StreamWriter::header(BYTE op, std::size_t count) {
  D3DHAL_DP2COMMAND cmd{};
  cmd.bCommand = op;
  cmd.bReserved = 0;
  cmd.wStateCount = checked_count(count, "command");
  put(&cmd, sizeof cmd);
  ++commands_;
  merge_ = Merge::kNone;
}

void StreamWriter::pad_to_dword() {
  while ((base_offset_ + bytes_.size()) % 4 != 0) bytes_.push_back(std::byte{0});
}

void StreamWriter::merged_record(Merge kind, BYTE op, const void* record, std::size_t size) {
  if (merge_ == kind) {
    D3DHAL_DP2COMMAND cmd;
    std::memcpy(&cmd, bytes_.data() + merge_header_, sizeof cmd);
    if (cmd.wStateCount < kMaxCount) {
      ++cmd.wStateCount;
      std::memcpy(bytes_.data() + merge_header_, &cmd, sizeof cmd);
      put(record, size);
      return;
    }
  }
  merge_header_ = bytes_.size();
  header(op, 1);
  put(record, size);
  merge_ = kind;
}

StreamWriter& StreamWriter::one_record(BYTE op, const void* record, std::size_t size) {
  header(op, 1);
  put(record, size);
  return *this;
}

StreamWriter& StreamWriter::raw(BYTE op, WORD count, std::span<const std::byte> payload) {
  header(op, count);
  put(payload.data(), payload.size());
  return *this;
}

StreamWriter& StreamWriter::raw_bytes(std::span<const std::byte> bytes) {
  merge_ = Merge::kNone;
  put(bytes.data(), bytes.size());
  return *this;
}

// --- states ------------------------------------------------------------------------------

StreamWriter& StreamWriter::render_state(D3DRENDERSTATETYPE state, DWORD value) {
  D3DHAL_DP2RENDERSTATE rs{};
  rs.RenderState = state;
  rs.dwState = value;
  static_assert(sizeof rs == 8);
  merged_record(Merge::kRenderState, D3DDP2OP_RENDERSTATE, &rs, sizeof rs);
  return *this;
}

StreamWriter& StreamWriter::render_state_f(D3DRENDERSTATETYPE state, float value) {
  DWORD bits;
  std::memcpy(&bits, &value, sizeof bits);
  return render_state(state, bits);
}

StreamWriter& StreamWriter::texture_stage_state(WORD stage, WORD tss, DWORD value) {
  D3DHAL_DP2TEXTURESTAGESTATE ts{};
  ts.wStage = stage;
  ts.TSState = tss;
  ts.dwValue = value;
  static_assert(sizeof ts == 8);
  merged_record(Merge::kTextureStage, D3DDP2OP_TEXTURESTAGESTATE, &ts, sizeof ts);
  return *this;
}

StreamWriter& StreamWriter::texture_stage_state_f(WORD stage, WORD tss, float value) {
  DWORD bits;
  std::memcpy(&bits, &value, sizeof bits);
  return texture_stage_state(stage, tss, bits);
}

StreamWriter& StreamWriter::viewport(DWORD x, DWORD y, DWORD width, DWORD height) {
  const D3DHAL_DP2VIEWPORTINFO vp{x, y, width, height};
  static_assert(sizeof vp == 16);
  return one_record(D3DDP2OP_VIEWPORTINFO, &vp, sizeof vp);
}

StreamWriter& StreamWriter::winfo(float w_near, float w_far) {
  const D3DHAL_DP2WINFO w{w_near, w_far};
  static_assert(sizeof w == 8);
  return one_record(D3DDP2OP_WINFO, &w, sizeof w);
}

StreamWriter& StreamWriter::zrange(float min_z, float max_z) {
  const D3DHAL_DP2ZRANGE z{min_z, max_z};
  static_assert(sizeof z == 8);
  return one_record(D3DDP2OP_ZRANGE, &z, sizeof z);
}

StreamWriter& StreamWriter::set_transform(DWORD type, const D3DMATRIX& matrix) {
  header(D3DDP2OP_SETTRANSFORM, 1);
  put_dword(type);
  put(&matrix, sizeof matrix);
  return *this;
}

StreamWriter& StreamWriter::multiply_transform(DWORD type, const D3DMATRIX& matrix) {
  header(D3DDP2OP_MULTIPLYTRANSFORM, 1);
  put_dword(type);
  put(&matrix, sizeof matrix);
  return *this;
}

StreamWriter& StreamWriter::set_material(const D3DMATERIAL7& material) {
  return one_record(D3DDP2OP_SETMATERIAL, &material, sizeof material);
}

StreamWriter& StreamWriter::create_light(DWORD index) {
  return one_record(D3DDP2OP_CREATELIGHT, &index, sizeof index);
}

StreamWriter& StreamWriter::set_light_data(DWORD index, const D3DLIGHT7& light) {
  header(D3DDP2OP_SETLIGHT, 1);
  put_dword(index);
  put_dword(D3DHAL_SETLIGHT_DATA);
  put(&light, sizeof light);
  return *this;
}

StreamWriter& StreamWriter::enable_light(DWORD index, bool enable) {
  header(D3DDP2OP_SETLIGHT, 1);
  put_dword(index);
  put_dword(enable ? D3DHAL_SETLIGHT_ENABLE : D3DHAL_SETLIGHT_DISABLE);
  return *this;
}

StreamWriter& StreamWriter::set_clip_plane(DWORD index, const float (&plane)[4]) {
  header(D3DDP2OP_SETCLIPPLANE, 1);
  put_dword(index);
  for (float v : plane) put_float(v);
  return *this;
}

StreamWriter& StreamWriter::set_render_target(DWORD render_target, DWORD z_buffer) {
  header(D3DDP2OP_SETRENDERTARGET, 1);
  put_dword(render_target);
  put_dword(z_buffer);
  return *this;
}

StreamWriter& StreamWriter::clear(DWORD flags, D3DCOLOR color, float depth, DWORD stencil,
                                  std::span<const RECT> rects) {
  header(D3DDP2OP_CLEAR, checked_count(rects.size(), "CLEAR rectangle"));
  put_dword(flags);
  put_dword(color);
  put_float(depth);
  put_dword(stencil);
  if (rects.empty()) {
    const RECT none{};
    put(&none, sizeof none);
  } else {
    put(rects.data(), rects.size_bytes());
  }
  return *this;
}

StreamWriter& StreamWriter::set_texlod(DWORD surface, DWORD lod) {
  header(D3DDP2OP_SETTEXLOD, 1);
  put_dword(surface);
  put_dword(lod);
  return *this;
}

StreamWriter& StreamWriter::set_palette(DWORD palette, DWORD palette_flags, DWORD surface) {
  header(D3DDP2OP_SETPALETTE, 1);
  put_dword(palette);
  put_dword(palette_flags);
  put_dword(surface);
  return *this;
}

StreamWriter& StreamWriter::update_palette(DWORD palette, WORD start_index, std::span<const DWORD> entries) {
  const WORD n = checked_count(entries.size(), "UPDATEPALETTE entry");
  // The header count is ignored by drivers (exactly one structure follows); 1 says so.
  header(D3DDP2OP_UPDATEPALETTE, 1);
  put_dword(palette);
  put_word(start_index);
  put_word(n);
  put(entries.data(), entries.size_bytes());
  return *this;
}

StreamWriter& StreamWriter::state_set(DWORD operation, DWORD param, DWORD sb_type) {
  header(D3DDP2OP_STATESET, 1);
  put_dword(operation);
  put_dword(param);
  put_dword(sb_type);
  return *this;
}

// --- legacy primitives -------------------------------------------------------------------

StreamWriter& StreamWriter::points(std::span<const D3DHAL_DP2POINTS> runs) {
  header(D3DDP2OP_POINTS, checked_count(runs.size(), "POINTS run"));
  put(runs.data(), runs.size_bytes());
  return *this;
}

StreamWriter& StreamWriter::line_list(WORD v_start, WORD line_count) {
  header(D3DDP2OP_LINELIST, line_count);
  put_word(v_start);
  return *this;
}

StreamWriter& StreamWriter::line_strip(WORD v_start, WORD segment_count) {
  header(D3DDP2OP_LINESTRIP, segment_count);
  put_word(v_start);
  return *this;
}

StreamWriter& StreamWriter::triangle_list(WORD v_start, WORD triangle_count) {
  header(D3DDP2OP_TRIANGLELIST, triangle_count);
  put_word(v_start);
  return *this;
}

StreamWriter& StreamWriter::triangle_strip(WORD v_start, WORD triangle_count) {
  header(D3DDP2OP_TRIANGLESTRIP, triangle_count);
  put_word(v_start);
  return *this;
}

StreamWriter& StreamWriter::triangle_fan(WORD v_start, WORD triangle_count) {
  header(D3DDP2OP_TRIANGLEFAN, triangle_count);
  put_word(v_start);
  return *this;
}

StreamWriter& StreamWriter::indexed_line_list(std::span<const D3DHAL_DP2INDEXEDLINELIST> lines) {
  header(D3DDP2OP_INDEXEDLINELIST, checked_count(lines.size(), "INDEXEDLINELIST"));
  put(lines.data(), lines.size_bytes());
  return *this;
}

StreamWriter& StreamWriter::indexed_triangle_list(std::span<const D3DHAL_DP2INDEXEDTRIANGLELIST> triangles) {
  header(D3DDP2OP_INDEXEDTRIANGLELIST, checked_count(triangles.size(), "INDEXEDTRIANGLELIST"));
  put(triangles.data(), triangles.size_bytes());
  return *this;
}

StreamWriter& StreamWriter::start_vertex_indices(BYTE op, WORD v_start, std::span<const WORD> indices,
                                                 std::size_t count) {
  header(op, checked_count(count, "indexed primitive"));
  put_word(v_start);
  put(indices.data(), indices.size_bytes());
  return *this;
}

StreamWriter& StreamWriter::indexed_line_list2(WORD v_start, std::span<const WORD> index_pairs) {
  if (index_pairs.size() % 2 != 0) throw std::invalid_argument("indexed_line_list2: odd number of indices");
  return start_vertex_indices(D3DDP2OP_INDEXEDLINELIST2, v_start, index_pairs, index_pairs.size() / 2);
}

StreamWriter& StreamWriter::indexed_line_strip(WORD v_start, std::span<const WORD> indices) {
  if (indices.size() < 1) throw std::invalid_argument("indexed_line_strip: needs n + 1 indices");
  return start_vertex_indices(D3DDP2OP_INDEXEDLINESTRIP, v_start, indices, indices.size() - 1);
}

StreamWriter& StreamWriter::indexed_triangle_list2(WORD v_start, std::span<const WORD> index_triples) {
  if (index_triples.size() % 3 != 0)
    throw std::invalid_argument("indexed_triangle_list2: index count not a multiple of 3");
  return start_vertex_indices(D3DDP2OP_INDEXEDTRIANGLELIST2, v_start, index_triples, index_triples.size() / 3);
}

StreamWriter& StreamWriter::indexed_triangle_strip(WORD v_start, std::span<const WORD> indices) {
  if (indices.size() < 2) throw std::invalid_argument("indexed_triangle_strip: needs n + 2 indices");
  return start_vertex_indices(D3DDP2OP_INDEXEDTRIANGLESTRIP, v_start, indices, indices.size() - 2);
}

StreamWriter& StreamWriter::indexed_triangle_fan(WORD v_start, std::span<const WORD> indices) {
  if (indices.size() < 2) throw std::invalid_argument("indexed_triangle_fan: needs n + 2 indices");
  return start_vertex_indices(D3DDP2OP_INDEXEDTRIANGLEFAN, v_start, indices, indices.size() - 2);
}

StreamWriter& StreamWriter::triangle_fan_imm(DWORD edge_flags, std::span<const std::byte> vertices,
                                             std::uint32_t stride) {
  if (stride == 0 || vertices.size() % stride != 0)
    throw std::invalid_argument("triangle_fan_imm: vertex bytes not a multiple of the stride");
  const std::size_t n = vertices.size() / stride;
  if (n < 2) throw std::invalid_argument("triangle_fan_imm: needs n + 2 vertices");
  header(D3DDP2OP_TRIANGLEFAN_IMM, checked_count(n - 2, "TRIANGLEFAN_IMM"));
  put_dword(edge_flags);
  pad_to_dword();  // vertices start at a DWORD boundary of the buffer (rule 6)
  put(vertices.data(), vertices.size());
  return *this;
}

StreamWriter& StreamWriter::line_list_imm(std::span<const std::byte> vertices, std::uint32_t stride) {
  if (stride == 0 || vertices.size() % stride != 0)
    throw std::invalid_argument("line_list_imm: vertex bytes not a multiple of the stride");
  const std::size_t n = vertices.size() / stride;
  if (n % 2 != 0) throw std::invalid_argument("line_list_imm: odd number of vertices");
  header(D3DDP2OP_LINELIST_IMM, checked_count(n / 2, "LINELIST_IMM"));
  pad_to_dword();
  put(vertices.data(), vertices.size());
  return *this;
}

// --- DX8/DX9 stream forms ----------------------------------------------------------------

StreamWriter& StreamWriter::set_vertex_shader(DWORD fvf_or_handle) {
  return one_record(D3DDP2OP_SETVERTEXSHADER, &fvf_or_handle, sizeof fvf_or_handle);
}

StreamWriter& StreamWriter::set_vertex_shader_decl(DWORD fvf_or_handle) {
  return one_record(D3DDP2OP_SETVERTEXSHADERDECL, &fvf_or_handle, sizeof fvf_or_handle);
}

StreamWriter& StreamWriter::set_stream_source(DWORD stream, DWORD vb_handle, DWORD stride) {
  header(D3DDP2OP_SETSTREAMSOURCE, 1);
  put_dword(stream);
  put_dword(vb_handle);
  put_dword(stride);
  return *this;
}

StreamWriter& StreamWriter::set_stream_source_um(DWORD stream, DWORD stride) {
  header(D3DDP2OP_SETSTREAMSOURCEUM, 1);
  put_dword(stream);
  put_dword(stride);
  return *this;
}

StreamWriter& StreamWriter::set_stream_source2(DWORD stream, DWORD vb_handle, DWORD offset, DWORD stride) {
  header(D3DDP2OP_SETSTREAMSOURCE2, 1);
  put_dword(stream);
  put_dword(vb_handle);
  put_dword(offset);
  put_dword(stride);
  return *this;
}

StreamWriter& StreamWriter::set_indices(DWORD ib_handle, DWORD stride) {
  header(D3DDP2OP_SETINDICES, 1);
  put_dword(ib_handle);
  put_dword(stride);
  return *this;
}

StreamWriter& StreamWriter::draw_primitive(D3DPRIMITIVETYPE type, DWORD v_start, DWORD primitive_count) {
  header(D3DDP2OP_DRAWPRIMITIVE, 1);
  put_dword(static_cast<DWORD>(type));
  put_dword(v_start);
  put_dword(primitive_count);
  return *this;
}

StreamWriter& StreamWriter::draw_indexed_primitive(D3DPRIMITIVETYPE type, INT base_vertex_index, DWORD min_index,
                                                   DWORD num_vertices, DWORD start_index,
                                                   DWORD primitive_count) {
  header(D3DDP2OP_DRAWINDEXEDPRIMITIVE, 1);
  put_dword(static_cast<DWORD>(type));
  put(&base_vertex_index, sizeof base_vertex_index);
  put_dword(min_index);
  put_dword(num_vertices);
  put_dword(start_index);
  put_dword(primitive_count);
  return *this;
}

StreamWriter& StreamWriter::draw_primitive2(D3DPRIMITIVETYPE type, DWORD first_vertex_offset,
                                            DWORD primitive_count) {
  header(D3DDP2OP_DRAWPRIMITIVE2, 1);
  put_dword(static_cast<DWORD>(type));
  put_dword(first_vertex_offset);
  put_dword(primitive_count);
  return *this;
}

StreamWriter& StreamWriter::draw_indexed_primitive2(D3DPRIMITIVETYPE type, INT base_vertex_offset,
                                                    DWORD min_index, DWORD num_vertices,
                                                    DWORD start_index_offset, DWORD primitive_count) {
  header(D3DDP2OP_DRAWINDEXEDPRIMITIVE2, 1);
  put_dword(static_cast<DWORD>(type));
  put(&base_vertex_offset, sizeof base_vertex_offset);
  put_dword(min_index);
  put_dword(num_vertices);
  put_dword(start_index_offset);
  put_dword(primitive_count);
  return *this;
}

StreamWriter& StreamWriter::clipped_triangle_fan(DWORD first_vertex_offset, DWORD edge_flags,
                                                 DWORD primitive_count) {
  header(D3DDP2OP_CLIPPEDTRIANGLEFAN, 1);
  put_dword(first_vertex_offset);
  put_dword(edge_flags);
  put_dword(primitive_count);
  return *this;
}

// --- VertexWriter ------------------------------------------------------------------------

VertexWriter& VertexWriter::f(float v) {
  const auto* p = reinterpret_cast<const std::byte*>(&v);
  bytes_.insert(bytes_.end(), p, p + sizeof v);
  return *this;
}

VertexWriter& VertexWriter::dword(DWORD v) {
  const auto* p = reinterpret_cast<const std::byte*>(&v);
  bytes_.insert(bytes_.end(), p, p + sizeof v);
  return *this;
}

VertexWriter& VertexWriter::end_vertex() {
  if (bytes_.size() - vertex_start_ != stride_)
    throw std::logic_error("dp2::VertexWriter: vertex is " + std::to_string(bytes_.size() - vertex_start_) +
                           " bytes, the FVF's stride is " + std::to_string(stride_));
  vertex_start_ = bytes_.size();
  return *this;
}

VertexWriter& VertexWriter::tl(float x, float y, float z, float rhw, D3DCOLOR diffuse, D3DCOLOR specular,
                               float tu, float tv) {
  // Field order of STATES.md §10: position (+ betas) → normal → psize → diffuse →
  // specular → fog → texture coordinate sets.
  const std::uint32_t position = ddi::fvf_position_size(fvf_);
  const float pos[4] = {x, y, z, rhw};
  for (std::uint32_t i = 0; i < position / 4; ++i) f(i < 4 ? pos[i] : 0.0f);
  if (fvf_ & D3DFVF_NORMAL) f(0).f(0).f(0);
  if (fvf_ & D3DFVF_PSIZE) f(1.0f);
  if (fvf_ & D3DFVF_DIFFUSE) dword(diffuse);
  if (fvf_ & D3DFVF_SPECULAR) dword(specular);
  if (fvf_ & D3DFVF_FOG) f(0);
  const std::uint32_t sets = std::min<std::uint32_t>(ddi::fvf_texcoord_count(fvf_), 8);
  for (std::uint32_t s = 0; s < sets; ++s) {
    const std::uint32_t n = ddi::fvf_texcoord_size(fvf_, s);
    for (std::uint32_t c = 0; c < n; ++c) f(s == 0 && c == 0 ? tu : s == 0 && c == 1 ? tv : 0.0f);
  }
  return end_vertex();
}

// --- Dp2Call -----------------------------------------------------------------------------

Dp2Call::Dp2Call(std::span<const std::byte> commands, std::span<const std::byte> vertices, const Dp2CallDesc& desc)
    : desc_(desc), commands_(commands.begin(), commands.end()) {
  vertex_storage_.assign(desc.vertex_offset, std::byte{0});
  vertex_storage_.insert(vertex_storage_.end(), vertices.begin(), vertices.end());
}

namespace {
Dp2CallDesc with_offset(Dp2CallDesc desc, std::size_t offset) {
  if (offset > std::numeric_limits<DWORD>::max()) throw std::length_error("dp2::Dp2Call: command offset");
  desc.command_offset = static_cast<DWORD>(offset);
  return desc;
}
}  // namespace

Dp2Call::Dp2Call(const StreamWriter& writer, std::span<const std::byte> vertices, Dp2CallDesc desc)
    : Dp2Call(writer.bytes(), vertices, with_offset(desc, writer.base_offset())) {}

std::span<const std::byte> Dp2Call::vertices() const noexcept {
  return std::span<const std::byte>(vertex_storage_).subspan(desc_.vertex_offset);
}

std::uint32_t Dp2Call::stride() const noexcept {
  return desc_.vertex_stride ? desc_.vertex_stride : fvf_stride(desc_.vertex_type);
}

void Dp2Call::fill_data(ULONG_PTR context) {
  context_ = context;
  data = {};
  data.dwhContext = context;
  data.dwFlags = desc_.flags | (desc_.user_memory_vertices ? D3DHALDP2_USERMEMVERTICES : 0u);
  data.dwVertexType = desc_.vertex_type;
  data.lpDDCommands = desc_.command_surface;
  data.dwCommandOffset = desc_.command_offset;
  data.dwCommandLength = static_cast<DWORD>(commands_.size());
  const bool has_vertices = vertex_storage_.size() > desc_.vertex_offset;
  if (desc_.user_memory_vertices)
    data.lpVertices = vertex_storage_.empty() ? nullptr : static_cast<LPVOID>(vertex_storage_.data());
  else
    data.lpDDVertex = has_vertices ? desc_.vertex_surface : 0;
  data.dwVertexOffset = desc_.vertex_offset;
  const std::uint32_t s = stride();
  data.dwVertexLength = desc_.vertex_length != ~0u ? desc_.vertex_length
                        : s ? static_cast<DWORD>((vertex_storage_.size() - desc_.vertex_offset) / s)
                            : 0;
  data.lpdwRStates = desc_.render_states;
  data.dwVertexSize = s;
  data.dwErrorOffset = 0;
}

HRESULT Dp2Call::upload(Device& device, ULONG_PTR context) {
  // The command surface holds command_offset bytes of zeros, then the stream, and nothing
  // after it, so a read past dwCommandLength leaves the allocation. Empty streams get one
  // byte (a zero-size surface is not a surface).
  SurfaceDesc cmd{};
  cmd.kind = SurfaceKind::kCommandBuffer;
  cmd.size_bytes = std::max<std::size_t>(desc_.command_offset + commands_.size(), 1);
  if (HRESULT hr = device.create_surface(desc_.command_surface, cmd); hr != D3D_OK) return hr;
  auto cmd_mem = device.surface_bytes(desc_.command_surface);
  if (cmd_mem.size() < desc_.command_offset + commands_.size()) return E_FAIL;
  std::copy(commands_.begin(), commands_.end(), cmd_mem.begin() + desc_.command_offset);

  if (!desc_.user_memory_vertices && vertex_storage_.size() > desc_.vertex_offset) {
    SurfaceDesc vb{};
    vb.kind = SurfaceKind::kVertexBuffer;
    vb.size_bytes = vertex_storage_.size();
    if (HRESULT hr = device.create_surface(desc_.vertex_surface, vb); hr != D3D_OK) return hr;
    auto vb_mem = device.surface_bytes(desc_.vertex_surface);
    if (vb_mem.size() < vertex_storage_.size()) return E_FAIL;
    std::copy(vertex_storage_.begin(), vertex_storage_.end(), vb_mem.begin());
  }
  fill_data(context);
  return D3D_OK;
}

DWORD Dp2Call::run(Device& device) {
  fill_data(context_);
  return device.DrawPrimitives2(data);
}

}  // namespace dp2
