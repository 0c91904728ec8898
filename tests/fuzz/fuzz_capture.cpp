// libFuzzer target: the .dp2c capture reader, then a replay of what it accepted under
// strict limits (small surfaces and video memory, few calls, one render thread).
//
// Invariants checked (docs/capture-format.md, "Errors"): the reader either accepts the
// input or names an offset inside it; ASan/UBSan stay quiet through reading and replay.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "dp2/capture.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* input, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(input), size);
  for (const bool lenient : {false, true}) {
    dp2::CaptureReadOptions read;
    read.allow_missing_end = lenient;
    dp2::CaptureFile file;
    std::string error;
    if (!dp2::read_capture(bytes, file, &error, read)) {
      // "offset N: ..." with N within the input (N == size: it ended early).
      unsigned long long offset = 0;
      if (std::sscanf(error.c_str(), "offset %llu: ", &offset) != 1 || offset > size) {
        std::fprintf(stderr, "dp2_fuzz_capture: bad error text '%s'\n", error.c_str());
        std::abort();
      }
      continue;
    }
    dp2::ReplayOptions options;
    options.render_threads = 1;
    options.video_memory_size = std::uint64_t{8} << 20;
    options.max_surface_bytes = std::uint64_t{256} << 10;
    options.max_surface_dimension = 256;
    options.max_user_vertex_bytes = std::uint64_t{64} << 10;
    options.max_calls = 16;
    dp2::ReplayResult result;
    dp2::replay_capture(file, options, result);
    if (!result.ok && result.error.rfind("offset ", 0) != 0) {
      std::fprintf(stderr, "dp2_fuzz_capture: replay error without an offset: '%s'\n", result.error.c_str());
      std::abort();
    }
    break;  // the strict read passed: the lenient one would replay the same
  }
  return 0;
}
