// The DP2 command decoder: header-only, bounds-checked, shared by the executor, the
// disassembler, the stream writer's tests and the fuzzer (STYLE.md §2).
//
// decode_one() looks at the command whose header starts at `offset` and either returns
// a Command whose spans all lie inside the stream, or an error saying why not. It never
// reads outside the stream and never trusts a count before multiplying it out with an
// overflow check. It knows sizes, not meanings: what a command *does* is the executor's.
//
// Thread: the caller's; no state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "ddi/opcodes.h"
#include "ddi/reader.h"
#include "dp2/ddi.h"

namespace dp2::ddi {

enum class DecodeError : std::uint8_t {
  kNone,
  kTruncatedHeader,   // fewer than 4 bytes left for a D3DHAL_DP2COMMAND
  kTruncatedPayload,  // the payload the header announces does not fit in dwCommandLength
  kSizeOverflow,      // count × size (or a record's own size fields) overflows
  kUnknownOpcode,     // no header defines this value: the unknown-command callback's turn
  kNotInStreams,      // a response-only or front-end-only opcode
  kNoVertexStride,    // an _IMM opcode while no valid vertex format is set
};

inline const char* decode_error_text(DecodeError e) noexcept;

struct DecodeOptions {
  // Offset of stream[0] inside its buffer. _IMM vertex data is DWORD-aligned relative to
  // the buffer start, as the samples align the absolute address (DP2-OPCODES.md D12).
  std::size_t alignment_base = 0;
  // Stride of inline (_IMM) vertices; 0 when no valid vertex format is known.
  std::uint32_t imm_vertex_stride = 0;
};

struct Command {
  std::size_t offset = 0;  // of the header, within the stream
  std::size_t size = 0;    // header + payload (+ _IMM padding)
  std::uint8_t op = 0;
  std::uint16_t count = 0;  // wPrimitiveCount / wStateCount
  const OpcodeInfo* info = nullptr;
  std::span<const std::byte> payload;  // every byte after the header
  // The part after any prefix: records, WORD indices, or inline vertex data.
  std::span<const std::byte> body;
  std::uint16_t start_vertex = 0;    // D3DHAL_DP2STARTVERTEX forms
  std::uint32_t imm_edge_flags = 0;  // TRIANGLEFAN_IMM
  std::size_t imm_padding = 0;       // bytes skipped to DWORD-align _IMM vertices

  template <class T>
  [[nodiscard]] Records<T> records() const noexcept {
    return Records<T>(body, body.size() / sizeof(T));
  }
};

struct DecodeResult {
  DecodeError error = DecodeError::kNone;
  Command command;  // valid when error == kNone; offset/op/count set when the header was read
};

// Size of one kVariable record starting at `at`, or nullopt when its fixed part is
// truncated or its announced size overflows. DP2-OPCODES.md §3 gives each formula.
[[nodiscard]] inline std::optional<std::size_t> variable_record_size(std::uint8_t op, const ByteReader& r,
                                                                     std::size_t at) noexcept {
  auto dword = [&](std::size_t field) { return r.read<DWORD>(at + field); };
  std::size_t size = 0;
  switch (op) {
    case D3DDP2OP_SETLIGHT: {
      auto type = dword(offsetof(D3DHAL_DP2SETLIGHT, dwDataType));
      if (!type) return std::nullopt;
      return sizeof(D3DHAL_DP2SETLIGHT) + (*type == D3DHAL_SETLIGHT_DATA ? sizeof(D3DLIGHT7) : 0);
    }
    case D3DDP2OP_CREATEVERTEXSHADER: {
      auto decl = dword(offsetof(D3DHAL_DP2CREATEVERTEXSHADER, dwDeclSize));
      auto code = dword(offsetof(D3DHAL_DP2CREATEVERTEXSHADER, dwCodeSize));
      if (!decl || !code) return std::nullopt;
      if (!checked_add(sizeof(D3DHAL_DP2CREATEVERTEXSHADER), *decl, size) || !checked_add(size, *code, size))
        return std::nullopt;
      return size;
    }
    case D3DDP2OP_SETVERTEXSHADERCONST:
    case D3DDP2OP_SETPIXELSHADERCONST:
    case D3DDP2OP_SETVERTEXSHADERCONSTI:
    case D3DDP2OP_SETPIXELSHADERCONSTI:
    case D3DDP2OP_SETVERTEXSHADERCONSTB:
    case D3DDP2OP_SETPIXELSHADERCONSTB: {
      // dwCount registers of 4 floats / 4 INTs, or dwCount BOOLs (DP2-OPCODES.md D5).
      const bool is_bool = op == D3DDP2OP_SETVERTEXSHADERCONSTB || op == D3DDP2OP_SETPIXELSHADERCONSTB;
      auto count = dword(offsetof(D3DHAL_DP2SETVERTEXSHADERCONST, dwCount));
      if (!count) return std::nullopt;
      if (!checked_mul(*count, is_bool ? 4u : 16u, size) ||
          !checked_add(size, sizeof(D3DHAL_DP2SETVERTEXSHADERCONST), size))
        return std::nullopt;
      return size;
    }
    case D3DDP2OP_CREATEPIXELSHADER: {
      auto code = dword(offsetof(D3DHAL_DP2CREATEPIXELSHADER, dwCodeSize));
      if (!code || !checked_add(sizeof(D3DHAL_DP2CREATEPIXELSHADER), *code, size)) return std::nullopt;
      return size;
    }
    case D3DDP2OP_CREATEVERTEXSHADERFUNC: {
      auto code = dword(offsetof(D3DHAL_DP2CREATEVERTEXSHADERFUNC, dwSize));
      if (!code || !checked_add(sizeof(D3DHAL_DP2CREATEVERTEXSHADERFUNC), *code, size)) return std::nullopt;
      return size;
    }
    case D3DDP2OP_CREATEVERTEXSHADERDECL: {
      auto n = dword(offsetof(D3DHAL_DP2CREATEVERTEXSHADERDECL, dwNumVertexElements));
      if (!n || !checked_mul(*n, sizeof(D3DVERTEXELEMENT9), size) ||
          !checked_add(size, sizeof(D3DHAL_DP2CREATEVERTEXSHADERDECL), size))
        return std::nullopt;
      return size;
    }
    case D3DDP2OP_DRAWRECTPATCH:
    case D3DDP2OP_DRAWTRIPATCH: {
      const bool rect = op == D3DDP2OP_DRAWRECTPATCH;
      auto flags = dword(offsetof(D3DHAL_DP2DRAWRECTPATCH, Flags));
      if (!flags) return std::nullopt;
      size = sizeof(D3DHAL_DP2DRAWRECTPATCH);
      if (*flags & RTPATCHFLAG_HASSEGS) size += (rect ? 4 : 3) * sizeof(float);
      if (*flags & RTPATCHFLAG_HASINFO) size += rect ? sizeof(D3DRECTPATCH_INFO) : sizeof(D3DTRIPATCH_INFO);
      return size;
    }
    case D3DDP2OP_SETCONVOLUTIONKERNELMONO: {
      auto w = dword(offsetof(D3DHAL_DP2SETCONVOLUTIONKERNELMONO, dwWidth));
      auto h = dword(offsetof(D3DHAL_DP2SETCONVOLUTIONKERNELMONO, dwHeight));
      auto flags = dword(offsetof(D3DHAL_DP2SETCONVOLUTIONKERNELMONO, dwFlags));
      if (!w || !h || !flags) return std::nullopt;
      std::size_t rows = (*flags & D3DHAL_ROW_WEIGHTS) ? std::size_t{*w} : 0;
      std::size_t cols = (*flags & D3DHAL_COL_WEIGHTS) ? std::size_t{*h} : 0;
      if (!checked_add(rows, cols, size) || !checked_mul(size, sizeof(float), size) ||
          !checked_add(size, sizeof(D3DHAL_DP2SETCONVOLUTIONKERNELMONO), size))
        return std::nullopt;
      return size;
    }
    default:
      return std::nullopt;
  }
}

// Calls fn(record_span) for each of the command's kVariable records, in order. Only for
// Commands that decode_one() accepted: their records were all measured and fit.
template <class Fn>
void for_each_variable_record(const Command& cmd, Fn&& fn) {
  const ByteReader r(cmd.body);
  std::size_t at = 0;
  for (std::uint32_t i = 0; i < cmd.count; ++i) {
    const std::size_t size = *variable_record_size(cmd.op, r, at);
    fn(cmd.body.subspan(at, size));
    at += size;
  }
}

[[nodiscard]] inline DecodeResult decode_one(std::span<const std::byte> stream, std::size_t offset,
                                             const DecodeOptions& options) noexcept {
  DecodeResult result;
  Command& cmd = result.command;
  cmd.offset = offset;
  const ByteReader r(stream);
  const auto header = r.read<D3DHAL_DP2COMMAND>(offset);
  if (!header) {
    result.error = DecodeError::kTruncatedHeader;
    return result;
  }
  cmd.op = header->bCommand;
  cmd.count = header->wStateCount;
  cmd.info = find_opcode(cmd.op);
  if (!cmd.info) {
    result.error = DecodeError::kUnknownOpcode;
    return result;
  }
  const std::size_t start = offset + sizeof(D3DHAL_DP2COMMAND);
  const std::size_t n = cmd.count;
  const OpcodeInfo& info = *cmd.info;

  // prefix = bytes before body; body_size = the rest.
  std::size_t prefix = 0, body_size = 0;
  auto dword_pad = [&](std::size_t at) { return (4 - (options.alignment_base + at) % 4) % 4; };
  switch (info.shape) {
    case PayloadShape::kPerCount:
      body_size = n * info.item_size;  // ≤ 65535 × 68: cannot overflow size_t
      break;
    case PayloadShape::kSingle:
      body_size = info.item_size;
      break;
    case PayloadShape::kStartVertexIndices:
      prefix = sizeof(D3DHAL_DP2STARTVERTEX);
      body_size = (n + info.extra) * sizeof(WORD);
      break;
    case PayloadShape::kStartVertexRecords:
      prefix = sizeof(D3DHAL_DP2STARTVERTEX);
      body_size = n * info.item_size;
      break;
    case PayloadShape::kTriangleFanImm:
    case PayloadShape::kLineListImm: {
      if (options.imm_vertex_stride == 0) {
        result.error = DecodeError::kNoVertexStride;
        return result;
      }
      const bool fan = info.shape == PayloadShape::kTriangleFanImm;
      const std::size_t fixed = fan ? sizeof(D3DHAL_DP2TRIANGLEFAN_IMM) : 0;
      cmd.imm_padding = dword_pad(start + fixed);
      prefix = fixed + cmd.imm_padding;
      if (!checked_mul(fan ? n + 2 : 2 * n, options.imm_vertex_stride, body_size)) {
        result.error = DecodeError::kSizeOverflow;
        return result;
      }
      break;
    }
    case PayloadShape::kClear:
      // "when the number of rectangles is zero, the D3DHAL_DP2CLEAR data structure still
      // includes space for a single RECT" (D3DHAL_DP2CLEAR page). The pages win over the
      // samples' 16 + 16n here; docs/decisions.md, row "CLEAR with no rectangles".
      prefix = info.item_size;
      body_size = (n == 0 ? 1 : n) * sizeof(RECT);
      break;
    case PayloadShape::kUpdatePalette: {
      const auto entries = r.read<WORD>(start + offsetof(D3DHAL_DP2UPDATEPALETTE, wNumEntries));
      if (!entries) {
        result.error = DecodeError::kTruncatedPayload;
        return result;
      }
      prefix = sizeof(D3DHAL_DP2UPDATEPALETTE);
      body_size = std::size_t{*entries} * sizeof(DWORD);
      break;
    }
    case PayloadShape::kVariable: {
      const ByteReader rest(r.bytes().subspan(start));
      for (std::size_t i = 0; i < n; ++i) {
        const auto size = variable_record_size(cmd.op, rest, body_size);
        if (!size) {
          // Either the record's fixed part runs past the end, or its sizes overflow.
          result.error = rest.contains(body_size, info.item_size) ? DecodeError::kSizeOverflow
                                                                   : DecodeError::kTruncatedPayload;
          return result;
        }
        if (!checked_add(body_size, *size, body_size) || !rest.contains(0, body_size)) {
          result.error = DecodeError::kTruncatedPayload;
          return result;
        }
      }
      break;
    }
    case PayloadShape::kNotInStreams:
      result.error = DecodeError::kNotInStreams;
      return result;
  }

  std::size_t payload_size = 0;
  if (!checked_add(prefix, body_size, payload_size)) {
    result.error = DecodeError::kSizeOverflow;
    return result;
  }
  const auto payload = r.slice(start, payload_size);
  if (!payload) {
    result.error = DecodeError::kTruncatedPayload;
    return result;
  }
  cmd.payload = *payload;
  cmd.body = payload->subspan(prefix);
  cmd.size = sizeof(D3DHAL_DP2COMMAND) + payload_size;
  if (info.shape == PayloadShape::kStartVertexIndices || info.shape == PayloadShape::kStartVertexRecords)
    cmd.start_vertex = *r.read<WORD>(start);
  if (info.shape == PayloadShape::kTriangleFanImm) cmd.imm_edge_flags = *r.read<DWORD>(start);
  return result;
}

inline const char* decode_error_text(DecodeError e) noexcept {
  switch (e) {
    case DecodeError::kNone: return "ok";
    case DecodeError::kTruncatedHeader: return "truncated command header";
    case DecodeError::kTruncatedPayload: return "payload runs past dwCommandLength";
    case DecodeError::kSizeOverflow: return "payload size overflows";
    case DecodeError::kUnknownOpcode: return "unknown opcode";
    case DecodeError::kNotInStreams: return "opcode not valid in a command stream";
    case DecodeError::kNoVertexStride: return "inline vertices without a valid vertex format";
  }
  return "?";
}

}  // namespace dp2::ddi
