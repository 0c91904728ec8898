/* The smallest C host: a device, an 8x8 target, one DP2 CLEAR, read a pixel back. */
#include <stdio.h>
#include <string.h>

#include "dp2/dp2.h"

int main(void) {
  dp2_device* dev = NULL;
  dp2_surface_desc rt, cmd;
  dp2_context_desc cd;
  ULONG_PTR ctx = 0;
  D3DHAL_DRAWPRIMITIVES2DATA data;
  unsigned char stream[sizeof(D3DHAL_DP2COMMAND) + sizeof(D3DHAL_DP2CLEAR)];
  D3DHAL_DP2COMMAND header;
  D3DHAL_DP2CLEAR clear;
  void* bytes = NULL;
  size_t size = 0;
  uint32_t px = 0;

  if (dp2_version() != DP2_VERSION) return 2;
  if (dp2_device_create(NULL, &dev) != DP2_OK) return 3;

  memset(&rt, 0, sizeof rt);
  rt.size = sizeof rt;
  rt.kind = DP2_SURFACE_RENDER_TARGET;
  rt.format = D3DFMT_X8R8G8B8;
  rt.width = rt.height = 8;
  memset(&cmd, 0, sizeof cmd);
  cmd.size = sizeof cmd;
  cmd.kind = DP2_SURFACE_COMMAND_BUFFER;
  cmd.size_bytes = sizeof stream;
  memset(&cd, 0, sizeof cd);
  cd.size = sizeof cd;
  cd.interface_version = 3;
  cd.render_target = 1;
  if (dp2_surface_create(dev, 1, &rt) != DP2_OK || dp2_surface_create(dev, 2, &cmd) != DP2_OK ||
      dp2_context_create(dev, &cd, &ctx) != DP2_OK)
    return 4;

  memset(&header, 0, sizeof header);
  header.bCommand = D3DDP2OP_CLEAR;
  header.wStateCount = 1;
  memset(&clear, 0, sizeof clear);
  clear.dwFlags = D3DCLEAR_TARGET;
  clear.dwFillColor = 0xFF336699u;
  clear.Rects[0].right = clear.Rects[0].bottom = 8;
  memcpy(stream, &header, sizeof header);
  memcpy(stream + sizeof header, &clear, sizeof clear);
  if (dp2_surface_bytes(dev, 2, &bytes, &size) != DP2_OK || size < sizeof stream) return 5;
  memcpy(bytes, stream, sizeof stream);

  memset(&data, 0, sizeof data);
  data.dwhContext = ctx;
  data.lpDDCommands = 2;
  data.dwCommandLength = sizeof stream;
  data.dwVertexType = D3DFVF_XYZRHW | D3DFVF_DIFFUSE; /* the non-TnL FVF rule, even without vertices */
  data.dwVertexSize = 20;
  if (dp2_draw_primitives2(dev, &data) != DDHAL_DRIVER_HANDLED || data.ddrval != DD_OK) {
    fprintf(stderr, "DrawPrimitives2: %s at %u\n", dp2_result_name(data.ddrval), (unsigned)data.dwErrorOffset);
    return 6;
  }
  if (dp2_surface_bytes(dev, 1, &bytes, &size) != DP2_OK) return 7;
  memcpy(&px, (const unsigned char*)bytes + 4 * (8 * 3 + 5), sizeof px);
  printf("dp2 %s: pixel (5,3) = %08X\n", dp2_version_string(), (unsigned)px);
  dp2_device_destroy(dev);
  return (px & 0x00FFFFFFu) == 0x336699u ? 0 : 8;
}
