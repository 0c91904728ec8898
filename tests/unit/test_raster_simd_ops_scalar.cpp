// simd.h's scalar copy — the one written with GCC's generic vectors, which the compiler
// lowers to the baseline instruction set — through the same operation-by-operation
// checks as the machine's vector target (test_raster_simd_ops.cpp), in dp2_tests.
#define DP2_SIMD_OPS_SCALAR 1
#include "test_raster_simd_ops.cpp"
