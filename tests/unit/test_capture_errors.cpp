// Bad captures: cut short at every byte, a chunk size that overflows, an unknown version,
// ranges outside their surface. Each gets "offset N: <what>", never a crash (the ASan
// build runs these too).
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "dp2/capture.h"
#include "dp2/device.h"
#include "dp2/stream_writer.h"

namespace {

// A small capture: an 8×8 target, a clear and a triangle from user memory.
std::vector<std::byte> small_capture() {
  // One file per process: ctest runs each test case as its own process, in parallel.
  const std::string path =
      (std::filesystem::temp_directory_path() / ("dp2_small_capture_" + std::to_string(::getpid()) + ".dp2c")).string();
  {
    dp2::Device dev;
    auto rec = dp2::start_capture(dev, path);
    REQUIRE(rec);
    REQUIRE(dev.create_surface(1, {dp2::SurfaceKind::kRenderTarget, D3DFMT_X8R8G8B8, 8, 8}) == D3D_OK);
    ULONG_PTR ctx = 0;
    REQUIRE(dev.create_context({.interface_version = 3, .render_target = 1}, ctx) == D3D_OK);
    dp2::StreamWriter w;
    w.viewport(0, 0, 8, 8).clear(D3DCLEAR_TARGET, 0xFF00FF00, 1.0f, 0, {}).triangle_list(0, 1);
    dp2::VertexWriter v(D3DFVF_XYZRHW | D3DFVF_DIFFUSE);
    v.tl(0, 0, 0.5f, 1, 0xFFFF0000).tl(8, 0, 0.5f, 1, 0xFFFF0000).tl(0, 8, 0.5f, 1, 0xFFFF0000);
    dp2::Dp2Call call(w, v.bytes(), {.user_memory_vertices = true, .vertex_type = D3DFVF_XYZRHW | D3DFVF_DIFFUSE});
    REQUIRE(call.upload(dev, ctx) == D3D_OK);
    call.run(dev);
    REQUIRE(call.data.ddrval == D3D_OK);
    REQUIRE(rec->stop());
  }
  std::vector<std::byte> bytes;
  REQUIRE(dp2::load_capture_bytes(path, bytes, nullptr));
  std::filesystem::remove(path);
  return bytes;
}

std::string read_error(std::span<const std::byte> bytes) {
  dp2::CaptureFile file;
  std::string error;
  if (dp2::read_capture(bytes, file, &error)) return "";
  return error;
}

// Offsets of each chunk header.
std::vector<std::size_t> chunk_offsets(std::span<const std::byte> bytes) {
  std::vector<std::size_t> out;
  for (std::size_t pos = 16; pos + 16 <= bytes.size();) {
    out.push_back(pos);
    std::uint64_t size = 0;
    std::memcpy(&size, bytes.data() + pos + 8, 8);
    pos += 16 + static_cast<std::size_t>(size);
  }
  return out;
}

}  // namespace

TEST_CASE("capture errors: the small capture itself is good") {
  const auto bytes = small_capture();
  CHECK(read_error(bytes).empty());
  dp2::ReplayResult r;
  CHECK(dp2::replay_capture(std::span<const std::byte>(bytes), {}, r));
  CHECK(r.frames == 1);
}

TEST_CASE("capture errors: truncation at every byte is a clean error naming an offset") {
  const auto bytes = small_capture();
  REQUIRE(bytes.size() > 100);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    CAPTURE(n);
    const std::span<const std::byte> cut(bytes.data(), n);
    const std::string error = read_error(cut);
    REQUIRE(error.rfind("offset ", 0) == 0);
    dp2::ReplayResult r;
    CHECK_FALSE(dp2::replay_capture(cut, {}, r));
    CHECK(r.error == error);
  }
  // With allow_missing_end, a cut at a chunk boundary is accepted, a cut inside one is not.
  dp2::CaptureReadOptions lenient;
  lenient.allow_missing_end = true;
  const auto offsets = chunk_offsets(bytes);
  dp2::CaptureFile file;
  std::string error;
  CHECK(dp2::read_capture(std::span<const std::byte>(bytes.data(), offsets.back()), file, &error, lenient));
  CHECK_FALSE(dp2::read_capture(std::span<const std::byte>(bytes.data(), offsets.back() - 1), file, &error, lenient));
}

TEST_CASE("capture errors: a chunk size that overflows") {
  auto bytes = small_capture();
  const auto offsets = chunk_offsets(bytes);
  REQUIRE(offsets.size() > 2);
  for (const std::uint64_t size : {~std::uint64_t{0}, ~std::uint64_t{0} - 15, std::uint64_t{1} << 63,
                                   std::uint64_t{bytes.size()}}) {
    CAPTURE(size);
    auto bad = bytes;
    std::memcpy(bad.data() + offsets[1] + 8, &size, 8);
    const std::string error = read_error(bad);
    CHECK(error.rfind("offset " + std::to_string(offsets[1] + 8) + ": chunk '", 0) == 0);
    CHECK(error.find("exceeds") != std::string::npos);
  }
}

TEST_CASE("capture errors: unknown version, bad magic, bad header size") {
  const auto bytes = small_capture();
  auto v2 = bytes;
  v2[8] = std::byte{2};
  CHECK(read_error(v2) == "offset 8: unsupported capture version 2.0 (this reader knows 1.x)");
  auto minor = bytes;
  minor[10] = std::byte{7};  // a newer minor version is read
  CHECK(read_error(minor).empty());
  auto magic = bytes;
  magic[3] = std::byte{'X'};
  CHECK(read_error(magic) == "offset 3: not a dp2 capture (bad magic)");
  auto header = bytes;
  header[12] = std::byte{3};
  CHECK(read_error(header).rfind("offset 12: header_size 3", 0) == 0);
}

TEST_CASE("capture errors: corrupt payloads") {
  const auto bytes = small_capture();
  dp2::CaptureFile file;
  std::string error;
  REQUIRE(dp2::read_capture(bytes, file, &error));
  // A DATA chunk whose range starts beyond the surface; a DP2C whose command byte count
  // overflows its payload; a FLIP chain with 2^32-1 surfaces.
  for (const auto& rec : file.records) {
    if (std::holds_alternative<dp2::CapContents>(rec.event) &&
        !std::get<dp2::CapContents>(rec.event).ranges.empty()) {
      auto bad = bytes;
      const std::uint64_t huge = ~std::uint64_t{0} - 4;
      std::memcpy(bad.data() + rec.offset + 16 + 16, &huge, 8);
      const std::string e = read_error(bad);
      CHECK(e.rfind("offset " + std::to_string(rec.offset + 16 + 32) + ": chunk 'DATA': range 0", 0) == 0);
    }
    if (std::holds_alternative<dp2::CapDrawPrimitives2>(rec.event)) {
      auto bad = bytes;
      const std::uint32_t huge = 0xFFFFFFF0u;
      std::memcpy(bad.data() + rec.offset + 16 + 28, &huge, 4);  // dwCommandLength
      std::memcpy(bad.data() + rec.offset + 16 + 64, &huge, 4);  // command_bytes
      const std::string e = read_error(bad);
      CHECK(e.find("chunk 'DP2C'") != std::string::npos);
      CHECK(e.rfind("offset ", 0) == 0);
    }
  }
  // The first chunk must be DEVC.
  auto no_device = bytes;
  no_device[16] = std::byte{'X'};
  CHECK(read_error(no_device) == "offset 16: the first chunk must be DEVC, not 'XEVC'");
}
