/*
 * dp2/ddi.h - wire format of the Direct3D DrawPrimitives2 (DP2) DDI.
 *
 * Part of dp2 (MIT licence). Written from the fact sheets in
 * shared/reference (DP2-OPCODES.md, STATES.md) and the DDI pages; section
 * references below ("OPC §n" = DP2-OPCODES.md, "ST §n" = STATES.md) say where
 * each value comes from. Numbers are checked against the mingw-w64 headers
 * by tests/abi (see tests/abi/abi_gen.cpp).
 *
 * Pure C (C99/C11) and C++ header: only types, enums and macros.
 *
 * Windows base types (BYTE, WORD, DWORD, LONG, UINT, INT, BOOL, HRESULT,
 * ULONG_PTR, LPVOID, LPDWORD, RECT, RECTL, POINT, PALETTEENTRY, S_OK, E_*,
 * MAKEFOURCC) are defined here with their Win32 sizes (LONG is 32-bit even
 * on LP64). An embedder that already has them from <windows.h> defines
 * DP2_HAVE_WIN32_TYPES before including this header to skip those typedefs.
 * The Direct3D types (D3DVALUE, D3DCOLOR, D3DMATRIX, the enums, ...) are
 * always defined here, so this header must not be mixed with the SDK's
 * d3dtypes.h / d3d8types.h / d3d9types.h / d3dhal.h in one translation unit.
 *
 * Where DX7, DX8 and DX9 use different names for one value, the enum holds
 * the newest name and the older names are #defines (e.g. D3DRENDERSTATE_ZENABLE
 * -> D3DRS_ZENABLE). Where the *value* of one name changed between versions
 * (D3DFVF_POSITION_MASK, D3DFVF_RESERVED2) the plain name has the DX9 value
 * and _DX7/_DX8 variants give the older ones.
 */
#ifndef DP2_DDI_H
#define DP2_DDI_H

#include <stdint.h>
#include <stddef.h>

/* ---------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------- */

#define DP2_CAT_(a, b) a##b
#define DP2_CAT(a, b) DP2_CAT_(a, b)

/* DP2_STATIC_ASSERT(cond, msg): compile-time check usable at file scope. */
#if defined(__cplusplus)
#  define DP2_STATIC_ASSERT(c, m) static_assert(c, m)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#  define DP2_STATIC_ASSERT(c, m) _Static_assert(c, m)
#else /* C99: negative array size on failure (one per line) */
#  define DP2_STATIC_ASSERT(c, m) \
     typedef char DP2_CAT(dp2_static_assert_, __LINE__)[(c) ? 1 : -1]
#endif

/* Anonymous unions: standard in C11 and C++; C99 accepts them via the
 * GNU __extension__ keyword (keeps -Wpedantic quiet). */
#if !defined(__cplusplus) && defined(__GNUC__) && \
    (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L)
#  define DP2_ANON_UNION __extension__ union
#  define DP2_EXTENSION __extension__
#else
#  define DP2_ANON_UNION union
#  define DP2_EXTENSION
#endif

/* ---------------------------------------------------------------------------
 * Windows base types (skipped when DP2_HAVE_WIN32_TYPES is defined)
 * ------------------------------------------------------------------------- */
#ifndef DP2_HAVE_WIN32_TYPES
typedef uint8_t   BYTE;
typedef uint16_t  WORD;
typedef uint32_t  DWORD;
typedef int32_t   LONG;          /* Win32 LONG is 32-bit (LLP64) */
typedef uint32_t  ULONG;
typedef uint32_t  UINT;
typedef int32_t   INT;
typedef int32_t   BOOL;
typedef int32_t   HRESULT;
typedef float     FLOAT;
typedef uintptr_t ULONG_PTR;
typedef uintptr_t DWORD_PTR;
typedef void     *LPVOID;
typedef DWORD    *LPDWORD;
typedef WORD     *LPWORD;
typedef BYTE     *LPBYTE;

typedef struct tagRECT  { LONG left, top, right, bottom; } RECT, *LPRECT;
typedef struct _RECTL   { LONG left, top, right, bottom; } RECTL, *LPRECTL;
typedef struct tagPOINT { LONG x, y; } POINT, *LPPOINT;
/* One palette entry; D3DDP2OP_UPDATEPALETTE carries these as packed DWORDs
 * (OPC §3 row 31). */
typedef struct tagPALETTEENTRY { BYTE peRed, peGreen, peBlue, peFlags; } PALETTEENTRY, *LPPALETTEENTRY;

#ifndef FALSE
#define FALSE 0
#endif
#ifndef TRUE
#define TRUE 1
#endif

/* Generic HRESULTs (winerror.h values; ST §15). */
#define S_OK          ((HRESULT)0x00000000)
#define S_FALSE       ((HRESULT)0x00000001)
#define E_NOTIMPL     ((HRESULT)0x80004001u)
#define E_FAIL        ((HRESULT)0x80004005u)
#define E_OUTOFMEMORY ((HRESULT)0x8007000Eu)
#define E_INVALIDARG  ((HRESULT)0x80070057u)

#ifndef MAKEFOURCC
#define MAKEFOURCC(ch0, ch1, ch2, ch3)                                   \
    ((DWORD)(BYTE)(ch0) | ((DWORD)(BYTE)(ch1) << 8) |                     \
     ((DWORD)(BYTE)(ch2) << 16) | ((DWORD)(BYTE)(ch3) << 24))
#endif
#endif /* DP2_HAVE_WIN32_TYPES */

/* ---------------------------------------------------------------------------
 * Basic Direct3D types (OPC §4 preamble)
 * ------------------------------------------------------------------------- */
typedef float D3DVALUE, *LPD3DVALUE;   /* 32-bit IEEE float */
typedef DWORD D3DCOLOR, *LPD3DCOLOR;   /* 0xAARRGGBB */

typedef struct _D3DCOLORVALUE { float r, g, b, a; } D3DCOLORVALUE, *LPD3DCOLORVALUE;
typedef struct _D3DVECTOR { float x, y, z; } D3DVECTOR, *LPD3DVECTOR;
/* Row-major 4x4 matrix; Direct3D transforms row vectors (v' = v * M). */
typedef struct _D3DMATRIX {
    float _11, _12, _13, _14;
    float _21, _22, _23, _24;
    float _31, _32, _33, _34;
    float _41, _42, _43, _44;
} D3DMATRIX, *LPD3DMATRIX;
typedef struct _D3DBOX { UINT Left, Top, Right, Bottom, Front, Back; } D3DBOX;
typedef struct _D3DRANGE { UINT Offset, Size; } D3DRANGE;

/* ---------------------------------------------------------------------------
 * Return codes (ST §15)
 * ------------------------------------------------------------------------- */
/* DDHAL callback dispositions (DWORD return value of every HAL callback). */
#define DDHAL_DRIVER_NOTHANDLED 0x00000000u
#define DDHAL_DRIVER_HANDLED    0x00000001u
#define DDHAL_DRIVER_NOCKEYHW   0x00000002u

/* MAKE_DDHRESULT(code) = MAKE_HRESULT(1, 0x876, code). */
#define DP2_MAKE_DDHRESULT(code) ((HRESULT)(0x88760000u | (DWORD)(code)))

#define DD_OK                               ((HRESULT)0)
#define D3D_OK                              ((HRESULT)0)
#define DDERR_GENERIC                       E_FAIL
#define DDERR_INVALIDPARAMS                 E_INVALIDARG
#define DDERR_OUTOFMEMORY                   E_OUTOFMEMORY
#define DDERR_UNSUPPORTED                   E_NOTIMPL
#define DDERR_EXCEPTION                     DP2_MAKE_DDHRESULT(55)   /* 0x88760037 */
#define DDERR_INVALIDPIXELFORMAT            DP2_MAKE_DDHRESULT(145)  /* 0x88760091 */
#define DDERR_OUTOFVIDEOMEMORY              DP2_MAKE_DDHRESULT(380)  /* 0x8876017C */
#define DDERR_SURFACELOST                   DP2_MAKE_DDHRESULT(450)  /* 0x887601C2 */
#define DDERR_UNSUPPORTEDFORMAT             DP2_MAKE_DDHRESULT(510)  /* 0x887601FE */
#define DDERR_WASSTILLDRAWING               DP2_MAKE_DDHRESULT(540)  /* 0x8876021C */
#define D3DERR_WASSTILLDRAWING              DP2_MAKE_DDHRESULT(540)  /* d3d9.h */
#define D3DDDIERR_WASSTILLDRAWING           DP2_MAKE_DDHRESULT(540)  /* d3dumddi.h */
#define D3DERR_OUTOFVIDEOMEMORY             DP2_MAKE_DDHRESULT(380)
#define D3DERR_COMMAND_UNPARSED             DP2_MAKE_DDHRESULT(3000) /* 0x88760BB8 */
#define D3DERR_WRONGTEXTUREFORMAT           DP2_MAKE_DDHRESULT(2072) /* 0x818 */
#define D3DERR_UNSUPPORTEDCOLOROPERATION    DP2_MAKE_DDHRESULT(2073)
#define D3DERR_UNSUPPORTEDCOLORARG          DP2_MAKE_DDHRESULT(2074)
#define D3DERR_UNSUPPORTEDALPHAOPERATION    DP2_MAKE_DDHRESULT(2075)
#define D3DERR_UNSUPPORTEDALPHAARG          DP2_MAKE_DDHRESULT(2076)
#define D3DERR_TOOMANYOPERATIONS            DP2_MAKE_DDHRESULT(2077)
#define D3DERR_CONFLICTINGTEXTUREFILTER     DP2_MAKE_DDHRESULT(2078)
#define D3DERR_UNSUPPORTEDFACTORVALUE       DP2_MAKE_DDHRESULT(2079)
#define D3DERR_CONFLICTINGRENDERSTATE       DP2_MAKE_DDHRESULT(2081)
#define D3DERR_UNSUPPORTEDTEXTUREFILTER     DP2_MAKE_DDHRESULT(2082)
#define D3DERR_CONFLICTINGTEXTUREPALETTE    DP2_MAKE_DDHRESULT(2086)
#define D3DERR_DRIVERINTERNALERROR          DP2_MAKE_DDHRESULT(2087) /* 0x827 */
#define D3DERR_INVALIDSTATEBLOCK            DP2_MAKE_DDHRESULT(2100) /* 0x834 */
#define D3DERR_INBEGINSTATEBLOCK            DP2_MAKE_DDHRESULT(2101)
#define D3DERR_NOTINBEGINSTATEBLOCK         DP2_MAKE_DDHRESULT(2102)
#define D3DERR_DEVICELOST                   DP2_MAKE_DDHRESULT(2152) /* 0x868 */
#define D3DERR_INVALIDCALL                  DP2_MAKE_DDHRESULT(2156) /* 0x86C */
#define D3DERR_DRIVERINVALIDCALL            DP2_MAKE_DDHRESULT(2157) /* 0x86D */

/* Plain (non-HRESULT) values stored in ddrval by legacy paths (ST §15). */
#define D3DHAL_CONTEXT_BAD          0x00000200
#define D3DHAL_OUTOFCONTEXTS        0x00000201
#define D3DHAL_EXECUTE_ABORT        0x00000210
#define D3DHAL_EXECUTE_UNHANDLED    0x00000211

/* Legacy D3dSceneCapture callback (ST §15; opposite sense of RS 62). */
#define D3DHAL_SCENE_CAPTURE_START  0x00000000u
#define D3DHAL_SCENE_CAPTURE_END    0x00000001u

/* ---------------------------------------------------------------------------
 * DrawPrimitives2 opcodes (OPC §3)
 * ------------------------------------------------------------------------- */
typedef enum _D3DHAL_DP2OPERATION {
    D3DDP2OP_POINTS                   = 1,
    D3DDP2OP_INDEXEDLINELIST          = 2,
    D3DDP2OP_INDEXEDTRIANGLELIST      = 3,
    D3DDP2OP_RESERVED0                = 4,  /* older DDK: "front-end only" */
    D3DDP2OP_RENDERSTATE              = 8,
    D3DDP2OP_LINELIST                 = 15,
    D3DDP2OP_LINESTRIP                = 16,
    D3DDP2OP_INDEXEDLINESTRIP         = 17,
    D3DDP2OP_TRIANGLELIST             = 18,
    D3DDP2OP_TRIANGLESTRIP            = 19,
    D3DDP2OP_INDEXEDTRIANGLESTRIP     = 20,
    D3DDP2OP_TRIANGLEFAN              = 21,
    D3DDP2OP_INDEXEDTRIANGLEFAN       = 22,
    D3DDP2OP_TRIANGLEFAN_IMM          = 23,
    D3DDP2OP_LINELIST_IMM             = 24,
    D3DDP2OP_TEXTURESTAGESTATE        = 25,
    D3DDP2OP_INDEXEDTRIANGLELIST2     = 26,
    D3DDP2OP_INDEXEDLINELIST2         = 27,
    D3DDP2OP_VIEWPORTINFO             = 28,
    D3DDP2OP_WINFO                    = 29,
    /* DX7 (30/31 also for pre-DX7 apps on a DX7 driver) */
    D3DDP2OP_SETPALETTE               = 30,
    D3DDP2OP_UPDATEPALETTE            = 31,
    D3DDP2OP_ZRANGE                   = 32,
    D3DDP2OP_SETMATERIAL              = 33,
    D3DDP2OP_SETLIGHT                 = 34,
    D3DDP2OP_CREATELIGHT              = 35,
    D3DDP2OP_SETTRANSFORM             = 36,
    D3DDP2OP_EXT                      = 37, /* older DDK only; payload unconfirmed */
    D3DDP2OP_TEXBLT                   = 38,
    D3DDP2OP_STATESET                 = 39,
    D3DDP2OP_SETPRIORITY              = 40,
    D3DDP2OP_SETRENDERTARGET          = 41,
    D3DDP2OP_CLEAR                    = 42,
    D3DDP2OP_SETTEXLOD                = 43,
    D3DDP2OP_SETCLIPPLANE             = 44,
    /* DX8 */
    D3DDP2OP_CREATEVERTEXSHADER       = 45,
    D3DDP2OP_DELETEVERTEXSHADER       = 46,
    D3DDP2OP_SETVERTEXSHADER          = 47,
    D3DDP2OP_SETVERTEXSHADERCONST     = 48,
    D3DDP2OP_SETSTREAMSOURCE          = 49,
    D3DDP2OP_SETSTREAMSOURCEUM        = 50,
    D3DDP2OP_SETINDICES               = 51,
    D3DDP2OP_DRAWPRIMITIVE            = 52,
    D3DDP2OP_DRAWINDEXEDPRIMITIVE     = 53,
    D3DDP2OP_CREATEPIXELSHADER        = 54,
    D3DDP2OP_DELETEPIXELSHADER        = 55,
    D3DDP2OP_SETPIXELSHADER           = 56,
    D3DDP2OP_SETPIXELSHADERCONST      = 57,
    D3DDP2OP_CLIPPEDTRIANGLEFAN       = 58,
    D3DDP2OP_DRAWPRIMITIVE2           = 59,
    D3DDP2OP_DRAWINDEXEDPRIMITIVE2    = 60,
    D3DDP2OP_DRAWRECTPATCH            = 61,
    D3DDP2OP_DRAWTRIPATCH             = 62,
    D3DDP2OP_VOLUMEBLT                = 63,
    D3DDP2OP_BUFFERBLT                = 64,
    D3DDP2OP_MULTIPLYTRANSFORM        = 65,
    D3DDP2OP_ADDDIRTYRECT             = 66, /* DX8.1 */
    D3DDP2OP_ADDDIRTYBOX              = 67, /* DX8.1 */
    /* DX9 */
    D3DDP2OP_CREATEVERTEXSHADERDECL   = 71,
    D3DDP2OP_DELETEVERTEXSHADERDECL   = 72,
    D3DDP2OP_SETVERTEXSHADERDECL      = 73,
    D3DDP2OP_CREATEVERTEXSHADERFUNC   = 74,
    D3DDP2OP_DELETEVERTEXSHADERFUNC   = 75,
    D3DDP2OP_SETVERTEXSHADERFUNC      = 76,
    D3DDP2OP_SETVERTEXSHADERCONSTI    = 77,
    D3DDP2OP_SETSCISSORRECT           = 79,
    D3DDP2OP_SETSTREAMSOURCE2         = 80,
    D3DDP2OP_BLT                      = 81,
    D3DDP2OP_COLORFILL                = 82,
    D3DDP2OP_SETVERTEXSHADERCONSTB    = 83,
    D3DDP2OP_CREATEQUERY              = 84,
    D3DDP2OP_SETRENDERTARGET2         = 85,
    D3DDP2OP_SETDEPTHSTENCIL          = 86,
    D3DDP2OP_RESPONSECONTINUE         = 87, /* driver -> runtime response */
    D3DDP2OP_RESPONSEQUERY            = 88, /* driver -> runtime response */
    D3DDP2OP_GENERATEMIPSUBLEVELS     = 89,
    D3DDP2OP_DELETEQUERY              = 90,
    D3DDP2OP_ISSUEQUERY               = 91,
    D3DDP2OP_SETPIXELSHADERCONSTI     = 93,
    D3DDP2OP_SETPIXELSHADERCONSTB     = 94,
    D3DDP2OP_SETSTREAMSOURCEFREQ      = 95,
    D3DDP2OP_SURFACEBLT               = 96,
    /* D3D9Ex */
    D3DDP2OP_SETCONVOLUTIONKERNELMONO = 97,
    D3DDP2OP_COMPOSERECTS             = 98,
    D3DDP2OP_FORCE_DWORD              = 0x7fffffff
} D3DHAL_DP2OPERATION;

/* mingw-w64 spells opcode 44 this way (OPC §5.2 H1). */
#define D3DPP2OP_SETCLIPPLANE D3DDP2OP_SETCLIPPLANE

/* Execute-buffer opcode D3DOP_EXIT; the Perm3 sample accepts it as an
 * end-of-buffer marker inside DP2 streams (OPC §2 rule 8). Not a DP2 opcode. */
#define D3DOP_EXIT 11

/* ---------------------------------------------------------------------------
 * D3DHAL_DRAWPRIMITIVES2DATA.dwFlags (ST §14)
 * ------------------------------------------------------------------------- */
#define D3DHALDP2_USERMEMVERTICES   0x00000001u
#define D3DHALDP2_EXECUTEBUFFER     0x00000002u
#define D3DHALDP2_SWAPVERTEXBUFFER  0x00000004u
#define D3DHALDP2_SWAPCOMMANDBUFFER 0x00000008u
#define D3DHALDP2_REQVERTEXBUFSIZE  0x00000010u
#define D3DHALDP2_REQCOMMANDBUFSIZE 0x00000020u
#define D3DHALDP2_VIDMEMVERTEXBUF   0x00000040u
#define D3DHALDP2_VIDMEMCOMMANDBUF  0x00000080u

/* D3DHAL_CALLBACKS3.dwFlags (ST §14) */
#define D3DHAL3_CB32_CLEAR2                  0x00000001u
#define D3DHAL3_CB32_RESERVED                0x00000002u
#define D3DHAL3_CB32_VALIDATETEXTURESTAGESTATE 0x00000004u
#define D3DHAL3_CB32_DRAWPRIMITIVES2         0x00000008u

/* ---------------------------------------------------------------------------
 * State-array limits (ST §1, §2)
 * ------------------------------------------------------------------------- */
#define D3DHAL_MAX_RSTATES              256
#define D3DHAL_MAX_RSTATES_DX6          256
#define D3DHAL_MAX_RSTATES_DX7          256
#define D3DHAL_MAX_RSTATES_DX8          256
#define D3DHAL_MAX_RSTATES_DX9          256
#define D3DHAL_TSS_RENDERSTATEBASE      256
#define D3DHAL_TSS_MAXSTAGES            8
#define D3DHAL_TSS_STATESPERSTAGE       64
#define D3DHAL_MAX_RSTATES_AND_STAGES   \
    (D3DHAL_TSS_RENDERSTATEBASE + D3DHAL_TSS_MAXSTAGES * D3DHAL_TSS_STATESPERSTAGE)
#define D3DTSS_MAX_DX6                  24
#define D3DTSS_MAX_DX7                  29
#define D3DTSS_MAX_DX8                  29
#define D3DTSS_MAX_DX9                  33
#define D3DHAL_SAMPLER_MAXSAMP          16
#define D3DHAL_SAMPLER_MAXVERTEXSAMP    4
#define D3DDMAPSAMPLER                  256
#define D3DVERTEXTEXTURESAMPLER0        257
#define D3DVERTEXTEXTURESAMPLER1        258
#define D3DVERTEXTEXTURESAMPLER2        259
#define D3DVERTEXTEXTURESAMPLER3        260

/* ---------------------------------------------------------------------------
 * Render states (ST §1). Retired DX5-era states keep their DX7
 * D3DRENDERSTATE_ names; DDI-only states: 61, 62, 169, 196, 197.
 * ------------------------------------------------------------------------- */
typedef enum _D3DRENDERSTATETYPE {
    D3DRENDERSTATE_TEXTUREHANDLE             = 1,
    D3DRENDERSTATE_ANTIALIAS                 = 2,
    D3DRENDERSTATE_TEXTUREADDRESS            = 3,
    D3DRENDERSTATE_TEXTUREPERSPECTIVE        = 4,
    D3DRENDERSTATE_WRAPU                     = 5,
    D3DRENDERSTATE_WRAPV                     = 6,
    D3DRS_ZENABLE                            = 7,
    D3DRS_FILLMODE                           = 8,
    D3DRS_SHADEMODE                          = 9,
    D3DRS_LINEPATTERN                        = 10,
    D3DRENDERSTATE_MONOENABLE                = 11,
    D3DRENDERSTATE_ROP2                      = 12,
    D3DRENDERSTATE_PLANEMASK                 = 13,
    D3DRS_ZWRITEENABLE                       = 14,
    D3DRS_ALPHATESTENABLE                    = 15,
    D3DRS_LASTPIXEL                          = 16,
    D3DRENDERSTATE_TEXTUREMAG                = 17,
    D3DRENDERSTATE_TEXTUREMIN                = 18,
    D3DRS_SRCBLEND                           = 19,
    D3DRS_DESTBLEND                          = 20,
    D3DRENDERSTATE_TEXTUREMAPBLEND           = 21,
    D3DRS_CULLMODE                           = 22,
    D3DRS_ZFUNC                              = 23,
    D3DRS_ALPHAREF                           = 24,
    D3DRS_ALPHAFUNC                          = 25,
    D3DRS_DITHERENABLE                       = 26,
    D3DRS_ALPHABLENDENABLE                   = 27,
    D3DRS_FOGENABLE                          = 28,
    D3DRS_SPECULARENABLE                     = 29,
    D3DRS_ZVISIBLE                           = 30,
    D3DRENDERSTATE_SUBPIXEL                  = 31,
    D3DRENDERSTATE_SUBPIXELX                 = 32,
    D3DRENDERSTATE_STIPPLEDALPHA             = 33,
    D3DRS_FOGCOLOR                           = 34,
    D3DRS_FOGTABLEMODE                       = 35,
    D3DRS_FOGSTART                           = 36,
    D3DRS_FOGEND                             = 37,
    D3DRS_FOGDENSITY                         = 38,
    D3DRENDERSTATE_STIPPLEENABLE             = 39,
    D3DRS_EDGEANTIALIAS                      = 40,
    D3DRENDERSTATE_COLORKEYENABLE            = 41,
    D3DRENDERSTATE_BORDERCOLOR               = 43,
    D3DRENDERSTATE_TEXTUREADDRESSU           = 44,
    D3DRENDERSTATE_TEXTUREADDRESSV           = 45,
    D3DRENDERSTATE_MIPMAPLODBIAS             = 46,
    D3DRS_ZBIAS                              = 47,
    D3DRS_RANGEFOGENABLE                     = 48,
    D3DRENDERSTATE_ANISOTROPY                = 49,
    D3DRENDERSTATE_FLUSHBATCH                = 50,
    D3DRENDERSTATE_TRANSLUCENTSORTINDEPENDENT = 51,
    D3DRS_STENCILENABLE                      = 52,
    D3DRS_STENCILFAIL                        = 53,
    D3DRS_STENCILZFAIL                       = 54,
    D3DRS_STENCILPASS                        = 55,
    D3DRS_STENCILFUNC                        = 56,
    D3DRS_STENCILREF                         = 57,
    D3DRS_STENCILMASK                        = 58,
    D3DRS_STENCILWRITEMASK                   = 59,
    D3DRS_TEXTUREFACTOR                      = 60,
    D3DRENDERSTATE_EVICTMANAGEDTEXTURES      = 61,
    D3DRENDERSTATE_SCENECAPTURE              = 62,
    D3DRENDERSTATE_STIPPLEPATTERN00          = 64,
    D3DRENDERSTATE_STIPPLEPATTERN01          = 65,
    D3DRENDERSTATE_STIPPLEPATTERN02          = 66,
    D3DRENDERSTATE_STIPPLEPATTERN03          = 67,
    D3DRENDERSTATE_STIPPLEPATTERN04          = 68,
    D3DRENDERSTATE_STIPPLEPATTERN05          = 69,
    D3DRENDERSTATE_STIPPLEPATTERN06          = 70,
    D3DRENDERSTATE_STIPPLEPATTERN07          = 71,
    D3DRENDERSTATE_STIPPLEPATTERN08          = 72,
    D3DRENDERSTATE_STIPPLEPATTERN09          = 73,
    D3DRENDERSTATE_STIPPLEPATTERN10          = 74,
    D3DRENDERSTATE_STIPPLEPATTERN11          = 75,
    D3DRENDERSTATE_STIPPLEPATTERN12          = 76,
    D3DRENDERSTATE_STIPPLEPATTERN13          = 77,
    D3DRENDERSTATE_STIPPLEPATTERN14          = 78,
    D3DRENDERSTATE_STIPPLEPATTERN15          = 79,
    D3DRENDERSTATE_STIPPLEPATTERN16          = 80,
    D3DRENDERSTATE_STIPPLEPATTERN17          = 81,
    D3DRENDERSTATE_STIPPLEPATTERN18          = 82,
    D3DRENDERSTATE_STIPPLEPATTERN19          = 83,
    D3DRENDERSTATE_STIPPLEPATTERN20          = 84,
    D3DRENDERSTATE_STIPPLEPATTERN21          = 85,
    D3DRENDERSTATE_STIPPLEPATTERN22          = 86,
    D3DRENDERSTATE_STIPPLEPATTERN23          = 87,
    D3DRENDERSTATE_STIPPLEPATTERN24          = 88,
    D3DRENDERSTATE_STIPPLEPATTERN25          = 89,
    D3DRENDERSTATE_STIPPLEPATTERN26          = 90,
    D3DRENDERSTATE_STIPPLEPATTERN27          = 91,
    D3DRENDERSTATE_STIPPLEPATTERN28          = 92,
    D3DRENDERSTATE_STIPPLEPATTERN29          = 93,
    D3DRENDERSTATE_STIPPLEPATTERN30          = 94,
    D3DRENDERSTATE_STIPPLEPATTERN31          = 95,
    D3DRS_WRAP0                              = 128,
    D3DRS_WRAP1                              = 129,
    D3DRS_WRAP2                              = 130,
    D3DRS_WRAP3                              = 131,
    D3DRS_WRAP4                              = 132,
    D3DRS_WRAP5                              = 133,
    D3DRS_WRAP6                              = 134,
    D3DRS_WRAP7                              = 135,
    D3DRS_CLIPPING                           = 136,
    D3DRS_LIGHTING                           = 137,
    D3DRENDERSTATE_EXTENTS                   = 138,
    D3DRS_AMBIENT                            = 139,
    D3DRS_FOGVERTEXMODE                      = 140,
    D3DRS_COLORVERTEX                        = 141,
    D3DRS_LOCALVIEWER                        = 142,
    D3DRS_NORMALIZENORMALS                   = 143,
    D3DRENDERSTATE_COLORKEYBLENDENABLE       = 144,
    D3DRS_DIFFUSEMATERIALSOURCE              = 145,
    D3DRS_SPECULARMATERIALSOURCE             = 146,
    D3DRS_AMBIENTMATERIALSOURCE              = 147,
    D3DRS_EMISSIVEMATERIALSOURCE             = 148,
    D3DRS_VERTEXBLEND                        = 151,
    D3DRS_CLIPPLANEENABLE                    = 152,
    D3DRS_SOFTWAREVERTEXPROCESSING           = 153,
    D3DRS_POINTSIZE                          = 154,
    D3DRS_POINTSIZE_MIN                      = 155,
    D3DRS_POINTSPRITEENABLE                  = 156,
    D3DRS_POINTSCALEENABLE                   = 157,
    D3DRS_POINTSCALE_A                       = 158,
    D3DRS_POINTSCALE_B                       = 159,
    D3DRS_POINTSCALE_C                       = 160,
    D3DRS_MULTISAMPLEANTIALIAS               = 161,
    D3DRS_MULTISAMPLEMASK                    = 162,
    D3DRS_PATCHEDGESTYLE                     = 163,
    D3DRS_PATCHSEGMENTS                      = 164,
    D3DRS_DEBUGMONITORTOKEN                  = 165,
    D3DRS_POINTSIZE_MAX                      = 166,
    D3DRS_INDEXEDVERTEXBLENDENABLE           = 167,
    D3DRS_COLORWRITEENABLE                   = 168,
    D3DRS_DELETERTPATCH                      = 169,
    D3DRS_TWEENFACTOR                        = 170,
    D3DRS_BLENDOP                            = 171,
    D3DRS_POSITIONDEGREE                     = 172,
    D3DRS_NORMALDEGREE                       = 173,
    D3DRS_SCISSORTESTENABLE                  = 174,
    D3DRS_SLOPESCALEDEPTHBIAS                = 175,
    D3DRS_ANTIALIASEDLINEENABLE              = 176,
    D3DRS_MINTESSELLATIONLEVEL               = 178,
    D3DRS_MAXTESSELLATIONLEVEL               = 179,
    D3DRS_ADAPTIVETESS_X                     = 180,
    D3DRS_ADAPTIVETESS_Y                     = 181,
    D3DRS_ADAPTIVETESS_Z                     = 182,
    D3DRS_ADAPTIVETESS_W                     = 183,
    D3DRS_ENABLEADAPTIVETESSELLATION         = 184,
    D3DRS_TWOSIDEDSTENCILMODE                = 185,
    D3DRS_CCW_STENCILFAIL                    = 186,
    D3DRS_CCW_STENCILZFAIL                   = 187,
    D3DRS_CCW_STENCILPASS                    = 188,
    D3DRS_CCW_STENCILFUNC                    = 189,
    D3DRS_COLORWRITEENABLE1                  = 190,
    D3DRS_COLORWRITEENABLE2                  = 191,
    D3DRS_COLORWRITEENABLE3                  = 192,
    D3DRS_BLENDFACTOR                        = 193,
    D3DRS_SRGBWRITEENABLE                    = 194,
    D3DRS_DEPTHBIAS                          = 195,
    D3DRS_MAXVERTEXSHADERINST                = 196,
    D3DRS_MAXPIXELSHADERINST                 = 197,
    D3DRS_WRAP8                              = 198,
    D3DRS_WRAP9                              = 199,
    D3DRS_WRAP10                             = 200,
    D3DRS_WRAP11                             = 201,
    D3DRS_WRAP12                             = 202,
    D3DRS_WRAP13                             = 203,
    D3DRS_WRAP14                             = 204,
    D3DRS_WRAP15                             = 205,
    D3DRS_SEPARATEALPHABLENDENABLE           = 206,
    D3DRS_SRCBLENDALPHA                      = 207,
    D3DRS_DESTBLENDALPHA                     = 208,
    D3DRS_BLENDOPALPHA                       = 209,
    D3DRS_FORCE_DWORD                        = 0x7fffffff
} D3DRENDERSTATETYPE;
#define D3DRENDERSTATE_ZENABLE                   D3DRS_ZENABLE
#define D3DRENDERSTATE_FILLMODE                  D3DRS_FILLMODE
#define D3DRENDERSTATE_SHADEMODE                 D3DRS_SHADEMODE
#define D3DRENDERSTATE_LINEPATTERN               D3DRS_LINEPATTERN
#define D3DRENDERSTATE_ZWRITEENABLE              D3DRS_ZWRITEENABLE
#define D3DRENDERSTATE_ALPHATESTENABLE           D3DRS_ALPHATESTENABLE
#define D3DRENDERSTATE_LASTPIXEL                 D3DRS_LASTPIXEL
#define D3DRENDERSTATE_SRCBLEND                  D3DRS_SRCBLEND
#define D3DRENDERSTATE_DESTBLEND                 D3DRS_DESTBLEND
#define D3DRENDERSTATE_CULLMODE                  D3DRS_CULLMODE
#define D3DRENDERSTATE_ZFUNC                     D3DRS_ZFUNC
#define D3DRENDERSTATE_ALPHAREF                  D3DRS_ALPHAREF
#define D3DRENDERSTATE_ALPHAFUNC                 D3DRS_ALPHAFUNC
#define D3DRENDERSTATE_DITHERENABLE              D3DRS_DITHERENABLE
#define D3DRENDERSTATE_ALPHABLENDENABLE          D3DRS_ALPHABLENDENABLE
#define D3DRENDERSTATE_BLENDENABLE               D3DRS_ALPHABLENDENABLE
#define D3DRENDERSTATE_FOGENABLE                 D3DRS_FOGENABLE
#define D3DRENDERSTATE_SPECULARENABLE            D3DRS_SPECULARENABLE
#define D3DRENDERSTATE_ZVISIBLE                  D3DRS_ZVISIBLE
#define D3DRENDERSTATE_FOGCOLOR                  D3DRS_FOGCOLOR
#define D3DRENDERSTATE_FOGTABLEMODE              D3DRS_FOGTABLEMODE
#define D3DRENDERSTATE_FOGSTART                  D3DRS_FOGSTART
#define D3DRENDERSTATE_FOGTABLESTART             D3DRS_FOGSTART
#define D3DRENDERSTATE_FOGEND                    D3DRS_FOGEND
#define D3DRENDERSTATE_FOGTABLEEND               D3DRS_FOGEND
#define D3DRENDERSTATE_FOGDENSITY                D3DRS_FOGDENSITY
#define D3DRENDERSTATE_FOGTABLEDENSITY           D3DRS_FOGDENSITY
#define D3DRENDERSTATE_EDGEANTIALIAS             D3DRS_EDGEANTIALIAS
#define D3DRENDERSTATE_ZBIAS                     D3DRS_ZBIAS
#define D3DRENDERSTATE_RANGEFOGENABLE            D3DRS_RANGEFOGENABLE
#define D3DRENDERSTATE_STENCILENABLE             D3DRS_STENCILENABLE
#define D3DRENDERSTATE_STENCILFAIL               D3DRS_STENCILFAIL
#define D3DRENDERSTATE_STENCILZFAIL              D3DRS_STENCILZFAIL
#define D3DRENDERSTATE_STENCILPASS               D3DRS_STENCILPASS
#define D3DRENDERSTATE_STENCILFUNC               D3DRS_STENCILFUNC
#define D3DRENDERSTATE_STENCILREF                D3DRS_STENCILREF
#define D3DRENDERSTATE_STENCILMASK               D3DRS_STENCILMASK
#define D3DRENDERSTATE_STENCILWRITEMASK          D3DRS_STENCILWRITEMASK
#define D3DRENDERSTATE_TEXTUREFACTOR             D3DRS_TEXTUREFACTOR
#define D3DRENDERSTATE_WRAP0                     D3DRS_WRAP0
#define D3DRENDERSTATE_WRAPBIAS                  D3DRS_WRAP0
#define D3DRENDERSTATE_WRAP1                     D3DRS_WRAP1
#define D3DRENDERSTATE_WRAP2                     D3DRS_WRAP2
#define D3DRENDERSTATE_WRAP3                     D3DRS_WRAP3
#define D3DRENDERSTATE_WRAP4                     D3DRS_WRAP4
#define D3DRENDERSTATE_WRAP5                     D3DRS_WRAP5
#define D3DRENDERSTATE_WRAP6                     D3DRS_WRAP6
#define D3DRENDERSTATE_WRAP7                     D3DRS_WRAP7
#define D3DRENDERSTATE_CLIPPING                  D3DRS_CLIPPING
#define D3DRENDERSTATE_LIGHTING                  D3DRS_LIGHTING
#define D3DRENDERSTATE_AMBIENT                   D3DRS_AMBIENT
#define D3DRENDERSTATE_FOGVERTEXMODE             D3DRS_FOGVERTEXMODE
#define D3DRENDERSTATE_COLORVERTEX               D3DRS_COLORVERTEX
#define D3DRENDERSTATE_LOCALVIEWER               D3DRS_LOCALVIEWER
#define D3DRENDERSTATE_NORMALIZENORMALS          D3DRS_NORMALIZENORMALS
#define D3DRENDERSTATE_DIFFUSEMATERIALSOURCE     D3DRS_DIFFUSEMATERIALSOURCE
#define D3DRENDERSTATE_SPECULARMATERIALSOURCE    D3DRS_SPECULARMATERIALSOURCE
#define D3DRENDERSTATE_AMBIENTMATERIALSOURCE     D3DRS_AMBIENTMATERIALSOURCE
#define D3DRENDERSTATE_EMISSIVEMATERIALSOURCE    D3DRS_EMISSIVEMATERIALSOURCE
#define D3DRENDERSTATE_VERTEXBLEND               D3DRS_VERTEXBLEND
#define D3DRENDERSTATE_CLIPPLANEENABLE           D3DRS_CLIPPLANEENABLE
#define D3DRS_POSITIONORDER                      D3DRS_POSITIONDEGREE
#define D3DRS_NORMALORDER                        D3DRS_NORMALDEGREE

#define D3DRENDERSTATE_FORCE_DWORD D3DRS_FORCE_DWORD
/* DX7 stipple rows: D3DRENDERSTATE_STIPPLEPATTERN00 + y */
#define D3DRENDERSTATE_STIPPLEPATTERN(y) (D3DRENDERSTATE_STIPPLEPATTERN00 + (y))
/* DX9 d3dhal.h aliases 40 to an undefined D3DRS_RESERVED0 (ST §17 S3). */

/* ---------------------------------------------------------------------------
 * Texture stage states (ST §2). The DX9 DDI keeps the DX8 numbering: the
 * runtime maps D3DSAMP_* back to these D3DTSS_* values.
 * ------------------------------------------------------------------------- */
typedef enum _D3DTEXTURESTAGESTATETYPE {
    D3DTSS_TEXTUREMAP            = 0,   /* DDI only: texture surface handle */
    D3DTSS_COLOROP               = 1,
    D3DTSS_COLORARG1             = 2,
    D3DTSS_COLORARG2             = 3,
    D3DTSS_ALPHAOP               = 4,
    D3DTSS_ALPHAARG1             = 5,
    D3DTSS_ALPHAARG2             = 6,
    D3DTSS_BUMPENVMAT00          = 7,
    D3DTSS_BUMPENVMAT01          = 8,
    D3DTSS_BUMPENVMAT10          = 9,
    D3DTSS_BUMPENVMAT11          = 10,
    D3DTSS_TEXCOORDINDEX         = 11,
    D3DTSS_ADDRESS               = 12,  /* DX7 only: sets U and V */
    D3DTSS_ADDRESSU              = 13,
    D3DTSS_ADDRESSV              = 14,
    D3DTSS_BORDERCOLOR           = 15,
    D3DTSS_MAGFILTER             = 16,
    D3DTSS_MINFILTER             = 17,
    D3DTSS_MIPFILTER             = 18,
    D3DTSS_MIPMAPLODBIAS         = 19,
    D3DTSS_MAXMIPLEVEL           = 20,
    D3DTSS_MAXANISOTROPY         = 21,
    D3DTSS_BUMPENVLSCALE         = 22,
    D3DTSS_BUMPENVLOFFSET        = 23,
    D3DTSS_TEXTURETRANSFORMFLAGS = 24,
    D3DTSS_ADDRESSW              = 25,  /* DX8 */
    D3DTSS_COLORARG0             = 26,  /* DX8 */
    D3DTSS_ALPHAARG0             = 27,  /* DX8 */
    D3DTSS_RESULTARG             = 28,  /* DX8 */
    D3DTSS_SRGBTEXTURE           = 29,  /* DX9 DDI (D3DSAMP_SRGBTEXTURE) */
    D3DTSS_ELEMENTINDEX          = 30,  /* DX9 DDI (D3DSAMP_ELEMENTINDEX) */
    D3DTSS_DMAPOFFSET            = 31,  /* DX9 DDI (D3DSAMP_DMAPOFFSET) */
    D3DTSS_CONSTANT              = 32,  /* DX9 */
    D3DTSS_FORCE_DWORD           = 0x7fffffff
} D3DTEXTURESTAGESTATETYPE;

/* DX9 API sampler states (ST §2); never seen in DP2 streams. */
typedef enum _D3DSAMPLERSTATETYPE {
    D3DSAMP_ADDRESSU      = 1,
    D3DSAMP_ADDRESSV      = 2,
    D3DSAMP_ADDRESSW      = 3,
    D3DSAMP_BORDERCOLOR   = 4,
    D3DSAMP_MAGFILTER     = 5,
    D3DSAMP_MINFILTER     = 6,
    D3DSAMP_MIPFILTER     = 7,
    D3DSAMP_MIPMAPLODBIAS = 8,
    D3DSAMP_MAXMIPLEVEL   = 9,
    D3DSAMP_MAXANISOTROPY = 10,
    D3DSAMP_SRGBTEXTURE   = 11,
    D3DSAMP_ELEMENTINDEX  = 12,
    D3DSAMP_DMAPOFFSET    = 13,
    D3DSAMP_FORCE_DWORD   = 0x7fffffff
} D3DSAMPLERSTATETYPE;

/* D3DTSS_TEXCOORDINDEX high bits (ST §2) */
#define D3DTSS_TCI_PASSTHRU                     0x00000000
#define D3DTSS_TCI_CAMERASPACENORMAL            0x00010000
#define D3DTSS_TCI_CAMERASPACEPOSITION          0x00020000
#define D3DTSS_TCI_CAMERASPACEREFLECTIONVECTOR  0x00030000
#define D3DTSS_TCI_SPHEREMAP                    0x00040000

/* ---------------------------------------------------------------------------
 * Texture filtering (ST §3)
 * ------------------------------------------------------------------------- */
/* DX7 MAGFILTER values (DX6/7 applications) */
typedef enum _D3DTEXTUREMAGFILTER {
    D3DTFG_POINT = 1, D3DTFG_LINEAR = 2, D3DTFG_FLATCUBIC = 3,
    D3DTFG_GAUSSIANCUBIC = 4, D3DTFG_ANISOTROPIC = 5,
    D3DTFG_FORCE_DWORD = 0x7fffffff
} D3DTEXTUREMAGFILTER;
/* DX7 MINFILTER values */
typedef enum _D3DTEXTUREMINFILTER {
    D3DTFN_POINT = 1, D3DTFN_LINEAR = 2, D3DTFN_ANISOTROPIC = 3,
    D3DTFN_FORCE_DWORD = 0x7fffffff
} D3DTEXTUREMINFILTER;
/* DX7 MIPFILTER values (note the off-by-one against D3DTEXF_) */
typedef enum _D3DTEXTUREMIPFILTER {
    D3DTFP_NONE = 1, D3DTFP_POINT = 2, D3DTFP_LINEAR = 3,
    D3DTFP_FORCE_DWORD = 0x7fffffff
} D3DTEXTUREMIPFILTER;
/* DX8/DX9 filter type (all three slots for DX8+ apps) */
typedef enum _D3DTEXTUREFILTERTYPE {
    D3DTEXF_NONE            = 0,
    D3DTEXF_POINT           = 1,
    D3DTEXF_LINEAR          = 2,
    D3DTEXF_ANISOTROPIC     = 3,
    D3DTEXF_FLATCUBIC       = 4,  /* DX8; re-defined for DX9 drivers */
    D3DTEXF_GAUSSIANCUBIC   = 5,  /* DX8; re-defined for DX9 drivers */
    D3DTEXF_PYRAMIDALQUAD   = 6,
    D3DTEXF_GAUSSIANQUAD    = 7,
    D3DTEXF_CONVOLUTIONMONO = 8,  /* D3D9Ex */
    D3DTEXF_FORCE_DWORD     = 0x7fffffff
} D3DTEXTUREFILTERTYPE;
/* Legacy DX5 render states 17/18 */
typedef enum _D3DTEXTUREFILTER {
    D3DFILTER_NEAREST = 1, D3DFILTER_LINEAR = 2, D3DFILTER_MIPNEAREST = 3,
    D3DFILTER_MIPLINEAR = 4, D3DFILTER_LINEARMIPNEAREST = 5,
    D3DFILTER_LINEARMIPLINEAR = 6,
    D3DFILTER_FORCE_DWORD = 0x7fffffff
} D3DTEXTUREFILTER;

/* ---------------------------------------------------------------------------
 * Texture blending (ST §4)
 * ------------------------------------------------------------------------- */
typedef enum _D3DTEXTUREOP {
    D3DTOP_DISABLE                   = 1,
    D3DTOP_SELECTARG1                = 2,
    D3DTOP_SELECTARG2                = 3,
    D3DTOP_MODULATE                  = 4,
    D3DTOP_MODULATE2X                = 5,
    D3DTOP_MODULATE4X                = 6,
    D3DTOP_ADD                       = 7,
    D3DTOP_ADDSIGNED                 = 8,
    D3DTOP_ADDSIGNED2X               = 9,
    D3DTOP_SUBTRACT                  = 10,
    D3DTOP_ADDSMOOTH                 = 11,
    D3DTOP_BLENDDIFFUSEALPHA         = 12,
    D3DTOP_BLENDTEXTUREALPHA         = 13,
    D3DTOP_BLENDFACTORALPHA          = 14,
    D3DTOP_BLENDTEXTUREALPHAPM       = 15,
    D3DTOP_BLENDCURRENTALPHA         = 16,
    D3DTOP_PREMODULATE               = 17,
    D3DTOP_MODULATEALPHA_ADDCOLOR    = 18,
    D3DTOP_MODULATECOLOR_ADDALPHA    = 19,
    D3DTOP_MODULATEINVALPHA_ADDCOLOR = 20,
    D3DTOP_MODULATEINVCOLOR_ADDALPHA = 21,
    D3DTOP_BUMPENVMAP                = 22,
    D3DTOP_BUMPENVMAPLUMINANCE       = 23,
    D3DTOP_DOTPRODUCT3               = 24,
    D3DTOP_MULTIPLYADD               = 25,  /* DX8 */
    D3DTOP_LERP                      = 26,  /* DX8 */
    D3DTOP_FORCE_DWORD               = 0x7fffffff
} D3DTEXTUREOP;

#define D3DTA_SELECTMASK     0x0000000f
#define D3DTA_DIFFUSE        0x00000000
#define D3DTA_CURRENT        0x00000001
#define D3DTA_TEXTURE        0x00000002
#define D3DTA_TFACTOR        0x00000003
#define D3DTA_SPECULAR       0x00000004
#define D3DTA_TEMP           0x00000005  /* DX8 */
#define D3DTA_CONSTANT       0x00000006  /* DX9 */
#define D3DTA_COMPLEMENT     0x00000010
#define D3DTA_ALPHAREPLICATE 0x00000020

/* Legacy DX5 render state 21 (TEXTUREMAPBLEND) */
typedef enum _D3DTEXTUREBLEND {
    D3DTBLEND_DECAL = 1, D3DTBLEND_MODULATE = 2, D3DTBLEND_DECALALPHA = 3,
    D3DTBLEND_MODULATEALPHA = 4, D3DTBLEND_DECALMASK = 5,
    D3DTBLEND_MODULATEMASK = 6, D3DTBLEND_COPY = 7, D3DTBLEND_ADD = 8,
    D3DTBLEND_FORCE_DWORD = 0x7fffffff
} D3DTEXTUREBLEND;

/* ---------------------------------------------------------------------------
 * Blend, compare, stencil (ST §5, §6)
 * ------------------------------------------------------------------------- */
typedef enum _D3DBLEND {
    D3DBLEND_ZERO            = 1,
    D3DBLEND_ONE             = 2,
    D3DBLEND_SRCCOLOR        = 3,
    D3DBLEND_INVSRCCOLOR     = 4,
    D3DBLEND_SRCALPHA        = 5,
    D3DBLEND_INVSRCALPHA     = 6,
    D3DBLEND_DESTALPHA       = 7,
    D3DBLEND_INVDESTALPHA    = 8,
    D3DBLEND_DESTCOLOR       = 9,
    D3DBLEND_INVDESTCOLOR    = 10,
    D3DBLEND_SRCALPHASAT     = 11,
    D3DBLEND_BOTHSRCALPHA    = 12,
    D3DBLEND_BOTHINVSRCALPHA = 13,
    D3DBLEND_BLENDFACTOR     = 14,  /* DX9 */
    D3DBLEND_INVBLENDFACTOR  = 15,  /* DX9 */
    D3DBLEND_SRCCOLOR2       = 16,  /* D3D9Ex */
    D3DBLEND_INVSRCCOLOR2    = 17,  /* D3D9Ex */
    D3DBLEND_FORCE_DWORD     = 0x7fffffff
} D3DBLEND;

typedef enum _D3DBLENDOP {
    D3DBLENDOP_ADD = 1, D3DBLENDOP_SUBTRACT = 2, D3DBLENDOP_REVSUBTRACT = 3,
    D3DBLENDOP_MIN = 4, D3DBLENDOP_MAX = 5,
    D3DBLENDOP_FORCE_DWORD = 0x7fffffff
} D3DBLENDOP;

typedef enum _D3DCMPFUNC {
    D3DCMP_NEVER = 1, D3DCMP_LESS = 2, D3DCMP_EQUAL = 3, D3DCMP_LESSEQUAL = 4,
    D3DCMP_GREATER = 5, D3DCMP_NOTEQUAL = 6, D3DCMP_GREATEREQUAL = 7,
    D3DCMP_ALWAYS = 8,
    D3DCMP_FORCE_DWORD = 0x7fffffff
} D3DCMPFUNC;

typedef enum _D3DSTENCILOP {
    D3DSTENCILOP_KEEP = 1, D3DSTENCILOP_ZERO = 2, D3DSTENCILOP_REPLACE = 3,
    D3DSTENCILOP_INCRSAT = 4, D3DSTENCILOP_DECRSAT = 5, D3DSTENCILOP_INVERT = 6,
    D3DSTENCILOP_INCR = 7, D3DSTENCILOP_DECR = 8,
    D3DSTENCILOP_FORCE_DWORD = 0x7fffffff
} D3DSTENCILOP;

/* ---------------------------------------------------------------------------
 * Fog, shade, fill, cull, Z, antialias (ST §7), address (ST §8)
 * ------------------------------------------------------------------------- */
typedef enum _D3DFOGMODE {
    D3DFOG_NONE = 0, D3DFOG_EXP = 1, D3DFOG_EXP2 = 2, D3DFOG_LINEAR = 3,
    D3DFOG_FORCE_DWORD = 0x7fffffff
} D3DFOGMODE;

typedef enum _D3DSHADEMODE {
    D3DSHADE_FLAT = 1, D3DSHADE_GOURAUD = 2, D3DSHADE_PHONG = 3,
    D3DSHADE_FORCE_DWORD = 0x7fffffff
} D3DSHADEMODE;

typedef enum _D3DFILLMODE {
    D3DFILL_POINT = 1, D3DFILL_WIREFRAME = 2, D3DFILL_SOLID = 3,
    D3DFILL_FORCE_DWORD = 0x7fffffff
} D3DFILLMODE;

/* D3DCULL_CW culls clockwise (screen-space) triangles; CCW is the default. */
typedef enum _D3DCULL {
    D3DCULL_NONE = 1, D3DCULL_CW = 2, D3DCULL_CCW = 3,
    D3DCULL_FORCE_DWORD = 0x7fffffff
} D3DCULL;

typedef enum _D3DZBUFFERTYPE {
    D3DZB_FALSE = 0, D3DZB_TRUE = 1, D3DZB_USEW = 2,
    D3DZB_FORCE_DWORD = 0x7fffffff
} D3DZBUFFERTYPE;

typedef enum _D3DANTIALIASMODE {
    D3DANTIALIAS_NONE = 0, D3DANTIALIAS_SORTDEPENDENT = 1,
    D3DANTIALIAS_SORTINDEPENDENT = 2,
    D3DANTIALIAS_FORCE_DWORD = 0x7fffffff
} D3DANTIALIASMODE;

typedef enum _D3DTEXTUREADDRESS {
    D3DTADDRESS_WRAP = 1, D3DTADDRESS_MIRROR = 2, D3DTADDRESS_CLAMP = 3,
    D3DTADDRESS_BORDER = 4, D3DTADDRESS_MIRRORONCE = 5 /* DX8 */,
    D3DTADDRESS_FORCE_DWORD = 0x7fffffff
} D3DTEXTUREADDRESS;

/* ---------------------------------------------------------------------------
 * Small flag sets used by states (ST §9)
 * ------------------------------------------------------------------------- */
/* Wrap flags (render states 128-135, 198-205) */
#define D3DWRAPCOORD_0 0x00000001
#define D3DWRAPCOORD_1 0x00000002
#define D3DWRAPCOORD_2 0x00000004
#define D3DWRAPCOORD_3 0x00000008
#define D3DWRAP_U      0x00000001
#define D3DWRAP_V      0x00000002
#define D3DWRAP_W      0x00000004  /* DX8 */

/* D3DTSS_TEXTURETRANSFORMFLAGS */
typedef enum _D3DTEXTURETRANSFORMFLAGS {
    D3DTTFF_DISABLE = 0, D3DTTFF_COUNT1 = 1, D3DTTFF_COUNT2 = 2,
    D3DTTFF_COUNT3 = 3, D3DTTFF_COUNT4 = 4, D3DTTFF_PROJECTED = 256,
    D3DTTFF_FORCE_DWORD = 0x7fffffff
} D3DTEXTURETRANSFORMFLAGS;

/* Render states 145-148 */
typedef enum _D3DMATERIALCOLORSOURCE {
    D3DMCS_MATERIAL = 0, D3DMCS_COLOR1 = 1, D3DMCS_COLOR2 = 2,
    D3DMCS_FORCE_DWORD = 0x7fffffff
} D3DMATERIALCOLORSOURCE;

/* Render state 151 (VERTEXBLEND): DX8/9 values; DX7 values below. */
typedef enum _D3DVERTEXBLENDFLAGS {
    D3DVBF_DISABLE = 0, D3DVBF_1WEIGHTS = 1, D3DVBF_2WEIGHTS = 2,
    D3DVBF_3WEIGHTS = 3, D3DVBF_TWEENING = 255, D3DVBF_0WEIGHTS = 256,
    D3DVBF_FORCE_DWORD = 0x7fffffff
} D3DVERTEXBLENDFLAGS;
#define D3DVBLEND_DISABLE   0  /* DX7 */
#define D3DVBLEND_1WEIGHT   1
#define D3DVBLEND_2WEIGHTS  2
#define D3DVBLEND_3WEIGHTS  3

/* Render states 168, 190-192 */
#define D3DCOLORWRITEENABLE_RED   (1 << 0)
#define D3DCOLORWRITEENABLE_GREEN (1 << 1)
#define D3DCOLORWRITEENABLE_BLUE  (1 << 2)
#define D3DCOLORWRITEENABLE_ALPHA (1 << 3)

/* Patches: render state 163, 172/173, patch-info Basis/Degree */
typedef enum _D3DPATCHEDGESTYLE {
    D3DPATCHEDGE_DISCRETE = 0, D3DPATCHEDGE_CONTINUOUS = 1,
    D3DPATCHEDGE_FORCE_DWORD = 0x7fffffff
} D3DPATCHEDGESTYLE;
typedef enum _D3DDEGREETYPE {
    D3DDEGREE_LINEAR = 1, D3DDEGREE_QUADRATIC = 2, D3DDEGREE_CUBIC = 3,
    D3DDEGREE_QUINTIC = 5,
    D3DDEGREE_FORCE_DWORD = 0x7fffffff
} D3DDEGREETYPE;
/* DX8 name of D3DDEGREETYPE */
typedef D3DDEGREETYPE D3DORDERTYPE;
#define D3DORDER_LINEAR    D3DDEGREE_LINEAR
#define D3DORDER_QUADRATIC D3DDEGREE_QUADRATIC
#define D3DORDER_CUBIC     D3DDEGREE_CUBIC
#define D3DORDER_QUINTIC   D3DDEGREE_QUINTIC
typedef enum _D3DBASISTYPE {
    D3DBASIS_BEZIER = 0, D3DBASIS_BSPLINE = 1, D3DBASIS_CATMULL_ROM = 2,
    D3DBASIS_FORCE_DWORD = 0x7fffffff
} D3DBASISTYPE;
#define D3DBASIS_INTERPOLATE D3DBASIS_CATMULL_ROM  /* DX8 name */

/* ---------------------------------------------------------------------------
 * Flexible vertex format (ST §10)
 *
 * Reserved bits by DirectX level (an FVF with any of them set is invalid):
 *   bit / mask  DX7                  DX8                  DX9
 *   0x0001      RESERVED0            RESERVED0            RESERVED0
 *   0x0020      RESERVED1            PSIZE                PSIZE
 *   0x1000      reserved (RES2)      LASTBETA_UBYTE4      LASTBETA_UBYTE4
 *   0x2000      reserved (RES2)      reserved (RES2)      FOG (DDI only)
 *   0x4000      reserved (RES2)      reserved (RES2)      XYZW position bit
 *   0x8000      reserved (RES2)      reserved (RES2)      LASTBETA_D3DCOLOR
 *   RESERVED2 = 0xF000 (DX7), 0xE000 (DX8), 0x6000 (DX9).
 *   POSITION_MASK = 0x000E (DX7/DX8), 0x400E (DX9).
 * The unsuffixed names carry the DX9 values. In a shader handle, bit 0
 * (RESERVED0) set means "not an FVF code".
 * ------------------------------------------------------------------------- */
#define D3DFVF_RESERVED0          0x0001
#define D3DFVF_POSITION_MASK      0x400E
#define D3DFVF_POSITION_MASK_DX7  0x000E
#define D3DFVF_POSITION_MASK_DX8  0x000E
#define D3DFVF_XYZ                0x0002
#define D3DFVF_XYZRHW             0x0004
#define D3DFVF_XYZB1              0x0006
#define D3DFVF_XYZB2              0x0008
#define D3DFVF_XYZB3              0x000A
#define D3DFVF_XYZB4              0x000C
#define D3DFVF_XYZB5              0x000E
#define D3DFVF_XYZW               0x4002  /* DX9 */
#define D3DFVF_NORMAL             0x0010
#define D3DFVF_RESERVED1          0x0020  /* DX7 name of the PSIZE bit */
#define D3DFVF_PSIZE              0x0020  /* DX8+ */
#define D3DFVF_DIFFUSE            0x0040
#define D3DFVF_SPECULAR           0x0080
#define D3DFVF_TEXCOUNT_MASK      0x0F00
#define D3DFVF_TEXCOUNT_SHIFT     8
#define D3DFVF_TEX0               0x0000
#define D3DFVF_TEX1               0x0100
#define D3DFVF_TEX2               0x0200
#define D3DFVF_TEX3               0x0300
#define D3DFVF_TEX4               0x0400
#define D3DFVF_TEX5               0x0500
#define D3DFVF_TEX6               0x0600
#define D3DFVF_TEX7               0x0700
#define D3DFVF_TEX8               0x0800
#define D3DFVF_LASTBETA_UBYTE4    0x1000  /* DX8+ */
#define D3DFVF_FOG                0x2000  /* DX9 DDI only (d3dhal.h) */
#define D3DFVF_LASTBETA_D3DCOLOR  0x8000  /* DX9 */
#define D3DFVF_RESERVED2          0x6000
#define D3DFVF_RESERVED2_DX7      0xF000
#define D3DFVF_RESERVED2_DX8      0xE000
#define D3DFVF_TEXTUREFORMAT2     0       /* 2 floats (default) */
#define D3DFVF_TEXTUREFORMAT1     3       /* 1 float */
#define D3DFVF_TEXTUREFORMAT3     1       /* 3 floats */
#define D3DFVF_TEXTUREFORMAT4     2       /* 4 floats */
#define D3DFVF_TEXCOORDSIZE1(i)   (D3DFVF_TEXTUREFORMAT1 << ((i) * 2 + 16))
#define D3DFVF_TEXCOORDSIZE2(i)   (D3DFVF_TEXTUREFORMAT2)
#define D3DFVF_TEXCOORDSIZE3(i)   (D3DFVF_TEXTUREFORMAT3 << ((i) * 2 + 16))
#define D3DFVF_TEXCOORDSIZE4(i)   (D3DFVF_TEXTUREFORMAT4 << ((i) * 2 + 16))
/* DX7 convenience codes */
#define D3DFVF_VERTEX   (D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1)                        /* 0x112 */
#define D3DFVF_LVERTEX  (D3DFVF_XYZ | D3DFVF_RESERVED1 | D3DFVF_DIFFUSE | D3DFVF_SPECULAR | D3DFVF_TEX1) /* 0x1E2 */
#define D3DFVF_TLVERTEX (D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_SPECULAR | D3DFVF_TEX1)  /* 0x1C4 */

/* ---------------------------------------------------------------------------
 * D3DHAL_DP2CLEAR.dwFlags (ST §11, OPC §4.2)
 * ------------------------------------------------------------------------- */
#define D3DCLEAR_TARGET        0x00000001
#define D3DCLEAR_ZBUFFER       0x00000002
#define D3DCLEAR_STENCIL       0x00000004
#define D3DCLEAR_COMPUTERECTS  0x00000008  /* DDI only, DX8 pure device */

/* ---------------------------------------------------------------------------
 * Transform state IDs (ST §12). World matrices: 256+i from DX8+ apps,
 * 1/4/5/6 from pre-DX8 apps.
 * ------------------------------------------------------------------------- */
typedef enum _D3DTRANSFORMSTATETYPE {
    D3DTRANSFORMSTATE_WORLD  = 1,   /* DX7 */
    D3DTS_VIEW               = 2,
    D3DTS_PROJECTION         = 3,
    D3DTRANSFORMSTATE_WORLD1 = 4,   /* DX7 */
    D3DTRANSFORMSTATE_WORLD2 = 5,   /* DX7 */
    D3DTRANSFORMSTATE_WORLD3 = 6,   /* DX7 */
    D3DTS_TEXTURE0           = 16,
    D3DTS_TEXTURE1           = 17,
    D3DTS_TEXTURE2           = 18,
    D3DTS_TEXTURE3           = 19,
    D3DTS_TEXTURE4           = 20,
    D3DTS_TEXTURE5           = 21,
    D3DTS_TEXTURE6           = 22,
    D3DTS_TEXTURE7           = 23,
    D3DTS_FORCE_DWORD        = 0x7fffffff
} D3DTRANSFORMSTATETYPE;
#define D3DTRANSFORMSTATE_VIEW        D3DTS_VIEW
#define D3DTRANSFORMSTATE_PROJECTION  D3DTS_PROJECTION
#define D3DTRANSFORMSTATE_TEXTURE0    D3DTS_TEXTURE0
#define D3DTRANSFORMSTATE_TEXTURE1    D3DTS_TEXTURE1
#define D3DTRANSFORMSTATE_TEXTURE2    D3DTS_TEXTURE2
#define D3DTRANSFORMSTATE_TEXTURE3    D3DTS_TEXTURE3
#define D3DTRANSFORMSTATE_TEXTURE4    D3DTS_TEXTURE4
#define D3DTRANSFORMSTATE_TEXTURE5    D3DTS_TEXTURE5
#define D3DTRANSFORMSTATE_TEXTURE6    D3DTS_TEXTURE6
#define D3DTRANSFORMSTATE_TEXTURE7    D3DTS_TEXTURE7
#define D3DTRANSFORMSTATE_FORCE_DWORD D3DTS_FORCE_DWORD
/* DDI aliases for pre-DX8 world matrices (d3dhal.h) */
#define D3DTRANSFORMSTATE_WORLD_DX7   1
#define D3DTRANSFORMSTATE_WORLD1_DX7  4
#define D3DTRANSFORMSTATE_WORLD2_DX7  5
#define D3DTRANSFORMSTATE_WORLD3_DX7  6
#define D3DTS_WORLDMATRIX(i)          ((D3DTRANSFORMSTATETYPE)((i) + 256))
#define D3DTS_WORLD                   D3DTS_WORLDMATRIX(0)
#define D3DTS_WORLD1                  D3DTS_WORLDMATRIX(1)
#define D3DTS_WORLD2                  D3DTS_WORLDMATRIX(2)
#define D3DTS_WORLD3                  D3DTS_WORLDMATRIX(3)

/* ---------------------------------------------------------------------------
 * Enums and constants inside DP2 payloads (ST §13, OPC §4.2)
 * ------------------------------------------------------------------------- */
typedef enum _D3DPRIMITIVETYPE {
    D3DPT_POINTLIST = 1, D3DPT_LINELIST = 2, D3DPT_LINESTRIP = 3,
    D3DPT_TRIANGLELIST = 4, D3DPT_TRIANGLESTRIP = 5, D3DPT_TRIANGLEFAN = 6,
    D3DPT_FORCE_DWORD = 0x7fffffff
} D3DPRIMITIVETYPE;

/* D3DHAL_DP2STATESET.sbType; 0 = no predefined group */
typedef enum _D3DSTATEBLOCKTYPE {
    D3DSBT_ALL = 1, D3DSBT_PIXELSTATE = 2, D3DSBT_VERTEXSTATE = 3,
    D3DSBT_FORCE_DWORD = 0x7fffffff  /* DX7 header: 0xffffffff (ST §17 S4) */
} D3DSTATEBLOCKTYPE;

/* D3DHAL_DP2STATESET.dwOperation */
#define D3DHAL_STATESETBEGIN    0
#define D3DHAL_STATESETEND      1
#define D3DHAL_STATESETDELETE   2
#define D3DHAL_STATESETEXECUTE  3
#define D3DHAL_STATESETCAPTURE  4
#define D3DHAL_STATESETCREATE   5  /* DX8, pure device */

/* D3DHAL_DP2SETLIGHT.dwDataType */
#define D3DHAL_SETLIGHT_ENABLE  0
#define D3DHAL_SETLIGHT_DISABLE 1
#define D3DHAL_SETLIGHT_DATA    2  /* a D3DLIGHT7 follows */

/* D3DLIGHT7.dltType */
typedef enum _D3DLIGHTTYPE {
    D3DLIGHT_POINT = 1, D3DLIGHT_SPOT = 2, D3DLIGHT_DIRECTIONAL = 3,
    D3DLIGHT_PARALLELPOINT = 4,  /* DX7 only */
    D3DLIGHT_FORCE_DWORD = 0x7fffffff
} D3DLIGHTTYPE;

/* D3DHAL_DP2DRAWRECTPATCH / DRAWTRIPATCH .Flags */
#define RTPATCHFLAG_HASSEGS 0x00000001u
#define RTPATCHFLAG_HASINFO 0x00000002u

/* D3DHAL_DP2BLT.Flags */
#define DP2BLT_POINT  0x00000001u
#define DP2BLT_LINEAR 0x00000002u

/* D3DHAL_DP2SETCONVOLUTIONKERNELMONO.dwFlags */
#define D3DHAL_ROW_WEIGHTS 1
#define D3DHAL_COL_WEIGHTS 2

/* D3DHAL_DP2SETPALETTE.dwPaletteFlags (docs: only _ALPHA is meaningful) */
#define DDRAWIPAL_256          0x00000001u
#define DDRAWIPAL_16           0x00000002u
#define DDRAWIPAL_GDI          0x00000004u
#define DDRAWIPAL_STORED_8     0x00000008u
#define DDRAWIPAL_STORED_16    0x00000010u
#define DDRAWIPAL_STORED_24    0x00000020u
#define DDRAWIPAL_EXCLUSIVE    0x00000040u
#define DDRAWIPAL_INHEL        0x00000080u
#define DDRAWIPAL_DIRTY        0x00000100u
#define DDRAWIPAL_ALLOW256     0x00000200u
#define DDRAWIPAL_4            0x00000400u
#define DDRAWIPAL_2            0x00000800u
#define DDRAWIPAL_STORED_8INDEX 0x00001000u
#define DDRAWIPAL_ALPHA        0x00002000u

/* D3DHAL_DP2INDEXEDTRIANGLELIST.wFlags (OPC §2 rule 7) */
#define D3DTRIFLAG_EDGEENABLE1        0x00000100
#define D3DTRIFLAG_EDGEENABLE2        0x00000200
#define D3DTRIFLAG_EDGEENABLE3        0x00000400
#define D3DTRIFLAG_EDGEENABLETRIANGLE \
    (D3DTRIFLAG_EDGEENABLE1 | D3DTRIFLAG_EDGEENABLE2 | D3DTRIFLAG_EDGEENABLE3)

/* D3DHAL_DP2COMPOSERECTS.Operation (D3D9Ex) */
typedef enum _D3DCOMPOSERECTSOP {
    D3DCOMPOSERECTS_COPY = 1, D3DCOMPOSERECTS_OR = 2, D3DCOMPOSERECTS_AND = 3,
    D3DCOMPOSERECTS_NEG = 4,
    D3DCOMPOSERECTS_FORCE_DWORD = 0x7fffffff
} D3DCOMPOSERECTSOP;
#define D3DCOMPOSERECTS_MAXNUMRECTS 0xFFFF

/* D3DHAL_DP2CREATEQUERY.QueryType */
typedef enum _D3DQUERYTYPE {
    D3DQUERYTYPE_VCACHE            = 4,
    D3DQUERYTYPE_RESOURCEMANAGER   = 5,
    D3DQUERYTYPE_VERTEXSTATS       = 6,
    D3DQUERYTYPE_EVENT             = 8,
    D3DQUERYTYPE_OCCLUSION         = 9,
    D3DQUERYTYPE_TIMESTAMP         = 10,
    D3DQUERYTYPE_TIMESTAMPDISJOINT = 11,
    D3DQUERYTYPE_TIMESTAMPFREQ     = 12,
    D3DQUERYTYPE_PIPELINETIMINGS   = 13,
    D3DQUERYTYPE_INTERFACETIMINGS  = 14,
    D3DQUERYTYPE_VERTEXTIMINGS     = 15,
    D3DQUERYTYPE_PIXELTIMINGS      = 16,
    D3DQUERYTYPE_BANDWIDTHTIMINGS  = 17,
    D3DQUERYTYPE_CACHEUTILIZATION  = 18,
    D3DQUERYTYPE_MEMORYPRESSURE    = 19,
    D3DQUERYTYPE_FORCE_DWORD       = 0x7fffffff
} D3DQUERYTYPE;

/* D3DHAL_DP2ISSUEQUERY.dwFlags */
#define D3DISSUE_END   (1 << 0)
#define D3DISSUE_BEGIN (1 << 1)

/* D3DVERTEXELEMENT9 Type / Method / Usage (stored as BYTEs) */
typedef enum _D3DDECLTYPE {
    D3DDECLTYPE_FLOAT1 = 0, D3DDECLTYPE_FLOAT2 = 1, D3DDECLTYPE_FLOAT3 = 2,
    D3DDECLTYPE_FLOAT4 = 3, D3DDECLTYPE_D3DCOLOR = 4, D3DDECLTYPE_UBYTE4 = 5,
    D3DDECLTYPE_SHORT2 = 6, D3DDECLTYPE_SHORT4 = 7, D3DDECLTYPE_UBYTE4N = 8,
    D3DDECLTYPE_SHORT2N = 9, D3DDECLTYPE_SHORT4N = 10,
    D3DDECLTYPE_USHORT2N = 11, D3DDECLTYPE_USHORT4N = 12,
    D3DDECLTYPE_UDEC3 = 13, D3DDECLTYPE_DEC3N = 14,
    D3DDECLTYPE_FLOAT16_2 = 15, D3DDECLTYPE_FLOAT16_4 = 16,
    D3DDECLTYPE_UNUSED = 17
} D3DDECLTYPE;
typedef enum _D3DDECLMETHOD {
    D3DDECLMETHOD_DEFAULT = 0, D3DDECLMETHOD_PARTIALU = 1,
    D3DDECLMETHOD_PARTIALV = 2, D3DDECLMETHOD_CROSSUV = 3,
    D3DDECLMETHOD_UV = 4, D3DDECLMETHOD_LOOKUP = 5,
    D3DDECLMETHOD_LOOKUPPRESAMPLED = 6
} D3DDECLMETHOD;
typedef enum _D3DDECLUSAGE {
    D3DDECLUSAGE_POSITION = 0, D3DDECLUSAGE_BLENDWEIGHT = 1,
    D3DDECLUSAGE_BLENDINDICES = 2, D3DDECLUSAGE_NORMAL = 3,
    D3DDECLUSAGE_PSIZE = 4, D3DDECLUSAGE_TEXCOORD = 5,
    D3DDECLUSAGE_TANGENT = 6, D3DDECLUSAGE_BINORMAL = 7,
    D3DDECLUSAGE_TESSFACTOR = 8, D3DDECLUSAGE_POSITIONT = 9,
    D3DDECLUSAGE_COLOR = 10, D3DDECLUSAGE_FOG = 11, D3DDECLUSAGE_DEPTH = 12,
    D3DDECLUSAGE_SAMPLE = 13
} D3DDECLUSAGE;

/* ---------------------------------------------------------------------------
 * Surface formats (ST §16). FOURCC codes via MAKEFOURCC.
 * ------------------------------------------------------------------------- */
typedef enum _D3DFORMAT {
    D3DFMT_UNKNOWN             = 0,
    D3DFMT_R8G8B8              = 20,
    D3DFMT_A8R8G8B8            = 21,
    D3DFMT_X8R8G8B8            = 22,
    D3DFMT_R5G6B5              = 23,
    D3DFMT_X1R5G5B5            = 24,
    D3DFMT_A1R5G5B5            = 25,
    D3DFMT_A4R4G4B4            = 26,
    D3DFMT_R3G3B2              = 27,
    D3DFMT_A8                  = 28,
    D3DFMT_A8R3G3B2            = 29,
    D3DFMT_X4R4G4B4            = 30,
    D3DFMT_A2B10G10R10         = 31,
    D3DFMT_A8B8G8R8            = 32,  /* DX9 */
    D3DFMT_X8B8G8R8            = 33,  /* DX9 */
    D3DFMT_G16R16              = 34,
    D3DFMT_A2R10G10B10         = 35,  /* DX9 */
    D3DFMT_A16B16G16R16        = 36,  /* DX9 */
    D3DFMT_A8P8                = 40,
    D3DFMT_P8                  = 41,
    D3DFMT_L8                  = 50,
    D3DFMT_A8L8                = 51,
    D3DFMT_A4L4                = 52,
    D3DFMT_V8U8                = 60,
    D3DFMT_L6V5U5              = 61,
    D3DFMT_X8L8V8U8            = 62,
    D3DFMT_Q8W8V8U8            = 63,
    D3DFMT_V16U16              = 64,
    D3DFMT_W11V11U10           = 65,  /* DX8.1; DDI-only in DX9 */
    D3DFMT_A2W10V10U10         = 67,
    D3DFMT_UYVY                = MAKEFOURCC('U', 'Y', 'V', 'Y'),
    D3DFMT_R8G8_B8G8           = MAKEFOURCC('R', 'G', 'B', 'G'),
    D3DFMT_YUY2                = MAKEFOURCC('Y', 'U', 'Y', '2'),
    D3DFMT_G8R8_G8B8           = MAKEFOURCC('G', 'R', 'G', 'B'),
    D3DFMT_DXT1                = MAKEFOURCC('D', 'X', 'T', '1'),
    D3DFMT_DXT2                = MAKEFOURCC('D', 'X', 'T', '2'),
    D3DFMT_DXT3                = MAKEFOURCC('D', 'X', 'T', '3'),
    D3DFMT_DXT4                = MAKEFOURCC('D', 'X', 'T', '4'),
    D3DFMT_DXT5                = MAKEFOURCC('D', 'X', 'T', '5'),
    D3DFMT_D16_LOCKABLE        = 70,
    D3DFMT_D32                 = 71,
    D3DFMT_S1D15               = 72,  /* DDI only */
    D3DFMT_D15S1               = 73,
    D3DFMT_S8D24               = 74,  /* DDI only */
    D3DFMT_D24S8               = 75,
    D3DFMT_X8D24               = 76,  /* DDI only */
    D3DFMT_D24X8               = 77,
    D3DFMT_X4S4D24             = 78,  /* DDI only */
    D3DFMT_D24X4S4             = 79,
    D3DFMT_D16                 = 80,
    D3DFMT_L16                 = 81,  /* DX9 */
    D3DFMT_D32F_LOCKABLE       = 82,  /* DX9 */
    D3DFMT_D24FS8              = 83,  /* DX9 */
    D3DFMT_D32_LOCKABLE        = 84,  /* D3D9Ex */
    D3DFMT_S8_LOCKABLE         = 85,  /* D3D9Ex */
    D3DFMT_VERTEXDATA          = 100,
    D3DFMT_INDEX16             = 101,
    D3DFMT_INDEX32             = 102,
    D3DFMT_Q16W16V16U16        = 110,
    D3DFMT_MULTI2_ARGB8        = MAKEFOURCC('M', 'E', 'T', '1'),
    D3DFMT_R16F                = 111,
    D3DFMT_G16R16F             = 112,
    D3DFMT_A16B16G16R16F       = 113,
    D3DFMT_R32F                = 114,
    D3DFMT_G32R32F             = 115,
    D3DFMT_A32B32G32R32F       = 116,
    D3DFMT_CxV8U8              = 117,
    D3DFMT_A1                  = 118,  /* D3D9Ex */
    D3DFMT_A2B10G10R10_XR_BIAS = 119,  /* D3D9Ex */
    D3DFMT_BINARYBUFFER        = 199,  /* D3D9Ex */
    D3DFMT_FORCE_DWORD         = 0x7fffffff
} D3DFORMAT;

/* DDPIXELFORMAT.dwFlags bits (ST §16) */
#define DDPF_ALPHAPIXELS          0x00000001u
#define DDPF_ALPHA                0x00000002u
#define DDPF_FOURCC               0x00000004u
#define DDPF_PALETTEINDEXED4      0x00000008u
#define DDPF_PALETTEINDEXEDTO8    0x00000010u
#define DDPF_PALETTEINDEXED8      0x00000020u
#define DDPF_RGB                  0x00000040u
#define DDPF_COMPRESSED           0x00000080u
#define DDPF_RGBTOYUV             0x00000100u
#define DDPF_YUV                  0x00000200u
#define DDPF_ZBUFFER              0x00000400u
#define DDPF_PALETTEINDEXED1      0x00000800u
#define DDPF_PALETTEINDEXED2      0x00001000u
#define DDPF_ZPIXELS              0x00002000u
#define DDPF_STENCILBUFFER        0x00004000u
#define DDPF_ALPHAPREMULT         0x00008000u
#define DDPF_LUMINANCE            0x00020000u
#define DDPF_BUMPLUMINANCE        0x00040000u
#define DDPF_BUMPDUDV             0x00080000u
#define DDPF_NOVEL_TEXTURE_FORMAT 0x00100000u  /* DDI only */
#define DDPF_D3DFORMAT            0x00200000u  /* DDI only */
#define FOURCC_DXT1 MAKEFOURCC('D', 'X', 'T', '1')
#define FOURCC_DXT2 MAKEFOURCC('D', 'X', 'T', '2')
#define FOURCC_DXT3 MAKEFOURCC('D', 'X', 'T', '3')
#define FOURCC_DXT4 MAKEFOURCC('D', 'X', 'T', '4')
#define FOURCC_DXT5 MAKEFOURCC('D', 'X', 'T', '5')

/* ---------------------------------------------------------------------------
 * DP2 command header and response header (OPC §1)
 * ------------------------------------------------------------------------- */
typedef struct _D3DHAL_DP2COMMAND {
    BYTE bCommand;     /* D3DHAL_DP2OPERATION */
    BYTE bReserved;
    DP2_ANON_UNION {
        WORD wPrimitiveCount;
        WORD wStateCount;
    };
} D3DHAL_DP2COMMAND, *LPD3DHAL_DP2COMMAND;

/* DX9 driver -> runtime response record (opcodes 87/88) */
typedef struct _D3DHAL_DP2RESPONSE {
    BYTE  bCommand;
    BYTE  bReserved;
    WORD  wStateCount;
    DWORD dwTotalSize;  /* bytes including this 8-byte header */
} D3DHAL_DP2RESPONSE, *LPD3DHAL_DP2RESPONSE;

typedef struct _D3DHAL_DP2RESPONSEQUERY {
    DWORD dwQueryID;
    DWORD dwSize;       /* bytes of result data that follow */
} D3DHAL_DP2RESPONSEQUERY, *LPD3DHAL_DP2RESPONSEQUERY;

/* ---------------------------------------------------------------------------
 * D3dDrawPrimitives2 argument block (OPC §4), with portable pointer fields.
 *
 * Same member names and byte layout as the SDK structure (56 bytes on
 * 32-bit, 72 on 64-bit). The SDK declares lpDDCommands / lpDDVertex as
 * LPDDRAWI_DDRAWSURFACE_LCL pointers; dp2 has no DirectDraw surface
 * objects, so here they are pointer-sized ULONG_PTR *surface handles* that
 * the dp2 device resolves through its own surface table and never
 * dereferences. lpVertices (valid with D3DHALDP2_USERMEMVERTICES) and
 * lpdwRStates are real pointers.
 * ------------------------------------------------------------------------- */
typedef struct _D3DHAL_DRAWPRIMITIVES2DATA {
    ULONG_PTR dwhContext;
    DWORD     dwFlags;             /* D3DHALDP2_* */
    DWORD     dwVertexType;        /* FVF of the legacy vertex buffer */
    ULONG_PTR lpDDCommands;        /* command surface handle */
    DWORD     dwCommandOffset;
    DWORD     dwCommandLength;
    DP2_ANON_UNION {
        ULONG_PTR lpDDVertex;      /* vertex surface handle */
        LPVOID    lpVertices;      /* user memory (D3DHALDP2_USERMEMVERTICES) */
    };
    DWORD     dwVertexOffset;
    DWORD     dwVertexLength;      /* in vertices */
    DWORD     dwReqVertexBufSize;
    DWORD     dwReqCommandBufSize;
    LPDWORD   lpdwRStates;         /* render-state mirror (EXECUTEBUFFER) */
    DP2_ANON_UNION {
        DWORD   dwVertexSize;      /* in: stride */
        HRESULT ddrval;            /* out: result */
    };
    DWORD     dwErrorOffset;
} D3DHAL_DRAWPRIMITIVES2DATA, *LPD3DHAL_DRAWPRIMITIVES2DATA;

/* ---------------------------------------------------------------------------
 * Payload structures (OPC §4.1). All have identical 32/64-bit layout.
 * ------------------------------------------------------------------------- */
typedef struct _D3DHAL_DP2POINTS { WORD wCount; WORD wVStart; } D3DHAL_DP2POINTS, *LPD3DHAL_DP2POINTS;
typedef struct _D3DHAL_DP2STARTVERTEX { WORD wVStart; } D3DHAL_DP2STARTVERTEX, *LPD3DHAL_DP2STARTVERTEX;
typedef struct _D3DHAL_DP2LINELIST { WORD wVStart; } D3DHAL_DP2LINELIST, *LPD3DHAL_DP2LINELIST;
typedef struct _D3DHAL_DP2INDEXEDLINELIST { WORD wV1; WORD wV2; } D3DHAL_DP2INDEXEDLINELIST, *LPD3DHAL_DP2INDEXEDLINELIST;
typedef struct _D3DHAL_DP2LINESTRIP { WORD wVStart; } D3DHAL_DP2LINESTRIP, *LPD3DHAL_DP2LINESTRIP;
/* really n+1 WORD indices */
typedef struct _D3DHAL_DP2INDEXEDLINESTRIP { WORD wV[2]; } D3DHAL_DP2INDEXEDLINESTRIP, *LPD3DHAL_DP2INDEXEDLINESTRIP;
typedef struct _D3DHAL_DP2TRIANGLELIST { WORD wVStart; } D3DHAL_DP2TRIANGLELIST, *LPD3DHAL_DP2TRIANGLELIST;
typedef struct _D3DHAL_DP2INDEXEDTRIANGLELIST {
    WORD wV1; WORD wV2; WORD wV3;
    WORD wFlags;   /* D3DTRIFLAG_EDGEENABLE* */
} D3DHAL_DP2INDEXEDTRIANGLELIST, *LPD3DHAL_DP2INDEXEDTRIANGLELIST;
typedef struct _D3DHAL_DP2INDEXEDTRIANGLELIST2 { WORD wV1; WORD wV2; WORD wV3; } D3DHAL_DP2INDEXEDTRIANGLELIST2, *LPD3DHAL_DP2INDEXEDTRIANGLELIST2;
typedef struct _D3DHAL_DP2TRIANGLESTRIP { WORD wVStart; } D3DHAL_DP2TRIANGLESTRIP, *LPD3DHAL_DP2TRIANGLESTRIP;
/* really n+2 WORD indices */
typedef struct _D3DHAL_DP2INDEXEDTRIANGLESTRIP { WORD wV[3]; } D3DHAL_DP2INDEXEDTRIANGLESTRIP, *LPD3DHAL_DP2INDEXEDTRIANGLESTRIP;
typedef struct _D3DHAL_DP2TRIANGLEFAN { WORD wVStart; } D3DHAL_DP2TRIANGLEFAN, *LPD3DHAL_DP2TRIANGLEFAN;
/* really n+2 WORD indices */
typedef struct _D3DHAL_DP2INDEXEDTRIANGLEFAN { WORD wV[3]; } D3DHAL_DP2INDEXEDTRIANGLEFAN, *LPD3DHAL_DP2INDEXEDTRIANGLEFAN;
typedef struct _D3DHAL_DP2TRIANGLEFAN_IMM { DWORD dwEdgeFlags; } D3DHAL_DP2TRIANGLEFAN_IMM, *LPD3DHAL_DP2TRIANGLEFAN_IMM;

typedef struct _D3DHAL_DP2RENDERSTATE {
    D3DRENDERSTATETYPE RenderState;
    DP2_ANON_UNION {
        D3DVALUE dvState;
        DWORD    dwState;
    };
} D3DHAL_DP2RENDERSTATE, *LPD3DHAL_DP2RENDERSTATE;

typedef struct _D3DHAL_DP2TEXTURESTAGESTATE {
    WORD  wStage;
    WORD  TSState;   /* D3DTEXTURESTAGESTATETYPE */
    DWORD dwValue;
} D3DHAL_DP2TEXTURESTAGESTATE, *LPD3DHAL_DP2TEXTURESTAGESTATE;

typedef struct _D3DHAL_DP2VIEWPORTINFO { DWORD dwX; DWORD dwY; DWORD dwWidth; DWORD dwHeight; } D3DHAL_DP2VIEWPORTINFO, *LPD3DHAL_DP2VIEWPORTINFO;
/* mingw-w64 names the members dwWNear/dwWFar (OPC §5.2 H5) */
typedef struct _D3DHAL_DP2WINFO { D3DVALUE dvWNear; D3DVALUE dvWFar; } D3DHAL_DP2WINFO, *LPD3DHAL_DP2WINFO;
typedef struct _D3DHAL_DP2SETPALETTE { DWORD dwPaletteHandle; DWORD dwPaletteFlags; DWORD dwSurfaceHandle; } D3DHAL_DP2SETPALETTE, *LPD3DHAL_DP2SETPALETTE;
/* followed by wNumEntries PALETTEENTRY DWORDs */
typedef struct _D3DHAL_DP2UPDATEPALETTE { DWORD dwPaletteHandle; WORD wStartIndex; WORD wNumEntries; } D3DHAL_DP2UPDATEPALETTE, *LPD3DHAL_DP2UPDATEPALETTE;
typedef struct _D3DHAL_DP2SETRENDERTARGET { DWORD hRenderTarget; DWORD hZBuffer; } D3DHAL_DP2SETRENDERTARGET, *LPD3DHAL_DP2SETRENDERTARGET;
typedef struct _D3DHAL_DP2STATESET { DWORD dwOperation; DWORD dwParam; D3DSTATEBLOCKTYPE sbType; } D3DHAL_DP2STATESET, *LPD3DHAL_DP2STATESET;
typedef struct _D3DHAL_DP2ZRANGE { D3DVALUE dvMinZ; D3DVALUE dvMaxZ; } D3DHAL_DP2ZRANGE, *LPD3DHAL_DP2ZRANGE;

DP2_EXTENSION typedef struct _D3DMATERIAL7 {
    DP2_ANON_UNION { D3DCOLORVALUE diffuse;  D3DCOLORVALUE dcvDiffuse; };
    DP2_ANON_UNION { D3DCOLORVALUE ambient;  D3DCOLORVALUE dcvAmbient; };
    DP2_ANON_UNION { D3DCOLORVALUE specular; D3DCOLORVALUE dcvSpecular; };
    DP2_ANON_UNION { D3DCOLORVALUE emissive; D3DCOLORVALUE dcvEmissive; };
    DP2_ANON_UNION { D3DVALUE power; D3DVALUE dvPower; };
} D3DMATERIAL7, *LPD3DMATERIAL7;
typedef D3DMATERIAL7 D3DHAL_DP2SETMATERIAL, *LPD3DHAL_DP2SETMATERIAL;

typedef struct _D3DHAL_DP2SETLIGHT { DWORD dwIndex; DWORD dwDataType; } D3DHAL_DP2SETLIGHT, *LPD3DHAL_DP2SETLIGHT;

typedef struct _D3DLIGHT7 {
    D3DLIGHTTYPE  dltType;
    D3DCOLORVALUE dcvDiffuse;
    D3DCOLORVALUE dcvSpecular;
    D3DCOLORVALUE dcvAmbient;
    D3DVECTOR     dvPosition;
    D3DVECTOR     dvDirection;
    D3DVALUE      dvRange;
    D3DVALUE      dvFalloff;
    D3DVALUE      dvAttenuation0;
    D3DVALUE      dvAttenuation1;
    D3DVALUE      dvAttenuation2;
    D3DVALUE      dvTheta;
    D3DVALUE      dvPhi;
} D3DLIGHT7, *LPD3DLIGHT7;

typedef struct _D3DHAL_DP2SETCLIPPLANE { DWORD dwIndex; D3DVALUE plane[4]; } D3DHAL_DP2SETCLIPPLANE, *LPD3DHAL_DP2SETCLIPPLANE;
typedef struct _D3DHAL_DP2CREATELIGHT { DWORD dwIndex; } D3DHAL_DP2CREATELIGHT, *LPD3DHAL_DP2CREATELIGHT;
typedef struct _D3DHAL_DP2SETTRANSFORM { D3DTRANSFORMSTATETYPE xfrmType; D3DMATRIX matrix; } D3DHAL_DP2SETTRANSFORM, *LPD3DHAL_DP2SETTRANSFORM;
typedef struct _D3DHAL_DP2MULTIPLYTRANSFORM { D3DTRANSFORMSTATETYPE xfrmType; D3DMATRIX matrix; } D3DHAL_DP2MULTIPLYTRANSFORM, *LPD3DHAL_DP2MULTIPLYTRANSFORM;
typedef struct _D3DHAL_DP2EXT { DWORD dwExtToken; DWORD dwSize; } D3DHAL_DP2EXT, *LPD3DHAL_DP2EXT;
typedef struct _D3DHAL_DP2TEXBLT {
    DWORD dwDDDestSurface;
    DWORD dwDDSrcSurface;
    POINT pDest;
    RECTL rSrc;
    DWORD dwFlags;
} D3DHAL_DP2TEXBLT, *LPD3DHAL_DP2TEXBLT;
typedef struct _D3DHAL_DP2SETPRIORITY { DWORD dwDDSurface; DWORD dwPriority; } D3DHAL_DP2SETPRIORITY, *LPD3DHAL_DP2SETPRIORITY;
/* Rects[] really has wPrimitiveCount entries (OPC §3 row 42, §5 D2) */
typedef struct _D3DHAL_DP2CLEAR {
    DWORD    dwFlags;        /* D3DCLEAR_* */
    DWORD    dwFillColor;
    D3DVALUE dvFillDepth;
    DWORD    dwFillStencil;
    RECT     Rects[1];
} D3DHAL_DP2CLEAR, *LPD3DHAL_DP2CLEAR;
typedef struct _D3DHAL_DP2SETTEXLOD { DWORD dwDDSurface; DWORD dwLOD; } D3DHAL_DP2SETTEXLOD, *LPD3DHAL_DP2SETTEXLOD;

/* DX8 */
typedef struct _D3DHAL_DP2VERTEXSHADER { DWORD dwHandle; } D3DHAL_DP2VERTEXSHADER, *LPD3DHAL_DP2VERTEXSHADER;
typedef struct _D3DHAL_DP2CREATEVERTEXSHADER { DWORD dwHandle; DWORD dwDeclSize; DWORD dwCodeSize; } D3DHAL_DP2CREATEVERTEXSHADER, *LPD3DHAL_DP2CREATEVERTEXSHADER;
typedef struct _D3DHAL_DP2SETVERTEXSHADERCONST { DWORD dwRegister; DWORD dwCount; } D3DHAL_DP2SETVERTEXSHADERCONST, *LPD3DHAL_DP2SETVERTEXSHADERCONST;
typedef struct _D3DHAL_DP2SETSTREAMSOURCE { DWORD dwStream; DWORD dwVBHandle; DWORD dwStride; } D3DHAL_DP2SETSTREAMSOURCE, *LPD3DHAL_DP2SETSTREAMSOURCE;
typedef struct _D3DHAL_DP2SETSTREAMSOURCEUM { DWORD dwStream; DWORD dwStride; } D3DHAL_DP2SETSTREAMSOURCEUM, *LPD3DHAL_DP2SETSTREAMSOURCEUM;
typedef struct _D3DHAL_DP2SETINDICES { DWORD dwVBHandle; DWORD dwStride; } D3DHAL_DP2SETINDICES, *LPD3DHAL_DP2SETINDICES;
typedef struct _D3DHAL_DP2DRAWPRIMITIVE {
    D3DPRIMITIVETYPE primType;
    DWORD VStart;
    DWORD PrimitiveCount;
} D3DHAL_DP2DRAWPRIMITIVE, *LPD3DHAL_DP2DRAWPRIMITIVE;
typedef struct _D3DHAL_DP2DRAWINDEXEDPRIMITIVE {
    D3DPRIMITIVETYPE primType;
    INT   BaseVertexIndex;   /* DWORD in DX8.1, INT in DX9 (OPC §5 D11) */
    DWORD MinIndex;
    DWORD NumVertices;
    DWORD StartIndex;
    DWORD PrimitiveCount;
} D3DHAL_DP2DRAWINDEXEDPRIMITIVE, *LPD3DHAL_DP2DRAWINDEXEDPRIMITIVE;
typedef struct _D3DHAL_CLIPPEDTRIANGLEFAN {
    DWORD FirstVertexOffset; /* bytes */
    DWORD dwEdgeFlags;
    DWORD PrimitiveCount;
} D3DHAL_CLIPPEDTRIANGLEFAN, *LPD3DHAL_CLIPPEDTRIANGLEFAN;
typedef struct _D3DHAL_DP2DRAWPRIMITIVE2 {
    D3DPRIMITIVETYPE primType;
    DWORD FirstVertexOffset; /* bytes */
    DWORD PrimitiveCount;
} D3DHAL_DP2DRAWPRIMITIVE2, *LPD3DHAL_DP2DRAWPRIMITIVE2;
typedef struct _D3DHAL_DP2DRAWINDEXEDPRIMITIVE2 {
    D3DPRIMITIVETYPE primType;
    INT   BaseVertexOffset;  /* bytes, may be negative */
    DWORD MinIndex;
    DWORD NumVertices;
    DWORD StartIndexOffset;  /* bytes */
    DWORD PrimitiveCount;
} D3DHAL_DP2DRAWINDEXEDPRIMITIVE2, *LPD3DHAL_DP2DRAWINDEXEDPRIMITIVE2;
typedef struct _D3DHAL_DP2PIXELSHADER { DWORD dwHandle; } D3DHAL_DP2PIXELSHADER, *LPD3DHAL_DP2PIXELSHADER;
typedef struct _D3DHAL_DP2CREATEPIXELSHADER { DWORD dwHandle; DWORD dwCodeSize; } D3DHAL_DP2CREATEPIXELSHADER, *LPD3DHAL_DP2CREATEPIXELSHADER;
typedef struct _D3DHAL_DP2SETPIXELSHADERCONST { DWORD dwRegister; DWORD dwCount; } D3DHAL_DP2SETPIXELSHADERCONST, *LPD3DHAL_DP2SETPIXELSHADERCONST;
typedef struct _D3DHAL_DP2DRAWRECTPATCH { DWORD Handle; DWORD Flags; } D3DHAL_DP2DRAWRECTPATCH, *LPD3DHAL_DP2DRAWRECTPATCH;
typedef struct _D3DHAL_DP2DRAWTRIPATCH { DWORD Handle; DWORD Flags; } D3DHAL_DP2DRAWTRIPATCH, *LPD3DHAL_DP2DRAWTRIPATCH;
typedef struct _D3DHAL_DP2VOLUMEBLT {
    DWORD  dwDDDestSurface;
    DWORD  dwDDSrcSurface;
    DWORD  dwDestX;
    DWORD  dwDestY;
    DWORD  dwDestZ;
    D3DBOX srcBox;
    DWORD  dwFlags;
} D3DHAL_DP2VOLUMEBLT, *LPD3DHAL_DP2VOLUMEBLT;
typedef struct _D3DHAL_DP2BUFFERBLT {
    DWORD    dwDDDestSurface;
    DWORD    dwDDSrcSurface;
    DWORD    dwOffset;
    D3DRANGE rSrc;
    DWORD    dwFlags;
} D3DHAL_DP2BUFFERBLT, *LPD3DHAL_DP2BUFFERBLT;
typedef struct _D3DHAL_DP2ADDDIRTYRECT { DWORD dwSurface; RECTL rDirtyArea; } D3DHAL_DP2ADDDIRTYRECT, *LPD3DHAL_DP2ADDDIRTYRECT;
typedef struct _D3DHAL_DP2ADDDIRTYBOX { DWORD dwSurface; D3DBOX DirtyBox; } D3DHAL_DP2ADDDIRTYBOX, *LPD3DHAL_DP2ADDDIRTYBOX;

/* DX8/DX9 patch info, following DRAWRECTPATCH/DRAWTRIPATCH with HASINFO */
typedef struct _D3DRECTPATCH_INFO {
    UINT          StartVertexOffsetWidth;
    UINT          StartVertexOffsetHeight;
    UINT          Width;
    UINT          Height;
    UINT          Stride;
    D3DBASISTYPE  Basis;
    D3DDEGREETYPE Degree;   /* DX8: D3DORDERTYPE Order */
} D3DRECTPATCH_INFO, *LPD3DRECTPATCH_INFO;
typedef struct _D3DTRIPATCH_INFO {
    UINT          StartVertexOffset;
    UINT          NumVertices;
    D3DBASISTYPE  Basis;
    D3DDEGREETYPE Degree;   /* DX8: D3DORDERTYPE Order */
} D3DTRIPATCH_INFO, *LPD3DTRIPATCH_INFO;

/* DX9 */
typedef struct _D3DHAL_DP2CREATEVERTEXSHADERDECL { DWORD dwHandle; DWORD dwNumVertexElements; } D3DHAL_DP2CREATEVERTEXSHADERDECL, *LPD3DHAL_DP2CREATEVERTEXSHADERDECL;
typedef struct _D3DHAL_DP2CREATEVERTEXSHADERFUNC { DWORD dwHandle; DWORD dwSize; } D3DHAL_DP2CREATEVERTEXSHADERFUNC, *LPD3DHAL_DP2CREATEVERTEXSHADERFUNC;
typedef D3DHAL_DP2SETVERTEXSHADERCONST D3DHAL_DP2SETVERTEXSHADERCONSTI, *LPD3DHAL_DP2SETVERTEXSHADERCONSTI;
typedef D3DHAL_DP2SETVERTEXSHADERCONST D3DHAL_DP2SETVERTEXSHADERCONSTB, *LPD3DHAL_DP2SETVERTEXSHADERCONSTB;
typedef D3DHAL_DP2SETPIXELSHADERCONST D3DHAL_DP2SETPIXELSHADERCONSTI, *LPD3DHAL_DP2SETPIXELSHADERCONSTI;
typedef D3DHAL_DP2SETPIXELSHADERCONST D3DHAL_DP2SETPIXELSHADERCONSTB, *LPD3DHAL_DP2SETPIXELSHADERCONSTB;
typedef RECT D3DHAL_DP2SETSCISSORRECT, *LPD3DHAL_DP2SETSCISSORRECT;
typedef struct _D3DHAL_DP2SETSTREAMSOURCE2 { DWORD dwStream; DWORD dwVBHandle; DWORD dwOffset; DWORD dwStride; } D3DHAL_DP2SETSTREAMSOURCE2, *LPD3DHAL_DP2SETSTREAMSOURCE2;
typedef struct _D3DHAL_DP2SETSTREAMSOURCEFREQ { DWORD dwStream; DWORD dwDivider; } D3DHAL_DP2SETSTREAMSOURCEFREQ, *LPD3DHAL_DP2SETSTREAMSOURCEFREQ;
typedef struct _D3DHAL_DP2BLT {
    DWORD dwSource;
    RECTL rSource;
    DWORD dwSourceMipLevel;
    DWORD dwDest;
    RECTL rDest;
    DWORD dwDestMipLevel;
    DWORD Flags;         /* DP2BLT_* */
} D3DHAL_DP2BLT, *LPD3DHAL_DP2BLT;
typedef struct _D3DHAL_DP2COLORFILL { DWORD dwSurface; RECTL rRect; D3DCOLOR Color; } D3DHAL_DP2COLORFILL, *LPD3DHAL_DP2COLORFILL;
typedef struct _D3DHAL_DP2SURFACEBLT {
    DWORD dwSource;
    RECTL rSource;
    DWORD dwSourceMipLevel;
    DWORD dwDest;
    RECTL rDest;
    DWORD dwDestMipLevel;
    DWORD Flags;
} D3DHAL_DP2SURFACEBLT, *LPD3DHAL_DP2SURFACEBLT;
typedef struct _D3DHAL_DP2CREATEQUERY { DWORD dwQueryID; D3DQUERYTYPE QueryType; } D3DHAL_DP2CREATEQUERY, *LPD3DHAL_DP2CREATEQUERY;
typedef struct _D3DHAL_DP2DELETEQUERY { DWORD dwQueryID; } D3DHAL_DP2DELETEQUERY, *LPD3DHAL_DP2DELETEQUERY;
typedef struct _D3DHAL_DP2ISSUEQUERY { DWORD dwQueryID; DWORD dwFlags; } D3DHAL_DP2ISSUEQUERY, *LPD3DHAL_DP2ISSUEQUERY;
typedef struct _D3DHAL_DP2SETRENDERTARGET2 { DWORD RTIndex; DWORD hRenderTarget; } D3DHAL_DP2SETRENDERTARGET2, *LPD3DHAL_DP2SETRENDERTARGET2;
typedef struct _D3DHAL_DP2SETDEPTHSTENCIL { DWORD hZBuffer; } D3DHAL_DP2SETDEPTHSTENCIL, *LPD3DHAL_DP2SETDEPTHSTENCIL;
typedef struct _D3DHAL_DP2GENERATEMIPSUBLEVELS { DWORD hSurface; D3DTEXTUREFILTERTYPE Filter; } D3DHAL_DP2GENERATEMIPSUBLEVELS, *LPD3DHAL_DP2GENERATEMIPSUBLEVELS;

/* D3D9Ex */
typedef struct _D3DHAL_DP2SETCONVOLUTIONKERNELMONO { DWORD dwWidth; DWORD dwHeight; DWORD dwFlags; } D3DHAL_DP2SETCONVOLUTIONKERNELMONO, *LPD3DHAL_DP2SETCONVOLUTIONKERNELMONO;
typedef struct _D3DHAL_DP2COMPOSERECTS {
    DWORD SrcSurfaceHandle;
    DWORD DstSurfaceHandle;
    DWORD SrcRectDescsVBHandle;
    UINT  NumRects;
    DWORD DstRectDescsVBHandle;
    D3DCOMPOSERECTSOP Operation;
    INT   XOffset;
    INT   YOffset;
} D3DHAL_DP2COMPOSERECTS, *LPD3DHAL_DP2COMPOSERECTS;

/* Vertex declaration element (after CREATEVERTEXSHADERDECL) */
typedef struct _D3DVERTEXELEMENT9 {
    WORD Stream;
    WORD Offset;
    BYTE Type;        /* D3DDECLTYPE */
    BYTE Method;      /* D3DDECLMETHOD */
    BYTE Usage;       /* D3DDECLUSAGE */
    BYTE UsageIndex;
} D3DVERTEXELEMENT9, *LPD3DVERTEXELEMENT9;
#define D3DDECL_END() { 0xFF, 0, D3DDECLTYPE_UNUSED, 0, 0, 0 }

/* D3DQUERYTYPE_VCACHE response payload */
typedef struct _D3DDEVINFO_VCACHE {
    DWORD Pattern;
    DWORD OptMethod;
    DWORD CacheSize;
    DWORD MagicNumber;
} D3DDEVINFO_VCACHE, *LPD3DDEVINFO_VCACHE;

/* ---------------------------------------------------------------------------
 * Layout checks (values: OPC §1, §4, §4.1)
 * ------------------------------------------------------------------------- */
#define DP2_CHECK_SIZE(T, n)    DP2_STATIC_ASSERT(sizeof(T) == (n), "sizeof(" #T ")")
#define DP2_CHECK_OFF(T, m, n)  DP2_STATIC_ASSERT(offsetof(T, m) == (n), "offsetof(" #T ", " #m ")")

/* base types */
DP2_CHECK_SIZE(BYTE, 1);
DP2_CHECK_SIZE(WORD, 2);
DP2_CHECK_SIZE(DWORD, 4);
DP2_CHECK_SIZE(LONG, 4);
DP2_CHECK_SIZE(UINT, 4);
DP2_CHECK_SIZE(INT, 4);
DP2_CHECK_SIZE(BOOL, 4);
DP2_CHECK_SIZE(HRESULT, 4);
DP2_CHECK_SIZE(ULONG_PTR, sizeof(void *));
DP2_CHECK_SIZE(D3DVALUE, 4);
DP2_CHECK_SIZE(RECT, 16);
DP2_CHECK_SIZE(RECTL, 16);
DP2_CHECK_SIZE(POINT, 8);
DP2_CHECK_SIZE(PALETTEENTRY, 4);
DP2_CHECK_SIZE(D3DCOLORVALUE, 16);
DP2_CHECK_SIZE(D3DVECTOR, 12);
DP2_CHECK_SIZE(D3DMATRIX, 64);
DP2_CHECK_OFF(D3DMATRIX, _44, 60);
DP2_CHECK_SIZE(D3DBOX, 24);
DP2_CHECK_SIZE(D3DRANGE, 8);
DP2_STATIC_ASSERT(D3DERR_COMMAND_UNPARSED == (HRESULT)0x88760BB8u, "D3DERR_COMMAND_UNPARSED");
DP2_STATIC_ASSERT(DDERR_WASSTILLDRAWING == (HRESULT)0x8876021Cu, "DDERR_WASSTILLDRAWING");
DP2_STATIC_ASSERT(DDERR_WASSTILLDRAWING < 0, "HRESULT is signed");
DP2_STATIC_ASSERT(D3DFVF_LVERTEX == 0x1E2 && D3DFVF_TLVERTEX == 0x1C4 && D3DFVF_VERTEX == 0x112, "FVF codes");
DP2_STATIC_ASSERT(D3DHAL_MAX_RSTATES_AND_STAGES == 768, "state array");
DP2_STATIC_ASSERT(D3DFMT_DXT1 == 0x31545844, "MAKEFOURCC");

/* enums are DWORD-sized */
DP2_CHECK_SIZE(D3DHAL_DP2OPERATION, 4);
DP2_CHECK_SIZE(D3DRENDERSTATETYPE, 4);
DP2_CHECK_SIZE(D3DTEXTURESTAGESTATETYPE, 4);
DP2_CHECK_SIZE(D3DTRANSFORMSTATETYPE, 4);
DP2_CHECK_SIZE(D3DPRIMITIVETYPE, 4);
DP2_CHECK_SIZE(D3DSTATEBLOCKTYPE, 4);
DP2_CHECK_SIZE(D3DLIGHTTYPE, 4);
DP2_CHECK_SIZE(D3DQUERYTYPE, 4);
DP2_CHECK_SIZE(D3DTEXTUREFILTERTYPE, 4);
DP2_CHECK_SIZE(D3DBASISTYPE, 4);
DP2_CHECK_SIZE(D3DDEGREETYPE, 4);
DP2_CHECK_SIZE(D3DCOMPOSERECTSOP, 4);
DP2_CHECK_SIZE(D3DFORMAT, 4);
DP2_CHECK_SIZE(D3DBLEND, 4);
DP2_CHECK_SIZE(D3DCMPFUNC, 4);

/* command stream */
DP2_CHECK_SIZE(D3DHAL_DP2COMMAND, 4);
DP2_CHECK_OFF(D3DHAL_DP2COMMAND, bReserved, 1);
DP2_CHECK_OFF(D3DHAL_DP2COMMAND, wPrimitiveCount, 2);
DP2_CHECK_OFF(D3DHAL_DP2COMMAND, wStateCount, 2);
DP2_CHECK_SIZE(D3DHAL_DP2RESPONSE, 8);
DP2_CHECK_OFF(D3DHAL_DP2RESPONSE, wStateCount, 2);
DP2_CHECK_OFF(D3DHAL_DP2RESPONSE, dwTotalSize, 4);
DP2_CHECK_SIZE(D3DHAL_DP2RESPONSEQUERY, 8);

/* D3DHAL_DRAWPRIMITIVES2DATA: 56 bytes (32-bit) / 72 bytes (64-bit) */
#define DP2_PTR_OFF(o32, o64) (sizeof(void *) == 8 ? (o64) : (o32))
DP2_STATIC_ASSERT(sizeof(void *) == 4 || sizeof(void *) == 8, "32- or 64-bit pointers");
DP2_CHECK_SIZE(D3DHAL_DRAWPRIMITIVES2DATA, DP2_PTR_OFF(56, 72));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, dwhContext, 0);
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, dwFlags, DP2_PTR_OFF(4, 8));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, dwVertexType, DP2_PTR_OFF(8, 12));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, lpDDCommands, DP2_PTR_OFF(12, 16));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, dwCommandOffset, DP2_PTR_OFF(16, 24));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, dwCommandLength, DP2_PTR_OFF(20, 28));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, lpDDVertex, DP2_PTR_OFF(24, 32));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, lpVertices, DP2_PTR_OFF(24, 32));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, dwVertexOffset, DP2_PTR_OFF(28, 40));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, dwVertexLength, DP2_PTR_OFF(32, 44));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, dwReqVertexBufSize, DP2_PTR_OFF(36, 48));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, dwReqCommandBufSize, DP2_PTR_OFF(40, 52));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, lpdwRStates, DP2_PTR_OFF(44, 56));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, dwVertexSize, DP2_PTR_OFF(48, 64));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, ddrval, DP2_PTR_OFF(48, 64));
DP2_CHECK_OFF(D3DHAL_DRAWPRIMITIVES2DATA, dwErrorOffset, DP2_PTR_OFF(52, 68));

/* payloads (OPC §4.1) */
DP2_CHECK_SIZE(D3DHAL_DP2POINTS, 4);
DP2_CHECK_OFF(D3DHAL_DP2POINTS, wVStart, 2);
DP2_CHECK_SIZE(D3DHAL_DP2STARTVERTEX, 2);
DP2_CHECK_SIZE(D3DHAL_DP2LINELIST, 2);
DP2_CHECK_SIZE(D3DHAL_DP2INDEXEDLINELIST, 4);
DP2_CHECK_OFF(D3DHAL_DP2INDEXEDLINELIST, wV2, 2);
DP2_CHECK_SIZE(D3DHAL_DP2LINESTRIP, 2);
DP2_CHECK_SIZE(D3DHAL_DP2INDEXEDLINESTRIP, 4);
DP2_CHECK_SIZE(D3DHAL_DP2TRIANGLELIST, 2);
DP2_CHECK_SIZE(D3DHAL_DP2INDEXEDTRIANGLELIST, 8);
DP2_CHECK_OFF(D3DHAL_DP2INDEXEDTRIANGLELIST, wV3, 4);
DP2_CHECK_OFF(D3DHAL_DP2INDEXEDTRIANGLELIST, wFlags, 6);
DP2_CHECK_SIZE(D3DHAL_DP2INDEXEDTRIANGLELIST2, 6);
DP2_CHECK_OFF(D3DHAL_DP2INDEXEDTRIANGLELIST2, wV3, 4);
DP2_CHECK_SIZE(D3DHAL_DP2TRIANGLESTRIP, 2);
DP2_CHECK_SIZE(D3DHAL_DP2INDEXEDTRIANGLESTRIP, 6);
DP2_CHECK_SIZE(D3DHAL_DP2TRIANGLEFAN, 2);
DP2_CHECK_SIZE(D3DHAL_DP2INDEXEDTRIANGLEFAN, 6);
DP2_CHECK_SIZE(D3DHAL_DP2TRIANGLEFAN_IMM, 4);
DP2_CHECK_SIZE(D3DHAL_DP2RENDERSTATE, 8);
DP2_CHECK_OFF(D3DHAL_DP2RENDERSTATE, dvState, 4);
DP2_CHECK_OFF(D3DHAL_DP2RENDERSTATE, dwState, 4);
DP2_CHECK_SIZE(D3DHAL_DP2TEXTURESTAGESTATE, 8);
DP2_CHECK_OFF(D3DHAL_DP2TEXTURESTAGESTATE, TSState, 2);
DP2_CHECK_OFF(D3DHAL_DP2TEXTURESTAGESTATE, dwValue, 4);
DP2_CHECK_SIZE(D3DHAL_DP2VIEWPORTINFO, 16);
DP2_CHECK_OFF(D3DHAL_DP2VIEWPORTINFO, dwHeight, 12);
DP2_CHECK_SIZE(D3DHAL_DP2WINFO, 8);
DP2_CHECK_OFF(D3DHAL_DP2WINFO, dvWFar, 4);
DP2_CHECK_SIZE(D3DHAL_DP2SETPALETTE, 12);
DP2_CHECK_OFF(D3DHAL_DP2SETPALETTE, dwSurfaceHandle, 8);
DP2_CHECK_SIZE(D3DHAL_DP2UPDATEPALETTE, 8);
DP2_CHECK_OFF(D3DHAL_DP2UPDATEPALETTE, wStartIndex, 4);
DP2_CHECK_OFF(D3DHAL_DP2UPDATEPALETTE, wNumEntries, 6);
DP2_CHECK_SIZE(D3DHAL_DP2SETRENDERTARGET, 8);
DP2_CHECK_SIZE(D3DHAL_DP2STATESET, 12);
DP2_CHECK_OFF(D3DHAL_DP2STATESET, sbType, 8);
DP2_CHECK_SIZE(D3DHAL_DP2ZRANGE, 8);
DP2_CHECK_SIZE(D3DHAL_DP2SETMATERIAL, 68);
DP2_CHECK_SIZE(D3DMATERIAL7, 68);
DP2_CHECK_OFF(D3DMATERIAL7, ambient, 16);
DP2_CHECK_OFF(D3DMATERIAL7, specular, 32);
DP2_CHECK_OFF(D3DMATERIAL7, emissive, 48);
DP2_CHECK_OFF(D3DMATERIAL7, power, 64);
DP2_CHECK_SIZE(D3DHAL_DP2SETLIGHT, 8);
DP2_CHECK_SIZE(D3DLIGHT7, 104);
DP2_CHECK_OFF(D3DLIGHT7, dcvDiffuse, 4);
DP2_CHECK_OFF(D3DLIGHT7, dcvSpecular, 20);
DP2_CHECK_OFF(D3DLIGHT7, dcvAmbient, 36);
DP2_CHECK_OFF(D3DLIGHT7, dvPosition, 52);
DP2_CHECK_OFF(D3DLIGHT7, dvDirection, 64);
DP2_CHECK_OFF(D3DLIGHT7, dvRange, 76);
DP2_CHECK_OFF(D3DLIGHT7, dvFalloff, 80);
DP2_CHECK_OFF(D3DLIGHT7, dvAttenuation0, 84);
DP2_CHECK_OFF(D3DLIGHT7, dvTheta, 96);
DP2_CHECK_OFF(D3DLIGHT7, dvPhi, 100);
DP2_CHECK_SIZE(D3DHAL_DP2SETCLIPPLANE, 20);
DP2_CHECK_OFF(D3DHAL_DP2SETCLIPPLANE, plane, 4);
DP2_CHECK_SIZE(D3DHAL_DP2CREATELIGHT, 4);
DP2_CHECK_SIZE(D3DHAL_DP2SETTRANSFORM, 68);
DP2_CHECK_OFF(D3DHAL_DP2SETTRANSFORM, matrix, 4);
DP2_CHECK_SIZE(D3DHAL_DP2MULTIPLYTRANSFORM, 68);
DP2_CHECK_OFF(D3DHAL_DP2MULTIPLYTRANSFORM, matrix, 4);
DP2_CHECK_SIZE(D3DHAL_DP2EXT, 8);
DP2_CHECK_SIZE(D3DHAL_DP2TEXBLT, 36);
DP2_CHECK_OFF(D3DHAL_DP2TEXBLT, pDest, 8);
DP2_CHECK_OFF(D3DHAL_DP2TEXBLT, rSrc, 16);
DP2_CHECK_OFF(D3DHAL_DP2TEXBLT, dwFlags, 32);
DP2_CHECK_SIZE(D3DHAL_DP2SETPRIORITY, 8);
DP2_CHECK_SIZE(D3DHAL_DP2CLEAR, 32);
DP2_CHECK_OFF(D3DHAL_DP2CLEAR, dvFillDepth, 8);
DP2_CHECK_OFF(D3DHAL_DP2CLEAR, dwFillStencil, 12);
DP2_CHECK_OFF(D3DHAL_DP2CLEAR, Rects, 16);
DP2_CHECK_SIZE(D3DHAL_DP2SETTEXLOD, 8);
DP2_CHECK_SIZE(D3DHAL_DP2VERTEXSHADER, 4);
DP2_CHECK_SIZE(D3DHAL_DP2CREATEVERTEXSHADER, 12);
DP2_CHECK_OFF(D3DHAL_DP2CREATEVERTEXSHADER, dwCodeSize, 8);
DP2_CHECK_SIZE(D3DHAL_DP2SETVERTEXSHADERCONST, 8);
DP2_CHECK_SIZE(D3DHAL_DP2SETSTREAMSOURCE, 12);
DP2_CHECK_OFF(D3DHAL_DP2SETSTREAMSOURCE, dwStride, 8);
DP2_CHECK_SIZE(D3DHAL_DP2SETSTREAMSOURCEUM, 8);
DP2_CHECK_SIZE(D3DHAL_DP2SETINDICES, 8);
DP2_CHECK_SIZE(D3DHAL_DP2DRAWPRIMITIVE, 12);
DP2_CHECK_OFF(D3DHAL_DP2DRAWPRIMITIVE, VStart, 4);
DP2_CHECK_OFF(D3DHAL_DP2DRAWPRIMITIVE, PrimitiveCount, 8);
DP2_CHECK_SIZE(D3DHAL_DP2DRAWINDEXEDPRIMITIVE, 24);
DP2_CHECK_OFF(D3DHAL_DP2DRAWINDEXEDPRIMITIVE, BaseVertexIndex, 4);
DP2_CHECK_OFF(D3DHAL_DP2DRAWINDEXEDPRIMITIVE, MinIndex, 8);
DP2_CHECK_OFF(D3DHAL_DP2DRAWINDEXEDPRIMITIVE, NumVertices, 12);
DP2_CHECK_OFF(D3DHAL_DP2DRAWINDEXEDPRIMITIVE, StartIndex, 16);
DP2_CHECK_OFF(D3DHAL_DP2DRAWINDEXEDPRIMITIVE, PrimitiveCount, 20);
DP2_CHECK_SIZE(D3DHAL_CLIPPEDTRIANGLEFAN, 12);
DP2_CHECK_OFF(D3DHAL_CLIPPEDTRIANGLEFAN, dwEdgeFlags, 4);
DP2_CHECK_OFF(D3DHAL_CLIPPEDTRIANGLEFAN, PrimitiveCount, 8);
DP2_CHECK_SIZE(D3DHAL_DP2DRAWPRIMITIVE2, 12);
DP2_CHECK_OFF(D3DHAL_DP2DRAWPRIMITIVE2, FirstVertexOffset, 4);
DP2_CHECK_SIZE(D3DHAL_DP2DRAWINDEXEDPRIMITIVE2, 24);
DP2_CHECK_OFF(D3DHAL_DP2DRAWINDEXEDPRIMITIVE2, BaseVertexOffset, 4);
DP2_CHECK_OFF(D3DHAL_DP2DRAWINDEXEDPRIMITIVE2, StartIndexOffset, 16);
DP2_CHECK_OFF(D3DHAL_DP2DRAWINDEXEDPRIMITIVE2, PrimitiveCount, 20);
DP2_CHECK_SIZE(D3DHAL_DP2PIXELSHADER, 4);
DP2_CHECK_SIZE(D3DHAL_DP2CREATEPIXELSHADER, 8);
DP2_CHECK_SIZE(D3DHAL_DP2SETPIXELSHADERCONST, 8);
DP2_CHECK_SIZE(D3DHAL_DP2DRAWRECTPATCH, 8);
DP2_CHECK_SIZE(D3DHAL_DP2DRAWTRIPATCH, 8);
DP2_CHECK_SIZE(D3DHAL_DP2VOLUMEBLT, 48);
DP2_CHECK_OFF(D3DHAL_DP2VOLUMEBLT, dwDestZ, 16);
DP2_CHECK_OFF(D3DHAL_DP2VOLUMEBLT, srcBox, 20);
DP2_CHECK_OFF(D3DHAL_DP2VOLUMEBLT, dwFlags, 44);
DP2_CHECK_SIZE(D3DHAL_DP2BUFFERBLT, 24);
DP2_CHECK_OFF(D3DHAL_DP2BUFFERBLT, rSrc, 12);
DP2_CHECK_OFF(D3DHAL_DP2BUFFERBLT, dwFlags, 20);
DP2_CHECK_SIZE(D3DHAL_DP2ADDDIRTYRECT, 20);
DP2_CHECK_OFF(D3DHAL_DP2ADDDIRTYRECT, rDirtyArea, 4);
DP2_CHECK_SIZE(D3DHAL_DP2ADDDIRTYBOX, 28);
DP2_CHECK_OFF(D3DHAL_DP2ADDDIRTYBOX, DirtyBox, 4);
DP2_CHECK_SIZE(D3DHAL_DP2CREATEVERTEXSHADERDECL, 8);
DP2_CHECK_SIZE(D3DHAL_DP2CREATEVERTEXSHADERFUNC, 8);
DP2_CHECK_SIZE(D3DHAL_DP2SETVERTEXSHADERCONSTI, 8);
DP2_CHECK_SIZE(D3DHAL_DP2SETVERTEXSHADERCONSTB, 8);
DP2_CHECK_SIZE(D3DHAL_DP2SETPIXELSHADERCONSTI, 8);
DP2_CHECK_SIZE(D3DHAL_DP2SETPIXELSHADERCONSTB, 8);
DP2_CHECK_SIZE(D3DHAL_DP2SETSCISSORRECT, 16);
DP2_CHECK_SIZE(D3DHAL_DP2SETSTREAMSOURCE2, 16);
DP2_CHECK_OFF(D3DHAL_DP2SETSTREAMSOURCE2, dwOffset, 8);
DP2_CHECK_OFF(D3DHAL_DP2SETSTREAMSOURCE2, dwStride, 12);
DP2_CHECK_SIZE(D3DHAL_DP2SETSTREAMSOURCEFREQ, 8);
DP2_CHECK_SIZE(D3DHAL_DP2SETCONVOLUTIONKERNELMONO, 12);
DP2_CHECK_SIZE(D3DHAL_DP2COMPOSERECTS, 32);
DP2_CHECK_OFF(D3DHAL_DP2COMPOSERECTS, NumRects, 12);
DP2_CHECK_OFF(D3DHAL_DP2COMPOSERECTS, Operation, 20);
DP2_CHECK_OFF(D3DHAL_DP2COMPOSERECTS, YOffset, 28);
DP2_CHECK_SIZE(D3DHAL_DP2BLT, 52);
DP2_CHECK_OFF(D3DHAL_DP2BLT, rSource, 4);
DP2_CHECK_OFF(D3DHAL_DP2BLT, dwSourceMipLevel, 20);
DP2_CHECK_OFF(D3DHAL_DP2BLT, dwDest, 24);
DP2_CHECK_OFF(D3DHAL_DP2BLT, rDest, 28);
DP2_CHECK_OFF(D3DHAL_DP2BLT, dwDestMipLevel, 44);
DP2_CHECK_OFF(D3DHAL_DP2BLT, Flags, 48);
DP2_CHECK_SIZE(D3DHAL_DP2COLORFILL, 24);
DP2_CHECK_OFF(D3DHAL_DP2COLORFILL, rRect, 4);
DP2_CHECK_OFF(D3DHAL_DP2COLORFILL, Color, 20);
DP2_CHECK_SIZE(D3DHAL_DP2SURFACEBLT, 52);
DP2_CHECK_OFF(D3DHAL_DP2SURFACEBLT, rDest, 28);
DP2_CHECK_OFF(D3DHAL_DP2SURFACEBLT, Flags, 48);
DP2_CHECK_SIZE(D3DHAL_DP2CREATEQUERY, 8);
DP2_CHECK_OFF(D3DHAL_DP2CREATEQUERY, QueryType, 4);
DP2_CHECK_SIZE(D3DHAL_DP2DELETEQUERY, 4);
DP2_CHECK_SIZE(D3DHAL_DP2ISSUEQUERY, 8);
DP2_CHECK_SIZE(D3DHAL_DP2SETRENDERTARGET2, 8);
DP2_CHECK_OFF(D3DHAL_DP2SETRENDERTARGET2, hRenderTarget, 4);
DP2_CHECK_SIZE(D3DHAL_DP2SETDEPTHSTENCIL, 4);
DP2_CHECK_SIZE(D3DHAL_DP2GENERATEMIPSUBLEVELS, 8);
DP2_CHECK_OFF(D3DHAL_DP2GENERATEMIPSUBLEVELS, Filter, 4);
DP2_CHECK_SIZE(D3DVERTEXELEMENT9, 8);
DP2_CHECK_OFF(D3DVERTEXELEMENT9, Offset, 2);
DP2_CHECK_OFF(D3DVERTEXELEMENT9, Type, 4);
DP2_CHECK_OFF(D3DVERTEXELEMENT9, Method, 5);
DP2_CHECK_OFF(D3DVERTEXELEMENT9, Usage, 6);
DP2_CHECK_OFF(D3DVERTEXELEMENT9, UsageIndex, 7);
DP2_CHECK_SIZE(D3DRECTPATCH_INFO, 28);
DP2_CHECK_OFF(D3DRECTPATCH_INFO, Stride, 16);
DP2_CHECK_OFF(D3DRECTPATCH_INFO, Basis, 20);
DP2_CHECK_OFF(D3DRECTPATCH_INFO, Degree, 24);
DP2_CHECK_SIZE(D3DTRIPATCH_INFO, 16);
DP2_CHECK_OFF(D3DTRIPATCH_INFO, Basis, 8);
DP2_CHECK_OFF(D3DTRIPATCH_INFO, Degree, 12);
DP2_CHECK_SIZE(D3DDEVINFO_VCACHE, 16);
DP2_CHECK_OFF(D3DDEVINFO_VCACHE, MagicNumber, 12);

#endif /* DP2_DDI_H */
