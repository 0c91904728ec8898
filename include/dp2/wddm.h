/* dp2/wddm.h — the WDDM user-mode submission and lock structures dp2 implements:
 * D3DDDICB_RENDER (pfnRenderCb), D3DDDI_ALLOCATIONLIST, D3DDDI_PATCHLOCATIONLIST,
 * D3DDDIARG_LOCK / _UNLOCK / _LOCKASYNC / _UNLOCKASYNC / _RENAME and their flags.
 *
 * Canonical Microsoft names and member order (d3dumddi.h, d3dukmdt.h), C-compatible.
 * Handles (HANDLE) carry dp2 values: hResource is a surface handle, hContext a context
 * handle, hCookie an allocation handle; dp2 never dereferences them.
 * Sources: the ddi-docs pages in shared/reference (pfnRenderCb, D3DDDICB_RENDER, ...).
 */
#ifndef DP2_WDDM_H
#define DP2_WDDM_H

#include "dp2/ddi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The canonical layouts use anonymous bit-field structs inside unions (a Microsoft
 * extension, standard in C11); __extension__ keeps -Wpedantic quiet for C++ on GCC/Clang. */
#if defined(__GNUC__) || defined(__clang__)
#  define DP2_ANONYMOUS __extension__
#else
#  define DP2_ANONYMOUS
#endif

#if defined(__clang__)
#  pragma clang diagnostic push
#  pragma clang diagnostic ignored "-Wnested-anon-types"
#  pragma clang diagnostic ignored "-Wgnu-anonymous-struct"
#endif

#ifndef DP2_HAVE_WIN32_TYPES
typedef void* HANDLE;
typedef uint64_t UINT64;
#endif

#define D3DDDI_MAX_BROADCAST_CONTEXT 64

/* MAKE_D3DDDIHRESULT(code) = MAKE_HRESULT(1, 0x876, code). */
#define D3DDDIERR_NOTAVAILABLE          ((HRESULT)0x8876086Au)
#define D3DDDIERR_DEVICEREMOVED         ((HRESULT)0x88760870u)
#define D3DDDIERR_PRIVILEGEDINSTRUCTION ((HRESULT)0x88760871u)
#define D3DDDIERR_INVALIDINSTRUCTION    ((HRESULT)0x88760872u)
#define D3DDDIERR_INVALIDHANDLE         ((HRESULT)0x88760873u)
#define D3DDDIERR_INVALIDUSERBUFFER     ((HRESULT)0x88760879u)

typedef struct _D3DDDI_ALLOCATIONLIST {
  UINT hAllocation; /* D3DKMT_HANDLE: a dp2 allocation handle */
  union {
    DP2_ANONYMOUS struct {
      UINT WriteOperation : 1;
      UINT DoNotRetireInstance : 1;
      UINT OfferPriority : 3;
      UINT Reserved : 27;
    };
    UINT Value;
  };
} D3DDDI_ALLOCATIONLIST;

typedef struct _D3DDDI_PATCHLOCATIONLIST {
  UINT AllocationIndex;
  union {
    DP2_ANONYMOUS struct {
      UINT SlotId : 24;
      UINT Reserved : 8;
    };
    UINT Value;
  };
  UINT DriverId;
  UINT AllocationOffset;
  UINT PatchOffset;
  UINT SplitOffset;
} D3DDDI_PATCHLOCATIONLIST;

typedef struct _D3DDDICB_RENDERFLAGS {
  union {
    DP2_ANONYMOUS struct {
      UINT ResizeCommandBuffer : 1;
      UINT ResizeAllocationList : 1;
      UINT ResizePatchLocationList : 1;
      UINT NullRendering : 1;
      UINT Reserved : 28;
    };
    UINT Value;
  };
} D3DDDICB_RENDERFLAGS;

typedef enum _D3DDDI_MARKERLOGTYPE {
  D3DDDIMLT_NONE = 0,
  D3DDDIMLT_PROFILE = 1,
  D3DDDIMLT_FULL = 2,
  D3DDDIMLT_FORCE_DWORD = 0x7fffffff
} D3DDDI_MARKERLOGTYPE;

typedef struct _D3DDDICB_RENDER {
  UINT CommandLength;                          /* in */
  UINT CommandOffset;                          /* in */
  UINT NumAllocations;                         /* in */
  UINT NumPatchLocations;                      /* in */
  void* pNewCommandBuffer;                     /* out */
  UINT NewCommandBufferSize;                   /* in/out */
  D3DDDI_ALLOCATIONLIST* pNewAllocationList;   /* out */
  UINT NewAllocationListSize;                  /* in/out */
  D3DDDI_PATCHLOCATIONLIST* pNewPatchLocationList; /* out */
  UINT NewPatchLocationListSize;               /* in/out */
  D3DDDICB_RENDERFLAGS Flags;                  /* in */
  HANDLE hContext;                             /* in: NULL = the device's default context */
  UINT BroadcastContextCount;                  /* in */
  HANDLE BroadcastContext[D3DDDI_MAX_BROADCAST_CONTEXT]; /* in */
  UINT QueuedBufferCount;                      /* out */
  UINT64 NewCommandBuffer;                     /* reserved: 0 */
  void* pPrivateDriverData;                    /* reserved: NULL */
  UINT PrivateDriverDataSize;                  /* reserved: 0 */
  D3DDDI_MARKERLOGTYPE MarkerLogType;
  UINT RenderCBSequence;
  UINT FirstAPISequenceNumberHigh;
  UINT CompletedAPISequenceNumberLow0Size;
  UINT CompletedAPISequenceNumberLow1Size;
  UINT BegunAPISequenceNumberLow0Size;
  UINT BegunAPISequenceNumberLow1Size;
  UINT64* pCompletedAPISequenceNumberLow0;
  UINT64* pCompletedAPISequenceNumberLow1;
  UINT64* pBegunAPISequenceNumberLow0;
  UINT64* pBegunAPISequenceNumberLow1;
} D3DDDICB_RENDER;

typedef struct _D3DDDIRANGE {
  UINT Offset;
  UINT Size;
} D3DDDIRANGE;

typedef struct _D3DDDIBOX {
  UINT Left, Top, Right, Bottom, Front, Back;
} D3DDDIBOX;

typedef struct _D3DDDI_LOCKFLAGS {
  union {
    DP2_ANONYMOUS struct {
      UINT ReadOnly : 1;
      UINT WriteOnly : 1;
      UINT NoOverwrite : 1;
      UINT Discard : 1;
      UINT RangeValid : 1;
      UINT AreaValid : 1;
      UINT BoxValid : 1;
      UINT NotifyOnly : 1;
      UINT MightDrawFromLocked : 1;
      UINT DoNotWait : 1;
      UINT Reserved : 22;
    };
    UINT Value;
  };
} D3DDDI_LOCKFLAGS;

typedef struct _D3DDDIARG_LOCK {
  HANDLE hResource;       /* in */
  UINT SubResourceIndex;  /* in */
  union {
    D3DDDIRANGE Range;    /* in */
    RECT Area;            /* in */
    D3DDDIBOX Box;        /* in */
  };
  void* pSurfData;        /* out */
  UINT Pitch;             /* out */
  UINT SlicePitch;        /* out */
  D3DDDI_LOCKFLAGS Flags; /* in */
} D3DDDIARG_LOCK;

typedef struct _D3DDDI_UNLOCKFLAGS {
  union {
    DP2_ANONYMOUS struct {
      UINT NotifyOnly : 1;
      UINT Reserved : 31;
    };
    UINT Value;
  };
} D3DDDI_UNLOCKFLAGS;

typedef struct _D3DDDIARG_UNLOCK {
  HANDLE hResource;
  UINT SubResourceIndex;
  D3DDDI_UNLOCKFLAGS Flags;
} D3DDDIARG_UNLOCK;

typedef struct _D3DDDI_LOCKASYNCFLAGS {
  union {
    DP2_ANONYMOUS struct {
      UINT NoOverwrite : 1;
      UINT Discard : 1;
      UINT RangeValid : 1;
      UINT AreaValid : 1;
      UINT BoxValid : 1;
      UINT NoExistingReferences : 1;
      UINT NotifyOnly : 1;
      UINT Reserved : 25;
    };
    UINT Value;
  };
} D3DDDI_LOCKASYNCFLAGS;

typedef struct _D3DDDIARG_LOCKASYNC {
  HANDLE hResource;            /* in */
  UINT SubResourceIndex;       /* in */
  D3DDDI_LOCKASYNCFLAGS Flags; /* in */
  union {
    D3DDDIRANGE Range;
    RECT Area;
    D3DDDIBOX Box;
  };
  HANDLE hCookie;              /* out: the renamed allocation (Discard only) */
  void* pSurfData;             /* out */
  UINT Pitch;                  /* out */
  UINT SlicePitch;             /* out */
  UINT64 GpuVirtualAddress;    /* reserved: 0 */
} D3DDDIARG_LOCKASYNC;

typedef struct _D3DDDI_UNLOCKASYNCFLAGS {
  union {
    DP2_ANONYMOUS struct {
      UINT NotifyOnly : 1;
      UINT Reserved : 31;
    };
    UINT Value;
  };
} D3DDDI_UNLOCKASYNCFLAGS;

typedef struct _D3DDDIARG_UNLOCKASYNC {
  HANDLE hResource;
  UINT SubResourceIndex;
  D3DDDI_UNLOCKASYNCFLAGS Flags;
} D3DDDIARG_UNLOCKASYNC;

typedef struct _D3DDDIARG_RENAME {
  HANDLE hResource;          /* in */
  UINT SubResourceIndex;     /* in */
  HANDLE hCookie;            /* in: from LockAsync with Discard */
  UINT64 GpuVirtualAddress;  /* reserved: 0 */
} D3DDDIARG_RENAME;

DP2_STATIC_ASSERT(sizeof(D3DDDI_ALLOCATIONLIST) == 8, "D3DDDI_ALLOCATIONLIST");
DP2_STATIC_ASSERT(sizeof(D3DDDI_PATCHLOCATIONLIST) == 24, "D3DDDI_PATCHLOCATIONLIST");
DP2_STATIC_ASSERT(sizeof(D3DDDICB_RENDER) == (sizeof(void*) == 8 ? 680 : 376), "D3DDDICB_RENDER layout");

#if defined(__clang__)
#  pragma clang diagnostic pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* DP2_WDDM_H */
