// The dp2_fuzz_dp2 input format, shared by the fuzz target and the seed-corpus writer.
//
//   [FuzzHeader, 16 bytes][command_size bytes of command stream][the rest: vertex bytes]
//
// Multi-byte fields are little-endian. A short input is padded with zeros to a header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace dp2::fuzz {

enum ModeBits : std::uint8_t {
  kUserMemVertices = 0x01,   // lpVertices + D3DHALDP2_USERMEMVERTICES instead of a VB surface
  kTransformAndLighting = 0x02,
  kNoVertexSurface = 0x04,   // lpDDVertex = 0 even though vertex bytes exist
  kCommandLengthDelta = 0x08,  // dwCommandLength = command_size + command_length_delta
  kCallbackMask = 0x70,      // the unknown-command callback's policy for the second call
  kCallbackShift = 4,
};

// Callback policies (mode bits 4–6): what the second DrawPrimitives2 call's
// D3dParseUnknownCommand stand-in answers.
enum class CallbackPolicy : std::uint8_t {
  kSkipHeader,    // S_OK, consumed = 4 (or all when fewer)
  kSkipAll,       // S_OK, consumed = everything left
  kFail,          // D3DERR_COMMAND_UNPARSED
  kConsumeZero,   // S_OK, consumed = 0 (invalid: the driver must fail)
  kConsumeTooMuch,  // S_OK, consumed = size + 1 (invalid)
  kSkipByte,      // S_OK, consumed = 2 (lands mid-command)
};

struct FuzzHeader {
  std::uint8_t mode = 0;
  std::uint8_t dx = 5;               // interface version code, taken % 6
  std::uint8_t dp2_flags = 0;        // further D3DHALDP2_* bits
  std::uint8_t command_offset = 0;   // zero bytes before the stream in the command surface
  std::uint32_t fvf = 0;
  std::uint16_t stride = 0;          // dwVertexSize (0 = the FVF's)
  std::uint16_t command_size = 0;    // bytes of the input that are the command stream
  std::uint8_t vertex_offset = 0;    // dwVertexOffset (zero bytes before vertex 0)
  std::int8_t vertex_length_delta = 0;   // dwVertexLength = vertices held + delta
  std::int8_t command_length_delta = 0;  // with kCommandLengthDelta
  std::uint8_t reserved = 0;
};
static_assert(sizeof(FuzzHeader) == 16);

inline constexpr std::size_t kHeaderSize = sizeof(FuzzHeader);

inline FuzzHeader read_header(std::span<const std::uint8_t> input) {
  std::uint8_t raw[kHeaderSize] = {};
  std::memcpy(raw, input.data(), input.size() < kHeaderSize ? input.size() : kHeaderSize);
  FuzzHeader h;
  std::memcpy(&h, raw, kHeaderSize);  // little-endian hosts only (x86-64, AArch64)
  return h;
}

inline std::vector<std::uint8_t> encode(const FuzzHeader& header, std::span<const std::byte> commands,
                                        std::span<const std::byte> vertices) {
  FuzzHeader h = header;
  h.command_size = static_cast<std::uint16_t>(commands.size());
  std::vector<std::uint8_t> out(kHeaderSize);
  std::memcpy(out.data(), &h, kHeaderSize);
  for (std::byte b : commands) out.push_back(static_cast<std::uint8_t>(b));
  for (std::byte b : vertices) out.push_back(static_cast<std::uint8_t>(b));
  return out;
}

}  // namespace dp2::fuzz
