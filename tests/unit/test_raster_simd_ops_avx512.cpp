// simd.h's AVX-512 copy (the AVX2 code built with AVX-512 F, VL, BW and DQ) through the
// same operation-by-operation checks as the other targets (test_raster_simd_ops.cpp). On
// x86 an executable of its own, built with the kernels' flags (tests/CMakeLists.txt);
// elsewhere it compiles to nothing.
#define DP2_SIMD_OPS_AVX512 1
#include "test_raster_simd_ops.cpp"
