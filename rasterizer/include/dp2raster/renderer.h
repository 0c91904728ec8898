// The rasterizer's entry points. A Renderer collects a scene — clears and draws, in
// submission order — set up and binned into screen tiles, then rasterizes the tiles in
// parallel on flush(). One tile is owned by one thread at a time, and inside a tile the
// commands run in submission order, so the result does not depend on the thread count
// (ARCHITECTURE.md, "Rules that keep it fast and safe").
//
// Threads: begin/clear/draw/flush are called from one thread (the device's); tiles run
// on the executor's workers during flush().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "dp2raster/pipeline.h"

namespace dp2::raster {

// The instruction sets the SIMD triangle kernels are compiled for. Every one gives the
// same bytes; kAuto picks the best the CPU runs.
enum class Isa : std::uint8_t { kAuto, kScalar, kSse41, kAvx2, kNeon, kAvx512 };
Isa best_isa() noexcept;
// The instruction set the kernels use when `requested` is asked for (kAuto or one the CPU
// lacks: the best it has).
Isa resolve_isa(Isa requested) noexcept;
// "auto", "scalar", "sse41", "avx2", "avx512", "neon": also the names the device's
// simd_target_from_name reads and its tools take (device.cpp builds on this table).
const char* isa_name(Isa isa) noexcept;

// Kernel keys counted in RendererStats::kernel_triangles: the eight SIMD block-kernel
// variants (bit 0 depth test, bit 1 texture stage, bit 2 blending), then the scalar
// pipeline that takes every other state.
inline constexpr std::size_t kKernelKeyCount = 9;
const char* kernel_key_name(std::size_t key) noexcept;

struct RendererStats {
  std::uint64_t triangles_binned = 0;
  std::uint64_t triangles_culled = 0;       // back-facing or zero area
  std::uint64_t primitives_rejected = 0;    // NaN / infinite / beyond the guard band
  // Draws and clears the renderer refused, their state unsafe to honour (Renderer::draw
  // and ::clear say which).
  std::uint64_t commands_rejected = 0;
  std::uint64_t pixels_shaded = 0;
  std::uint64_t tiles_rasterized = 0;
  std::uint64_t kernel_triangles[kKernelKeyCount] = {};  // triangles set up per kernel key
};

struct ClearCommand {
  ImageView color, depth;
  // Already clipped to the targets. A rect that is negative or reaches past
  // kMaxSurfaceDimension, or a target with a format and pixels but no memory or a pitch
  // shorter than a row, clears nothing (RendererStats::commands_rejected).
  Rect rect;
  bool clear_color = false, clear_depth = false, clear_stencil = false;
  std::uint32_t color_raw = 0;  // in the target's format
  std::uint32_t depth_value = 0, stencil_value = 0;
};

// A host's thread pool, for embedders that own their threads (ARCHITECTURE.md: "threads
// belong to the host"). parallel_for must call task(task_context, i) once for every i in
// [0, count) — on any threads, in any order — and return when all calls have returned.
struct HostExecutor {
  void* user = nullptr;
  void (*parallel_for)(void* user, std::size_t count, void (*task)(void* task_context, std::size_t index),
                       void* task_context) = nullptr;
};

// A draw's vertex buffer as the rasterizer reads it: fetch(context, first, count, out)
// writes vertices [first, first + count) to out[0, count): every field but the texture
// coordinate sets from `sets` on, which arrive zero and which it leaves alone (clearing
// 128 bytes a vertex was a third of the fetch for a draw without texture coordinates).
// It is called on any render thread, several at once, while Renderer::draw runs, and
// must only read.
struct VertexFetch {
  const void* context = nullptr;
  void (*fetch)(const void* context, std::uint32_t first, std::uint32_t count, Vertex* out) = nullptr;
  std::uint32_t count = 0;                   // vertices in the buffer
  std::uint32_t sets = kMaxTextureCoordSets;  // texture coordinate sets fetch writes
};

class Renderer {
 public:
  // threads: 0 = the executor's default (one per core), 1 = run every tile on the calling
  // thread. A host executor (parallel_for set) replaces dp2's own scheduler — TBB, or
  // dp2's thread pool in a build without TBB — for the tiles (executor.h).
  explicit Renderer(unsigned threads = 0, HostExecutor host = {});
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  void clear(const ClearCommand& clear);

  // Draws `primitive_count` primitives of `topology` from `vertices` (through `indices`
  // when not empty). `edge_flags`: triangle lists one word per triangle (bits 0–2: edges
  // v0v1, v1v2, v2v0); fans one word in the D3DHAL_DP2TRIANGLEFAN_IMM layout; empty = all
  // edges. The DrawState must stay alive until flush() returns; the vertices, indices and
  // edge flags only until draw() returns (setup is done by then).
  //
  // The setup chunks fetch the vertices they use themselves, a batch at a time into
  // their own small scratch, on whichever thread sets the chunk up: a large draw's
  // vertices are converted in parallel and never all at once. The caller guarantees
  // every index is below vertices.count and, without indices, that the vertices cover
  // every primitive (a draw that does not is dropped). A topology outside Topology, a
  // state with stage_count past kMaxTextureStages, a clip that is negative or reaches
  // past kMaxSurfaceDimension, a target with a format and pixels but no memory, or a
  // surface whose pitch is shorter than a row of its format (a texture's levels: of the
  // texture's format) draws nothing and is counted in RendererStats::commands_rejected.
  void draw(const DrawState& state, Topology topology, std::uint32_t primitive_count, const VertexFetch& vertices,
            std::span<const std::uint32_t> indices, std::span<const std::uint32_t> edge_flags = {});
  // The same, from vertices already converted.
  void draw(const DrawState& state, Topology topology, std::uint32_t primitive_count,
            std::span<const Vertex> vertices, std::span<const std::uint32_t> indices,
            std::span<const std::uint32_t> edge_flags = {});

  // Rasterizes everything queued and empties the scene.
  void flush();

  const RendererStats& stats() const noexcept;

  // Debug dispatch: every draw uses the generic fragment kernel (all features compiled
  // in) instead of the one specialised for its state. Images must not change; tests
  // compare the two (STYLE.md §13, llvmpipe's dispatch_tri_debug).
  void set_generic_kernels(bool generic) noexcept;

  // The instruction set of the SIMD kernels (kAuto by default); one the CPU cannot run
  // falls back to the best it can. Takes effect at the next draw.
  void set_isa(Isa isa) noexcept;
  Isa isa() const noexcept;

  // Set-up primitives a scene holds before it rasterizes what it has and carries on
  // (default kDefaultScenePrimitiveBudget, ~200 bytes each): the bound on the scene's
  // memory whatever the size of a draw. Images do not depend on it.
  static constexpr std::size_t kDefaultScenePrimitiveBudget = std::size_t{1} << 19;
  void set_scene_primitive_budget(std::size_t primitives) noexcept;

  struct Scene;  // the rasterizer room's own (scene.h)

 private:
  std::unique_ptr<Scene> scene_;
};

}  // namespace dp2::raster
