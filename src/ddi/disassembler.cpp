// dp2::disassemble. Sizes come only from decode_one() (ddi/decoder.h): this file knows
// how to *print* each record, never how long a command is. Record layouts are the
// structures of DP2-OPCODES.md §4.1, described once per opcode in record_layout().
#include "dp2/disasm.h"

#include <charconv>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>

#include "ddi/decoder.h"
#include "ddi/fvf.h"
#include "ddi/opcodes.h"
#include "ddi/reader.h"
#include "ddi/state_names.h"

namespace dp2 {
namespace {

using ddi::ByteReader;
using ddi::Command;
using ddi::PayloadShape;

// How one field of a payload record reads.
enum class FieldKind : std::uint8_t {
  kU16,
  kHex16,
  kU32,
  kI32,
  kHex32,
  kF32,
  kPrim,     // D3DPRIMITIVETYPE
  kPoint,    // POINT: 2 LONG
  kRect,     // RECT / RECTL: 4 LONG
  kRange,    // D3DRANGE: 2 UINT
  kBox,      // D3DBOX: 6 UINT
  kColor4,   // D3DCOLORVALUE: 4 floats
  kFloat4,   // 4 floats (clip plane)
  kMatrix,   // D3DMATRIX: 16 floats
};

struct Field {
  std::string_view name;
  std::uint8_t offset;
  FieldKind kind;
};

using K = FieldKind;

// The fields of one record (the fixed part for variable records, the fixed prefix for
// CLEAR and UPDATEPALETTE). Empty for opcodes printed specially or without records.
std::span<const Field> record_layout(std::uint8_t op) noexcept {
  static constexpr Field kPoints[] = {{"wCount", 0, K::kU16}, {"wVStart", 2, K::kU16}};
  static constexpr Field kVStart[] = {{"wVStart", 0, K::kU16}};
  static constexpr Field kLine[] = {{"wV1", 0, K::kU16}, {"wV2", 2, K::kU16}};
  static constexpr Field kTri[] = {{"wV1", 0, K::kU16}, {"wV2", 2, K::kU16}, {"wV3", 4, K::kU16}};
  static constexpr Field kTriFlags[] = {
      {"wV1", 0, K::kU16}, {"wV2", 2, K::kU16}, {"wV3", 4, K::kU16}, {"wFlags", 6, K::kHex16}};
  static constexpr Field kViewport[] = {
      {"dwX", 0, K::kU32}, {"dwY", 4, K::kU32}, {"dwWidth", 8, K::kU32}, {"dwHeight", 12, K::kU32}};
  static constexpr Field kWInfo[] = {{"dvWNear", 0, K::kF32}, {"dvWFar", 4, K::kF32}};
  static constexpr Field kSetPalette[] = {
      {"dwPaletteHandle", 0, K::kU32}, {"dwPaletteFlags", 4, K::kHex32}, {"dwSurfaceHandle", 8, K::kU32}};
  static constexpr Field kUpdatePalette[] = {
      {"dwPaletteHandle", 0, K::kU32}, {"wStartIndex", 4, K::kU16}, {"wNumEntries", 6, K::kU16}};
  static constexpr Field kZRange[] = {{"dvMinZ", 0, K::kF32}, {"dvMaxZ", 4, K::kF32}};
  static constexpr Field kMaterial[] = {{"diffuse", 0, K::kColor4},
                                        {"ambient", 16, K::kColor4},
                                        {"specular", 32, K::kColor4},
                                        {"emissive", 48, K::kColor4},
                                        {"power", 64, K::kF32}};
  static constexpr Field kSetLight[] = {{"dwIndex", 0, K::kU32}, {"dwDataType", 4, K::kU32}};
  static constexpr Field kCreateLight[] = {{"dwIndex", 0, K::kU32}};
  static constexpr Field kTransform[] = {{"xfrmType", 0, K::kU32}, {"matrix", 4, K::kMatrix}};
  static constexpr Field kExt[] = {{"dwExtToken", 0, K::kHex32}, {"dwSize", 4, K::kU32}};
  static constexpr Field kTexBlt[] = {{"dwDDDestSurface", 0, K::kU32},
                                      {"dwDDSrcSurface", 4, K::kU32},
                                      {"pDest", 8, K::kPoint},
                                      {"rSrc", 16, K::kRect},
                                      {"dwFlags", 32, K::kHex32}};
  static constexpr Field kStateSet[] = {
      {"dwOperation", 0, K::kU32}, {"dwParam", 4, K::kU32}, {"sbType", 8, K::kU32}};
  static constexpr Field kPriority[] = {{"dwDDSurface", 0, K::kU32}, {"dwPriority", 4, K::kU32}};
  static constexpr Field kRenderTarget[] = {{"hRenderTarget", 0, K::kU32}, {"hZBuffer", 4, K::kU32}};
  static constexpr Field kClear[] = {{"dwFlags", 0, K::kHex32},
                                     {"dwFillColor", 4, K::kHex32},
                                     {"dvFillDepth", 8, K::kF32},
                                     {"dwFillStencil", 12, K::kU32}};
  static constexpr Field kTexLod[] = {{"dwDDSurface", 0, K::kU32}, {"dwLOD", 4, K::kU32}};
  static constexpr Field kClipPlane[] = {{"dwIndex", 0, K::kU32}, {"plane", 4, K::kFloat4}};
  static constexpr Field kCreateVs[] = {
      {"dwHandle", 0, K::kHex32}, {"dwDeclSize", 4, K::kU32}, {"dwCodeSize", 8, K::kU32}};
  static constexpr Field kHandle[] = {{"dwHandle", 0, K::kHex32}};
  static constexpr Field kShaderConst[] = {{"dwRegister", 0, K::kU32}, {"dwCount", 4, K::kU32}};
  static constexpr Field kStreamSource[] = {
      {"dwStream", 0, K::kU32}, {"dwVBHandle", 4, K::kU32}, {"dwStride", 8, K::kU32}};
  static constexpr Field kStreamSourceUm[] = {{"dwStream", 0, K::kU32}, {"dwStride", 4, K::kU32}};
  static constexpr Field kIndices[] = {{"dwVBHandle", 0, K::kU32}, {"dwStride", 4, K::kU32}};
  static constexpr Field kDrawPrim[] = {
      {"primType", 0, K::kPrim}, {"VStart", 4, K::kU32}, {"PrimitiveCount", 8, K::kU32}};
  static constexpr Field kDrawIndexed[] = {{"primType", 0, K::kPrim},      {"BaseVertexIndex", 4, K::kI32},
                                           {"MinIndex", 8, K::kU32},       {"NumVertices", 12, K::kU32},
                                           {"StartIndex", 16, K::kU32},    {"PrimitiveCount", 20, K::kU32}};
  static constexpr Field kCreatePs[] = {{"dwHandle", 0, K::kHex32}, {"dwCodeSize", 4, K::kU32}};
  static constexpr Field kClippedFan[] = {
      {"FirstVertexOffset", 0, K::kU32}, {"dwEdgeFlags", 4, K::kHex32}, {"PrimitiveCount", 8, K::kU32}};
  static constexpr Field kDrawPrim2[] = {
      {"primType", 0, K::kPrim}, {"FirstVertexOffset", 4, K::kU32}, {"PrimitiveCount", 8, K::kU32}};
  static constexpr Field kDrawIndexed2[] = {{"primType", 0, K::kPrim},         {"BaseVertexOffset", 4, K::kI32},
                                            {"MinIndex", 8, K::kU32},          {"NumVertices", 12, K::kU32},
                                            {"StartIndexOffset", 16, K::kU32}, {"PrimitiveCount", 20, K::kU32}};
  static constexpr Field kPatch[] = {{"Handle", 0, K::kU32}, {"Flags", 4, K::kHex32}};
  static constexpr Field kVolumeBlt[] = {{"dwDDDestSurface", 0, K::kU32}, {"dwDDSrcSurface", 4, K::kU32},
                                         {"dwDestX", 8, K::kU32},         {"dwDestY", 12, K::kU32},
                                         {"dwDestZ", 16, K::kU32},        {"srcBox", 20, K::kBox},
                                         {"dwFlags", 44, K::kHex32}};
  static constexpr Field kBufferBlt[] = {{"dwDDDestSurface", 0, K::kU32},
                                         {"dwDDSrcSurface", 4, K::kU32},
                                         {"dwOffset", 8, K::kU32},
                                         {"rSrc", 12, K::kRange},
                                         {"dwFlags", 20, K::kHex32}};
  static constexpr Field kDirtyRect[] = {{"dwSurface", 0, K::kU32}, {"rDirtyArea", 4, K::kRect}};
  static constexpr Field kDirtyBox[] = {{"dwSurface", 0, K::kU32}, {"DirtyBox", 4, K::kBox}};
  static constexpr Field kCreateDecl[] = {{"dwHandle", 0, K::kHex32}, {"dwNumVertexElements", 4, K::kU32}};
  static constexpr Field kCreateFunc[] = {{"dwHandle", 0, K::kHex32}, {"dwSize", 4, K::kU32}};
  static constexpr Field kScissor[] = {{"rect", 0, K::kRect}};
  static constexpr Field kStreamSource2[] = {{"dwStream", 0, K::kU32},
                                             {"dwVBHandle", 4, K::kU32},
                                             {"dwOffset", 8, K::kU32},
                                             {"dwStride", 12, K::kU32}};
  static constexpr Field kBlt[] = {{"dwSource", 0, K::kU32}, {"rSource", 4, K::kRect},
                                   {"dwSourceMipLevel", 20, K::kU32}, {"dwDest", 24, K::kU32},
                                   {"rDest", 28, K::kRect},   {"dwDestMipLevel", 44, K::kU32},
                                   {"Flags", 48, K::kHex32}};
  static constexpr Field kColorFill[] = {
      {"dwSurface", 0, K::kU32}, {"rRect", 4, K::kRect}, {"Color", 20, K::kHex32}};
  static constexpr Field kCreateQuery[] = {{"dwQueryID", 0, K::kU32}, {"QueryType", 4, K::kU32}};
  static constexpr Field kRenderTarget2[] = {{"RTIndex", 0, K::kU32}, {"hRenderTarget", 4, K::kU32}};
  static constexpr Field kDepthStencil[] = {{"hZBuffer", 0, K::kU32}};
  static constexpr Field kGenMips[] = {{"hSurface", 0, K::kU32}, {"Filter", 4, K::kU32}};
  static constexpr Field kDeleteQuery[] = {{"dwQueryID", 0, K::kU32}};
  static constexpr Field kIssueQuery[] = {{"dwQueryID", 0, K::kU32}, {"dwFlags", 4, K::kHex32}};
  static constexpr Field kStreamFreq[] = {{"dwStream", 0, K::kU32}, {"dwDivider", 4, K::kU32}};
  static constexpr Field kConvolution[] = {
      {"dwWidth", 0, K::kU32}, {"dwHeight", 4, K::kU32}, {"dwFlags", 8, K::kHex32}};
  static constexpr Field kComposeRects[] = {{"SrcSurfaceHandle", 0, K::kU32},     {"DstSurfaceHandle", 4, K::kU32},
                                            {"SrcRectDescsVBHandle", 8, K::kU32}, {"NumRects", 12, K::kU32},
                                            {"DstRectDescsVBHandle", 16, K::kU32}, {"Operation", 20, K::kU32},
                                            {"XOffset", 24, K::kI32},             {"YOffset", 28, K::kI32}};

  switch (op) {
    case D3DDP2OP_POINTS: return kPoints;
    case D3DDP2OP_INDEXEDLINELIST:
    case D3DDP2OP_INDEXEDLINELIST2: return kLine;
    case D3DDP2OP_INDEXEDTRIANGLELIST: return kTriFlags;
    case D3DDP2OP_INDEXEDTRIANGLELIST2: return kTri;
    case D3DDP2OP_LINELIST:
    case D3DDP2OP_LINESTRIP:
    case D3DDP2OP_TRIANGLELIST:
    case D3DDP2OP_TRIANGLESTRIP:
    case D3DDP2OP_TRIANGLEFAN: return kVStart;
    case D3DDP2OP_VIEWPORTINFO: return kViewport;
    case D3DDP2OP_WINFO: return kWInfo;
    case D3DDP2OP_SETPALETTE: return kSetPalette;
    case D3DDP2OP_UPDATEPALETTE: return kUpdatePalette;
    case D3DDP2OP_ZRANGE: return kZRange;
    case D3DDP2OP_SETMATERIAL: return kMaterial;
    case D3DDP2OP_SETLIGHT: return kSetLight;
    case D3DDP2OP_CREATELIGHT: return kCreateLight;
    case D3DDP2OP_SETTRANSFORM:
    case D3DDP2OP_MULTIPLYTRANSFORM: return kTransform;
    case D3DDP2OP_EXT: return kExt;
    case D3DDP2OP_TEXBLT: return kTexBlt;
    case D3DDP2OP_STATESET: return kStateSet;
    case D3DDP2OP_SETPRIORITY: return kPriority;
    case D3DDP2OP_SETRENDERTARGET: return kRenderTarget;
    case D3DDP2OP_CLEAR: return kClear;
    case D3DDP2OP_SETTEXLOD: return kTexLod;
    case D3DDP2OP_SETCLIPPLANE: return kClipPlane;
    case D3DDP2OP_CREATEVERTEXSHADER: return kCreateVs;
    case D3DDP2OP_DELETEVERTEXSHADER:
    case D3DDP2OP_SETVERTEXSHADER:
    case D3DDP2OP_DELETEPIXELSHADER:
    case D3DDP2OP_SETPIXELSHADER:
    case D3DDP2OP_DELETEVERTEXSHADERDECL:
    case D3DDP2OP_SETVERTEXSHADERDECL:
    case D3DDP2OP_DELETEVERTEXSHADERFUNC:
    case D3DDP2OP_SETVERTEXSHADERFUNC: return kHandle;
    case D3DDP2OP_SETVERTEXSHADERCONST:
    case D3DDP2OP_SETPIXELSHADERCONST:
    case D3DDP2OP_SETVERTEXSHADERCONSTI:
    case D3DDP2OP_SETPIXELSHADERCONSTI:
    case D3DDP2OP_SETVERTEXSHADERCONSTB:
    case D3DDP2OP_SETPIXELSHADERCONSTB: return kShaderConst;
    case D3DDP2OP_SETSTREAMSOURCE: return kStreamSource;
    case D3DDP2OP_SETSTREAMSOURCEUM: return kStreamSourceUm;
    case D3DDP2OP_SETINDICES: return kIndices;
    case D3DDP2OP_DRAWPRIMITIVE: return kDrawPrim;
    case D3DDP2OP_DRAWINDEXEDPRIMITIVE: return kDrawIndexed;
    case D3DDP2OP_CREATEPIXELSHADER: return kCreatePs;
    case D3DDP2OP_CLIPPEDTRIANGLEFAN: return kClippedFan;
    case D3DDP2OP_DRAWPRIMITIVE2: return kDrawPrim2;
    case D3DDP2OP_DRAWINDEXEDPRIMITIVE2: return kDrawIndexed2;
    case D3DDP2OP_DRAWRECTPATCH:
    case D3DDP2OP_DRAWTRIPATCH: return kPatch;
    case D3DDP2OP_VOLUMEBLT: return kVolumeBlt;
    case D3DDP2OP_BUFFERBLT: return kBufferBlt;
    case D3DDP2OP_ADDDIRTYRECT: return kDirtyRect;
    case D3DDP2OP_ADDDIRTYBOX: return kDirtyBox;
    case D3DDP2OP_CREATEVERTEXSHADERDECL: return kCreateDecl;
    case D3DDP2OP_CREATEVERTEXSHADERFUNC: return kCreateFunc;
    case D3DDP2OP_SETSCISSORRECT: return kScissor;
    case D3DDP2OP_SETSTREAMSOURCE2: return kStreamSource2;
    case D3DDP2OP_BLT:
    case D3DDP2OP_SURFACEBLT: return kBlt;
    case D3DDP2OP_COLORFILL: return kColorFill;
    case D3DDP2OP_CREATEQUERY: return kCreateQuery;
    case D3DDP2OP_SETRENDERTARGET2: return kRenderTarget2;
    case D3DDP2OP_SETDEPTHSTENCIL: return kDepthStencil;
    case D3DDP2OP_GENERATEMIPSUBLEVELS: return kGenMips;
    case D3DDP2OP_DELETEQUERY: return kDeleteQuery;
    case D3DDP2OP_ISSUEQUERY: return kIssueQuery;
    case D3DDP2OP_SETSTREAMSOURCEFREQ: return kStreamFreq;
    case D3DDP2OP_SETCONVOLUTIONKERNELMONO: return kConvolution;
    case D3DDP2OP_COMPOSERECTS: return kComposeRects;
    default: return {};
  }
}

// --- formatting ---------------------------------------------------------------------------

void append_u(std::string& out, std::uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_i(std::string& out, std::int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_hex(std::string& out, std::uint32_t v, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*x", digits, static_cast<unsigned>(v));
  out += buf;
}

void append_f(std::string& out, float v) {
  char buf[48];
  auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form, locale-free
  out.append(buf, r.ptr);
}

void append_padded(std::string& out, std::string_view s, std::size_t width) {
  out += s;
  if (s.size() < width) out.append(width - s.size(), ' ');
}

std::string_view prim_name(DWORD type) {
  switch (type) {
    case D3DPT_POINTLIST: return "POINTLIST";
    case D3DPT_LINELIST: return "LINELIST";
    case D3DPT_LINESTRIP: return "LINESTRIP";
    case D3DPT_TRIANGLELIST: return "TRIANGLELIST";
    case D3DPT_TRIANGLESTRIP: return "TRIANGLESTRIP";
    case D3DPT_TRIANGLEFAN: return "TRIANGLEFAN";
    default: return {};
  }
}

// Reads are bounded by the record span; a field that does not fit prints "?" (cannot
// happen for records the decoder measured, but a layout bug must not read out of bounds).
void append_field(std::string& out, const ByteReader& r, const Field& f) {
  out += f.name;
  out += '=';
  auto floats = [&](int n, char open, char close) {
    out += open;
    for (int i = 0; i < n; ++i) {
      if (i) out += ' ';
      auto v = r.read<float>(f.offset + 4u * static_cast<unsigned>(i));
      if (!v) {
        out += '?';
        continue;
      }
      append_f(out, *v);
    }
    out += close;
  };
  auto ints = [&](int n, bool is_signed) {
    out += '{';
    for (int i = 0; i < n; ++i) {
      if (i) out += ' ';
      auto v = r.read<std::uint32_t>(f.offset + 4u * static_cast<unsigned>(i));
      if (!v) {
        out += '?';
        continue;
      }
      if (is_signed)
        append_i(out, static_cast<std::int32_t>(*v));
      else
        append_u(out, *v);
    }
    out += '}';
  };
  switch (f.kind) {
    case K::kU16:
    case K::kHex16: {
      auto v = r.read<WORD>(f.offset);
      if (!v) break;
      if (f.kind == K::kU16)
        append_u(out, *v);
      else
        append_hex(out, *v, 4);
      return;
    }
    case K::kU32:
    case K::kI32:
    case K::kHex32:
    case K::kPrim: {
      auto v = r.read<DWORD>(f.offset);
      if (!v) break;
      if (f.kind == K::kU32) append_u(out, *v);
      if (f.kind == K::kI32) append_i(out, static_cast<std::int32_t>(*v));
      if (f.kind == K::kHex32) append_hex(out, *v, 8);
      if (f.kind == K::kPrim) {
        const auto name = prim_name(*v);
        if (name.empty())
          append_u(out, *v);
        else
          out += name;
      }
      return;
    }
    case K::kF32: {
      auto v = r.read<float>(f.offset);
      if (!v) break;
      append_f(out, *v);
      return;
    }
    case K::kPoint: ints(2, true); return;
    case K::kRect: ints(4, true); return;
    case K::kRange: ints(2, false); return;
    case K::kBox: ints(6, false); return;
    case K::kColor4:
    case K::kFloat4: floats(4, '(', ')'); return;
    case K::kMatrix: floats(16, '[', ']'); return;
  }
  out += '?';
}

void append_fields(std::string& out, std::span<const std::byte> record, std::span<const Field> fields) {
  const ByteReader r(record);
  bool first = true;
  for (const Field& f : fields) {
    if (!first) out += ' ';
    first = false;
    append_field(out, r, f);
  }
}

void append_state_value(std::string& out, DWORD value, ddi::StateValueKind kind) {
  switch (kind) {
    case ddi::StateValueKind::kDword:
    case ddi::StateValueKind::kBool: append_u(out, value); return;
    case ddi::StateValueKind::kHex: append_hex(out, value, 8); return;
    case ddi::StateValueKind::kFloat: {
      float f;
      std::memcpy(&f, &value, sizeof f);
      append_f(out, f);
      out += " (";
      append_hex(out, value, 8);
      out += ')';
      return;
    }
  }
}

constexpr std::string_view kIndent = "          ";

class Printer {
 public:
  Printer(std::string& out, const DisasmOptions& options, std::uint32_t stride)
      : out_(out), options_(options), stride_(stride) {}

  void command(const Command& cmd) {
    append_offset(cmd.offset);
    append_padded(out_, cmd.info->name, 24);
    out_ += "n=";
    append_u(out_, cmd.count);
    switch (cmd.info->shape) {
      case PayloadShape::kPerCount: per_count(cmd); break;
      case PayloadShape::kSingle:
        out_ += "  ";
        append_fields(out_, cmd.body, record_layout(cmd.op));
        out_ += '\n';
        break;
      case PayloadShape::kStartVertexIndices: {
        out_ += "  wVStart=";
        append_u(out_, cmd.start_vertex);
        out_ += '\n';
        indices(cmd.records<WORD>());
        break;
      }
      case PayloadShape::kStartVertexRecords:
        out_ += "  wVStart=";
        append_u(out_, cmd.start_vertex);
        out_ += '\n';
        records(cmd, cmd.info->item_size);
        break;
      case PayloadShape::kTriangleFanImm:
      case PayloadShape::kLineListImm:
        if (cmd.info->shape == PayloadShape::kTriangleFanImm) {
          out_ += "  dwEdgeFlags=";
          append_hex(out_, cmd.imm_edge_flags, 8);
        }
        out_ += "  pad=";
        append_u(out_, cmd.imm_padding);
        out_ += " stride=";
        append_u(out_, stride_);
        out_ += '\n';
        vertices(cmd.body);
        break;
      case PayloadShape::kClear: {
        out_ += "  ";
        const auto fixed = cmd.payload.first(cmd.payload.size() - cmd.body.size());
        append_fields(out_, fixed, record_layout(cmd.op));
        if (cmd.count == 0) out_ += "  (no rects: one unused RECT follows)";
        out_ += '\n';
        if (cmd.count > 0) rects(cmd.body);
        break;
      }
      case PayloadShape::kUpdatePalette: {
        out_ += "  ";
        const auto fixed = cmd.payload.first(cmd.payload.size() - cmd.body.size());
        append_fields(out_, fixed, record_layout(cmd.op));
        out_ += '\n';
        dwords(cmd.records<DWORD>());
        break;
      }
      case PayloadShape::kVariable: {
        out_ += '\n';
        std::size_t i = 0;
        const auto fields = record_layout(cmd.op);
        ddi::for_each_variable_record(cmd, [&](std::span<const std::byte> record) {
          if (i < options_.max_records) {
            sub_index(i);
            append_fields(out_, record, fields);
            out_ += " +";
            append_u(out_, record.size() - std::min<std::size_t>(record.size(), cmd.info->item_size));
            out_ += " bytes\n";
          }
          ++i;
        });
        more(i);
        break;
      }
      case PayloadShape::kNotInStreams: out_ += '\n'; break;  // decode_one never accepts these
    }
  }

 private:
  void append_offset(std::size_t offset) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%8zu  ", options_.alignment_base + offset);
    out_ += buf;
  }

  void sub_index(std::size_t i) {
    out_ += kIndent;
    out_ += '[';
    append_u(out_, i);
    out_ += "] ";
  }

  void more(std::size_t total) {
    if (total > options_.max_records) {
      out_ += kIndent;
      out_ += "... ";
      append_u(out_, total - options_.max_records);
      out_ += " more\n";
    }
  }

  void per_count(const Command& cmd) {
    out_ += '\n';
    if (cmd.op == D3DDP2OP_RENDERSTATE) {
      // Read RenderState as a DWORD: a stream may carry any 32-bit value, and loading one
      // outside D3DRENDERSTATETYPE's range through the enum type is undefined behaviour.
      const auto recs = cmd.records<D3DHAL_DP2RENDERSTATE>();
      const ByteReader r(cmd.body);
      for (std::size_t i = 0; i < recs.size() && i < options_.max_records; ++i) {
        const std::size_t at = i * sizeof(D3DHAL_DP2RENDERSTATE);
        const DWORD state = *r.read<DWORD>(at + offsetof(D3DHAL_DP2RENDERSTATE, RenderState));
        const DWORD value = *r.read<DWORD>(at + offsetof(D3DHAL_DP2RENDERSTATE, dwState));
        sub_index(i);
        const ddi::StateName* name = ddi::find_render_state(state);
        out_ += name ? name->name : std::string_view{"?"};
        out_ += " (";
        append_u(out_, state);
        out_ += ") = ";
        append_state_value(out_, value, name ? name->kind : ddi::StateValueKind::kHex);
        out_ += '\n';
      }
      more(recs.size());
      return;
    }
    if (cmd.op == D3DDP2OP_TEXTURESTAGESTATE) {
      const auto recs = cmd.records<D3DHAL_DP2TEXTURESTAGESTATE>();
      for (std::size_t i = 0; i < recs.size() && i < options_.max_records; ++i) {
        const D3DHAL_DP2TEXTURESTAGESTATE ts = recs[i];
        sub_index(i);
        out_ += "stage ";
        append_u(out_, ts.wStage);
        out_ += ' ';
        const ddi::StateName* name = ddi::find_texture_stage_state(ts.TSState);
        out_ += name ? name->name : std::string_view{"?"};
        out_ += " (";
        append_u(out_, ts.TSState);
        out_ += ") = ";
        append_state_value(out_, ts.dwValue, name ? name->kind : ddi::StateValueKind::kHex);
        out_ += '\n';
      }
      more(recs.size());
      return;
    }
    records(cmd, cmd.info->item_size);
  }

  void records(const Command& cmd, std::size_t item_size) {
    if (item_size == 0) return;
    const auto fields = record_layout(cmd.op);
    const std::size_t n = cmd.body.size() / item_size;
    for (std::size_t i = 0; i < n && i < options_.max_records; ++i) {
      sub_index(i);
      append_fields(out_, cmd.body.subspan(i * item_size, item_size), fields);
      out_ += '\n';
    }
    more(n);
  }

  void indices(const ddi::Records<WORD>& idx) {
    const std::size_t limit = options_.max_records * 4;
    out_ += kIndent;
    out_ += "indices:";
    for (std::size_t i = 0; i < idx.size() && i < limit; ++i) {
      out_ += ' ';
      append_u(out_, idx[i]);
    }
    if (idx.size() > limit) {
      out_ += " ... ";
      append_u(out_, idx.size() - limit);
      out_ += " more";
    }
    out_ += '\n';
  }

  void dwords(const ddi::Records<DWORD>& values) {
    const std::size_t limit = options_.max_records * 4;
    out_ += kIndent;
    out_ += "entries:";
    for (std::size_t i = 0; i < values.size() && i < limit; ++i) {
      out_ += ' ';
      append_hex(out_, values[i], 8);
    }
    if (values.size() > limit) {
      out_ += " ... ";
      append_u(out_, values.size() - limit);
      out_ += " more";
    }
    out_ += '\n';
  }

  void rects(std::span<const std::byte> body) {
    static constexpr Field kRectField[] = {{"rect", 0, K::kRect}};
    const std::size_t n = body.size() / sizeof(RECT);
    for (std::size_t i = 0; i < n && i < options_.max_records; ++i) {
      sub_index(i);
      append_fields(out_, body.subspan(i * sizeof(RECT), sizeof(RECT)), kRectField);
      out_ += '\n';
    }
    more(n);
  }

  // One line per inline vertex: floats for float fields, hex for colours, per the FVF
  // when it matches the stride; raw DWORDs otherwise.
  void vertices(std::span<const std::byte> body) {
    if (stride_ == 0) return;
    const std::size_t n = body.size() / stride_;
    const bool typed = options_.fvf != 0 && ddi::fvf_stride(options_.fvf) == stride_;
    for (std::size_t i = 0; i < n && i < options_.max_records; ++i) {
      const ByteReader r(body.subspan(i * stride_, stride_));
      out_ += kIndent;
      out_ += "v[";
      append_u(out_, i);
      out_ += "]";
      std::size_t at = 0;
      auto put_floats = [&](std::uint32_t count) {
        for (std::uint32_t k = 0; k < count; ++k, at += 4) {
          out_ += ' ';
          if (auto v = r.read<float>(at)) append_f(out_, *v);
        }
      };
      auto put_hex = [&] {
        out_ += ' ';
        if (auto v = r.read<DWORD>(at)) append_hex(out_, *v, 8);
        at += 4;
      };
      if (typed) {
        const DWORD fvf = options_.fvf;
        put_floats(ddi::fvf_position_size(fvf) / 4);
        if (fvf & D3DFVF_NORMAL) put_floats(3);
        if (fvf & D3DFVF_PSIZE) put_floats(1);
        if (fvf & D3DFVF_DIFFUSE) put_hex();
        if (fvf & D3DFVF_SPECULAR) put_hex();
        if (fvf & D3DFVF_FOG) put_floats(1);
        const std::uint32_t sets = ddi::fvf_texcoord_count(fvf);
        for (std::uint32_t s = 0; s < sets && s < 8; ++s) put_floats(ddi::fvf_texcoord_size(fvf, s));
      } else {
        while (at + 4 <= stride_) put_hex();
      }
      out_ += '\n';
    }
    more(n);
  }

  std::string& out_;
  const DisasmOptions& options_;
  std::uint32_t stride_;
};

}  // namespace

DisasmResult disassemble_checked(std::span<const std::byte> stream, const DisasmOptions& options) {
  DisasmResult result;
  ddi::DecodeOptions decode;
  decode.alignment_base = options.alignment_base;
  decode.imm_vertex_stride = options.stride ? options.stride : ddi::fvf_stride(options.fvf);
  Printer printer(result.text, options, decode.imm_vertex_stride);

  std::size_t offset = 0;
  while (offset < stream.size()) {
    const ddi::DecodeResult decoded = ddi::decode_one(stream, offset, decode);
    if (decoded.error != ddi::DecodeError::kNone) {
      result.ok = false;
      result.first_bad_offset = options.alignment_base + offset;
      result.error = ddi::decode_error_text(decoded.error);
      std::string& out = result.text;
      out += "error at offset ";
      append_u(out, result.first_bad_offset);
      out += ": ";
      out += result.error;
      if (decoded.error != ddi::DecodeError::kTruncatedHeader) {
        out += " (op ";
        append_u(out, decoded.command.op);
        if (decoded.command.info) {
          out += ' ';
          out += decoded.command.info->name;
        }
        out += ", n=";
        append_u(out, decoded.command.count);
        out += ')';
      }
      out += '\n';
      return result;
    }
    printer.command(decoded.command);
    ++result.commands;
    offset += decoded.command.size;
  }
  return result;
}

std::string disassemble(std::span<const std::byte> stream, const DisasmOptions& options) {
  return disassemble_checked(stream, options).text;
}

std::string_view hresult_name(HRESULT hr) noexcept {
  switch (hr) {
    case D3D_OK: return "D3D_OK";
    case D3DERR_COMMAND_UNPARSED: return "D3DERR_COMMAND_UNPARSED";
    case DDERR_WASSTILLDRAWING: return "DDERR_WASSTILLDRAWING";
    case DDERR_GENERIC: return "DDERR_GENERIC";
    case DDERR_INVALIDPARAMS: return "DDERR_INVALIDPARAMS";
    case DDERR_OUTOFMEMORY: return "DDERR_OUTOFMEMORY";
    case DDERR_UNSUPPORTED: return "DDERR_UNSUPPORTED";
    case DDERR_EXCEPTION: return "DDERR_EXCEPTION";
    case DDERR_OUTOFVIDEOMEMORY: return "DDERR_OUTOFVIDEOMEMORY";
    case DDERR_SURFACELOST: return "DDERR_SURFACELOST";
    case DDERR_INVALIDPIXELFORMAT: return "DDERR_INVALIDPIXELFORMAT";
    case DDERR_UNSUPPORTEDFORMAT: return "DDERR_UNSUPPORTEDFORMAT";
    case D3DERR_DRIVERINTERNALERROR: return "D3DERR_DRIVERINTERNALERROR";
    case D3DERR_INVALIDCALL: return "D3DERR_INVALIDCALL";
    case D3DERR_DRIVERINVALIDCALL: return "D3DERR_DRIVERINVALIDCALL";
    case D3DERR_DEVICELOST: return "D3DERR_DEVICELOST";
    case D3DERR_INVALIDSTATEBLOCK: return "D3DERR_INVALIDSTATEBLOCK";
    case D3DERR_INBEGINSTATEBLOCK: return "D3DERR_INBEGINSTATEBLOCK";
    case D3DERR_NOTINBEGINSTATEBLOCK: return "D3DERR_NOTINBEGINSTATEBLOCK";
    case D3DHAL_CONTEXT_BAD: return "D3DHAL_CONTEXT_BAD";
    case D3DHAL_OUTOFCONTEXTS: return "D3DHAL_OUTOFCONTEXTS";
    default: return {};
  }
}

}  // namespace dp2
