// dp2dump — a text listing of a .dp2c capture (docs/capture-format.md): one line per
// chunk, and each DrawPrimitives2 call's command stream through the disassembler.
//
//   dp2dump session.dp2c                       everything
//   dp2dump session.dp2c --frame 3-4           the chunks of frames 3 and 4
//   dp2dump session.dp2c --opcode CLEAR -p 42  only DP2 calls with those commands, only those lines
//
// Exit status: 0, or 2 for a bad capture or bad arguments (the chunks before the error are
// listed first).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dp2/capture.h"
#include "dp2/disasm.h"

namespace {

const char* kind_name(dp2::SurfaceKind k) {
  switch (k) {
    case dp2::SurfaceKind::kRenderTarget: return "render-target";
    case dp2::SurfaceKind::kDepthStencil: return "depth-stencil";
    case dp2::SurfaceKind::kTexture: return "texture";
    case dp2::SurfaceKind::kVertexBuffer: return "vertex-buffer";
    case dp2::SurfaceKind::kIndexBuffer: return "index-buffer";
    case dp2::SurfaceKind::kCommandBuffer: return "command-buffer";
  }
  return "?";
}

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

struct Filter {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> frames;
  std::set<std::string> names;  // upper case, without D3DDP2OP_
  std::set<unsigned> numbers;
  bool frame_ok(std::uint64_t f) const {
    return frames.empty() ||
           std::any_of(frames.begin(), frames.end(), [&](const auto& r) { return f >= r.first && f <= r.second; });
  }
  bool opcodes() const { return !names.empty() || !numbers.empty(); }
};

// The disassembly of one call, keeping only commands the filter asks for (with their
// record lines). Command lines read "<offset>  <NAME>  ..."; the opcode byte is taken from
// the stream at that offset, so numeric filters need no name table.
std::string filtered(const std::string& text, const dp2::CapDrawPrimitives2& c, const Filter& f, bool& any) {
  std::istringstream in(text);
  std::string line, out;
  bool keep = !f.opcodes();
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string first, name;
    words >> first >> name;
    const bool command_line = !first.empty() && std::all_of(first.begin(), first.end(), ::isdigit);
    if (command_line && f.opcodes()) {
      const unsigned long long at = std::stoull(first);
      unsigned op = 256;
      if (at >= c.command_offset && at - c.command_offset < c.commands.size())
        op = std::to_integer<unsigned>(c.commands[at - c.command_offset]);
      keep = f.names.contains(name) || f.numbers.contains(op);
    }
    if (!f.opcodes() || keep || (!command_line && line.find("error") != std::string::npos)) {
      out += "      " + line + "\n";
      if (command_line) any = true;
    }
  }
  if (!f.opcodes()) any = true;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dp2dump — list a dp2 capture (.dp2c) chunk by chunk and DP2 command by command"};
  std::string path, frames_text;
  std::vector<std::string> opcodes;
  std::size_t max_records = 16;
  bool no_disasm = false, partial = false;
  app.add_option("capture", path, "The capture file")->required();
  app.add_option("-f,--frame", frames_text, "Frames to list, e.g. 0-2,5 (a frame ends at a Flip, or at each call "
                                            "in a capture without flips)");
  app.add_option("-p,--opcode", opcodes, "Only DP2 commands with this name (CLEAR, D3DDP2OP_CLEAR) or number (42)");
  app.add_option("--max-records", max_records, "Records listed per command");
  app.add_flag("--no-disasm", no_disasm, "List chunks only");
  app.add_flag("--partial", partial, "Accept a capture without an END chunk");
  CLI11_PARSE(app, argc, argv);

  Filter filter;
  if (!frames_text.empty()) {
    std::stringstream in(frames_text);
    std::string part;
    while (std::getline(in, part, ',')) {
      unsigned long long a = 0, b = 0;
      char dash = 0;
      std::istringstream p(part);
      if (!(p >> a)) {
        std::cerr << "dp2dump: bad --frame '" << frames_text << "'\n";
        return 2;
      }
      b = a;
      if (p >> dash) {
        if (dash != '-') {
          std::cerr << "dp2dump: bad --frame '" << frames_text << "'\n";
          return 2;
        }
        if (!(p >> b)) b = ~0ull;
      }
      filter.frames.emplace_back(a, b);
    }
  }
  for (std::string o : opcodes) {
    if (!o.empty() && std::all_of(o.begin(), o.end(), ::isdigit)) {
      filter.numbers.insert(static_cast<unsigned>(std::stoul(o)));
      continue;
    }
    std::transform(o.begin(), o.end(), o.begin(), ::toupper);
    if (o.rfind("D3DDP2OP_", 0) == 0) o = o.substr(9);
    filter.names.insert(o);
  }

  std::vector<std::byte> bytes;
  std::string error;
  if (!dp2::load_capture_bytes(path, bytes, &error)) {
    std::cerr << "dp2dump: " << error << "\n";
    return 2;
  }
  dp2::CaptureFile file;
  dp2::CaptureReadOptions options;
  options.allow_missing_end = partial;
  if (!dp2::read_capture(bytes, file, &error, options)) {
    std::cerr << "dp2dump: " << path << ": " << error << "\n";
    return 2;
  }
  std::printf("dp2 capture version %u.%u: %zu chunks, %llu calls, %llu frames (%s)\n", file.version_major,
              file.version_minor, file.records.size(), static_cast<unsigned long long>(file.calls),
              static_cast<unsigned long long>(file.frames), file.has_flips ? "ending at flips" : "one per call");

  for (const dp2::CaptureRecord& rec : file.records) {
    if (!filter.frame_ok(rec.frame)) continue;
    const bool dp2_call = std::holds_alternative<dp2::CapDrawPrimitives2>(rec.event);
    if (filter.opcodes() && !dp2_call) continue;
    std::ostringstream line;
    line << "@" << rec.offset << " frame " << rec.frame << "  " << dp2::capture_chunk_name(rec.id) << "  ";
    std::string body;
    std::visit(
        [&](const auto& e) {
          using T = std::decay_t<decltype(e)>;
          if constexpr (std::is_same_v<T, dp2::CapUnknown>) {
            line << "unknown chunk, " << rec.size << " bytes (skipped)";
          } else if constexpr (std::is_same_v<T, dp2::CapDevice>) {
            line << "device tnl=" << e.transform_and_lighting << " video_memory=" << e.video_memory_size
                 << " render_threads=" << e.render_threads << " pointer_size=" << e.pointer_size;
          } else if constexpr (std::is_same_v<T, dp2::CapSurface>) {
            line << "create surface " << e.handle << " " << kind_name(e.desc.kind) << " format=" << e.desc.format
                 << " " << e.desc.width << "x" << e.desc.height << " levels=" << e.desc.mip_levels
                 << " size_bytes=" << e.desc.size_bytes << (e.desc.explicit_vertex_buffer ? " explicit-vb" : "");
            if (e.desc.has_color_key) line << " color_key=" << hex(e.desc.color_key);
          } else if constexpr (std::is_same_v<T, dp2::CapSurfaceDestroy>) {
            line << "destroy surface " << e.handle;
          } else if constexpr (std::is_same_v<T, dp2::CapContext>) {
            line << "create context " << e.handle << " interface=" << e.desc.interface_version
                 << " render_target=" << e.desc.render_target << " depth_stencil=" << e.desc.depth_stencil
                 << (e.desc.free_threaded ? " free-threaded" : "");
          } else if constexpr (std::is_same_v<T, dp2::CapContextDestroy>) {
            line << "destroy context " << e.handle;
          } else if constexpr (std::is_same_v<T, dp2::CapContents>) {
            std::uint64_t total = 0;
            for (const auto& r : e.ranges) total += r.bytes.size();
            line << "contents of surface " << e.handle << ": " << e.ranges.size() << " ranges, " << total << " of "
                 << e.surface_size << " bytes";
          } else if constexpr (std::is_same_v<T, dp2::CapDrawPrimitives2>) {
            line << "DrawPrimitives2 context=" << e.context << " flags=" << hex(e.flags) << " fvf=" << hex(e.vertex_type)
                 << " commands=" << e.commands_surface << "[" << e.command_offset << ", +" << e.command_length << ")";
            if (e.flags & D3DHALDP2_USERMEMVERTICES)
              line << " user-vertices=" << e.user_vertices.size() << "B";
            else
              line << " vertices=" << e.vertex_surface;
            line << " vertex_offset=" << e.vertex_offset << " vertex_length=" << e.vertex_length
                 << " stride=" << e.vertex_size;
            if (!no_disasm) {
              dp2::DisasmOptions d;
              d.alignment_base = e.command_offset;
              d.fvf = e.vertex_type;
              d.stride = e.vertex_size;
              d.max_records = max_records;
              bool any = false;
              body = filtered(dp2::disassemble(e.commands, d), e, filter, any);
              if (!any) body = "\x01";  // nothing matched: the call is not listed
            }
          } else if constexpr (std::is_same_v<T, dp2::CapRender>) {
            line << "Render context=" << e.context << " commands=[" << e.command_offset << ", " << e.command_length
                 << ") allocations=" << e.allocations.size() << " patches=" << e.patches.size()
                 << " broadcast=" << e.broadcast.size() << " sequence=" << e.render_cb_sequence
                 << " flags=" << hex(e.flags);
          } else if constexpr (std::is_same_v<T, dp2::CapUnlock>) {
            line << "unlock surface " << e.handle << " (" << e.size << " bytes)";
          } else if constexpr (std::is_same_v<T, dp2::CapRename>) {
            line << "rename surface " << e.handle;
          } else if constexpr (std::is_same_v<T, dp2::CapFlipChain>) {
            line << "flip chain " << e.chain << ":";
            for (DWORD s : e.surfaces) line << " " << s;
          } else if constexpr (std::is_same_v<T, dp2::CapFlip>) {
            line << "flip chain " << e.chain;
          } else if constexpr (std::is_same_v<T, dp2::CapEnd>) {
            line << "end";
          }
        },
        rec.event);
    if (body == "\x01") continue;
    std::printf("%s\n%s", line.str().c_str(), body.c_str());
  }
  return 0;
}
