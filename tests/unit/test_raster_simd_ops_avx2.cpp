// simd.h's AVX2 copy through the same operation-by-operation checks as the other targets
// (test_raster_simd_ops.cpp). On x86 an executable of its own, built with -mavx2 -mfma
// as the AVX2 kernels are (tests/CMakeLists.txt); elsewhere it compiles to nothing.
#define DP2_SIMD_OPS_AVX2 1
#include "test_raster_simd_ops.cpp"
