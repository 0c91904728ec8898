// dp2::disassemble — a readable listing of a DP2 command stream, one line per command
// (offset, name, count, decoded fields) and indented lines for its records. It walks the
// stream with the same decoder as the executor, so what it accepts and where it stops are
// exactly what DrawPrimitives2 accepts.
//
// Offsets printed are buffer offsets: alignment_base + the position in `stream`. Give
// alignment_base = dwCommandOffset and pass the bytes from there on, and the offset in
// "error at offset N" is comparable to dwErrorOffset.
//
// Threads: any; no state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "dp2/ddi.h"

namespace dp2 {

struct DisasmOptions {
  // Offset of stream[0] within its command buffer (dwCommandOffset): _IMM padding is
  // computed from it and printed offsets include it.
  std::size_t alignment_base = 0;
  // Vertex format of the inline _IMM vertices (dwVertexType) and their stride
  // (dwVertexSize; 0 = the FVF's stride). With neither, _IMM commands cannot be sized
  // and the listing stops there with an error.
  DWORD fvf = 0;
  std::uint32_t stride = 0;
  // Records (states, primitives, vertices, indices, rects) listed per command; the rest
  // are summarised as "... N more".
  std::size_t max_records = 16;
};

struct DisasmResult {
  std::string text;
  bool ok = true;                    // the whole stream decoded
  std::size_t first_bad_offset = 0;  // buffer offset of the command that failed (when !ok)
  std::string error;                 // the decoder's error text (when !ok)
  std::size_t commands = 0;          // commands that decoded
};

DisasmResult disassemble_checked(std::span<const std::byte> stream, const DisasmOptions& options = {});
std::string disassemble(std::span<const std::byte> stream, const DisasmOptions& options = {});

// "D3D_OK", "D3DERR_COMMAND_UNPARSED", ... or "" for values without a name here.
std::string_view hresult_name(HRESULT hr) noexcept;

}  // namespace dp2
