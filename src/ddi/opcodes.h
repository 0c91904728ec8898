// The one table of DP2 opcodes: value, canonical name, how the payload is sized, and
// the DirectX DDI level that introduced it. The decoder, the disassembler, the executor's
// diagnostics and the stream writer's tests all read this table, so names and sizes
// cannot drift apart (STYLE.md §3).
//
// Source: shared/reference/DP2-OPCODES.md §3 (table) and §4.1 (sizes).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace dp2::ddi {

// How the bytes after the 4-byte D3DHAL_DP2COMMAND header are counted (n = wStateCount).
enum class PayloadShape : std::uint8_t {
  kPerCount,            // n × item_size
  kSingle,              // exactly one item_size record whatever n is
  kStartVertexIndices,  // D3DHAL_DP2STARTVERTEX + (n + extra) WORD indices
  kStartVertexRecords,  // D3DHAL_DP2STARTVERTEX + n × item_size
  kTriangleFanImm,      // D3DHAL_DP2TRIANGLEFAN_IMM + pad to DWORD + (n + 2) vertices
  kLineListImm,         // pad to DWORD + 2n vertices
  kClear,               // D3DHAL_DP2CLEAR fixed part + n RECTs (one undefined RECT when n = 0)
  kUpdatePalette,       // one D3DHAL_DP2UPDATEPALETTE + wNumEntries DWORDs, n ignored
  kVariable,            // n records, each sized by its own header (see record_size())
  kNotInStreams,        // defined, but never valid in a runtime→driver stream
};

struct OpcodeInfo {
  std::uint8_t op;
  std::string_view name;  // without the D3DDP2OP_ prefix
  PayloadShape shape;
  std::uint16_t item_size;  // bytes of one record (fixed part for kVariable)
  std::uint8_t extra;       // kStartVertexIndices: indices beyond n
  std::uint8_t dx_level;    // 6, 7, 8, 9 (81 = DX8.1, 91 = DX9Ex)
};

// Every opcode defined by any header in the reference pack, in value order.
std::span<const OpcodeInfo> all_opcodes() noexcept;

// The entry for `op`, or nullptr when no header defines it (an unknown command).
const OpcodeInfo* find_opcode(std::uint8_t op) noexcept;

// "D3DDP2OP_<name>" or "UNKNOWN(<n>)" into a caller buffer-free form.
std::string_view opcode_name(std::uint8_t op) noexcept;

}  // namespace dp2::ddi
