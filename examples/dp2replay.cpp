// dp2replay — replay a .dp2c capture (docs/capture-format.md) into a fresh dp2::Device,
// write frames to PNG, compare them with a directory of reference frames, probe pixels.
//
//   dp2replay session.dp2c -o out --frames 0-9,20      out/frame_00000.png ...
//   dp2replay session.dp2c -o out --every-draw         out/draw_00000.png ... too
//   dp2replay session.dp2c --compare ref -o out        diff report, exit 1 on a difference
//   dp2replay tri.dp2c --probe 32,32=FF0000            exit 1 unless the last frame's pixel is red
//
// A frame is the calls up to and including a Flip; in a capture without flips, each
// DrawPrimitives2 / Render call. Exit status: 0 success, 1 a difference or probe mismatch,
// 2 a bad capture, bad arguments or an I/O error.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#include <stb_image.h>

#include "dp2/capture.h"
#include "dp2/device.h"
#include "dp2/png.h"

namespace {

namespace fs = std::filesystem;

// "0-3,7,10-" → inclusive ranges; an open end runs to the last frame.
struct Ranges {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
  bool contains(std::uint64_t i) const {
    if (spans.empty()) return true;
    return std::any_of(spans.begin(), spans.end(), [&](const auto& s) { return i >= s.first && i <= s.second; });
  }
};

std::optional<Ranges> parse_ranges(const std::string& text) {
  Ranges r;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    if (part.empty()) return std::nullopt;
    try {
      const auto dash = part.find('-');
      std::size_t used = 0;
      if (dash == std::string::npos) {
        const std::uint64_t v = std::stoull(part, &used);
        if (used != part.size()) return std::nullopt;
        r.spans.emplace_back(v, v);
      } else {
        const std::uint64_t a = std::stoull(part.substr(0, dash), &used);
        if (used != dash) return std::nullopt;
        std::uint64_t b = ~std::uint64_t{0};
        if (dash + 1 < part.size()) {
          b = std::stoull(part.substr(dash + 1), &used);
          if (used != part.size() - dash - 1) return std::nullopt;
        }
        if (b < a) return std::nullopt;
        r.spans.emplace_back(a, b);
      }
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return r;
}

struct Probe {
  std::uint32_t x = 0, y = 0;
  std::uint32_t rgb = 0;
  std::string text;
};

std::optional<Probe> parse_probe(const std::string& text) {
  Probe p;
  p.text = text;
  unsigned x = 0, y = 0, rgb = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%u,%u=%6x%c", &x, &y, &rgb, &tail) != 3) return std::nullopt;
  p.x = x;
  p.y = y;
  p.rgb = rgb;
  return p;
}

// An RGBA8 image decoded from a PNG (ours, or a reference file).
struct Rgba {
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;
};

std::optional<Rgba> decode(std::span<const std::byte> png) {
  Rgba out;
  int channels = 0;
  stbi_uc* data = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(png.data()), static_cast<int>(png.size()),
                                        &out.width, &out.height, &channels, 4);
  if (!data) return std::nullopt;
  out.pixels.assign(data, data + std::size_t(out.width) * std::size_t(out.height) * 4);
  stbi_image_free(data);
  return out;
}

std::optional<std::vector<std::byte>> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(chars.size());
  std::transform(chars.begin(), chars.end(), out.begin(), [](char c) { return std::byte(static_cast<unsigned char>(c)); });
  return out;
}

std::string frame_name(const char* prefix, std::uint64_t index) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s_%05llu.png", prefix, static_cast<unsigned long long>(index));
  return buf;
}

class Progress {
 public:
  Progress(std::uint64_t total, bool enabled) : total_(total), enabled_(enabled && total >= 2) {}
  void update(std::uint64_t done) {
    if (!enabled_) return;
    const int width = 40;
    const int filled = static_cast<int>(width * done / total_);
    std::fprintf(stderr, "\r[%.*s%*s] %llu/%llu frames", filled, "########################################",
                 width - filled, "", static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_));
    if (done == total_) std::fputc('\n', stderr);
    std::fflush(stderr);
  }
  void finish() {
    if (enabled_) std::fputc('\n', stderr);
    enabled_ = false;
  }

 private:
  std::uint64_t total_;
  bool enabled_;
};

bool stderr_is_terminal() {
#if defined(__unix__) || defined(__APPLE__)
  return isatty(2) != 0;
#else
  return false;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dp2replay — replay a dp2 capture (.dp2c), write frames to PNG, compare them with references"};
  std::string capture_path, out_dir, compare_dir, frames_text, isa = "auto";
  unsigned threads = 0;
  bool every_draw = false, alpha = false, partial = false, quiet = false, times = false, progress_flag = false;
  std::vector<std::string> probe_texts;
  app.add_option("capture", capture_path, "The capture file (.dp2c)")->required();
  app.add_option("-o,--out", out_dir, "Directory for frame_NNNNN.png (and draw_NNNNN.png, diff/)");
  app.add_option("--frames", frames_text,
                 "Frames to write or compare, e.g. 0-3,7,10- (default: all). A frame ends at a Flip; in a capture "
                 "without flips, at each DrawPrimitives2 / Render call");
  app.add_flag("--every-draw", every_draw, "Also write each draw's render target as draw_NNNNN.png");
  app.add_option("--threads", threads, "Rendering threads (0 = one per core); images do not depend on it");
  app.add_option("--isa", isa,
                 "Instruction set of the SIMD kernels: " + dp2::simd_target_names() +
                     " (one the CPU lacks falls back to the best it has); images do not depend on it");
  app.add_option("--compare", compare_dir,
                 "Compare each chosen frame with DIR/frame_NNNNN.png; writes diff PNGs and compare-report.txt to "
                 "OUT/diff (or ./dp2replay-diff) and exits 1 on any difference");
  app.add_option("--probe", probe_texts, "X,Y=RRGGBB: the last frame's pixel must have this colour (exit 1 if not)");
  app.add_flag("--alpha", alpha, "Keep alpha in written PNGs");
  app.add_flag("--partial", partial, "Accept a capture without an END chunk (replays its whole chunks)");
  app.add_flag("--times", times, "Print each frame's time");
  app.add_flag("--progress", progress_flag, "Show a progress bar even when stderr is not a terminal");
  app.add_flag("-q,--quiet", quiet, "Print only errors and differences");
  CLI11_PARSE(app, argc, argv);

  Ranges frames;
  if (!frames_text.empty()) {
    const auto r = parse_ranges(frames_text);
    if (!r) {
      std::cerr << "dp2replay: bad --frames '" << frames_text << "' (e.g. 0-3,7,10-)\n";
      return 2;
    }
    frames = *r;
  }
  std::vector<Probe> probes;
  for (const std::string& t : probe_texts) {
    const auto p = parse_probe(t);
    if (!p) {
      std::cerr << "dp2replay: bad --probe '" << t << "' (X,Y=RRGGBB)\n";
      return 2;
    }
    probes.push_back(*p);
  }
  if (every_draw && out_dir.empty()) {
    std::cerr << "dp2replay: --every-draw needs -o DIR\n";
    return 2;
  }

  std::vector<std::byte> bytes;
  std::string error;
  if (!dp2::load_capture_bytes(capture_path, bytes, &error)) {
    std::cerr << "dp2replay: " << error << "\n";
    return 2;
  }
  dp2::CaptureFile capture;
  dp2::CaptureReadOptions read_options;
  read_options.allow_missing_end = partial;
  if (!dp2::read_capture(bytes, capture, &error, read_options)) {
    std::cerr << "dp2replay: " << capture_path << ": " << error << "\n";
    return 2;
  }
  std::error_code ec;
  if (!out_dir.empty()) fs::create_directories(out_dir, ec);
  const fs::path diff_dir = out_dir.empty() ? fs::path("dp2replay-diff") : fs::path(out_dir) / "diff";

  bool io_failed = false, differs = false;
  std::uint64_t compared = 0, differing_frames = 0;
  std::ostringstream report;
  std::vector<std::byte> last_png;
  Progress progress(capture.frames, !quiet && (progress_flag || stderr_is_terminal()));

  dp2::ReplayOptions options;
  options.render_threads = threads;
  options.isa = isa;
  options.read = read_options;
  options.on_draw = [&](const dp2::ReplayFrame& f) {
    if (!every_draw) return true;
    std::string e;
    if (!f.device.write_png(f.render_target, (fs::path(out_dir) / frame_name("draw", f.index)).string(), alpha,
                            f.context, &e)) {
      std::cerr << "dp2replay: draw " << f.index << ": " << e << "\n";
      io_failed = true;
    }
    return true;
  };
  options.on_frame = [&](const dp2::ReplayFrame& f) {
    progress.update(f.index + 1);
    if (times) std::printf("frame %llu: %.3f ms\n", static_cast<unsigned long long>(f.index), f.seconds * 1e3);
    const bool last = f.index + 1 == capture.frames;
    const bool chosen = frames.contains(f.index);
    if (!chosen && !(last && !probes.empty())) return true;
    const std::vector<std::byte> png = dp2::encode_png(f.device.surface_image(f.render_target, f.context), alpha);
    if (png.empty()) {
      std::cerr << "dp2replay: frame " << f.index << ": render target " << f.render_target << " cannot be encoded\n";
      io_failed = true;
      return true;
    }
    if (last) last_png = png;
    if (!chosen) return true;
    const std::string name = frame_name("frame", f.index);
    if (!out_dir.empty()) {
      std::ofstream file(fs::path(out_dir) / name, std::ios::binary);
      file.write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
      if (!file) {
        std::cerr << "dp2replay: cannot write " << (fs::path(out_dir) / name).string() << "\n";
        io_failed = true;
      }
    }
    if (!compare_dir.empty()) {
      ++compared;
      const auto reference_bytes = read_file(fs::path(compare_dir) / name);
      const auto reference = reference_bytes ? decode(*reference_bytes) : std::nullopt;
      const auto current = decode(png);
      if (!reference || !current) {
        report << name << ": no readable reference " << (fs::path(compare_dir) / name).string() << "\n";
        differs = true;
        ++differing_frames;
        return true;
      }
      if (reference->width != current->width || reference->height != current->height) {
        report << name << ": size " << current->width << "x" << current->height << ", reference " << reference->width
               << "x" << reference->height << "\n";
        differs = true;
        ++differing_frames;
        return true;
      }
      std::uint64_t count = 0;
      // Diff image (A8R8G8B8 in memory: B, G, R, A): differing pixels red, the rest a dim grey.
      std::vector<std::byte> diff(current->pixels.size());
      for (std::size_t i = 0; i < current->pixels.size(); i += 4) {
        const bool same = std::equal(current->pixels.begin() + static_cast<std::ptrdiff_t>(i),
                                     current->pixels.begin() + static_cast<std::ptrdiff_t>(i + 4),
                                     reference->pixels.begin() + static_cast<std::ptrdiff_t>(i));
        const auto grey = static_cast<std::uint8_t>(
            (reference->pixels[i] + reference->pixels[i + 1] + reference->pixels[i + 2]) / 12);
        diff[i + 0] = std::byte(same ? grey : 0);
        diff[i + 1] = std::byte(same ? grey : 0);
        diff[i + 2] = std::byte(same ? grey : 255);
        diff[i + 3] = std::byte(255);
        count += same ? 0 : 1;
      }
      report << name << ": " << count << " differing pixels";
      if (count) {
        differs = true;
        ++differing_frames;
        fs::create_directories(diff_dir, ec);
        dp2::PngImage image;
        image.format = D3DFMT_A8R8G8B8;
        image.width = static_cast<std::uint32_t>(current->width);
        image.height = static_cast<std::uint32_t>(current->height);
        image.pitch = image.width * 4;
        image.data = diff.data();
        const fs::path diff_path = diff_dir / ("diff_" + name);
        std::string e;
        if (dp2::write_png(diff_path.string(), image, false, &e))
          report << " (" << diff_path.string() << ")";
        else
          report << " (diff image not written: " << e << ")";
      }
      report << "\n";
    }
    return true;
  };

  dp2::ReplayResult result;
  const bool ok = dp2::replay_capture(capture, options, result);
  progress.finish();
  if (!ok) {
    std::cerr << "dp2replay: " << capture_path << ": " << result.error << "\n";
    return 2;
  }
  if (!quiet) {
    double total = 0, worst = 0;
    for (double s : result.frame_seconds) {
      total += s;
      worst = std::max(worst, s);
    }
    std::printf("%llu frames, %llu calls (%llu failed), %.3f ms total, %.3f ms mean, %.3f ms slowest\n",
                static_cast<unsigned long long>(result.frames), static_cast<unsigned long long>(result.draws),
                static_cast<unsigned long long>(result.failed_calls), total * 1e3,
                result.frames ? total * 1e3 / static_cast<double>(result.frames) : 0.0, worst * 1e3);
  }
  int status = io_failed ? 2 : 0;

  if (!compare_dir.empty()) {
    std::string text = report.str();
    text += std::to_string(compared) + " frames compared, " + std::to_string(differing_frames) + " differ\n";
    if (differs || !quiet) std::fputs(text.c_str(), stdout);
    fs::create_directories(diff_dir, ec);
    std::ofstream(diff_dir / "compare-report.txt") << text;
    if (differs && status == 0) status = 1;
  }

  if (!probes.empty()) {
    const auto image = last_png.empty() ? std::nullopt : decode(last_png);
    if (!image) {
      std::cerr << "dp2replay: --probe: the capture has no frame\n";
      return 2;
    }
    for (const Probe& p : probes) {
      if (p.x >= static_cast<std::uint32_t>(image->width) || p.y >= static_cast<std::uint32_t>(image->height)) {
        std::cerr << "dp2replay: --probe " << p.text << ": outside the " << image->width << "x" << image->height
                  << " frame\n";
        return 2;
      }
      const std::size_t i = (std::size_t(p.y) * std::size_t(image->width) + p.x) * 4;
      const std::uint32_t got = std::uint32_t{image->pixels[i]} << 16 | std::uint32_t{image->pixels[i + 1]} << 8 |
                                image->pixels[i + 2];
      char buf[16];
      std::snprintf(buf, sizeof buf, "%06X", static_cast<unsigned>(got));
      if (got != p.rgb) {
        std::printf("probe %s: got %s — MISMATCH\n", p.text.c_str(), buf);
        if (status == 0) status = 1;
      } else if (!quiet) {
        std::printf("probe %s: ok\n", p.text.c_str());
      }
    }
  }
  return status;
}
