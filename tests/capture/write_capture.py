#!/usr/bin/env python3
"""Writes a dp2 capture (.dp2c) from docs/capture-format.md alone, with nothing but the
standard library: a 64x64 X8R8G8B8 render target cleared to 0x204060 and one red triangle
drawn from user-memory vertices, in one DrawPrimitives2 call (so one frame).

    write_capture.py OUT.dp2c

dp2replay OUT.dp2c --probe 32,40=FF0000 --probe 2,2=204060 must then succeed.
"""
import struct
import sys


def chunk(fourcc, payload, flags=0):
    # Chunk header: u32 id (four ASCII bytes), u32 flags, u64 payload size; then the payload.
    assert len(fourcc) == 4
    return fourcc.encode("ascii") + struct.pack("<IQ", flags, len(payload)) + payload


def dp2_command(op, count, payload):
    # D3DHAL_DP2COMMAND: BYTE bCommand, BYTE bReserved, WORD wPrimitiveCount / wStateCount.
    return struct.pack("<BBH", op, 0, count) + payload


D3DDP2OP_TRIANGLELIST = 18
D3DDP2OP_VIEWPORTINFO = 28
D3DDP2OP_CLEAR = 42
D3DCLEAR_TARGET = 0x1
D3DFMT_X8R8G8B8 = 22
FVF = 0x0004 | 0x0040  # D3DFVF_XYZRHW | D3DFVF_DIFFUSE
STRIDE = 20
USERMEMVERTICES = 0x1  # D3DHALDP2_USERMEMVERTICES
KIND_RENDER_TARGET, KIND_COMMAND_BUFFER = 0, 5
RT, CMD, CONTEXT = 1, 2, 1

commands = b"".join([
    dp2_command(D3DDP2OP_VIEWPORTINFO, 1, struct.pack("<4I", 0, 0, 64, 64)),
    # D3DHAL_DP2CLEAR: dwFlags, dwFillColor, dvFillDepth, dwFillStencil, then wCount RECTs
    # (always at least one RECT's worth of bytes, zeroed when the count is 0).
    dp2_command(D3DDP2OP_CLEAR, 0, struct.pack("<IIfI", D3DCLEAR_TARGET, 0xFF204060, 1.0, 0) + bytes(16)),
    dp2_command(D3DDP2OP_TRIANGLELIST, 1, struct.pack("<H", 0)),  # wVStart = 0
])
vertices = b"".join(struct.pack("<4fI", x, y, 0.5, 1.0, 0xFFFF0000) for x, y in ((32, 4), (60, 60), (4, 60)))

out = bytearray()
out += b"DP2CAPT\0" + struct.pack("<HHI", 1, 0, 16)  # magic, version 1.0, header_size
# DEVC: u32 flags, u32 render_threads, u64 video_memory_size (0 = default), u32 pointer_size, u32 reserved
out += chunk("DEVC", struct.pack("<IIQII", 0, 0, 0, 8, 0))
# SURF: handle, kind, format, width, height, mip_levels, u64 size_bytes, flags, color_key
out += chunk("SURF", struct.pack("<6IQ2I", RT, KIND_RENDER_TARGET, D3DFMT_X8R8G8B8, 64, 64, 1, 0, 0, 0))
out += chunk("SURF", struct.pack("<6IQ2I", CMD, KIND_COMMAND_BUFFER, 0, 0, 0, 1, len(commands), 0, 0))
# CTXC: u64 handle, interface_version (3 = DX7), render_target, depth_stencil, flags
out += chunk("CTXC", struct.pack("<Q4I", CONTEXT, 3, RT, 0, 0))
# DP2C: the D3DHAL_DRAWPRIMITIVES2DATA members, call flags, byte counts, then the bytes.
out += chunk("DP2C", struct.pack(
    "<QIIQIIQIIIIIIII",
    CONTEXT, USERMEMVERTICES, FVF,
    CMD, 0, len(commands),
    0, 0, 3,          # lpDDVertex (none: user memory), dwVertexOffset, dwVertexLength
    0, 0,             # dwReqVertexBufSize, dwReqCommandBufSize
    STRIDE, 0,        # dwVertexSize, call_flags
    len(commands), len(vertices)) + commands + vertices)
out += chunk("END ", b"")

with open(sys.argv[1], "wb") as f:
    f.write(out)
