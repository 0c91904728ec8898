/* dp2/gpu_commands.h — the command format of dp2's "GPU": what a command buffer submitted
 * through Render (D3DDDICB_RENDER) holds. The DrawPrimitives2 front end writes it; an
 * embedder may write it too. Every command is validated at submission (Render), so
 * patching and execution cannot fail.
 *
 * A command is a DP2GPU_HEADER followed by its payload; `size` counts both and is a
 * multiple of 8. Surfaces are named by DP2GPU_SURFACE records whose `address` is written
 * at patch time from the patch location list (PatchOffset = the byte offset of `address`,
 * AllocationIndex = the allocation list entry, AllocationOffset = 0), and a DRAW_BUFFER's
 * vertices by its `vertices` address (AllocationOffset = the byte offset of its first vertex).
 *
 * Little-endian, no pointers: the same bytes on every host.
 */
#ifndef DP2_GPU_COMMANDS_H
#define DP2_GPU_COMMANDS_H

#include "dp2/ddi.h"

#ifdef __cplusplus
extern "C" {
#endif

enum DP2GPU_OPCODE {
  DP2GPU_OP_NOP = 0,
  DP2GPU_OP_SET_STATE = 1, /* targets, textures, palettes and the pipeline state for what follows */
  DP2GPU_OP_DRAW = 2,      /* vertices (and indices, edge flags) inline */
  DP2GPU_OP_CLEAR = 3,     /* clear the current targets, rectangles inline */
  DP2GPU_OP_FENCE = 4,     /* the submission's fence id, written by patching */
  DP2GPU_OP_SET_TRANSFORM_LIGHTING = 5, /* fixed-function TnL state for the untransformed DRAWs that follow */
  DP2GPU_OP_DRAW_BUFFER = 6, /* a DRAW whose vertices stay in a vertex buffer; indices, edge flags inline */
  DP2GPU_OP_COUNT
};

typedef struct DP2GPU_HEADER {
  uint32_t op;   /* DP2GPU_OPCODE */
  uint32_t size; /* bytes of header + payload, a multiple of 8 */
} DP2GPU_HEADER;

/* A surface the commands read or write. `address` is 0 (none) until patched. */
typedef struct DP2GPU_SURFACE {
  uint64_t address;
  uint32_t format; /* D3DFORMAT */
  uint32_t width, height, pitch;
  uint32_t levels;
  uint32_t color_key; /* the texture's source colour key, raw bits */
  uint32_t flags;     /* DP2GPU_SURFACE_HAS_COLOR_KEY */
  uint32_t reserved;  /* 0 */
} DP2GPU_SURFACE;
#define DP2GPU_SURFACE_HAS_COLOR_KEY 0x1u

#define DP2GPU_MAX_TEXTURES 8

/* SET_STATE payload: the targets, the stage textures, then `key_size` bytes of pipeline key
 * and `uniforms_size` bytes of draw uniforms (dp2's own layouts, checked by size; a size of
 * 0 selects Direct3D's default state and carries no bytes), then one
 * 256-entry 0xAARRGGBB palette for every bit of `palette_mask` (bit i: texture i, bit 8: the
 * colour target), each 1024 bytes; padding to 8. */
typedef struct DP2GPU_SET_STATE {
  DP2GPU_SURFACE color;
  DP2GPU_SURFACE depth;
  DP2GPU_SURFACE textures[DP2GPU_MAX_TEXTURES];
  uint32_t key_size;
  uint32_t uniforms_size;
  uint32_t palette_mask;
  uint32_t palette_alpha_mask; /* bit i: palette i carries alpha (DDRAWIPAL_ALPHA) */
} DP2GPU_SET_STATE;

enum DP2GPU_TOPOLOGY {
  DP2GPU_POINTLIST = 0,
  DP2GPU_LINELIST,
  DP2GPU_LINESTRIP,
  DP2GPU_TRIANGLELIST,
  DP2GPU_TRIANGLESTRIP,
  DP2GPU_TRIANGLEFAN
};

/* DRAW payload, then vertex_count × stride vertex bytes (FVF layout), index_count uint32
 * indices (< vertex_count), edge_count uint32 edge-flag words; padding to 8. */
typedef struct DP2GPU_DRAW {
  uint32_t topology; /* DP2GPU_TOPOLOGY */
  uint32_t primitive_count;
  uint32_t fvf;
  uint32_t stride;
  uint32_t vertex_count;
  uint32_t index_count; /* 0 = vertices in order */
  uint32_t edge_count;
  uint32_t reserved;
} DP2GPU_DRAW;

/* DRAW_BUFFER payload: the address of the draw's first vertex in a vertex buffer (patched;
 * 0 or an address with fewer than vertex_count × stride bytes behind it skips the draw),
 * then `draw`, then index_count uint32 indices (< vertex_count) and edge_count edge-flag
 * words inline; padding to 8. The buffer is read when the command runs: its allocation is
 * in the submission's allocation list, so a Lock waits for the command (or renames with
 * Discard). */
typedef struct DP2GPU_DRAW_BUFFER {
  uint64_t vertices;
  DP2GPU_DRAW draw;
} DP2GPU_DRAW_BUFFER;

/* CLEAR payload, then rect_count RECTs (none: the viewport); padding to 8. */
typedef struct DP2GPU_CLEAR {
  uint32_t flags; /* D3DCLEAR_* */
  uint32_t color; /* D3DCOLOR */
  float depth;
  uint32_t stencil;
  uint32_t rect_count;
  uint32_t reserved;
} DP2GPU_CLEAR;

/* SET_TRANSFORM_LIGHTING payload: dp2's vertex::TnlState (src/vertex/tnl_state.h; matrices,
 * material, up to 8 enabled D3DLIGHT7s, 6 world-space user clip planes and their enable
 * mask, the TnL render and texture-stage states, viewport and ZRANGE), then its
 * `world_count` (1–256) D3DMATRIX world matrices; padding to 8. Validated by exact size.
 * It stays in effect for the rest of the buffer; a DRAW whose FVF has an untransformed
 * position (XYZ, XYZB1–5, XYZW) is transformed, lit and clipped with it, and is skipped
 * (counted) when the buffer has none before it. */

typedef struct DP2GPU_FENCE {
  uint64_t fence_id; /* written by patching */
} DP2GPU_FENCE;

DP2_STATIC_ASSERT(sizeof(DP2GPU_HEADER) == 8, "DP2GPU_HEADER");
DP2_STATIC_ASSERT(sizeof(DP2GPU_SURFACE) == 40, "DP2GPU_SURFACE");
DP2_STATIC_ASSERT(sizeof(DP2GPU_SET_STATE) == 416, "DP2GPU_SET_STATE");
DP2_STATIC_ASSERT(sizeof(DP2GPU_DRAW) == 32, "DP2GPU_DRAW");
DP2_STATIC_ASSERT(sizeof(DP2GPU_DRAW_BUFFER) == 40, "DP2GPU_DRAW_BUFFER");
DP2_STATIC_ASSERT(sizeof(DP2GPU_CLEAR) == 24, "DP2GPU_CLEAR");
DP2_STATIC_ASSERT(sizeof(DP2GPU_FENCE) == 8, "DP2GPU_FENCE");

#ifdef __cplusplus
}
#endif

#endif /* DP2_GPU_COMMANDS_H */
