/* c_embed — dp2 embedded in a C program the way an emulator would do it.
 *
 * The "emulator" owns the video memory (one VRAM block handed to the device), creates a
 * flip chain (front + back buffer), and each frame:
 *   1. writes a D3dDrawPrimitives2 command buffer and three vertices by hand into surfaces
 *      it locked (viewport, clear, one triangle: the structures of dp2/ddi.h),
 *   2. calls dp2_draw_primitives2, then dp2_flip,
 *   3. polls the front buffer as its display code would at vertical blank, and prints a
 *      checksum and the pixel under the triangle's centre.
 *
 * Compiled as C11 (-Wall -Wextra -Wpedantic); links the C++ library dp2 (and its C++
 * runtime). Run: c_embed [frames] [out.png] [capture.dp2c]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dp2/dp2.h"

enum {
  kWidth = 320,
  kHeight = 240,
  kFront = 1, /* surface handles: ours to choose, 0 is never valid */
  kBack = 2,
  kCommands = 3,
  kVertices = 4,
  kCommandBytes = 4096,
  kVramBytes = 8 << 20
};

/* D3DFVF_XYZRHW | D3DFVF_DIFFUSE, 20 bytes (FVF order: position, rhw, diffuse). */
typedef struct Vertex {
  float x, y, z, rhw;
  D3DCOLOR diffuse;
} Vertex;
#define VERTEX_FVF (D3DFVF_XYZRHW | D3DFVF_DIFFUSE)

/* Appends one D3DHAL_DP2COMMAND and its payload; returns the new write position. */
static size_t put_command(unsigned char* buf, size_t at, BYTE op, WORD count, const void* payload,
                          size_t payload_size) {
  D3DHAL_DP2COMMAND cmd;
  memset(&cmd, 0, sizeof cmd);
  cmd.bCommand = op;
  cmd.wStateCount = count; /* wPrimitiveCount for primitive opcodes: one union */
  memcpy(buf + at, &cmd, sizeof cmd);
  memcpy(buf + at + sizeof cmd, payload, payload_size);
  return at + sizeof cmd + payload_size;
}

/* Builds viewport + clear + TRIANGLELIST(1) into `buf`; returns the stream length. */
static size_t build_frame(unsigned char* buf, unsigned frame) {
  size_t at = 0;
  D3DHAL_DP2VIEWPORTINFO viewport = {0, 0, kWidth, kHeight};
  D3DHAL_DP2CLEAR clear;
  D3DHAL_DP2TRIANGLELIST triangles = {0}; /* wVStart */

  at = put_command(buf, at, D3DDP2OP_VIEWPORTINFO, 1, &viewport, sizeof viewport);

  memset(&clear, 0, sizeof clear);
  clear.dwFlags = D3DCLEAR_TARGET;
  clear.dwFillColor = 0xFF000000u | (DWORD)((frame * 40u) & 0xFFu); /* a blue that changes */
  clear.dvFillDepth = 1.0f;
  clear.Rects[0].right = kWidth; /* one rectangle: the whole target */
  clear.Rects[0].bottom = kHeight;
  at = put_command(buf, at, D3DDP2OP_CLEAR, 1, &clear, sizeof clear);

  at = put_command(buf, at, D3DDP2OP_TRIANGLELIST, 1, &triangles, sizeof triangles);
  return at;
}

/* Screen-space vertices, clockwise on screen (the default cull mode, D3DCULL_CCW, keeps
 * them). The triangle moves right by 8 pixels a frame. */
static void build_vertices(Vertex* v, unsigned frame) {
  const float dx = (float)(frame * 8u);
  const Vertex tri[3] = {
      {100.0f + dx, 20.0f, 0.5f, 1.0f, 0xFFFF0000u},
      {180.0f + dx, 200.0f, 0.5f, 1.0f, 0xFF00FF00u},
      {20.0f + dx, 200.0f, 0.5f, 1.0f, 0xFF0000FFu},
  };
  memcpy(v, tri, sizeof tri);
}

/* Locks a whole surface for writing (Discard: the GPU may still read the old contents). */
static void* lock_surface(dp2_device* dev, DWORD surface) {
  D3DDDIARG_LOCK lock;
  dp2_result r;
  memset(&lock, 0, sizeof lock);
  lock.hResource = (HANDLE)(uintptr_t)surface;
  lock.Flags.Discard = 1;
  r = dp2_lock(dev, &lock);
  if (r != DP2_OK) {
    fprintf(stderr, "lock %u: %s\n", (unsigned)surface, dp2_result_name(r));
    return NULL;
  }
  return lock.pSurfData;
}

static void unlock_surface(dp2_device* dev, DWORD surface) {
  D3DDDIARG_UNLOCK unlock;
  memset(&unlock, 0, sizeof unlock);
  unlock.hResource = (HANDLE)(uintptr_t)surface;
  dp2_unlock(dev, &unlock);
}

/* FNV-1a over the visible pixels (not the pitch padding). */
static uint32_t checksum(const dp2_front_buffer* fb) {
  uint32_t h = 2166136261u;
  uint32_t y, x;
  for (y = 0; y < fb->height; ++y) {
    const unsigned char* row = (const unsigned char*)fb->data + (size_t)y * fb->pitch;
    for (x = 0; x < fb->width * 4u; ++x) h = (h ^ row[x]) * 16777619u;
  }
  return h;
}

static uint32_t pixel(const dp2_front_buffer* fb, uint32_t x, uint32_t y) {
  uint32_t p;
  memcpy(&p, (const unsigned char*)fb->data + (size_t)y * fb->pitch + (size_t)x * 4u, sizeof p);
  return p;
}

#define CHECK(call)                                                                   \
  do {                                                                                \
    dp2_result r_ = (call);                                                           \
    if (r_ != DP2_OK) {                                                               \
      fprintf(stderr, "%s:%d: %s -> %s (0x%08X)\n", __FILE__, __LINE__, #call,        \
              dp2_result_name(r_), (unsigned)r_);                                     \
      goto done;                                                                      \
    }                                                                                 \
  } while (0)

int main(int argc, char** argv) {
  const unsigned frames = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 4u;
  const char* png = argc > 2 ? argv[2] : NULL;
  const char* capture = argc > 3 ? argv[3] : NULL;
  int status = 1;
  unsigned frame;
  /* The emulator's VRAM: page-aligned, owned by the host, handed to the device. */
  void* vram = aligned_alloc(4096, kVramBytes);
  dp2_device* dev = NULL;
  dp2_device_desc desc;
  dp2_surface_desc rt, buffer;
  dp2_context_desc ctx_desc;
  ULONG_PTR context = 0;
  DWORD chain = 0;
  const DWORD chain_surfaces[2] = {kFront, kBack};

  printf("dp2 %s (header %s)\n", dp2_version_string(), DP2_VERSION_STRING);
  if (!vram) return 1;

  memset(&desc, 0, sizeof desc);
  desc.size = sizeof desc;
  desc.video_memory = vram;
  desc.video_memory_size = kVramBytes;
  desc.render_threads = 0; /* one per core; a host pool goes in desc.executor */
  CHECK(dp2_device_create(&desc, &dev));
  if (capture) CHECK(dp2_capture_start(dev, capture)); /* before any surface: dp2replay runs it */

  memset(&rt, 0, sizeof rt);
  rt.size = sizeof rt;
  rt.kind = DP2_SURFACE_RENDER_TARGET;
  rt.format = D3DFMT_X8R8G8B8;
  rt.width = kWidth;
  rt.height = kHeight;
  CHECK(dp2_surface_create(dev, kFront, &rt));
  CHECK(dp2_surface_create(dev, kBack, &rt));
  CHECK(dp2_flip_chain_create(dev, chain_surfaces, 2, &chain));

  memset(&buffer, 0, sizeof buffer);
  buffer.size = sizeof buffer;
  buffer.kind = DP2_SURFACE_COMMAND_BUFFER;
  buffer.size_bytes = kCommandBytes;
  CHECK(dp2_surface_create(dev, kCommands, &buffer));
  buffer.kind = DP2_SURFACE_VERTEX_BUFFER;
  buffer.size_bytes = 3 * sizeof(Vertex);
  CHECK(dp2_surface_create(dev, kVertices, &buffer));

  memset(&ctx_desc, 0, sizeof ctx_desc);
  ctx_desc.size = sizeof ctx_desc;
  ctx_desc.interface_version = 3; /* DX7 */
  ctx_desc.render_target = kBack; /* the back buffer keeps its handle across flips */
  CHECK(dp2_context_create(dev, &ctx_desc, &context));

  for (frame = 0; frame < frames; ++frame) {
    D3DHAL_DRAWPRIMITIVES2DATA dp2;
    dp2_front_buffer fb;
    dp2_result r;
    size_t length;
    unsigned char* commands = (unsigned char*)lock_surface(dev, kCommands);
    Vertex* vertices;
    if (!commands) goto done;
    length = build_frame(commands, frame);
    unlock_surface(dev, kCommands);
    vertices = (Vertex*)lock_surface(dev, kVertices);
    if (!vertices) goto done;
    build_vertices(vertices, frame);
    unlock_surface(dev, kVertices);

    memset(&dp2, 0, sizeof dp2);
    dp2.dwhContext = context;
    dp2.dwVertexType = VERTEX_FVF;
    dp2.lpDDCommands = kCommands;
    dp2.dwCommandLength = (DWORD)length;
    dp2.lpDDVertex = kVertices;
    dp2.dwVertexLength = 3;
    dp2.dwVertexSize = sizeof(Vertex); /* shares storage with ddrval: set before each call */
    if (dp2_draw_primitives2(dev, &dp2) != DDHAL_DRIVER_HANDLED || dp2.ddrval != DD_OK) {
      fprintf(stderr, "frame %u: DrawPrimitives2 ddrval %s at offset %u\n", frame, dp2_result_name(dp2.ddrval),
              (unsigned)dp2.dwErrorOffset);
      goto done;
    }
    CHECK(dp2_flip(dev, chain));

    /* The display side, at "vertical blank": take the frame when the flip has completed. */
    memset(&fb, 0, sizeof fb);
    fb.size = sizeof fb;
    while ((r = dp2_poll_frame(dev, chain, &fb)) == DP2_S_FALSE) CHECK(dp2_wait_idle(dev));
    CHECK(r);
    printf("frame %llu: %ux%u checksum %08X centre %08X corner %08X\n", (unsigned long long)fb.frame,
           (unsigned)fb.width, (unsigned)fb.height, (unsigned)checksum(&fb),
           (unsigned)pixel(&fb, 100u + frame * 8u, 140u), (unsigned)pixel(&fb, 2u, 2u));
  }
  if (png) CHECK(dp2_write_png(dev, kFront, png, 0, context));
  if (capture) CHECK(dp2_capture_stop(dev));
  status = 0;

done:
  if (dev) {
    dp2_context_destroy(dev, context);
    dp2_device_destroy(dev); /* waits for the GPU worker; VRAM is free to go after it */
  }
  free(vram);
  return status;
}
