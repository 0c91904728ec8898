// The .dp2c reader: file header, chunk framing, and every known chunk's payload, all
// through one bounds-checked cursor (ddi::ByteReader, checked_add / checked_mul). Errors
// name the file offset of the field that failed: "offset N: <what>".
//
// Threads: any; no state beyond the call.
#include <cstdio>
#include <fstream>
#include <limits>

#include "ddi/reader.h"
#include "dp2/capture.h"
#include "io/capture_format.h"

namespace dp2 {

namespace {

using namespace capture;
using ddi::ByteReader;
using ddi::checked_add;
using ddi::checked_mul;

std::string at(std::size_t offset, const std::string& what) { return "offset " + std::to_string(offset) + ": " + what; }

// Little-endian fields of one payload, read in order. The first failure sticks: later
// reads return zeros and `failed()` reports the first.
class Cursor {
 public:
  Cursor(std::span<const std::byte> payload, std::size_t file_offset, std::string name)
      : reader_(payload), base_(file_offset), name_(std::move(name)) {}

  std::uint64_t le(std::size_t n, const char* what) {
    const auto b = take(n, what);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < b.size(); ++i) v |= std::uint64_t(std::to_integer<std::uint8_t>(b[i])) << (8 * i);
    return v;
  }
  std::uint32_t u32(const char* what) { return static_cast<std::uint32_t>(le(4, what)); }
  std::uint64_t u64(const char* what) { return le(8, what); }
  std::span<const std::byte> take(std::uint64_t n, const char* what) {
    if (!error_.empty()) return {};
    if (n > reader_.size() - pos_) {
      error_ = at(base_ + pos_, name_ + " payload too short for " + what + " (" + std::to_string(n) + " bytes, " +
                                    std::to_string(reader_.size() - pos_) + " left)");
      return {};
    }
    const auto s = reader_.slice(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return *s;
  }
  // n records of `size` bytes, with the multiplication checked.
  std::span<const std::byte> records(std::uint64_t n, std::size_t size, const char* what) {
    std::size_t total = 0;
    if (n > std::numeric_limits<std::size_t>::max() || !checked_mul(static_cast<std::size_t>(n), size, total)) {
      if (error_.empty()) error_ = at(base_ + pos_, name_ + ": " + what + " count " + std::to_string(n) + " overflows");
      return {};
    }
    return take(total, what);
  }
  void fail(const std::string& what) {
    if (error_.empty()) error_ = at(base_ + pos_, name_ + ": " + what);
  }
  [[nodiscard]] std::size_t offset() const noexcept { return base_ + pos_; }
  [[nodiscard]] const std::string& error() const noexcept { return error_; }

 private:
  ByteReader reader_;
  std::size_t pos_ = 0;
  std::size_t base_;
  std::string name_;
  std::string error_;
};

std::uint32_t rd32(std::span<const std::byte> b, std::size_t at_byte) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v |= std::uint32_t(std::to_integer<std::uint8_t>(b[at_byte + i])) << (8 * i);
  return v;
}

CaptureEvent parse_payload(std::uint32_t id, Cursor& c) {
  switch (id) {
    case kDevice: {
      CapDevice d;
      d.transform_and_lighting = (c.u32("flags") & kDeviceTnL) != 0;
      d.render_threads = c.u32("render_threads");
      d.video_memory_size = c.u64("video_memory_size");
      d.pointer_size = c.u32("pointer_size");
      c.u32("reserved");
      return d;
    }
    case kSurface: {
      CapSurface s;
      s.handle = c.u32("handle");
      const std::uint32_t kind = c.u32("kind");
      if (c.error().empty() && kind >= kKindCount) c.fail("surface kind " + std::to_string(kind) + " unknown");
      s.desc.kind = static_cast<SurfaceKind>(kind < kKindCount ? kind : 0);
      // D3DFORMAT's values end at D3DFMT_FORCE_DWORD (0x7fffffff): a larger one is no format.
      const std::uint32_t format = c.u32("format");
      if (c.error().empty() && format > 0x7FFFFFFFu) c.fail("format " + std::to_string(format) + " is out of range");
      s.desc.format = static_cast<D3DFORMAT>(format & 0x7FFFFFFFu);
      s.desc.width = c.u32("width");
      s.desc.height = c.u32("height");
      s.desc.mip_levels = c.u32("mip_levels");
      const std::uint64_t size = c.u64("size_bytes");
      if (size > std::numeric_limits<std::size_t>::max()) c.fail("size_bytes does not fit this host");
      s.desc.size_bytes = static_cast<std::size_t>(size);
      const std::uint32_t flags = c.u32("flags");
      s.desc.explicit_vertex_buffer = (flags & kSurfaceExplicitVB) != 0;
      s.desc.has_color_key = (flags & kSurfaceColorKey) != 0;
      s.desc.color_key = c.u32("color_key");
      return s;
    }
    case kSurfaceDestroy: return CapSurfaceDestroy{c.u32("handle")};
    case kContext: {
      CapContext x;
      x.handle = c.u64("handle");
      x.desc.interface_version = c.u32("interface_version");
      x.desc.render_target = c.u32("render_target");
      x.desc.depth_stencil = c.u32("depth_stencil");
      x.desc.free_threaded = (c.u32("flags") & kContextFreeThreaded) != 0;
      return x;
    }
    case kContextDestroy: return CapContextDestroy{c.u64("handle")};
    case kContents: {
      CapContents d;
      d.handle = c.u32("handle");
      const std::uint32_t count = c.u32("range_count");
      d.surface_size = c.u64("surface_size");
      std::uint64_t end_of_last = 0;
      for (std::uint32_t i = 0; i < count && c.error().empty(); ++i) {
        const std::size_t range_at = c.offset();
        const std::uint64_t offset = c.u64("range offset");
        const std::uint64_t length = c.u64("range length");
        if (!c.error().empty()) break;
        if (offset > d.surface_size || length > d.surface_size - offset) {
          c.fail("range " + std::to_string(i) + " [" + std::to_string(offset) + ", +" + std::to_string(length) +
                 ") lies outside the surface's " + std::to_string(d.surface_size) + " bytes");
          (void)range_at;
          break;
        }
        if (i > 0 && offset < end_of_last) {
          c.fail("range " + std::to_string(i) + " overlaps or precedes the previous one");
          break;
        }
        end_of_last = offset + length;
        d.ranges.push_back({offset, c.take(length, "range bytes")});
      }
      return d;
    }
    case kDrawPrimitives2: {
      CapDrawPrimitives2 d;
      d.context = c.u64("dwhContext");
      d.flags = c.u32("dwFlags");
      d.vertex_type = c.u32("dwVertexType");
      d.commands_surface = c.u64("lpDDCommands");
      d.command_offset = c.u32("dwCommandOffset");
      d.command_length = c.u32("dwCommandLength");
      d.vertex_surface = c.u64("lpDDVertex");
      d.vertex_offset = c.u32("dwVertexOffset");
      d.vertex_length = c.u32("dwVertexLength");
      d.req_vertex_buf_size = c.u32("dwReqVertexBufSize");
      d.req_command_buf_size = c.u32("dwReqCommandBufSize");
      d.vertex_size = c.u32("dwVertexSize");
      const std::uint32_t flags = c.u32("call_flags");
      d.had_render_states = (flags & kDp2HadRenderStates) != 0;
      d.null_user_vertices = (flags & kDp2NullUserVertices) != 0;
      const std::uint32_t command_bytes = c.u32("command_bytes");
      const std::uint32_t vertex_bytes = c.u32("user_vertex_bytes");
      if (c.error().empty() && command_bytes > d.command_length)
        c.fail("command_bytes " + std::to_string(command_bytes) + " exceed dwCommandLength " +
               std::to_string(d.command_length));
      d.commands = c.take(command_bytes, "command bytes");
      d.user_vertices = c.take(vertex_bytes, "user-memory vertex bytes");
      return d;
    }
    case kRender: {
      CapRender r;
      r.context = c.u64("hContext");
      r.command_offset = c.u32("CommandOffset");
      r.command_length = c.u32("CommandLength");
      r.flags = c.u32("Flags");
      r.render_cb_sequence = c.u32("RenderCBSequence");
      r.marker_log_type = c.u32("MarkerLogType");
      r.new_command_buffer_size = c.u32("NewCommandBufferSize");
      r.new_allocation_list_size = c.u32("NewAllocationListSize");
      r.new_patch_list_size = c.u32("NewPatchLocationListSize");
      const std::uint32_t allocations = c.u32("NumAllocations");
      const std::uint32_t patches = c.u32("NumPatchLocations");
      const std::uint32_t broadcast = c.u32("BroadcastContextCount");
      c.u32("reserved");
      if (c.error().empty() && broadcast > D3DDDI_MAX_BROADCAST_CONTEXT)
        c.fail("BroadcastContextCount " + std::to_string(broadcast) + " exceeds " +
               std::to_string(D3DDDI_MAX_BROADCAST_CONTEXT));
      if (c.error().empty() && r.command_offset > r.command_length) c.fail("CommandOffset exceeds CommandLength");
      if (!c.error().empty()) return r;
      const auto b = c.records(broadcast, 8, "broadcast contexts");
      for (std::size_t i = 0; c.error().empty() && i < broadcast; ++i)
        r.broadcast.push_back(std::uint64_t{rd32(b, i * 8)} | std::uint64_t{rd32(b, i * 8 + 4)} << 32);
      r.commands = c.take(r.command_length, "command bytes");
      const auto a = c.records(allocations, kAllocationSize, "allocation list");
      for (std::size_t i = 0; c.error().empty() && i < allocations; ++i) {
        D3DDDI_ALLOCATIONLIST e{};
        e.hAllocation = rd32(a, i * 8);
        e.Value = rd32(a, i * 8 + 4);
        r.allocations.push_back(e);
      }
      const auto p = c.records(patches, kPatchSize, "patch location list");
      for (std::size_t i = 0; c.error().empty() && i < patches; ++i) {
        D3DDDI_PATCHLOCATIONLIST e{};
        e.AllocationIndex = rd32(p, i * 24);
        e.Value = rd32(p, i * 24 + 4);
        e.DriverId = rd32(p, i * 24 + 8);
        e.AllocationOffset = rd32(p, i * 24 + 12);
        e.PatchOffset = rd32(p, i * 24 + 16);
        e.SplitOffset = rd32(p, i * 24 + 20);
        r.patches.push_back(e);
      }
      return r;
    }
    case kUnlock: {
      CapUnlock u;
      u.handle = c.u32("handle");
      c.u32("reserved");
      u.size = c.u64("size");
      return u;
    }
    case kRename: return CapRename{c.u32("handle")};
    case kFlipChain: {
      CapFlipChain f;
      f.chain = c.u32("chain");
      const std::uint32_t count = c.u32("surface_count");
      const auto s = c.records(count, 4, "surface handles");
      for (std::size_t i = 0; c.error().empty() && i < count; ++i) f.surfaces.push_back(rd32(s, i * 4));
      return f;
    }
    case kFlip: return CapFlip{c.u32("chain")};
    case kEnd: return CapEnd{};
    default: return CapUnknown{};
  }
}

}  // namespace

std::string capture_chunk_name(std::uint32_t id) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const char ch = static_cast<char>((id >> (8 * i)) & 0xFF);
    s += (ch >= 0x20 && ch < 0x7F) ? ch : '?';
  }
  return s;
}

bool read_capture(std::span<const std::byte> bytes, CaptureFile& out, std::string* error,
                  const CaptureReadOptions& options) {
  out = CaptureFile{};
  const auto fail = [&](std::size_t offset, const std::string& what) {
    if (error) *error = at(offset, what);
    return false;
  };
  Cursor header(bytes, 0, "file header");
  const auto magic = header.take(kMagic.size(), "the magic");
  if (!header.error().empty()) return fail(bytes.size(), "not a dp2 capture: shorter than its 16-byte header");
  for (std::size_t i = 0; i < kMagic.size(); ++i)
    if (std::to_integer<char>(magic[i]) != kMagic[i]) return fail(i, "not a dp2 capture (bad magic)");
  out.version_major = static_cast<std::uint16_t>(header.le(2, "version_major"));
  out.version_minor = static_cast<std::uint16_t>(header.le(2, "version_minor"));
  const std::uint32_t header_size = header.u32("header_size");
  if (!header.error().empty()) return fail(bytes.size(), "not a dp2 capture: shorter than its 16-byte header");
  if (out.version_major != kVersionMajor)
    return fail(8, "unsupported capture version " + std::to_string(out.version_major) + "." +
                       std::to_string(out.version_minor) + " (this reader knows " + std::to_string(kVersionMajor) +
                       ".x)");
  if (header_size < kFileHeaderSize || header_size > bytes.size())
    return fail(12, "header_size " + std::to_string(header_size) + " is outside [16, file size " +
                        std::to_string(bytes.size()) + "]");

  const ByteReader file(bytes);
  std::size_t pos = header_size;
  bool seen_device = false, seen_end = false;
  std::uint64_t frame = 0;
  std::vector<std::size_t> call_records;
  while (pos < bytes.size()) {
    if (seen_end) return fail(pos, "data after the END chunk");
    if (!file.contains(pos, kChunkHeaderSize))
      return fail(pos, "truncated chunk header (" + std::to_string(bytes.size() - pos) + " of 16 bytes)");
    Cursor h(*file.slice(pos, kChunkHeaderSize), pos, "chunk header");
    CaptureRecord rec;
    rec.offset = pos;
    rec.id = h.u32("id");
    rec.flags = h.u32("flags");
    rec.size = h.u64("size");
    const std::size_t payload_at = pos + kChunkHeaderSize;
    const std::size_t left = bytes.size() - payload_at;
    if (rec.size > left)
      return fail(pos + 8, "chunk '" + capture_chunk_name(rec.id) + "' size " + std::to_string(rec.size) +
                               " exceeds the " + std::to_string(left) + " bytes left in the file");
    const auto payload = *file.slice(payload_at, static_cast<std::size_t>(rec.size));
    Cursor c(payload, payload_at, "chunk '" + capture_chunk_name(rec.id) + "'");
    rec.event = parse_payload(rec.id, c);
    if (!c.error().empty()) {
      if (error) *error = c.error();
      return false;
    }
    if (std::holds_alternative<CapUnknown>(rec.event) && (rec.flags & kChunkRequired))
      return fail(pos, "unknown chunk '" + capture_chunk_name(rec.id) + "' is marked required");
    // Order rules (docs/capture-format.md, "Order").
    const bool is_device = std::holds_alternative<CapDevice>(rec.event);
    if (!seen_device && !is_device) return fail(pos, "the first chunk must be DEVC, not '" + capture_chunk_name(rec.id) + "'");
    if (seen_device && is_device) return fail(pos, "a second DEVC chunk");
    seen_device = true;
    if (std::holds_alternative<CapEnd>(rec.event)) seen_end = true;
    rec.frame = frame;
    if (std::holds_alternative<CapFlip>(rec.event)) {
      out.has_flips = true;
      ++frame;
    }
    if (std::holds_alternative<CapDrawPrimitives2>(rec.event) || std::holds_alternative<CapRender>(rec.event)) {
      ++out.calls;
      call_records.push_back(out.records.size());
    }
    out.records.push_back(std::move(rec));
    pos = payload_at + static_cast<std::size_t>(out.records.back().size);
  }
  if (!seen_device) return fail(pos, "no DEVC chunk (empty capture)");
  if (!seen_end && !options.allow_missing_end)
    return fail(pos, "the capture ends without an END chunk (truncated?)");
  if (out.has_flips) {
    out.frames = frame;
  } else {
    // No flips: every call is a frame; the chunks before a call belong to its frame.
    std::uint64_t f = 0;
    std::size_t next_call = 0;
    for (std::size_t i = 0; i < out.records.size(); ++i) {
      out.records[i].frame = f;
      if (next_call < call_records.size() && call_records[next_call] == i) {
        ++f;
        ++next_call;
      }
    }
    out.frames = out.calls;
  }
  return true;
}

bool load_capture_bytes(const std::string& path, std::vector<std::byte>& bytes, std::string* error) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    if (error) *error = "cannot open '" + path + "'";
    return false;
  }
  const std::streamoff end = in.tellg();
  if (end < 0) {
    if (error) *error = "cannot read the size of '" + path + "'";
    return false;
  }
  bytes.resize(static_cast<std::size_t>(end));
  in.seekg(0);
  if (!bytes.empty() && !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()))) {
    if (error) *error = "cannot read '" + path + "'";
    return false;
  }
  return true;
}

}  // namespace dp2
