#!/usr/bin/env python3
"""Writes the seed scenes of dp2_fuzz_raster (tests/fuzz/fuzz_raster.cpp) into a directory:

    python3 tests/fuzz/write_raster_seeds.py tests/fuzz/raster-seeds

The committed seeds in tests/fuzz/raster-seeds/ were written by this script; rerun it after
changing the input layout, which is fuzz_raster.cpp's read order (each function below
writes the bytes the harness function of the same name reads, in the same order):

    configure      config [isa byte] [budget byte]
    fuzz_target    format-selector [raw format] width height layout [pitch extra] fill-seed
                   (colour target, then depth target)
    textures       count, then per texture: format-selector [raw] flags levels-allocated
                   [raw levels] width height, per level: level-flags [width height] [format]
                   layout [pitch extra] fill-seed; palette-seed [colour key]
    states         count, then per state: fuzz_state's fields (see state() below)
    commands       count, then per command: kind and its fields

Every seed is a scene that draws pixels (checked with DP2_FUZZ_RASTER_STATS=1, which
prints each input's RendererStats), so the fuzzer starts from states the renderer
accepts rather than from refused ones.
"""
import struct
import sys
from pathlib import Path

# fuzz_raster.cpp's constants.
SPECIAL_FLOATS = 20       # kSpecialFloats entries; selectors below this are special values
GRID_LOW, GRID_STEP = -8.0, 0.5
RAW_FLOAT = 0xFF
NAN_SELECTOR = 5          # kSpecialFloats[5]
RAW_U32, ALL_ONES = 0xFF, 0xFE
RAW_FORMAT_BIT = 0x80

# dp2::raster enums (rasterizer/include/dp2raster/*.h).
A8R8G8B8, X8R8G8B8, R5G6B5, A4R4G4B4, P8 = 1, 2, 4, 7, 11
DXT1, DXT5 = 16, 20
D16, D24S8 = 21, 23
TRIANGLE_LIST, TRIANGLE_STRIP, TRIANGLE_FAN, LINE_STRIP, POINT_LIST = 3, 4, 5, 2, 0
SELECT_ARG1, MODULATE = 2, 4
ARG_DIFFUSE, ARG_CURRENT, ARG_TEXTURE = 0, 1, 2
LESS_EQUAL, ALWAYS, GREATER = 4, 8, 5
BLEND_SRC_ALPHA, BLEND_INV_SRC_ALPHA = 5, 6
FILTER_POINT, FILTER_LINEAR = 1, 2
ADDRESS_WRAP, ADDRESS_CLAMP = 1, 3
FILL_SOLID, FILL_WIREFRAME, SHADE_GOURAUD, CULL_NONE = 3, 2, 2, 1
DEPTH_Z = 1
FOG_LINEAR = 3

# Index of a colour target / depth / texture format in the harness's selector lists.
COLOR_LIST = {A8R8G8B8: 0, X8R8G8B8: 1, R5G6B5: 3, A4R4G4B4: 6, P8: 10}
DEPTH_LIST = {D24S8: 0, D16: 1, 0: 6}
TEXTURE_LIST = {A8R8G8B8: 0, P8: 10, DXT1: 16, DXT5: 20}


class Out:
    def __init__(self):
        self.b = bytearray()

    def u8(self, v):
        self.b.append(v & 0xFF)

    def u32(self, v):
        self.b += struct.pack("<I", v & 0xFFFFFFFF)

    def enum(self, value, first):
        """pick_enum: selector first + sel % count == value for sel = value − first."""
        self.u8(value - first)

    def grid(self, v):
        """fuzz_float on the grid (−8 .. 109 in steps of 0.5)."""
        sel = SPECIAL_FLOATS + int(round((v - GRID_LOW) / GRID_STEP))
        assert SPECIAL_FLOATS <= sel < RAW_FLOAT, v
        self.u8(sel)

    def flt(self, v):
        """fuzz_float: 0 and 1 are special selectors 0 and 1; others on the grid or raw."""
        if v == 0.0:
            self.u8(0)
        elif v == 1.0:
            self.u8(1)
        elif GRID_LOW <= v <= 109 and (v - GRID_LOW) / GRID_STEP == int((v - GRID_LOW) / GRID_STEP):
            self.grid(v)
        else:
            self.u8(RAW_FLOAT)
            self.b += struct.pack("<f", v)

    def colour(self, r, g, b, a):
        for c in (r, g, b, a):
            self.u8(int(round(c * 250)))

    def small(self, v):
        """fuzz_u32 for a value below 0xFE."""
        assert v < ALL_ONES
        self.u8(v)


def configure(o, isa="scalar", generic=False, budget=None):
    config = {"scalar": 0, "auto": 1}[isa]
    if generic:
        config |= 0x04
    if budget is not None:
        config |= 0x08
    o.u8(config)
    if budget is not None:
        o.u8(budget - 1)


def image_layout(o, seed):
    o.u8(0)      # layout: kPitchAligned, with memory
    o.u8(seed)   # fill seed


def target(o, fmt, lists, w, h, seed=0):
    o.u8(lists[fmt])
    o.u8(w - 1)
    o.u8(h - 1)
    image_layout(o, seed)


def texture(o, fmt, levels, w, h, seed=7, palette=False):
    o.u8(TEXTURE_LIST[fmt])
    o.u8(0x01 if palette else 0)  # flags: kTexPalette
    o.u8(levels - 1)
    o.u8(w - 1)
    o.u8(h - 1)
    for level in range(levels):
        o.u8(0)  # level flags
        image_layout(o, seed + level)
    o.u8(seed)  # palette seed


def stage(o, color_op=SELECT_ARG1, alpha_op=SELECT_ARG1, arg1=ARG_DIFFUSE, arg2=ARG_CURRENT, tex=0,
          filt=FILTER_POINT, address=ADDRESS_WRAP, texcoord_set=0):
    o.enum(color_op, 1)
    o.enum(alpha_op, 1)
    for a in (ARG_CURRENT, arg1, arg2):  # colour args 0..2
        o.u8(a)
    for a in (ARG_CURRENT, arg1, arg2):  # alpha args
        o.u8(a)
    o.u8(0)              # flags: no key, no bump, result CURRENT
    o.u8(texcoord_set)
    o.u8(tex)            # 0 none, 1 texture 0, 2 texture 1
    o.enum(filt, 0)      # mag
    o.enum(filt, 0)      # min
    o.enum(0, 0)         # mip NONE
    o.enum(address, 1)   # u
    o.enum(address, 1)   # v
    o.enum(address, 1)   # w
    o.colour(0, 0, 0, 0)  # border
    o.flt(0.0)           # lod bias
    o.small(0)           # max mip level


def state(o, no_color=False, no_depth=False, fill=FILL_SOLID, depth_mode=0, depth_write=True,
          stencil=False, alpha_test=False, alpha_ref=0, blend=False, dither=False, fog=False, stages=None,
          texcoord_sets=0, point_size=1.0):
    flags = (0x01 if no_color else 0) | (0x02 if no_depth else 0) | 0x08 | (0x10 if depth_write else 0) | \
            (0x20 if stencil else 0) | (0x80 if alpha_test else 0)
    o.u8(flags)
    o.u8(0)                  # palette seed (no palette flag)
    o.u8(0)                  # clip: kRectFull
    o.flt(0.0)               # min_z
    o.flt(1.0)               # max_z
    o.enum(fill, 1)
    o.enum(SHADE_GOURAUD, 1)
    o.enum(CULL_NONE, 1)
    o.flt(point_size)
    o.flt(1.0)               # point size min
    o.flt(64.0)              # point size max
    o.enum(depth_mode, 0)
    o.enum(LESS_EQUAL, 1)
    o.flt(0.0)               # w_near
    o.flt(1.0)               # w_far
    o.small(0)               # depth bias
    for _ in range(2):       # stencil cw, ccw: func ALWAYS, ops KEEP / REPLACE on pass
        o.enum(ALWAYS, 1)
        o.enum(1, 1)
        o.enum(1, 1)
        o.enum(3, 1)
    o.small(1)               # stencil ref
    o.u8(ALL_ONES)           # stencil mask
    o.u8(ALL_ONES)           # stencil write mask
    o.enum(GREATER, 1)       # alpha func
    o.small(alpha_ref)
    more = (0x01 if blend else 0) | (0x04 if dither else 0) | (0x20 if fog else 0)
    o.u8(more)
    o.enum(BLEND_SRC_ALPHA, 1)
    o.enum(BLEND_INV_SRC_ALPHA, 1)
    o.enum(1, 1)             # ADD
    o.enum(1, 1)             # alpha: ONE
    o.enum(1, 1)             # ZERO
    o.enum(1, 1)             # ADD
    o.colour(1, 1, 1, 1)     # blend factor
    o.u8(0x0F)               # colour write mask
    stages = stages or []
    o.u8(len(stages))
    o.u8(texcoord_sets)
    for s in stages:
        stage(o, **s)
    o.colour(1, 1, 1, 1)     # texture factor
    o.enum(FOG_LINEAR if fog else 0, 0)
    o.flt(0.0)               # fog start
    o.flt(1.0)               # fog end
    o.flt(1.0)               # density
    o.colour(0.5, 0.5, 1, 1)  # fog colour


def vertices_draw(o, topology, primitives, verts, state_index=0, colours=True, sets=0, depth=False,
                  indices=None, edge_flags=None):
    o.u8(0)  # kDrawVertices
    o.u8(state_index)
    o.enum(topology, 0)
    o.u8(primitives)
    o.u8(len(verts))
    flags = (0x01 if depth else 0) | (0x02 if colours else 0) | (sets << 3)
    o.u8(flags)
    for v in verts:
        o.grid(v["x"])
        o.grid(v["y"])
        if depth:
            o.flt(v.get("z", 0.5))
            o.flt(v.get("rhw", 1.0))
        if colours:
            o.colour(*v.get("diffuse", (1, 1, 1, 1)))
            o.colour(*v.get("specular", (0, 0, 0, 1)))
        for s in range(sets):
            u, t = v.get("uv", (0, 0))
            o.flt(u)
            o.flt(t)
            o.flt(0.0)
            o.flt(1.0)
    lists(o, indices, edge_flags)


def lists(o, indices, edge_flags):
    o.u8((0x01 if indices else 0) | (0x02 if edge_flags else 0))
    if indices:
        o.u8(len(indices))
        for i in indices:
            o.u8(i)
    if edge_flags:
        o.u8(len(edge_flags))
        for f in edge_flags:
            o.small(f)


def fetch_draw(o, topology, primitives, verts, diffuse=True, indices=None, state_index=0):
    """XYZRHW (| DIFFUSE) vertices through the device's fetch, stride = the FVF's."""
    o.u8(3)  # kDrawFetch
    o.u8(state_index)
    o.enum(topology, 0)
    o.u8(primitives)
    o.u8(0x01 if diffuse else 0)  # FVF byte: XYZRHW | DIFFUSE, no sets
    o.u8(0)                       # texture coordinate sizes
    o.u8(0)                       # stride: the FVF's + 0
    o.u8(len(verts))
    for v in verts:
        o.grid(v["x"])
        o.grid(v["y"])
        o.b += struct.pack("<ff", 0.5, 1.0)            # z, rhw
        if diffuse:
            o.b += struct.pack("<I", v.get("argb", 0xFFFF8000))
    lists(o, indices, None)


def clear(o, colour=True, depth=True, stencil=False, argb=0xFF203040):
    o.u8(5)  # kClear
    o.u8((0x01 if colour else 0) | (0x02 if depth else 0) | (0x04 if stencil else 0))
    o.u8(0)  # kRectFull
    o.u32(argb)
    o.u8(ALL_ONES)  # depth value: the farthest (masked to the format's bits)
    o.small(0)      # stencil value


def V(x, y, **kw):
    d = {"x": x, "y": y}
    d.update(kw)
    return d


def seed_triangles():
    """Two gouraud triangles over an A8R8G8B8 target, scalar kernels."""
    o = Out()
    configure(o, "scalar")
    target(o, A8R8G8B8, COLOR_LIST, 64, 48)
    target(o, 0, DEPTH_LIST, 1, 1)   # no depth
    o.u8(0)                          # no textures
    o.u8(0)                          # one state
    state(o, no_depth=True, stages=[dict()])
    o.u8(1)                          # one command
    vertices_draw(o, TRIANGLE_LIST, 2, [
        V(1, 1, diffuse=(1, 0, 0, 1)), V(60, 2, diffuse=(0, 1, 0, 1)), V(2, 45, diffuse=(0, 0, 1, 1)),
        V(60, 2), V(62, 46), V(2, 45, diffuse=(1, 1, 0, 1))])
    return o.b


def seed_textured_depth():
    """A mipmapped A8R8G8B8 texture, linear filter, MODULATE, on a D24S8 Z test; auto ISA."""
    o = Out()
    configure(o, "auto")
    target(o, X8R8G8B8, COLOR_LIST, 80, 70)
    target(o, D24S8, DEPTH_LIST, 80, 70)
    o.u8(1)
    texture(o, A8R8G8B8, 2, 16, 16)
    o.u8(0)
    state(o, depth_mode=DEPTH_Z, texcoord_sets=1,
          stages=[dict(color_op=MODULATE, alpha_op=MODULATE, arg1=ARG_TEXTURE, arg2=ARG_DIFFUSE, tex=1,
                       filt=FILTER_LINEAR, address=ADDRESS_WRAP)])
    o.u8(2)
    clear(o, colour=True, depth=True)
    vertices_draw(o, TRIANGLE_STRIP, 2, [
        V(2, 2, uv=(0, 0), z=0.25), V(78, 3, uv=(3, 0), z=0.5), V(3, 68, uv=(0, 3), z=0.5),
        V(77, 67, uv=(3, 3), z=0.75)], sets=1, depth=True)
    return o.b


def seed_fetch_lines_points():
    """Lines and points through the FVF fetch into R5G6B5, indexed; AVX2 where it runs."""
    o = Out()
    configure(o, "auto")
    target(o, R5G6B5, COLOR_LIST, 40, 40)
    target(o, 0, DEPTH_LIST, 1, 1)
    o.u8(0)
    o.u8(0)
    state(o, no_depth=True, point_size=3.0, stages=[dict()])
    o.u8(2)
    verts = [V(2, 2), V(37, 5, argb=0xFF00FF00), V(20, 36, argb=0xFF0000FF), V(5, 30)]
    fetch_draw(o, LINE_STRIP, 3, verts, indices=[0, 1, 2, 3])
    fetch_draw(o, POINT_LIST, 4, verts)
    return o.b


def seed_wireframe_fan_palette():
    """A P8 texture on a wireframe fan with edge flags and a solid fan, generic kernels,
    a scene budget of 2 primitives (flushes mid-draw)."""
    o = Out()
    configure(o, "scalar", generic=True, budget=2)
    target(o, A8R8G8B8, COLOR_LIST, 50, 50)
    target(o, D16, DEPTH_LIST, 50, 50)
    o.u8(1)
    texture(o, P8, 1, 8, 8, palette=True)
    o.u8(1)   # two states
    stage_tex = dict(color_op=SELECT_ARG1, alpha_op=SELECT_ARG1, arg1=ARG_TEXTURE, tex=1)
    state(o, fill=FILL_WIREFRAME, texcoord_sets=1, stages=[stage_tex])
    state(o, stencil=True, depth_mode=DEPTH_Z, texcoord_sets=1, stages=[stage_tex])
    o.u8(3)
    fan = [V(25, 25, uv=(0.5, 0.5)), V(5, 5, uv=(0, 0)), V(45, 5, uv=(1, 0)), V(45, 45, uv=(1, 1)),
           V(5, 45, uv=(0, 1))]
    vertices_draw(o, TRIANGLE_FAN, 3, fan, state_index=0, sets=1, edge_flags=[0x1F])
    o.u8(7)   # kFlush
    vertices_draw(o, TRIANGLE_FAN, 3, fan, state_index=1, sets=1, depth=True)
    return o.b


def seed_fog_blend_dxt():
    """A DXT5 texture with alpha blending, alpha test, linear fog and dithering on A4R4G4B4."""
    o = Out()
    configure(o, "scalar")
    target(o, A4R4G4B4, COLOR_LIST, 33, 31)
    target(o, 0, DEPTH_LIST, 1, 1)
    o.u8(1)
    texture(o, DXT5, 3, 13, 9)
    o.u8(0)
    state(o, no_depth=True, blend=True, alpha_test=True, alpha_ref=16, dither=True, fog=True, texcoord_sets=1,
          stages=[dict(color_op=MODULATE, alpha_op=SELECT_ARG1, arg1=ARG_TEXTURE, arg2=ARG_DIFFUSE, tex=1,
                       filt=FILTER_LINEAR, address=ADDRESS_CLAMP)])
    o.u8(1)
    vertices_draw(o, TRIANGLE_LIST, 1, [
        V(0, 0, uv=(0, 0), z=0.1), V(32, 1, uv=(1, 0), z=0.5), V(1, 30, uv=(0, 1), z=0.9)], sets=1, depth=True)
    return o.b


SEEDS = {
    "triangles.bin": seed_triangles,
    "textured-depth.bin": seed_textured_depth,
    "fetch-lines-points.bin": seed_fetch_lines_points,
    "wireframe-fan-palette.bin": seed_wireframe_fan_palette,
    "fog-blend-dxt.bin": seed_fog_blend_dxt,
}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: write_raster_seeds.py DIR")
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, make in SEEDS.items():
        (out / name).write_bytes(bytes(make()))


if __name__ == "__main__":
    main()
